//! The append-only activity log (SPEC A7): every state change of an agent with its actor and
//! request id, plus tenant-level events that outlive agents (signup, agent deleted).

use chrono::{DateTime, Utc};
use miniclaw_core::ids::{AgentId, TenantId};
use serde::Serialize;
use sqlx::PgConnection;
use utoipa::ToSchema;
use uuid::Uuid;

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct ActivityEntry {
    pub id: Uuid,
    pub agent_id: Option<Uuid>,
    /// e.g. `agent.created`, `key.issued`, `key.revoked`, `agent.connected`.
    pub action: String,
    /// `owner`, `api_key`, `job`, `admin` or `system`.
    pub actor_type: String,
    pub actor_id: Option<String>,
    /// Who the member was (their address) when a member of the team acted
    /// (`team::name_actors`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor_name: Option<String>,
    pub request_id: Option<String>,
    #[schema(value_type = Object)]
    pub details: serde_json::Value,
    /// The verbatim error when the action failed.
    pub error: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// The longest `reason` a change may be given (soul versions, memory history), in characters.
pub const REASON_MAX: usize = 500;

pub use miniclaw_core::actor::Origin;

/// Records an agent event in the caller's transaction, so it exists exactly when the change does.
pub async fn record_agent(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    action: &str,
    details: serde_json::Value,
) -> sqlx::Result<()> {
    insert_agent(conn, tenant_id, agent_id, origin, action, details, None).await
}

/// Records a failed agent action with its verbatim error.
pub async fn record_agent_error(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    action: &str,
    details: serde_json::Value,
    error: &str,
) -> sqlx::Result<()> {
    insert_agent(conn, tenant_id, agent_id, origin, action, details, Some(error)).await
}

async fn insert_agent(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    action: &str,
    details: serde_json::Value,
    error: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO agent_activity (agent_id, id, tenant_id, action, actor_type, actor_id, request_id, details, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        agent_id as _,
        Uuid::now_v7(),
        tenant_id as _,
        action,
        origin.actor.kind(),
        origin.actor.id(),
        origin.request_id.as_deref(),
        details,
        error
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// An agent event as an SQL statement, for a statement that records it beside the change it
/// describes (the table stays this module's): one row when `guard` holds. Every argument is an
/// SQL expression; `id` should be a time-ordered id (the log is read newest first by id), and
/// the row is left out when `tenant` is NULL (an agent already gone).
#[expect(clippy::too_many_arguments, reason = "the columns of one row, each an SQL expression")]
pub fn record_sql(
    id: &str,
    agent: &str,
    tenant: &str,
    action: &str,
    actor_type: &str,
    actor_id: &str,
    request_id: &str,
    details: &str,
    guard: &str,
) -> String {
    format!(
        "INSERT INTO agent_activity (agent_id, id, tenant_id, action, actor_type, actor_id, request_id, details)
         SELECT {agent}, {id}, t.tenant, {action}, {actor_type}, {actor_id}, {request_id}, {details}
           FROM (SELECT {tenant} AS tenant) t WHERE t.tenant IS NOT NULL AND {guard}"
    )
}

/// Records a tenant-level event (it outlives any agent it mentions).
pub async fn record_tenant(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    agent_id: Option<AgentId>,
    origin: &Origin,
    action: &str,
    details: serde_json::Value,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO tenant_activity (agent_id, id, tenant_id, action, actor_type, actor_id, request_id, details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        agent_id as _,
        Uuid::now_v7(),
        tenant_id as _,
        action,
        origin.actor.kind(),
        origin.actor.id(),
        origin.request_id.as_deref(),
        details
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether anyone but a job acted on agent `agent` after `since` (SQL expressions; boolean): a
/// job's own writes do not wake the agent for the idle-gated cycles (X10).
pub fn acted_since_sql(agent: &str, since: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM agent_activity a
                  WHERE a.agent_id = {agent} AND a.created_at > {since} AND a.actor_type <> 'job')"
    )
}

/// Before an agent is purged, its log is kept in its tenant's (its entries, errors folded into
/// the details), in the caller's transaction.
pub async fn keep_agent_log(conn: &mut PgConnection, agent_id: AgentId) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO tenant_activity (tenant_id, id, agent_id, action, actor_type, actor_id, request_id, details, created_at)
         SELECT tenant_id, id, agent_id, action, actor_type, actor_id, request_id,
                details || jsonb_strip_nulls(jsonb_build_object('error', error)), created_at
           FROM agent_activity WHERE agent_id = $1
         ON CONFLICT DO NOTHING",
        agent_id as _
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The agent's log entries about an end user: naming them, or one of their conversations
/// (`conversations`), oldest first (an export's part of the log).
pub async fn about_end_user(
    pool: &sqlx::PgPool,
    agent_id: AgentId,
    end_user: &str,
    conversations: &[Uuid],
) -> sqlx::Result<Vec<ActivityEntry>> {
    let conversations: Vec<String> = conversations.iter().map(Uuid::to_string).collect();
    sqlx::query_as!(
        ActivityEntry,
        r#"SELECT id, agent_id AS "agent_id?", action, actor_type, actor_id, NULL::text AS "actor_name?", request_id,
                  details, error, created_at
             FROM agent_activity
            WHERE agent_id = $1 AND (details->>'end_user' = $2 OR details->>'conversation_id' = ANY($3))
            ORDER BY id"#,
        agent_id as _,
        end_user,
        &conversations
    )
    .fetch_all(pool)
    .await
}

/// An erased end user leaves the agent's log with counts only: entries about them keep their
/// action and time, their name becomes `[erased]` and the titles and texts of their
/// conversations go. Returns how many entries changed.
pub async fn scrub_end_user(
    conn: &mut PgConnection,
    agent_id: AgentId,
    end_user: &str,
    conversations: &[Uuid],
) -> sqlx::Result<u64> {
    let conversations: Vec<String> = conversations.iter().map(Uuid::to_string).collect();
    Ok(sqlx::query!(
        r#"UPDATE agent_activity
              SET details = (details - 'title' - 'content' - 'message' - 'preview')
                            || CASE WHEN details ? 'end_user' THEN '{"end_user": "[erased]"}'::jsonb ELSE '{}'::jsonb END
            WHERE agent_id = $1 AND (details->>'end_user' = $2 OR details->>'conversation_id' = ANY($3))"#,
        agent_id as _,
        end_user,
        &conversations
    )
    .execute(conn)
    .await?
    .rows_affected())
}

/// Newest first; `before` pages backwards (ids are time-ordered).
pub async fn list_agent(
    pool: &sqlx::PgPool,
    agent_id: AgentId,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<ActivityEntry>> {
    sqlx::query_as!(
        ActivityEntry,
        r#"SELECT id, agent_id AS "agent_id?", action, actor_type, actor_id, NULL::text AS "actor_name?", request_id,
                  details, error, created_at
             FROM agent_activity WHERE agent_id = $1 AND ($2::uuid IS NULL OR id < $2)
            ORDER BY id DESC LIMIT $3"#,
        agent_id as _,
        before,
        limit
    )
    .fetch_all(pool)
    .await
}

pub async fn list_tenant(
    pool: &sqlx::PgPool,
    tenant_id: TenantId,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<ActivityEntry>> {
    sqlx::query_as!(
        ActivityEntry,
        r#"SELECT id, agent_id, action, actor_type, actor_id, NULL::text AS "actor_name?", request_id, details,
                  NULL::text AS "error?", created_at
             FROM tenant_activity WHERE tenant_id = $1 AND ($2::uuid IS NULL OR id < $2)
            ORDER BY id DESC LIMIT $3"#,
        tenant_id as _,
        before,
        limit
    )
    .fetch_all(pool)
    .await
}
