"""Writes tests/fixtures/minilm_reference.json: all-MiniLM-L6-v2 vectors for a fixed set of
sentences, made by the reference implementation (sentence-transformers). Run once, by hand,
when the fixture needs remaking; it is not part of the test run:

    python3 -m venv ~/.cache/miniclaw/refvenv
    ~/.cache/miniclaw/refvenv/bin/pip install sentence-transformers==5.1.2
    ~/.cache/miniclaw/refvenv/bin/python scripts/reference_embeddings.py [MODEL_DIR]

MODEL_DIR defaults to ~/.cache/miniclaw/models/all-MiniLM-L6-v2 (what scripts/setup.sh
installs); it needs config.json, model.safetensors and tokenizer.json. The pooling the model
card prescribes (mean over tokens, then L2 normalisation, 256-token limit) is built here
explicitly so that the directory's extra sentence-transformers files are not needed.
"""
import json
import os
import sys

from sentence_transformers import SentenceTransformer, models

SENTENCES = [
    "My name is Alice and I live in Vienna.",
    "hi",
    "What is my wallet balance?",
    "I want to learn to play the cello before I turn forty.",
    "I prefer short answers, please.",
    "The meeting with the investors moved to Thursday at 3 pm.",
    "I hate cilantro but I love Thai food.",
    "Can you remind me to call my sister tomorrow?",
    "Photosynthesis converts light energy into chemical energy in plants.",
    "Ich wohne seit zwei Jahren in Berlin.",
    "Je voudrais réserver une table pour deux personnes.",
    "🦀 Rust is memory safe without a garbage collector.",
    "",
    "ok",
    "The quick brown fox jumps over the lazy dog.",
    "Our quarterly revenue grew by 12% compared to last year, driven mostly by subscriptions.",
    "She said, \"I'll be there in five minutes\" — and she was.",
    "Deploy the agent to production after the tests pass.",
    "The soul document describes the agent's values and tone.",
    " ".join(["This sentence repeats to exceed the token limit."] * 60),
]

model_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.cache/miniclaw/models/all-MiniLM-L6-v2")
word = models.Transformer(model_dir, max_seq_length=256)
pooling = models.Pooling(word.get_word_embedding_dimension(), pooling_mode="mean")
model = SentenceTransformer(modules=[word, pooling, models.Normalize()], device="cpu")
vectors = model.encode(SENTENCES, batch_size=8, convert_to_numpy=True, normalize_embeddings=True)

out = {
    "model": "all-MiniLM-L6-v2",
    "made_by": "sentence-transformers (scripts/reference_embeddings.py)",
    "sentences": SENTENCES,
    "vectors": [[round(float(x), 6) for x in v] for v in vectors],
}
path = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "minilm_reference.json")
with open(path, "w") as f:
    json.dump(out, f, ensure_ascii=False)
print(f"wrote {len(SENTENCES)} vectors of {len(vectors[0])} dimensions to {os.path.normpath(path)}")
