//! Server-managed wallets (SPEC I2): one secp256k1 key per agent, generated here, sealed under
//! the master key (`secrets::Vault`, AES-256-GCM) and opened only in memory to sign. The key is
//! never logged and never in a response: `Wallet` carries the address alone, and the signer
//! type prints nothing secret.
//!
//! - `transactions`: what the wallet sent, from request to receipt (and the crash-safe settle).
//! - `send`: native-value sends within the owner's limits, confirmation above a threshold.
//! - `external`: owner-held wallets, by address, read-only.

pub mod external;
pub mod send;
pub mod transactions;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use zeroize::Zeroizing;

use alloy::signers::local::PrivateKeySigner;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::secrets::{KeySource, Vault};

/// An agent's wallet as clients see it: the address, never the key.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Wallet {
    /// Lower-case 0x address.
    pub address: String,
    /// Always true: the key was generated and is kept by the server.
    pub server_managed: bool,
    pub limits: Limits,
    pub created_at: DateTime<Utc>,
}

/// The owner's limits on sends, in wei (decimal strings). `null` per-transaction or per-day
/// limits mean nothing can be sent yet; `null` `confirm_above_wei` means no send waits for a
/// confirmation.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Limits {
    pub max_per_tx_wei: Option<String>,
    pub max_per_day_wei: Option<String>,
    pub confirm_above_wei: Option<String>,
}

/// The vault name a wallet key is sealed under (the associated data of its ciphertext).
fn key_name(agent: AgentId) -> String {
    format!("wallet:{agent}")
}

/// 422 `no_wallet`: the agent would sign and has no server-managed wallet.
/// A paused agent's wallet moves nothing (409), until its owner turns the agent back on.
pub fn paused() -> Error {
    Error::Conflict(
        "the agent is paused (active: false): its wallet moves no value until its owner turns it back on".into(),
    )
}

pub fn no_wallet() -> Error {
    Error::Unprocessable {
        code: "no_wallet",
        message: "the agent has no server-managed wallet: create one first (POST …/wallet)".into(),
        details: None,
    }
}

/// Wallet keys are only created under a configured master key: a key file next to the data
/// could be copied with it, and a lost one loses the funds.
pub fn require_master_key(vault: &Vault) -> Result<(), Error> {
    match vault.source() {
        KeySource::Environment => Ok(()),
        KeySource::File(_) => Err(Error::Unprocessable {
            code: "master_key_required",
            message: "server-managed wallet keys are sealed under the master key, and none is configured: set \
                      MINICLAW_MASTER_KEY to 64 hex characters (e.g. the output of `openssl rand -hex 32`), keep it \
                      safe, and restart"
                .into(),
            details: None,
        }),
    }
}

struct Row {
    address: String,
    max_per_tx_wei: Option<String>,
    max_per_day_wei: Option<String>,
    confirm_above_wei: Option<String>,
    created_at: DateTime<Utc>,
}

impl From<Row> for Wallet {
    fn from(r: Row) -> Wallet {
        Wallet {
            address: r.address,
            server_managed: true,
            limits: Limits {
                max_per_tx_wei: r.max_per_tx_wei,
                max_per_day_wei: r.max_per_day_wei,
                confirm_above_wei: r.confirm_above_wei,
            },
            created_at: r.created_at,
        }
    }
}

/// The native balance of `address` in wei (a decimal string), or why it cannot be read: no
/// chain configured, or the node's error (which never carries its URL).
pub async fn balance(chain: Option<&miniclaw_platform::chain::Chain>, address: &str) -> Result<String, String> {
    let chain = chain.ok_or_else(|| "no chain is configured (EVM_RPC_URL)".to_string())?;
    let address = address.parse().map_err(|_| "the stored address does not parse".to_string())?;
    chain.balance(address).await.map(|b| b.to_string()).map_err(|e| e.to_string())
}

/// Which wallets the agent has: (a server-managed one, at least one owner-held one listed).
pub async fn held(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<(bool, bool)> {
    let r = sqlx::query!(
        r#"SELECT EXISTS (SELECT 1 FROM agent_wallets WHERE agent_id = $1) AS "server!",
                  EXISTS (SELECT 1 FROM agent_external_wallets WHERE agent_id = $1) AS "owner!""#,
        agent as _
    )
    .fetch_one(conn)
    .await?;
    Ok((r.server, r.owner))
}

/// Where native value for the agent goes: its server-managed wallet when `server_first` and it
/// has one, else the first owner-held wallet listed on it; `None` when it has neither.
pub async fn payout_address(
    conn: &mut PgConnection,
    agent: AgentId,
    server_first: bool,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        r#"SELECT coalesce(
               CASE WHEN $2 THEN (SELECT address FROM agent_wallets WHERE agent_id = $1) END,
               (SELECT address FROM agent_external_wallets WHERE agent_id = $1 ORDER BY created_at LIMIT 1)) AS "address?""#,
        agent as _,
        server_first
    )
    .fetch_one(conn)
    .await
}

/// The agent's wallet, if it has one.
pub async fn get(pool: &PgPool, agent: AgentId) -> sqlx::Result<Option<Wallet>> {
    let row = sqlx::query_as!(
        Row,
        "SELECT address, max_per_tx_wei, max_per_day_wei, confirm_above_wei, created_at
           FROM agent_wallets WHERE agent_id = $1",
        agent as _
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(Wallet::from))
}

/// Generates and stores the agent's wallet in the caller's transaction; `Ok(None)` when it has
/// one already (the existing key is never replaced).
pub async fn create(
    conn: &mut PgConnection,
    vault: &Vault,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
) -> Result<Option<Wallet>, Error> {
    require_master_key(vault)?;
    let signer = PrivateKeySigner::random();
    let address = format!("{:#x}", signer.address());
    let key = Zeroizing::new(signer.to_bytes().0);
    let sealed = vault.seal(&key_name(agent), key.as_slice());
    drop(signer);
    let row = sqlx::query_as!(
        Row,
        "INSERT INTO agent_wallets (agent_id, address, sealed_key) VALUES ($1, $2, $3)
         ON CONFLICT (agent_id) DO NOTHING
         RETURNING address, max_per_tx_wei, max_per_day_wei, confirm_above_wei, created_at",
        agent as _,
        address,
        sealed
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let details = serde_json::json!({ "address": row.address, "key": vault.key_id() });
    activity::record_agent(conn, tenant, agent, origin, "wallet.created", details).await?;
    Ok(Some(row.into()))
}

/// The agent's wallet, created first when it has none.
pub async fn ensure(
    conn: &mut PgConnection,
    vault: &Vault,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
) -> Result<String, Error> {
    let existing = sqlx::query_scalar!("SELECT address FROM agent_wallets WHERE agent_id = $1", agent as _)
        .fetch_optional(&mut *conn)
        .await?;
    if let Some(a) = existing {
        return Ok(a);
    }
    match create(conn, vault, tenant, agent, origin).await? {
        Some(w) => Ok(w.address),
        None => Ok(sqlx::query_scalar!("SELECT address FROM agent_wallets WHERE agent_id = $1", agent as _)
            .fetch_one(&mut *conn)
            .await?),
    }
}

/// The agent's signing key, opened in memory. A key sealed under a previous master key is
/// sealed again under the current one.
pub async fn signer(pool: &PgPool, vault: &Vault, agent: AgentId) -> anyhow::Result<PrivateKeySigner> {
    let row = sqlx::query!("SELECT address, sealed_key FROM agent_wallets WHERE agent_id = $1", agent as _)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| anyhow::anyhow!("agent {agent} has no wallet"))?;
    let name = key_name(agent);
    let opened =
        vault.open(&name, &row.sealed_key).map_err(|e| anyhow::anyhow!("the wallet key of agent {agent}: {e}"))?;
    let plain = Zeroizing::new(opened.plain);
    let signer = PrivateKeySigner::from_slice(&plain)
        .map_err(|_| anyhow::anyhow!("the wallet key of agent {agent} is not a secp256k1 key"))?;
    if format!("{:#x}", signer.address()) != row.address {
        anyhow::bail!("the wallet key of agent {agent} does not match its address");
    }
    if opened.stale {
        sqlx::query!(
            "UPDATE agent_wallets SET sealed_key = $2 WHERE agent_id = $1 AND sealed_key = $3",
            agent as _,
            vault.seal(&name, &plain),
            row.sealed_key
        )
        .execute(pool)
        .await?;
        tracing::info!(agent.id = %agent, key = %vault.key_id(), "wallet key sealed under the current master key");
    }
    Ok(signer)
}

/// The vault name of the platform's sponsor wallet (`MINICLAW_IDENTITY_SIGNER=sponsor`).
const SPONSOR: &str = "wallet:sponsor";

/// The platform's sponsor wallet: a key generated on first use and kept sealed with the
/// platform secrets. Only under a configured master key.
pub async fn sponsor_signer(pool: &PgPool, vault: &Vault) -> anyhow::Result<PrivateKeySigner> {
    if !matches!(vault.source(), KeySource::Environment) {
        anyhow::bail!("the sponsor wallet needs a configured master key (MINICLAW_MASTER_KEY)");
    }
    let key =
        Zeroizing::new(vault.platform_secret(pool, SPONSOR, || PrivateKeySigner::random().to_bytes().to_vec()).await?);
    PrivateKeySigner::from_slice(&key).map_err(|_| anyhow::anyhow!("the sponsor wallet key is not a secp256k1 key"))
}
