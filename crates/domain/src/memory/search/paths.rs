//! The row fetch every candidate path shares (filters applied once more, similarity to the
//! query computed in the same read), the scoring of a candidate, and the paths that start from
//! the best candidates: spreading activation over the memory relations (X3) and learned
//! traversal (X5).

use miniclaw_core::ids::{AgentId, MemoryId};
use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::{PathReport, SearchFilters, SearchResult, Searcher, Signals, TraversalReport};
use crate::memory::when::Window;
use crate::memory::{COLUMNS, Memory, activation, graph, score, vector};
use miniclaw_core::Error;

/// A candidate with its signals and hybrid score.
pub(super) fn scored(
    memory: Memory,
    sim: Option<f64>,
    bm25_raw: f64,
    best_bm25: f64,
    now: DateTime<Utc>,
    window: Option<&Window>,
    found_by: Vec<String>,
) -> SearchResult {
    let b = if best_bm25 > 0.0 { (bm25_raw / best_bm25).min(1.0) } else { 0.0 };
    let s = sim.unwrap_or(0.0).clamp(0.0, 1.0);
    let p = memory.prominence(now).clamp(0.0, 1.0);
    let t = f64::from(u8::from(window.is_some_and(|w| w.contains(memory.occurred_at))));
    let hybrid = score::hybrid(b, s, p, t);
    SearchResult {
        memory,
        score: hybrid,
        signals: Signals {
            bm25: b,
            bm25_raw,
            semantic: s,
            prominence: p,
            time: t,
            activation: 0.0,
            traversal: 0.0,
            hybrid,
            llm: None,
        },
        found_by,
    }
}

/// What a search reads rows within: the agent, the statuses and filters, and the query's
/// vector for the similarity.
pub(super) struct Scope<'a> {
    pub(super) agent_id: AgentId,
    pub(super) statuses: &'a [String],
    pub(super) model: &'a str,
    pub(super) query: Option<&'a [f32]>,
    pub(super) filters: &'a SearchFilters,
    /// The time the query speaks of, if any.
    pub(super) window: Option<&'a Window>,
}

impl Scope<'_> {
    /// The memories among `ids` that pass the filters, each with its similarity to the query.
    pub(super) async fn rows(
        &self,
        conn: &mut sqlx::PgConnection,
        ids: &[MemoryId],
    ) -> sqlx::Result<Vec<(Memory, Option<f64>)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let f = self.filters;
        // Built at run time: the similarity embeds the query's dimension (`vector(<dims>)`).
        let dims = self.query.map_or(0, <[f32]>::len);
        let sim = match self.query {
            Some(_) => {
                format!(
                    "CASE WHEN embedding_model = $4 THEN 1 - (embedding::vector({dims}) <=> $5::vector({dims})) END"
                )
            }
            None => "NULL::float8".into(),
        };
        Ok(sqlx::query_as::<_, MemoryWithSim>(&format!(
            "SELECT {COLUMNS}, {sim} AS similarity FROM agent_memories
              WHERE agent_id = $1 AND id = ANY($2) AND status = ANY($3) AND invalid_at IS NULL
                AND (expires_at IS NULL OR expires_at > now())
                AND (cardinality($6::text[]) = 0 OR category = ANY($6))
                AND (cardinality($7::text[]) = 0 OR source = ANY($7))
                AND ($8::timestamptz IS NULL OR occurred_at >= $8) AND ($9::timestamptz IS NULL OR occurred_at < $9)"
        ))
        .bind(self.agent_id)
        .bind(ids)
        .bind(self.statuses)
        .bind(self.model)
        .bind(self.query.map(vector::param))
        .bind(&f.category)
        .bind(&f.source)
        .bind(f.from)
        .bind(f.to)
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|r| (r.memory, r.similarity))
        .collect())
    }
}

/// The best candidates spreading activation starts from (X3).
pub const ACTIVATION_SEEDS: usize = 5;
/// Activation a memory needs to join the candidates.
pub const ACTIVATION_MIN: f64 = 0.05;
/// At most this many memories join by activation.
pub const ACTIVATED_MAX: usize = 10;
/// The relations read around the seeds, at most.
const ACTIVATION_EDGES_MAX: i64 = 2_000;

/// The noise seed of a search: the same agent and query spread the same way.
fn noise_seed(agent_id: AgentId, query: &str) -> u64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{agent_id}\u{0}{query}").as_bytes());
    u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
}

impl Searcher<'_> {
    /// Spreading activation (X3) from the best candidates over the agent's relations: the
    /// activation each result received, and the related memories it reached as candidates.
    pub(super) async fn activate(
        &self,
        scope: &Scope<'_>,
        query: &str,
        results: &mut Vec<SearchResult>,
        best_bm25: f64,
    ) -> Result<PathReport, Error> {
        let mut report = PathReport { searched: false, candidates: 0, note: None };
        let seeds: HashMap<MemoryId, f64> =
            results.iter().take(ACTIVATION_SEEDS).map(|r| (r.memory.id, r.score.clamp(0.0, 1.0))).collect();
        if seeds.is_empty() {
            report.note = Some("no candidate to spread from".into());
            return Ok(report);
        }
        let mut conn = self.deps.pool.acquire().await?;
        let seed_ids: Vec<MemoryId> = seeds.keys().copied().collect();
        let edges = activation::neighbourhood(
            &mut conn,
            scope.agent_id,
            &seed_ids,
            activation::STEPS as i32,
            ACTIVATION_EDGES_MAX,
        )
        .await?;
        report.searched = true;
        if edges.is_empty() {
            report.note = Some("the best candidates have no relations".into());
            return Ok(report);
        }
        let act = activation::spread(&seeds, &edges, &activation::Params::search(noise_seed(scope.agent_id, query)));
        let received =
            |id: &MemoryId| (act.get(id).copied().unwrap_or(0.0) - seeds.get(id).copied().unwrap_or(0.0)).max(0.0);
        for r in results.iter_mut() {
            r.signals.activation = received(&r.memory.id);
        }
        let known: std::collections::HashSet<MemoryId> = results.iter().map(|r| r.memory.id).collect();
        let mut reached: Vec<(MemoryId, f64)> = act
            .keys()
            .filter(|id| !known.contains(id))
            .map(|id| (*id, received(id)))
            .filter(|(_, a)| *a >= ACTIVATION_MIN)
            .collect();
        reached.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        reached.truncate(ACTIVATED_MAX);
        let ids: Vec<MemoryId> = reached.iter().map(|(id, _)| *id).collect();
        let now = Utc::now();
        for (memory, sim) in scope.rows(&mut conn, &ids).await? {
            let a = received(&memory.id);
            let mut r = scored(memory, sim, 0.0, best_bm25, now, scope.window, vec!["activation".to_string()]);
            r.signals.activation = a;
            results.push(r);
            report.candidates += 1;
        }
        if report.candidates == 0 {
            report.note = Some("no live memory that passes the filters was activated enough".into());
        }
        super::sort_results(results);
        Ok(report)
    }
}

impl Searcher<'_> {
    /// Learned traversal (X5) from the best candidates: a node it reaches scores its best path
    /// score when that beats its hybrid score (`signals.traversal`), reached memories outside
    /// the candidates join them, and memories a correction vetoed on the way are dropped.
    pub(super) async fn traverse(
        &self,
        scope: &Scope<'_>,
        results: &mut Vec<SearchResult>,
        best_bm25: f64,
    ) -> Result<TraversalReport, Error> {
        let mut report = TraversalReport { searched: false, candidates: 0, note: None, path: None };
        let p = graph::Params::default();
        let seeds: Vec<(MemoryId, f64)> = results.iter().take(p.beam).map(|r| (r.memory.id, r.score)).collect();
        if seeds.is_empty() {
            report.note = Some("no candidate to start from".into());
            return Ok(report);
        }
        let seed_ids: Vec<MemoryId> = seeds.iter().map(|(id, _)| *id).collect();
        let mut conn = self.deps.pool.acquire().await?;
        let edges = graph::neighbourhood(&mut conn, scope.agent_id, &seed_ids, p.max_hops).await?;
        report.searched = true;
        if edges.is_empty() {
            report.note = Some("the best candidates have no edges in the traversal graph".into());
            return Ok(report);
        }
        let trace = graph::traverse(&seeds, &edges, &p);
        let vetoed: std::collections::HashSet<MemoryId> = trace.suppressed.iter().copied().collect();
        results.retain(|r| !vetoed.contains(&r.memory.id));
        let reached: HashMap<MemoryId, f64> = trace.reached.iter().map(|n| (n.id, n.score)).collect();
        for r in results.iter_mut() {
            if let Some(s) = reached.get(&r.memory.id) {
                r.signals.traversal = *s;
                r.score = r.score.max(*s);
            }
        }
        let known: std::collections::HashSet<MemoryId> = results.iter().map(|r| r.memory.id).collect();
        let new: Vec<MemoryId> = trace.reached.iter().map(|n| n.id).filter(|id| !known.contains(id)).collect();
        let now = Utc::now();
        for (memory, sim) in scope.rows(&mut conn, &new).await? {
            let s = reached[&memory.id];
            let mut r = scored(memory, sim, 0.0, best_bm25, now, scope.window, vec!["traversal".to_string()]);
            r.signals.traversal = s;
            r.score = r.score.max(s);
            results.push(r);
            report.candidates += 1;
        }
        if trace.reached.is_empty() {
            report.note = Some(format!("no edge was followed ({})", trace.stopped));
        }
        report.path = Some(trace);
        super::sort_results(results);
        Ok(report)
    }
}

#[derive(sqlx::FromRow)]
struct MemoryWithSim {
    #[sqlx(flatten)]
    memory: Memory,
    similarity: Option<f64>,
}
