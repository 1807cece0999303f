//! Signing in (SPEC H3): where a checked password or wallet signature becomes a session, or,
//! when the member has a second factor on, a short-lived token that asks for a code first
//! (`totp`). Every sign-in lands in the tenant's activity: successes (with the device and
//! whether it is a new one for the member) and failures (a wrong password for an address
//! that has an account, a wrong code).

use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::actor::Actor;
use miniclaw_core::ids::{TenantId, UserId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;

use super::auth::session::{self, SessionKeys};

/// Where a sign-in comes from: the browser (its user agent) and the client's address.
#[derive(Debug, Clone, Default)]
pub struct Device {
    pub user_agent: String,
    pub address: Option<String>,
    pub request_id: Option<String>,
}

/// The longest user agent kept.
const AGENT_MAX: usize = 400;

impl Device {
    fn agent(&self) -> &str {
        let ua = self.user_agent.trim();
        if ua.is_empty() {
            return "unknown";
        }
        let mut end = ua.len().min(AGENT_MAX);
        while !ua.is_char_boundary(end) {
            end -= 1;
        }
        &ua[..end]
    }
}

/// A browser a member signed in with.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct SignInDevice {
    pub user_agent: String,
    pub first_seen: chrono::DateTime<chrono::Utc>,
    pub last_seen: chrono::DateTime<chrono::Utc>,
}

/// The browsers `owner` signed in with, most recent first.
pub async fn devices(pool: &PgPool, owner: UserId) -> sqlx::Result<Vec<SignInDevice>> {
    sqlx::query_as!(
        SignInDevice,
        "SELECT user_agent, first_seen, last_seen FROM owner_devices WHERE owner_id = $1 ORDER BY last_seen DESC",
        owner as _
    )
    .fetch_all(pool)
    .await
}

/// What a checked credential leads to.
#[derive(Debug)]
pub enum Begun {
    /// A session: its id and refresh token.
    Session { session_id: Uuid, refresh_token: String },
    /// A code is needed first: present it with this token (`finish`).
    SecondFactor { token: String },
}

/// Notes a sign-in of `owner` from `device`, and whether the device is new for them.
async fn record_success(
    pool: &PgPool,
    owner: UserId,
    tenant: TenantId,
    method: &str,
    device: &Device,
) -> sqlx::Result<()> {
    let agent = device.agent();
    let hash = Sha256::digest(agent.as_bytes()).to_vec();
    let new_device = sqlx::query_scalar!(
        r#"INSERT INTO owner_devices (owner_id, device_hash, user_agent) VALUES ($1, $2, $3)
           ON CONFLICT (owner_id, device_hash) DO UPDATE SET last_seen = now()
           RETURNING (xmax = 0) AS "new!""#,
        owner as _,
        hash,
        agent
    )
    .fetch_one(pool)
    .await?;
    let origin = Origin::new(Actor::Owner(owner), device.request_id.clone());
    let details = json!({ "method": method, "new_device": new_device, "user_agent": agent, "address": device.address });
    let mut conn = pool.acquire().await?;
    activity::record_tenant(&mut conn, tenant, None, &origin, "owner.signed_in", details).await
}

/// Starts a session for a member whose password or signature was checked, or asks for their
/// second factor first.
pub async fn begin(
    deps: &Deps,
    keys: &SessionKeys,
    owner: UserId,
    tenant: TenantId,
    method: &str,
    device: &Device,
) -> Result<Begun, Error> {
    if super::totp::required(&deps.pool, owner).await? {
        return Ok(Begun::SecondFactor { token: keys.second_factor_token(owner, tenant) });
    }
    let (session_id, refresh_token) = session::start(&deps.pool, keys, owner, tenant).await?;
    record_success(&deps.pool, owner, tenant, method, device).await?;
    Ok(Begun::Session { session_id, refresh_token })
}

/// Finishes a sign-in that asked for a second factor: a right code with the token starts the
/// session. 401 for a token that is not valid (expired: sign in again); 403 `wrong_code`.
pub async fn finish(
    deps: &Deps,
    keys: &SessionKeys,
    token: &str,
    code: &str,
    device: &Device,
) -> Result<(UserId, TenantId, Uuid, String), Error> {
    let (owner, tenant) = keys
        .second_factor_claims(token)
        .ok_or_else(|| Error::Unauthenticated("this sign-in has expired; sign in again".into()))?;
    if let Err(e) = super::totp::check(deps, owner, code).await {
        if matches!(e, Error::Refused { .. }) {
            failure(&deps.pool, owner, tenant, "wrong second factor", device).await?;
        }
        return Err(e);
    }
    let (session_id, refresh_token) = session::start(&deps.pool, keys, owner, tenant).await?;
    record_success(&deps.pool, owner, tenant, "second_factor", device).await?;
    Ok((owner, tenant, session_id, refresh_token))
}

async fn failure(pool: &PgPool, owner: UserId, tenant: TenantId, reason: &str, device: &Device) -> sqlx::Result<()> {
    let origin = Origin::new(Actor::System, device.request_id.clone());
    let details = json!({ "member": owner, "reason": reason, "user_agent": device.agent(), "address": device.address });
    let mut conn = pool.acquire().await?;
    activity::record_tenant(&mut conn, tenant, None, &origin, "owner.sign_in_failed", details).await
}

/// Notes a failed password sign-in for `email` in the activity of the account it belongs to
/// (an address with no account has nowhere to note it).
pub async fn password_failed(pool: &PgPool, email: &str, device: &Device) -> sqlx::Result<()> {
    let member = sqlx::query!(
        r#"SELECT id AS "id: UserId", tenant_id AS "tenant_id: TenantId" FROM owners
            WHERE lower(email) = lower($1) AND removed_at IS NULL"#,
        email.trim()
    )
    .fetch_optional(pool)
    .await?;
    match member {
        Some(m) => failure(pool, m.id, m.tenant_id, "wrong password", device).await,
        None => Ok(()),
    }
}
