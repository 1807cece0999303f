//! The dream cycle (SPEC X4, 000 §5.1), nightly per agent, in two isolated phases: a failing
//! phase is reported and the other still runs.
//!
//! - **NREM consolidation:** fusion (`cognition::fusion`) over the wider window [0.05, 0.8]
//!   and across categories.
//! - **REM exploration:** up to 6 seeds drawn with weights that favour moderate prominence
//!   and differ from the seeds already drawn; spreading activation from them with noise σ 0.6
//!   over the relations and each memory's nearest neighbours; the most activated pairs that
//!   nothing connects directly go to the `dream_judge` role (novelty, plausibility,
//!   usefulness); accepted ones become EXTENDS relations carrying the connection it stated.
//!
//! The draws are seeded by the agent and the day: a night's dream can be replayed.

use miniclaw_core::ids::{AgentId, MemoryId, TenantId};
use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use rand::{Rng, SeedableRng};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::fusion::{self, FusionReport};
use crate::memory::activation::{self, Edge};
use crate::memory::{self, Memory};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;
use miniclaw_platform::embed::cosine;
use miniclaw_platform::llm::roles::{DreamJudge, Note};
use miniclaw_platform::llm::{CallContext, ChatRequest};

/// REM draws at most this many seeds.
pub const REM_SEEDS: usize = 6;
/// The most activated memories whose pairs are candidates.
const REM_ACTIVE: usize = 12;
/// At most this many pairs are judged per night (each is one model call).
pub const REM_JUDGED: usize = 4;
/// The memories REM reads, newest first.
const REM_MEMORIES: i64 = 300;
/// Each memory's nearest neighbours joined to the dream graph, and how alike they must be.
const NEIGHBOURS: usize = 3;
const NEIGHBOUR_MIN: f32 = 0.35;
/// Pairs this alike say the same thing: no connection to discover.
const SAME_THING: f32 = 0.85;

/// One phase's outcome: its report, or why it failed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Phase<T> {
    pub report: Option<T>,
    pub error: Option<String>,
}

impl<T> From<anyhow::Result<T>> for Phase<T> {
    fn from(r: anyhow::Result<T>) -> Self {
        match r {
            Ok(t) => Phase { report: Some(t), error: None },
            Err(e) => Phase { report: None, error: Some(format!("{e:#}")) },
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct RemReport {
    pub memories: usize,
    pub seeds: Vec<MemoryId>,
    pub judged: usize,
    /// The connections accepted, as `extends` relations.
    pub connections: Vec<Connection>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Connection {
    pub from: MemoryId,
    pub to: MemoryId,
    pub connection: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DreamReport {
    pub nrem: Phase<FusionReport>,
    pub rem: Phase<RemReport>,
}

/// One night: NREM, then REM, each isolated from the other's failure.
pub async fn run(deps: &Deps, tenant_id: TenantId, agent_id: AgentId, origin: &Origin) -> DreamReport {
    let nrem = fusion::run(deps, tenant_id, agent_id, origin, &fusion::NREM).await.into();
    let rem = rem(deps, tenant_id, agent_id, origin, deps.clock.now()).await.into();
    DreamReport { nrem, rem }
}

/// The seed of a night's draws: the agent and the day.
fn night_seed(agent_id: AgentId, now: DateTime<Utc>) -> u64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{agent_id}:{}", now.date_naive()).as_bytes());
    u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// Draws up to `REM_SEEDS` seeds: weight `(1 - 2|p - 0.5|)` (moderate prominence) times
/// `(1 - the highest cosine to a seed already drawn)²` (diversity).
pub fn draw_seeds(prominence: &[f64], vectors: &[&[f32]], rng: &mut impl Rng) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::new();
    while chosen.len() < REM_SEEDS.min(prominence.len()) {
        let weights: Vec<f64> = (0..prominence.len())
            .map(|i| {
                if chosen.contains(&i) {
                    return 0.0;
                }
                let moderate = (1.0 - 2.0 * (prominence[i] - 0.5).abs()).max(0.05);
                let nearest = chosen.iter().map(|&c| f64::from(cosine(vectors[i], vectors[c]))).fold(0.0, f64::max);
                moderate * (1.0 - nearest).max(0.0).powi(2)
            })
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            break;
        }
        let mut x = rng.random::<f64>() * total;
        let pick = weights.iter().position(|w| {
            x -= w;
            x < 0.0 && *w > 0.0
        });
        match pick.or_else(|| weights.iter().rposition(|w| *w > 0.0)) {
            Some(i) => chosen.push(i),
            None => break,
        }
    }
    chosen
}

/// REM exploration for one agent.
async fn rem(
    deps: &Deps,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    now: DateTime<Utc>,
) -> anyhow::Result<RemReport> {
    let rows = memory::newest_learned_with_vectors(&deps.pool, agent_id, deps.embedder.model(), REM_MEMORIES).await?;
    let mut report = RemReport { memories: rows.len(), ..RemReport::default() };
    if rows.len() < 2 {
        return Ok(report);
    }
    let ids: Vec<MemoryId> = rows.iter().map(|r| r.memory.id).collect();
    let vectors: Vec<&[f32]> = rows.iter().map(|r| r.vector.as_slice()).collect();
    // The dream graph: stored relations (typed weights) and nearest neighbours (their cosine).
    let mut edges: Vec<Edge> = Vec::new();
    let mut direct: HashSet<(usize, usize)> = HashSet::new();
    let index: HashMap<MemoryId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let kinds = activation::among(&deps.pool, agent_id, &ids).await?;
    for (from, to, kind) in &kinds {
        edges.push(Edge::relation(*from, *to, kind));
        if let (Some(&i), Some(&j)) = (index.get(from), index.get(to)) {
            direct.insert((i.min(j), i.max(j)));
        }
    }
    for i in 0..rows.len() {
        let mut near: Vec<(usize, f32)> = (0..rows.len())
            .filter(|&j| j != i && vectors[i].len() == vectors[j].len())
            .map(|j| (j, cosine(vectors[i], vectors[j])))
            .filter(|(_, c)| *c >= NEIGHBOUR_MIN)
            .collect();
        near.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (j, c) in near.into_iter().take(NEIGHBOURS) {
            if direct.insert((i.min(j), i.max(j))) {
                edges.push(Edge { from: ids[i], to: ids[j], forward: f64::from(c), reverse: f64::from(c) });
            }
        }
    }
    let seed = night_seed(agent_id, now);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let prominence: Vec<f64> = rows.iter().map(|r| r.memory.prominence(now)).collect();
    let seeds = draw_seeds(&prominence, &vectors, &mut rng);
    report.seeds = seeds.iter().map(|&i| ids[i]).collect();
    let start: HashMap<MemoryId, f64> = seeds.iter().map(|&i| (ids[i], 1.0)).collect();
    let act = activation::spread(&start, &edges, &activation::Params::rem(seed));
    let mut active: Vec<(usize, f64)> = act.iter().filter_map(|(id, a)| Some((*index.get(id)?, *a))).collect();
    active.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    active.truncate(REM_ACTIVE);
    let mut pairs: Vec<(usize, usize, f64)> = Vec::new();
    for (x, &(i, ai)) in active.iter().enumerate() {
        for &(j, aj) in &active[x + 1..] {
            let unrelated = !direct.contains(&(i.min(j), i.max(j)));
            if unrelated && cosine(vectors[i], vectors[j]) < SAME_THING {
                pairs.push((i, j, ai * aj));
            }
        }
    }
    pairs.sort_by(|a, b| b.2.total_cmp(&a.2).then((a.0, a.1).cmp(&(b.0, b.1))));
    let ctx = CallContext::job(agent_id, Some(tenant_id));
    for (i, j, _) in pairs.into_iter().take(REM_JUDGED) {
        let (a, b) = (&rows[i].memory, &rows[j].memory);
        let note = |m: &Memory| Note { content: m.content.clone(), category: m.category.clone() };
        let answer = deps.llm.complete(&ctx, ChatRequest::from_input(DreamJudge { a: note(a), b: note(b) })).await?;
        report.judged += 1;
        let v: Value = serde_json::from_str(answer.content.trim())
            .map_err(|e| anyhow::anyhow!("the dream_judge answer is not JSON ({e})"))?;
        if v["accept"].as_bool() != Some(true) {
            continue;
        }
        let connection =
            v["connection"].as_str().map(str::trim).filter(|c| !c.is_empty()).unwrap_or("connected in a dream");
        let mut tx = deps.pool.begin().await?;
        memory::supersede::relate(&mut tx, agent_id, a.id, b.id, "extends", connection).await?;
        miniclaw_platform::activity::record_agent(
            &mut tx,
            tenant_id,
            agent_id,
            origin,
            "memory.dream_connection",
            json!({ "from": a.id, "to": b.id, "connection": connection }),
        )
        .await?;
        tx.commit().await?;
        report.connections.push(Connection {
            from: a.id,
            to: b.id,
            connection: connection.chars().take(500).collect(),
        });
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_distinct_moderate_and_diverse() {
        let (x, y, z) =
            ([1.0f32, 0.0], [0.0f32, 1.0], [std::f32::consts::FRAC_1_SQRT_2, std::f32::consts::FRAC_1_SQRT_2]);
        let vectors: Vec<&[f32]> = vec![&x, &x, &y, &z, &x, &y, &z, &x];
        let prominence = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.99];
        for seed in 0..50 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let seeds = draw_seeds(&prominence, &vectors, &mut rng);
            let unique: HashSet<usize> = seeds.iter().copied().collect();
            assert_eq!(unique.len(), seeds.len());
            // Identical vectors weigh 0 once one of them is drawn: at most one per direction.
            let directions: HashSet<[u32; 2]> =
                seeds.iter().map(|&i| [vectors[i][0].to_bits(), vectors[i][1].to_bits()]).collect();
            assert_eq!(directions.len(), seeds.len(), "{seeds:?}");
            assert!(seeds.len() <= 3);
        }
        let mut a = rand::rngs::StdRng::seed_from_u64(9);
        let mut b = rand::rngs::StdRng::seed_from_u64(9);
        assert_eq!(draw_seeds(&prominence, &vectors, &mut a), draw_seeds(&prominence, &vectors, &mut b));
    }
}
