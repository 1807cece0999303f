//! The agent's tasks (SPEC C2, S3): strategic tasks set by deep reflection, read by the API,
//! the dashboard and the next reflection.

use crate::ids::AgentId;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

#[derive(Debug, Clone, serde::Serialize, sqlx::FromRow, ToSchema)]
pub struct Task {
    pub id: Uuid,
    pub title: String,
    pub detail: Option<String>,
    /// open, done, dropped
    pub status: String,
    /// Where it came from, e.g. `reflection`.
    pub source: String,
    pub reflection_id: Option<Uuid>,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// The agent's tasks, open ones first, newest first: `limit` of them, after task `before` in
/// that order if given.
pub async fn list(pool: &PgPool, agent_id: AgentId, limit: i64, before: Option<Uuid>) -> sqlx::Result<Vec<Task>> {
    sqlx::query_as!(
        Task,
        "SELECT id, title, detail, status, source, reflection_id, created_at FROM agent_tasks
          WHERE agent_id = $1
            AND ($3::uuid IS NULL OR (status = 'open', created_at, id)
                 < (SELECT p.status = 'open', p.created_at, p.id FROM agent_tasks p WHERE p.agent_id = $1 AND p.id = $3))
          ORDER BY status = 'open' DESC, created_at DESC, id DESC LIMIT $2",
        agent_id as _,
        limit,
        before
    )
    .fetch_all(pool)
    .await
}
