//! Agent memory (SPEC §5): the store with its history (R1, R7), BM25 postings (`terms`),
//! vectors (`vector`), hybrid search (`search`), write-side hygiene (`hygiene`), knowledge
//! ingestion (`knowledge`) and the scoring functions (`score`). Every write goes through the
//! functions here, inside the caller's transaction, so the postings, the version history and
//! the activity log always agree with the row.

pub mod hygiene;
pub mod ingest;
pub mod knowledge;
pub mod reembed;
pub mod score;
pub mod search;
pub mod terms;
pub mod vector;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::activity::Origin;
use crate::error::ApiError;

pub const MAX_CONTENT_CHARS: usize = 5000;
pub const SOURCES: [&str; 8] = ["conversation", "derived", "uploaded", "url", "reflection", "fusion", "owner", "api"];
/// Every source but the uploaded knowledge base: what the agent learned.
pub const LEARNED_SOURCES: [&str; 6] = ["conversation", "derived", "owner", "api", "reflection", "fusion"];
pub const STATUSES: [&str; 4] = ["active", "dormant", "archived", "deprecated"];

/// One memory as the API shows it (the vector itself stays in the database).
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Memory {
    pub id: Uuid,
    pub agent_id: Uuid,
    pub content: String,
    pub title: Option<String>,
    /// identity, goal, preference, interest, context, insight, knowledge, ...
    pub category: String,
    /// conversation, derived, uploaded, url, reflection, fusion, owner, api
    pub source: String,
    pub confidence: f32,
    /// 0–10, default 5.
    pub importance: f32,
    pub mention_count: i32,
    pub last_mentioned_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    /// active, dormant, archived, deprecated
    pub status: String,
    pub pinned: bool,
    /// Set when a newer fact contradicted this one; such memories stay in history only.
    pub invalid_at: Option<DateTime<Utc>>,
    /// The model of the stored vector; `null` while the memory waits to be embedded.
    pub embedding_model: Option<String>,
    pub knowledge_id: Option<Uuid>,
    pub source_url: Option<String>,
    pub last_retrieved_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

pub(crate) const COLUMNS: &str =
    "id, agent_id, content, title, category, source, confidence, importance, mention_count,
    last_mentioned_at, expires_at, status, pinned, invalid_at, embedding_model, knowledge_id, source_url,
    last_retrieved_at, created_at, updated_at";

impl Memory {
    /// Composite importance in [0, 1] (R2), counting age from the last touch.
    pub fn importance_score(&self, now: DateTime<Utc>) -> f64 {
        let touched = self.last_mentioned_at.unwrap_or(self.updated_at).max(self.updated_at);
        let days = (now - touched).num_seconds() as f64 / 86_400.0;
        score::importance(self.confidence as f64, self.mention_count as i64, days, self.importance as f64)
    }

    /// Whether search and chat may use it.
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        self.status == "active" && self.invalid_at.is_none() && self.expires_at.is_none_or(|e| e > now)
    }
}

/// What a new memory is made of. `embedding` is `(vector, model)`; `None` leaves the memory to
/// the embedding job.
#[derive(Debug, Clone)]
pub struct NewMemory {
    pub content: String,
    pub category: String,
    pub source: String,
    pub title: Option<String>,
    pub confidence: f32,
    pub importance: f32,
    pub pinned: bool,
    pub expires_at: Option<DateTime<Utc>>,
    pub knowledge_id: Option<Uuid>,
    pub source_url: Option<String>,
    pub embedding: Option<(Vec<f32>, String)>,
}

impl NewMemory {
    pub fn new(content: impl Into<String>, category: impl Into<String>, source: impl Into<String>) -> Self {
        NewMemory {
            content: content.into(),
            category: category.into(),
            source: source.into(),
            title: None,
            confidence: 0.8,
            importance: 5.0,
            pinned: false,
            expires_at: None,
            knowledge_id: None,
            source_url: None,
            embedding: None,
        }
    }
}

/// Changes to a memory; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct MemoryPatch {
    pub content: Option<String>,
    pub category: Option<String>,
    pub confidence: Option<f32>,
    pub importance: Option<f32>,
    pub pinned: Option<bool>,
    pub status: Option<String>,
    /// `Some(None)` clears the expiry.
    pub expires_at: Option<Option<DateTime<Utc>>>,
    /// The new content's vector, when the content changes.
    pub embedding: Option<(Vec<f32>, String)>,
}

/// Content as compared for duplicates and tombstones: lower case, words only, single spaces.
pub fn normalize(content: &str) -> String {
    content
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn content_hash(content: &str) -> String {
    hex::encode(Sha256::digest(normalize(content).as_bytes()))
}

/// Checks the fields every write path shares; the error names the field.
pub fn validate(
    content: Option<&str>,
    category: Option<&str>,
    confidence: Option<f32>,
    importance: Option<f32>,
) -> Result<(), ApiError> {
    if let Some(c) = content {
        if c.trim().is_empty() {
            return Err(ApiError::validation("content", "content must not be empty"));
        }
        if c.chars().count() > MAX_CONTENT_CHARS {
            return Err(ApiError::validation(
                "content",
                format!("content is limited to {MAX_CONTENT_CHARS} characters"),
            ));
        }
    }
    if let Some(c) = category {
        let ok = (2..=32).contains(&c.len())
            && c.starts_with(|ch: char| ch.is_ascii_lowercase())
            && c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_');
        if !ok {
            return Err(ApiError::validation(
                "category",
                "category must be 2–32 lower-case letters or underscores, e.g. identity, goal, preference, interest, context, insight, knowledge",
            ));
        }
    }
    if let Some(c) = confidence
        && !(0.0..=1.0).contains(&c)
    {
        return Err(ApiError::validation("confidence", "confidence must be between 0 and 1"));
    }
    if let Some(i) = importance
        && !(0.0..=10.0).contains(&i)
    {
        return Err(ApiError::validation("importance", "importance must be between 0 and 10"));
    }
    Ok(())
}

/// Inserts a memory with its postings and its first version.
pub async fn create(
    conn: &mut PgConnection,
    agent_id: Uuid,
    origin: &Origin,
    new: NewMemory,
    reason: Option<&str>,
) -> Result<Memory, ApiError> {
    validate(Some(&new.content), Some(&new.category), Some(new.confidence), Some(new.importance))?;
    if !SOURCES.contains(&new.source.as_str()) {
        return Err(ApiError::validation("source", format!("source must be one of {}", SOURCES.join(", "))));
    }
    let (vector, model) = match new.embedding {
        Some((v, m)) => (Some(vector::literal(&v)), Some(m)),
        None => (None, None),
    };
    let memory: Memory = sqlx::query_as(&format!(
        "INSERT INTO agent_memories (id, agent_id, content, title, category, source, confidence, importance, pinned,
            expires_at, knowledge_id, source_url, content_hash, embedding, embedding_model)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::vector, $15)
         RETURNING {COLUMNS}"
    ))
    .bind(Uuid::now_v7())
    .bind(agent_id)
    .bind(new.content.trim())
    .bind(&new.title)
    .bind(&new.category)
    .bind(&new.source)
    .bind(new.confidence)
    .bind(new.importance)
    .bind(new.pinned)
    .bind(new.expires_at)
    .bind(new.knowledge_id)
    .bind(&new.source_url)
    .bind(content_hash(&new.content))
    .bind(vector)
    .bind(model)
    .fetch_one(&mut *conn)
    .await?;
    terms::sync(conn, &memory).await?;
    record_version(conn, &memory, "create", origin, reason).await?;
    Ok(memory)
}

pub async fn get(pool: &PgPool, agent_id: Uuid, id: Uuid) -> Result<Memory, ApiError> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agent_memories WHERE agent_id = $1 AND id = $2"))
        .bind(agent_id)
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| ApiError::not_found("memory"))
}

async fn get_for_update(conn: &mut PgConnection, agent_id: Uuid, id: Uuid) -> Result<Memory, ApiError> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agent_memories WHERE agent_id = $1 AND id = $2 FOR UPDATE"))
        .bind(agent_id)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| ApiError::not_found("memory"))
}

/// List filters (R1, §15).
#[derive(Debug, Clone, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct ListFilter {
    pub category: Option<String>,
    pub source: Option<String>,
    pub status: Option<String>,
    /// Memories created before this id (the `next` of the previous page).
    pub before: Option<Uuid>,
    /// 1–200, default 50.
    pub limit: Option<i64>,
}

/// Newest first, filtered, paginated by id.
pub async fn list(pool: &PgPool, agent_id: Uuid, f: &ListFilter) -> Result<Vec<Memory>, ApiError> {
    let limit = f.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::validation("limit", "limit must be between 1 and 200"));
    }
    if let Some(s) = &f.status
        && !STATUSES.contains(&s.as_str())
    {
        return Err(ApiError::validation("status", format!("status must be one of {}", STATUSES.join(", "))));
    }
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM agent_memories
          WHERE agent_id = $1 AND ($2::text IS NULL OR category = $2) AND ($3::text IS NULL OR source = $3)
            AND ($4::text IS NULL OR status = $4) AND ($5::uuid IS NULL OR id < $5)
          ORDER BY id DESC LIMIT $6"
    ))
    .bind(agent_id)
    .bind(&f.category)
    .bind(&f.source)
    .bind(&f.status)
    .bind(f.before)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// Which live memories `newest` reads.
#[derive(Debug, Clone, Copy, Default)]
pub struct Newest<'a> {
    /// Only these sources (empty: any).
    pub sources: &'a [&'a str],
    /// Only these categories (empty: any).
    pub categories: &'a [String],
    /// Not these categories.
    pub except_categories: &'a [&'a str],
}

/// The agent's `k` newest live memories (active, valid, unexpired) that pass the filter, newest
/// first. The plan is pinned to the `(agent_id, created_at)` index, which yields rows in order
/// and stops after `k` matches: with skewed or stale statistics (a large agent among small ones,
/// or one that has just imported its memories) the planner otherwise reads and sorts all of
/// the agent's rows (42 ms instead of 0.1 for 10,000 memories). The query lives in the function
/// `agent_memories_newest`, which carries the plan settings and keeps a generic plan per
/// connection (planning each call cost five times its execution): one round trip, also inside
/// the caller's transaction.
pub async fn newest(conn: &mut PgConnection, agent_id: Uuid, f: Newest<'_>, k: i64) -> sqlx::Result<Vec<Memory>> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agent_memories_newest($1, $2, $3, $4, $5::int)"))
        .bind(agent_id)
        .bind(f.sources)
        .bind(f.categories)
        .bind(f.except_categories)
        .bind(k)
        .fetch_all(&mut *conn)
        .await
}

/// Applies a patch, keeps the postings in step, and records the version. An owner's change of
/// content is a correction: the old wording gets a tombstone so extraction does not restore it.
pub async fn update(
    conn: &mut PgConnection,
    agent_id: Uuid,
    id: Uuid,
    origin: &Origin,
    patch: MemoryPatch,
    reason: Option<&str>,
) -> Result<Memory, ApiError> {
    validate(patch.content.as_deref(), patch.category.as_deref(), patch.confidence, patch.importance)?;
    if let Some(s) = &patch.status
        && !STATUSES.contains(&s.as_str())
    {
        return Err(ApiError::validation("status", format!("status must be one of {}", STATUSES.join(", "))));
    }
    let before = get_for_update(conn, agent_id, id).await?;
    let content_changed = patch.content.as_deref().is_some_and(|c| c.trim() != before.content);
    if content_changed && matches!(origin.actor, crate::auth::Actor::Owner(_)) {
        hygiene::tombstone(conn, &before, "corrected").await?;
    }
    let (vector, model) = match (&patch.embedding, content_changed) {
        (Some((v, m)), true) => (Some(vector::literal(v)), Some(m.clone())),
        _ => (None, None),
    };
    let after: Memory = sqlx::query_as(&format!(
        "UPDATE agent_memories SET
            content = coalesce($3, content),
            content_hash = coalesce($4, content_hash),
            category = coalesce($5, category),
            confidence = coalesce($6, confidence),
            importance = coalesce($7, importance),
            pinned = coalesce($8, pinned),
            status = coalesce($9, status),
            expires_at = CASE WHEN $10 THEN $11 ELSE expires_at END,
            embedding = CASE WHEN $12 THEN $13::vector ELSE embedding END,
            embedding_model = CASE WHEN $12 THEN $14 ELSE embedding_model END,
            updated_at = now()
          WHERE agent_id = $1 AND id = $2
          RETURNING {COLUMNS}"
    ))
    .bind(agent_id)
    .bind(id)
    .bind(patch.content.as_deref().map(str::trim))
    .bind(patch.content.as_deref().map(content_hash))
    .bind(&patch.category)
    .bind(patch.confidence)
    .bind(patch.importance)
    .bind(patch.pinned)
    .bind(&patch.status)
    .bind(patch.expires_at.is_some())
    .bind(patch.expires_at.flatten())
    .bind(content_changed)
    .bind(vector)
    .bind(model)
    .fetch_one(&mut *conn)
    .await?;
    terms::sync(conn, &after).await?;
    let change = if content_changed || before.category != after.category {
        "update"
    } else if before.pinned != after.pinned {
        "pin"
    } else if before.status != after.status {
        if after.status == "deprecated" { "deprecate" } else { "status" }
    } else {
        "update"
    };
    record_version(conn, &after, change, origin, reason).await?;
    Ok(after)
}

/// Marks a memory as contradicted by a newer one (R7): out of search, kept in history.
pub async fn invalidate(
    conn: &mut PgConnection,
    agent_id: Uuid,
    id: Uuid,
    origin: &Origin,
    reason: &str,
) -> Result<Memory, ApiError> {
    get_for_update(conn, agent_id, id).await?;
    let after: Memory = sqlx::query_as(&format!(
        "UPDATE agent_memories SET invalid_at = now(), updated_at = now() WHERE agent_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(agent_id)
    .bind(id)
    .fetch_one(&mut *conn)
    .await?;
    terms::sync(conn, &after).await?;
    record_version(conn, &after, "invalidate", origin, Some(reason)).await?;
    Ok(after)
}

/// Deletes a memory. Its history stays; an owner's delete leaves a tombstone (R6b).
pub async fn delete(
    conn: &mut PgConnection,
    agent_id: Uuid,
    id: Uuid,
    origin: &Origin,
    reason: Option<&str>,
) -> Result<Memory, ApiError> {
    let before = get_for_update(conn, agent_id, id).await?;
    if matches!(origin.actor, crate::auth::Actor::Owner(_) | crate::auth::Actor::ApiKey(_)) {
        hygiene::tombstone(conn, &before, "deleted").await?;
    }
    record_version(conn, &before, "delete", origin, reason).await?;
    terms::remove(conn, &before).await?;
    sqlx::query("DELETE FROM agent_memories WHERE id = $1").bind(id).execute(&mut *conn).await?;
    forget(conn, &[agent_id]).await?;
    Ok(before)
}

/// One version of a memory (R7).
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct MemoryVersion {
    pub version: i32,
    /// create, update, merge, deprecate, invalidate, status, pin, delete, mention
    pub change: String,
    /// The memory's fields after the change (before it, for `delete`).
    #[schema(value_type = Object)]
    pub snapshot: serde_json::Value,
    pub actor_type: String,
    pub actor_id: Option<String>,
    pub reason: Option<String>,
    pub request_id: Option<String>,
    pub created_at: DateTime<Utc>,
}

pub async fn record_version(
    conn: &mut PgConnection,
    memory: &Memory,
    change: &str,
    origin: &Origin,
    reason: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO memory_versions (id, memory_id, agent_id, version, change, snapshot, actor_type, actor_id, reason, request_id)
         VALUES ($1, $2, $3,
                 (SELECT coalesce(max(version), 0) + 1 FROM memory_versions WHERE memory_id = $2),
                 $4, $5, $6, $7, $8, $9)",
    )
    .bind(Uuid::now_v7())
    .bind(memory.id)
    .bind(memory.agent_id)
    .bind(change)
    .bind(serde_json::to_value(memory).expect("a memory serialises"))
    .bind(origin.actor.kind())
    .bind(origin.actor.id())
    .bind(reason)
    .bind(&origin.request_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Every version of a memory, oldest first; 404 when the agent never had it.
pub async fn history(pool: &PgPool, agent_id: Uuid, id: Uuid) -> Result<Vec<MemoryVersion>, ApiError> {
    let versions: Vec<MemoryVersion> = sqlx::query_as(
        "SELECT version, change, snapshot, actor_type, actor_id, reason, request_id, created_at
           FROM memory_versions WHERE agent_id = $1 AND memory_id = $2 ORDER BY version",
    )
    .bind(agent_id)
    .bind(id)
    .fetch_all(pool)
    .await?;
    if versions.is_empty() {
        return Err(ApiError::not_found("memory"));
    }
    Ok(versions)
}

/// A fact extraction wants to store.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub memory: NewMemory,
    /// When the user stated the fact (the source message's time); tombstones laid before it
    /// no longer hold it back, because the user said it again after the deletion (R6b).
    /// `None` (derived or imported facts): every tombstone holds.
    pub stated_at: Option<DateTime<Utc>>,
}

/// What became of a candidate.
#[derive(Debug, Clone)]
pub enum Remembered {
    Created(Memory),
    /// The fact was already known (same text, or cosine ≥ 0.92 with the same model): its
    /// mention count went up instead.
    Reinforced(Memory),
    /// Not stored: `recall_loop` or `tombstone`.
    Suppressed(&'static str),
}

/// The write path of extraction: the recall-loop guard against the memories injected into the
/// turn, tombstones, then exact and near duplicates, and only then a new memory. Suppressions
/// are counted for the store-health report.
pub async fn remember(
    conn: &mut PgConnection,
    agent_id: Uuid,
    origin: &Origin,
    candidate: Candidate,
    injected: &[hygiene::Injected<'_>],
) -> Result<Remembered, ApiError> {
    let new = candidate.memory;
    let vector = new.embedding.as_ref().map(|(v, m)| (v.as_slice(), m.as_str()));
    if hygiene::restates(&new.content, vector.map(|(v, _)| v), injected).is_some() {
        hygiene::event(conn, agent_id, "recall_loop", &new.content).await?;
        return Ok(Remembered::Suppressed("recall_loop"));
    }
    if hygiene::tombstoned(conn, agent_id, &new.content, vector, candidate.stated_at).await? {
        return Ok(Remembered::Suppressed("tombstone"));
    }
    // The same text (hash index), else the nearest vector if it is close enough: a nearest-
    // neighbour search, not a distance computed for every memory of the agent.
    let mut same: Option<Uuid> = sqlx::query_scalar(
        "SELECT id FROM agent_memories WHERE agent_id = $1 AND content_hash = $2 AND status = 'active' AND invalid_at IS NULL
          LIMIT 1",
    )
    .bind(agent_id)
    .bind(content_hash(&new.content))
    .fetch_optional(&mut *conn)
    .await?;
    if same.is_none()
        && let Some((v, model)) = vector
    {
        let nearest = vector::nearest(conn, agent_id, model, v, 1, &vector::Filters::default()).await?;
        same = nearest.first().filter(|(_, sim)| *sim >= f64::from(hygiene::SAME_FACT_COSINE)).map(|(id, _)| *id);
    }
    if let Some(id) = same {
        let m: Memory = sqlx::query_as(&format!(
            "UPDATE agent_memories SET mention_count = mention_count + 1, last_mentioned_at = now(), updated_at = now()
              WHERE id = $1 RETURNING {COLUMNS}"
        ))
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
        record_version(conn, &m, "mention", origin, Some("the same fact was extracted again")).await?;
        return Ok(Remembered::Reinforced(m));
    }
    Ok(Remembered::Created(create(conn, agent_id, origin, new, Some("extracted")).await?))
}

/// The job that agents' lost memories publish (deletion, expiry), debounced per agent:
/// whatever was compiled from memories (the dossier) subscribes to it and rebuilds.
pub const FORGOTTEN_JOB: &str = "memory_forgotten";
/// The job waits this long after the last deletion, and at most `FORGOTTEN_MAX_WAIT_SECS`.
pub const FORGOTTEN_DEBOUNCE_SECS: i64 = 60;
pub const FORGOTTEN_MAX_WAIT_SECS: i64 = 300;

/// A deleted memory must not live on in text compiled from it: the time it was forgotten is
/// kept with the agent's corpus statistics (readers of compiled text compare against it), and
/// the `memory_forgotten` job is queued for the agent.
async fn forget(conn: &mut PgConnection, agents: &[Uuid]) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO memory_corpus_stats AS s (agent_id, forgotten_at) SELECT unnest($1::uuid[]), now()
         ON CONFLICT (agent_id) DO UPDATE SET forgotten_at = excluded.forgotten_at",
    )
    .bind(agents)
    .execute(&mut *conn)
    .await?;
    for agent in agents {
        crate::jobs::queue::enqueue_debounced(
            conn,
            FORGOTTEN_JOB,
            *agent,
            FORGOTTEN_DEBOUNCE_SECS,
            FORGOTTEN_MAX_WAIT_SECS,
        )
        .await?;
    }
    Ok(())
}

/// Records that memories were retrieved by a search or mentioned in a chat turn (`kind`:
/// `retrieval` or `mention`). Folded into the memories by `fold_hits`.
pub async fn record_hits(pool: &PgPool, agent_id: Uuid, ids: &[Uuid], kind: &str) -> sqlx::Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    sqlx::query("INSERT INTO memory_hits (agent_id, memory_id, kind) SELECT $1, unnest($2::uuid[]), $3")
        .bind(agent_id)
        .bind(ids)
        .bind(kind)
        .execute(pool)
        .await?;
    Ok(())
}

/// Folds the recorded hits into the memories: mentions add to `mention_count` and set
/// `last_mentioned_at`, retrievals set `last_retrieved_at`. Returns the memories touched.
pub async fn fold_hits(pool: &PgPool) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "WITH gone AS (DELETE FROM memory_hits RETURNING agent_id, memory_id, kind, at),
              agg AS (SELECT agent_id, memory_id,
                             count(*) FILTER (WHERE kind = 'mention') AS mentions,
                             max(at) FILTER (WHERE kind = 'mention') AS mentioned,
                             max(at) FILTER (WHERE kind = 'retrieval') AS retrieved
                        FROM gone GROUP BY agent_id, memory_id)
         UPDATE agent_memories a
            SET mention_count = a.mention_count + agg.mentions,
                last_mentioned_at = coalesce(greatest(a.last_mentioned_at, agg.mentioned), a.last_mentioned_at, agg.mentioned),
                last_retrieved_at = coalesce(greatest(a.last_retrieved_at, agg.retrieved), a.last_retrieved_at, agg.retrieved)
           FROM agg WHERE a.agent_id = agg.agent_id AND a.id = agg.memory_id",
    )
    .execute(pool)
    .await?
    .rows_affected())
}

/// Deletes expired memories (R5), keeping a `delete` version for each. Returns how many.
pub async fn delete_expired(pool: &PgPool) -> sqlx::Result<u64> {
    let mut tx = pool.begin().await?;
    let expired: Vec<Memory> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM agent_memories WHERE expires_at < now() ORDER BY expires_at LIMIT 10000 FOR UPDATE SKIP LOCKED"
    ))
    .fetch_all(&mut *tx)
    .await?;
    let origin = Origin::new(crate::auth::Actor::Job("memory_expiry".into()), None);
    for m in &expired {
        record_version(&mut tx, m, "delete", &origin, Some("expired")).await?;
        terms::remove(&mut tx, m).await?;
    }
    let ids: Vec<Uuid> = expired.iter().map(|m| m.id).collect();
    sqlx::query("DELETE FROM agent_memories WHERE id = ANY($1)").bind(&ids).execute(&mut *tx).await?;
    let mut agents: Vec<Uuid> = expired.iter().map(|m| m.agent_id).collect();
    agents.sort_unstable();
    agents.dedup();
    forget(&mut tx, &agents).await?;
    tx.commit().await?;
    Ok(ids.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalised_content_ignores_case_and_punctuation() {
        assert_eq!(normalize("  The user's name is ALICE! "), "the user s name is alice");
        assert_eq!(content_hash("The user lives in Vienna."), content_hash("the user lives in vienna"));
        assert_ne!(content_hash("The user lives in Vienna"), content_hash("The user lives in Graz"));
    }

    #[test]
    fn validation_names_the_field() {
        assert!(validate(Some("x"), Some("identity"), Some(0.5), Some(5.0)).is_ok());
        for (content, category, conf, imp, field) in [
            (Some("  "), None, None, None, "content"),
            (None, Some("Identity"), None, None, "category"),
            (None, Some("a"), None, None, "category"),
            (None, None, Some(1.5), None, "confidence"),
            (None, None, None, Some(11.0), "importance"),
        ] {
            match validate(content, category, conf, imp) {
                Err(ApiError::BadRequest { details: Some(d), .. }) => assert_eq!(d["field"], field),
                other => panic!("{field}: {other:?}"),
            }
        }
        let long = "x".repeat(MAX_CONTENT_CHARS + 1);
        assert!(validate(Some(&long), None, None, None).is_err());
    }
}
