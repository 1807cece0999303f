//! Tenant-scoped storage of agents: create (with its recurring cycles), list, get, update
//! and delete, each recorded in the activity log in the caller's transaction.

use crate::ids::{AgentId, TenantId};
use sqlx::{PgConnection, PgPool};

use super::Agent;
use super::settings::{AgentInput, Settings};
use crate::activity::{self, Origin};
use crate::error::ApiError;
use crate::jobs::{Registry, schedule};

/// The columns an `Agent` is read from, for statements that return one.
pub(crate) const COLUMNS: &str = "id, name, persona, emoji, tier, premium_model, daily_token_budget, outreach_enabled,
    outreach_auto_reply_confidence, notification_mode, proactiveness, quiet_hours, timezone, active,
    evm_address, ed25519_public_key, created_at, updated_at";

/// Validates `input` (name required), stores a new agent, schedules its recurring cycles and
/// records the creation — all in the caller's transaction.
pub async fn create(
    conn: &mut PgConnection,
    registry: &Registry,
    tenant_id: TenantId,
    origin: &Origin,
    input: AgentInput,
) -> Result<Agent, ApiError> {
    if input.name.as_deref().is_none_or(|n| n.trim().is_empty()) {
        return Err(ApiError::validation("name", "name is required"));
    }
    let s = Settings::defaults().apply(input)?;
    let agent = sqlx::query_as(&format!(
        "INSERT INTO agents (id, tenant_id, name, persona, emoji, tier, premium_model, daily_token_budget,
            outreach_enabled, outreach_auto_reply_confidence, notification_mode, proactiveness, quiet_hours,
            timezone, active, evm_address, ed25519_public_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         RETURNING {COLUMNS}"
    ))
    .bind(AgentId::new())
    .bind(tenant_id)
    .bind_settings(&s)
    .fetch_one(&mut *conn)
    .await?;
    let agent: Agent = agent;
    schedule::ensure_agent(conn, registry, agent.id).await?;
    let details = serde_json::json!({ "name": agent.name });
    activity::record_agent(conn, tenant_id, agent.id, origin, "agent.created", details).await?;
    Ok(agent)
}

/// Binds the settings' fifteen columns in the order `create` and `update` list them.
trait BindSettings {
    fn bind_settings(self, s: &Settings) -> Self;
}

impl<'q, O> BindSettings for sqlx::query::QueryAs<'q, sqlx::Postgres, O, sqlx::postgres::PgArguments> {
    fn bind_settings(self, s: &Settings) -> Self {
        self.bind(s.name.clone())
            .bind(s.persona.clone())
            .bind(s.emoji.clone())
            .bind(s.tier.clone())
            .bind(s.premium_model.clone())
            .bind(s.daily_token_budget)
            .bind(s.outreach_enabled)
            .bind(s.outreach_auto_reply_confidence)
            .bind(s.notification_mode.clone())
            .bind(s.proactiveness.clone())
            .bind(s.quiet_hours.clone().map(sqlx::types::Json))
            .bind(s.timezone.clone())
            .bind(s.active)
            .bind(s.evm_address.clone())
            .bind(s.ed25519_public_key.clone())
    }
}

/// The tenant's agents, newest first.
pub async fn list(pool: &PgPool, tenant_id: TenantId) -> sqlx::Result<Vec<Agent>> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agents WHERE tenant_id = $1 ORDER BY created_at DESC"))
        .bind(tenant_id)
        .fetch_all(pool)
        .await
}

/// One of the tenant's agents; `None` if the tenant has no such agent.
/// The tenant an agent belongs to, for platform-level callers (the operator, the connect flow)
/// that address an agent by id alone; `None` when it does not exist.
pub async fn tenant_of(pool: &PgPool, id: AgentId) -> sqlx::Result<Option<TenantId>> {
    let tenant =
        sqlx::query_scalar!("SELECT tenant_id FROM agents WHERE id = $1", id as _).fetch_optional(pool).await?;
    Ok(tenant.map(TenantId))
}

pub async fn get(pool: &PgPool, tenant_id: TenantId, id: AgentId) -> sqlx::Result<Option<Agent>> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agents WHERE tenant_id = $1 AND id = $2"))
        .bind(tenant_id)
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// Applies a patch and records which settings changed; `None` if the tenant has no such agent.
pub async fn update(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    id: AgentId,
    origin: &Origin,
    input: AgentInput,
) -> Result<Option<Agent>, ApiError> {
    let before: Option<Agent> =
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM agents WHERE tenant_id = $1 AND id = $2 FOR UPDATE"))
            .bind(tenant_id)
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(before) = before else { return Ok(None) };
    let s = Settings::of(&before).apply(input)?;
    let after = sqlx::query_as(&format!(
        "UPDATE agents SET name = $3, persona = $4, emoji = $5, tier = $6, premium_model = $7, daily_token_budget = $8,
            outreach_enabled = $9, outreach_auto_reply_confidence = $10, notification_mode = $11, proactiveness = $12,
            quiet_hours = $13, timezone = $14, active = $15, evm_address = $16, ed25519_public_key = $17, updated_at = now()
         WHERE tenant_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(tenant_id)
    .bind(id)
    .bind_settings(&s)
    .fetch_one(&mut *conn)
    .await?;
    let changed = changed_fields(&before, &after);
    if !changed.is_empty() {
        activity::record_agent(conn, tenant_id, id, origin, "agent.updated", serde_json::json!({ "fields": changed }))
            .await?;
    }
    Ok(Some(after))
}

/// Deletes the agent and everything of it (rows cascade; queue rows are removed here) and
/// records that in the tenant's log, which outlives the agent.
pub async fn delete(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    id: AgentId,
    origin: &Origin,
) -> sqlx::Result<Option<Agent>> {
    let gone: Option<Agent> =
        sqlx::query_as(&format!("DELETE FROM agents WHERE tenant_id = $1 AND id = $2 RETURNING {COLUMNS}"))
            .bind(tenant_id)
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    if gone.is_some() {
        sqlx::query("DELETE FROM job_schedules WHERE agent_id = $1").bind(id).execute(&mut *conn).await?;
        sqlx::query("DELETE FROM jobs WHERE agent_id = $1 AND status IN ('queued', 'dead', 'done')")
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    if let Some(a) = &gone {
        activity::record_tenant(
            conn,
            tenant_id,
            Some(id),
            origin,
            "agent.deleted",
            serde_json::json!({ "name": a.name }),
        )
        .await?;
    }
    Ok(gone)
}

/// Names of the settings that differ, for the activity log.
fn changed_fields(before: &Agent, after: &Agent) -> Vec<&'static str> {
    let (b, a) = (serde_json::to_value(before).unwrap_or_default(), serde_json::to_value(after).unwrap_or_default());
    const FIELDS: [&str; 15] = [
        "name",
        "persona",
        "emoji",
        "tier",
        "premium_model",
        "daily_token_budget",
        "outreach_enabled",
        "outreach_auto_reply_confidence",
        "notification_mode",
        "proactiveness",
        "quiet_hours",
        "timezone",
        "active",
        "evm_address",
        "ed25519_public_key",
    ];
    FIELDS.into_iter().filter(|f| b.get(f) != a.get(f)).collect()
}
