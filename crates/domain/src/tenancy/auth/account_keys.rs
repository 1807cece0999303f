//! Keys of the account (SPEC H4): one `mck_` key for some of the account's agents or all of
//! them, with the scopes an agent's key has, its own rate and daily spend cap. A request with
//! one names the agent in its path (`/v1/hosted-agents/{id}/…`, the OpenAI `model`): an agent
//! out of the key's reach, deleted or another account's is a 404. The token is spelt as an
//! agent's key's; authentication finds it here when no agent key has its id (`keys::lookup`).

use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, KeyId, TenantId};
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::keys::{self, KeyGrant, Limits, Reach};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::config::Secret;

/// The most agents one key may name (beyond that, a key for every agent is the better fit).
pub const AGENTS_MAX: usize = 1000;

/// An account key as listed: never the secret or its hash.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct AccountKey {
    pub id: KeyId,
    pub name: String,
    pub scopes: Vec<String>,
    /// The agents it reaches; `null`: every agent of the account, now and later.
    pub agents: Option<Vec<AgentId>>,
    /// The key's own requests per minute (within the platform's limit for every key).
    pub rate_per_minute: Option<i32>,
    /// The most the key's work may cost a day, in dollars (UTC days).
    pub daily_usd_cap: Option<f64>,
    /// `owner:<id>`: the member who issued it.
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "id, name, scopes, agents, rate_per_minute, daily_usd_cap, created_by, created_at, last_used_at, \
                       expires_at, revoked_at";

pub struct NewAccountKey<'a> {
    pub tenant_id: TenantId,
    pub name: &'a str,
    pub scopes: &'a [String],
    /// `None`: every agent of the account.
    pub agents: Option<Vec<AgentId>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub limits: Limits,
    pub created_by: String,
}

/// Checks the agents a key is to reach: at least one, at most `AGENTS_MAX`, each a live agent
/// of the account (another account's id is refused as an unknown one). Repeats are dropped.
async fn check_agents(conn: &mut PgConnection, tenant: TenantId, agents: &[AgentId]) -> Result<Vec<AgentId>, Error> {
    if agents.is_empty() {
        return Err(Error::validation("agents", "name at least one agent, or leave agents out for every agent"));
    }
    if agents.len() > AGENTS_MAX {
        return Err(Error::validation("agents", format!("a key may name at most {AGENTS_MAX} agents")));
    }
    let mut wanted = agents.to_vec();
    wanted.sort_by_key(|a| a.0);
    wanted.dedup();
    let ids: Vec<Uuid> = wanted.iter().map(|a| a.0).collect();
    let live = sqlx::query_scalar(&format!(
        "SELECT id FROM ({}) a WHERE id = ANY($2)",
        crate::tenancy::agents::sql::in_scope("$1")
    ))
    .bind(tenant)
    .bind(&ids)
    .fetch_all(&mut *conn)
    .await?;
    if let Some(missing) = ids.iter().find(|id| !live.contains(*id)) {
        return Err(Error::validation("agents", format!("`{missing}` is not one of the account's agents")));
    }
    Ok(wanted)
}

/// 409 when the account already has `max` live keys of its own. Locks the tenant's row so
/// that two issues at once cannot both take the last place.
async fn check_room(conn: &mut PgConnection, tenant: TenantId, max: i64) -> Result<(), Error> {
    sqlx::query!("SELECT 1 AS locked FROM tenants WHERE id = $1 FOR UPDATE", tenant as _)
        .fetch_optional(&mut *conn)
        .await?;
    let live = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM account_keys
            WHERE tenant_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())"#,
        tenant as _
    )
    .fetch_one(&mut *conn)
    .await?;
    if live >= max {
        return Err(Error::Conflict(format!(
            "the account already has {live} live keys of its own, the most allowed (MINICLAW_KEYS_PER_AGENT); revoke one first"
        )));
    }
    Ok(())
}

/// Issues an account key (at most `max` live ones), records it in the account's activity, and
/// returns it with the one-time token.
pub async fn create(
    conn: &mut PgConnection,
    new: NewAccountKey<'_>,
    max: i64,
    origin: &Origin,
) -> Result<(AccountKey, Secret), Error> {
    let agents = match &new.agents {
        Some(list) => Some(check_agents(conn, new.tenant_id, list).await?),
        None => None,
    };
    check_room(conn, new.tenant_id, max).await?;
    let minted = keys::mint();
    let key: AccountKey = sqlx::query_as(&format!(
        "INSERT INTO account_keys (id, tenant_id, name, secret_hash, scopes, agents, rate_per_minute, daily_usd_cap,
                                   created_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {COLUMNS}"
    ))
    .bind(minted.id)
    .bind(new.tenant_id)
    .bind(new.name)
    .bind(&minted.secret_hash)
    .bind(new.scopes)
    .bind(agents.as_ref().map(|a| a.iter().map(|a| a.0).collect::<Vec<Uuid>>()))
    .bind(new.limits.rate_per_minute.map(|r| r as i32))
    .bind(new.limits.daily_usd_cap)
    .bind(&new.created_by)
    .bind(new.expires_at)
    .fetch_one(&mut *conn)
    .await?;
    let details = serde_json::json!({ "key_id": key.id, "name": key.name, "scopes": key.scopes, "agents": key.agents,
                                      "rate_per_minute": key.rate_per_minute, "daily_usd_cap": key.daily_usd_cap });
    activity::record_tenant(conn, new.tenant_id, None, origin, "account_key.issued", details).await?;
    Ok((key, minted.token))
}

/// The account's keys, newest first: `limit` of them, issued before key `before` if given.
pub async fn list(pool: &PgPool, tenant: TenantId, limit: i64, before: Option<KeyId>) -> sqlx::Result<Vec<AccountKey>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM account_keys WHERE tenant_id = $1
            AND ($3::uuid IS NULL OR (created_at, id) < (SELECT created_at, id FROM account_keys WHERE tenant_id = $1 AND id = $3))
          ORDER BY created_at DESC, id DESC LIMIT $2"
    ))
    .bind(tenant)
    .bind(limit)
    .bind(before)
    .fetch_all(pool)
    .await
}

/// One of the account's keys; `None` for another account's or no such key.
pub async fn get(pool: &PgPool, tenant: TenantId, id: KeyId) -> sqlx::Result<Option<AccountKey>> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM account_keys WHERE tenant_id = $1 AND id = $2"))
        .bind(tenant)
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// Revokes one of the account's keys; it stops working at once, in every process.
pub async fn revoke(
    conn: &mut PgConnection,
    tenant: TenantId,
    id: KeyId,
    origin: &Origin,
) -> sqlx::Result<Option<AccountKey>> {
    let key: Option<AccountKey> = sqlx::query_as(&format!(
        "UPDATE account_keys SET revoked_at = coalesce(revoked_at, now())
          WHERE tenant_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(tenant)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(k) = &key {
        super::cache::announce(conn, format!("key:{}", k.id.0)).await?;
        let details = serde_json::json!({ "key_id": k.id, "name": k.name });
        activity::record_tenant(conn, tenant, None, origin, "account_key.revoked", details).await?;
    }
    Ok(key)
}

/// Whether a key's grant reaches agent `agent`: an agent's key its own (live: authentication
/// checked it), an account key an agent it covers that is live and its account's.
pub async fn reaches(pool: &PgPool, grant: &KeyGrant, agent: AgentId) -> sqlx::Result<bool> {
    if !grant.reach.covers(agent) {
        return Ok(false);
    }
    if matches!(grant.reach, Reach::Agent(_)) {
        return Ok(true);
    }
    Ok(crate::tenancy::agents::get_cached(pool, grant.tenant_id, agent).await?.is_some())
}

/// The live agents a key reaches, in the order the account lists them (at most `limit`).
pub async fn agents_of(
    pool: &PgPool,
    grant: &KeyGrant,
    limit: i64,
) -> sqlx::Result<Vec<crate::tenancy::agents::Agent>> {
    let all = crate::tenancy::agents::list(pool, grant.tenant_id, limit, None).await?;
    Ok(all.into_iter().filter(|a| grant.reach.covers(a.id)).collect())
}
