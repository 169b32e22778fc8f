#!/bin/sh
# bench-bounty run-benchmark.sh: compete on a benchmark with curl and sh only.
# Byte-static: the same bytes serve every benchmark (the slug is an argument), so one
# audit covers all of them. Check it against /api/v1/scripts/sha256sums.txt.
#
#   sh run-benchmark.sh BASE_URL start SLUG
#       Opens a run and prints its JSON (run.id and the tasks). It first reads the benchmark: one
#       that does not exist or is closed is refused before anything is written. Without
#       BENCH_BOUNTY_API_KEY it then registers an account and prints the new key on stderr: export
#       it for submit and for any retry of start (the account stays even if the start is refused).
#       On a service that pays prizes a run needs a withdrawal address (the 0x address credited
#       if you win): set BENCH_BOUNTY_WITHDRAWAL_ADDRESS=0x... and start sets it for your account
#       (at registration, or on the account of BENCH_BOUNTY_API_KEY) before opening the run;
#       without a key and without it, start on such a service is exit 2, nothing registered.
#   sh run-benchmark.sh BASE_URL submit RUN_ID ANSWERS_JSON
#       submit = submit ALL your answers and finalize the run (uses up the attempt): one call per
#       attempt, every answer in it (a task left out scores zero). ANSWERS_JSON is
#       '[{"ordinal":0,"answer_text":"..."}]'. Submits, finalizes, prints the score JSON, then the
#       benchmark's leaderboard JSON. Needs a key of the account that started the run.
#   sh run-benchmark.sh --help
#       Prints the usage on stdout (exit 0).
#
# Exit status: 0 done, 1 the server refused (its JSON error is printed on stderr) or answered a
# value this script will not use, 2 bad usage or a setting start needs is missing (the withdrawal
# address on a service that pays prizes).
# What the server answers goes into curl's config or argv only when it has the strict form checked
# here (a key: bbk_, 12 hex digits, _, 43 of A-Z a-z 0-9 _ -; a slug: a-z 0-9 -): anything else is
# refused before it is used or printed, so a server cannot set curl options (output = PATH ...).
set -eu

usage_text() {
  echo "usage: sh run-benchmark.sh BASE_URL start SLUG"
  echo "       sh run-benchmark.sh BASE_URL submit RUN_ID ANSWERS_JSON"
  echo "start opens a run and prints its JSON (run.id, tasks); without BENCH_BOUNTY_API_KEY it registers an account and prints its key"
  echo "submit = submit ALL your answers and finalize the run (uses up the attempt): ANSWERS_JSON is every answer,"
  echo "  '[{\"ordinal\":0,\"answer_text\":\"...\"}, ...]'; it prints the score, then the leaderboard"
}

usage() {
  usage_text >&2
  exit 2
}

case "${1:-}" in
  -h | --help) usage_text; exit 0 ;;
esac

NL='
'
BODY=''
# said on stderr after a refusal once start has registered an account (the key to reuse)
REGISTERED=''

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
      case "$BODY" in
        *'"code":"withdrawal_address_required"'*) echo "set BENCH_BOUNTY_WITHDRAWAL_ADDRESS=0x... (the address credited if you win) and run start again" >&2 ;;
      esac
      [ -z "$REGISTERED" ] || echo "the start was refused, but the account it registered exists: export BENCH_BOUNTY_API_KEY=$REGISTERED and run start again with it (no new account)" >&2
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

# is_key VALUE: true when VALUE has the form of the keys the platform issues (packages/platform
# src/identity/keys.ts): bbk_, 12 lowercase hex digits, _, 43 of A-Z a-z 0-9 _ -. Only such a
# value goes into curl's config (no newline, quote or backslash can reach it).
is_key() {
  case "$1" in
    bbk_[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]_*) ;;
    *) return 1 ;;
  esac
  k=${1#bbk_}
  [ "${#k}" -eq 56 ] || return 1
  case "${k#????????????_}" in *[!A-Za-z0-9_-]*) return 1 ;; esac
}

# is_slug VALUE: true when VALUE is a benchmark slug (a-z 0-9 -, not empty).
is_slug() {
  case "$1" in *[!a-z0-9-]* | '') return 1 ;; esac
}

# refuse_key: exits 2 when BENCH_BOUNTY_API_KEY is set but is not a key (the value is not printed).
refuse_key() {
  [ -z "${BENCH_BOUNTY_API_KEY:-}" ] || is_key "$BENCH_BOUNTY_API_KEY" || {
    echo "bad BENCH_BOUNTY_API_KEY (not shown): a key is bbk_, 12 hex digits, _ and 43 of A-Z a-z 0-9 _ -" >&2
    exit 2
  }
}

[ "$#" -ge 3 ] || usage
BASE=${1%/}
PHASE=$2

case "$PHASE" in
  start)
    [ "$#" -eq 3 ] || usage
    SLUG=$3
    is_slug "$SLUG" || { echo "bad slug: $SLUG" >&2; exit 2; }
    ADDR=${BENCH_BOUNTY_WITHDRAWAL_ADDRESS:-}
    case "$ADDR" in
      '') ;;
      0x????????????????????????????????????????) case "${ADDR#0x}" in *[!0-9a-fA-F]*) echo "bad BENCH_BOUNTY_WITHDRAWAL_ADDRESS: $ADDR" >&2; exit 2 ;; esac ;;
      *) echo "bad BENCH_BOUNTY_WITHDRAWAL_ADDRESS: $ADDR (0x and 40 hex digits)" >&2; exit 2 ;;
    esac
    refuse_key
    # what can be known before anything is written: the benchmark exists (else 404), is open, and
    # whether a run here needs a withdrawal address (withdrawal_address_required, the start's own rule:
    # the service has a chain, or its store is used on one; probe36 A-F3: commitment.awarder was tested,
    # null in a chainless process of a chain store); a refused start registers no account (probe35 A-F3)
    api GET "/api/v1/benchmarks/$SLUG"
    case "$BODY" in
      *'"open":true'*) ;;
      *) echo "GET /api/v1/benchmarks/$SLUG: the benchmark is not open (closed or awarded): no run can start; nothing registered" >&2; exit 1 ;;
    esac
    if [ -z "${BENCH_BOUNTY_API_KEY:-}" ] && [ -z "$ADDR" ]; then
      case "$BODY" in
        *'"withdrawal_address_required":true'*)
          echo "this service pays prizes: a run needs a withdrawal address; set BENCH_BOUNTY_WITHDRAWAL_ADDRESS=0x... (the address credited if you win) and run start again; nothing registered" >&2
          exit 2
          ;;
      esac
    fi
    if [ -z "${BENCH_BOUNTY_API_KEY:-}" ]; then
      if [ -n "$ADDR" ]; then api POST /api/v1/accounts "{\"withdrawal_address\":\"$ADDR\"}"
      else api POST /api/v1/accounts '{}'; fi
      BENCH_BOUNTY_API_KEY=$(field api_key)
      is_key "$BENCH_BOUNTY_API_KEY" || {
        echo "POST /api/v1/accounts: the server's api_key is not a bench-bounty key (bbk_, 12 hex digits, _, 43 of A-Z a-z 0-9 _ -); refused, not used (not shown)" >&2
        exit 1
      }
      REGISTERED=$BENCH_BOUNTY_API_KEY
      echo "registered a new account; for submit (and any retry of start) run: export BENCH_BOUNTY_API_KEY=$BENCH_BOUNTY_API_KEY" >&2
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
    [ -n "${BENCH_BOUNTY_API_KEY:-}" ] || { echo "BENCH_BOUNTY_API_KEY must be a key of the account that started the run" >&2; exit 2; }
    refuse_key
    api POST "/api/v1/benchmarks/runs/$RUN_ID/submissions" "{\"answers\":$4}"
    api POST "/api/v1/benchmarks/runs/$RUN_ID/finalize"
    printf '%s\n' "$BODY"
    api GET "/api/v1/benchmarks/runs/$RUN_ID"
    SLUG=$(field benchmark)
    is_slug "$SLUG" || { echo "GET /api/v1/benchmarks/runs/$RUN_ID: the server's benchmark is not a slug (a-z 0-9 -); refused, not used (not shown)" >&2; exit 1; }
    api GET "/api/v1/benchmarks/$SLUG/leaderboard"
    printf '%s\n' "$BODY"
    ;;
  *) usage ;;
esac
