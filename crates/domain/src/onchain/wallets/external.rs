//! Owner-held wallets of an agent, by address (SPEC I2): listed with their balance, never
//! signed for. At most `MAX` per agent.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::chain::Chain;

pub const MAX: i64 = 20;
/// The longest label (characters).
pub const LABEL_MAX: usize = 100;

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExternalInput {
    /// A 0x address the owner holds the key of.
    pub address: String,
    /// A name for it (at most 100 characters).
    pub label: Option<String>,
}

/// An owner-held wallet with its balance on the configured chain.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExternalWallet {
    pub id: Uuid,
    /// Lower-case 0x address.
    pub address: String,
    pub label: String,
    /// Always false: miniclaw holds no key for it.
    pub server_managed: bool,
    /// Native balance in wei; `null` without a chain or when the node did not answer.
    pub balance_wei: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// The agent's owner-held wallets, newest first (`limit` rows before the id `before`), with
/// balances when a chain is configured.
pub async fn list(
    pool: &PgPool,
    chain: Option<&Chain>,
    agent: AgentId,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<ExternalWallet>> {
    let rows = sqlx::query!(
        "SELECT id, address, label, created_at FROM agent_external_wallets
          WHERE agent_id = $1 AND ($3::uuid IS NULL OR id < $3) ORDER BY id DESC LIMIT $2",
        agent as _,
        limit,
        before
    )
    .fetch_all(pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let balance_wei = super::balance(chain, &r.address).await.ok();
        out.push(ExternalWallet {
            id: r.id,
            address: r.address,
            label: r.label,
            server_managed: false,
            balance_wei,
            created_at: r.created_at,
        });
    }
    Ok(out)
}

/// Adds an owner-held wallet; 409 when the agent lists it already or has `MAX`.
pub async fn add(
    pool: &PgPool,
    chain: Option<&Chain>,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: ExternalInput,
) -> Result<ExternalWallet, Error> {
    let address: alloy::primitives::Address = input
        .address
        .trim()
        .parse()
        .map_err(|_| Error::validation("address", "address must be a 0x-prefixed 20-byte hex address"))?;
    let label = input.label.unwrap_or_default().trim().to_string();
    if label.chars().count() > LABEL_MAX {
        return Err(Error::too_long("label", LABEL_MAX, label.chars().count()));
    }
    let mut db = pool.begin().await?;
    // The agent row orders concurrent additions, so the count cannot be raced past.
    if !crate::tenancy::agents::lock(&mut db, agent).await? {
        return Err(Error::not_found("agent"));
    }
    let count =
        sqlx::query_scalar!(r#"SELECT count(*) AS "n!" FROM agent_external_wallets WHERE agent_id = $1"#, agent as _)
            .fetch_one(&mut *db)
            .await?;
    if count >= MAX {
        return Err(Error::Conflict(format!("an agent lists at most {MAX} owner-held wallets")));
    }
    let id = Uuid::now_v7();
    let created_at = sqlx::query_scalar!(
        "INSERT INTO agent_external_wallets (id, agent_id, address, label) VALUES ($1, $2, $3, $4)
         ON CONFLICT (agent_id, address) DO NOTHING RETURNING created_at",
        id,
        agent as _,
        format!("{address:#x}"),
        label
    )
    .fetch_optional(&mut *db)
    .await?
    .ok_or_else(|| Error::Conflict("the agent lists this wallet already".into()))?;
    let details = serde_json::json!({ "address": format!("{address:#x}"), "label": label });
    activity::record_agent(&mut db, tenant, agent, origin, "wallet.external_added", details).await?;
    db.commit().await?;
    let address = format!("{address:#x}");
    let balance_wei = super::balance(chain, &address).await.ok();
    Ok(ExternalWallet { id, address, label, server_managed: false, balance_wei, created_at })
}

/// Removes an owner-held wallet; false when the agent has no such wallet.
pub async fn remove(pool: &PgPool, tenant: TenantId, agent: AgentId, origin: &Origin, id: Uuid) -> sqlx::Result<bool> {
    let mut db = pool.begin().await?;
    let gone = sqlx::query_scalar!(
        "DELETE FROM agent_external_wallets WHERE id = $1 AND agent_id = $2 RETURNING address",
        id,
        agent as _
    )
    .fetch_optional(&mut *db)
    .await?;
    let Some(address) = gone else { return Ok(false) };
    activity::record_agent(
        &mut db,
        tenant,
        agent,
        origin,
        "wallet.external_removed",
        serde_json::json!({ "address": address }),
    )
    .await?;
    db.commit().await?;
    Ok(true)
}
