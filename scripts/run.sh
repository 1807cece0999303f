#!/usr/bin/env bash
# Installs what is missing, builds miniclaw and runs it on 127.0.0.1:8080 with the embedded
# database (unless DATABASE_URL is set). `make run` calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/miniclaw/target}"

scripts/setup.sh
printf '\033[1m==> %s\033[0m\n' "cargo build --release (first build takes a few minutes; later ones are incremental)"
cargo build --release --locked --bin miniclaw
exec "$CARGO_TARGET_DIR/release/miniclaw" serve "$@"
