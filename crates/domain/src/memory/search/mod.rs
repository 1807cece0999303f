//! Hybrid memory search (X1, R4, R8): candidates from BM25 over the agent's live memories and
//! from the vector index (and, when the query names a time, the nearest of that time), each
//! scored on every signal and combined as `score::HYBRID_FORMULA` after normalisation (vector
//! candidates within a margin of the nearest), optionally reranked by the `rerank` role, and
//! explained.

use miniclaw_core::ids::{AgentId, MemoryId};
use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

mod paths;

pub use paths::{ACTIVATED_MAX, ACTIVATION_MIN, ACTIVATION_SEEDS};
use paths::{Scope, scored};

use super::vector::{self, Filters};
use super::when::{self, Window};
use super::{Memory, MemoryStatus, score, terms};
use miniclaw_core::Error;
use miniclaw_platform::deps::Deps;
use miniclaw_platform::llm::roles::Rerank;
use miniclaw_platform::llm::{CallContext, ChatRequest};

#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchFilters {
    #[serde(default)]
    pub category: Vec<String>,
    #[serde(default)]
    pub source: Vec<String>,
    /// Default: the live statuses, `active` and `dormant`.
    #[serde(default)]
    pub status: Vec<String>,
    /// Said or happened at or after (`occurred_at`).
    pub from: Option<DateTime<Utc>>,
    /// Said or happened before (`occurred_at`).
    pub to: Option<DateTime<Utc>>,
    /// Only the memories learned from this end user (SPEC H1; Mem0's `user_id`), or `-` for
    /// the agent's own knowledge. A request acting for an end user reads the agent's own
    /// knowledge and theirs at most.
    pub end_user: Option<String>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    pub query: String,
    /// 1–50, default 10.
    pub limit: Option<i64>,
    #[serde(default)]
    pub filters: SearchFilters,
    /// Rerank with the `rerank` model role over a 4x over-fetch (default false).
    #[serde(default)]
    pub rerank: bool,
    /// Follow the names the best candidates mention (bridging, multi-hop) and the agent's
    /// learned traversal graph (X5) from them (default true).
    #[serde(default = "yes")]
    pub traversal: bool,
}

fn yes() -> bool {
    true
}

/// Each signal of a result, normalised to [0, 1], and what it contributed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Signals {
    /// BM25 divided by the best BM25 among the candidates.
    pub bm25: f64,
    pub bm25_raw: f64,
    /// Cosine similarity (0 when the memory has no vector of the query's model).
    pub semantic: f64,
    /// The memory's prominence (X2): age, access frequency and recency, importance.
    pub prominence: f64,
    /// 1 when the memory was said or happened on the day the query names
    /// (`explanation.time_window`), 1/3 within a longer time it names (a week, a month), else 0.
    pub time: f64,
    /// Spreading activation from the best candidates over the memory relations (X3), 0 when
    /// none reached it.
    pub activation: f64,
    /// The best path score of a bridge (its seed's score, a hair less per hop) or of learned
    /// traversal (X5: a seed's score times the weights of the edges followed) to it; 0 when
    /// neither reached it.
    pub traversal: f64,
    /// `score::HYBRID_FORMULA` of the signals above.
    pub hybrid: f64,
    /// The rerank model's score, when reranked.
    pub llm: Option<f64>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SearchResult {
    pub memory: Memory,
    pub score: f64,
    pub signals: Signals,
    /// Which paths found it: `bm25`, `vector`, `activation` (related to a better candidate),
    /// `bridge` (named by a better candidate and similar to the question read with it),
    /// `history` (a value a better candidate replaced, for a question about the past),
    /// `traversal` (reached by learned traversal from a better candidate).
    pub found_by: Vec<String>,
}

/// What learned traversal did (R8, X5).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TraversalReport {
    pub searched: bool,
    pub candidates: usize,
    pub note: Option<String>,
    pub path: Option<crate::memory::graph::Trace>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PathReport {
    pub searched: bool,
    pub candidates: usize,
    /// Why the path was not searched or found nothing.
    pub note: Option<String>,
}

/// What was searched and how (R8).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Explanation {
    pub agent_id: AgentId,
    pub query_terms: Vec<String>,
    pub categories: Vec<String>,
    pub sources: Vec<String>,
    pub statuses: Vec<String>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
    /// The time the query speaks of ("last week", "on 29 Dec 2023", "in May"), when it names
    /// one and no `from`/`to` filter is given: memories of that time are candidates and score
    /// the `time` signal.
    pub time_window: Option<Window>,
    pub bm25: PathReport,
    pub vector: PathReport,
    /// Spreading activation (X3) from the best candidates: `candidates` counts the memories it
    /// added.
    pub activation: PathReport,
    /// Bridging (multi-hop) from the best candidate through the names it mentions and the
    /// query does not: `candidates` counts the memories it ranked behind it.
    pub bridge: PathReport,
    /// For a question about the past ("before", "used to", "previously"…): the values the
    /// best candidates replaced, ranked right ahead of them (`candidates` counts them).
    pub history: PathReport,
    /// Learned traversal (X5) from the best candidates: `candidates` counts the memories it
    /// added; its path (seeds, edges followed, nodes reached, nodes a correction vetoed).
    pub traversal: TraversalReport,
    pub embedding_model: String,
    pub reranked: bool,
    pub rerank_note: Option<String>,
    /// `score::HYBRID_FORMULA`, or a traversal path score when higher
    /// (then `0.4*hybrid + 0.6*llm` when reranked).
    pub formula: String,
    /// Live memories the agent has (any filter aside).
    pub live_memories: i64,
    /// For an empty result: why.
    pub empty_reason: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SearchResponse {
    pub results: Vec<SearchResult>,
    pub explanation: Explanation,
}

/// Candidates each of the BM25 and vector paths gives, at least.
pub const CANDIDATE_DEPTH: i64 = 100;

/// Vector neighbours are candidates when they are at least this similar...
pub const SEMANTIC_FLOOR: f64 = 0.15;
/// ...and within this margin of the nearest one. A fixed threshold either drops the answer to
/// a question phrased in other words (its cosine is low, but it is still the nearest) or lets
/// noise in for a query that matches well; a threshold relative to the best neighbour keeps the
/// nearest memories whenever any is near at all (R8: "below threshold" names the one used).
pub const SEMANTIC_MARGIN: f64 = 0.3;

/// The similarity a vector neighbour needs, given the best one's.
pub fn semantic_threshold(best: f64) -> f64 {
    (best - SEMANTIC_MARGIN).max(SEMANTIC_FLOOR)
}

/// Everything a search needs besides its request.
pub struct Searcher<'a> {
    pub deps: &'a Deps,
    /// Whose budget a rerank call is charged to.
    pub ctx: CallContext,
    /// Whose memories the caller may read (SPEC H1).
    pub reader: crate::memory::Reader,
}

fn validate(req: &SearchRequest) -> Result<i64, Error> {
    if req.query.trim().is_empty() {
        return Err(Error::validation("query", "query must not be empty"));
    }
    Error::check_length("query", &req.query, 2000)?;
    let limit = req.limit.unwrap_or(10);
    if !(1..=50).contains(&limit) {
        return Err(Error::validation("limit", "limit must be between 1 and 50"));
    }
    for s in &req.filters.status {
        miniclaw_core::vocabulary::parse::<super::MemoryStatus>("filters.status", s)?;
    }
    if let (Some(f), Some(t)) = (req.filters.from, req.filters.to)
        && f >= t
    {
        return Err(Error::validation("filters.from", "from must be before to"));
    }
    Ok(limit)
}

impl Searcher<'_> {
    pub async fn search(&self, agent_id: AgentId, req: &SearchRequest) -> Result<SearchResponse, Error> {
        let limit = validate(req)?;
        let f = &req.filters;
        let reader = self.reader.narrowed(f.end_user.as_deref())?;
        let live: Vec<String> = MemoryStatus::LIVE.iter().map(|s| s.as_str().to_string()).collect();
        let statuses = if f.status.is_empty() { live.clone() } else { f.status.clone() };
        // What the answer shows (or a rerank reads), and the deeper candidate lists fusion
        // ranks from: an answer only 30th by words and 30th by meaning can still be first by
        // both (B9).
        let shown = if req.rerank { limit * 4 } else { limit * 2 };
        let fetch = shown.max(CANDIDATE_DEPTH);
        let filters = Filters {
            categories: f.category.clone(),
            sources: f.source.clone(),
            statuses: statuses.clone(),
            from: f.from,
            to: f.to,
            // The search API keeps the vector stage's full recall (B2) for what it shows; the
            // deeper candidates are for fusion and may be approximate.
            scan_max: None,
            precise: Some(shown),
            reader: reader.clone(),
        };
        let query_terms = terms::terms(&req.query);
        let now = Utc::now();
        let window = if f.from.is_none() && f.to.is_none() { when::window(&req.query, now) } else { None };
        // Embed before taking a connection: no connection waits on the model.
        let mut vector_report = PathReport { searched: false, candidates: 0, note: None };
        let mut semantic: HashMap<MemoryId, f64> = HashMap::new();
        let model = self.deps.embedder.model().to_string();
        let payer = miniclaw_platform::llm::spend::Payer::agent(agent_id);
        let embedded = self.deps.embedder.embed(std::slice::from_ref(&req.query));
        let query_vec = match miniclaw_platform::embed::paid_by(payer, embedded).await {
            Ok(mut v) => v.pop(),
            Err(e) => {
                vector_report.note = Some(format!("the query could not be embedded: {e}"));
                None
            }
        };
        // BM25 covers live (active and dormant) memories only. It and the vector stage run at once, each on
        // its own connection.
        // A reader who may not see every memory (an end user) filters too: BM25 knows no owner
        // of a memory, so it scores deeper for enough of the reader's own to survive.
        let filtered =
            !f.category.is_empty() || !f.source.is_empty() || f.from.is_some() || f.to.is_some() || !reader.all();
        let mut bm25_report = PathReport { searched: false, candidates: 0, note: None };
        let bm25_run = if !statuses.iter().any(|s| live.contains(s)) {
            bm25_report.note =
                Some("BM25 indexes live (active and dormant) memories only; the status filter excludes them".into());
            false
        } else if query_terms.is_empty() {
            bm25_report.note = Some("the query has no searchable words (only stop words)".into());
            false
        } else {
            true
        };
        // With filters, score more so enough survive them.
        let k = if filtered { fetch * 10 } else { fetch };
        let bm25_stage = async {
            if !bm25_run {
                return Ok::<_, sqlx::Error>(Vec::new());
            }
            let mut conn = self.deps.pool.acquire().await?;
            // As the vector stage: what is shown exact, the deeper candidates the best met on
            // the way (with filters, all of them: many may not pass).
            terms::bm25_deep(&mut conn, agent_id, &query_terms, k, if filtered { k } else { shown }).await
        };
        let vector_stage = async {
            let Some(q) = &query_vec else { return Ok::<_, sqlx::Error>(None) };
            let mut conn = self.deps.pool.acquire().await?;
            vector::nearest(&mut conn, agent_id, &model, q, fetch, &filters).await.map(Some)
        };
        // The nearest memories of the time the query names, however far the others are.
        let window_stage = async {
            let (Some(q), Some(w)) = (&query_vec, &window) else { return Ok::<_, sqlx::Error>(Vec::new()) };
            let mut conn = self.deps.pool.acquire().await?;
            let in_window = Filters { from: Some(w.from), to: Some(w.to), ..filters.clone() };
            vector::nearest(&mut conn, agent_id, &model, q, fetch, &in_window).await
        };
        let (bm25_found, nearest, of_window) = tokio::join!(bm25_stage, vector_stage, window_stage);
        let mut bm25: HashMap<MemoryId, f64> = bm25_found?.into_iter().collect();
        if bm25_run {
            bm25_report.searched = true;
            bm25_report.candidates = bm25.len();
            if bm25.is_empty() {
                bm25_report.note = Some("no live memory contains any of the query's words".into());
            }
        }
        if let Some(nearest) = nearest? {
            vector_report.searched = true;
            let found = nearest.len();
            let threshold = semantic_threshold(nearest.iter().map(|(_, sim)| *sim).fold(f64::MIN, f64::max));
            semantic = nearest.into_iter().filter(|(_, sim)| *sim >= threshold).collect();
            vector_report.candidates = semantic.len();
            if found == 0 {
                vector_report.note = Some(format!("no memory matching the filters has a {model} vector"));
            } else if semantic.len() < found {
                vector_report.note = Some(format!(
                    "{} of the {found} nearest memories were below the similarity threshold {threshold:.2} \
                     (the nearest one's similarity less {SEMANTIC_MARGIN}, at least {SEMANTIC_FLOOR})",
                    found - semantic.len()
                ));
            }
        }
        for (id, sim) in of_window? {
            if sim >= SEMANTIC_FLOOR {
                semantic.entry(id).or_insert(sim);
            }
        }
        let mut conn = self.deps.pool.acquire().await?;

        // Fetch the union, apply the filters once more (BM25 candidates were not filtered).
        let ids: Vec<MemoryId> =
            bm25.keys().chain(semantic.keys()).copied().collect::<BTreeSet<_>>().into_iter().collect();
        let scope = Scope {
            agent_id,
            statuses: &statuses,
            model: &model,
            query: query_vec.as_deref(),
            filters: f,
            window: window.as_ref(),
            replaced: false,
            reader: &reader,
        };
        let rows = scope.rows(&mut conn, &ids).await?;

        // Vector-only candidates still get their true BM25.
        let missing: Vec<MemoryId> = rows.iter().map(|(m, _)| m.id).filter(|id| !bm25.contains_key(id)).collect();
        if bm25_report.searched && !missing.is_empty() {
            for (id, s) in terms::bm25(&mut conn, agent_id, &query_terms, Some(&missing), missing.len() as i64).await? {
                bm25.insert(id, s);
            }
        }
        drop(conn);

        let best_bm25 = rows.iter().filter_map(|(m, _)| bm25.get(&m.id)).copied().fold(0.0, f64::max);
        let mut results: Vec<SearchResult> = rows
            .into_iter()
            .map(|(memory, sim)| {
                let raw = bm25.get(&memory.id).copied().unwrap_or(0.0);
                let mut found_by = Vec::new();
                if raw > 0.0 {
                    found_by.push("bm25".to_string());
                }
                if semantic.contains_key(&memory.id) {
                    found_by.push("vector".to_string());
                }
                scored(memory, sim, raw, best_bm25, now, window.as_ref(), found_by)
            })
            .collect();
        sort_results(&mut results);
        let activation_report = self.activate(&scope, &req.query, &mut results, best_bm25).await?;
        let (bridge_report, traversal_report) = if req.traversal {
            let bridge = self.bridge(&scope, &req.query, &mut results, best_bm25).await?;
            (bridge, self.traverse(&scope, &mut results, best_bm25).await?)
        } else {
            let off = || Some("not asked for (`traversal: false`)".to_string());
            (
                PathReport { searched: false, candidates: 0, note: off() },
                TraversalReport { searched: false, candidates: 0, note: off(), path: None },
            )
        };

        let history_report = if when::asks_about_the_past(&req.query) {
            self.history(&scope, &mut results, best_bm25).await?
        } else {
            PathReport { searched: false, candidates: 0, note: Some("the query does not ask about the past".into()) }
        };

        let mut rerank_note = None;
        let mut reranked = false;
        if req.rerank && !results.is_empty() {
            results.truncate((limit * 4) as usize);
            match self.rerank(&req.query, &results).await {
                Ok(scores) => {
                    for (r, llm) in results.iter_mut().zip(scores) {
                        r.signals.llm = Some(llm);
                        r.score = score::W_RERANK_HYBRID * r.signals.hybrid + score::W_RERANK_LLM * llm;
                    }
                    sort_results(&mut results);
                    reranked = true;
                }
                Err(e) => rerank_note = Some(format!("rerank failed, hybrid scores kept: {e}")),
            }
        }
        results.truncate(limit as usize);

        // The BM25 corpus is exactly the live memories: its size is kept, no count needed.
        let live_count = sqlx::query_scalar!(
            r#"SELECT docs::bigint AS "docs!" FROM memory_corpus_stats WHERE agent_id = $1"#,
            agent_id as _
        )
        .fetch_optional(&self.deps.pool)
        .await?
        .unwrap_or(0);
        let empty_reason = results.is_empty().then(|| {
            if live_count == 0 && statuses == live {
                "the agent has no memories yet".to_string()
            } else if ids.is_empty() {
                format!("nothing matched the query: no memory shares a word with it and none is above the similarity floor {SEMANTIC_FLOOR}")
            } else {
                format!("{} candidates matched the query, but none passed the filters", ids.len())
            }
        });
        // Retrieval tracking (the stale share of memory health, access counts, and the access
        // event of X11, also for an empty result): one statement, recorded before the answer (a
        // failure is logged, the search still answers).
        let found: Vec<(MemoryId, f64)> = results.iter().map(|r| (r.memory.id, r.score)).collect();
        let path = traversal_report.path.as_ref();
        if let Err(e) = super::record_search(&self.deps.pool, agent_id, &req.query, &found, path).await {
            tracing::warn!(error = %e, "could not record memory retrieval");
        }
        Ok(SearchResponse {
            results,
            explanation: Explanation {
                agent_id,
                query_terms,
                categories: f.category.clone(),
                sources: f.source.clone(),
                statuses,
                from: f.from,
                to: f.to,
                time_window: window.clone(),
                bm25: bm25_report,
                vector: vector_report,
                activation: activation_report,
                bridge: bridge_report,
                history: history_report,
                traversal: traversal_report,
                embedding_model: model,
                reranked,
                rerank_note,
                formula: if reranked {
                    format!("0.4*({}) + 0.6*llm", score::HYBRID_FORMULA)
                } else {
                    format!("max({}, traversal)", score::HYBRID_FORMULA)
                },
                live_memories: live_count,
                empty_reason,
            },
        })
    }

    /// Scores in [0, 1] from the `rerank` role, one per result, or why there are none.
    async fn rerank(&self, query: &str, results: &[SearchResult]) -> anyhow::Result<Vec<f64>> {
        let documents = results.iter().map(|r| r.memory.content.clone()).collect();
        let req = ChatRequest::from_input(Rerank { query: query.to_string(), documents });
        let reply = self.deps.llm.complete(&self.ctx, req).await?;
        let v: serde_json::Value = serde_json::from_str(reply.content.trim())
            .map_err(|e| anyhow::anyhow!("the rerank answer is not JSON ({e})"))?;
        let scores: Vec<f64> = v["scores"]
            .as_array()
            .ok_or_else(|| anyhow::anyhow!("the rerank answer has no `scores` list"))?
            .iter()
            .map(|s| s.as_f64().map(|x| x.clamp(0.0, 1.0)))
            .collect::<Option<_>>()
            .ok_or_else(|| anyhow::anyhow!("a rerank score is not a number"))?;
        if scores.len() != results.len() {
            anyhow::bail!("the rerank answer has {} scores for {} memories", scores.len(), results.len());
        }
        Ok(scores)
    }
}

pub(super) fn sort_results(results: &mut [SearchResult]) {
    results.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.memory.id.cmp(&b.memory.id)));
}
