#!/usr/bin/env bash
# MiniLM embeddings: miniclaw (candle, release build) and sentence-transformers (PyTorch) on the
# same sentences in one run, 3 rounds each, medians and the ratio ours/reference: one sentence at a
# time (batch 1), batches of 8 and batches of 32, in sentences/s, and single-call latency.
# Installs the reference (sentence-transformers 5.1.2 in ~/.cache/miniclaw/refvenv) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/miniclaw/target}"
MODEL_DIR="${MINICLAW_MODEL_DIR:-$HOME/.cache/miniclaw/models/all-MiniLM-L6-v2}"
PY="${REFERENCE_PYTHON:-$HOME/.cache/miniclaw/refvenv/bin/python}"
if ! "$PY" -c 'import sentence_transformers' 2>/dev/null; then
  python3 -m venv "$HOME/.cache/miniclaw/refvenv"
  "$HOME/.cache/miniclaw/refvenv/bin/pip" install -q sentence-transformers==5.1.2
  PY="$HOME/.cache/miniclaw/refvenv/bin/python"
fi
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
    keys = ("single_p50_ms", "single_p99_ms", "single_sentences_per_s", "batch8_sentences_per_s", "batched_sentences_per_s")
    med[impl] = {k: statistics.median(r[k] for r in rs) for k in keys}
    print(impl, med[impl])
ours, ref = med["miniclaw-candle"], med["sentence-transformers"]
print("ratio ours/reference: single p50 %.2f, single p99 %.2f; sentences/s at batch 1 %.2f, 8 %.2f, 32 %.2f" % (
    ours["single_p50_ms"] / ref["single_p50_ms"], ours["single_p99_ms"] / ref["single_p99_ms"],
    ours["single_sentences_per_s"] / ref["single_sentences_per_s"],
    ours["batch8_sentences_per_s"] / ref["batch8_sentences_per_s"],
    ours["batched_sentences_per_s"] / ref["batched_sentences_per_s"]))
PY
