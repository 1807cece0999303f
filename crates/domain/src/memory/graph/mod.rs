//! Learned traversal (SPEC X5, seed 002): a per-agent graph over memories and knowledge chunks
//! whose edges say "after reading this, read that", weighted in [-1, 1] and learned from the
//! owner's feedback on replies.
//!
//! - Edges come from the graph's structure (`grow`): neighbouring chunks of one knowledge entry,
//!   memory relations, memories that share a rare name or word, and memories retrieved together
//!   in two or more retrievals. Each keeps its structural weight as its `prior`.
//! - Tiers: reflex ≥ 0.6 (followed first), habitual 0.2–0.6 (followed by score), dormant < 0.2
//!   (not followed), inhibitory ≤ -0.01 (its target is vetoed wherever its source fired).
//! - Traversal (`traverse`, pure) starts from the best vector candidates and follows edges for
//!   at most 3 hops with a beam of 4, within a budget of fired nodes and of characters. A
//!   reached node scores its source's score times the edge's weight, or times 1 over a reflex
//!   edge (auto-follow: what it leads to is read as if it were the source); an edge used again
//!   in the same traversal counts `λ^k` of that (λ 0.3, 002 §4.3).
//! - Learning (`reinforce`, pure) is the full REINFORCE update of 002 §3.3 over every step of
//!   the stored path: at each visited node, every outgoing edge moves by
//!   `η(z−b)γ^ℓ/τ · (1[chosen] − π)`, with `π` the softmax over its outgoing weights and STOP.
//! - Decay: what learning added to an edge fades back to its prior with a half-life of 1,000 of
//!   the agent's queries counted since the edge was last followed or learned
//!   (`memory_edge_weight` in SQL, `decayed` here; the statement that records a retrieval
//!   refreshes the edges it followed). The structure found in the memories stays followable;
//!   learning on routes nobody takes wears off.

use miniclaw_core::ids::MemoryId;
use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

mod store;

pub use store::*;

pub const REFLEX: f64 = 0.6;
pub const HABITUAL: f64 = 0.2;
pub const INHIBITORY: f64 = -0.01;
/// Queries without the edge (neither followed nor learned) after which half of what learning
/// changed in it is gone.
pub const HALF_LIFE_QUERIES: f64 = 1_000.0;

/// The tier of an edge weight (002 §2: inhibitory takes precedence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Reflex,
    Habitual,
    Dormant,
    Inhibitory,
}

pub fn tier(weight: f64) -> Tier {
    if weight <= INHIBITORY {
        Tier::Inhibitory
    } else if weight >= REFLEX {
        Tier::Reflex
    } else if weight >= HABITUAL {
        Tier::Habitual
    } else {
        Tier::Dormant
    }
}

/// An edge's weight after `age` queries without learning (the SQL function `memory_edge_weight`).
pub fn decayed(weight: f64, prior: f64, age: i64, half_life: f64) -> f64 {
    prior + (weight - prior) * 0.5f64.powf(age.max(0) as f64 / half_life)
}

/// The budgets of one traversal.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// Seeds taken, and nodes kept per hop.
    pub beam: usize,
    pub max_hops: usize,
    /// Nodes traversal may add beyond its seeds.
    pub max_fired: usize,
    /// Characters those nodes may add.
    pub max_chars: usize,
    /// λ: the weight an edge keeps each further time it is used in one traversal.
    pub damping: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params { beam: 4, max_hops: 3, max_fired: 8, max_chars: 2_000, damping: 0.3 }
    }
}

/// An edge as traversal sees it: its weight now (decayed) and the length of its target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Edge {
    pub source: MemoryId,
    pub target: MemoryId,
    pub weight: f64,
    pub chars: usize,
}

/// A node where traversal started, or one it reached.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Node {
    pub id: MemoryId,
    /// A seed's retrieval score; a reached node's best path score (its source's score times the
    /// edge's weight, damped).
    pub score: f64,
    /// 0 for a seed.
    pub hop: u32,
}

/// One edge followed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = TraversalStep)]
pub struct Step {
    pub from: MemoryId,
    pub to: MemoryId,
    pub tier: Tier,
    /// The weight the edge had when it was followed (before damping).
    pub weight: f64,
    pub score: f64,
    /// 1 for an edge out of a seed.
    pub hop: u32,
}

/// The path of one traversal, stored with the reply it served (the feedback route learns from it).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Trace {
    pub seeds: Vec<Node>,
    pub steps: Vec<Step>,
    /// The nodes traversal added beyond its seeds, in the order reached.
    pub reached: Vec<Node>,
    /// Nodes vetoed by an inhibitory edge out of a node that fired (corrections).
    pub suppressed: Vec<MemoryId>,
    /// Characters of the reached nodes.
    pub chars: usize,
    /// Why it stopped: `hops`, `no_edges`, `fired_budget` or `char_budget`.
    pub stopped: String,
}

impl Trace {
    /// Every node that fired: seeds first, then the reached ones.
    pub fn fired(&self) -> impl Iterator<Item = &Node> {
        self.seeds.iter().chain(&self.reached)
    }
}

/// Follows the learned edges from `seeds` (002 §2.1), within `p`'s budgets. Deterministic: ties
/// break by id.
pub fn traverse(seeds: &[(MemoryId, f64)], edges: &[Edge], p: &Params) -> Trace {
    let mut out: HashMap<MemoryId, Vec<&Edge>> = HashMap::new();
    for e in edges {
        out.entry(e.source).or_default().push(e);
    }
    let vetoes = |id: &MemoryId| -> Vec<MemoryId> {
        out.get(id)
            .map(|es| es.iter().filter(|e| e.weight <= INHIBITORY).map(|e| e.target).collect())
            .unwrap_or_default()
    };
    let mut ordered: Vec<(MemoryId, f64)> = seeds.to_vec();
    ordered.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut once = HashSet::new();
    ordered.retain(|s| once.insert(s.0));
    ordered.truncate(p.beam);
    let mut suppressed: HashSet<MemoryId> = ordered.iter().flat_map(|(id, _)| vetoes(id)).collect();
    let mut trace = Trace::default();
    let mut score: HashMap<MemoryId, f64> = HashMap::new();
    let mut frontier: Vec<(MemoryId, f64)> = Vec::new();
    for &(id, s) in &ordered {
        score.insert(id, s);
        if !suppressed.contains(&id) {
            trace.seeds.push(Node { id, score: s, hop: 0 });
            frontier.push((id, s));
        }
    }
    let mut used: HashMap<(MemoryId, MemoryId), i32> = HashMap::new();
    trace.stopped = "hops".into();
    'hops: for hop in 1..=p.max_hops as u32 {
        let mut raw: Vec<(&Edge, f64, Tier)> = Vec::new();
        for &(source, source_score) in &frontier {
            for e in out.get(&source).into_iter().flatten() {
                let t = tier(e.weight);
                if matches!(t, Tier::Dormant | Tier::Inhibitory) {
                    continue;
                }
                // A reflex edge is followed as if read together: its target scores as its source.
                let k = used.get(&(e.source, e.target)).copied().unwrap_or(0);
                let strength = if t == Tier::Reflex { 1.0 } else { e.weight };
                let effective = strength * p.damping.powi(k);
                if effective > 0.0 {
                    raw.push((e, source_score * effective, t));
                }
            }
        }
        raw.retain(|(e, _, _)| !suppressed.contains(&e.target));
        if raw.is_empty() {
            trace.stopped = "no_edges".into();
            break;
        }
        // Reflex edges are followed first, then edges to nodes not read yet (a node that fired
        // adds nothing new; it is revisited only when the beam has room), each by score.
        let fresh = |e: &Edge| !score.contains_key(&e.target);
        raw.sort_by(|a, b| {
            (b.2 == Tier::Reflex)
                .cmp(&(a.2 == Tier::Reflex))
                .then(fresh(b.0).cmp(&fresh(a.0)))
                .then(b.1.total_cmp(&a.1))
                .then(b.0.weight.total_cmp(&a.0.weight))
                .then(a.0.target.cmp(&b.0.target))
                .then(a.0.source.cmp(&b.0.source))
        });
        let mut next: Vec<(MemoryId, f64)> = Vec::new();
        for (e, s, t) in raw {
            if next.len() >= p.beam {
                break;
            }
            if next.iter().any(|(id, _)| *id == e.target) {
                continue;
            }
            if let Some(best) = score.get_mut(&e.target) {
                *best = best.max(s);
                if let Some(n) = trace.reached.iter_mut().find(|n| n.id == e.target) {
                    n.score = n.score.max(s);
                }
            } else {
                if trace.reached.len() >= p.max_fired {
                    trace.stopped = "fired_budget".into();
                    break 'hops;
                }
                if trace.chars + e.chars > p.max_chars {
                    trace.stopped = "char_budget".into();
                    break 'hops;
                }
                trace.chars += e.chars;
                score.insert(e.target, s);
                trace.reached.push(Node { id: e.target, score: s, hop });
                suppressed.extend(vetoes(&e.target));
            }
            *used.entry((e.source, e.target)).or_default() += 1;
            trace.steps.push(Step { from: e.source, to: e.target, tier: t, weight: e.weight, score: s, hop });
            next.push((e.target, s));
        }
        frontier = next;
    }
    // A veto from a node that fired later still removes a node reached earlier.
    trace.seeds.retain(|n| !suppressed.contains(&n.id));
    trace.reached.retain(|n| !suppressed.contains(&n.id));
    let mut vetoed: Vec<MemoryId> = suppressed.into_iter().collect();
    vetoed.sort();
    trace.suppressed = vetoed;
    trace
}

/// The learning rate η, discount γ, temperature τ and baseline b of 002 §3.3.
#[derive(Debug, Clone, Copy)]
pub struct Learning {
    pub rate: f64,
    pub discount: f64,
    pub temperature: f64,
    pub baseline: f64,
}

impl Default for Learning {
    fn default() -> Self {
        // An owner's rating is rare and deliberate (002 learns from every query): one good
        // rating takes a habitual edge of a short path into the reflex tier.
        Learning { rate: 0.5, discount: 0.9, temperature: 1.0, baseline: 0.0 }
    }
}

/// The REINFORCE update (002 §3.3) of a path with outcome `good` (z = +1) or not (z = -1):
/// for each step ℓ out of node `s` to the chosen `a`, every outgoing edge `j` of `s` moves by
/// `η(z−b)γ^(hop−1)/τ · (1[j = a] − π(j | s))`, `π` the softmax of the outgoing weights and a
/// STOP action of logit 0. `outgoing` holds each visited node's edges (target, weight now).
/// Returns the summed change per edge; applying them is the caller's (clipped to [-1, 1]).
pub fn reinforce(
    steps: &[Step],
    outgoing: &HashMap<MemoryId, Vec<(MemoryId, f64)>>,
    good: bool,
    l: &Learning,
) -> HashMap<(MemoryId, MemoryId), f64> {
    let z = if good { 1.0 } else { -1.0 };
    let mut deltas: HashMap<(MemoryId, MemoryId), f64> = HashMap::new();
    for step in steps {
        let Some(edges) = outgoing.get(&step.from) else { continue };
        let logits: Vec<f64> = edges.iter().map(|(_, w)| w / l.temperature).collect();
        let max = logits.iter().copied().fold(0.0f64, f64::max);
        let stop = (0.0 - max).exp();
        let sum: f64 = logits.iter().map(|x| (x - max).exp()).sum::<f64>() + stop;
        let scalar = l.rate * (z - l.baseline) * l.discount.powi(step.hop.saturating_sub(1) as i32) / l.temperature;
        for ((target, _), logit) in edges.iter().zip(&logits) {
            let pi = (logit - max).exp() / sum;
            let chosen = if *target == step.to { 1.0 } else { 0.0 };
            *deltas.entry((step.from, *target)).or_default() += scalar * (chosen - pi);
        }
    }
    deltas
}

#[cfg(test)]
mod tests;
