#!/usr/bin/env bash
# SPEC B3: authenticated reads against the server's own ceiling. Serves a release build on a
# scratch database (rate limits off, hashing embedder, no worker), then drives it with wrk
# (2 threads, 32 connections, 10 s each, on the same 2 cores) over loopback:
#   /healthz (no auth, no database), GET /v1/hosted-agents/{id} with a key, GET /v1/me with a
#   session, and a 20-item memory list with a key.
# Runs the server twice in one go, with the in-process credential cache off and on
# (MINICLAW_AUTH_CACHE), and prints req/s, p50 and p99 per endpoint with the ratio to /healthz of
# the same server.
#
#   scripts/bench_gateway.sh            # BENCH_SECONDS=10 BENCH_CONNECTIONS=32 by default
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${BENCH_SECONDS:-10}"
CONNECTIONS="${BENCH_CONNECTIONS:-32}"

if ! command -v wrk >/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends wrk >/dev/null \
    || { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends wrk >/dev/null; }
fi

SCRATCH_PROFILE="${SCRATCH_PROFILE:-release}"
# shellcheck source=scripts/scratch_server.sh
source scripts/scratch_server.sh
trap scratch_cleanup EXIT

# wrk's summary as "req/s p50_ms p99_ms".
measure() {
  local auth="$1" path="$2" out
  if [ -n "$auth" ]; then
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_EACH}s" --latency -H "authorization: Bearer $auth" "$BASE$path")
  else
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_EACH}s" --latency "$BASE$path")
  fi
  if echo "$out" | grep -q "Non-2xx"; then echo "$out" >&2; echo "non-2xx answers for $path" >&2; exit 1; fi
  python3 - "$out" <<'PY'
import re, sys
out = sys.argv[1]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
def ms(label):
    v, unit = re.search(label + r"\s+([\d.]+)(us|ms|s)", out).groups()
    return float(v) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
print(f"{rps:.0f} {ms('50%'):.2f} {ms('99%'):.2f}")
PY
}

for cache in false true; do
  scratch_start MINICLAW_RATE_LIMIT_IP=0 MINICLAW_RATE_LIMIT_KEY=0 MINICLAW_WORKER=false MINICLAW_AUTH_CACHE=$cache
  scratch_owner "bench-$cache@example.com"
  for i in $(seq 1 20); do
    curl -fsS "$BASE/v1/hosted-agents/$AGENT_ID/memories" -H "authorization: Bearer $KEY" -H 'content-type: application/json' \
      -d "{\"content\":\"Benchmark fact number $i about the owner\",\"category\":\"fact\"}" >/dev/null
  done
  read -r h_rps h_p50 h_p99 < <(measure "" /healthz)
  echo "{\"auth_cache\":$cache,\"endpoint\":\"/healthz\",\"req_s\":$h_rps,\"p50_ms\":$h_p50,\"p99_ms\":$h_p99,\"of_healthz\":1.00}"
  for spec in "$KEY|/v1/hosted-agents/$AGENT_ID|agent by key" "$TOKEN|/v1/me|me by session" \
              "$KEY|/v1/hosted-agents/$AGENT_ID/memories?limit=20|20 memories by key"; do
    IFS='|' read -r auth path label <<<"$spec"
    read -r rps p50 p99 < <(measure "$auth" "$path")
    ratio=$(python3 -c "print(f'{$rps / $h_rps:.2f}')")
    echo "{\"auth_cache\":$cache,\"endpoint\":\"$label\",\"req_s\":$rps,\"p50_ms\":$p50,\"p99_ms\":$p99,\"of_healthz\":$ratio}"
  done
  scratch_cleanup
  unset SERVER_PID DB_NAME
  SCRATCH_DIR="$(mktemp -d)"
  SCRATCH_LOG="$SCRATCH_DIR/server.log"
done
