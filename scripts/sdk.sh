#!/usr/bin/env bash
# The Python and TypeScript clients in clients/, generated from openapi/openapi.json by
# maintained generators (openapi-python-client, @hey-api/openapi-ts; pinned in setup.sh).
#
#   scripts/sdk.sh           # regenerate clients/python and clients/typescript/src
#   scripts/sdk.sh --check   # fail if they differ from what the document generates (make test)
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE_DIR="${MINICLAW_CACHE_DIR:-$HOME/.cache/miniclaw}"
GEN_PY="$CACHE_DIR/venv/bin/openapi-python-client"
GEN_TS="$CACHE_DIR/clients/node_modules/.bin/openapi-ts"
if [ ! -x "$GEN_PY" ] || [ ! -x "$GEN_TS" ]; then
  scripts/setup.sh --test >/dev/null
fi
check=0
[ "${1:-}" = "--check" ] && check=1

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# Python: a package (setup.py metadata) named miniclaw-client, importable as miniclaw_client.
cat > "$out/python.yml" <<'YML'
project_name_override: miniclaw-client
package_name_override: miniclaw_client
post_hooks: []
YML
"$GEN_PY" generate --path openapi/openapi.json --config "$out/python.yml" --meta setup \
  --output-path "$out/python" >"$out/python.log" 2>&1 || { cat "$out/python.log"; exit 1; }
# TypeScript: the SDK's sources (a fetch client, no runtime dependency).
(cd "$out" && "$GEN_TS" -i "$OLDPWD/openapi/openapi.json" -o "$out/typescript" >"$out/ts.log" 2>&1) \
  || { cat "$out/ts.log"; exit 1; }

if [ "$check" -eq 1 ]; then
  if ! diff -r -q "$out/python" clients/python >/dev/null || ! diff -r -q "$out/typescript" clients/typescript/src >/dev/null; then
    diff -r "$out/python" clients/python | head -20 || true
    diff -r "$out/typescript" clients/typescript/src | head -20 || true
    echo "clients/ is stale: run make sdk" >&2
    exit 1
  fi
  echo "clients/ matches openapi/openapi.json"
  exit 0
fi
rm -rf clients/python clients/typescript/src
mkdir -p clients/typescript
cp -r "$out/python" clients/python
cp -r "$out/typescript" clients/typescript/src
echo "clients/python and clients/typescript/src regenerated"
