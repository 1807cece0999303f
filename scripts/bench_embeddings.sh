#!/usr/bin/env bash
# MiniLM embeddings: miniclaw (candle, release build) and sentence-transformers (PyTorch) on the
# same sentences in one run, 3 rounds each, medians and the ratio ours/reference.
# Needs the reference virtualenv (see scripts/reference_embeddings.py).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/miniclaw/target}"
MODEL_DIR="${MINICLAW_MODEL_DIR:-$HOME/.cache/miniclaw/models/all-MiniLM-L6-v2}"
PY="${REFERENCE_PYTHON:-$HOME/.cache/miniclaw/refvenv/bin/python}"
cargo bench --bench embeddings --no-run -q
out=$(mktemp)
for round in 1 2 3; do
  cargo bench -q --bench embeddings 2>/dev/null | grep '^{' >> "$out"
  HF_HUB_OFFLINE=1 "$PY" scripts/bench_embeddings_reference.py "$MODEL_DIR" 2>/dev/null | grep '^{' >> "$out"
done
python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
med = {}
for impl in ("miniclaw-candle", "sentence-transformers"):
    rs = [r for r in rows if r["impl"] == impl]
    med[impl] = {k: statistics.median(r[k] for r in rs) for k in ("single_p50_ms", "single_p99_ms", "batched_sentences_per_s")}
    print(impl, med[impl])
ours, ref = med["miniclaw-candle"], med["sentence-transformers"]
print("ratio ours/reference: single p50 %.2f, single p99 %.2f, batched throughput %.2f" % (
    ours["single_p50_ms"] / ref["single_p50_ms"], ours["single_p99_ms"] / ref["single_p99_ms"],
    ours["batched_sentences_per_s"] / ref["batched_sentences_per_s"]))
PY
