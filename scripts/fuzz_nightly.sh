#!/usr/bin/env bash
# The nightly-sized schemathesis run (SPEC §13; docs/RELIABILITY.md): the suite's `fuzz` test
# with many more generated cases per operation, against a scratch server. Fuzzes every route as
# an owner, the agent routes on a real agent as the owner and with a full-scope key, and the
# operator routes with the admin password, then reports the requests the server counted and
# how many answered 5xx.
# Exits non-zero on any server error or schemathesis failure.
#
#   FUZZ_EXAMPLES=200  cases per operation and identity (4 runs over 141 operations in all)
#   FUZZ_WORKERS=1     concurrent schemathesis workers
#   FUZZ_LOG_DIR       where the schemathesis outputs go (default: a temporary directory)
#
# Needs `scripts/setup.sh --test` (the virtualenv with schemathesis, the test PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
EXAMPLES="${FUZZ_EXAMPLES:-200}"
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
# Fixes the `{id}` of every path to the fuzzed agent, so that generated requests reach the
# agent routes' handlers instead of stopping at "agent not found".
printf '[parameters]\n"path.id" = "%s"\n' "$AGENT_ID" >"$SCRATCH_DIR/agent-id.toml"
fuzz() { # name header [schemathesis options...]
  local name="$1" header="$2"
  shift 2
  echo "==> schemathesis as $name ($EXAMPLES cases per operation)"
  # Run from the scratch directory: schemathesis writes its cache and reports there.
  if (cd "$SCRATCH_DIR" && "$ST" "${CONFIG[@]}" run "$SCHEMA" --url "$BASE" --checks not_a_server_error \
      --workers "$WORKERS" --max-examples "$EXAMPLES" --header "$header" \
      --exclude-path /v1/auth/logout --suppress-health-check all --no-color "$@") >"$LOG_DIR/$name.txt" 2>&1; then
    grep -E '^  [0-9]+ generated' "$LOG_DIR/$name.txt" || true
  else
    status=1
    echo "schemathesis reported failures as $name (full output: $LOG_DIR/$name.txt):" >&2
    tail -n 60 "$LOG_DIR/$name.txt" >&2
  fi
}
CONFIG=(--config-file "$SCRATCH_DIR/agent-id.toml")
# The agent's routes on a real agent, as the owner and as a full-scope key; neither deletes the
# agent, the key does not revoke itself (both would end the run's reach early).
fuzz owner-agent "Authorization: Bearer $TOKEN" --include-path-regex '^/v1/hosted-agents/\{id\}' \
  --exclude-name 'DELETE /v1/hosted-agents/{id}'
fuzz key "Authorization: Bearer $KEY" --include-path-regex '^/v1/hosted-agents/\{id\}' \
  --exclude-name 'DELETE /v1/hosted-agents/{id}' --exclude-name 'DELETE /v1/hosted-agents/{id}/api-keys/{kid}'
CONFIG=()
fuzz admin "Authorization: Bearer fuzz-admin" --include-path-regex '^/v1/admin/'
# Every route as the owner, with generated ids; last, as its stateful phase may delete the agent
# (through the links from the agent list).
fuzz owner "Authorization: Bearer $TOKEN"

read -r after_total after_errors < <(scratch_requests)
requests=$((after_total - before_total))
errors=$((after_errors - before_errors))
elapsed=$(($(date +%s) - started))
echo "fuzz_nightly: $requests requests, $errors server errors (5xx), ${elapsed} s, $EXAMPLES cases per operation"
if [ "$errors" -gt 0 ]; then
  echo "server errors in the log:" >&2
  grep -iE 'internal error|panicked' "$SCRATCH_LOG" | tail -n 20 >&2 || true
  status=1
fi
exit "$status"
