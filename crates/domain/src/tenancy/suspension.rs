//! Suspending a tenant (SPEC T3): the operator's stop for an account that abuses the platform.
//! While suspended, its owners cannot sign in and their sessions are ended, its API keys are
//! refused (403 `account_suspended`), its model calls are stopped (the tenant's kill switch,
//! with the reason), and its jobs — mail, webhook deliveries, cycles — stay queued, untouched,
//! until it is resumed (`queue::lease_fair` passes them over). Nothing is deleted. Every
//! process forgets the keys and sessions it cached at once.

use serde_json::json;
use sqlx::PgPool;

use miniclaw_core::Error;
use miniclaw_core::ids::TenantId;
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::llm::budget;

/// Whether tenant `tenant` (an SQL expression) is stopped — suspended by the operator, or
/// closing (`closing`) — so that its jobs wait (boolean; NULL when there is none).
pub fn suspended_sql(tenant: &str) -> String {
    format!("(SELECT suspended_at IS NOT NULL OR closing_at IS NOT NULL FROM tenants WHERE id = {tenant})")
}

/// The kill switch's reason for a suspended tenant.
fn switch_reason(reason: &str) -> String {
    format!("the account is suspended: {reason}")
}

/// Suspends `tenant` for `reason` (again: the new reason); 404 when there is no such tenant.
pub async fn suspend(pool: &PgPool, tenant: TenantId, origin: &Origin, reason: &str) -> Result<(), Error> {
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > 500 {
        return Err(Error::validation("reason", "a reason of 1–500 characters is required"));
    }
    let mut tx = pool.begin().await?;
    let found = sqlx::query(
        "UPDATE tenants SET suspended_at = coalesce(suspended_at, now()), suspended_reason = $2 WHERE id = $1",
    )
    .bind(tenant)
    .bind(reason)
    .execute(&mut *tx)
    .await?;
    if found.rows_affected() == 0 {
        return Err(Error::not_found("tenant"));
    }
    let ended = sqlx::query("UPDATE owner_sessions SET revoked_at = now() WHERE tenant_id = $1 AND revoked_at IS NULL")
        .bind(tenant)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    let details = json!({ "reason": reason, "sessions_ended": ended });
    activity::record_tenant(&mut tx, tenant, None, origin, "tenant.suspended", details).await?;
    // Every process forgets the keys, sessions and accounts it holds (`clear`).
    crate::tenancy::auth::cache::announce(&mut tx, "clear".into()).await?;
    tx.commit().await?;
    budget::kill(pool, Some(tenant), &switch_reason(reason)).await?;
    Ok(())
}

/// Resumes `tenant`: its keys work again, its owners may sign in, its jobs run. False when it
/// was not suspended; 404 when there is no such tenant.
pub async fn resume(pool: &PgPool, tenant: TenantId, origin: &Origin) -> Result<bool, Error> {
    let mut tx = pool.begin().await?;
    let was: Option<bool> = sqlx::query_scalar(
        "UPDATE tenants t SET suspended_at = NULL, suspended_reason = NULL
           FROM (SELECT id, suspended_at IS NOT NULL AS was FROM tenants WHERE id = $1 FOR UPDATE) b
          WHERE t.id = b.id RETURNING b.was",
    )
    .bind(tenant)
    .fetch_optional(&mut *tx)
    .await?;
    let was = was.ok_or_else(|| Error::not_found("tenant"))?;
    if was {
        activity::record_tenant(&mut tx, tenant, None, origin, "tenant.resumed", json!({})).await?;
        crate::tenancy::auth::cache::announce(&mut tx, "clear".into()).await?;
    }
    tx.commit().await?;
    if was {
        budget::revive(pool, Some(tenant)).await?;
        // Its queued jobs are due again: wake the workers.
        sqlx::query("SELECT pg_notify($1, 'resumed')")
            .bind(miniclaw_platform::jobs::NOTIFY_CHANNEL)
            .execute(pool)
            .await?;
    }
    Ok(was)
}
