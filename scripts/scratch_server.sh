# Sourced by the long-running checks (fuzz_nightly.sh, soak.sh): builds miniclaw, serves it on a
# free loopback port against a scratch database of its own on the test PostgreSQL server, and
# removes both on exit. Sets SERVER_PID, BASE (http://127.0.0.1:PORT), DB_NAME and DB_URL.
#
#   SCRATCH_PROFILE   debug (default), release, or serve (release-grade, faster to build)
#   SCRATCH_LOG       keep the server's log in this file (default: a temporary file, removed on exit)
#   MINICLAW_TEST_DATABASE_URL   the server to create the database on (default 127.0.0.1:5432)

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/miniclaw/target}"
SCRATCH_PROFILE="${SCRATCH_PROFILE:-debug}"
PG_ADMIN_URL="${MINICLAW_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
SCRATCH_DIR="$(mktemp -d)"
SCRATCH_LOG="${SCRATCH_LOG:-$SCRATCH_DIR/server.log}"

scratch_cleanup() {
  if [ -n "${SERVER_PID:-}" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  if [ -n "${DB_NAME:-}" ]; then
    psql -q "$PG_ADMIN_URL" -c "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  rm -rf "$SCRATCH_DIR"
}

# scratch_start VAR=VALUE... : extra environment for the server.
scratch_start() {
  local flag=""
  [ "$SCRATCH_PROFILE" = "release" ] && flag="--release"
  [ "$SCRATCH_PROFILE" = "serve" ] && flag="--profile serve"
  # SCRATCH_BIN: a binary built elsewhere (another commit's, to compare in one session).
  if [ -n "${SCRATCH_BIN:-}" ]; then
    MINICLAW_BIN="$SCRATCH_BIN"
  else
    # shellcheck disable=SC2086
    cargo build -q --locked $flag --bin miniclaw
    MINICLAW_BIN="$CARGO_TARGET_DIR/$SCRATCH_PROFILE/miniclaw"
  fi
  DB_NAME="mc_scratch_$(date +%s)_$$"
  psql -q "$PG_ADMIN_URL" -c "CREATE DATABASE $DB_NAME" >/dev/null
  DB_URL="${PG_ADMIN_URL%/*}/$DB_NAME"
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  BASE="http://127.0.0.1:$port"
  env -i PATH="$PATH" HOME="$HOME" RUST_LOG="${RUST_LOG:-miniclaw=warn}" \
    DATABASE_URL="$DB_URL" MINICLAW_ADDR="127.0.0.1:$port" MINICLAW_EMBEDDER="${MINICLAW_EMBEDDER:-hash}" \
    MINICLAW_DATA_DIR="$SCRATCH_DIR/data" \
    "$@" "$MINICLAW_BIN" serve >"$SCRATCH_LOG" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 600); do
    if curl -fsS "$BASE/readyz" >/dev/null 2>&1; then return 0; fi
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$SCRATCH_LOG" >&2; echo "the server exited" >&2; return 1; }
    sleep 0.1
  done
  echo "the server was not ready within 60 s" >&2
  return 1
}

# scratch_owner: signs an owner up and creates an agent and a full-scope key; sets TOKEN,
# AGENT_ID and KEY.
scratch_owner() {
  local email="${1:-owner@example.com}"
  TOKEN=$(curl -fsS "$BASE/v1/auth/signup" -H 'content-type: application/json' \
    -d "{\"email\":\"$email\",\"password\":\"correct horse battery\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["session_token"])')
  AGENT_ID=$(curl -fsS "$BASE/v1/hosted-agents" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
    -d '{"name":"Fuzzed"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  KEY=$(curl -fsS "$BASE/v1/hosted-agents/$AGENT_ID/api-keys" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
    -d '{"name":"fuzz","scopes":["*"]}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')
}

# scratch_requests: "TOTAL SERVER_ERRORS" from the server's own request counter (/metrics).
scratch_requests() {
  curl -fsS "$BASE/metrics" | python3 -c '
import re, sys
total = errors = 0
for line in sys.stdin:
    if line.startswith("http_requests_total{"):
        n = float(line.rsplit(" ", 1)[1])
        total += n
        if re.search(r"status=\"5\d\d\"", line):
            errors += n
print(int(total), int(errors))'
}
