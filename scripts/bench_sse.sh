#!/usr/bin/env bash
# SPEC B3, the SSE half: idle agent event streams on one server process. Serves a release build
# on a scratch database (rate limits off, hashing embedder, no worker, the per-agent stream cap
# raised), raises this shell's file-descriptor limit (the server and the client inherit it; the
# server sets none of its own), then `benches/sse_idle.rs` opens N streams, holds them idle, reads
# the server's RSS before and after, and times one reply's notice reaching every stream.
#
#   scripts/bench_sse.sh            # BENCH_STREAMS=10000 by default
set -euo pipefail
cd "$(dirname "$0")/.."
STREAMS="${BENCH_STREAMS:-10000}"

want=$((STREAMS * 2 + 1024))
hard=$(ulimit -Hn)
[ "$hard" != "unlimited" ] && [ "$hard" -lt "$want" ] && want="$hard"
ulimit -n "$want"
if [ "$want" -lt $((STREAMS + 256)) ]; then
  echo "the descriptor limit ($want) is too low for $STREAMS streams" >&2; exit 1
fi

SCRATCH_PROFILE=release
# shellcheck source=scripts/scratch_server.sh
source scripts/scratch_server.sh
BIN=$(cargo bench --no-run --locked --bench sse_idle 2>&1 | sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -1)
[ -x "$BIN" ] || { echo "could not build benches/sse_idle.rs" >&2; exit 1; }
REF_PID=""
trap '[ -n "$REF_PID" ] && kill "$REF_PID" 2>/dev/null; scratch_cleanup' EXIT

scratch_start MINICLAW_RATE_LIMIT_IP=0 MINICLAW_RATE_LIMIT_KEY=0 MINICLAW_WORKER=false \
  MINICLAW_EVENT_STREAMS_PER_AGENT=$((STREAMS + 100))
scratch_owner "sse@example.com"
"$BIN" "$BASE" "$KEY" "$AGENT_ID" "$SERVER_PID" "$STREAMS"
scratch_cleanup
unset SERVER_PID DB_NAME

# The reference in the same run: the smallest axum server holding the same streams.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" reference "$port" &
REF_PID=$!
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
"$BIN" "http://127.0.0.1:$port" - - "$REF_PID" "$STREAMS" | sed 's/^{/{"reference":true,/'
