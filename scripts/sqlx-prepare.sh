#!/usr/bin/env bash
# The compile-checked queries (`sqlx::query!`, `query_as!`, `query_scalar!`) are checked against
# the schema when their offline data in .sqlx/ is generated: this script migrates a scratch
# database from migrations/ and runs `cargo sqlx prepare` against it.
#
#   scripts/sqlx-prepare.sh           # regenerate .sqlx/ (after changing a query or a migration)
#   scripts/sqlx-prepare.sh --check   # fail if .sqlx/ is stale (make test runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/miniclaw/target}"
PG="postgres://postgres@127.0.0.1:5432"
db="miniclaw_sqlx_$$"
psql "$PG/postgres" -q -c "CREATE DATABASE $db" >/dev/null
trap 'psql "$PG/postgres" -q -c "DROP DATABASE IF EXISTS $db" >/dev/null' EXIT
export DATABASE_URL="$PG/$db"
cargo sqlx migrate run --source migrations >/dev/null
SQLX_OFFLINE=false cargo sqlx prepare --workspace "$@" -- --all-targets
