#!/bin/bash
# Probe: limits agreeing end to end (issue 13 item 8). `publish` accepts a speed_weight (and a numeric
# tolerance) of 122 characters; the default verifier refuses decimals over 100 characters. Part 1 publishes
# (exit 0, value stored as given); part 2 puts the same value where a pack carries it and runs the verifier.
# Usage: bash probe/publish-vs-verifier.sh
R="$(cd "$(dirname "$0")/.." && pwd)"; B=$R/bin/bench-bounty; W=$(mktemp -d); cd $W
LONG="0.$(printf '1%.0s' $(seq 1 120))"
printf 'city,ts,label\n' > ds.csv; for i in 1 2 3 4; do echo "c$i,2026-01-0${i}T00:00:00Z,$i.5" >> ds.csv; done
n=0; for opt in "--grader exact --speed-weight $LONG" "--grader numeric --tolerance $LONG"; do n=$((n+1)); S="--store $W/s$n"
  K=$($B account create $S --name a 2>/dev/null | sed -n 's/.*"api_key": *"\([^"]*\)".*/\1/p')
  $B publish ds.csv $S --api-key $K --label label --decision-ts ts --title T --template 'Q {payload.city}' $opt > p.json 2>&1
  echo "publish ${opt:0:32}...: exit $?, stored $(grep -o -E '"(speed_weight|tolerance)": *"0\.1{20}' p.json | head -1)..."
done
node -e '
const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]+"/spec/vectors/packs/small.json","utf8"));
const long=process.argv[2];
const a=structuredClone(p);a.rank_derivation.speed_weight=long;fs.writeFileSync("sw.json",JSON.stringify(a));
const b=structuredClone(p);b.test_set[7].gold.tolerance=long;fs.writeFileSync("tol.json",JSON.stringify(b));' "$R" "$LONG"
for f in sw tol; do out=$(node $R/packages/verifier/dist/bin.js verify $f.json 2>&1); echo "verify pack with the $f value: exit $? $(echo "$out" | grep -i -E "bad input|error" | head -1 | cut -c1-200)"; done
rm -rf $W
