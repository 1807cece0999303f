//! Jobs that carry what a person said (SPEC H2): when an end user is erased, the agent's jobs
//! whose payload or result names one of their conversations, messages or memories go too (a
//! running one finishes on rows that are gone).

use miniclaw_core::ids::AgentId;
use uuid::Uuid;

/// Deletes the agent's jobs that are not running and name any of `ids`; returns how many.
pub async fn forget_mentions(conn: &mut sqlx::PgConnection, agent: AgentId, ids: &[Uuid]) -> sqlx::Result<u64> {
    if ids.is_empty() {
        return Ok(0);
    }
    let needles: Vec<String> = ids.iter().map(|id| format!("%{id}%")).collect();
    Ok(sqlx::query!(
        "DELETE FROM jobs WHERE agent_id = $1 AND status <> 'running'
            AND (payload::text LIKE ANY($2) OR coalesce(result::text, '') LIKE ANY($2))",
        agent as _,
        &needles
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}
