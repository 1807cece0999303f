#!/usr/bin/env bash
# The nightly-sized schemathesis run (SPEC §13; docs/RELIABILITY.md): the suite's `fuzz` test
# with many more generated cases per operation, against a scratch server. Seeds the server with
# real resources (scripts/fuzz_seed.py: a memory, a chat turn, a task, a post and a comment, a
# skill, a service, an order, a webhook endpoint and a delivery, ...) and fixes the path
# parameters of every run to their ids, so that generated requests reach the handlers instead
# of stopping at 404. The routes that need a chain, a DNS answer, a Telegram Bot API or a signed
# delivery get them on loopback (anvil with the IdentityRegistry, tests/support/dns_server.py,
# tests/support/telegram_api.py, and scripts/fuzz_hooks.py signing each generated delivery).
# Fuzzes every route as an owner, the agent routes on a real agent as the
# owner and with a full-scope key (with the MCP endpoint), and the operator routes with the
# admin password, then reports the requests the server counted, how many answered 5xx, and how
# many operations answered 2xx and reached their handler (scripts/fuzz_coverage.py).
# Exits non-zero on any server error or schemathesis failure.
#
#   FUZZ_EXAMPLES=200  cases per operation and identity (4 runs over the operations of the document)
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
ROOT="$PWD"
SCHEMA="$ROOT/openapi/openapi.json"

# shellcheck source=scripts/scratch_server.sh
. scripts/scratch_server.sh
HELPERS=()
cleanup() {
  for pid in "${HELPERS[@]}"; do kill "$pid" 2>/dev/null || true; done
  scratch_cleanup
}
trap cleanup EXIT
LOG_DIR="${FUZZ_LOG_DIR:-$SCRATCH_DIR/logs}"
mkdir -p "$LOG_DIR"
PY="$CACHE_DIR/venv/bin/python"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# helper NAME PORT COMMAND...: starts a loopback helper, waits (30 s at most) for its port.
helper() {
  local name="$1" port="$2"
  shift 2
  "$@" >"$LOG_DIR/$name.log" 2>&1 &
  HELPERS+=("$!")
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "fuzz_nightly: $name did not listen on $port" >&2
  exit 1
}

# The components some routes need, all on loopback, so that those routes are fuzzed too:
# - a chain: anvil with the committed IdentityRegistry (registration files, tokens);
# - a DNS server whose TXT records the seeding writes (domain proofs, the agent card by Host);
# - a Telegram Bot API (a bot to disconnect, a webhook whose secret it records);
# - signing secrets for the two signed webhooks: scripts/fuzz_hooks.py signs each generated
#   delivery with them, so that the fuzzing reaches what reads their bodies.
EVM_DIR="${MINICLAW_EVM_DIR:-$CACHE_DIR/evm}"
[ -x "$EVM_DIR/node_modules/.bin/anvil" ] || { echo "no anvil in $EVM_DIR: run scripts/setup.sh --test" >&2; exit 1; }
ANVIL_PORT=$(free_port)
helper anvil "$ANVIL_PORT" "$EVM_DIR/node_modules/.bin/anvil" --host 127.0.0.1 --port "$ANVIL_PORT" --silent
RPC="http://127.0.0.1:$ANVIL_PORT"
REGISTRY=$(python3 - "$RPC" contracts/IdentityRegistry.json <<'PYEOF'
import json, sys, time, urllib.request
rpc, artifact = sys.argv[1], sys.argv[2]
def call(method, params):
    req = urllib.request.Request(rpc, json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode(),
                                 {"content-type": "application/json"})
    answer = json.load(urllib.request.urlopen(req, timeout=30))
    if "error" in answer:
        sys.exit(f"{method}: {answer['error']}")
    return answer["result"]
code = json.load(open(artifact))["bytecode"]
sender = call("eth_accounts", [])[0]  # anvil's first dev account, unlocked
tx = call("eth_sendTransaction", [{"from": sender, "data": code if code.startswith("0x") else "0x" + code}])
for _ in range(100):
    receipt = call("eth_getTransactionReceipt", [tx])
    if receipt:
        break
    time.sleep(0.1)
if not receipt or receipt.get("status") != "0x1":
    sys.exit(f"the registry's deployment failed: {receipt}")
print(receipt["contractAddress"])
PYEOF
)
DNS_RECORDS="$SCRATCH_DIR/dns-records.json"
echo '{}' >"$DNS_RECORDS"
DNS_PORT=$(free_port)
helper dns "$DNS_PORT" "$PY" tests/support/dns_server.py "$DNS_RECORDS" "$DNS_PORT"
export FUZZ_TELEGRAM_SECRET_FILE="$SCRATCH_DIR/telegram-secret"
TELEGRAM_PORT=$(free_port)
helper telegram "$TELEGRAM_PORT" "$PY" tests/support/telegram_api.py "$FUZZ_TELEGRAM_SECRET_FILE" "$TELEGRAM_PORT"
FUZZ_RESEND_WEBHOOK_SECRET="whsec_$(python3 -c 'import base64, secrets; print(base64.b64encode(secrets.token_bytes(24)).decode())')"
FUZZ_VERIFICATION_WEBHOOK_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
export FUZZ_RESEND_WEBHOOK_SECRET FUZZ_VERIFICATION_WEBHOOK_SECRET

# A master key, so that the agent can have a wallet; an SMTP transport that is never used (the
# job worker is off, approved email stays queued), so that approving outreach is not a 503.
MASTER_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
scratch_start ADMIN_PASSWORD=fuzz-admin MINICLAW_RATE_LIMIT_IP=0 MINICLAW_RATE_LIMIT_KEY=0 MINICLAW_WORKER=false \
  MINICLAW_MASTER_KEY="$MASTER_KEY" SMTP_URL='smtp://127.0.0.1:9?tls=none' \
  EVM_RPC_URL="$RPC" EVM_CHAIN_ID=31337 ERC8004_REGISTRY_ADDRESS="$REGISTRY" \
  MINICLAW_DNS_SERVER="127.0.0.1:$DNS_PORT" TELEGRAM_API_BASE="http://127.0.0.1:$TELEGRAM_PORT" \
  RESEND_WEBHOOK_SECRET="$FUZZ_RESEND_WEBHOOK_SECRET" MINICLAW_VERIFICATION_WEBHOOK_SECRET="$FUZZ_VERIFICATION_WEBHOOK_SECRET"
scratch_owner fuzz@example.com
# From here on a 5xx counts, the seeding's too.
read -r before_total before_errors < <(scratch_requests)
started=$(date +%s)

# Real resources for the path parameters: the config fixes `{id}` to the fuzzed agent, `{mid}`
# to a memory or a message depending on the path, ... The deleting operations get spare
# resources of their own (`DELETE /v1/hosted-agents/{id}` a second agent, `{kid}` a second
# key, never the one the key run uses). A seed that fails is a line on stderr, not an error.
SEED="$SCRATCH_DIR/fuzz-seed.toml"
echo "==> seeding"
python3 scripts/fuzz_seed.py --base "$BASE" --token "$TOKEN" --agent "$AGENT_ID" --admin fuzz-admin \
  --schema "$SCHEMA" --out "$SEED" --ids "$LOG_DIR/seeded-ids.json" --dns-records "$DNS_RECORDS" --chain --telegram 2>&1 | tee "$LOG_DIR/seed.txt"
[ -s "$SEED" ] || { echo "fuzz_nightly: seeding wrote no configuration" >&2; exit 1; }
cp "$SEED" "$LOG_DIR/fuzz-seed.toml"
# Logout ends the session it is sent with: the config sends it with a throwaway account's
# session; without that entry it is left out, as the owner's session must last the run.
LOGOUT=()
grep -qF 'v1/auth/logout' "$SEED" || LOGOUT=(--exclude-path /v1/auth/logout)
# Coverage counts the fuzzing's requests only, not the seeding's.
python3 scripts/fuzz_coverage.py --base "$BASE" --schema "$SCHEMA" --save "$SCRATCH_DIR/metrics-seeded.json"

status=0
fuzz() { # name header [schemathesis options...]
  local name="$1" header="$2"
  shift 2
  echo "==> schemathesis as $name ($EXAMPLES cases per operation)"
  # Run from the scratch directory: schemathesis writes its cache and reports there.
  if (cd "$SCRATCH_DIR" && PYTHONPATH="$ROOT/scripts" SCHEMATHESIS_HOOKS=fuzz_hooks "$ST" "${CONFIG[@]}" run "$SCHEMA" --url "$BASE" --checks not_a_server_error \
      --workers "$WORKERS" --max-examples "$EXAMPLES" --header "$header" \
      "${LOGOUT[@]}" --suppress-health-check all --no-color "$@") >"$LOG_DIR/$name.txt" 2>&1; then
    grep -E '^  [0-9]+ generated' "$LOG_DIR/$name.txt" || true
  else
    status=1
    echo "schemathesis reported failures as $name (full output: $LOG_DIR/$name.txt):" >&2
    tail -n 60 "$LOG_DIR/$name.txt" >&2
  fi
}
CONFIG=(--config-file "$SEED")
# The agent's routes on a real agent, as the owner and as a full-scope key (with the MCP
# endpoint, a key's). The config points `DELETE /v1/hosted-agents/{id}` at the spare agent and
# `{kid}` at the spare key; these runs leave both operations out all the same, so that neither
# can delete the agent nor revoke the key (either would end the run's reach early).
fuzz owner-agent "Authorization: Bearer $TOKEN" --include-path-regex '^/v1/hosted-agents/\{id\}' \
  --exclude-name 'DELETE /v1/hosted-agents/{id}'
fuzz key "Authorization: Bearer $KEY" --include-path-regex '^/v1/hosted-agents/\{id\}|^/mcp$' \
  --exclude-name 'DELETE /v1/hosted-agents/{id}' --exclude-name 'DELETE /v1/hosted-agents/{id}/api-keys/{kid}'
# The operator's routes, and the calibration shadow (the admin bearer, or DEBUG_SHADOW).
fuzz admin "Authorization: Bearer fuzz-admin" --include-path-regex '^/v1/admin/|/calibration-shadow$'
# The admin run may leave the operator's kill switch on, for the platform or for the owner's
# account (its PUT and DELETE are fuzzed): model calls would then answer 503 in the owner run.
# Both off, whatever it did (404: it was off).
TENANT_ID=$(curl -fsS "$BASE/v1/me" -H "authorization: Bearer $TOKEN" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tenant"]["id"])')
for scope in '{}' "{\"tenant_id\":\"$TENANT_ID\"}"; do
  switch=$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$BASE/v1/admin/llm/kill-switch" \
    -H 'authorization: Bearer fuzz-admin' -H 'content-type: application/json' -d "$scope" || true)
  case "$switch" in 2?? | 404) ;; *) echo "fuzz_nightly: turning the kill switch off answered $switch" >&2 ;; esac
done
# Every route as the owner, with the seeded ids (`DELETE /v1/hosted-agents/{id}` on the spare
# agent); last, as its stateful phase may still delete agents it finds through the links.
fuzz owner "Authorization: Bearer $TOKEN"

read -r after_total after_errors < <(scratch_requests)
requests=$((after_total - before_total))
errors=$((after_errors - before_errors))
elapsed=$(($(date +%s) - started))
echo "fuzz_nightly: $requests requests, $errors server errors (5xx), ${elapsed} s, $EXAMPLES cases per operation"
# Which operations answered 2xx, and which reached their handler (2xx, or a 4xx but 401, 403,
# 404 and 405), over this run's requests; the lists are in coverage.txt.
if python3 scripts/fuzz_coverage.py --base "$BASE" --schema "$SCHEMA" --baseline "$SCRATCH_DIR/metrics-seeded.json" \
  >"$LOG_DIR/coverage.txt" 2>&1; then
  read -r _ ok _ _ reached _ _ total _ < <(head -n 1 "$LOG_DIR/coverage.txt")
  sed -n '/^not reached/,/^not ok/p' "$LOG_DIR/coverage.txt" | sed '$d'
  echo "fuzz_nightly: $ok operations ok / $reached reached / $total total"
else
  echo "fuzz_nightly: no coverage (see $LOG_DIR/coverage.txt)" >&2
fi
if [ "$errors" -gt 0 ]; then
  echo "server errors in the log:" >&2
  grep -iE 'internal error|panicked' "$SCRATCH_LOG" | tail -n 20 >&2 || true
  status=1
fi
exit "$status"
