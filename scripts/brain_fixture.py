"""Writes tests/fixtures/brain_pca.json: 40 points in 16 dimensions (three noisy groups) and
numpy's PCA of them, which the brain graph's power-iteration PCA is checked against.

    python3 -m venv /tmp/np && /tmp/np/bin/pip install numpy && /tmp/np/bin/python scripts/brain_fixture.py
"""
import json
import pathlib

import numpy as np

rng = np.random.default_rng(7)
centres = rng.normal(size=(3, 16)) * 3.0
points = np.vstack([centres[i % 3] + rng.normal(scale=[1.5, 1.0, 0.6, 0.4] * 4, size=16) for i in range(40)])
points = np.round(points, 6)
centred = points - points.mean(axis=0)
_, s, vt = np.linalg.svd(centred, full_matrices=False)
components = vt[:3]
# The same sign rule as the Rust side: each component's largest coordinate is positive.
for c in components:
    if c[np.argmax(np.abs(c))] < 0:
        c *= -1
variances = (s[:3] ** 2) / (len(points) - 1)
out = {
    "points": points.tolist(),
    "components": components.tolist(),
    "variances": variances.tolist(),
    "numpy": np.__version__,
}
path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "brain_pca.json"
path.write_text(json.dumps(out, indent=1) + "\n")
print(f"wrote {path}")
