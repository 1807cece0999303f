#!/usr/bin/env bash
# The whole test suite: formatting, lints, unit and integration tests (real PostgreSQL, real
# processes). `make test` and .ci/run call this.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/miniclaw/target}"
step() { printf '\033[1m==> %s\033[0m\n' "$*"; }

scripts/setup.sh --test
step "cargo fmt --check"
cargo fmt --check
step "cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --locked --workspace --all-targets -- -D warnings
step "cargo sqlx prepare --check (the committed query data matches the queries and the migrations)"
scripts/sqlx-prepare.sh --check
step "cargo nextest run"
cargo nextest run --locked --workspace --no-fail-fast
