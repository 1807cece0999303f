//! Selective context (SPEC P4): what triage asked for and nothing more. Small talk costs no
//! query at all; otherwise knowledge (vector top 40, 600 tokens), conversational memories
//! (vector top 12 + 4 recent, category filters in SQL, ranked, 500 tokens, at most 8) and
//! summaries (4 similar + 2 recent, at most 3). A fresh compiled dossier (C4) replaces the
//! per-query memory search. Where the agent has a traversal graph, learned traversal (X5) from
//! the nearest memories adds what it reaches (`chat::traversal`).

use miniclaw_core::ids::{AgentId, ConversationId, MemoryId};
use std::collections::HashSet;

use chrono::Utc;
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::triage::Triage;
use crate::memory::vector::{self, Filters};
use crate::memory::{self, Memory, Newest, Reader, score};
use miniclaw_platform::llm::usage::count_tokens;

pub const KNOWLEDGE_TOP: i64 = 40;
pub const KNOWLEDGE_RECENT: i64 = 10;
pub const KNOWLEDGE_TOKENS: u32 = 600;
pub const MEMORY_TOP: i64 = 12;
pub const MEMORY_RECENT: i64 = 4;
pub const MEMORY_TOKENS: u32 = 500;
pub const MEMORY_MAX: usize = 8;
pub const SUMMARY_SIMILAR: i64 = 4;
pub const SUMMARY_RECENT: i64 = 2;
pub const SUMMARY_MAX: usize = 3;
/// A large agent's vector searches for context walk its graph for at most this many index
/// tuples beyond the first beam (`Filters::scan_max`). Unfiltered they never get there; with a
/// category or source filter whose memories all lie far from the message, the search answers
/// from the candidates met so far instead of walking much of the agent's graph (in the replay at
/// 10,000 memories up to 13,700 buffer reads instead of about 600), and the category is still
/// represented by its recent memories.
pub const CONTEXT_SCAN_MAX: u32 = 1_000;

const KNOWLEDGE_SOURCES: [&str; 2] = memory::MemorySource::names(memory::MemorySource::KNOWLEDGE);

/// A memory put into the prompt, with why.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct UsedMemory {
    pub id: MemoryId,
    pub content: String,
    pub category: String,
    /// `certain` (pinned), `picked_up` (soft) or `knowledge`.
    pub section: String,
    /// `vector`, `recency` or `traversal` (reached by learned traversal, X5).
    pub found_by: String,
    /// Cosine similarity to the message (for `traversal`: the path score); `null` when found by
    /// recency (ranked as 0.5).
    pub relevance: Option<f64>,
    /// R2 importance in [0, 1].
    pub importance: f64,
    /// `relevance*0.5 + importance*0.3 + pinnedBoost + (1-isPinned)*0.2*relevance` (P4).
    pub rank: f64,
}

/// What was searched for the reply (R8).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct Searched {
    pub categories: Vec<String>,
    pub knowledge: bool,
    pub summaries: bool,
    /// The compiled dossier stood in for the memory search.
    pub dossier: bool,
    /// Database queries made for context (0 for small talk).
    pub memory_queries: u32,
    /// Why something that was asked for is missing, e.g. embedding failures.
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Context {
    pub certain: Vec<UsedMemory>,
    pub picked_up: Vec<UsedMemory>,
    pub knowledge: Vec<UsedMemory>,
    pub summaries: Vec<String>,
    pub dossier: Option<String>,
    pub searched: Searched,
    /// Tokens of everything above.
    pub tokens: u32,
    /// The speaker's mood with this message (X6), for the observation block and for the
    /// statement that finishes the turn.
    pub mood: Option<crate::cognition::affect::Mood>,
    /// The message's vector, when it was embedded: behavioural signals tell a topic switch by it.
    pub message_vector: Option<Vec<f32>>,
    /// The path of learned traversal (X5), when it ran.
    pub traversal: Option<crate::memory::graph::Trace>,
}

impl Context {
    /// Every memory in the prompt, pinned first.
    pub fn used(&self) -> Vec<UsedMemory> {
        self.certain.iter().chain(&self.picked_up).chain(&self.knowledge).cloned().collect()
    }
}

/// Whether triage asked for any context at all.
pub fn wants_context(t: &Triage) -> bool {
    !t.relevant_categories.is_empty() || t.include_knowledge || t.include_summaries
}

/// What the agent has to offer beside its memories, read by one probe: a dossier compiled after
/// its last memory change, whether it has a knowledge base, whether it has summaries. Most
/// agents have neither knowledge nor summaries; the probe saves the searches that would find
/// nothing.
/// It also reads how a vector search of the agent is planned for the message's model.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Available {
    pub dossier: Option<String>,
    pub knowledge: bool,
    pub summaries: bool,
    /// The agent has a traversal graph (X5).
    pub graph: bool,
    pub vector_exact: Option<bool>,
    pub vector_own: Option<bool>,
}

impl Available {
    fn plan(&self) -> Option<vector::Plan> {
        Some(vector::Plan { exact: self.vector_exact?, own: self.vector_own? })
    }
}

// The statements built at run time: the probe is shared with the statement that prepares a turn
// (`generate`), and the summary search embeds the vector's dimension (`vector(<dims>)`).

/// The probe as select items over agent `agent` and embedding model `model` (SQL expressions),
/// evaluated only when `when` is true (the subqueries then run not at all), else
/// `NULL, false, false, NULL, NULL`.
pub fn available_sql(agent: &str, when: &str, model: &str) -> String {
    let plan = vector::plan_sql(agent, model);
    let dossier = crate::cognition::dossier::fresh_sql(agent);
    let knowledge = crate::memory::sql::has_knowledge(agent);
    let graph = crate::memory::sql::has_graph(agent);
    format!(
        "CASE WHEN {when} THEN (SELECT exact FROM (SELECT {plan}) p) END AS vector_exact,
         CASE WHEN {when} THEN (SELECT own FROM (SELECT {plan}) p) END AS vector_own,
         CASE WHEN {when} THEN {dossier} END AS dossier,
         coalesce(CASE WHEN {when} THEN {knowledge} END, false) AS knowledge,
         coalesce(CASE WHEN {when} THEN EXISTS (SELECT 1 FROM conversation_summaries WHERE agent_id = {agent}) END, false)
           AS summaries,
         coalesce(CASE WHEN {when} THEN {graph} END, false) AS graph"
    )
}

/// The condition that keeps summaries (of agent `$1`) to conversations of the same end user as
/// conversation `conversation` (the same `end_user`; the owner's own chats only for the owner's
/// own): the agent's memories are shared by all its users, what was said in a conversation is
/// not.
fn same_audience(conversation: &str) -> String {
    format!(
        "conversation_id IN (
           SELECT o.id FROM conversations o JOIN conversations cur ON cur.agent_id = o.agent_id AND cur.id = {conversation}
            WHERE o.agent_id = $1 AND o.deleted_at IS NULL AND o.owner_private = cur.owner_private
              AND o.end_user IS NOT DISTINCT FROM cur.end_user)"
    )
}

/// The summaries most similar to the message's vector ($1 agent, $2 model, $3 vector, $4 how
/// many), then the newest ($5 how many), of conversations of the same audience as $6.
fn summaries_sql(dims: usize) -> String {
    let audience = same_audience("$6");
    format!(
        "(SELECT id, content FROM conversation_summaries
           WHERE agent_id = $1 AND embedding_model = $2 AND vector_dims(embedding) = {dims} AND {audience}
           ORDER BY embedding::vector({dims}) <=> $3::vector({dims}) LIMIT $4)
         UNION ALL
         (SELECT id, content FROM conversation_summaries WHERE agent_id = $1 AND {audience}
           ORDER BY created_at DESC LIMIT $5)"
    )
}

struct Loader<'a> {
    pool: &'a PgPool,
    agent_id: AgentId,
    /// Whose memories the turn may bring in (SPEC H1).
    reader: &'a Reader,
    /// The conversation of the turn (summaries stay within its audience).
    conversation_id: ConversationId,
    /// How its vector searches are planned, when the probe read it.
    plan: Option<vector::Plan>,
    /// The message's vector and model, when embedding worked.
    query: Option<(&'a [f32], &'a str)>,
    queries: u32,
}

/// The filters of a context search: its sources and categories, active memories only (the
/// default), and a large agent's graph walk bounded (`CONTEXT_SCAN_MAX`).
fn search_filters(sources: &[&str], categories: &[String], reader: &Reader) -> Filters {
    Filters {
        categories: categories.to_vec(),
        sources: sources.iter().map(|s| s.to_string()).collect(),
        scan_max: Some(CONTEXT_SCAN_MAX),
        reader: reader.clone(),
        ..Filters::default()
    }
}

impl Loader<'_> {
    /// The `k` memories nearest to the message, with their similarity.
    async fn nearest(&mut self, sources: &[&str], categories: &[String], k: i64) -> sqlx::Result<Vec<(Memory, f64)>> {
        let Some((v, model)) = self.query else { return Ok(Vec::new()) };
        let mut conn = self.pool.acquire().await?;
        self.queries += 1;
        let f = search_filters(sources, categories, self.reader);
        let found = vector::nearest_memories(&mut conn, self.agent_id, model, v, k, &f, self.plan).await?;
        Ok(found.into_iter().map(|s| (s.memory, s.similarity)).collect())
    }

    async fn recent(&mut self, sources: &[&str], categories: &[String], k: i64) -> sqlx::Result<Vec<Memory>> {
        self.queries += 1;
        let mut conn = self.pool.acquire().await?;
        let f = Newest { sources, categories, except_categories: &[], reader: Some(self.reader) };
        memory::newest(&mut conn, self.agent_id, f, k).await
    }
}

/// Ranks candidates (P4) and keeps the best within `max` memories and `budget` tokens.
fn select(candidates: Vec<(Memory, Option<f64>, &'static str)>, max: usize, budget: u32) -> (Vec<UsedMemory>, u32) {
    let now = Utc::now();
    let mut ranked: Vec<(UsedMemory, bool)> = candidates
        .into_iter()
        .map(|(m, relevance, found_by)| {
            let importance = m.importance_score(now);
            let pinned = m.pinned || score::pinned_category(&m.category);
            let rank = score::context_rank(relevance, importance, &m.category) + if m.pinned { 0.3 } else { 0.0 };
            let used = UsedMemory {
                id: m.id,
                section: if pinned { "certain" } else { "picked_up" }.into(),
                content: m.content,
                category: m.category,
                found_by: found_by.into(),
                relevance,
                importance,
                rank,
            };
            (used, pinned)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.rank.total_cmp(&a.0.rank));
    let (mut kept, mut tokens) = (Vec::new(), 0u32);
    for (m, _) in ranked {
        if kept.len() >= max {
            break;
        }
        let t = count_tokens(&m.content) + 2;
        if tokens + t > budget {
            continue;
        }
        tokens += t;
        kept.push(m);
    }
    (kept, tokens)
}

/// The conversational memories (or the fresh dossier) for the triage's categories.
async fn memories(
    l: &mut Loader<'_>,
    categories: &[String],
    dossier: Option<String>,
) -> sqlx::Result<(Option<String>, Vec<UsedMemory>, Vec<UsedMemory>, u32)> {
    // A dossier compiled after the last memory change stands in for the search (C4). It holds
    // the agent's own knowledge only, so a turn for an end user searches (their memories too).
    if let Some(content) = dossier.filter(|_| !matches!(l.reader, Reader::EndUser(_))) {
        let tokens = count_tokens(&content);
        return Ok((Some(content), Vec::new(), Vec::new(), tokens));
    }
    let similar = l.nearest(&memory::LEARNED_SOURCES, categories, MEMORY_TOP).await?;
    let recent = l.recent(&memory::LEARNED_SOURCES, categories, MEMORY_RECENT).await?;
    let seen: HashSet<MemoryId> = similar.iter().map(|(m, _)| m.id).collect();
    let mut candidates: Vec<(Memory, Option<f64>, &'static str)> =
        similar.into_iter().map(|(m, sim)| (m, Some(sim), "vector")).collect();
    candidates.extend(recent.into_iter().filter(|m| !seen.contains(&m.id)).map(|m| (m, None, "recency")));
    let (kept, tokens) = select(candidates, MEMORY_MAX, MEMORY_TOKENS);
    let (certain, soft): (Vec<_>, Vec<_>) = kept.into_iter().partition(|m| m.section == "certain");
    Ok((None, certain, soft, tokens))
}

/// Knowledge chunks by similarity (or the most recent without a vector), within 600 tokens.
async fn knowledge(l: &mut Loader<'_>) -> sqlx::Result<(Vec<UsedMemory>, u32)> {
    let similar = l.nearest(&KNOWLEDGE_SOURCES, &[], KNOWLEDGE_TOP).await?;
    let candidates: Vec<(Memory, Option<f64>, &'static str)> = if similar.is_empty() {
        l.recent(&KNOWLEDGE_SOURCES, &[], KNOWLEDGE_RECENT).await?.into_iter().map(|m| (m, None, "recency")).collect()
    } else {
        similar.into_iter().map(|(m, sim)| (m, Some(sim), "vector")).collect()
    };
    // Knowledge keeps its similarity order; only the budget applies.
    let (mut out, mut tokens) = (Vec::new(), 0);
    for (m, relevance, found_by) in candidates {
        let t = count_tokens(&m.content) + 2;
        if tokens + t > KNOWLEDGE_TOKENS {
            continue;
        }
        tokens += t;
        let importance = m.importance_score(Utc::now());
        out.push(UsedMemory {
            id: m.id,
            section: "knowledge".into(),
            rank: score::context_rank(relevance, importance, &m.category),
            content: m.content,
            category: m.category,
            found_by: found_by.into(),
            relevance,
            importance,
        });
    }
    Ok((out, tokens))
}

/// Up to 3 summaries: 4 similar and 2 recent, similar first.
async fn summaries(l: &mut Loader<'_>) -> sqlx::Result<(Vec<String>, u32)> {
    l.queries += 1;
    let rows: Vec<(Uuid, String)> = match l.query {
        Some((v, model)) => {
            sqlx::query_as(&summaries_sql(v.len()))
                .bind(l.agent_id)
                .bind(model)
                .bind(vector::param(v))
                .bind(SUMMARY_SIMILAR)
                .bind(SUMMARY_RECENT)
                .bind(l.conversation_id)
                .fetch_all(l.pool)
                .await?
        }
        None => {
            let sql = format!(
                "SELECT id, content FROM conversation_summaries WHERE agent_id = $1 AND {}
                  ORDER BY created_at DESC LIMIT $2",
                same_audience("$3")
            );
            sqlx::query_as(&sql).bind(l.agent_id).bind(SUMMARY_RECENT).bind(l.conversation_id).fetch_all(l.pool).await?
        }
    };
    let (mut seen, mut out, mut tokens) = (HashSet::new(), Vec::new(), 0);
    for (id, content) in rows {
        if out.len() < SUMMARY_MAX && seen.insert(id) {
            tokens += count_tokens(&content);
            out.push(content);
        }
    }
    Ok((out, tokens))
}

/// Loads the context triage asked for. `query` is the message's embedding (and its model);
/// `available` the probe if the caller made it (else it is made here). The three paths
/// (memories, knowledge, summaries) then run at once, each on its own connection, and only
/// where the agent has something to find.
pub async fn load(
    pool: &PgPool,
    agent_id: AgentId,
    reader: &Reader,
    conversation_id: ConversationId,
    triage: &Triage,
    query: Option<(&[f32], &str)>,
    available: Option<Available>,
) -> sqlx::Result<Context> {
    let mut ctx = Context {
        searched: Searched {
            categories: triage.relevant_categories.clone(),
            knowledge: triage.include_knowledge,
            summaries: triage.include_summaries,
            ..Searched::default()
        },
        ..Context::default()
    };
    if !wants_context(triage) {
        return Ok(ctx);
    }
    if query.is_none() {
        ctx.searched.notes.push("the message could not be embedded: memories found by recency only".into());
    }
    // The probe is one query, whether the caller made it along with its own read or it is made here.
    let available = match available {
        Some(a) => a,
        None => {
            let model = query.map(|(_, m)| m).unwrap_or_default();
            let sql = format!("SELECT {}", available_sql("$1", "true", "$2"));
            sqlx::query_as(&sql).bind(agent_id).bind(model).fetch_one(pool).await?
        }
    };
    let plan = available.plan();
    let loader = || Loader { pool, agent_id, reader, conversation_id, plan, query, queries: 0 };
    let (mut lm, mut lk, mut ls) = (loader(), loader(), loader());
    let categories = &triage.relevant_categories;
    let Available { dossier, knowledge: has_knowledge, summaries: has_summaries, graph, .. } = available;
    let (m, k, s) = tokio::join!(
        async { if categories.is_empty() { Ok(None) } else { memories(&mut lm, categories, dossier).await.map(Some) } },
        async { if triage.include_knowledge && has_knowledge { knowledge(&mut lk).await.map(Some) } else { Ok(None) } },
        async { if triage.include_summaries && has_summaries { summaries(&mut ls).await.map(Some) } else { Ok(None) } },
    );
    if let Some((dossier, certain, soft, tokens)) = m? {
        ctx.searched.dossier = dossier.is_some();
        ctx.dossier = dossier;
        ctx.certain = certain;
        ctx.picked_up = soft;
        ctx.tokens += tokens;
    }
    if let Some((knowledge, tokens)) = k? {
        ctx.knowledge = knowledge;
        ctx.tokens += tokens;
    }
    if let Some((summaries, tokens)) = s? {
        ctx.summaries = summaries;
        ctx.tokens += tokens;
    }
    ctx.searched.memory_queries = 1 + lm.queries + lk.queries + ls.queries;
    if graph {
        super::traversal::extend(pool, agent_id, reader, &mut ctx).await?;
    }
    Ok(ctx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_searches_are_bounded_and_filtered() {
        let f = search_filters(&memory::LEARNED_SOURCES, &["identity".to_string()], &Reader::All);
        assert_eq!(f.scan_max, Some(CONTEXT_SCAN_MAX));
        assert_eq!(f.categories, ["identity"]);
        assert_eq!(f.sources.len(), memory::LEARNED_SOURCES.len());
        let k = search_filters(&KNOWLEDGE_SOURCES, &[], &Reader::All);
        assert_eq!(
            (k.sources.as_slice(), k.scan_max),
            (["uploaded".to_string(), "url".to_string()].as_slice(), Some(1_000))
        );
        assert!(k.statuses.is_empty() && k.categories.is_empty(), "active memories of any category");
    }
}
