//! Owner sessions: a short-lived JWT (15 minutes) plus a refresh token (30 days, rotated on
//! use, stored hashed). Logout revokes the session row, which also invalidates its JWTs.
//!
//! Rotation: the next refresh token is derived from the one presented (an HMAC under the
//! server's key), so for [`REFRESH_GRACE`] after a rotation the token just rotated out yields
//! the same new token again (two tabs, or a retried request, refresh at once without signing
//! each other out). After that, presenting a rotated-out token is taken as reuse of a stolen
//! token: the session, and with it every token derived from it, is revoked. Refresh tokens
//! carry a tag under the server's key, so only a token this server issued can trigger that.

use chrono::{Duration, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use miniclaw_core::ids::{AgentId, TenantId, UserId};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

pub const SESSION_COOKIE: &str = "mc_session";
pub const REFRESH_COOKIE: &str = "mc_refresh";
/// A session token's lifetime unless `MINICLAW_SESSION_SECS` says otherwise.
pub const SESSION_TTL: Duration = Duration::minutes(15);
pub const REFRESH_TTL: Duration = Duration::days(30);
/// How long a sign-in waits for its second factor.
pub const SECOND_FACTOR_TTL: Duration = Duration::minutes(5);
/// How long a just-rotated refresh token still yields the session's new one.
pub const REFRESH_GRACE: Duration = Duration::seconds(30);

type HmacSha256 = hmac::Hmac<Sha256>;

fn hmac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    use hmac::Mac;
    let mut m = HmacSha256::new_from_slice(key).expect("HMAC takes keys of any length");
    for p in parts {
        m.update(p);
    }
    m.finalize().into_bytes().into()
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// Owner id.
    pub sub: UserId,
    /// Tenant id.
    pub tid: TenantId,
    /// Session id.
    pub sid: Uuid,
    pub iat: i64,
    pub exp: i64,
}

/// The HMAC key for session tokens: generated once per database and shared by every process.
#[derive(Clone)]
pub struct SessionKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    csrf: Vec<u8>,
    refresh: Vec<u8>,
    ttl: Duration,
}

impl SessionKeys {
    /// The signing key, sealed in `platform_secrets` under the master key (`miniclaw_platform::secrets`).
    pub async fn load(pool: &PgPool, vault: &miniclaw_platform::secrets::Vault) -> anyhow::Result<Self> {
        let secret = vault
            .platform_secret(pool, "session_hmac", || {
                let mut fresh = vec![0u8; 64];
                rand::rng().fill_bytes(&mut fresh);
                fresh
            })
            .await?;
        Ok(Self::from_secret(&secret))
    }

    pub fn from_secret(secret: &[u8]) -> Self {
        let csrf = Sha256::new().chain_update(b"csrf").chain_update(secret).finalize().to_vec();
        let refresh = Sha256::new().chain_update(b"refresh").chain_update(secret).finalize().to_vec();
        SessionKeys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            csrf,
            refresh,
            ttl: SESSION_TTL,
        }
    }

    /// Session tokens issued from here on live `ttl` (`MINICLAW_SESSION_SECS`).
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How long a session token lives.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    pub fn issue(&self, owner_id: UserId, tenant_id: TenantId, session_id: Uuid) -> String {
        let now = Utc::now();
        let claims = Claims {
            sub: owner_id,
            tid: tenant_id,
            sid: session_id,
            iat: now.timestamp(),
            exp: (now + self.ttl).timestamp(),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .expect("HS256 encoding cannot fail")
    }

    pub fn verify(&self, token: &str) -> Option<Claims> {
        let mut v = Validation::new(Algorithm::HS256);
        v.leeway = 5;
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &v).ok().map(|d| d.claims)
    }

    /// The CSRF token of a session: an HMAC of its id, checked on dashboard form posts.
    pub fn csrf_token(&self, session_id: Uuid) -> String {
        let mac = Sha256::new().chain_update(&self.csrf).chain_update(session_id.as_bytes()).finalize();
        hex::encode(&mac[..16])
    }

    pub fn csrf_ok(&self, session_id: Uuid, presented: &str) -> bool {
        use subtle::ConstantTimeEq;
        self.csrf_token(session_id).as_bytes().ct_eq(presented.as_bytes()).into()
    }

    /// The token that carries a sign-in from its password (or signature) to its second factor:
    /// `<owner>.<tenant>.<expiry>.<tag>`, valid `SECOND_FACTOR_TTL`. It starts no session by
    /// itself: only a right code with it does.
    pub fn second_factor_token(&self, owner: UserId, tenant: TenantId) -> String {
        let expiry = (Utc::now() + SECOND_FACTOR_TTL).timestamp();
        let body = format!("{}.{}.{expiry}", owner.0.simple(), tenant.0.simple());
        let tag = hmac(&self.refresh, &[b"second-factor", body.as_bytes()]);
        format!("{body}.{}", hex::encode(&tag[..16]))
    }

    /// Whose sign-in a second-factor token carries, while it is valid.
    pub fn second_factor_claims(&self, token: &str) -> Option<(UserId, TenantId)> {
        use subtle::ConstantTimeEq;
        let (body, tag) = token.trim().rsplit_once('.')?;
        let expected = hmac(&self.refresh, &[b"second-factor", body.as_bytes()]);
        if !bool::from(hex::encode(&expected[..16]).as_bytes().ct_eq(tag.as_bytes())) {
            return None;
        }
        let mut parts = body.split('.');
        let owner = parts.next()?.parse::<Uuid>().ok()?;
        let tenant = parts.next()?.parse::<Uuid>().ok()?;
        let expiry = parts.next()?.parse::<i64>().ok()?;
        (expiry > Utc::now().timestamp()).then_some((UserId(owner), TenantId(tenant)))
    }

    /// A refresh token of session `sid`: `<sid>.<nonce>.<tag>`, the tag an HMAC of the rest.
    fn refresh_token(&self, sid: Uuid, nonce: &[u8; 32]) -> String {
        let tag = hmac(&self.refresh, &[b"tag", sid.as_bytes(), nonce]);
        format!("{}.{}.{}", sid.simple(), hex::encode(nonce), hex::encode(&tag[..16]))
    }

    /// The first refresh token of a session.
    fn first_refresh_token(&self, sid: Uuid) -> String {
        let mut nonce = [0u8; 32];
        rand::rng().fill_bytes(&mut nonce);
        self.refresh_token(sid, &nonce)
    }

    /// The token that rotating `presented` hands out: the same every time for the same token.
    fn next_refresh_token(&self, sid: Uuid, presented: &str) -> String {
        self.refresh_token(sid, &hmac(&self.refresh, &[b"next", presented.as_bytes()]))
    }

    /// Whether `token` is a refresh token this server issued for `sid` (its tag checks out).
    fn issued_refresh_token(&self, sid: Uuid, token: &str) -> bool {
        use subtle::ConstantTimeEq;
        let mut parts = token.split('.');
        let (Some(_), Some(nonce), Some(tag), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
            return false;
        };
        let (Ok(nonce), Ok(tag)) = (hex::decode(nonce), hex::decode(tag)) else { return false };
        let Ok(nonce) = <[u8; 32]>::try_from(nonce) else { return false };
        let expected = hmac(&self.refresh, &[b"tag", sid.as_bytes(), &nonce]);
        tag.len() == 16 && bool::from(expected[..16].ct_eq(&tag))
    }
}

/// The session a refresh token names (not yet checked against anything).
pub fn refresh_session_id(token: &str) -> Option<Uuid> {
    let (sid, _) = token.split_once('.')?;
    Uuid::parse_str(sid).ok()
}

pub fn hash_refresh(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Starts a session; returns (session id, refresh token).
pub async fn start(
    pool: &PgPool,
    keys: &SessionKeys,
    owner_id: UserId,
    tenant_id: TenantId,
) -> sqlx::Result<(Uuid, String)> {
    let id = Uuid::now_v7();
    let refresh = keys.first_refresh_token(id);
    sqlx::query!(
        "INSERT INTO owner_sessions (id, owner_id, tenant_id, refresh_hash, expires_at) VALUES ($1, $2, $3, $4, $5)",
        id,
        owner_id as _,
        tenant_id as _,
        hash_refresh(&refresh),
        Utc::now() + REFRESH_TTL
    )
    .execute(pool)
    .await?;
    crate::tenancy::accounts::signed_in(pool, owner_id).await?;
    Ok((id, refresh))
}

/// What presenting a refresh token did.
#[derive(Debug)]
pub enum Refreshed {
    /// The session goes on: issue a session token for it and hand out `refresh_token`.
    Renewed { owner_id: UserId, tenant_id: TenantId, session_id: Uuid, refresh_token: String },
    /// A token rotated out before the grace window was presented again: the session is revoked.
    Reused,
    /// Not a live session's token (unknown, malformed, expired or signed out).
    Invalid,
}

/// Rotates a refresh token (see the module docs): the current token yields a new one; the
/// token rotated out within the last [`REFRESH_GRACE`] yields that same new one; any other
/// token this server issued for the session revokes the session.
pub async fn refresh(pool: &PgPool, keys: &SessionKeys, token: &str) -> sqlx::Result<Refreshed> {
    let Some(sid) = refresh_session_id(token) else { return Ok(Refreshed::Invalid) };
    let next = keys.next_refresh_token(sid, token);
    // The row lock makes concurrent refreshes with the same token queue up: the first rotates,
    // the others then find the rotated-out token within the grace window.
    let row = sqlx::query!(
        "UPDATE owner_sessions
         SET refresh_hash = $3,
             refreshed_at = CASE WHEN refresh_hash = $2 THEN now() ELSE refreshed_at END,
             expires_at = now() + interval '30 days'
         WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()
           AND (refresh_hash = $2 OR (refresh_hash = $3 AND refreshed_at > now() - $4::float8 * interval '1 second'))
         RETURNING owner_id, tenant_id",
        sid,
        hash_refresh(token),
        hash_refresh(&next),
        REFRESH_GRACE.num_seconds() as f64
    )
    .fetch_optional(pool)
    .await?;
    if let Some(r) = row {
        return Ok(Refreshed::Renewed {
            owner_id: r.owner_id.into(),
            tenant_id: r.tenant_id.into(),
            session_id: sid,
            refresh_token: next,
        });
    }
    if keys.issued_refresh_token(sid, token) {
        // Ours, for this session, but neither current nor just rotated out: someone is using a
        // token that was already exchanged. End the session for every holder of its tokens.
        tracing::warn!(session_id = %sid, "a rotated-out refresh token was presented again; the session is revoked");
        revoke(pool, sid).await?;
        return Ok(Refreshed::Reused);
    }
    Ok(Refreshed::Invalid)
}

/// Whether session `$1` is live (not signed out, not expired) and belongs to owner `$2` of
/// tenant `$3`, as an SQL expression: a token is only as good as the session it names, and that
/// session must be the token's own owner's.
pub const ACTIVE: &str = "EXISTS (SELECT 1 FROM owner_sessions WHERE id = $1 AND owner_id = $2 AND tenant_id = $3
    AND revoked_at IS NULL AND expires_at > now())";

/// Whether the owner's session is live and `agent` is a live agent of the owner's tenant: one
/// round trip for a request that names an agent.
pub async fn live_and_owning(pool: &PgPool, owner: &super::Owner, agent: AgentId) -> sqlx::Result<(bool, bool)> {
    sqlx::query_as(&format!(
        "SELECT ({ACTIVE}), EXISTS (SELECT 1 FROM agents WHERE id = $4 AND tenant_id = $3 AND deleted_at IS NULL)"
    ))
    .bind(owner.session_id)
    .bind(owner.owner_id)
    .bind(owner.tenant_id)
    .bind(agent)
    .fetch_one(pool)
    .await
}

/// `ACTIVE` for one session, answered from the process's cache when it knows (`auth::cache`).
pub async fn is_active(pool: &PgPool, session_id: Uuid, owner_id: UserId, tenant_id: TenantId) -> sqlx::Result<bool> {
    Ok(role(pool, session_id, owner_id, tenant_id).await?.is_some())
}

/// The role in the team of the member whose live session this is; `None` when the session is
/// not live (or not theirs). From the process's cache when it knows (`auth::cache`).
pub async fn role(
    pool: &PgPool,
    session_id: Uuid,
    owner_id: UserId,
    tenant_id: TenantId,
) -> sqlx::Result<Option<crate::tenancy::team::Role>> {
    let cache = super::cache::cache();
    if let Some(known) = cache.session(session_id, owner_id, tenant_id, chrono::Utc::now()) {
        return Ok(known);
    }
    let generation = cache.generation();
    let row = sqlx::query!(
        "SELECT s.expires_at, o.role FROM owner_sessions s JOIN owners o ON o.id = s.owner_id
          WHERE s.id = $1 AND s.owner_id = $2 AND s.tenant_id = $3
            AND s.revoked_at IS NULL AND s.expires_at > now() AND o.removed_at IS NULL",
        session_id,
        owner_id as _,
        tenant_id as _
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|r| {
        let role = crate::tenancy::team::Role::parse(&r.role).unwrap_or(crate::tenancy::team::Role::Viewer);
        cache.put_session(generation, session_id, owner_id, tenant_id, r.expires_at, role);
        role
    }))
}

/// Signs a session out, in this process at once and in every other when it commits.
pub async fn revoke(pool: &PgPool, session_id: Uuid) -> sqlx::Result<()> {
    let mut tx = pool.begin().await?;
    sqlx::query!("UPDATE owner_sessions SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1", session_id)
        .execute(&mut *tx)
        .await?;
    super::cache::announce(&mut tx, format!("session:{session_id}")).await?;
    tx.commit().await?;
    Ok(())
}

/// `Set-Cookie` values for a fresh login (or refresh).
pub fn login_cookies(session_token: &str, session_ttl: Duration, refresh_token: &str, secure: bool) -> [String; 2] {
    let s = if secure { "; Secure" } else { "" };
    [
        format!(
            "{SESSION_COOKIE}={session_token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{s}",
            session_ttl.num_seconds()
        ),
        format!(
            "{REFRESH_COOKIE}={refresh_token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{s}",
            REFRESH_TTL.num_seconds()
        ),
    ]
}

pub fn logout_cookies(secure: bool) -> [String; 2] {
    let s = if secure { "; Secure" } else { "" };
    [
        format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{s}"),
        format!("{REFRESH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{s}"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_tampering_fails() {
        let keys = SessionKeys::from_secret(b"0123456789abcdef0123456789abcdef");
        let (o, t, s) = (UserId::new(), TenantId::new(), Uuid::new_v4());
        let token = keys.issue(o, t, s);
        let c = keys.verify(&token).unwrap();
        assert_eq!((c.sub, c.tid, c.sid), (o, t, s));
        let other = SessionKeys::from_secret(b"another secret another secret!!");
        assert!(other.verify(&token).is_none());
        assert!(keys.verify(&format!("{token}x")).is_none());
    }

    #[test]
    fn second_factor_tokens_are_tagged_and_name_their_sign_in() {
        let keys = SessionKeys::from_secret(b"k");
        let (owner, tenant) = (UserId(Uuid::now_v7()), TenantId(Uuid::now_v7()));
        let token = keys.second_factor_token(owner, tenant);
        assert_eq!(keys.second_factor_claims(&token), Some((owner, tenant)));
        assert_eq!(SessionKeys::from_secret(b"other").second_factor_claims(&token), None);
        let forged = token.replacen(&owner.0.simple().to_string(), &Uuid::now_v7().simple().to_string(), 1);
        assert_eq!(keys.second_factor_claims(&forged), None);
    }

    #[test]
    fn csrf_tokens_are_bound_to_the_session() {
        let keys = SessionKeys::from_secret(b"k");
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        assert!(keys.csrf_ok(a, &keys.csrf_token(a)));
        assert!(!keys.csrf_ok(b, &keys.csrf_token(a)));
    }

    #[test]
    fn refresh_tokens_are_tagged_and_rotate_deterministically() {
        let keys = SessionKeys::from_secret(b"0123456789abcdef0123456789abcdef");
        let sid = Uuid::now_v7();
        let first = keys.first_refresh_token(sid);
        assert_eq!(refresh_session_id(&first), Some(sid));
        assert!(keys.issued_refresh_token(sid, &first));
        let next = keys.next_refresh_token(sid, &first);
        assert_eq!(next, keys.next_refresh_token(sid, &first), "the same token rotates to the same one");
        assert_ne!(next, first);
        assert!(keys.issued_refresh_token(sid, &next));
        assert!(!keys.issued_refresh_token(Uuid::now_v7(), &next), "bound to its session");
        let other = SessionKeys::from_secret(b"another secret another secret!!");
        assert!(!other.issued_refresh_token(sid, &next), "bound to the server's key");
        let forged = format!("{}.{}.{}", sid.simple(), "00".repeat(32), "00".repeat(16));
        assert!(!keys.issued_refresh_token(sid, &forged));
        assert!(!keys.issued_refresh_token(sid, &format!("{}.{}", sid.simple(), "ab".repeat(32))));
    }
}
