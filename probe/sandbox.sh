#!/bin/sh
# Probe: CLI agent sandbox (issue 13 item 3), new variants: the store given through a SYMLINK, open file
# descriptors, /proc of the runner, other agents' temp dirs, the environment, loopback databases.
# Usage: sh probe/sandbox.sh   (creates /tmp/probe2_sb, uses ./bin/bench-bounty of this worktree)
set -e
B="$(cd "$(dirname "$0")/.." && pwd)/bin/bench-bounty"
W=/tmp/probe2_sb; rm -rf $W; mkdir -p $W/real; ln -s $W/real $W/link; cd $W
STORE=${STORE:-link}   # link: the store named through a symlink; real: by its real path
printf 'city,ts,label\n' > ds.csv; for i in 1 2 3 4 5 6; do echo "c$i,2026-01-0${i}T00:00:00Z,GOLD_SECRET_$i" >> ds.csv; done
AUTH=$($B account create --store $W/$STORE --name author | sed -n 's/.*"api_key": *"\([^"]*\)".*/\1/p')
COMP=$($B account create --store $W/$STORE --name comp | sed -n 's/.*"api_key": *"\([^"]*\)".*/\1/p')
echo "author key: ${AUTH%%????????????????????????}... competitor key: ${COMP%%????????????????????????}..."
SLUG=$($B publish ds.csv --store $W/$STORE --api-key "$AUTH" --label label --decision-ts ts --title T --template 'Q {payload.city}' --grader exact --public-fraction 0.5 | sed -n 's/.*"slug": *"\([^"]*\)".*/\1/p' | head -1)
echo "slug: $SLUG"
# a fake other agent's working dir with its notes
mkdir -p /tmp/bb-agent-OTHERAGENT; echo "other agent's private notes" > /tmp/bb-agent-OTHERAGENT/notes.txt
cat > $W/spy.sh <<'SPY'
#!/bin/sh
cat > /dev/null
R=""
for p in /tmp/probe2_sb/link /tmp/probe2_sb/real; do R="$R $p:$(ls -A $p 2>/dev/null | tr '\n' ','|head -c 200)"; done
R="$R gold_in_store:$(grep -rl GOLD_SECRET /tmp/probe2_sb/real /tmp/probe2_sb/link 2>/dev/null | tr '\n' ',' )"
R="$R fds:$(ls -l /proc/self/fd 2>/dev/null | awk '{print $NF}' | tr '\n' ',')"
R="$R procs:$(ls /proc | grep -c '^[0-9]')"
R="$R env:$(env | cut -d= -f1 | tr '\n' ',')"
R="$R other_agent:$(cat /tmp/bb-agent-OTHERAGENT/notes.txt 2>&1 | head -c 60)"
R="$R dataset_file:$(grep -c GOLD_SECRET /tmp/probe2_sb/ds.csv 2>&1)"
R="$R pg:$( (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null && echo open || (command -v nc >/dev/null && nc -z 127.0.0.1 5432 && echo open-nc || echo closed-or-no-tool))"
printf '{"answers":[{"ordinal":0,"answer_text":"%s"}]}' "$(echo "$R" | tr '"\\' "''")"
SPY
$B agent spy --store $W/$STORE --api-key "$COMP" >/dev/null
$B run "$SLUG" --store $W/$STORE --api-key "$COMP" --agent "sh $W/spy.sh" --agent-id spy --no-progress > run.json 2> run.err || true
cat run.err | head -5
node -e '
const D=require("better-sqlite3");' 2>/dev/null || true
echo "--- what the agent saw (first answer, read from the store as the author):"
sqlite3 $W/real/*.sqlite "select answer_text from answers limit 1" 2>/dev/null || \
  find $W/real -name "*.sqlite*" -o -name "*.db" | head
