//! Single-use signing challenges (SPEC A4): a nonce and the exact message to sign, bound to a
//! purpose, an identity (address or public key) and, for connect, an agent. Valid 5 minutes.

use chrono::{DateTime, Duration, Utc};
use miniclaw_core::ids::AgentId;
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

/// The text to sign, one fact per line (SIWE-like): who asks, which account, what for (for
/// connect: the agent, key name, scopes and expiry), the nonce and the validity.
fn message(
    origin: &str,
    key_type: KeyType,
    identity: &str,
    grant: Option<&ConnectGrant>,
    nonce: &str,
    now: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> String {
    let account = match key_type {
        KeyType::Evm => "Ethereum account",
        KeyType::Ed25519 => "Ed25519 key",
    };
    let statement = match grant {
        Some(g) => format!(
            "Issue an API key for agent {}.\nKey name: {}\nScopes: {}\nKey expires: {}",
            g.agent_id,
            g.name,
            g.scopes.join(" "),
            g.expires_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        ),
        None => "Sign in to miniclaw as an owner.".to_string(),
    };
    format!(
        "{origin} wants you to sign in with your {account}:\n{identity}\n\n{statement}\n\nURI: {origin}\nVersion: 1\nNonce: {nonce}\nIssued At: {}\nExpiration Time: {}",
        now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        expires_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    )
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
    // Only a connect issues a key: its message names it.
    let promised = grant.filter(|_| purpose == Purpose::AgentConnect);
    let message = message(origin, key_type, identity, promised, &nonce, now, expires_at);
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

#[cfg(test)]
mod props {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    /// What a signer reads in a message: the facts `message` wrote, recovered line by line.
    #[derive(Debug, PartialEq)]
    struct Read {
        origin: String,
        account: String,
        identity: String,
        statement: Vec<String>,
        nonce: String,
        issued: DateTime<Utc>,
        expires: DateTime<Utc>,
    }

    fn read(m: &str) -> Option<Read> {
        let lines: Vec<&str> = m.split('\n').collect();
        let (head, rest) = lines.split_at_checked(3)?;
        let [ask, identity, ""] = head else { return None };
        let (origin, account) = ask.split_once(" wants you to sign in with your ")?;
        let (statement, tail) = rest.split_at_checked(rest.len().checked_sub(6)?)?;
        let ["", uri, "Version: 1", nonce, issued, expires] = tail else { return None };
        let time = |s: &str| DateTime::parse_from_rfc3339(s).ok().map(|t| t.with_timezone(&Utc));
        (uri.strip_prefix("URI: ")? == origin).then_some(())?;
        Some(Read {
            origin: origin.to_string(),
            account: account.strip_suffix(':')?.to_string(),
            identity: identity.to_string(),
            statement: statement.iter().map(|s| s.to_string()).collect(),
            nonce: nonce.strip_prefix("Nonce: ")?.to_string(),
            issued: time(issued.strip_prefix("Issued At: ")?)?,
            expires: time(expires.strip_prefix("Expiration Time: ")?)?,
        })
    }

    fn scope_names() -> impl Strategy<Value = Vec<String>> {
        let names: Vec<String> = crate::tenancy::auth::scopes::ALL.iter().map(|(s, _)| s.to_string()).collect();
        proptest::sample::subsequence(names.clone(), 1..names.len())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Every key the connect route would accept is written into the message so that a signer
        /// reads back exactly that key: no name can add, hide or change a line.
        #[test]
        fn a_connect_message_reads_back_as_the_key_it_promises(
            name in "\\PC{0,70}|[a-zA-Z:* \n\r\t\u{85}\u{2028}]{0,70}",
            scopes in scope_names(),
            origin in "https?://[a-z0-9.-]{1,30}(:[0-9]{2,5})?",
            evm in any::<bool>(),
            identity in "[0-9a-f]{40,64}",
            secs in 0i64..4_000_000_000,
            days in 1i64..3650,
        ) {
            let Ok((name, scopes)) = crate::tenancy::auth::keys::validate_request(&name, &scopes, None) else { return Ok(()) };
            let now = Utc.timestamp_opt(secs, 0).unwrap();
            let grant = ConnectGrant { agent_id: AgentId::new(), name, scopes, expires_at: now + Duration::days(days) };
            let key_type = if evm { KeyType::Evm } else { KeyType::Ed25519 };
            let text = message(&origin, key_type, &identity, Some(&grant), "n0nce", now, now + TTL);
            let read = read(&text).unwrap_or_else(|| panic!("unreadable: {text:?}"));
            let expires = grant.expires_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
            prop_assert_eq!(read, Read {
                origin: origin.clone(),
                account: if evm { "Ethereum account" } else { "Ed25519 key" }.into(),
                identity: identity.clone(),
                statement: vec![
                    format!("Issue an API key for agent {}.", grant.agent_id),
                    format!("Key name: {}", grant.name),
                    format!("Scopes: {}", grant.scopes.join(" ")),
                    format!("Key expires: {expires}"),
                ],
                nonce: "n0nce".into(),
                issued: now,
                expires: now + TTL,
            });
        }

        #[test]
        fn a_sign_in_message_has_one_statement_line(identity in "0x[0-9a-f]{40}", secs in 0i64..4_000_000_000) {
            let now = Utc.timestamp_opt(secs, 0).unwrap();
            let read = read(&message("https://miniclaw.example", KeyType::Evm, &identity, None, "n", now, now + TTL)).unwrap();
            prop_assert_eq!(read.statement, vec!["Sign in to miniclaw as an owner.".to_string()]);
            prop_assert_eq!(read.identity, identity);
        }
    }
}
