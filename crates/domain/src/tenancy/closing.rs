//! Closing an account (SPEC H2): an owner asks (with their password), and the account stops at
//! once — every other session ends, its keys are refused (403 `account_closing`), its model
//! calls and jobs stop — but nothing is deleted yet: for the grace period
//! (`MINICLAW_ACCOUNT_GRACE_DAYS`, 14 days) an owner may sign in and reopen it. Then the
//! `account_purge` cycle deletes the tenant and everything it holds: its members, agents and
//! every agent's data (rows cascade), the agents' jobs and webhook deliveries, its usage rows.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId, UserId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::llm::budget;

use super::team::{self, Need};

pub const PURGE_CYCLE: &str = "account_purge";
pub const PURGE_DESCRIPTION: &str = "Deletes accounts whose owners closed them longer ago than the grace period.";

/// An account on its way out.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Closing {
    pub closing_at: DateTime<Utc>,
    /// When everything goes for good, unless an owner reopens it before.
    pub purge_after: DateTime<Utc>,
}

const SWITCH_REASON: &str = "the account is closing";

/// Whether tenant `tenant` (an SQL expression) is closing (boolean; NULL when there is none).
pub fn closing_sql(tenant: &str) -> String {
    format!("(SELECT closing_at IS NOT NULL FROM tenants WHERE id = {tenant})")
}

/// When the account is closing, and when it will be purged; `None` while it is open.
pub async fn state(pool: &PgPool, tenant: TenantId, grace_days: u32) -> sqlx::Result<Option<Closing>> {
    let at = sqlx::query_scalar!("SELECT closing_at FROM tenants WHERE id = $1", tenant as _)
        .fetch_optional(pool)
        .await?
        .flatten();
    Ok(at.map(|closing_at| Closing { closing_at, purge_after: closing_at + Duration::days(i64::from(grace_days)) }))
}

/// Closes the account (owners only; the password when the member has one). 409 when it is
/// closing already.
pub async fn close(
    pool: &PgPool,
    owner: UserId,
    tenant: TenantId,
    session: Uuid,
    origin: &Origin,
    password: Option<String>,
    grace_days: u32,
) -> Result<Closing, Error> {
    team::require(pool, owner, tenant, Need::Own).await?;
    super::passwords::confirm(pool, owner, tenant, password).await?;
    let mut tx = pool.begin().await?;
    let closing_at = sqlx::query_scalar!(
        "UPDATE tenants SET closing_at = now() WHERE id = $1 AND closing_at IS NULL RETURNING closing_at AS \"at!\"",
        tenant as _
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::Conflict("the account is closing already".into()))?;
    sqlx::query!(
        "UPDATE owner_sessions SET revoked_at = now() WHERE tenant_id = $1 AND id <> $2 AND revoked_at IS NULL",
        tenant as _,
        session
    )
    .execute(&mut *tx)
    .await?;
    let closing = Closing { closing_at, purge_after: closing_at + Duration::days(i64::from(grace_days)) };
    activity::record_tenant(
        &mut tx,
        tenant,
        None,
        origin,
        "account.closing",
        json!({ "purge_after": closing.purge_after }),
    )
    .await?;
    // Every process forgets the keys and sessions it holds.
    super::auth::cache::announce(&mut tx, "clear".into()).await?;
    tx.commit().await?;
    budget::kill(pool, Some(tenant), SWITCH_REASON).await?;
    Ok(closing)
}

/// Reopens a closing account (owners only): everything works again. 409 when it is open.
pub async fn reopen(pool: &PgPool, owner: UserId, tenant: TenantId, origin: &Origin) -> Result<(), Error> {
    team::require(pool, owner, tenant, Need::Own).await?;
    let mut tx = pool.begin().await?;
    let suspended = sqlx::query_scalar!(
        r#"UPDATE tenants SET closing_at = NULL WHERE id = $1 AND closing_at IS NOT NULL
           RETURNING suspended_at IS NOT NULL AS "suspended!""#,
        tenant as _
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::Conflict("the account is not closing".into()))?;
    activity::record_tenant(&mut tx, tenant, None, origin, "account.reopened", json!({})).await?;
    super::auth::cache::announce(&mut tx, "clear".into()).await?;
    tx.commit().await?;
    // A suspension by the operator stays in force.
    if !suspended {
        budget::revive(pool, Some(tenant)).await?;
    }
    sqlx::query("SELECT pg_notify($1, 'reopened')").bind(miniclaw_platform::jobs::NOTIFY_CHANNEL).execute(pool).await?;
    Ok(())
}

/// Deletes the accounts closed more than `grace_days` ago, each in its own transaction.
/// Returns how many went.
pub async fn purge_closed(pool: &PgPool, grace_days: u32) -> sqlx::Result<u64> {
    let due: Vec<Uuid> = sqlx::query_scalar!(
        "SELECT id FROM tenants WHERE closing_at < now() - make_interval(days => $1) ORDER BY closing_at LIMIT 20",
        grace_days as i32
    )
    .fetch_all(pool)
    .await?;
    let mut purged = 0;
    for tenant in due {
        let mut tx = pool.begin().await?;
        let agents: Vec<Uuid> =
            sqlx::query_scalar!("SELECT id FROM agents WHERE tenant_id = $1", tenant).fetch_all(&mut *tx).await?;
        for agent in &agents {
            miniclaw_platform::jobs::queue::purge_agent(&mut tx, AgentId(*agent)).await?;
            crate::channels::forget_agent(&mut tx, AgentId(*agent)).await?;
        }
        miniclaw_platform::llm::usage::forget_tenant(&mut tx, TenantId(tenant), &agents).await?;
        // Members, agents and everything of theirs cascade.
        let gone = sqlx::query!("DELETE FROM tenants WHERE id = $1 AND closing_at IS NOT NULL", tenant)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        if gone == 1 {
            budget::revive(pool, Some(TenantId(tenant))).await?;
            tracing::info!(tenant.id = %tenant, agents = agents.len(), "closed account purged");
            purged += 1;
        }
    }
    Ok(purged)
}

/// The cycle that purges closed accounts once their grace period has passed.
pub fn purge_cycle(grace_days: u32) -> miniclaw_platform::jobs::Cycle {
    miniclaw_platform::jobs::Cycle::purge(PURGE_CYCLE, PURGE_DESCRIPTION, grace_days, |pool, days| {
        Box::pin(purge_closed(pool, days))
    })
}
