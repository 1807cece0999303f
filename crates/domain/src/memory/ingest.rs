//! What owners and miniapps put into memory by hand (SPEC R1, R4): single memories, and
//! knowledge — text or a fetched web page — chunked, embedded and stored under a per-agent cap.
//! The API and the dashboard share these; extraction from chat has its own path (`remember`).

use chrono::{DateTime, Utc};
use miniclaw_core::ids::AgentId;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::knowledge::{self, CHUNK_CHARS};
use super::{Category, Memory, MemorySource, NewMemory};
use crate::runtime::Runtime;
use miniclaw_core::Error;

/// Longest knowledge text, in characters.
pub const KNOWLEDGE_TEXT_MAX: usize = 50_000;

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemoryInput {
    pub content: String,
    /// identity, goal, preference, interest, context, insight, knowledge, ... (lower case).
    pub category: String,
    /// 0–10, default 5.
    pub importance: Option<f32>,
    /// 0–1, default 0.8.
    pub confidence: Option<f32>,
    #[serde(default)]
    pub pinned: bool,
    pub expires_at: Option<DateTime<Utc>>,
    /// When it was said or happened (default now; at most a day ahead): an imported history
    /// keeps its dates, and time filters and "last week" in a query use them.
    pub occurred_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KnowledgeResult {
    pub knowledge_id: Uuid,
    pub title: Option<String>,
    pub source_url: Option<String>,
    pub chunks: Vec<Memory>,
    /// Knowledge entries the agent now has, and the cap.
    pub entries: i64,
    pub cap: i64,
}

/// Vectors for texts, or `None` when embedding fails: the memories are stored anyway (BM25
/// still finds them) and the failure is logged; nothing the user sent is lost.
pub async fn embed_all(state: &Runtime, texts: &[String]) -> Vec<Option<(Vec<f32>, String)>> {
    let embedder = state.embedder();
    match embedder.embed(texts).await {
        Ok(vs) => vs.into_iter().map(|v| Some((v, embedder.model().to_string()))).collect(),
        Err(e) => {
            tracing::warn!(error = %e, "embedding failed; memories stored without vectors");
            texts.iter().map(|_| None).collect()
        }
    }
}

pub fn new_memory(input: MemoryInput, source: MemorySource, embedding: Option<(Vec<f32>, String)>) -> NewMemory {
    NewMemory {
        confidence: input.confidence.unwrap_or(0.8),
        importance: input.importance.unwrap_or(5.0),
        pinned: input.pinned,
        expires_at: input.expires_at,
        occurred_at: input.occurred_at,
        embedding,
        ..NewMemory::new(input.content, input.category, source)
    }
}

/// Stores one knowledge entry as chunks (source `uploaded` or `url`, confidence 1.0, category
/// `knowledge`), refusing with 409 once the agent has its cap of entries.
async fn store_knowledge(
    state: &Runtime,
    agent_id: AgentId,
    origin: &miniclaw_platform::activity::Origin,
    text: &str,
    title: Option<String>,
    source: MemorySource,
    url: Option<String>,
) -> miniclaw_core::Result<KnowledgeResult> {
    let chunks = knowledge::chunk(text, CHUNK_CHARS);
    if chunks.is_empty() {
        return Err(Error::validation("text", "the text has nothing to store"));
    }
    let vectors = embed_all(state, &chunks).await;
    let cap = state.deps().knowledge_cap;
    let mut tx = state.pool().begin().await?;
    // Serialise knowledge writes per agent so two uploads cannot both pass the cap check.
    crate::tenancy::agents::lock(&mut tx, agent_id).await?;
    let entries = sqlx::query_scalar!(
        r#"SELECT count(DISTINCT knowledge_id) AS "entries!" FROM agent_memories
            WHERE agent_id = $1 AND knowledge_id IS NOT NULL"#,
        agent_id as _
    )
    .fetch_one(&mut *tx)
    .await?;
    if entries >= cap {
        return Err(Error::Conflict(format!(
            "the agent already has {entries} knowledge entries, its cap is {cap}; delete one first (operators: MINICLAW_KNOWLEDGE_CAP)"
        )));
    }
    super::check_room(&mut tx, agent_id, chunks.len(), state.deps().caps.memories_per_agent).await?;
    let knowledge_id = Uuid::now_v7();
    let mut stored = Vec::with_capacity(chunks.len());
    for (chunk, v) in chunks.into_iter().zip(vectors) {
        let new = NewMemory {
            title: title.clone(),
            confidence: 1.0,
            knowledge_id: Some(knowledge_id),
            source_url: url.clone(),
            embedding: v,
            ..NewMemory::new(chunk, Category::Knowledge.as_str(), source)
        };
        stored.push(super::create(&mut tx, agent_id, origin, new, Some("knowledge ingestion")).await?);
    }
    tx.commit().await?;
    Ok(KnowledgeResult { knowledge_id, title, source_url: url, chunks: stored, entries: entries + 1, cap })
}

/// Knowledge from text, validated (API and dashboard share it).
pub async fn add_text(
    state: &Runtime,
    agent_id: AgentId,
    origin: &miniclaw_platform::activity::Origin,
    text: &str,
    title: Option<String>,
) -> miniclaw_core::Result<KnowledgeResult> {
    if text.trim().is_empty() {
        return Err(Error::validation("text", "text must not be empty"));
    }
    Error::check_length("text", text, KNOWLEDGE_TEXT_MAX)?;
    if let Some(t) = &title {
        Error::check_length("title", t, 200)?;
    }
    store_knowledge(state, agent_id, origin, text, title, MemorySource::Uploaded, None).await
}

/// Knowledge from a web page, fetched safely (API and dashboard share it).
pub async fn add_url(
    state: &Runtime,
    agent_id: AgentId,
    origin: &miniclaw_platform::activity::Origin,
    url: &str,
) -> miniclaw_core::Result<KnowledgeResult> {
    Error::check_length("url", url, 2048)?;
    let page = knowledge::fetch(url, &state.deps().url_allowlist).await?;
    let title = page.title.clone().or_else(|| Some(page.url.clone()));
    store_knowledge(state, agent_id, origin, &page.text, title, MemorySource::Url, Some(page.url)).await
}
