#!/bin/bash
# Probe: invalid UTF-8 in a dataset (issue 13 item 9), new variants, through `bench-bounty validate` (CSV and
# JSON files) and POST /api/v1/datasets/validate. Each must be refused naming the row and the byte offset.
# Usage: bash probe/utf8.sh [http://127.0.0.1:PORT]
B="$(cd "$(dirname "$0")/.." && pwd)/bin/bench-bounty"; D=$(mktemp -d); S=$1
for v in "overlong:\xc0\x80" "surrogate:\xed\xa0\x80" "beyond10ffff:\xf4\x90\x80\x80" "fivebyte:\xf8\x88\x80\x80\x80" "truncated:\xe2\x82" "lonecont:\x80" "nul:\x00"; do
  n=${v%%:*}; b=${v#*:}
  printf "city,ts,label\nok,2026-01-01T00:00:00Z,a\nx${b}y,2026-01-02T00:00:00Z,b\n" > $D/$n.csv
  printf '{"name":"u","rows":[{"decision_ts":"2026-01-01","payload":{"c":"ok"},"label":"a"},{"decision_ts":"2026-01-02","payload":{"c":"x'"$b"'y"},"label":"b"}]}' > $D/$n.json
  echo "== $n"
  echo "  csv : $($B validate $D/$n.csv --label label --decision-ts ts 2>&1 | tr '\n' ' ' | cut -c1-230)"
  echo "  json: $($B validate $D/$n.json 2>&1 | tr '\n' ' ' | cut -c1-230)"
  [ -n "$S" ] && echo "  rest: $(curl -s -X POST $S/api/v1/datasets/validate -H 'content-type: application/json' --data-binary @$D/$n.json | cut -c1-230)"
done
# UTF-16 file with BOM, UTF-8 BOM
printf '\xef\xbb\xbfcity,ts,label\nok,2026-01-01T00:00:00Z,a\n' > $D/bom8.csv; echo "== utf8 BOM csv: $($B validate $D/bom8.csv --label label --decision-ts ts 2>&1 | tr '\n' ' ' | cut -c1-200)"
printf 'city,ts,label\nok,2026-01-01T00:00:00Z,a\n' | iconv -f utf-8 -t utf-16 > $D/u16.csv; echo "== utf16 csv: $($B validate $D/u16.csv --label label --decision-ts ts 2>&1 | tr '\n' ' ' | cut -c1-200)"
rm -rf $D
