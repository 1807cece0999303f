//! The memory store (R1, R7): create, read, list, update, invalidate and delete memories, each
//! write with its version row and postings, inside the caller's transaction.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::{AgentId, MemoryId};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::*;
use miniclaw_core::Error;
use miniclaw_platform::activity::Origin;

pub async fn create(
    conn: &mut PgConnection,
    agent_id: AgentId,
    origin: &Origin,
    new: NewMemory,
    reason: Option<&str>,
) -> Result<Memory, Error> {
    validate(Some(&new.content), Some(&new.category), Some(new.confidence), Some(new.importance))?;
    validate_time(new.occurred_at)?;
    let (vector, model) = match new.embedding {
        Some((v, m)) => (Some(vector::param(&v)), Some(m)),
        None => (None, None),
    };
    let memory = query_memories!(
        "INSERT INTO agent_memories (id, agent_id, content, title, category, source, confidence, importance, pinned,
            expires_at, knowledge_id, source_url, content_hash, embedding, embedding_model, occurred_at, end_user)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::vector, $15, COALESCE($16, now()), $17)
         RETURNING",
        "",
        Uuid::now_v7(),
        agent_id as _,
        new.content.trim(),
        new.title,
        new.category,
        new.source as _,
        new.confidence,
        new.importance,
        new.pinned,
        new.expires_at,
        new.knowledge_id,
        new.source_url,
        content_hash(&new.content),
        vector as _,
        model,
        new.occurred_at,
        new.end_user
    )
    .fetch_one(&mut *conn)
    .await?;
    settle(conn, &memory, "create", origin, reason).await?;
    Ok(memory)
}

pub async fn get(pool: &PgPool, agent_id: AgentId, id: MemoryId) -> Result<Memory, Error> {
    query_memories!("SELECT", "FROM agent_memories WHERE agent_id = $1 AND id = $2", agent_id as _, id as _)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| Error::not_found("memory"))
}

pub(super) async fn get_for_update(conn: &mut PgConnection, agent_id: AgentId, id: MemoryId) -> Result<Memory, Error> {
    query_memories!("SELECT", "FROM agent_memories WHERE agent_id = $1 AND id = $2 FOR UPDATE", agent_id as _, id as _)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("memory"))
}

/// The agent's memory `id` while it is live (active or dormant, valid), locked until the
/// caller's transaction ends; `None` otherwise.
pub async fn lock_live(conn: &mut PgConnection, agent_id: AgentId, id: MemoryId) -> sqlx::Result<Option<Memory>> {
    query_memories!(
        "SELECT",
        "FROM agent_memories WHERE agent_id = $1 AND id = $2 AND status IN ('active', 'dormant')
            AND invalid_at IS NULL FOR UPDATE",
        agent_id as _,
        id as _
    )
    .fetch_optional(conn)
    .await
}

/// The agent's pinned live memories (what every chat turn carries first), most important first,
/// at most `limit`.
pub async fn pinned(pool: &PgPool, agent_id: AgentId, reader: &Reader, limit: i64) -> sqlx::Result<Vec<Memory>> {
    query_memories!(
        "SELECT",
        "FROM agent_memories WHERE agent_id = $1 AND pinned AND status IN ('active', 'dormant')
            AND invalid_at IS NULL AND ($3 OR end_user IS NULL OR end_user = $4)
          ORDER BY importance DESC, id DESC LIMIT $2",
        agent_id as _,
        limit,
        reader.all(),
        reader.end_user()
    )
    .fetch_all(pool)
    .await
}

/// Characters of the agent's pinned live memories (what every chat turn carries first).
pub async fn pinned_chars(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT coalesce(sum(length(content)), 0)::bigint AS "chars!" FROM agent_memories
            WHERE agent_id = $1 AND pinned AND status IN ('active', 'dormant') AND invalid_at IS NULL"#,
        agent_id as _
    )
    .fetch_one(pool)
    .await
}

/// A memory with its vector, read as an array (`embedding::real[] AS vector`).
#[derive(sqlx::FromRow)]
pub struct WithVector {
    #[sqlx(flatten)]
    pub memory: Memory,
    pub vector: Vec<f32>,
}

/// The agent's live, unexpired, unpinned memories that fusion may merge: not identity or
/// knowledge, of `sources`, with a vector of `model`, whose prominence lies in `window`
/// (inclusive), least prominent first, at most `limit`.
pub async fn fusable(
    pool: &PgPool,
    agent_id: AgentId,
    sources: &[&str],
    model: &str,
    window: (f64, f64),
    limit: i64,
) -> sqlx::Result<Vec<WithVector>> {
    // Built at run time: the vector is read as an array, whatever its dimension.
    sqlx::query_as(&format!(
        "SELECT {COLUMNS}, embedding::real[] AS vector FROM agent_memories
          WHERE agent_id = $1 AND status IN ('active', 'dormant') AND invalid_at IS NULL
            AND (expires_at IS NULL OR expires_at > now()) AND NOT pinned AND category NOT IN ('identity', 'knowledge')
            AND source = ANY($2) AND embedding_model = $3 AND end_user IS NULL
            AND memory_prominence(category, pinned, importance, access_count, created_at,
                                  greatest(last_retrieved_at, last_mentioned_at), now()) BETWEEN $4 AND $5
          ORDER BY memory_prominence(category, pinned, importance, access_count, created_at,
                                     greatest(last_retrieved_at, last_mentioned_at), now()), id
          LIMIT $6"
    ))
    .bind(agent_id)
    .bind(sources)
    .bind(model)
    .bind(window.0)
    .bind(window.1)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// The agent's newest live, unexpired memories it learned (not documents or pages) with a
/// vector of `model`, at most `limit`.
pub async fn newest_learned_with_vectors(
    pool: &PgPool,
    agent_id: AgentId,
    model: &str,
    limit: i64,
) -> sqlx::Result<Vec<WithVector>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS}, embedding::real[] AS vector FROM agent_memories
          WHERE agent_id = $1 AND status IN ('active', 'dormant') AND invalid_at IS NULL
            AND (expires_at IS NULL OR expires_at > now()) AND source NOT IN ('uploaded', 'url') AND embedding_model = $2
            AND end_user IS NULL
          ORDER BY created_at DESC LIMIT $3"
    ))
    .bind(agent_id)
    .bind(model)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// The agent's live, unexpired memories it learned (not documents or pages), most recently
/// updated first, at most `limit`: what the cycles' models see.
pub async fn recently_updated_learned(
    conn: &mut PgConnection,
    agent_id: AgentId,
    limit: i64,
) -> sqlx::Result<Vec<Memory>> {
    query_memories!(
        "SELECT",
        "FROM agent_memories
          WHERE agent_id = $1 AND status IN ('active', 'dormant') AND invalid_at IS NULL
            AND (expires_at IS NULL OR expires_at > now()) AND source NOT IN ('uploaded', 'url') AND end_user IS NULL
          ORDER BY updated_at DESC LIMIT $2",
        agent_id as _,
        limit
    )
    .fetch_all(&mut *conn)
    .await
}

/// Locks those of the agent's memories `ids` that are live and unpinned until the caller's
/// transaction ends; returns how many they are.
pub async fn lock_live_unpinned(conn: &mut PgConnection, agent_id: AgentId, ids: &[MemoryId]) -> sqlx::Result<usize> {
    Ok(sqlx::query_scalar!(
        "SELECT id FROM agent_memories
          WHERE agent_id = $1 AND id = ANY($2) AND status IN ('active', 'dormant') AND invalid_at IS NULL AND NOT pinned
          FOR UPDATE",
        agent_id as _,
        ids as _
    )
    .fetch_all(conn)
    .await?
    .len())
}

/// Sets how often a memory was accessed (a fusion carries its sources' accesses over).
pub async fn set_access_count(conn: &mut PgConnection, agent_id: AgentId, id: MemoryId, n: i32) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE agent_memories SET access_count = $3 WHERE agent_id = $1 AND id = $2",
        agent_id as _,
        id as _,
        n
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Adds `n` mentions to a memory (a merge keeps the merged one's); `None` when it is gone.
pub async fn add_mentions(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    n: i32,
) -> sqlx::Result<Option<Memory>> {
    query_memories!(
        "UPDATE agent_memories SET mention_count = mention_count + $3, updated_at = now()
          WHERE agent_id = $1 AND id = $2 RETURNING",
        "",
        agent_id as _,
        id as _,
        n
    )
    .fetch_optional(conn)
    .await
}

/// How many live, valid memories the agent holds.
pub async fn live_count(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM agent_memories WHERE agent_id = $1 AND status IN ('active', 'dormant') AND invalid_at IS NULL"#,
        agent_id as _
    )
    .fetch_one(pool)
    .await
}

/// The live memories (valid now) by category, of agent `agent` or of every live agent of
/// `tenant` (each `None`: no restriction).
pub async fn live_by_category(
    pool: &PgPool,
    agent: Option<Uuid>,
    tenant: Option<Uuid>,
) -> sqlx::Result<Vec<(String, i64)>> {
    // Built at run time: live agents of the tenant (`agents::sql`).
    sqlx::query_as(&format!(
        "SELECT m.category, count(*) FROM agent_memories m
          WHERE m.status IN ('active', 'dormant') AND (m.invalid_at IS NULL OR m.invalid_at > now())
            AND ($1::uuid IS NULL OR m.agent_id = $1) AND m.agent_id IN ({})
          GROUP BY m.category",
        crate::tenancy::agents::sql::in_scope("$2")
    ))
    .bind(agent)
    .bind(tenant)
    .fetch_all(pool)
    .await
}

/// A memory embedded by some model, with its vector.
pub struct Embedded {
    pub id: Uuid,
    pub content: String,
    pub category: String,
    pub importance: f32,
    pub embedding: pgvector::Vector,
}

/// The agent's `limit` most important live memories (valid now) embedded by `model`.
pub async fn most_important_embedded(
    pool: &PgPool,
    agent_id: AgentId,
    model: &str,
    limit: i64,
) -> sqlx::Result<Vec<Embedded>> {
    sqlx::query_as!(
        Embedded,
        r#"SELECT id, content, category, importance, embedding AS "embedding!: pgvector::Vector" FROM agent_memories
            WHERE agent_id = $1 AND status IN ('active', 'dormant') AND (invalid_at IS NULL OR invalid_at > now())
              AND embedding_model = $2 AND embedding IS NOT NULL
            ORDER BY importance DESC, id DESC LIMIT $3"#,
        agent_id as _,
        model,
        limit
    )
    .fetch_all(pool)
    .await
}

/// List filters (R1, §15).
#[derive(Debug, Clone, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct ListFilter {
    pub category: Option<String>,
    pub source: Option<String>,
    /// A status, or `live` for `active` and `dormant` together, without those a newer value
    /// replaced.
    pub status: Option<String>,
    /// Memories created before this id (the `next` of the previous page).
    pub before: Option<Uuid>,
    /// 1–200, default 50.
    pub limit: Option<i64>,
    /// Only the memories learned from this end user (SPEC H1; Mem0's `user_id`); `-` for the
    /// agent's own knowledge only. A request acting for an end user sees the agent's own
    /// knowledge and that user's memories, whatever it asks.
    pub end_user: Option<String>,
}

/// The `end_user` filter value for the agent's own knowledge (learned from no end user).
pub const AGENT_OWN: &str = "-";

/// The `status` filter value for the live statuses together.
pub const LIVE: &str = "live";

/// Newest first, filtered, paginated by id.
pub async fn list(pool: &PgPool, agent_id: AgentId, reader: &Reader, f: &ListFilter) -> Result<Vec<Memory>, Error> {
    let limit = f.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(Error::validation("limit", "limit must be between 1 and 200"));
    }
    if let Some(s) = f.status.as_deref().filter(|s| *s != LIVE) {
        miniclaw_core::vocabulary::parse::<MemoryStatus>("status", s)?;
    }
    Ok(query_memories!(
        "SELECT",
        "FROM agent_memories
          WHERE agent_id = $1 AND ($2::text IS NULL OR category = $2) AND ($3::text IS NULL OR source = $3)
            AND ($4::text IS NULL OR status = $4 OR ($4 = 'live' AND status IN ('active', 'dormant') AND invalid_at IS NULL))
            AND ($5::uuid IS NULL OR id < $5)
            AND ($7 OR end_user IS NULL OR end_user = $8)
            AND ($9::text IS NULL OR ($9 = '-' AND end_user IS NULL) OR end_user = $9)
          ORDER BY id DESC LIMIT $6",
        agent_id as _,
        f.category,
        f.source,
        f.status,
        f.before,
        limit,
        reader.all(),
        reader.end_user(),
        f.end_user
    )
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
    /// Whose memories (default: all).
    pub reader: Option<&'a Reader>,
}

/// The agent's `k` newest live memories (active, valid, unexpired) that pass the filter, newest
/// first. The plan is pinned to the `(agent_id, created_at)` index, which yields rows in order
/// and stops after `k` matches: with skewed or stale statistics (a large agent among small ones,
/// or one that has just imported its memories) the planner otherwise reads and sorts all of
/// the agent's rows (42 ms instead of 0.1 for 10,000 memories). The query lives in the function
/// `agent_memories_newest`, which carries the plan settings and keeps a generic plan per
/// connection (planning each call cost five times its execution): one round trip, also inside
/// the caller's transaction.
pub async fn newest(conn: &mut PgConnection, agent_id: AgentId, f: Newest<'_>, k: i64) -> sqlx::Result<Vec<Memory>> {
    query_memories!(
        "SELECT",
        "FROM agent_memories_newest($1, $2, $3, $4, $5::int, $6, $7)",
        agent_id as _,
        f.sources as &[&str],
        f.categories,
        f.except_categories as &[&str],
        k as _,
        f.reader.is_none_or(Reader::all),
        f.reader.and_then(Reader::end_user)
    )
    .fetch_all(&mut *conn)
    .await
}

/// The contents of the agent's newest live insights (active or dormant), newest first, at most
/// `k`: what extraction already derived.
pub async fn recent_insights(
    conn: &mut PgConnection,
    agent_id: AgentId,
    reader: &Reader,
    k: i64,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "SELECT content FROM agent_memories WHERE agent_id = $1 AND status IN ('active', 'dormant') AND category = 'insight'
            AND ($3 OR end_user IS NULL OR end_user = $4)
          ORDER BY created_at DESC LIMIT $2",
        agent_id as _,
        k,
        reader.all(),
        reader.end_user()
    )
    .fetch_all(conn)
    .await
}

/// The content and vector of each of the agent's memories `ids` (any status).
pub async fn contents_and_vectors(
    conn: &mut PgConnection,
    agent_id: AgentId,
    ids: &[Uuid],
) -> sqlx::Result<Vec<(String, Option<Vec<f32>>)>> {
    let rows = sqlx::query!(
        r#"SELECT content, embedding AS "embedding: pgvector::Vector" FROM agent_memories WHERE agent_id = $1 AND id = ANY($2)"#,
        agent_id as _,
        ids
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.content, r.embedding.map(|v| v.as_slice().to_vec()))).collect())
}

/// The agent's live, valid facts (not knowledge from documents or pages), most recently
/// updated first, at most `k`: (id, content, source, pinned).
pub async fn recently_updated_facts(
    conn: &mut PgConnection,
    agent_id: AgentId,
    end_user: Option<&str>,
    k: i64,
) -> sqlx::Result<Vec<(MemoryId, String, String, bool)>> {
    let rows = sqlx::query!(
        "SELECT id, content, source, pinned FROM agent_memories
          WHERE agent_id = $1 AND status IN ('active', 'dormant') AND invalid_at IS NULL AND source NOT IN ('uploaded', 'url')
            AND end_user IS NOT DISTINCT FROM $3
          ORDER BY updated_at DESC LIMIT $2",
        agent_id as _,
        k,
        end_user
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (MemoryId(r.id), r.content, r.source, r.pinned)).collect())
}

/// The agent's live derived insights beyond the `cap` most recently updated.
pub async fn derived_insights_beyond(
    conn: &mut PgConnection,
    agent_id: AgentId,
    cap: i64,
) -> sqlx::Result<Vec<MemoryId>> {
    let ids = sqlx::query_scalar!(
        "SELECT id FROM agent_memories WHERE agent_id = $1 AND category = 'insight' AND source = 'derived'
            AND status IN ('active', 'dormant')
          ORDER BY updated_at DESC OFFSET $2",
        agent_id as _,
        cap
    )
    .fetch_all(conn)
    .await?;
    Ok(ids.into_iter().map(MemoryId).collect())
}

/// When the agent's `n`-th memory was written, for each `n` of `nths` it has reached.
pub async fn nth_memory_at(pool: &PgPool, agent_id: AgentId, nths: &[i32]) -> sqlx::Result<Vec<(i32, DateTime<Utc>)>> {
    let rows = sqlx::query!(
        r#"SELECT n AS "n!", (SELECT created_at FROM agent_memories WHERE agent_id = $1
                              ORDER BY created_at OFFSET n - 1 LIMIT 1) AS at
             FROM unnest($2::int[]) AS n"#,
        agent_id as _,
        nths
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().filter_map(|r| Some((r.n, r.at?))).collect())
}

/// The texts of the agent's `k` weightiest live memories (pinned first, then by importance,
/// then the most recently touched), knowledge chunks left out: what a piece of writing about
/// the agent (an outreach draft, a feed digest) starts from.
pub async fn weightiest(pool: &PgPool, agent_id: AgentId, k: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "SELECT content FROM agent_memories
          WHERE agent_id = $1 AND status IN ('active', 'dormant') AND invalid_at IS NULL AND knowledge_id IS NULL
            AND end_user IS NULL
          ORDER BY pinned DESC, importance DESC, updated_at DESC LIMIT $2",
        agent_id as _,
        k
    )
    .fetch_all(pool)
    .await
}

/// The agent's live memories written since `since` that name an email address and say the
/// owner wants to reach someone ("email", "write to", "get in touch", "reach out", "contact",
/// "introduce", "follow up"), the newest first (at most `k`): `(id, content)`. What the agent
/// may propose outreach from.
pub async fn contact_intents(
    pool: &PgPool,
    agent_id: AgentId,
    since: DateTime<Utc>,
    k: i64,
) -> sqlx::Result<Vec<(Uuid, String)>> {
    let rows = sqlx::query!(
        r#"SELECT id, content FROM agent_memories
            WHERE agent_id = $1 AND created_at > $2 AND status IN ('active', 'dormant') AND invalid_at IS NULL
              AND knowledge_id IS NULL AND end_user IS NULL
              AND content ~* '[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+'
              AND content ~* '\m(e-?mail|write to|get in touch|reach out|reach|contact|introduce|follow up with|ask)\M'
            ORDER BY created_at DESC LIMIT $3"#,
        agent_id as _,
        since,
        k
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|r| (r.id, r.content)).collect())
}

/// The texts of the agent's `k` weightiest live memories its owner marked shareable (by
/// importance, then the most recently updated): all the feed digest may write from.
pub async fn shareable(pool: &PgPool, agent_id: AgentId, k: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "SELECT content FROM agent_memories
          WHERE agent_id = $1 AND shareable AND end_user IS NULL AND status IN ('active', 'dormant') AND invalid_at IS NULL
          ORDER BY importance DESC, updated_at DESC LIMIT $2",
        agent_id as _,
        k
    )
    .fetch_all(pool)
    .await
}

/// The agent's live goals not mentioned since `before`, the longest-untouched first (at most
/// `k`): `(id, content, last touched)`.
pub async fn goals_untouched_since(
    conn: &mut PgConnection,
    agent_id: AgentId,
    before: DateTime<Utc>,
    k: i64,
) -> sqlx::Result<Vec<(Uuid, String, DateTime<Utc>)>> {
    let rows = sqlx::query!(
        r#"SELECT id, content, coalesce(last_mentioned_at, created_at) AS "touched!" FROM agent_memories
            WHERE agent_id = $1 AND category = 'goal' AND status IN ('active', 'dormant') AND invalid_at IS NULL
              AND end_user IS NULL AND coalesce(last_mentioned_at, created_at) < $2
            ORDER BY coalesce(last_mentioned_at, created_at) LIMIT $3"#,
        agent_id as _,
        before,
        k
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.id, r.content, r.touched)).collect())
}

/// Applies a patch, keeps the postings in step, and records the version. An owner's change of
/// content is a correction: the old wording gets a tombstone so extraction does not restore it.
pub async fn update(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    origin: &Origin,
    patch: MemoryPatch,
    reason: Option<&str>,
) -> Result<Memory, Error> {
    validate(patch.content.as_deref(), patch.category.as_deref(), patch.confidence, patch.importance)?;
    let before = get_for_update(conn, agent_id, id).await?;
    let content_changed = patch.content.as_deref().is_some_and(|c| c.trim() != before.content);
    if content_changed && matches!(origin.actor, crate::tenancy::auth::Actor::Owner(_)) {
        hygiene::tombstone(conn, &before, "corrected").await?;
    }
    let (vector, model) = match (&patch.embedding, content_changed) {
        (Some((v, m)), true) => (Some(vector::param(v)), Some(m.clone())),
        _ => (None, None),
    };
    let after = query_memories!(
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
            shareable = coalesce($15, shareable),
            updated_at = now()
          WHERE agent_id = $1 AND id = $2
          RETURNING",
        "",
        agent_id as _,
        id as _,
        patch.content.as_deref().map(str::trim),
        patch.content.as_deref().map(content_hash),
        patch.category,
        patch.confidence,
        patch.importance,
        patch.pinned,
        patch.status as _,
        patch.expires_at.is_some(),
        patch.expires_at.flatten(),
        content_changed,
        vector as _,
        model,
        patch.shareable
    )
    .fetch_one(&mut *conn)
    .await?;
    terms::sync(conn, &after).await?;
    let change = if content_changed || before.category != after.category {
        "update"
    } else if before.pinned != after.pinned {
        "pin"
    } else if before.status != after.status {
        if after.status == MemoryStatus::Deprecated { "deprecate" } else { "status" }
    } else {
        "update"
    };
    record_version(conn, &after, change, origin, reason).await?;
    Ok(after)
}

/// Marks a memory as contradicted by a newer one (R7): out of search, kept in history.
pub async fn invalidate(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    origin: &Origin,
    reason: &str,
) -> Result<Memory, Error> {
    get_for_update(conn, agent_id, id).await?;
    set_valid(conn, agent_id, id, false, origin, Some(reason)).await
}

/// Makes a contradicted or replaced memory current again (R7); 409 when it is current.
pub async fn revalidate(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    origin: &Origin,
    reason: Option<&str>,
) -> Result<Memory, Error> {
    if get_for_update(conn, agent_id, id).await?.invalid_at.is_none() {
        return Err(Error::Conflict("the memory is current: nothing was replaced or contradicted".into()));
    }
    set_valid(conn, agent_id, id, true, origin, reason.or(Some("made current again"))).await
}

/// Sets or clears `invalid_at`, with the postings and the version (`invalidate` / `restore`)
/// that go with it. The row is locked by the caller.
async fn set_valid(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    valid: bool,
    origin: &Origin,
    reason: Option<&str>,
) -> Result<Memory, Error> {
    let after = query_memories!(
        "UPDATE agent_memories SET invalid_at = CASE WHEN $3 THEN NULL ELSE now() END, updated_at = now()
          WHERE agent_id = $1 AND id = $2 RETURNING",
        "",
        agent_id as _,
        id as _,
        valid
    )
    .fetch_one(&mut *conn)
    .await?;
    settle(conn, &after, if valid { "restore" } else { "invalidate" }, origin, reason).await?;
    Ok(after)
}

/// Deletes a memory. Its history stays; an owner's delete leaves a tombstone (R6b).
pub async fn delete(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    origin: &Origin,
    reason: Option<&str>,
) -> Result<Memory, Error> {
    let before = get_for_update(conn, agent_id, id).await?;
    if matches!(origin.actor, crate::tenancy::auth::Actor::Owner(_) | crate::tenancy::auth::Actor::ApiKey(_)) {
        hygiene::tombstone(conn, &before, "deleted").await?;
    }
    record_version(conn, &before, "delete", origin, reason).await?;
    terms::remove(conn, &before).await?;
    sqlx::query!("DELETE FROM agent_memories WHERE agent_id = $1 AND id = $2", agent_id as _, id as _)
        .execute(&mut *conn)
        .await?;
    super::hits::forget(conn, &[agent_id]).await?;
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

/// After a write to a memory's row: its postings follow the row, and a version of kind `change`
/// records it.
pub(super) async fn settle(
    conn: &mut PgConnection,
    after: &Memory,
    change: &str,
    origin: &Origin,
    reason: Option<&str>,
) -> sqlx::Result<()> {
    terms::sync(conn, after).await?;
    record_version(conn, after, change, origin, reason).await
}

pub async fn record_version(
    conn: &mut PgConnection,
    memory: &Memory,
    change: &str,
    origin: &Origin,
    reason: Option<&str>,
) -> sqlx::Result<()> {
    let event = crate::channels::webhooks::memory_event(change);
    sqlx::query_scalar::<_, i64>(&VERSION_SQL)
        .bind(Uuid::now_v7())
        .bind(memory.id)
        .bind(memory.agent_id)
        .bind(change)
        .bind(serde_json::to_value(memory).expect("a memory serialises"))
        .bind(origin.actor.kind())
        .bind(origin.actor.id())
        .bind(reason)
        .bind(origin.request_id.as_deref())
        .bind(event)
        .bind(Uuid::now_v7())
        .fetch_one(&mut *conn)
        .await?;
    Ok(())
}

/// Memory writes since `since` (a time-ordered id of that moment, so the primary key finds
/// them), platform-wide: `(created, replaced, forgotten)`.
pub async fn writes_since(pool: &PgPool, since: Uuid) -> sqlx::Result<(i64, i64, i64)> {
    sqlx::query_as(
        "SELECT count(*) FILTER (WHERE change = 'create'), count(*) FILTER (WHERE change IN ('invalidate', 'deprecate')),
                count(*) FILTER (WHERE change = 'delete')
           FROM memory_versions WHERE id > $1",
    )
    .bind(since)
    .fetch_one(pool)
    .await
}

/// A memory's version row, and with it the write's entry in the agent's activity log (who,
/// which memory, what kind of change; never its text) and its webhook event
/// (`channels::webhooks`) for the endpoints that want it: one statement, as every memory write
/// makes one. A mention (`$10` NULL) is neither logged nor sent.
static VERSION_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let facts = "jsonb_build_object('memory_id', $2::uuid, 'change', $4::text, 'category', $5::jsonb ->> 'category',
                                    'source', $5::jsonb ->> 'source', 'end_user', $5::jsonb ->> 'end_user')";
    format!(
        "WITH version AS (
            INSERT INTO memory_versions (id, memory_id, agent_id, version, change, snapshot, actor_type, actor_id, reason, request_id)
            VALUES ($1, $2, $3, (SELECT coalesce(max(version), 0) + 1 FROM memory_versions WHERE memory_id = $2),
                    $4, $5, $6, $7, $8, $9)
         ), logged AS (
            {logged}
         ), {hook}
         SELECT count(pg_notify('{channel}', kind)) FROM hook",
        logged = miniclaw_platform::activity::record_sql(
            "$11::uuid",
            "$3::uuid",
            &crate::tenancy::agents::sql::tenant_any("$3::uuid"),
            "$10::text",
            "$6::text",
            "$7::text",
            "$9::text",
            facts,
            "$10::text IS NOT NULL",
        ),
        hook = crate::channels::webhooks::ctes("hook", "$3::uuid", "$10::text", facts, "$10::text IS NOT NULL"),
        channel = miniclaw_platform::jobs::NOTIFY_CHANNEL,
    )
});

/// A memory's versions, newest first: `limit` of them, older than version `before` if given;
/// 404 when the agent never had the memory.
pub async fn history(
    pool: &PgPool,
    agent_id: AgentId,
    id: MemoryId,
    limit: i64,
    before: Option<i32>,
) -> Result<Vec<MemoryVersion>, Error> {
    let versions = sqlx::query_as!(
        MemoryVersion,
        "SELECT version, change, snapshot, actor_type, actor_id, reason, request_id, created_at
           FROM memory_versions WHERE agent_id = $1 AND memory_id = $2 AND ($4::int IS NULL OR version < $4)
          ORDER BY version DESC LIMIT $3",
        agent_id as _,
        id as _,
        limit,
        before
    )
    .fetch_all(pool)
    .await?;
    if versions.is_empty() {
        let known = sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM memory_versions WHERE agent_id = $1 AND memory_id = $2) AS "known!""#,
            agent_id as _,
            id as _
        )
        .fetch_one(pool)
        .await?;
        if !known {
            return Err(Error::not_found("memory"));
        }
    }
    Ok(versions)
}
