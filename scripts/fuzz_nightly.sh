#!/usr/bin/env bash
# The nightly-sized schemathesis run (SPEC §13; docs/RELIABILITY.md): the suite's `fuzz` test
# with many more generated cases per operation, against a scratch server. Fuzzes every route as
# an owner, the agent routes with a full-scope key and the operator routes with the admin
# password, then reports the requests the server counted and how many answered 5xx.
# Exits non-zero on any server error or schemathesis failure.
#
#   FUZZ_EXAMPLES=60   cases per operation and identity (about 60 x 109 operation runs)
#   FUZZ_WORKERS=1     concurrent schemathesis workers
#   FUZZ_LOG_DIR       where the schemathesis outputs go (default: a temporary directory)
#
# Needs `scripts/setup.sh --test` (the virtualenv with schemathesis, the test PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
EXAMPLES="${FUZZ_EXAMPLES:-60}"
WORKERS="${FUZZ_WORKERS:-1}"
CACHE_DIR="${MINICLAW_CACHE_DIR:-$HOME/.cache/miniclaw}"
ST="$CACHE_DIR/venv/bin/schemathesis"
[ -x "$ST" ] || { echo "no $ST: run scripts/setup.sh --test" >&2; exit 1; }
SCHEMA="$PWD/openapi/openapi.json"

# shellcheck source=scripts/scratch_server.sh
. scripts/scratch_server.sh
trap scratch_cleanup EXIT
LOG_DIR="${FUZZ_LOG_DIR:-$SCRATCH_DIR/logs}"
mkdir -p "$LOG_DIR"

scratch_start ADMIN_PASSWORD=fuzz-admin MINICLAW_RATE_LIMIT_IP=0 MINICLAW_RATE_LIMIT_KEY=0 MINICLAW_WORKER=false
scratch_owner fuzz@example.com
read -r before_total before_errors < <(scratch_requests)
started=$(date +%s)

status=0
fuzz() { # name header [filter...]
  local name="$1" header="$2"
  shift 2
  echo "==> schemathesis as $name ($EXAMPLES cases per operation)"
  # Run from the scratch directory: schemathesis writes its cache and reports there.
  if (cd "$SCRATCH_DIR" && "$ST" run "$SCHEMA" --url "$BASE" --checks not_a_server_error \
      --workers "$WORKERS" --max-examples "$EXAMPLES" --header "$header" \
      --exclude-path /v1/auth/logout --suppress-health-check all --no-color "$@") >"$LOG_DIR/$name.txt" 2>&1; then
    tail -n 4 "$LOG_DIR/$name.txt"
  else
    status=1
    echo "schemathesis reported failures as $name (full output: $LOG_DIR/$name.txt):" >&2
    tail -n 60 "$LOG_DIR/$name.txt" >&2
  fi
}
fuzz owner "Authorization: Bearer $TOKEN"
fuzz key "Authorization: Bearer $KEY" --include-path-regex '^/v1/hosted-agents/'
fuzz admin "Authorization: Bearer fuzz-admin" --include-path-regex '^/v1/admin/'

read -r after_total after_errors < <(scratch_requests)
requests=$((after_total - before_total))
errors=$((after_errors - before_errors))
elapsed=$(($(date +%s) - started))
echo "fuzz_nightly: $requests requests, $errors server errors (5xx), ${elapsed} s, $EXAMPLES cases per operation"
if [ "$errors" -gt 0 ]; then
  echo "server errors in the log:" >&2
  grep -iE 'internal error|panicked' "$SCRATCH_DIR/server.log" | tail -n 20 >&2 || true
  status=1
fi
exit "$status"
