//! One end user's part of an agent's memory (SPEC H2): what was learned from them, with its
//! history, for an export; and all of it erased — the memories, every version snapshot, their
//! tombstones, their search postings (and the term statistics they alone made), their
//! vectors, the hygiene notes that quote them and the search events of their conversations.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::AgentId;
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{Memory, query_memories};

/// One memory learned from the end user, with every version of it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MemoryOfPerson {
    pub memory: Memory,
    pub history: Vec<VersionOut>,
}

/// One version of a memory, as an export carries it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VersionOut {
    pub version: i32,
    pub change: String,
    #[schema(value_type = Object)]
    pub snapshot: serde_json::Value,
    pub created_at: DateTime<Utc>,
}

/// Every memory of the agent learned from `end_user`, oldest first, with its history.
pub async fn export(pool: &PgPool, agent: AgentId, end_user: &str) -> sqlx::Result<Vec<MemoryOfPerson>> {
    let memories = query_memories!(
        "SELECT",
        "FROM agent_memories WHERE agent_id = $1 AND end_user = $2 ORDER BY created_at, id",
        agent as _,
        end_user
    )
    .fetch_all(pool)
    .await?;
    let ids: Vec<Uuid> = memories.iter().map(|m| m.id.uuid()).collect();
    let versions = sqlx::query!(
        "SELECT memory_id, version, change, snapshot, created_at FROM memory_versions
          WHERE agent_id = $1 AND memory_id = ANY($2) ORDER BY memory_id, version",
        agent as _,
        &ids
    )
    .fetch_all(pool)
    .await?;
    let mut out: Vec<MemoryOfPerson> =
        memories.into_iter().map(|memory| MemoryOfPerson { memory, history: Vec::new() }).collect();
    for v in versions {
        if let Some(m) = out.iter_mut().find(|m| m.memory.id.uuid() == v.memory_id) {
            m.history.push(VersionOut {
                version: v.version,
                change: v.change,
                snapshot: v.snapshot,
                created_at: v.created_at,
            });
        }
    }
    Ok(out)
}

/// What erasing an end user took out of memory: the memories' ids (for the other areas to
/// erase what names them) and counts.
#[derive(Debug, Clone, Default)]
pub struct MemoryErased {
    pub ids: Vec<Uuid>,
    pub versions: u64,
    pub tombstones: u64,
}

/// Erases everything the agent's memory holds of `end_user` (whose conversations were
/// `conversations`), inside the caller's transaction.
pub async fn erase(
    conn: &mut PgConnection,
    agent: AgentId,
    end_user: &str,
    conversations: &[Uuid],
) -> sqlx::Result<MemoryErased> {
    let rows = query_memories!(
        "SELECT",
        "FROM agent_memories WHERE agent_id = $1 AND end_user = $2 ORDER BY id FOR UPDATE",
        agent as _,
        end_user
    )
    .fetch_all(&mut *conn)
    .await?;
    for m in &rows {
        super::terms::remove(conn, m).await?;
    }
    let ids: Vec<Uuid> = rows.iter().map(|m| m.id.uuid()).collect();
    let contents: Vec<String> = rows.iter().map(|m| m.content.clone()).collect();
    // Versions of their memories, and any version whose snapshot names them (a memory moved
    // between people keeps no copy of what it was).
    let versions = sqlx::query!(
        "DELETE FROM memory_versions WHERE agent_id = $1 AND (memory_id = ANY($2) OR snapshot->>'end_user' = $3)",
        agent as _,
        &ids,
        end_user
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    // Their postings, relations and graph edges go with the rows.
    sqlx::query!("DELETE FROM agent_memories WHERE agent_id = $1 AND id = ANY($2)", agent as _, &ids)
        .execute(&mut *conn)
        .await?;
    let tombstones = sqlx::query!(
        "DELETE FROM memory_tombstones WHERE agent_id = $1 AND (end_user = $2 OR content = ANY($3))",
        agent as _,
        end_user,
        &contents
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    sqlx::query!("DELETE FROM memory_hygiene_events WHERE agent_id = $1 AND content = ANY($2)", agent as _, &contents)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "DELETE FROM memory_access_events WHERE agent_id = $1 AND (conversation_id = ANY($2) OR memory_ids && $3)",
        agent as _,
        conversations,
        &ids
    )
    .execute(&mut *conn)
    .await?;
    // A term only their memories used leaves no trace in the statistics either.
    sqlx::query!("DELETE FROM memory_term_stats WHERE agent_id = $1 AND df <= 0", agent as _)
        .execute(&mut *conn)
        .await?;
    super::hits::forget(conn, &[agent]).await?;
    Ok(MemoryErased { ids, versions, tombstones })
}
