//! The gas subsidy (SPEC I5): the platform's sponsor wallet tops an agent's wallet up to
//! `MINICLAW_GAS_FLOOR_WEI`, within `MINICLAW_GAS_DAILY_BUDGET_WEI` per UTC day for the whole
//! platform, `MINICLAW_GAS_TENANT_DAILY_WEI` per account and once a day per agent, for accounts
//! at least `MINICLAW_GAS_MIN_ACCOUNT_DAYS` old. Each top-up is a sponsor-signed transaction
//! logged in `gas_topups`; an agent has one in flight at most, and its own economy transactions
//! wait for it to land. The subsidy pays gas, not transfers: a wallet topped up in the last 24
//! hours sends no native value (`recently_subsidised`), so the sponsor's wei cannot be forwarded.

use alloy::primitives::{Bytes, U256};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::onchain::{self, Request};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;

/// The advisory lock that orders budget checks (one top-up decided at a time).
const BUDGET_LOCK: i64 = 0x6761_7374_6f70; // "gastop"

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Topup {
    pub id: Uuid,
    pub address: String,
    pub amount_wei: String,
    /// The wallet transaction's status: `queued`, `signed`, `confirmed` or `failed`.
    pub status: String,
    pub tx_hash: Option<String>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Subsidy {
    /// 0: the subsidy is off.
    pub floor_wei: String,
    pub daily_budget_wei: String,
    /// Given platform-wide today (UTC), failed top-ups excluded.
    pub spent_today_wei: String,
    /// The agent's latest top-ups, newest first.
    pub topups: Vec<Topup>,
}

/// What a top-up request did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TopupResult {
    pub topped_up: bool,
    /// Why not, or what was sent.
    pub reason: String,
    pub topup: Option<Topup>,
}

/// Whether a top-up of the agent's wallet is still on its way.
pub async fn topping_up(pool: &PgPool, agent: AgentId) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM wallet_transactions WHERE agent_id = $1 AND purpose = 'gas_topup'
                            AND status IN ('queued', 'signed')) AS "busy!""#,
        agent as _
    )
    .fetch_one(pool)
    .await
}

/// What the subsidy gave today (UTC), failed top-ups excluded: platform-wide, or to one account's
/// agents when `tenant` is given.
async fn spent_today(conn: &mut sqlx::PgConnection, tenant: Option<TenantId>) -> sqlx::Result<U256> {
    let spent = sqlx::query_scalar!(
        r#"SELECT coalesce(sum(g.amount_wei), 0)::text AS "spent!" FROM gas_topups g
             LEFT JOIN wallet_transactions w ON w.id = g.wallet_tx
            WHERE g.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
              AND ($1::uuid IS NULL OR g.tenant_id = $1)
              AND coalesce(w.status, 'failed') NOT IN ('failed', 'cancelled')"#,
        tenant.map(|t| t.0)
    )
    .fetch_one(conn)
    .await?;
    Ok(spent.parse().unwrap_or_default())
}

/// Whether the agent's wallet got a top-up (not failed) in the last 24 hours: then it sends no
/// native value, so the subsidy only ever pays gas.
pub async fn recently_subsidised(conn: &mut sqlx::PgConnection, agent: AgentId) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM gas_topups g LEFT JOIN wallet_transactions w ON w.id = g.wallet_tx
                           WHERE g.agent_id = $1 AND g.created_at > now() - interval '24 hours'
                             AND coalesce(w.status, 'failed') NOT IN ('failed', 'cancelled')) AS "subsidised!""#,
        agent as _
    )
    .fetch_one(conn)
    .await
}

async fn topups(pool: &PgPool, agent: AgentId, id: Option<Uuid>) -> sqlx::Result<Vec<Topup>> {
    sqlx::query_as!(
        Topup,
        r#"SELECT g.id, g.address, g.amount_wei::text AS "amount_wei!", coalesce(w.status, 'failed') AS "status!", w.tx_hash AS "tx_hash?",
                  g.created_at
             FROM gas_topups g LEFT JOIN wallet_transactions w ON w.id = g.wallet_tx
            WHERE g.agent_id = $1 AND ($2::uuid IS NULL OR g.id = $2) ORDER BY g.id DESC LIMIT 20"#,
        agent as _,
        id
    )
    .fetch_all(pool)
    .await
}

/// The subsidy's settings, today's spending and the agent's top-ups.
pub async fn status(deps: &Deps, agent: AgentId) -> Result<Subsidy, Error> {
    let chain = crate::onchain::wallets::send::configured(deps)?;
    let mut conn = deps.pool.acquire().await?;
    let spent = spent_today(&mut conn, None).await?;
    drop(conn);
    Ok(Subsidy {
        floor_wei: chain.settings.gas_floor_wei.to_string(),
        daily_budget_wei: chain.settings.gas_daily_budget_wei.to_string(),
        spent_today_wei: spent.to_string(),
        topups: topups(&deps.pool, agent, None).await?,
    })
}

/// Whether a top-up of `amount` keeps today's `spent` within `limit`; else 422 `code`, naming
/// `what` the limit is.
fn within(limit: U256, spent: U256, amount: U256, code: &'static str, what: &str) -> Result<(), Error> {
    let after = spent.saturating_add(amount);
    if after <= limit {
        return Ok(());
    }
    Err(Error::Unprocessable {
        code,
        message: format!(
            "a top-up of {amount} wei would take today's subsidies to {after} wei, above {what} of {limit} wei"
        ),
        details: Some(json!({ "spent_today_wei": spent.to_string(), "limit_wei": limit.to_string() })),
    })
}

/// Tops the agent's wallet up to the floor when it is below it and the day's budget allows.
pub async fn top_up(deps: &Deps, tenant: TenantId, agent: AgentId, origin: &Origin) -> Result<TopupResult, Error> {
    let chain = crate::onchain::wallets::send::configured(deps)?;
    let floor = U256::from(chain.settings.gas_floor_wei);
    if floor.is_zero() {
        return Err(Error::Unprocessable {
            code: "gas_subsidy_off",
            message:
                "the gas subsidy is off: the operator sets MINICLAW_GAS_FLOOR_WEI and MINICLAW_GAS_DAILY_BUDGET_WEI"
                    .into(),
            details: None,
        });
    }
    let wallet = crate::onchain::wallets::get(&deps.pool, agent).await?.ok_or_else(|| Error::not_found("wallet"))?;
    let min_days = chain.settings.gas_min_account_days;
    let mut conn = deps.pool.acquire().await?;
    let opened = crate::tenancy::accounts::tenant_created(&mut conn, tenant).await?;
    drop(conn);
    if opened.is_none_or(|at| Utc::now() - at < chrono::Duration::days(i64::from(min_days))) {
        return Err(Error::Refused {
            code: "gas_account_too_new",
            message: format!(
                "the gas subsidy is for accounts at least {min_days} days old (MINICLAW_GAS_MIN_ACCOUNT_DAYS)"
            ),
        });
    }
    let address = wallet.address.parse().map_err(anyhow::Error::from)?;
    let balance = chain
        .balance(address)
        .await
        .map_err(|e| Error::Unavailable(format!("the wallet's balance cannot be read now: {e}")))?;
    if balance >= floor {
        let reason = format!("the wallet holds {balance} wei, at or above the floor of {floor} wei");
        return Ok(TopupResult { topped_up: false, reason, topup: None });
    }
    let amount = floor - balance;
    let mut db = deps.pool.begin().await?;
    // The wallet row first (as a send locks it), then the budget's lock: a send asked meanwhile
    // waits for this decision and then sees the top-up.
    crate::onchain::wallets::send::lock_wallet(&mut db, agent).await?;
    sqlx::query!("SELECT pg_advisory_xact_lock($1)", BUDGET_LOCK).execute(&mut *db).await?;
    if crate::onchain::wallets::send::sends_waiting(&mut db, agent).await? {
        return Err(Error::Conflict(
            "a native send of this wallet is waiting (for confirmation, or to be mined): the subsidy pays gas, not \
             transfers; confirm or cancel the send first"
                .into(),
        ));
    }
    let pending = sqlx::query_scalar!(
        "SELECT g.id FROM gas_topups g JOIN wallet_transactions w ON w.id = g.wallet_tx
          WHERE g.agent_id = $1 AND w.status IN ('queued', 'signed') ORDER BY g.id DESC LIMIT 1",
        agent as _
    )
    .fetch_optional(&mut *db)
    .await?;
    if let Some(id) = pending {
        drop(db);
        let topup = topups(&deps.pool, agent, Some(id)).await?.pop();
        return Ok(TopupResult { topped_up: false, reason: "a top-up is already on its way".into(), topup });
    }
    // One top-up per agent per UTC day: a wallet emptied on purpose does not drain the budget.
    let today = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM gas_topups g JOIN wallet_transactions w ON w.id = g.wallet_tx
            WHERE g.agent_id = $1 AND w.status NOT IN ('failed', 'cancelled')
              AND g.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"#,
        agent as _
    )
    .fetch_one(&mut *db)
    .await?;
    if today > 0 {
        let reason = "this wallet was topped up today already: one top-up per agent a day (UTC)".to_string();
        return Ok(TopupResult { topped_up: false, reason, topup: None });
    }
    let ours = spent_today(&mut db, Some(tenant)).await?;
    within(
        U256::from(chain.settings.gas_tenant_daily_wei),
        ours,
        amount,
        "gas_account_cap",
        "this account's daily cap",
    )?;
    let spent = spent_today(&mut db, None).await?;
    within(U256::from(chain.settings.gas_daily_budget_wei), spent, amount, "gas_budget_exhausted", "the daily budget")?;
    let call = Request { purpose: "gas_topup", sponsor: true, to: Some(address), value: amount, input: Bytes::new() };
    let tx = onchain::request(&mut db, chain, agent, origin, call).await?;
    let id = Uuid::now_v7();
    sqlx::query!(
        "INSERT INTO gas_topups (id, agent_id, address, amount_wei, wallet_tx, tenant_id)
         VALUES ($1, $2, $3, $4::text::numeric, $5, $6)",
        id,
        agent as _,
        wallet.address,
        amount.to_string(),
        tx,
        tenant as _
    )
    .execute(&mut *db)
    .await?;
    let details = json!({ "topup": id, "amount_wei": amount.to_string(), "transaction": tx });
    activity::record_agent(&mut db, tenant, agent, origin, "economy.gas_topup", details).await?;
    db.commit().await?;
    let topup = topups(&deps.pool, agent, Some(id)).await?.pop();
    Ok(TopupResult { topped_up: true, reason: format!("{amount} wei on its way to {}", wallet.address), topup })
}
