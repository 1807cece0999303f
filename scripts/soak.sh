#!/usr/bin/env bash
# The soak check (SPEC §13; docs/RELIABILITY.md), not part of `make test`: a scratch server
# under a mixed chat / memory / search load at a fixed rate for SOAK_SECS, its resident memory,
# threads, descriptors, TCP connections and database sessions sampled every SOAK_SAMPLE
# seconds into a CSV; the summary compares the first and last 10 minutes.
#
#   SOAK_SECS=3600     how long the load runs
#   SOAK_RATE=5        requests per second
#   SOAK_SAMPLE=30     seconds between samples
#   SOAK_CSV           where the samples go (default: soak-<date>.csv in the current directory)
#   SCRATCH_PROFILE    debug (default) or release build
set -euo pipefail
cd "$(dirname "$0")/.."
SECS="${SOAK_SECS:-3600}"
RATE="${SOAK_RATE:-5}"
SAMPLE="${SOAK_SAMPLE:-30}"
CSV="${SOAK_CSV:-$PWD/soak-$(date +%Y%m%d-%H%M%S).csv}"

# shellcheck source=scripts/scratch_server.sh
. scripts/scratch_server.sh
trap scratch_cleanup EXIT
scratch_start MINICLAW_RATE_LIMIT_IP=0 MINICLAW_RATE_LIMIT_KEY=0
scratch_owner soak@example.com
# Three agents, each with the largest daily token budget (an hour of chat at this rate spends
# more than the default 100,000 tokens a day; the soak is about the server, not the budget) and
# a key of its own (a session would expire after 15 minutes).
budget='"daily_token_budget":100000000'
agents=""
for name in First Second Third; do
  id=$(curl -fsS "$BASE/v1/hosted-agents" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
    -d "{\"name\":\"$name\",$budget}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  key=$(curl -fsS "$BASE/v1/hosted-agents/$id/api-keys" -H "authorization: Bearer $TOKEN" \
    -H 'content-type: application/json' -d '{"name":"soak","scopes":["*"]}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')
  agents="${agents:+$agents,}$id:$key"
done
echo "==> soak: $SECS s at $RATE requests/s against $BASE (pid $SERVER_PID, $SCRATCH_PROFILE build); samples in $CSV"
python3 scripts/soak.py --base "$BASE" --agents "$agents" --pid "$SERVER_PID" \
  --db-url "$DB_URL" --secs "$SECS" --rate "$RATE" --sample "$SAMPLE" --csv "$CSV"
