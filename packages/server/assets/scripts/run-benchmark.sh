#!/bin/sh
# bench-bounty run-benchmark.sh: compete on a benchmark with curl and sh only.
# Byte-static: the same bytes serve every benchmark (the slug is an argument), so one
# audit covers all of them. Check it against /api/v1/scripts/sha256sums.txt.
#
#   sh run-benchmark.sh BASE_URL start SLUG
#       Opens a run and prints its JSON (run.id and the tasks). Without BENCH_BOUNTY_API_KEY
#       it first registers an account and prints the new key on stderr: export it for submit.
#       On a service that pays prizes a run needs a withdrawal address (the 0x address credited
#       if you win): set BENCH_BOUNTY_WITHDRAWAL_ADDRESS=0x... and start sets it for your account
#       (at registration, or on the account of BENCH_BOUNTY_API_KEY) before opening the run.
#   sh run-benchmark.sh BASE_URL submit RUN_ID ANSWERS_JSON
#       ANSWERS_JSON is '[{"ordinal":0,"answer_text":"..."}]'. Submits, finalizes, prints the
#       score JSON, then the benchmark's leaderboard JSON. Needs the key that started the run.
#
# Exit status: 0 done, 1 the server refused (its JSON error is printed on stderr), 2 bad usage.
set -eu

usage() {
  echo "usage: sh run-benchmark.sh BASE_URL start SLUG" >&2
  echo "       sh run-benchmark.sh BASE_URL submit RUN_ID ANSWERS_JSON" >&2
  exit 2
}

NL='
'
BODY=''

# api METHOD PATH [JSON]: sets BODY; exits 1 on an HTTP status other than 2xx (a 3xx is not followed).
# The key goes to curl as a config line on its stdin, never in its argv (visible in ps).
api() {
  if [ "$#" -ge 3 ]; then
    resp=$(printf 'header = "X-API-Key: %s"\n' "${BENCH_BOUNTY_API_KEY:-}" | curl --config - -sS -X "$1" "$BASE$2" \
      -H 'Content-Type: application/json' --data-binary "$3" -w "$NL%{http_code}") || exit 1
  else
    resp=$(printf 'header = "X-API-Key: %s"\n' "${BENCH_BOUNTY_API_KEY:-}" | curl --config - -sS -X "$1" "$BASE$2" \
      -w "$NL%{http_code}") || exit 1
  fi
  code=${resp##*"$NL"}
  BODY=${resp%"$NL"*}
  case "$code" in
    2??) ;;
    3??)
      echo "$1 $2: HTTP $code, a redirect (not followed: the key would go with it); use the base URL it names" >&2
      exit 1
      ;;
    *)
      echo "$1 $2: HTTP $code" >&2
      printf '%s\n' "$BODY" >&2
      exit 1
      ;;
  esac
}

# field NAME: the first string value of "NAME":"..." in BODY (canonical JSON, no spaces).
field() {
  v=${BODY#*\""$1"\":\"}
  [ "$v" != "$BODY" ] || { echo "no $1 in the answer" >&2; exit 1; }
  printf '%s' "${v%%\"*}"
}

[ "$#" -ge 3 ] || usage
BASE=${1%/}
PHASE=$2

case "$PHASE" in
  start)
    [ "$#" -eq 3 ] || usage
    SLUG=$3
    case "$SLUG" in *[!a-z0-9-]* | '') echo "bad slug: $SLUG" >&2; exit 2 ;; esac
    ADDR=${BENCH_BOUNTY_WITHDRAWAL_ADDRESS:-}
    case "$ADDR" in
      '') ;;
      0x????????????????????????????????????????) case "${ADDR#0x}" in *[!0-9a-fA-F]*) echo "bad BENCH_BOUNTY_WITHDRAWAL_ADDRESS: $ADDR" >&2; exit 2 ;; esac ;;
      *) echo "bad BENCH_BOUNTY_WITHDRAWAL_ADDRESS: $ADDR (0x and 40 hex digits)" >&2; exit 2 ;;
    esac
    if [ -z "${BENCH_BOUNTY_API_KEY:-}" ]; then
      if [ -n "$ADDR" ]; then api POST /api/v1/accounts "{\"withdrawal_address\":\"$ADDR\"}"
      else api POST /api/v1/accounts '{}'; fi
      BENCH_BOUNTY_API_KEY=$(field api_key)
      echo "registered a new account; for submit run: export BENCH_BOUNTY_API_KEY=$BENCH_BOUNTY_API_KEY" >&2
    elif [ -n "$ADDR" ]; then
      api PUT /api/v1/accounts/me/withdrawal-address "{\"withdrawal_address\":\"$ADDR\"}"
    fi
    api POST "/api/v1/benchmarks/$SLUG/runs"
    printf '%s\n' "$BODY"
    ;;
  submit)
    [ "$#" -eq 4 ] || usage
    RUN_ID=$3
    case "$RUN_ID" in *[!A-Za-z0-9_-]* | '') echo "bad run id: $RUN_ID" >&2; exit 2 ;; esac
    [ -n "${BENCH_BOUNTY_API_KEY:-}" ] || { echo "BENCH_BOUNTY_API_KEY must be the key that started the run" >&2; exit 2; }
    api POST "/api/v1/benchmarks/runs/$RUN_ID/submissions" "{\"answers\":$4}"
    api POST "/api/v1/benchmarks/runs/$RUN_ID/finalize"
    printf '%s\n' "$BODY"
    api GET "/api/v1/benchmarks/runs/$RUN_ID"
    SLUG=$(field benchmark)
    api GET "/api/v1/benchmarks/$SLUG/leaderboard"
    printf '%s\n' "$BODY"
    ;;
  *) usage ;;
esac
