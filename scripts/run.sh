#!/usr/bin/env bash
# Installs what is missing, builds miniclaw and runs it on 127.0.0.1:8080 with the embedded
# database (unless DATABASE_URL is set). `make run` calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/miniclaw/target}"

scripts/setup.sh
# The dev profile, the one the tests build: its dependencies are optimised (Cargo.toml), so the
# embedder and the database client run at speed, and a `make test` before or after reuses the
# whole build. Production images and benchmarks use --release.
if [ -x "$CARGO_TARGET_DIR/debug/miniclaw" ]; then
  msg="cargo build (incremental: seconds after an edit)"
else
  msg="cargo build (the first build compiles about 500 crates: about 8 minutes on 2 cores; later ones take seconds)"
fi
printf '\033[1m==> %s\033[0m\n' "$msg"
cargo build --locked --bin miniclaw
exec "$CARGO_TARGET_DIR/debug/miniclaw" serve "$@"
