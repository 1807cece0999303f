//! The row fetch every candidate path shares (filters applied once more, similarity to the
//! query computed in the same read), the scoring of a candidate, and the paths that start from
//! the best candidates: spreading activation over the memory relations (X3), bridging through
//! the names a candidate mentions (multi-hop) and learned traversal (X5).

use miniclaw_core::ids::{AgentId, MemoryId};
use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::{PathReport, SearchFilters, SearchResult, Searcher, Signals, TraversalReport};
use crate::memory::when::Window;
use crate::memory::{COLUMNS, Memory, activation, graph, score, terms, vector};
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
    let t = window.filter(|w| w.contains(memory.occurred_at)).map_or(0.0, Window::signal);
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
#[derive(Clone, Copy)]
pub(super) struct Scope<'a> {
    pub(super) agent_id: AgentId,
    pub(super) statuses: &'a [String],
    pub(super) model: &'a str,
    pub(super) query: Option<&'a [f32]>,
    pub(super) filters: &'a SearchFilters,
    /// The time the query speaks of, if any.
    pub(super) window: Option<&'a Window>,
    /// Read memories a newer value replaced too (a question about the past).
    pub(super) replaced: bool,
    /// Whose memories (SPEC H1).
    pub(super) reader: &'a crate::memory::Reader,
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
        let reader = self.reader.condition("", "$11", "$12");
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
              WHERE agent_id = $1 AND id = ANY($2) AND status = ANY($3) AND ($10 OR invalid_at IS NULL)
                AND (expires_at IS NULL OR expires_at > now())
                AND (cardinality($6::text[]) = 0 OR category = ANY($6))
                AND (cardinality($7::text[]) = 0 OR source = ANY($7))
                AND ($8::timestamptz IS NULL OR occurred_at >= $8) AND ($9::timestamptz IS NULL OR occurred_at < $9)
                AND {reader}"
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
        .bind(self.replaced)
        .bind(self.reader.all())
        .bind(self.reader.end_user())
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

/// Hops a bridge takes at most from its seed.
pub const BRIDGE_HOPS: usize = 2;
/// A memory joins a bridge only when it is at least this similar to the question read together
/// with the chain so far.
pub const BRIDGE_FLOOR: f64 = 0.35;
/// Memories sharing one name read per hop, at most.
const BRIDGE_FANOUT: i64 = 64;

/// The names a text mentions, as BM25 terms: its capitalised words ("Turimar", "Lisbon",
/// "Acme"), stop words aside. A capitalised word that starts a sentence may be any word; the
/// caller keeps only names few memories share, which common words are not.
pub fn names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’') {
        if word.chars().next().is_some_and(char::is_uppercase) {
            for t in terms::terms(word) {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }
    out
}

impl Searcher<'_> {
    /// Multi-hop retrieval without feedback: from the best candidate, through a name it
    /// mentions that the query does not (the bridge: "Brimar's sister is Turimar" for "where
    /// does the spouse of Brimar's sister work?"), to the memory among those naming it that is
    /// most similar to the question read together with the chain so far ("Turimar is married
    /// to Zeritek"), and from there once more ("Zeritek works at the Cedar Clinic"). The links
    /// are the BM25 postings written with each memory, limited to names at most
    /// `graph::MENTION_DF_MAX` memories share. A bridged memory ranks right behind the memory
    /// it was reached from.
    pub(super) async fn bridge(
        &self,
        scope: &Scope<'_>,
        query: &str,
        results: &mut Vec<SearchResult>,
        best_bm25: f64,
    ) -> Result<PathReport, Error> {
        let mut report = PathReport { searched: false, candidates: 0, note: None };
        if scope.query.is_none() {
            report.note = Some("the query has no vector".into());
            return Ok(report);
        }
        // One chain, from the best candidate only (B9: bridges from the second one too cost
        // 0.006 R@5 on dialogue and added 0.005 SP@5 on B7).
        let Some(seed) = results.first() else {
            report.note = Some("no candidate to start from".into());
            return Ok(report);
        };
        let (mut texts, mut ids, score) = (vec![seed.memory.content.clone()], vec![seed.memory.id], seed.score);
        let mut seen: HashSet<String> = terms::terms(query).into_iter().collect();
        let mut conn = self.deps.pool.acquire().await?;
        let mut added: Vec<(MemoryId, f64)> = Vec::new();
        for hop in 1..=BRIDGE_HOPS {
            // The names the chain's last memory brings in, and the memories naming them.
            let last = texts.last().map(String::as_str).unwrap_or_default();
            let new: Vec<String> = names(last).into_iter().filter(|n| !seen.contains(n)).collect();
            seen.extend(terms::terms(last));
            if new.is_empty() {
                break;
            }
            let near: Vec<MemoryId> = sqlx::query_scalar(
                "SELECT DISTINCT t.memory_id FROM memory_terms t
                   JOIN memory_term_stats s ON s.agent_id = t.agent_id AND s.term = t.term
                  WHERE t.agent_id = $1 AND t.term = ANY($2) AND s.df <= $3 AND t.memory_id <> ALL($4)
                  LIMIT $5",
            )
            .bind(scope.agent_id)
            .bind(&new)
            .bind(graph::MENTION_DF_MAX)
            .bind(&ids)
            .bind(BRIDGE_FANOUT)
            .fetch_all(&mut *conn)
            .await?;
            if near.is_empty() {
                break;
            }
            report.searched = true;
            // The question read with the chain so far.
            let read = format!("{query} {}", texts.join(" "));
            let payer = miniclaw_platform::llm::spend::Payer::agent(scope.agent_id);
            let v = match miniclaw_platform::embed::paid_by(payer, self.deps.embedder.embed(&[read])).await {
                Ok(mut v) => v.pop().unwrap_or_default(),
                Err(e) => {
                    report.note = Some(format!("the question with its chain could not be embedded: {e}"));
                    break;
                }
            };
            let read_with = Scope { query: Some(&v), ..*scope };
            let best = read_with
                .rows(&mut conn, &near)
                .await?
                .into_iter()
                .filter_map(|(m, sim)| sim.map(|s| (m, s)))
                .filter(|(_, s)| *s >= BRIDGE_FLOOR)
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.id.cmp(&a.0.id)));
            let Some((memory, _)) = best else { break };
            // Right behind what it was reached from, ahead of what was below that.
            added.push((memory.id, score * (1.0 - 0.001 * hop as f64)));
            ids.push(memory.id);
            texts.push(memory.content);
        }
        if !report.searched {
            report.note = Some("the best candidate names nothing the query does not".into());
            return Ok(report);
        }
        // Memories that were not candidates yet, with their signals for the query itself.
        let new: Vec<MemoryId> =
            added.iter().map(|(id, _)| *id).filter(|id| !results.iter().any(|r| r.memory.id == *id)).collect();
        let now = Utc::now();
        for (memory, sim) in scope.rows(&mut conn, &new).await? {
            results.push(scored(memory, sim, 0.0, best_bm25, now, scope.window, Vec::new()));
        }
        drop(conn);
        for &(id, score) in &added {
            if let Some(r) = results.iter_mut().find(|r| r.memory.id == id) {
                r.signals.traversal = r.signals.traversal.max(score);
                r.score = r.score.max(score);
                r.found_by.push("bridge".into());
            }
        }
        report.candidates = added.len();
        if added.is_empty() {
            report.note = Some(format!(
                "no memory naming what it names was at least {BRIDGE_FLOOR} similar to the question read with it"
            ));
        }
        super::sort_results(results);
        Ok(report)
    }
}

/// Candidates whose replaced values a question about the past reads.
pub const HISTORY_SEEDS: usize = 3;

impl Searcher<'_> {
    /// A question about the past ("where did I live before Lisbon?"): the values the best
    /// candidates replaced (their `updates` relations) rank right ahead of them, though
    /// replaced memories are otherwise out of search (R7).
    pub(super) async fn history(
        &self,
        scope: &Scope<'_>,
        results: &mut Vec<SearchResult>,
        best_bm25: f64,
    ) -> Result<PathReport, Error> {
        let mut report = PathReport { searched: true, candidates: 0, note: None };
        let newer: Vec<(MemoryId, f64)> = results.iter().take(HISTORY_SEEDS).map(|r| (r.memory.id, r.score)).collect();
        let ids: Vec<MemoryId> = newer.iter().map(|(id, _)| *id).collect();
        let mut conn = self.deps.pool.acquire().await?;
        let pairs: Vec<(MemoryId, MemoryId)> = sqlx::query_as(
            "SELECT from_id, to_id FROM memory_relations
              WHERE agent_id = $1 AND kind = 'updates' AND from_id = ANY($2)",
        )
        .bind(scope.agent_id)
        .bind(&ids)
        .fetch_all(&mut *conn)
        .await?;
        let older: Vec<MemoryId> = pairs.iter().map(|(_, old)| *old).collect();
        let with_replaced = Scope { replaced: true, ..*scope };
        let rows = with_replaced.rows(&mut conn, &older).await?;
        drop(conn);
        let now = Utc::now();
        for (memory, sim) in rows {
            let Some((from, _)) = pairs.iter().find(|(_, old)| *old == memory.id) else { continue };
            let Some(&(_, score)) = newer.iter().find(|(id, _)| id == from) else { continue };
            results.retain(|r| r.memory.id != memory.id);
            let mut r = scored(memory, sim, 0.0, best_bm25, now, scope.window, vec!["history".to_string()]);
            r.score = score + 1e-6;
            results.push(r);
            report.candidates += 1;
        }
        if report.candidates == 0 {
            report.note = Some("the best candidates replaced no older value".into());
        }
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

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn names_are_the_capitalised_words() {
        assert_eq!(names("Brimar's sister is Turimar."), ["brimar", "turimar"]);
        assert_eq!(
            names("Turimar is married to Zeritek, who works at Acme Labs"),
            ["turimar", "zeritek", "acm", "lab"]
        );
        assert_eq!(names("we met in Lisbon and then in lisbon again. I was there"), ["lisbon"]);
    }
}
