//! Tenant-scoped storage of agents: create (with its recurring cycles), list, get, update
//! and delete, each recorded in the activity log in the caller's transaction.

use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::llm::Gateway;
use sqlx::{PgConnection, PgPool};

use super::Agent;
use super::settings::{AgentInput, Settings};
use miniclaw_core::Error;
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::jobs::{Registry, schedule};

/// The columns an `Agent` is read from, for statements that return one.
pub(crate) const COLUMNS: &str = concat!(
    "id, name, persona, emoji, tier, premium_model, daily_token_budget, outreach_enabled,
    outreach_auto_reply_confidence, notification_mode, proactiveness, quiet_hours, timezone, active,
    evm_address, ed25519_public_key, connect_scopes, created_at, updated_at, ",
    crate::verification_summary_sql!()
);

/// Validates `input` (name required), stores a new agent, schedules its recurring cycles and
/// records the creation — all in the caller's transaction. A tenant has at most `max_agents`
/// (deleted ones awaiting their purge count): 409 beyond.
pub async fn create(
    conn: &mut PgConnection,
    registry: &Registry,
    llm: &Gateway,
    tenant_id: TenantId,
    origin: &Origin,
    input: AgentInput,
    max_agents: i64,
) -> Result<Agent, Error> {
    if input.name.as_deref().is_none_or(|n| n.trim().is_empty()) {
        return Err(Error::validation("name", "name is required"));
    }
    // The tenant row orders concurrent creations, so the count below cannot be raced past.
    if !crate::tenancy::accounts::lock_tenant(conn, tenant_id).await? {
        return Err(Error::not_found("tenant"));
    }
    let count = sqlx::query_scalar!(r#"SELECT count(*) AS "n!" FROM agents WHERE tenant_id = $1"#, tenant_id as _)
        .fetch_one(&mut *conn)
        .await?;
    if count >= max_agents {
        return Err(Error::Conflict(format!(
            "this account already has {count} agents, the most allowed (MINICLAW_AGENTS_PER_TENANT); delete one first"
        )));
    }
    let s = Settings::defaults().apply(input)?;
    s.check_model(llm)?;
    let agent = sqlx::query_as(&format!(
        "INSERT INTO agents (id, tenant_id, name, persona, emoji, tier, premium_model, daily_token_budget,
            outreach_enabled, outreach_auto_reply_confidence, notification_mode, proactiveness, quiet_hours,
            timezone, active, evm_address, ed25519_public_key, connect_scopes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
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

/// Binds the settings' sixteen columns in the order `create` and `update` list them.
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
            .bind(s.connect_scopes.clone())
    }
}

/// The tenant's agents, newest first: `limit` of them, created before agent `before` if given.
pub async fn list(pool: &PgPool, tenant_id: TenantId, limit: i64, before: Option<AgentId>) -> sqlx::Result<Vec<Agent>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM agents WHERE tenant_id = $1 AND deleted_at IS NULL
            AND ($3::uuid IS NULL OR (created_at, id) < (SELECT created_at, id FROM agents WHERE tenant_id = $1 AND id = $3))
          ORDER BY created_at DESC, id DESC LIMIT $2"
    ))
    .bind(tenant_id)
    .bind(limit)
    .bind(before)
    .fetch_all(pool)
    .await
}

/// The tenant an agent belongs to, for platform-level callers (the operator, the connect flow)
/// that address an agent by id alone; `None` when it does not exist.
pub async fn tenant_of<'e>(db: impl sqlx::PgExecutor<'e>, id: AgentId) -> sqlx::Result<Option<TenantId>> {
    let tenant = sqlx::query_scalar!("SELECT tenant_id FROM agents WHERE id = $1 AND deleted_at IS NULL", id as _)
        .fetch_optional(db)
        .await?;
    Ok(tenant.map(TenantId))
}

/// `get`, answered from the process's cache when it holds the row (SPEC B3; `auth::cache`).
pub async fn get_cached(pool: &PgPool, tenant_id: TenantId, id: AgentId) -> sqlx::Result<Option<Agent>> {
    let cache = crate::tenancy::auth::cache::cache();
    if let Some(agent) = cache.agent(tenant_id, id) {
        return Ok(Some(agent));
    }
    let generation = cache.generation();
    let agent = get(pool, tenant_id, id).await?;
    if let Some(a) = &agent {
        cache.put_agent(generation, tenant_id, a.clone());
    }
    Ok(agent)
}

/// One of the tenant's agents; `None` if the tenant has no such agent.
pub async fn get<'e>(db: impl sqlx::PgExecutor<'e>, tenant_id: TenantId, id: AgentId) -> sqlx::Result<Option<Agent>> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agents WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL"))
        .bind(tenant_id)
        .bind(id)
        .fetch_optional(db)
        .await
}

/// Applies a patch and records which settings changed; `None` if the tenant has no such agent.
pub async fn update(
    conn: &mut PgConnection,
    llm: &Gateway,
    tenant_id: TenantId,
    id: AgentId,
    origin: &Origin,
    input: AgentInput,
) -> Result<Option<Agent>, Error> {
    let before: Option<Agent> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM agents WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE"
    ))
    .bind(tenant_id)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(before) = before else { return Ok(None) };
    let changes_model = input.premium_model.is_some() || input.tier.is_some();
    let s = Settings::of(&before).apply(input)?;
    if changes_model {
        s.check_model(llm)?;
    }
    let after = sqlx::query_as(&format!(
        "UPDATE agents SET name = $3, persona = $4, emoji = $5, tier = $6, premium_model = $7, daily_token_budget = $8,
            outreach_enabled = $9, outreach_auto_reply_confidence = $10, notification_mode = $11, proactiveness = $12,
            quiet_hours = $13, timezone = $14, active = $15, evm_address = $16, ed25519_public_key = $17,
            connect_scopes = $18, updated_at = now()
         WHERE tenant_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(tenant_id)
    .bind(id)
    .bind_settings(&s)
    .fetch_one(&mut *conn)
    .await?;
    crate::tenancy::auth::cache::cache().forget_agent_row(id);
    let changed = changed_fields(&before, &after);
    if !changed.is_empty() {
        activity::record_agent(conn, tenant_id, id, origin, "agent.updated", serde_json::json!({ "fields": changed }))
            .await?;
    }
    // The registration file shows these: a registered identity is refreshed on chain.
    if changed.iter().any(|f| matches!(*f, "name" | "persona" | "active" | "outreach_enabled")) {
        crate::onchain::identity::profile_changed(conn, id).await?;
    }
    Ok(Some(after))
}

/// Deletes the agent: it disappears at once (its keys stop working, its cycles stop) and is
/// purged with everything of it `retention_days` later by `purge_deleted`; until then its owner
/// can `restore` it. Recorded in the tenant's log, which outlives it.
pub async fn delete(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    id: AgentId,
    origin: &Origin,
    retention_days: u32,
) -> sqlx::Result<Option<Agent>> {
    let gone: Option<Agent> = sqlx::query_as(&format!(
        "UPDATE agents SET deleted_at = now() WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
         RETURNING {COLUMNS}"
    ))
    .bind(tenant_id)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(agent) = gone else { return Ok(None) };
    // Its keys stop working in every process.
    crate::tenancy::auth::cache::announce(conn, format!("agent:{}", id.0)).await?;
    miniclaw_platform::jobs::queue::forget_agent(conn, id).await?;
    let purge_after = chrono::Utc::now() + chrono::Duration::days(i64::from(retention_days));
    let details = serde_json::json!({ "name": agent.name, "purge_after": purge_after });
    // In the tenant's log only: the agent's own is copied there at the purge.
    activity::record_tenant(conn, tenant_id, Some(id), origin, "agent.deleted", details).await?;
    Ok(Some(agent))
}

/// Brings back an agent deleted less than `retention_days` ago, with its cycles; `None` if the
/// tenant has no such deleted agent.
pub async fn restore(
    conn: &mut PgConnection,
    registry: &Registry,
    tenant_id: TenantId,
    id: AgentId,
    origin: &Origin,
    retention_days: u32,
) -> sqlx::Result<Option<Agent>> {
    let back: Option<Agent> = sqlx::query_as(&format!(
        "UPDATE agents SET deleted_at = NULL
          WHERE tenant_id = $1 AND id = $2 AND deleted_at > now() - make_interval(days => $3)
         RETURNING {COLUMNS}"
    ))
    .bind(tenant_id)
    .bind(id)
    .bind(retention_days as i32)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(agent) = back else { return Ok(None) };
    crate::tenancy::auth::cache::cache().forget_agent_row(id);
    schedule::ensure_agent(conn, registry, id).await?;
    let details = serde_json::json!({ "name": agent.name });
    activity::record_tenant(conn, tenant_id, Some(id), origin, "agent.restored", details).await?;
    Ok(Some(agent))
}

/// Purges agents deleted more than `retention_days` ago, each in its own transaction: the
/// agent's activity log is copied into its tenant's (so the trail outlives the agent), then the
/// agent and everything of it go (rows cascade). Returns how many were purged.
pub async fn purge_deleted(pool: &PgPool, retention_days: u32) -> sqlx::Result<u64> {
    let due = sqlx::query!(
        "SELECT id, tenant_id, name FROM agents WHERE deleted_at < now() - make_interval(days => $1) LIMIT 100",
        retention_days as i32
    )
    .fetch_all(pool)
    .await?;
    let mut purged = 0;
    for a in due {
        let mut tx = pool.begin().await?;
        activity::keep_agent_log(&mut tx, AgentId(a.id)).await?;
        let deleted = sqlx::query!("DELETE FROM agents WHERE id = $1 AND deleted_at IS NOT NULL", a.id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if deleted == 1 {
            miniclaw_platform::jobs::queue::purge_agent(&mut tx, AgentId(a.id)).await?;
            let origin = Origin::new(crate::tenancy::auth::Actor::System, None);
            let details = serde_json::json!({ "name": a.name });
            activity::record_tenant(
                &mut tx,
                TenantId(a.tenant_id),
                Some(AgentId(a.id)),
                &origin,
                "agent.purged",
                details,
            )
            .await?;
            purged += 1;
        }
        tx.commit().await?;
    }
    Ok(purged)
}

/// Names of the settings that differ, for the activity log.
fn changed_fields(before: &Agent, after: &Agent) -> Vec<&'static str> {
    let (b, a) = (serde_json::to_value(before).unwrap_or_default(), serde_json::to_value(after).unwrap_or_default());
    const FIELDS: [&str; 16] = [
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
        "connect_scopes",
    ];
    FIELDS.into_iter().filter(|f| b.get(f) != a.get(f)).collect()
}

/// An agent by its id alone (not deleted), for the platform's own callers that hold an agent
/// id from their rows (jobs, webhooks, notifications) rather than from a tenant's request.
pub async fn by_id<'e>(db: impl sqlx::PgExecutor<'e>, id: AgentId) -> sqlx::Result<Option<Agent>> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agents WHERE id = $1 AND deleted_at IS NULL"))
        .bind(id)
        .fetch_optional(db)
        .await
}

/// The tenant and the name of a live agent, for callers holding its id alone (an email's sender).
pub async fn tenant_and_name<'e>(
    db: impl sqlx::PgExecutor<'e>,
    id: AgentId,
) -> sqlx::Result<Option<(TenantId, String)>> {
    let row = sqlx::query!("SELECT tenant_id, name FROM agents WHERE id = $1 AND deleted_at IS NULL", id as _)
        .fetch_optional(db)
        .await?;
    Ok(row.map(|r| (TenantId(r.tenant_id), r.name)))
}

/// Live agents other than `except` whose id is `id` or whose name is `name` (case-blind), the
/// tenant's own first: (id, name, whether it is the tenant's), at most ten.
pub async fn named(
    pool: &PgPool,
    tenant: TenantId,
    except: AgentId,
    id: Option<uuid::Uuid>,
    name: &str,
) -> sqlx::Result<Vec<(AgentId, String, bool)>> {
    let rows = sqlx::query!(
        r#"SELECT id, name, tenant_id = $1 AS "own!" FROM agents
            WHERE deleted_at IS NULL AND id <> $2 AND (id = $3 OR lower(name) = lower($4))
            ORDER BY (tenant_id = $1) DESC, id LIMIT 10"#,
        tenant as _,
        except as _,
        id,
        name
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|r| (AgentId(r.id), r.name, r.own)).collect())
}

/// Whether the agent is live and not paused.
pub async fn is_active<'e>(db: impl sqlx::PgExecutor<'e>, id: AgentId) -> sqlx::Result<bool> {
    let active = sqlx::query_scalar!("SELECT active FROM agents WHERE id = $1 AND deleted_at IS NULL", id as _)
        .fetch_optional(db)
        .await?;
    Ok(active == Some(true))
}

/// Turns the agent's proactiveness dial down to `conservative` (its owner said "stop"), in the
/// caller's transaction; whether it was higher.
pub async fn set_conservative(conn: &mut PgConnection, id: AgentId) -> sqlx::Result<bool> {
    let turned = sqlx::query!(
        "UPDATE agents SET proactiveness = 'conservative', updated_at = now()
          WHERE id = $1 AND proactiveness <> 'conservative'",
        id as _
    )
    .execute(conn)
    .await?
    .rows_affected()
        > 0;
    crate::tenancy::auth::cache::cache().forget_agent_row(id);
    Ok(turned)
}

/// Locks the agent's row until the transaction ends, so that one agent's writers of a kind run
/// one after the other; `false` when there is no such agent.
pub async fn lock(conn: &mut PgConnection, id: AgentId) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!("SELECT 1 AS locked FROM agents WHERE id = $1 FOR UPDATE", id as _)
        .fetch_optional(conn)
        .await?
        .is_some())
}
