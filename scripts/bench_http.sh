#!/usr/bin/env bash
# The default chat path as an HTTP client meets it (issue: the default path fast again): a
# release-grade server (`serve` profile) on a scratch database, its job worker inside as
# `make run` runs it, rate limits off and the agent's daily budget at its most, driven by `wrk`
# (Debian's package, installed here when missing) with BENCH_CONNECTIONS connections, each
# request a new message to `POST /v1/hosted-agents/{id}/chat` with a full-scope key. Prints
# wrk's summary (requests/s = turns/s, latency percentiles) and the share of answers that were
# not 2xx.
#
#   scripts/bench_http.sh                   # MiniLM (the default embedder)
#   BENCH_EMBEDDER=hash scripts/bench_http.sh
#   BENCH_CONNECTIONS=8 BENCH_SECONDS=30 BENCH_THREADS=2
#   BENCH_CONVERSATIONS=9000 scripts/bench_http.sh     # the agent already holds that many conversations
#   BENCH_AGENTS=8 scripts/bench_http.sh               # the messages spread over that many agents
#   BENCH_PERF=/tmp/chat.perf scripts/bench_http.sh   # also samples the server with `perf record`
#                                                     # (then: perf report -i /tmp/chat.perf)
#   BENCH_ROWS=1 scripts/bench_http.sh                 # also prints the rows each table gained,
#                                                     # changed and lost per turn during the run
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS="${BENCH_CONNECTIONS:-8}"
SECONDS_="${BENCH_SECONDS:-30}"
THREADS="${BENCH_THREADS:-2}"
EMBEDDER="${BENCH_EMBEDDER:-minilm}"

if ! command -v wrk >/dev/null; then
  echo "==> apt-get install wrk"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get install -y -qq --no-install-recommends wrk >/dev/null
fi

SCRATCH_PROFILE=serve
# shellcheck source=scripts/scratch_server.sh
. scripts/scratch_server.sh
trap scratch_cleanup EXIT
ADMIN_PW="bench-$RANDOM-$RANDOM"
MINICLAW_EMBEDDER="$EMBEDDER" scratch_start MINICLAW_RATE_LIMIT_IP=0 MINICLAW_RATE_LIMIT_KEY=0 MINICLAW_WORKER=true \
  MINICLAW_NEW_ACCOUNT_DAILY_USD=off MINICLAW_NEW_ACCOUNT_TURNS=off ADMIN_PASSWORD="$ADMIN_PW"
scratch_owner bench@example.com
curl -fsS -X PATCH "$BASE/v1/hosted-agents/$AGENT_ID" -H "authorization: Bearer $TOKEN" \
  -H 'content-type: application/json' -d '{"daily_token_budget": 100000000}' >/dev/null

# More agents of the same account (each with its budget lifted and a key), the messages spread
# over them in turn; the Lua table lists "agent key" pairs.
AGENTS_LUA="{\"$AGENT_ID\", \"$KEY\"}"
for _ in $(seq 2 "${BENCH_AGENTS:-1}"); do
  id=$(curl -fsS "$BASE/v1/hosted-agents" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
    -d '{"name":"Bench", "daily_token_budget": 100000000}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  key=$(curl -fsS "$BASE/v1/hosted-agents/$id/api-keys" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
    -d '{"name":"bench","scopes":["*"]}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')
  AGENTS_LUA="$AGENTS_LUA, {\"$id\", \"$key\"}"
done

if [ "${BENCH_CONVERSATIONS:-0}" -gt 0 ]; then
  psql -q "$DB_URL" -c "INSERT INTO conversations (id, agent_id, title, channel, message_count)
    SELECT gen_random_uuid(), '$AGENT_ID', 'earlier ' || n, 'api', 0 FROM generate_series(1, $BENCH_CONVERSATIONS) n" >/dev/null
  psql -q "$DB_URL" -c "VACUUM ANALYZE conversations" >/dev/null
fi

LUA="$SCRATCH_DIR/chat.lua"
cat >"$LUA" <<LUAEOF
-- Each request a new message (a thread number and a counter make it unique), a new conversation.
local n = 0
local id = 0
function setup(thread) thread:set("id", id); id = id + 1 end
function init(args) n = 0 end
local agents = {$AGENTS_LUA}
local topics = {"chess", "the garden", "a trip to Lisbon", "my sister Marta", "the new job", "cello lessons"}
function request()
  n = n + 1
  local body = string.format('{"message":"Note %d-%d: I have been thinking about %s again, and about what happened on day %d."}',
    id, n, topics[(n % #topics) + 1], n % 28 + 1)
  local agent = agents[(n % #agents) + 1]
  return wrk.format("POST", "/v1/hosted-agents/" .. agent[1] .. "/chat",
    {["Authorization"] = "Bearer " .. agent[2], ["Content-Type"] = "application/json"}, body)
end
function done(summary, latency, requests)
  io.write(string.format("non-2xx: %d of %d\n", summary.errors.status, summary.requests))
end
LUAEOF

# A short warm-up (the model's first passes, the pool), then the measured run.
wrk -t1 -c1 -d3s -s "$LUA" "$BASE" >/dev/null
# The graph of what the warm-up's messages taught the agent, grown now rather than whenever the
# minute's `memory_graph` cycle comes (which made runs with and without traversal).
curl -fsS -X POST "$BASE/v1/admin/run/memory_graph" -H "authorization: Bearer $ADMIN_PW" >/dev/null
echo "==> wrk -t$THREADS -c$CONNECTIONS -d${SECONDS_}s, embedder $EMBEDDER, worker in-process"
if [ -n "${BENCH_PERF:-}" ]; then
  command -v perf >/dev/null || { echo "BENCH_PERF needs perf (Debian's linux-perf)" >&2; exit 1; }
  # The CPU clock, sampled: hardware counters are not available on every machine.
  # The server alone, or the whole machine (PostgreSQL and wrk too) with BENCH_PERF_ALL=1.
  TARGET=(-p "$SERVER_PID"); [ -n "${BENCH_PERF_ALL:-}" ] && TARGET=(-a)
  perf record -q -e cpu-clock -F 999 -g "${TARGET[@]}" -o "$BENCH_PERF" -- sleep "$SECONDS_" &
  PERF_PID=$!
fi
# The table statistics of the scratch database, for BENCH_ROWS (the backends report theirs at
# most once a second, so the second reading waits for the writes of the run to arrive).
table_rows() {
  psql -qAtX "$DB_URL" -c "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del FROM pg_stat_user_tables"
}
if [ -n "${BENCH_ROWS:-}" ]; then
  sleep 2
  table_rows >"$SCRATCH_DIR/rows.before"
  TURNS_BEFORE=$(psql -qAtX "$DB_URL" -c "SELECT count(*) FROM chat_messages WHERE role = 'user'")
fi
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_}s" --latency -s "$LUA" "$BASE"
if [ -n "${PERF_PID:-}" ]; then wait "$PERF_PID"; fi
if [ -n "${BENCH_ROWS:-}" ]; then
  # Writes still running after the last reply (extraction, learning) belong to the run's turns.
  sleep 5
  table_rows >"$SCRATCH_DIR/rows.after"
  TURNS=$(( $(psql -qAtX "$DB_URL" -c "SELECT count(*) FROM chat_messages WHERE role = 'user'") - TURNS_BEFORE ))
  python3 - "$SCRATCH_DIR/rows.before" "$SCRATCH_DIR/rows.after" "$TURNS" <<'PYEOF'
import sys
def read(path):
    rows = {}
    for line in open(path):
        name, *n = line.strip().split("|")
        rows[name] = [int(x) for x in n]
    return rows
before, after, turns = read(sys.argv[1]), read(sys.argv[2]), int(sys.argv[3])
print(f"==> rows per turn over {turns} turns (inserted, updated, of them HOT, deleted)")
lines = []
for name, now in after.items():
    d = [a - b for a, b in zip(now, before.get(name, [0, 0, 0, 0]))]
    if any(d):
        lines.append((d[0] + d[1] + d[3], name, d))
total = [0.0, 0.0, 0.0, 0.0]
for _, name, d in sorted(lines, reverse=True):
    per = [x / max(turns, 1) for x in d]
    total = [t + p for t, p in zip(total, per)]
    print(f"{name:32} {per[0]:6.2f} {per[1]:6.2f} {per[2]:6.2f} {per[3]:6.2f}")
print(f"{'all tables':32} {total[0]:6.2f} {total[1]:6.2f} {total[2]:6.2f} {total[3]:6.2f}")
PYEOF
fi
