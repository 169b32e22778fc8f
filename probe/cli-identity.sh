#!/bin/bash
# Probe: owner rules of the local CLI (issue 13 item 5), new variants: another account (and the keyless
# operator) changes an agent, its withdrawal address, the author flag, resumes/reruns its run, closes.
# Usage: bash probe/cli-identity.sh
B="$(cd "$(dirname "$0")/.." && pwd)/bin/bench-bounty"; W=$(mktemp -d); S="--store $W/s"; cd $W
key() { $B account create $S --name "$1" 2>/dev/null | sed -n 's/.*"api_key": *"\([^"]*\)".*/\1/p'; }
AUTH=$(key author); V=$(key victim); X=$(key attacker)
printf 'city,ts,label\n' > ds.csv; for i in 1 2 3 4; do echo "c$i,2026-01-0${i}T00:00:00Z,L$i" >> ds.csv; done
SLUG=$($B publish ds.csv $S --api-key "$AUTH" --label label --decision-ts ts --title T --template 'Q {payload.city}' --grader exact | sed -n 's/.*"slug": *"\([^"]*\)".*/\1/p' | head -1)
$B agent vic $S --api-key "$V" --withdrawal-address 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 >/dev/null 2>&1
# a victim run left in progress (the agent is killed by abort policy on a failing command)
$B run $SLUG $S --api-key "$V" --agent-id vic --agent "exit 3" --on-invalid abort --no-progress >/dev/null 2>&1
RUN=$(sqlite3 $W/s/platform.sqlite "select run_id from runs limit 1")
t() { out=$("$@" 2>&1); code=$?; echo "exit $code: $(echo "$out" | tr '\n' ' ' | cut -c1-170)"; }
echo "attacker sets the victim agent's withdrawal address:  $(t $B agent vic $S --api-key "$X" --withdrawal-address 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC)"
echo "attacker marks the victim agent as the author's:      $(t $B agent vic $S --api-key "$X" --author)"
echo "attacker via run --withdrawal-address:                $(t $B run $SLUG $S --api-key "$X" --agent-id vic --agent 'echo' --withdrawal-address 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC --no-progress)"
echo "attacker runs as the victim agent:                    $(t $B run $SLUG $S --api-key "$X" --agent-id vic --agent 'echo' --no-progress)"
echo "attacker resumes the victim's run $RUN:  $(t $B resume $RUN $S --api-key "$X" --no-progress)"
echo "keyless operator sets the withdrawal address:         $(t $B agent vic $S --withdrawal-address 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC)"
echo "keyless operator resumes the victim's run:            $(t $B resume $RUN $S --no-progress)"
echo "attacker closes the benchmark:                        $(t $B close $SLUG $S --api-key "$X")"
echo "attacker with the victim's key PREFIX only:           $(t $B agent vic $S --api-key "${V:0:16}" --withdrawal-address 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC)"
echo "attacker with the victim's key + trailing space:      $(t $B agent vic $S --api-key "$V " --withdrawal-address 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC)"
echo "attacker with the victim's key upper-cased:           $(t $B agent vic $S --api-key "${V^^}" --withdrawal-address 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC)"
echo "attacker revokes the victim's key by prefix:          $(t $B account revoke "${V:0:16}" $S --api-key "$X")"
echo "withdrawal address now: $(sqlite3 $W/s/platform.sqlite "select agent_id, withdrawal_address, is_author_agent from agents where agent_id='vic'")"
rm -rf $W
