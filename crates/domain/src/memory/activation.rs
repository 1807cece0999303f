//! Spreading activation over the relation graph (SPEC X3, 000 §4.3). Pure: seeds and edges
//! in, activations out. Search uses it as an extra candidate source (σ 0.2); the REM phase of
//! the dream cycle with more noise (σ 0.6) to find connections nobody drew.
//!
//! Three synchronous steps, double-buffered (every node's next value is computed from the
//! previous step only, so the order of nodes does not matter):
//! `next(v) = seed(v) + Σ_u act(u) * decay * w(u→v) / degree(u) * max(0, 1 + σ·z)`,
//! clamped to [0, 1], with `decay` 0.5 per hop, typed weights forward/reverse (UPDATES 0.9/0.9,
//! EXTENDS 0.7/0.5, DERIVES 0.4/0.6), fan-out normalisation by the sender's degree, and `z`
//! standard normal from a seeded generator, so the same seed gives the same activations.

use miniclaw_core::ids::{AgentId, MemoryId};
use std::collections::{BTreeMap, HashMap};

use rand::{Rng, SeedableRng};
use sqlx::PgConnection;

pub const STEPS: usize = 3;
pub const DECAY: f64 = 0.5;
/// The noise of retrieval.
pub const SEARCH_NOISE: f64 = 0.2;
/// The noise of REM exploration.
pub const REM_NOISE: f64 = 0.6;

/// The forward and reverse weights of a relation kind (`from` → `to`, and back).
pub fn weights(kind: &str) -> (f64, f64) {
    match kind {
        "updates" => (0.9, 0.9),
        "extends" => (0.7, 0.5),
        "derives" => (0.4, 0.6),
        _ => (0.0, 0.0),
    }
}

/// One undirected edge with a weight each way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Edge {
    pub from: MemoryId,
    pub to: MemoryId,
    pub forward: f64,
    pub reverse: f64,
}

impl Edge {
    /// An edge of a stored relation, weighted by its kind.
    pub fn relation(from: MemoryId, to: MemoryId, kind: &str) -> Edge {
        let (forward, reverse) = weights(kind);
        Edge { from, to, forward, reverse }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Params {
    pub steps: usize,
    pub decay: f64,
    /// σ of the multiplicative Gaussian noise on every transfer.
    pub noise: f64,
    pub seed: u64,
}

impl Params {
    pub fn search(seed: u64) -> Params {
        Params { steps: STEPS, decay: DECAY, noise: SEARCH_NOISE, seed }
    }
    pub fn rem(seed: u64) -> Params {
        Params { steps: STEPS, decay: DECAY, noise: REM_NOISE, seed }
    }
}

/// A standard normal draw (Box–Muller).
fn gaussian(rng: &mut impl Rng) -> f64 {
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// The activation of every node reached from `seeds` (activations in [0, 1]).
pub fn spread(seeds: &HashMap<MemoryId, f64>, edges: &[Edge], p: &Params) -> HashMap<MemoryId, f64> {
    // Adjacency in a fixed order: the noise draws must not depend on hash order.
    let mut out: BTreeMap<MemoryId, Vec<(MemoryId, f64)>> = BTreeMap::new();
    for e in edges.iter().filter(|e| e.from != e.to) {
        out.entry(e.from).or_default().push((e.to, e.forward));
        out.entry(e.to).or_default().push((e.from, e.reverse));
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(p.seed);
    let base: BTreeMap<MemoryId, f64> = seeds.iter().map(|(k, v)| (*k, v.clamp(0.0, 1.0))).collect();
    let mut act = base.clone();
    for _ in 0..p.steps {
        let mut next = base.clone();
        for (u, a) in &act {
            let Some(neighbours) = out.get(u) else { continue };
            if *a <= 0.0 {
                continue;
            }
            let degree = neighbours.len() as f64;
            for (v, w) in neighbours {
                let noise = (1.0 + p.noise * gaussian(&mut rng)).max(0.0);
                *next.entry(*v).or_default() += a * p.decay * w / degree * noise;
            }
        }
        for a in next.values_mut() {
            *a = a.clamp(0.0, 1.0);
        }
        act = next;
    }
    act.into_iter().filter(|(_, a)| *a > 0.0).collect()
}

/// The stored relations among `ids` (both ends in the set): `(from, to, kind)`.
pub async fn among(
    pool: &sqlx::PgPool,
    agent_id: AgentId,
    ids: &[MemoryId],
) -> sqlx::Result<Vec<(MemoryId, MemoryId, String)>> {
    Ok(sqlx::query!(
        "SELECT from_id, to_id, kind FROM memory_relations WHERE agent_id = $1 AND from_id = ANY($2) AND to_id = ANY($2)",
        agent_id as _,
        ids as _
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| (MemoryId(r.from_id), MemoryId(r.to_id), r.kind))
    .collect())
}

/// The stored relations within `hops` of `seeds` (both directions), at most `max` of them.
pub async fn neighbourhood(
    conn: &mut PgConnection,
    agent_id: AgentId,
    seeds: &[MemoryId],
    hops: i32,
    max: i64,
) -> sqlx::Result<Vec<Edge>> {
    if seeds.is_empty() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query!(
        r#"WITH RECURSIVE reached(id, depth) AS (
             SELECT unnest($2::uuid[]), 0
             UNION
             SELECT CASE WHEN r.from_id = reached.id THEN r.to_id ELSE r.from_id END, reached.depth + 1
               FROM reached JOIN memory_relations r
                 ON r.agent_id = $1 AND (r.from_id = reached.id OR r.to_id = reached.id)
              WHERE reached.depth < $3
           )
           SELECT DISTINCT r.from_id AS "from_id!", r.to_id AS "to_id!", r.kind AS "kind!"
             FROM memory_relations r
            WHERE r.agent_id = $1 AND r.from_id IN (SELECT id FROM reached WHERE depth < $3)
               OR r.agent_id = $1 AND r.to_id IN (SELECT id FROM reached WHERE depth < $3)
            LIMIT $4"#,
        agent_id as _,
        seeds as _,
        hops,
        max
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows.into_iter().map(|r| Edge::relation(MemoryId(r.from_id), MemoryId(r.to_id), &r.kind)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u128) -> MemoryId {
        MemoryId(uuid::Uuid::from_u128(n))
    }

    fn quiet() -> Params {
        Params { steps: STEPS, decay: DECAY, noise: 0.0, seed: 1 }
    }

    #[test]
    fn activation_halves_per_hop_and_divides_by_fan_out() {
        // 1 -extends-> 2 -extends-> 3: one step from 1 gives 2 0.5*0.7/1.
        let edges = [Edge::relation(id(1), id(2), "extends"), Edge::relation(id(2), id(3), "extends")];
        let seeds = HashMap::from([(id(1), 1.0)]);
        let one = spread(&seeds, &edges, &Params { steps: 1, ..quiet() });
        assert!((one[&id(2)] - 0.35).abs() < 1e-12);
        assert!(!one.contains_key(&id(3)));
        // Two steps: 2 (degree 2) passes 0.35*0.5*0.7/2 to 3.
        let two = spread(&seeds, &edges, &Params { steps: 2, ..quiet() });
        assert!((two[&id(3)] - 0.35 * 0.5 * 0.7 / 2.0).abs() < 1e-12);
        // Reverse weights: from 3 back to 2 along `extends` is 0.5.
        let back = spread(&HashMap::from([(id(3), 1.0)]), &edges, &Params { steps: 1, ..quiet() });
        assert!((back[&id(2)] - 0.25).abs() < 1e-12);
    }

    #[test]
    fn the_same_seed_gives_the_same_activations_and_noise_changes_them() {
        let edges: Vec<Edge> = (1..20).map(|i| Edge::relation(id(i), id(i + 1), "derives")).collect();
        let seeds = HashMap::from([(id(1), 1.0), (id(10), 0.8)]);
        let a = spread(&seeds, &edges, &Params::search(7));
        assert_eq!(a, spread(&seeds, &edges, &Params::search(7)));
        assert_ne!(a, spread(&seeds, &edges, &Params::search(8)));
        assert_ne!(a, spread(&seeds, &edges, &quiet()));
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn activations_stay_in_0_1_and_only_reach_connected_nodes(
            pairs in prop::collection::vec((0u128..12, 0u128..12, 0usize..3), 0..30),
            seeds in prop::collection::vec((0u128..12, 0.0..=1.0f64), 1..4),
            noise in 0.0..1.0f64, seed in any::<u64>()
        ) {
            let kinds = ["updates", "extends", "derives"];
            let edges: Vec<Edge> = pairs.iter().map(|(a, b, k)| Edge::relation(MemoryId(uuid::Uuid::from_u128(*a)), MemoryId(uuid::Uuid::from_u128(*b)), kinds[*k])).collect();
            let seeds: HashMap<MemoryId, f64> = seeds.into_iter().map(|(n, a)| (MemoryId(uuid::Uuid::from_u128(n)), a)).collect();
            let p = Params { steps: STEPS, decay: DECAY, noise, seed };
            let act = spread(&seeds, &edges, &p);
            for (node, a) in &act {
                prop_assert!(*a > 0.0 && *a <= 1.0);
                let touched = seeds.contains_key(node) || edges.iter().any(|e| e.from == *node || e.to == *node);
                prop_assert!(touched, "an isolated node was activated");
            }
            for (s, a) in &seeds {
                prop_assert!(*a <= 0.0 || act.get(s).copied().unwrap_or(0.0) >= a.min(1.0) - 1e-12, "a seed never loses its own activation");
            }
        }
    }
}
