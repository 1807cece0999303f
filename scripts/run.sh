#!/usr/bin/env bash
# Installs what is missing, builds miniclaw and runs it on 127.0.0.1:8080 with the embedded
# database (unless DATABASE_URL is set). `make run` calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/miniclaw/target}"

scripts/setup.sh
# The `serve` profile: optimised, without cross-crate LTO (see Cargo.toml). Benchmarks use --release.
if [ -x "$CARGO_TARGET_DIR/serve/miniclaw" ]; then
  msg="cargo build --profile serve (incremental: seconds to a minute after an edit)"
else
  msg="cargo build --profile serve (the first build compiles about 500 crates: about 11 minutes on 2 cores; later ones take seconds)"
fi
printf '\033[1m==> %s\033[0m\n' "$msg"
cargo build --profile serve --locked --bin miniclaw
exec "$CARGO_TARGET_DIR/serve/miniclaw" serve "$@"
