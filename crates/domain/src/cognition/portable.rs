//! What cognition holds of an agent as it travels in an agent bundle (`crate::bundle`): the
//! soul with every version, the compiled dossier and the tasks. Restoring keeps versions,
//! states and dates as they were; a task's link to the reflection that set it does not travel
//! (reflections stay where they were made).

use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::soul;
use super::tasks::{self, DETAIL_MAX, TITLE_MAX};

/// One version of the soul.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortableSoulVersion {
    pub version: i32,
    pub content: String,
    /// owner, api_key, job, admin, system.
    pub actor_type: String,
    #[serde(default)]
    pub reason: Option<String>,
    /// How it was let in: `first`, `owner`, `similar`, `guard` (or `jaccard`, `import`).
    pub accepted_by: String,
    pub created_at: DateTime<Utc>,
}

/// The compiled dossier.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortableDossier {
    pub content: String,
    pub compiled_at: DateTime<Utc>,
    #[serde(default)]
    pub memories: i32,
    #[serde(default)]
    pub input_chars: i32,
    #[serde(default)]
    pub words: i32,
    pub engine: String,
    pub model: String,
}

/// One task.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortableTask {
    pub title: String,
    #[serde(default)]
    pub detail: Option<String>,
    /// pending, approved, in_progress, done, rejected.
    pub status: String,
    /// reflection, owner or agent.
    pub source: String,
    #[serde(default)]
    pub due_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const STATUSES: [&str; 5] = ["pending", "approved", "in_progress", "done", "rejected"];
const SOURCES: [&str; 3] = ["reflection", "owner", "agent"];
const ACTORS: [&str; 5] = ["owner", "api_key", "job", "admin", "system"];

/// The soul's versions (oldest first), the dossier and the tasks (oldest first).
pub async fn export(
    pool: &PgPool,
    agent: AgentId,
) -> sqlx::Result<(Vec<PortableSoulVersion>, Option<PortableDossier>, Vec<PortableTask>)> {
    let souls = sqlx::query_as::<_, (i32, String, String, Option<String>, String, DateTime<Utc>)>(
        "SELECT version, content, actor_type, reason, accepted_by, created_at FROM agent_souls
          WHERE agent_id = $1 ORDER BY version",
    )
    .bind(agent)
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|(version, content, actor_type, reason, accepted_by, created_at)| PortableSoulVersion {
        version,
        content,
        actor_type,
        reason,
        accepted_by,
        created_at,
    })
    .collect();
    let dossier = sqlx::query_as::<_, (String, DateTime<Utc>, i32, i32, i32, String, String)>(
        "SELECT content, compiled_at, memories, input_chars, words, engine, model FROM agent_dossiers WHERE agent_id = $1",
    )
    .bind(agent)
    .fetch_optional(pool)
    .await?
    .map(|(content, compiled_at, memories, input_chars, words, engine, model)| PortableDossier {
        content,
        compiled_at,
        memories,
        input_chars,
        words,
        engine,
        model,
    });
    let tasks = sqlx::query_as::<_, tasks::Task>(
        "SELECT id, title, detail, status, source, reflection_id, due_at, reason, created_at, updated_at
           FROM agent_tasks WHERE agent_id = $1 ORDER BY created_at, id",
    )
    .bind(agent)
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|t| PortableTask {
        title: t.title,
        detail: t.detail,
        status: t.status,
        source: t.source,
        due_at: t.due_at,
        reason: t.reason,
        created_at: t.created_at,
        updated_at: t.updated_at,
    })
    .collect();
    Ok((souls, dossier, tasks))
}

/// Checks the soul's versions (none for an agent that has no soul yet; each one a soul the
/// platform would accept), the
/// dossier and the tasks; the error names the first bad field.
pub fn validate(
    souls: &[PortableSoulVersion],
    dossier: Option<&PortableDossier>,
    tasks: &[PortableTask],
) -> Result<(), Error> {
    for (i, s) in souls.iter().enumerate() {
        let at = |e: Error| e.within(&format!("soul[{i}]"));
        soul::validate(&s.content).map_err(at)?;
        if s.version < 1 || souls[..i].iter().any(|o| o.version >= s.version) {
            return Err(at(Error::validation("version", "versions are positive and increasing")));
        }
        if !ACTORS.contains(&s.actor_type.as_str()) {
            return Err(at(Error::validation(
                "actor_type",
                format!("actor_type must be one of {}", ACTORS.join(", ")),
            )));
        }
        Error::check_length("accepted_by", &s.accepted_by, 32).map_err(at)?;
        if let Some(r) = &s.reason {
            Error::check_length("reason", r, 1000).map_err(at)?;
        }
    }
    if let Some(d) = dossier {
        Error::check_length("dossier.content", &d.content, 20_000)?;
        Error::check_length("dossier.engine", &d.engine, 64)?;
        Error::check_length("dossier.model", &d.model, 200)?;
    }
    for (i, t) in tasks.iter().enumerate() {
        let at = |e: Error| e.within(&format!("tasks[{i}]"));
        if t.title.trim().is_empty() {
            return Err(at(Error::validation("title", "title must not be empty")));
        }
        Error::check_length("title", &t.title, TITLE_MAX).map_err(at)?;
        if let Some(d) = &t.detail {
            Error::check_length("detail", d, DETAIL_MAX).map_err(at)?;
        }
        if !STATUSES.contains(&t.status.as_str()) {
            return Err(at(Error::validation("status", format!("status must be one of {}", STATUSES.join(", ")))));
        }
        if !SOURCES.contains(&t.source.as_str()) {
            return Err(at(Error::validation("source", "source must be reflection, owner or agent")));
        }
        if let Some(r) = &t.reason {
            Error::check_length("reason", r, 1000).map_err(at)?;
        }
    }
    Ok(())
}

/// Stores validated soul versions, dossier and tasks under `agent`, in the caller's transaction.
pub async fn restore(
    conn: &mut PgConnection,
    agent: AgentId,
    souls: &[PortableSoulVersion],
    dossier: Option<&PortableDossier>,
    tasks: &[PortableTask],
) -> sqlx::Result<()> {
    for s in souls {
        sqlx::query(
            "INSERT INTO agent_souls (agent_id, version, content, actor_type, reason, accepted_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(agent)
        .bind(s.version)
        .bind(s.content.trim())
        .bind(&s.actor_type)
        .bind(&s.reason)
        .bind(&s.accepted_by)
        .bind(s.created_at)
        .execute(&mut *conn)
        .await?;
    }
    if let Some(d) = dossier {
        sqlx::query(
            "INSERT INTO agent_dossiers (agent_id, content, compiled_at, memories, input_chars, words, engine, model)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(agent)
        .bind(&d.content)
        .bind(d.compiled_at)
        .bind(d.memories)
        .bind(d.input_chars)
        .bind(d.words)
        .bind(&d.engine)
        .bind(&d.model)
        .execute(&mut *conn)
        .await?;
    }
    for t in tasks {
        sqlx::query(
            "INSERT INTO agent_tasks (id, agent_id, title, detail, status, source, due_at, reason, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(Uuid::now_v7())
        .bind(agent)
        .bind(t.title.trim())
        .bind(&t.detail)
        .bind(&t.status)
        .bind(&t.source)
        .bind(t.due_at)
        .bind(&t.reason)
        .bind(t.created_at)
        .bind(t.updated_at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}
