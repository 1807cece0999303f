//! The brain graph (D6, 001 §6.3–§6.5): an agent's memories placed in 3-D by PCA of their
//! embeddings, grouped by K-Means, linked where they are alike, each group named by its most
//! frequent words. Everything is deterministic for a given seed.
//!
//! - **PCA:** the memories' embeddings are centred; the first three principal components come
//!   from power iteration (50 iterations each) on the covariance, applied as `Xᵀ(X v)` without
//!   forming it, with deflation (each iterate is kept orthogonal to the components found
//!   before). A component's sign is fixed so that its largest coordinate is positive.
//! - **K-Means** runs on the unit-normalised embeddings (cosine geometry), at most 30
//!   iterations, seeded with k-means++; **k = round(√(n / 2))**, between 1 and 12 and at most n.
//! - **Edges** join memories whose cosine similarity is above 0.5, each memory keeping its 5
//!   most similar (so a dense cluster does not become a hairball).
//! - **Labels:** the three most frequent content words of a cluster's memories.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::ids::AgentId;

pub const PCA_ITERATIONS: usize = 50;
pub const KMEANS_ITERATIONS: usize = 30;
pub const EDGE_MIN_COSINE: f64 = 0.5;
pub const EDGES_PER_NODE: usize = 5;
pub const MAX_K: usize = 12;

/// SplitMix64: a small, stable generator, so a seed means the same graph in every version.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn normalise(v: &mut [f64]) -> f64 {
    let n = dot(v, v).sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
    n
}

/// The first `k` principal components of the rows of `x` and each row's coordinates on them,
/// with each component's variance.
pub struct Pca {
    pub components: Vec<Vec<f64>>,
    pub variances: Vec<f64>,
    pub coords: Vec<Vec<f64>>,
}

pub fn pca(x: &[Vec<f64>], k: usize, seed: u64) -> Pca {
    let n = x.len();
    let d = x.first().map_or(0, Vec::len);
    let mut mean = vec![0.0; d];
    for row in x {
        mean.iter_mut().zip(row).for_each(|(m, v)| *m += v / n as f64);
    }
    let centred: Vec<Vec<f64>> = x.iter().map(|r| r.iter().zip(&mean).map(|(v, m)| v - m).collect()).collect();
    let mut rng = Rng(seed);
    let mut components: Vec<Vec<f64>> = Vec::new();
    let mut variances = Vec::new();
    for _ in 0..k.min(d) {
        let mut v: Vec<f64> = (0..d).map(|_| rng.unit() - 0.5).collect();
        let mut eigen = 0.0;
        for _ in 0..PCA_ITERATIONS {
            for c in &components {
                let p = dot(&v, c);
                v.iter_mut().zip(c).for_each(|(a, b)| *a -= p * b);
            }
            normalise(&mut v);
            // C v = Xᵀ (X v) / (n − 1)
            let xv: Vec<f64> = centred.iter().map(|r| dot(r, &v)).collect();
            let mut next = vec![0.0; d];
            for (r, s) in centred.iter().zip(&xv) {
                next.iter_mut().zip(r).for_each(|(a, b)| *a += s * b);
            }
            next.iter_mut().for_each(|a| *a /= (n.max(2) - 1) as f64);
            eigen = normalise(&mut next);
            v = next;
        }
        for c in &components {
            let p = dot(&v, c);
            v.iter_mut().zip(c).for_each(|(a, b)| *a -= p * b);
        }
        normalise(&mut v);
        if let Some(big) = v.iter().copied().max_by(|a, b| a.abs().total_cmp(&b.abs()))
            && big < 0.0
        {
            v.iter_mut().for_each(|a| *a = -*a);
        }
        components.push(v);
        variances.push(eigen);
    }
    let coords = centred.iter().map(|r| components.iter().map(|c| dot(r, c)).collect()).collect();
    Pca { components, variances, coords }
}

/// The number of clusters for `n` memories.
pub fn k_for(n: usize) -> usize {
    (((n as f64) / 2.0).sqrt().round() as usize).clamp(1, MAX_K).min(n.max(1))
}

/// K-Means of unit vectors (k-means++ start, Euclidean on the unit sphere ≈ cosine): each
/// row's cluster.
pub fn kmeans(x: &[Vec<f64>], k: usize, seed: u64) -> Vec<usize> {
    let n = x.len();
    if n == 0 {
        return Vec::new();
    }
    let dist = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| (p - q) * (p - q)).sum::<f64>();
    let mut rng = Rng(seed ^ 0x5EED);
    let mut centres: Vec<Vec<f64>> = vec![x[(rng.next() % n as u64) as usize].clone()];
    while centres.len() < k {
        let d2: Vec<f64> = x.iter().map(|r| centres.iter().map(|c| dist(r, c)).fold(f64::MAX, f64::min)).collect();
        let total: f64 = d2.iter().sum();
        if total <= 0.0 {
            break;
        }
        let mut pick = rng.unit() * total;
        let mut chosen = n - 1;
        for (i, w) in d2.iter().enumerate() {
            if pick < *w {
                chosen = i;
                break;
            }
            pick -= w;
        }
        centres.push(x[chosen].clone());
    }
    let mut assign = vec![usize::MAX; n];
    for _ in 0..KMEANS_ITERATIONS {
        let next: Vec<usize> = x
            .iter()
            .map(|r| {
                (0..centres.len()).min_by(|a, b| dist(r, &centres[*a]).total_cmp(&dist(r, &centres[*b]))).unwrap_or(0)
            })
            .collect();
        if next == assign {
            break;
        }
        assign = next;
        for (c, centre) in centres.iter_mut().enumerate() {
            let members: Vec<&Vec<f64>> = x.iter().zip(&assign).filter(|(_, a)| **a == c).map(|(r, _)| r).collect();
            if members.is_empty() {
                continue;
            }
            let mut m = vec![0.0; centre.len()];
            for r in &members {
                m.iter_mut().zip(r.iter()).for_each(|(a, b)| *a += b / members.len() as f64);
            }
            *centre = m;
        }
    }
    assign
}

/// Pairs `(i, j, cosine)`, `i < j`, of unit vectors above `EDGE_MIN_COSINE`, each row keeping its
/// `EDGES_PER_NODE` most similar.
pub fn edges(unit: &[Vec<f64>]) -> Vec<(usize, usize, f64)> {
    let mut keep: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for i in 0..unit.len() {
        let mut near: Vec<(usize, f64)> = (0..unit.len())
            .filter(|j| *j != i)
            .map(|j| (j, dot(&unit[i], &unit[j])))
            .filter(|(_, c)| *c > EDGE_MIN_COSINE)
            .collect();
        near.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        for (j, c) in near.into_iter().take(EDGES_PER_NODE) {
            keep.insert((i.min(j), i.max(j)), c);
        }
    }
    keep.into_iter().map(|((i, j), c)| (i, j, (c * 1000.0).round() / 1000.0)).collect()
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Node {
    pub id: Uuid,
    pub content: String,
    pub category: String,
    pub importance: f32,
    /// PCA coordinates.
    pub x: f64,
    pub y: f64,
    pub z: f64,
    pub cluster: usize,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Edge {
    pub source: Uuid,
    pub target: Uuid,
    /// Cosine similarity (> 0.5).
    pub weight: f64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Cluster {
    pub id: usize,
    /// Its three most frequent content words.
    pub label: String,
    pub size: usize,
}

/// An agent's brain graph.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BrainGraph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub clusters: Vec<Cluster>,
    /// The variance along each of the three components.
    pub variances: Vec<f64>,
    pub k: usize,
    pub seed: u64,
    /// The embedding model of the vectors (memories embedded by another model are left out).
    pub model: String,
}

fn label(texts: &[&str]) -> String {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for t in texts {
        for w in miniclaw_core::text::content_words(t) {
            if w.chars().count() > 2 {
                *counts.entry(w).or_default() += 1;
            }
        }
    }
    let mut top: Vec<(String, usize)> = counts.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    top.into_iter().take(3).map(|(w, _)| w).collect::<Vec<_>>().join(", ")
}

/// The graph of the agent's `limit` most important live memories embedded by `model`.
pub async fn graph(pool: &PgPool, agent: AgentId, model: &str, limit: i64, seed: u64) -> sqlx::Result<BrainGraph> {
    let rows = crate::memory::most_important_embedded(pool, agent, model, limit).await?;
    let x: Vec<Vec<f64>> =
        rows.iter().map(|r| r.embedding.as_slice().iter().map(|v| f64::from(*v)).collect()).collect();
    let unit: Vec<Vec<f64>> = x
        .iter()
        .map(|v| {
            let mut u = v.clone();
            normalise(&mut u);
            u
        })
        .collect();
    let p = pca(&x, 3, seed);
    let k = k_for(rows.len());
    let assign = kmeans(&unit, k, seed);
    let mut clusters: Vec<Cluster> = (0..k).map(|id| Cluster { id, label: String::new(), size: 0 }).collect();
    for c in &mut clusters {
        let texts: Vec<&str> =
            rows.iter().zip(&assign).filter(|(_, a)| **a == c.id).map(|(r, _)| r.content.as_str()).collect();
        c.size = texts.len();
        c.label = label(&texts);
    }
    clusters.retain(|c| c.size > 0);
    let coord = |i: usize, j: usize| p.coords.get(i).and_then(|c| c.get(j)).map_or(0.0, |v| (v * 1e4).round() / 1e4);
    let nodes = rows
        .iter()
        .enumerate()
        .map(|(i, r)| Node {
            id: r.id,
            content: r.content.clone(),
            category: r.category.clone(),
            importance: r.importance,
            x: coord(i, 0),
            y: coord(i, 1),
            z: coord(i, 2),
            cluster: assign.get(i).copied().unwrap_or(0),
        })
        .collect();
    let edges =
        edges(&unit).into_iter().map(|(i, j, w)| Edge { source: rows[i].id, target: rows[j].id, weight: w }).collect();
    Ok(BrainGraph { nodes, edges, clusters, variances: p.variances, k, seed, model: model.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// `tests/fixtures/brain_pca.json` holds 40 points in 16 dimensions and numpy's PCA of them
    /// (`scripts/brain_fixture.py`: the right singular vectors of the centred points).
    #[test]
    fn pca_matches_numpy_up_to_sign() {
        let f: Value = serde_json::from_str(include_str!("../../../../tests/fixtures/brain_pca.json")).unwrap();
        let points: Vec<Vec<f64>> = serde_json::from_value(f["points"].clone()).unwrap();
        let numpy: Vec<Vec<f64>> = serde_json::from_value(f["components"].clone()).unwrap();
        let variances: Vec<f64> = serde_json::from_value(f["variances"].clone()).unwrap();
        let ours = pca(&points, 3, 7);
        for (i, (c, n)) in ours.components.iter().zip(&numpy).enumerate() {
            // Sign-insensitive: |cos| between our component and numpy's ≥ 0.9999.
            assert!(dot(c, n).abs() > 0.9999, "component {i}: |cos| = {}", dot(c, n).abs());
            assert!((ours.variances[i] / variances[i] - 1.0).abs() < 1e-4, "variance {i}");
        }
        assert_eq!(ours.coords.len(), 40);
    }

    #[test]
    fn kmeans_finds_separated_groups_and_the_graph_is_deterministic() {
        let mut rng = Rng(3);
        let mut x = Vec::new();
        for centre in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] {
            for _ in 0..10 {
                let mut v: Vec<f64> = centre.iter().map(|c| c + (rng.unit() - 0.5) * 0.2).collect();
                normalise(&mut v);
                x.push(v);
            }
        }
        let a = kmeans(&x, 3, 11);
        for g in 0..3 {
            let first = a[g * 10];
            assert!(a[g * 10..g * 10 + 10].iter().all(|c| *c == first), "group {g} stays together: {a:?}");
        }
        assert_eq!(a.iter().collect::<std::collections::HashSet<_>>().len(), 3);
        assert_eq!(kmeans(&x, 3, 11), a, "same seed, same clusters");
        let e = edges(&x);
        assert!(e.iter().all(|(i, j, c)| i / 10 == j / 10 && *c > EDGE_MIN_COSINE), "edges only within a group");
        assert!(e.len() <= x.len() * EDGES_PER_NODE, "each memory adds at most its 5 nearest");
        assert!(e.len() >= x.len() * EDGES_PER_NODE / 2, "and a group of 10 alike memories has them");
        assert_eq!((k_for(0), k_for(1), k_for(8), k_for(50), k_for(10_000)), (1, 1, 2, 5, 12));
        assert_eq!(label(&["bees in the garden", "garden bees swarm", "the garden path"]), "garden, bees, path");
    }
}
