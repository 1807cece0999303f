"""The sentence-transformers side of scripts/bench_embeddings.sh: same sentences, same
measurements as benches/embeddings.rs, one JSON line."""
import json
import os
import sys
import time

import torch
from sentence_transformers import SentenceTransformer, models

torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "2")))
model_dir = sys.argv[1]
sentences = [l for l in open(os.path.join(os.path.dirname(__file__), "..", "benches", "sentences.txt")).read().splitlines() if l.strip()]
word = models.Transformer(model_dir, max_seq_length=256)
model = SentenceTransformer(modules=[word, models.Pooling(word.get_word_embedding_dimension(), "mean"), models.Normalize()], device="cpu")
model.encode(sentences[:8])

single = []
started = time.perf_counter()
for i in range(200):
    t = time.perf_counter()
    model.encode([sentences[i % len(sentences)]])
    single.append((time.perf_counter() - t) * 1000)
single_per_sec = 200 / (time.perf_counter() - started)
single.sort()

batch = [sentences[i % len(sentences)] for i in range(512)]
t = time.perf_counter()
for i in range(0, len(batch), 8):
    model.encode(batch[i:i + 8], batch_size=8)
batch8_per_sec = len(batch) / (time.perf_counter() - t)
t = time.perf_counter()
model.encode(batch, batch_size=32)
per_sec = len(batch) / (time.perf_counter() - t)
pct = lambda p: single[round((len(single) - 1) * p)]
print(json.dumps({"impl": "sentence-transformers", "single_p50_ms": round(pct(0.5), 2), "single_p99_ms": round(pct(0.99), 2), "single_sentences_per_s": round(single_per_sec, 1), "batch8_sentences_per_s": round(batch8_per_sec, 1), "batched_sentences_per_s": round(per_sec, 1)}))
