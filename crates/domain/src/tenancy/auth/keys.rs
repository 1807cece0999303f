//! `mck_` API keys: `mck_<id>_<secret>` with a 256-bit random secret. Only the SHA-256 of the
//! secret is stored; verification compares hashes in constant time.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::{AgentId, KeyId, TenantId};
use rand::RngCore;
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use subtle::ConstantTimeEq;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::config::Secret;

pub const PREFIX: &str = "mck_";
/// The longest key name, in characters.
pub const NAME_MAX: usize = 64;

/// A freshly minted key: the full token is shown to the user once and never stored.
pub struct MintedKey {
    pub id: KeyId,
    pub token: Secret,
    pub secret_hash: Vec<u8>,
}

pub fn mint() -> MintedKey {
    let id = KeyId(Uuid::new_v4());
    let mut secret = [0u8; 32];
    rand::rng().fill_bytes(&mut secret);
    let secret_hex = hex::encode(secret);
    let token = format!("{PREFIX}{}_{secret_hex}", id.uuid().simple());
    MintedKey { id, secret_hash: Sha256::digest(secret_hex.as_bytes()).to_vec(), token: Secret::new(token) }
}

/// Splits a presented token into its id and secret; `None` unless it is spelt exactly as
/// `mint` writes keys (lower-case hex only: one key has one spelling).
pub fn parse(token: &str) -> Option<(KeyId, &str)> {
    let lower_hex = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let rest = token.strip_prefix(PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    if !lower_hex(id, 32) || !lower_hex(secret, 64) {
        return None;
    }
    Some((id.parse().ok()?, secret))
}

pub fn secret_matches(secret: &str, stored_hash: &[u8]) -> bool {
    let presented = Sha256::digest(secret.as_bytes());
    presented.as_slice().ct_eq(stored_hash).into()
}

/// Validates a requested key name and scope list.
pub fn validate_request(
    name: &str,
    requested: &[String],
    expires_at: Option<DateTime<Utc>>,
) -> Result<(String, Vec<String>), Error> {
    let name = name.trim().to_string();
    if name.is_empty() {
        return Err(Error::validation("name", "name must be 1–64 characters"));
    }
    Error::check_length("name", &name, NAME_MAX)?;
    if name.chars().any(misleads_a_reader) {
        return Err(Error::validation(
            "name",
            "name may not contain control characters, line breaks or text-direction marks",
        ));
    }
    let scopes = super::scopes::parse_list(requested).map_err(|e| Error::validation("scopes", e))?;
    if expires_at.is_some_and(|e| e <= Utc::now()) {
        return Err(Error::validation("expires_at", "expires_at must be in the future"));
    }
    Ok((name, scopes))
}

/// Characters a key name may not hold: the name is written into the message a connect's signer
/// reads, where a line break (control or Unicode separator) could forge a line of its own
/// (another `Scopes:`), and a direction override or invisible mark could disguise the text.
fn misleads_a_reader(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{061C}' | '\u{200B}' | '\u{200E}' | '\u{200F}' | '\u{FEFF}')
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2060}'..='\u{206F}').contains(&c)
}

/// A key as listed: never the secret or its hash.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct ApiKey {
    pub id: KeyId,
    pub agent_id: AgentId,
    pub name: String,
    pub scopes: Vec<String>,
    /// `owner:<id>` or `connect:evm:<address>` / `connect:ed25519:<key>`.
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
    /// The end user the key acts for, when it is bound to one: it sees and continues only that
    /// user's conversations.
    pub end_user: Option<String>,
    /// The key's own requests per minute (within the platform's limit for every key).
    pub rate_per_minute: Option<i32>,
    /// The most the key's work may cost a day, in dollars (UTC days).
    pub daily_usd_cap: Option<f64>,
}

const KEY_COLUMNS: &str = "id, agent_id, name, scopes, created_by, created_at, last_used_at, expires_at, revoked_at, \
                           end_user, rate_per_minute, daily_usd_cap";

pub struct NewKey<'a> {
    pub tenant_id: TenantId,
    pub agent_id: AgentId,
    pub name: &'a str,
    pub scopes: &'a [String],
    pub expires_at: Option<DateTime<Utc>>,
    pub created_by: String,
    /// The activity-log action: `key.issued`, or `agent.connected` for self-service connect.
    pub event: &'static str,
    /// Bind the key to this end user (see `super::end_user`).
    pub end_user: Option<&'a str>,
    pub limits: Limits,
}

/// A key's own limits (SPEC H4): requests per minute, and dollars of work a day.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Limits {
    pub rate_per_minute: Option<u32>,
    pub daily_usd_cap: Option<f64>,
}

/// The highest per-key rate that may be asked for.
pub const RATE_MAX: u32 = 100_000;

impl Limits {
    /// Checks requested limits: a rate of 1–100000 a minute, a cap of $0–$1,000,000 a day.
    pub fn new(rate_per_minute: Option<u32>, daily_usd_cap: Option<f64>) -> Result<Limits, Error> {
        if rate_per_minute.is_some_and(|r| !(1..=RATE_MAX).contains(&r)) {
            return Err(Error::validation("rate_per_minute", "rate_per_minute must be 1–100000 requests a minute"));
        }
        if daily_usd_cap.is_some_and(|c| !c.is_finite() || !(0.0..=1_000_000.0).contains(&c)) {
            return Err(Error::validation("daily_usd_cap", "daily_usd_cap must be 0–1000000 dollars"));
        }
        Ok(Limits { rate_per_minute, daily_usd_cap })
    }

    fn rate(self) -> Option<i32> {
        self.rate_per_minute.map(|r| r as i32)
    }
}

/// API key `key`'s daily dollar cap, an agent's key or the account's (float8; NULL: none).
pub fn daily_usd_sql(key: &str) -> String {
    format!(
        "coalesce((SELECT daily_usd_cap FROM api_keys WHERE id = {key}),
                  (SELECT daily_usd_cap FROM account_keys WHERE id = {key}))"
    )
}

/// Stores a new key, records its issue, and returns it with the one-time token.
pub async fn create(conn: &mut sqlx::PgConnection, new: NewKey<'_>, origin: &Origin) -> sqlx::Result<(ApiKey, Secret)> {
    let minted = mint();
    let key: ApiKey = sqlx::query_as(&format!(
        "INSERT INTO api_keys (agent_id, id, tenant_id, name, secret_hash, scopes, created_by, expires_at, end_user,
                               rate_per_minute, daily_usd_cap)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING {KEY_COLUMNS}"
    ))
    .bind(new.agent_id)
    .bind(minted.id)
    .bind(new.tenant_id)
    .bind(new.name)
    .bind(&minted.secret_hash)
    .bind(new.scopes)
    .bind(&new.created_by)
    .bind(new.expires_at)
    .bind(new.end_user)
    .bind(new.limits.rate())
    .bind(new.limits.daily_usd_cap)
    .fetch_one(&mut *conn)
    .await?;
    let details = serde_json::json!({ "key_id": key.id, "name": key.name, "scopes": key.scopes,
                                      "created_by": key.created_by, "end_user": key.end_user,
                                      "rate_per_minute": key.rate_per_minute, "daily_usd_cap": key.daily_usd_cap });
    activity::record_agent(conn, new.tenant_id, new.agent_id, origin, new.event, details).await?;
    Ok((key, minted.token))
}

/// The name the owner gave one of the agent's keys (revoked ones too); `None` for no such key.
pub async fn name_of(conn: &mut sqlx::PgConnection, agent_id: AgentId, key: Uuid) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT name FROM api_keys WHERE agent_id = $1 AND id = $2", agent_id as _, key)
        .fetch_optional(conn)
        .await
}

/// The agent's keys, newest first: `limit` of them, issued before key `before` if given.
pub async fn list(pool: &PgPool, agent_id: AgentId, limit: i64, before: Option<KeyId>) -> sqlx::Result<Vec<ApiKey>> {
    sqlx::query_as(&format!(
        "SELECT {KEY_COLUMNS} FROM api_keys WHERE agent_id = $1
            AND ($3::uuid IS NULL OR (created_at, id) < (SELECT created_at, id FROM api_keys WHERE agent_id = $1 AND id = $3))
          ORDER BY created_at DESC, id DESC LIMIT $2"
    ))
    .bind(agent_id)
    .bind(limit)
    .bind(before)
    .fetch_all(pool)
    .await
}

/// 409 when the agent already has `max` live keys issued by its owner (not revoked, not
/// expired; connect keys have their own cap). Locks the agent's row so that two issues at once
/// cannot both take the last place.
pub async fn check_room(conn: &mut sqlx::PgConnection, agent_id: AgentId, max: i64) -> Result<(), Error> {
    sqlx::query!("SELECT 1 AS locked FROM agents WHERE id = $1 FOR UPDATE", agent_id as _)
        .fetch_optional(&mut *conn)
        .await?;
    let live = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM api_keys
            WHERE agent_id = $1 AND created_by NOT LIKE 'connect:%' AND revoked_at IS NULL
              AND (expires_at IS NULL OR expires_at > now())"#,
        agent_id as _
    )
    .fetch_one(&mut *conn)
    .await?;
    if live >= max {
        return Err(Error::Conflict(format!(
            "the agent already has {live} live keys, the most allowed (MINICLAW_KEYS_PER_AGENT); revoke one first"
        )));
    }
    Ok(())
}

/// Revokes a key of this agent and records it; `None` if the agent has no such key.
pub async fn revoke(
    conn: &mut sqlx::PgConnection,
    tenant_id: TenantId,
    agent_id: AgentId,
    key_id: KeyId,
    origin: &Origin,
) -> sqlx::Result<Option<ApiKey>> {
    let key: Option<ApiKey> = sqlx::query_as(&format!(
        "UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
         WHERE agent_id = $1 AND id = $2 RETURNING {KEY_COLUMNS}"
    ))
    .bind(agent_id)
    .bind(key_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(k) = &key {
        super::cache::announce(conn, format!("key:{}", k.id.0)).await?;
        let details = serde_json::json!({ "key_id": k.id, "name": k.name });
        activity::record_agent(conn, tenant_id, agent_id, origin, "key.revoked", details).await?;
    }
    Ok(key)
}

/// An end user is erased (SPEC H2): the agent's keys bound to them are revoked and no longer
/// name them. Returns how many.
pub async fn forget_end_user(conn: &mut sqlx::PgConnection, agent_id: AgentId, end_user: &str) -> sqlx::Result<u64> {
    let ids = sqlx::query_scalar!(
        "UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), end_user = NULL
          WHERE agent_id = $1 AND end_user = $2 RETURNING id",
        agent_id as _,
        end_user
    )
    .fetch_all(&mut *conn)
    .await?;
    for id in &ids {
        super::cache::announce(conn, format!("key:{id}")).await?;
    }
    Ok(ids.len() as u64)
}

/// What a valid key grants.
#[derive(Debug, Clone)]
pub struct KeyGrant {
    pub key_id: KeyId,
    /// The agents it reaches.
    pub reach: Reach,
    pub tenant_id: TenantId,
    pub scopes: Vec<String>,
    /// The end user the key is bound to.
    pub end_user: Option<String>,
    /// The key's own requests per minute, if it has a rate of its own.
    pub rate_per_minute: Option<u32>,
}

/// The agents a key reaches: an agent's key its agent; an account key the agents it names, or
/// every agent of the account, now and later (`super::account_keys`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    Agent(AgentId),
    Agents(Vec<AgentId>),
    Account,
}

impl Reach {
    /// Whether agent `agent` is within reach (an account key's agent must also still be live
    /// and the account's: `super::account_keys::reaches`).
    pub fn covers(&self, agent: AgentId) -> bool {
        match self {
            Reach::Agent(a) => *a == agent,
            Reach::Agents(list) => list.contains(&agent),
            Reach::Account => true,
        }
    }

    /// The one agent of an agent's key.
    pub fn agent(&self) -> Option<AgentId> {
        match self {
            Reach::Agent(a) => Some(*a),
            _ => None,
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum KeyRejection {
    Malformed,
    Unknown,
    Revoked,
    Expired,
    /// The key could not be checked (the database is unreachable): not the caller's fault.
    Unavailable,
    /// The key's account is suspended by the operator.
    Suspended,
    /// The key's account is closing (its owner closed it).
    Closing,
}

/// Checks a presented token. `last_used_at` is refreshed at most once a minute so that busy
/// keys do not turn every read into a write.
pub async fn authenticate(pool: &PgPool, token: &str) -> Result<KeyGrant, KeyRejection> {
    let (id, secret) = parse(token).ok_or(KeyRejection::Malformed)?;
    let cache = super::cache::cache();
    if let Some(k) = cache.key(id) {
        if !secret_matches(secret, &k.secret_hash) {
            return Err(KeyRejection::Unknown);
        }
        if k.expires_at.is_some_and(|e| e <= Utc::now()) {
            return Err(KeyRejection::Expired);
        }
        if cache.use_due(id) {
            touch(pool, k.grant.reach.agent(), id);
        }
        return Ok(k.grant);
    }
    let generation = cache.generation();
    let row = lookup(pool, id).await.map_err(|e| {
        tracing::warn!(error = %e, "key lookup failed");
        KeyRejection::Unavailable
    })?;
    let Some(row) = row else {
        return Err(KeyRejection::Unknown);
    };
    let (hash, expires_at, revoked_at, last_used_at) =
        (row.secret_hash, row.expires_at, row.revoked_at, row.last_used_at);
    if !secret_matches(secret, &hash) {
        return Err(KeyRejection::Unknown);
    }
    if revoked_at.is_some() {
        return Err(KeyRejection::Revoked);
    }
    if expires_at.is_some_and(|e| e <= Utc::now()) {
        return Err(KeyRejection::Expired);
    }
    if row.suspended {
        return Err(KeyRejection::Suspended);
    }
    if row.closing {
        return Err(KeyRejection::Closing);
    }
    let reach = match (row.agent_id, row.agents) {
        (Some(agent), _) => Reach::Agent(AgentId(agent)),
        (None, Some(agents)) => Reach::Agents(agents.into_iter().map(AgentId).collect()),
        (None, None) => Reach::Account,
    };
    if last_used_at.is_none_or(|t| Utc::now() - t > chrono::Duration::seconds(60)) {
        touch(pool, reach.agent(), id);
    }
    let grant = KeyGrant {
        key_id: id,
        reach,
        tenant_id: TenantId(row.tenant_id),
        scopes: row.scopes,
        end_user: row.end_user,
        rate_per_minute: row.rate_per_minute.and_then(|r| u32::try_from(r).ok()),
    };
    cache.put_key(generation, grant.clone(), hash, expires_at);
    Ok(grant)
}

/// A key as authentication reads it: an agent's (`agent_id`) or the account's (`agents`).
struct Found {
    agent_id: Option<Uuid>,
    agents: Option<Vec<Uuid>>,
    tenant_id: Uuid,
    secret_hash: Vec<u8>,
    scopes: Vec<String>,
    expires_at: Option<DateTime<Utc>>,
    revoked_at: Option<DateTime<Utc>>,
    last_used_at: Option<DateTime<Utc>>,
    end_user: Option<String>,
    rate_per_minute: Option<i32>,
    suspended: bool,
    closing: bool,
}

/// Key `id`, an agent's of a live agent or else the account's, with its account's state.
async fn lookup(pool: &PgPool, id: KeyId) -> sqlx::Result<Option<Found>> {
    let agent_key = sqlx::query_as!(
        Found,
        r#"SELECT k.agent_id AS "agent_id?", NULL::uuid[] AS agents, k.tenant_id, k.secret_hash, k.scopes, k.expires_at,
                  k.revoked_at, k.last_used_at, k.end_user, k.rate_per_minute,
                  t.suspended_at IS NOT NULL AS "suspended!", t.closing_at IS NOT NULL AS "closing!"
           FROM api_keys k JOIN agents a ON a.id = k.agent_id AND a.deleted_at IS NULL
           JOIN tenants t ON t.id = k.tenant_id
          WHERE k.id = $1"#,
        id as _
    )
    .fetch_optional(pool)
    .await?;
    if agent_key.is_some() {
        return Ok(agent_key);
    }
    sqlx::query_as!(
        Found,
        r#"SELECT NULL::uuid AS agent_id, k.agents, k.tenant_id, k.secret_hash, k.scopes, k.expires_at, k.revoked_at,
                  k.last_used_at, NULL::text AS end_user, k.rate_per_minute,
                  t.suspended_at IS NOT NULL AS "suspended!", t.closing_at IS NOT NULL AS "closing!"
           FROM account_keys k JOIN tenants t ON t.id = k.tenant_id
          WHERE k.id = $1"#,
        id as _
    )
    .fetch_optional(pool)
    .await
}

/// Writes `last_used_at` in the background: on the agent's key, or (no agent) the account's.
fn touch(pool: &PgPool, agent_id: Option<AgentId>, id: KeyId) {
    let pool = pool.clone();
    tokio::spawn(async move {
        let _ = match agent_id {
            Some(agent_id) => {
                sqlx::query!(
                    "UPDATE api_keys SET last_used_at = now() WHERE agent_id = $1 AND id = $2",
                    agent_id as _,
                    id as _
                )
                .execute(&pool)
                .await
            }
            None => {
                sqlx::query!("UPDATE account_keys SET last_used_at = now() WHERE id = $1", id as _).execute(&pool).await
            }
        };
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minted_keys_parse_and_verify() {
        let k = mint();
        let token = k.token.expose();
        assert!(token.starts_with("mck_"));
        assert_eq!(token.len(), 4 + 32 + 1 + 64);
        let (id, secret) = parse(token).unwrap();
        assert_eq!(id, k.id);
        assert!(secret_matches(secret, &k.secret_hash));
        assert!(!secret_matches(&"0".repeat(64), &k.secret_hash));
        assert!(!format!("{:?}", k.token).contains(secret), "Debug hides the token");
    }

    #[test]
    fn malformed_tokens_are_rejected() {
        for t in ["", "mck_", "sk-abc", "mck_123_456", &format!("mck_{}_{}", "g".repeat(32), "0".repeat(64))] {
            assert!(parse(t).is_none(), "{t}");
        }
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// What `mint` writes: the prefix, 32 and 64 lower-case hex digits.
    fn minted_shape(t: &str) -> bool {
        let hex =
            |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        t.strip_prefix(PREFIX)
            .and_then(|r| r.split_once('_'))
            .is_some_and(|(id, secret)| hex(id, 32) && hex(secret, 64))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn every_minted_key_parses_to_its_id_and_secret(_seed in any::<u8>()) {
            let k = mint();
            let (id, secret) = parse(k.token.expose()).expect("a minted key parses");
            prop_assert_eq!(id, k.id);
            prop_assert!(secret_matches(secret, &k.secret_hash));
        }

        #[test]
        fn only_the_minted_shape_parses(token in any::<String>()) {
            prop_assert_eq!(parse(&token).is_some(), minted_shape(&token));
        }

        #[test]
        fn near_misses_of_a_key_are_refused(
            id in "[0-9a-fA-F]{32}|[0-9a-f]{31,33}",
            secret in "[0-9a-fA-F]{64}|[0-9a-f]{63,65}",
            sep in "_|-",
            prefix in "mck_|MCK_|mck",
        ) {
            let token = format!("{prefix}{id}{sep}{secret}");
            prop_assert_eq!(parse(&token).is_some(), minted_shape(&token));
        }

        #[test]
        fn a_changed_secret_never_matches(flip in 0usize..64) {
            let k = mint();
            let (_, secret) = parse(k.token.expose()).unwrap();
            let mut changed: Vec<u8> = secret.bytes().collect();
            changed[flip] = if changed[flip] == b'0' { b'1' } else { b'0' };
            prop_assert!(!secret_matches(std::str::from_utf8(&changed).unwrap(), &k.secret_hash));
        }

        #[test]
        fn accepted_key_names_are_one_plain_trimmed_line(
            name in "\\PC{0,80}|[a-z \\n\\r\\t\\u{0}\\u{85}\\u{2028}\\u{2029}\\u{202E}\\u{2066}\\u{200D}]{0,80}"
        ) {
            let breaks_or_turns = |c: char| {
                c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
            };
            if let Ok((n, _)) = validate_request(&name, &["chat:read".to_string()], None) {
                prop_assert!(!n.is_empty() && n.chars().count() <= 64 && n == n.trim());
                prop_assert!(!n.chars().any(breaks_or_turns), "{:?}", n);
            }
        }
    }
}
