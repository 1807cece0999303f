//! Single-use signing challenges (SPEC A4): a nonce and the exact message to sign, bound to a
//! purpose, an identity (address or public key) and, for connect, an agent. Valid 5 minutes.

use crate::ids::AgentId;
use chrono::{DateTime, Duration, Utc};
use rand::RngCore;
use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

pub const TTL: Duration = Duration::minutes(5);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyType {
    Evm,
    Ed25519,
}

impl KeyType {
    pub fn as_str(self) -> &'static str {
        match self {
            KeyType::Evm => "evm",
            KeyType::Ed25519 => "ed25519",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    OwnerLogin,
    AgentConnect,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::OwnerLogin => "owner_login",
            Purpose::AgentConnect => "agent_connect",
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Challenge {
    pub nonce: String,
    /// Sign exactly this text (UTF-8): EIP-191 personal_sign for wallets, raw Ed25519 otherwise.
    pub message: String,
    pub expires_at: DateTime<Utc>,
}

/// What a connect challenge asks for: the key its signer will get, exactly. It is written into
/// the message, so the signature covers it, and kept with the nonce.
#[derive(Debug, Clone)]
pub struct ConnectGrant {
    pub agent_id: AgentId,
    pub name: String,
    pub scopes: Vec<String>,
    pub expires_at: DateTime<Utc>,
}

/// A challenge that was consumed by a connect or login attempt.
#[derive(Debug, sqlx::FromRow)]
pub struct Consumed {
    pub purpose: String,
    pub agent_id: Option<Uuid>,
    pub key_type: String,
    pub identity: String,
    pub message: String,
    /// For connect: the key the message promised.
    pub scopes: Option<Vec<String>>,
    pub key_name: Option<String>,
    pub key_expires_at: Option<DateTime<Utc>>,
}

pub async fn create(
    pool: &PgPool,
    purpose: Purpose,
    key_type: KeyType,
    identity: &str,
    grant: Option<&ConnectGrant>,
    origin: &str,
) -> sqlx::Result<Challenge> {
    let mut raw = [0u8; 16];
    rand::rng().fill_bytes(&mut raw);
    let nonce = hex::encode(raw);
    let now = Utc::now();
    let expires_at = now + TTL;
    let account = match key_type {
        KeyType::Evm => "Ethereum account",
        KeyType::Ed25519 => "Ed25519 key",
    };
    let statement = match (purpose, grant) {
        (Purpose::AgentConnect, Some(g)) => format!(
            "Issue an API key for agent {}.\nKey name: {}\nScopes: {}\nKey expires: {}",
            g.agent_id,
            g.name,
            g.scopes.join(" "),
            g.expires_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        ),
        _ => "Sign in to miniclaw as an owner.".to_string(),
    };
    let message = format!(
        "{origin} wants you to sign in with your {account}:\n{identity}\n\n{statement}\n\nURI: {origin}\nVersion: 1\nNonce: {nonce}\nIssued At: {}\nExpiration Time: {}",
        now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        expires_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    );
    sqlx::query!(
        "INSERT INTO auth_challenges (nonce, purpose, agent_id, key_type, identity, message, expires_at, scopes, key_name,
            key_expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        nonce,
        purpose.as_str(),
        grant.map(|g| g.agent_id) as _,
        key_type.as_str(),
        identity,
        message,
        expires_at,
        grant.map(|g| g.scopes.as_slice()),
        grant.map(|g| g.name.as_str()),
        grant.map(|g| g.expires_at)
    )
    .execute(pool)
    .await?;
    // Old challenges are useless; keep the table small.
    sqlx::query!("DELETE FROM auth_challenges WHERE expires_at < now() - interval '1 day'").execute(pool).await?;
    Ok(Challenge { nonce, message, expires_at })
}

/// Marks the nonce used and returns it, if it exists, is unused, unexpired and has `purpose`.
/// Atomic: of two concurrent attempts with the same nonce, one wins.
pub async fn consume(pool: &PgPool, nonce: &str, purpose: Purpose) -> sqlx::Result<Option<Consumed>> {
    sqlx::query_as!(
        Consumed,
        "UPDATE auth_challenges SET used_at = now()
         WHERE nonce = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
         RETURNING purpose, agent_id, key_type, identity, message, scopes, key_name, key_expires_at",
        nonce,
        purpose.as_str()
    )
    .fetch_optional(pool)
    .await
}
