#!/usr/bin/env bash
# Build times a newcomer meets (docs/BENCHMARKS.md, "Build times"): from a fresh clone of HEAD
# into a scratch folder with a cold CARGO_TARGET_DIR, the build that `make run` does (the dev
# profile), then the incremental rebuild after editing one dashboard template and one handler.
# Assumes scripts/setup.sh has run (it measures the build, not the installs).
#
#   scripts/bench_build.sh [PROFILE]      # PROFILE: dev (default, `make run`), serve or release
set -euo pipefail
cd "$(dirname "$0")/.."
profile="${1:-dev}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q . "$work/src"
export CARGO_TARGET_DIR="$work/target"
cd "$work/src"
secs() { local t0=$SECONDS; "$@" >/dev/null 2>&1; echo $((SECONDS - t0)); }
cold=$(secs cargo build --profile "$profile" --locked --bin miniclaw)
echo "cold build, profile $profile: ${cold} s"
echo "{# touched #}" >> crates/http/templates/web/agents.html
template=$(secs cargo build --profile "$profile" --locked --bin miniclaw)
echo "after editing one template: ${template} s"
echo "// touched" >> crates/http/src/api/agents.rs
handler=$(secs cargo build --profile "$profile" --locked --bin miniclaw)
echo "after editing one handler: ${handler} s"
