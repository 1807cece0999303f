//! An agent's economy at a glance: its balances across the rails, what is held, tips, orders,
//! stakes, and the owner's auto-approve limit for value a chat tool moves.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;

use crate::onchain::credits::{self, Holder};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::chain::Chain;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Economy {
    /// The agent's credit balance (what it earned and was given, less what it spent and holds).
    pub credits: i64,
    /// Credits it holds in its open orders as a buyer.
    pub held_in_orders: i64,
    /// Credits it has in active stakes.
    pub staked: i64,
    /// The agent's native balance, when it has a wallet and a chain is configured.
    pub wallet: Option<WalletBalance>,
    pub tips: TipTotals,
    /// Orders by status, as buyer and as seller.
    pub orders_as_buyer: BTreeMap<String, i64>,
    pub orders_as_seller: BTreeMap<String, i64>,
    /// Credits in active stakes backing the agent, and their conviction now.
    pub backing: i64,
    pub backing_conviction: f64,
    /// Active services on offer.
    pub services: i64,
    /// Credits a chat tool may move without the owner's confirmation.
    pub auto_approve_credits: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WalletBalance {
    pub address: String,
    /// Wei as a decimal string; `null` with `error` when the node could not be read.
    pub balance_wei: Option<String>,
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TipTotals {
    /// Credits received as tips (completed).
    pub received_credits: i64,
    /// Credits given as tips and gifts (completed).
    pub given_credits: i64,
    pub received: i64,
    pub given: i64,
}

pub async fn of(pool: &PgPool, chain: Option<&Chain>, tenant: TenantId, agent: AgentId) -> Result<Economy, Error> {
    let mut conn = pool.acquire().await?;
    let account = credits::account(&mut conn, Holder::Agent(tenant, agent)).await?;
    let r = sqlx::query!(
        r#"SELECT (SELECT balance FROM credit_accounts WHERE id = $2) AS "credits!",
                  (SELECT coalesce(sum(price), 0)::bigint FROM service_orders
                    WHERE buyer_agent = $1 AND status NOT IN ('settled', 'refunded')) AS "held!",
                  (SELECT coalesce(sum(amount), 0)::bigint FROM stakes
                    WHERE staker_agent = $1 AND asset = 'credits' AND status = 'active') AS "staked!",
                  (SELECT coalesce(sum(amount::bigint), 0)::bigint FROM tips
                    WHERE to_agent = $1 AND rail = 'credits' AND status = 'completed') AS "received_credits!",
                  (SELECT coalesce(sum(amount::bigint), 0)::bigint FROM tips
                    WHERE from_agent = $1 AND rail = 'credits' AND status = 'completed') AS "given_credits!",
                  (SELECT count(*) FROM tips WHERE to_agent = $1) AS "received!",
                  (SELECT count(*) FROM tips WHERE from_agent = $1) AS "given!",
                  (SELECT count(*) FROM agent_services WHERE agent_id = $1 AND active) AS "services!",
                  (SELECT auto_approve_credits FROM agent_economy_settings WHERE agent_id = $1) AS "auto_approve?",
                  (SELECT address FROM agent_wallets WHERE agent_id = $1) AS "address?""#,
        agent as _,
        account
    )
    .fetch_one(&mut *conn)
    .await?;
    let orders = sqlx::query!(
        r#"SELECT buyer_agent = $1 AS "buyer!", status, count(*) AS "n!" FROM service_orders
            WHERE buyer_agent = $1 OR seller_agent = $1 GROUP BY 1, 2"#,
        agent as _
    )
    .fetch_all(&mut *conn)
    .await?;
    let (mut orders_as_buyer, mut orders_as_seller) = (BTreeMap::new(), BTreeMap::new());
    for o in orders {
        if o.buyer { &mut orders_as_buyer } else { &mut orders_as_seller }.insert(o.status, o.n);
    }
    let backing = sqlx::query!(
        r#"SELECT amount, (extract(epoch FROM now() - created_at) / 86400)::float8 AS "age_days!"
             FROM stakes WHERE target_agent = $1 AND asset = 'credits' AND status = 'active'"#,
        agent as _
    )
    .fetch_all(&mut *conn)
    .await?;
    drop(conn);
    let wallet = match r.address {
        Some(address) => {
            let (balance_wei, error) = match crate::onchain::wallets::balance(chain, &address).await {
                Ok(b) => (Some(b), None),
                Err(e) => (None, Some(e)),
            };
            Some(WalletBalance { address, balance_wei, error })
        }
        None => None,
    };
    Ok(Economy {
        credits: r.credits,
        held_in_orders: r.held,
        staked: r.staked,
        wallet,
        tips: TipTotals {
            received_credits: r.received_credits,
            given_credits: r.given_credits,
            received: r.received,
            given: r.given,
        },
        orders_as_buyer,
        orders_as_seller,
        backing: backing.iter().map(|s| s.amount).sum(),
        backing_conviction: backing.iter().map(|s| super::stakes::conviction(s.amount, s.age_days)).sum(),
        services: r.services,
        auto_approve_credits: r.auto_approve.unwrap_or(0),
    })
}

#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Credits a chat tool may tip or gift without the owner's confirmation (per action); 0: every
    /// one waits for the owner. At most 1,000,000.
    pub auto_approve_credits: i64,
}

/// The owner sets the agent's auto-approve limit.
pub async fn set(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    s: Settings,
) -> Result<Settings, Error> {
    if !(0..=1_000_000).contains(&s.auto_approve_credits) {
        return Err(Error::validation("auto_approve_credits", "auto_approve_credits is 0 to 1,000,000"));
    }
    let mut db = pool.begin().await?;
    sqlx::query!(
        "INSERT INTO agent_economy_settings (agent_id, auto_approve_credits) VALUES ($1, $2)
         ON CONFLICT (agent_id) DO UPDATE SET auto_approve_credits = $2, updated_at = now()",
        agent as _,
        s.auto_approve_credits
    )
    .execute(&mut *db)
    .await?;
    let details = json!({ "auto_approve_credits": s.auto_approve_credits });
    activity::record_agent(&mut db, tenant, agent, origin, "economy.settings_changed", details).await?;
    db.commit().await?;
    Ok(s)
}

/// The agent's auto-approve limit.
pub async fn auto_approve(pool: &PgPool, agent: AgentId) -> sqlx::Result<i64> {
    Ok(sqlx::query_scalar!("SELECT auto_approve_credits FROM agent_economy_settings WHERE agent_id = $1", agent as _)
        .fetch_optional(pool)
        .await?
        .unwrap_or(0))
}
