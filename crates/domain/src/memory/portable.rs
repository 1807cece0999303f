//! An agent's memories as they travel in an agent bundle (`crate::bundle`): every row, live or
//! not, with its version history and the relations between memories, keyed by the ids they had
//! where they were exported. Restoring gives each memory a new id, keeps its dates, counters and
//! status, rewrites its postings and stores the vectors it is given; the history comes along
//! as it was (its snapshots renamed to the new ids).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, MemoryId};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{COLUMNS, Memory, MemorySource, MemoryStatus};

/// One memory in a bundle.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortableMemory {
    /// The memory's id where it was exported; relations name memories by it. Unique in a bundle.
    pub id: Uuid,
    pub content: String,
    #[serde(default)]
    pub title: Option<String>,
    pub category: String,
    pub source: MemorySource,
    pub confidence: f32,
    pub importance: f32,
    #[serde(default = "one")]
    pub mention_count: i32,
    #[serde(default)]
    pub last_mentioned_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub expires_at: Option<DateTime<Utc>>,
    /// active, dormant, archived or deprecated.
    pub status: MemoryStatus,
    #[serde(default)]
    pub pinned: bool,
    #[serde(default)]
    pub shareable: bool,
    #[serde(default)]
    pub invalid_at: Option<DateTime<Utc>>,
    /// Chunks of one knowledge entry share it.
    #[serde(default)]
    pub knowledge_id: Option<Uuid>,
    #[serde(default)]
    pub source_url: Option<String>,
    #[serde(default)]
    pub last_retrieved_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub access_count: i32,
    #[serde(default)]
    pub faded_at: Option<DateTime<Utc>>,
    pub occurred_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Its versions, oldest first: each change, who made it and why, and the memory as it was.
    #[serde(default)]
    pub history: Vec<PortableVersion>,
}

fn one() -> i32 {
    1
}

/// One version of a memory.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, sqlx::FromRow)]
#[serde(deny_unknown_fields)]
pub struct PortableVersion {
    pub version: i32,
    /// create, update, merge, deprecate, invalidate, status, pin, delete, mention, restore,
    /// fade, fuse or split.
    pub change: String,
    /// The memory as it was after the change.
    #[schema(value_type = Object)]
    pub snapshot: serde_json::Value,
    /// owner, api_key, job, admin, system.
    pub actor_type: String,
    #[serde(default)]
    pub reason: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A relation between two memories of the bundle.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortableRelation {
    /// The newer memory's `id` in the bundle.
    pub from: Uuid,
    /// The older memory's `id` in the bundle.
    pub to: Uuid,
    /// `updates`, `extends` or `derives`.
    pub kind: String,
    #[serde(default)]
    pub reason: Option<String>,
    pub created_at: DateTime<Utc>,
}

const CHANGES: [&str; 13] = [
    "create",
    "update",
    "merge",
    "deprecate",
    "invalidate",
    "status",
    "pin",
    "delete",
    "mention",
    "restore",
    "fade",
    "fuse",
    "split",
];
const RELATION_KINDS: [&str; 3] = ["updates", "extends", "derives"];
const ACTORS: [&str; 5] = ["owner", "api_key", "job", "admin", "system"];

/// Every memory of the agent (live, replaced, faded or forgotten-but-kept), oldest first, with
/// its history, and the relations between them.
pub async fn export(pool: &PgPool, agent: AgentId) -> sqlx::Result<(Vec<PortableMemory>, Vec<PortableRelation>)> {
    let rows: Vec<Memory> =
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM agent_memories WHERE agent_id = $1 ORDER BY created_at, id"))
            .bind(agent)
            .fetch_all(pool)
            .await?;
    #[derive(sqlx::FromRow)]
    struct VersionRow {
        memory_id: Uuid,
        #[sqlx(flatten)]
        version: PortableVersion,
    }
    let versions: Vec<VersionRow> = sqlx::query_as(
        "SELECT memory_id, version, change, snapshot, actor_type, reason, created_at FROM memory_versions
          WHERE agent_id = $1 ORDER BY memory_id, version",
    )
    .bind(agent)
    .fetch_all(pool)
    .await?;
    let mut history: HashMap<Uuid, Vec<PortableVersion>> = HashMap::new();
    for row in versions {
        history.entry(row.memory_id).or_default().push(row.version);
    }
    let memories = rows
        .into_iter()
        .map(|m| PortableMemory {
            history: history.remove(&m.id.0).unwrap_or_default(),
            id: m.id.0,
            content: m.content,
            title: m.title,
            category: m.category,
            source: m.source,
            confidence: m.confidence,
            importance: m.importance,
            mention_count: m.mention_count,
            last_mentioned_at: m.last_mentioned_at,
            expires_at: m.expires_at,
            status: m.status,
            pinned: m.pinned,
            shareable: m.shareable,
            invalid_at: m.invalid_at,
            knowledge_id: m.knowledge_id,
            source_url: m.source_url,
            last_retrieved_at: m.last_retrieved_at,
            access_count: m.access_count,
            faded_at: m.faded_at,
            occurred_at: m.occurred_at,
            created_at: m.created_at,
            updated_at: m.updated_at,
        })
        .collect();
    let relations = sqlx::query_as::<_, (Uuid, Uuid, String, Option<String>, DateTime<Utc>)>(
        "SELECT from_id, to_id, kind, reason, created_at FROM memory_relations WHERE agent_id = $1
          ORDER BY created_at, from_id, to_id",
    )
    .bind(agent)
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|(from, to, kind, reason, created_at)| PortableRelation { from, to, kind, reason, created_at })
    .collect();
    Ok((memories, relations))
}

/// Checks memories and relations before anything is stored; the error names the first bad
/// field (`memories[3].content`, `relations[0].to`).
pub fn validate(memories: &[PortableMemory], relations: &[PortableRelation]) -> Result<(), Error> {
    let mut seen = std::collections::HashSet::new();
    for (i, m) in memories.iter().enumerate() {
        let at = |e: Error| e.within(&format!("memories[{i}]"));
        super::validate(Some(&m.content), Some(&m.category), Some(m.confidence), Some(m.importance)).map_err(at)?;
        super::validate_time(Some(m.occurred_at)).map_err(at)?;
        if !seen.insert(m.id) {
            return Err(at(Error::validation("id", "two memories of the bundle have this id")));
        }
        if m.mention_count < 0 || m.access_count < 0 {
            return Err(at(Error::validation("mention_count", "counts must not be negative")));
        }
        if let Some(t) = &m.title {
            Error::check_length("title", t, 200).map_err(at)?;
        }
        if let Some(u) = &m.source_url {
            Error::check_length("source_url", u, 2048).map_err(at)?;
        }
        for (j, v) in m.history.iter().enumerate() {
            let at = |e: Error| e.within(&format!("memories[{i}].history[{j}]"));
            if !CHANGES.contains(&v.change.as_str()) {
                return Err(at(Error::validation("change", format!("change must be one of {}", CHANGES.join(", ")))));
            }
            if !ACTORS.contains(&v.actor_type.as_str()) {
                return Err(at(Error::validation(
                    "actor_type",
                    format!("actor_type must be one of {}", ACTORS.join(", ")),
                )));
            }
            if !v.snapshot.is_object() {
                return Err(at(Error::validation("snapshot", "snapshot must be an object")));
            }
            if v.version < 1 || m.history[..j].iter().any(|w| w.version == v.version) {
                return Err(at(Error::validation("version", "versions are positive and unique per memory")));
            }
            if let Some(r) = &v.reason {
                Error::check_length("reason", r, 1000).map_err(at)?;
            }
        }
    }
    for (i, r) in relations.iter().enumerate() {
        let at = |e: Error| e.within(&format!("relations[{i}]"));
        if !RELATION_KINDS.contains(&r.kind.as_str()) {
            return Err(at(Error::validation("kind", "kind must be updates, extends or derives")));
        }
        if !seen.contains(&r.from) {
            return Err(at(Error::validation("from", "no memory of the bundle has this id")));
        }
        if !seen.contains(&r.to) || r.from == r.to {
            return Err(at(Error::validation("to", "no other memory of the bundle has this id")));
        }
        if let Some(reason) = &r.reason {
            Error::check_length("reason", reason, 500).map_err(at)?;
        }
    }
    Ok(())
}

/// Stores validated memories (`validate`) under `agent` with their vectors (`(vector, model)`
/// per memory, `None` leaves it to the embedding job), history and relations, in the caller's
/// transaction. Returns how many memories were stored.
pub async fn restore(
    conn: &mut PgConnection,
    agent: AgentId,
    memories: &[PortableMemory],
    vectors: Vec<Option<(Vec<f32>, String)>>,
    relations: &[PortableRelation],
) -> sqlx::Result<usize> {
    static INSERT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "INSERT INTO agent_memories (id, agent_id, content, title, category, source, confidence, importance,
                mention_count, last_mentioned_at, expires_at, status, pinned, shareable, invalid_at, content_hash,
                embedding, embedding_model, knowledge_id, source_url, last_retrieved_at, access_count, faded_at,
                occurred_at, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::vector, $18, $19, $20,
                $21, $22, $23, $24, $25, $26)
             RETURNING {COLUMNS}"
        )
    });
    let mut ids: HashMap<Uuid, MemoryId> = HashMap::with_capacity(memories.len());
    // Knowledge entries get new ids too, one per entry.
    let mut entries: HashMap<Uuid, Uuid> = HashMap::new();
    for (m, v) in memories.iter().zip(vectors) {
        let id = MemoryId(Uuid::now_v7());
        let (vector, model) = match v {
            Some((v, model)) => (Some(super::vector::param(&v)), Some(model)),
            None => (None, None),
        };
        let knowledge = m.knowledge_id.map(|k| *entries.entry(k).or_insert_with(Uuid::now_v7));
        let stored: Memory = sqlx::query_as(&INSERT)
            .bind(id)
            .bind(agent)
            .bind(m.content.trim())
            .bind(&m.title)
            .bind(&m.category)
            .bind(m.source.as_str())
            .bind(m.confidence)
            .bind(m.importance)
            .bind(m.mention_count)
            .bind(m.last_mentioned_at)
            .bind(m.expires_at)
            .bind(m.status.as_str())
            .bind(m.pinned)
            .bind(m.shareable)
            .bind(m.invalid_at)
            .bind(super::content_hash(&m.content))
            .bind(vector)
            .bind(model)
            .bind(knowledge)
            .bind(&m.source_url)
            .bind(m.last_retrieved_at)
            .bind(m.access_count)
            .bind(m.faded_at)
            .bind(m.occurred_at)
            .bind(m.created_at)
            .bind(m.updated_at)
            .fetch_one(&mut *conn)
            .await?;
        super::terms::sync(conn, &stored).await?;
        for v in &m.history {
            let mut snapshot = v.snapshot.clone();
            snapshot["id"] = serde_json::json!(id);
            snapshot["agent_id"] = serde_json::json!(agent);
            if let Some(k) = knowledge {
                snapshot["knowledge_id"] = serde_json::json!(k);
            }
            sqlx::query(
                "INSERT INTO memory_versions (id, memory_id, agent_id, version, change, snapshot, actor_type, reason, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(Uuid::now_v7())
            .bind(id)
            .bind(agent)
            .bind(v.version)
            .bind(&v.change)
            .bind(snapshot)
            .bind(&v.actor_type)
            .bind(&v.reason)
            .bind(v.created_at)
            .execute(&mut *conn)
            .await?;
        }
        ids.insert(m.id, id);
    }
    for r in relations {
        sqlx::query(
            "INSERT INTO memory_relations (agent_id, from_id, to_id, kind, reason, created_at)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
        )
        .bind(agent)
        .bind(ids[&r.from])
        .bind(ids[&r.to])
        .bind(&r.kind)
        .bind(&r.reason)
        .bind(r.created_at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(memories.len())
}
