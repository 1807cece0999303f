//! Supersession (SPEC R7, X3 `updates`): a new memory that gives a slot an older one fills a new
//! value ("we moved, I live in Lisbon now" after "I live in Porto") replaces it. The new memory
//! gets an `updates` relation to the old one, and the old one gets `invalid_at`: search and chat
//! see only the current value, while the old one stays readable with its history and through the
//! relation ("what was it before?").
//!
//! The detector is offline and explainable: both statements must speak of the same slot (a
//! single-valued one such as where the user lives, their job, a favourite thing, a dated
//! appointment), the new one must bring a value the old one lacks, and it must not be additive
//! ("I also ..."), hypothetical ("I'd love to live in ...") or about the past ("I used to ...").
//! Slots that hold one thing of many kinds (a favourite band and a favourite food; the dentist
//! and the hairdresser) need a shared object word besides the slot's own words. Every write path
//! runs it (API, bulk, extraction); where a `dedup` model is configured, extraction also follows
//! its `update` decisions (`link`).

mod detect;

pub use detect::{Verdict, judge};

use miniclaw_core::ids::{AgentId, MemoryId};

use serde::Serialize;
use sqlx::PgConnection;
use utoipa::ToSchema;

use super::{Memory, MemorySource, terms, vector};
use miniclaw_core::Error;
use miniclaw_platform::activity::Origin;

/// Creates a memory, then lets it replace the memories it updates: the write path of user facts
/// (API, bulk, dashboard, extraction). Returns the memory and the ids it replaced.
pub async fn create_current(
    conn: &mut PgConnection,
    agent_id: AgentId,
    origin: &Origin,
    new: super::NewMemory,
    reason: Option<&str>,
) -> Result<(Memory, Vec<MemoryId>), Error> {
    let vector = new.embedding.as_ref().map(|(v, _)| v.clone());
    let memory = super::create(conn, agent_id, origin, new, reason).await?;
    let replaced = after_write(conn, agent_id, origin, &memory, vector.as_deref()).await?;
    Ok((memory, replaced))
}

/// One relation of a memory as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Related {
    /// `updates`, `extends` or `derives`.
    pub kind: String,
    /// `outgoing`: this memory updates/extends/derives from the other; `incoming`: the other
    /// does so from this one.
    pub direction: String,
    pub reason: Option<String>,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub memory: Memory,
}

/// How many live memories near the new one are compared with it.
const CANDIDATES: i64 = 8;
/// Neighbours less similar than this are about something else.
const MIN_COSINE: f64 = 0.3;

/// Runs the detector for a memory just written: the nearest live memory of the user-fact
/// categories (or, without a vector, of those sharing its rarest words) that it updates is
/// invalidated and linked. Owner and API memories are authoritative: a memory learned from
/// conversation never replaces one of theirs; pinned memories are never replaced. Returns the
/// replaced ids.
pub async fn after_write(
    conn: &mut PgConnection,
    agent_id: AgentId,
    origin: &Origin,
    new: &Memory,
    vector: Option<&[f32]>,
) -> Result<Vec<MemoryId>, Error> {
    if !is_fact_category(&new.category) || new.knowledge_id.is_some() {
        return Ok(Vec::new());
    }
    // The nearest live user facts of the same person (SPEC H1: what one end user says never
    // replaces what another said, or the agent's own), with their rows and their cosine.
    let whose = super::Reader::exactly(new.end_user.as_deref());
    let candidates: Vec<(Memory, Option<f64>)> = match (vector, &new.embedding_model) {
        (Some(v), Some(model)) => {
            let categories = USER_FACTS.map(String::from).to_vec();
            let f = vector::Filters { categories, reader: whose.clone(), ..vector::Filters::default() };
            vector::nearest_memories(conn, agent_id, model, v, CANDIDATES + 1, &f, None)
                .await?
                .into_iter()
                .filter(|s| s.similarity >= MIN_COSINE)
                .map(|s| (s.memory, Some(s.similarity)))
                .collect()
        }
        _ => {
            let found = terms::bm25(conn, agent_id, &terms::terms(&new.content), None, CANDIDATES + 1).await?;
            let ids: Vec<MemoryId> = found.iter().map(|(id, _)| *id).collect();
            let rows = super::query_memories!(
                "SELECT",
                "FROM agent_memories WHERE agent_id = $1 AND id = ANY($2) AND status IN ('active', 'dormant') AND invalid_at IS NULL
                    AND end_user IS NOT DISTINCT FROM $3",
                agent_id as _,
                &ids as &[MemoryId],
                new.end_user
            )
            .fetch_all(&mut *conn)
            .await?;
            // In BM25 order.
            ids.iter().filter_map(|id| rows.iter().find(|m| m.id == *id)).map(|m| (m.clone(), None)).collect()
        }
    };
    let learned = !authoritative(new.source);
    // A statement gives one slot a new value: of the memories it could update, the one with a
    // shared slot word first, then the most words naming the same thing, then the nearest.
    let mut judged: Vec<(Verdict, f64, MemoryId)> = Vec::new();
    for (old, cosine) in &candidates {
        let replaceable = old.id != new.id && !old.pinned && old.occurred_at <= new.occurred_at;
        if !replaceable || !is_fact_category(&old.category) || (learned && authoritative(old.source)) {
            continue;
        }
        if let Some(v) = judge(&old.content, &new.content, *cosine) {
            judged.push((v, cosine.unwrap_or(0.0), old.id));
        }
    }
    let best = judged.into_iter().max_by(|a, b| {
        (a.0.slot != "topic", a.0.shared).cmp(&(b.0.slot != "topic", b.0.shared)).then(a.1.total_cmp(&b.1))
    });
    match best {
        Some((v, _, old)) => {
            link(conn, agent_id, origin, new.id, old, &v.reason).await?;
            Ok(vec![old])
        }
        None => Ok(Vec::new()),
    }
}

/// `new` replaces `old` (a model's `update` decision, or the detector's): the relation, then
/// `old` leaves search, its version history naming the newer memory.
pub async fn link(
    conn: &mut PgConnection,
    agent_id: AgentId,
    origin: &Origin,
    new: MemoryId,
    old: MemoryId,
    reason: &str,
) -> Result<(), Error> {
    relate(conn, agent_id, new, old, "updates", reason).await?;
    super::invalidate(conn, agent_id, old, origin, &format!("updated by memory {new}: {reason}")).await?;
    Ok(())
}

/// Records a relation `from` → `to` of `kind` (`updates`, `extends`, `derives`); an existing
/// one is kept.
pub async fn relate(
    conn: &mut PgConnection,
    agent_id: AgentId,
    from: MemoryId,
    to: MemoryId,
    kind: &str,
    reason: &str,
) -> sqlx::Result<()> {
    let reason: String = reason.chars().take(500).collect();
    sqlx::query!(
        "INSERT INTO memory_relations (agent_id, from_id, to_id, kind, reason) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING",
        agent_id as _,
        from as _,
        to as _,
        kind,
        reason
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// What the owner or a miniapp wrote: only they replace it.
pub fn authoritative(source: MemorySource) -> bool {
    matches!(source, MemorySource::Owner | MemorySource::Api)
}

/// The categories of facts about the user: the ones a newer value can replace.
const USER_FACTS: [&str; 5] = super::Category::names(super::Category::USER_FACTS);

/// Makes a replaced, contradicted or archived memory current again: when the detector (or a
/// model) was wrong, the old value holds once more, or forgetting or fusion set aside what
/// is still wanted. Its `updates` relations go; the memory that replaced it stays, since both
/// may be true. 409 when the memory is current already.
pub async fn restore(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    origin: &Origin,
    reason: Option<&str>,
) -> Result<Memory, Error> {
    let before = super::get_for_update(conn, agent_id, id).await?;
    let mut after = before.clone();
    if before.status == super::MemoryStatus::Archived {
        after = super::lifecycle::revive(conn, agent_id, id, origin, reason).await?;
    }
    if before.invalid_at.is_some() {
        after = super::revalidate(conn, agent_id, id, origin, reason).await?;
        sqlx::query!(
            "DELETE FROM memory_relations WHERE agent_id = $1 AND to_id = $2 AND kind = 'updates'",
            agent_id as _,
            id as _
        )
        .execute(&mut *conn)
        .await?;
    }
    if before.invalid_at.is_none() && before.status != super::MemoryStatus::Archived {
        return Err(Error::Conflict("the memory is current: nothing replaced, contradicted or archived it".into()));
    }
    Ok(after)
}

fn is_fact_category(category: &str) -> bool {
    USER_FACTS.contains(&category)
}

/// A memory with its relations.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Relations {
    pub memory: Memory,
    /// Newest first, at most `RELATIONS_MAX`.
    pub relations: Vec<Related>,
    /// Whether the memory has more relations than were listed.
    pub truncated: bool,
}

/// Most relations listed for one memory.
pub const RELATIONS_MAX: i64 = 200;

/// Every relation of a memory, both ways, newest first.
pub async fn relations(pool: &sqlx::PgPool, agent_id: AgentId, id: MemoryId) -> Result<Relations, Error> {
    let memory = super::get(pool, agent_id, id).await?;
    let rows = sqlx::query!(
        r#"SELECT from_id AS "from_id: MemoryId", to_id AS "to_id: MemoryId", kind, reason, created_at
             FROM memory_relations WHERE agent_id = $1 AND (from_id = $2 OR to_id = $2)
            ORDER BY created_at DESC, kind LIMIT $3"#,
        agent_id as _,
        id as _,
        RELATIONS_MAX + 1
    )
    .fetch_all(pool)
    .await?;
    let truncated = rows.len() as i64 > RELATIONS_MAX;
    let rows: Vec<_> = rows.into_iter().take(RELATIONS_MAX as usize).collect();
    let others: Vec<MemoryId> = rows.iter().map(|r| if r.from_id == id { r.to_id } else { r.from_id }).collect();
    let memories = super::query_memories!(
        "SELECT",
        "FROM agent_memories WHERE agent_id = $1 AND id = ANY($2)",
        agent_id as _,
        &others as &[MemoryId]
    )
    .fetch_all(pool)
    .await?;
    let relations = rows
        .into_iter()
        .zip(others)
        .filter_map(|(r, other)| {
            let memory = memories.iter().find(|m| m.id == other)?.clone();
            Some(Related {
                kind: r.kind,
                direction: if r.from_id == id { "outgoing" } else { "incoming" }.into(),
                reason: r.reason,
                created_at: r.created_at,
                memory,
            })
        })
        .collect();
    Ok(Relations { memory, relations, truncated })
}
