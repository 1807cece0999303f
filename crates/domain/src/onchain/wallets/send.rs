//! Sending native value from an agent's wallet (SPEC I2), within the owner's limits: at most
//! `max_per_tx_wei` per transaction and `max_per_day_wei` over any 24 hours (requested,
//! waiting and sent transfers count; failed and cancelled ones do not). A send above
//! `confirm_above_wei` waits for the owner's confirmation. The transfer itself is the
//! `wallet_send` job: signed, recorded before broadcast, settled like every wallet transaction.

use alloy::primitives::{Address, U256};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::transactions::{self, Driven, Settled, WalletTransaction};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext, NewJob, queue};

pub const JOB: &str = "wallet_send";

/// A send request.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendRequest {
    /// The recipient, a 0x address.
    pub to: String,
    /// The amount in wei, as a decimal string (e.g. `"10000000000000000"` for 0.01 ETH).
    pub value_wei: String,
}

/// The owner's limits; each a decimal wei string, or `null` to clear it.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitsInput {
    pub max_per_tx_wei: Option<String>,
    pub max_per_day_wei: Option<String>,
    pub confirm_above_wei: Option<String>,
}

fn wei(field: &str, text: &str) -> Result<U256, Error> {
    let t = text.trim();
    if t.is_empty() || t.len() > 78 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::validation(field, format!("{field} must be an amount in wei written as a decimal string")));
    }
    U256::from_str_radix(t, 10).map_err(|_| Error::validation(field, format!("{field} does not fit in 256 bits")))
}

fn limit_error(message: String, details: Value) -> Error {
    Error::Unprocessable { code: "wallet_limit", message, details: Some(details) }
}

/// Sets the owner's limits (owner only; the route checks it).
pub async fn set_limits(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: LimitsInput,
) -> Result<super::Wallet, Error> {
    let norm = |field: &str, v: &Option<String>| -> Result<Option<String>, Error> {
        v.as_deref().map(|t| wei(field, t).map(|n| n.to_string())).transpose()
    };
    let (tx_max, day_max, confirm) = (
        norm("max_per_tx_wei", &input.max_per_tx_wei)?,
        norm("max_per_day_wei", &input.max_per_day_wei)?,
        norm("confirm_above_wei", &input.confirm_above_wei)?,
    );
    let mut db = pool.begin().await?;
    let updated = sqlx::query!(
        "UPDATE agent_wallets SET max_per_tx_wei = $2, max_per_day_wei = $3, confirm_above_wei = $4 WHERE agent_id = $1",
        agent as _,
        tx_max,
        day_max,
        confirm
    )
    .execute(&mut *db)
    .await?
    .rows_affected();
    if updated == 0 {
        return Err(Error::not_found("wallet"));
    }
    let details = json!({ "max_per_tx_wei": tx_max, "max_per_day_wei": day_max, "confirm_above_wei": confirm });
    activity::record_agent(&mut db, tenant, agent, origin, "wallet.limits_set", details).await?;
    db.commit().await?;
    super::get(pool, agent).await?.ok_or_else(|| Error::not_found("wallet"))
}

/// Checks a send against the owner's limits and records it: queued (with its job), or waiting
/// for the owner's confirmation when above the threshold. The wallet row is locked while the
/// day's total is counted, so concurrent sends cannot together exceed it.
pub async fn request(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: SendRequest,
) -> Result<WalletTransaction, Error> {
    let chain = configured(deps)?;
    let mut db = deps.pool.begin().await?;
    let row = request_in(&mut db, chain, tenant, agent, origin, input).await?;
    db.commit().await?;
    Ok(row)
}

/// The chain, or 422 `chain_not_configured`.
pub fn configured(deps: &Deps) -> Result<&miniclaw_platform::chain::Chain, Error> {
    deps.chain.as_deref().ok_or_else(|| Error::Unprocessable {
        code: "chain_not_configured",
        message: "no chain is configured: set EVM_RPC_URL and EVM_CHAIN_ID".into(),
        details: None,
    })
}

/// `request` inside the caller's transaction (a tip records its send with it).
pub async fn request_in(
    db: &mut PgConnection,
    chain: &miniclaw_platform::chain::Chain,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: SendRequest,
) -> Result<WalletTransaction, Error> {
    let to: Address =
        input.to.trim().parse().map_err(|_| Error::validation("to", "to must be a 0x-prefixed 20-byte hex address"))?;
    let value = wei("value_wei", &input.value_wei)?;
    if value.is_zero() {
        return Err(Error::validation("value_wei", "value_wei must be more than 0"));
    }
    // The wallet row is locked first (`within_limits`): a top-up decided meanwhile is seen.
    let (address, confirm) = within_limits(db, agent, value, None).await?;
    if crate::onchain::economy::gas::recently_subsidised(db, agent).await? {
        return Err(Error::Conflict(
            "this wallet got a gas top-up from the platform in the last 24 hours: it pays gas for the agent's own \
             economy transactions and sends no native value until a day has passed"
                .into(),
        ));
    }
    let status = if confirm { "awaiting_confirmation" } else { "queued" };
    let id = Uuid::now_v7();
    let row = sqlx::query_as!(
        WalletTransaction,
        r#"INSERT INTO wallet_transactions (id, agent_id, purpose, chain_id, from_address, to_address, value_wei, status,
                                          requested_by)
         VALUES ($1, $2, 'send', $3, $4, $5, $6, $7, $8)
         RETURNING id, purpose, chain_id, from_address, to_address, value_wei, status, tx_hash, signed_hashes, error, block_number,
                   gas_used, created_at, updated_at, requested_by, NULL::text AS "recipient?",
                   NULL::text AS "token_amount?", input"#,
        id,
        agent as _,
        chain.chain_id as i64,
        address,
        format!("{to:#x}"),
        value.to_string(),
        status,
        origin.actor.kind()
    )
    .fetch_one(&mut *db)
    .await?;
    if !confirm {
        queue::enqueue_in(&mut *db, job(agent, id)).await?;
    }
    let details = json!({ "transaction": id, "to": row.to_address, "value_wei": row.value_wei, "status": status });
    activity::record_agent(&mut *db, tenant, agent, origin, "wallet.send_requested", details).await?;
    Ok(row)
}

/// Checks `value` against the owner's limits on the agent's wallet, with the wallet row locked
/// (concurrent spends cannot together exceed the day's limit): the wallet's address, and whether
/// the send waits for the owner's confirmation. Sends and escrow funding count toward the day,
/// except `itself` (a waiting send judged again when it is confirmed).
pub async fn within_limits(
    db: &mut PgConnection,
    agent: AgentId,
    value: U256,
    itself: Option<Uuid>,
) -> Result<(String, bool), Error> {
    if !crate::tenancy::agents::is_active(&mut *db, agent).await? {
        return Err(super::paused());
    }
    let w = sqlx::query!(
        "SELECT address, max_per_tx_wei, max_per_day_wei, confirm_above_wei FROM agent_wallets
          WHERE agent_id = $1 FOR UPDATE",
        agent as _
    )
    .fetch_optional(&mut *db)
    .await?
    .ok_or_else(|| Error::not_found("wallet"))?;
    let (Some(tx_max), Some(day_max)) = (w.max_per_tx_wei, w.max_per_day_wei) else {
        return Err(limit_error(
            "the owner has not set this wallet's limits yet (PUT …/wallet/limits): nothing can be sent".into(),
            json!({ "limit": "unset" }),
        ));
    };
    let (tx_max, day_max): (U256, U256) = (tx_max.parse().unwrap_or_default(), day_max.parse().unwrap_or_default());
    if value > tx_max {
        return Err(limit_error(
            format!("{value} wei is above the per-transaction limit of {tx_max} wei"),
            json!({ "limit": "per_transaction", "max_wei": tx_max.to_string() }),
        ));
    }
    let spent: String = sqlx::query_scalar!(
        r#"SELECT coalesce(sum(value_wei::numeric), 0)::text AS "spent!" FROM wallet_transactions
            WHERE agent_id = $1 AND purpose IN ('send', 'escrow_fund') AND status NOT IN ('failed', 'cancelled')
              AND created_at > now() - interval '24 hours' AND id IS DISTINCT FROM $2"#,
        agent as _,
        itself
    )
    .fetch_one(&mut *db)
    .await?;
    let spent: U256 = spent.parse().unwrap_or_default();
    if spent.saturating_add(value) > day_max {
        return Err(limit_error(
            format!(
                "{value} wei would bring the last 24 hours to {} wei, above the daily limit of {day_max} wei",
                spent.saturating_add(value)
            ),
            json!({ "limit": "per_day", "max_wei": day_max.to_string(), "spent_wei": spent.to_string() }),
        ));
    }
    let confirm = w.confirm_above_wei.and_then(|c| c.parse::<U256>().ok()).is_some_and(|c| value > c);
    Ok((w.address, confirm))
}

fn job(agent: AgentId, id: Uuid) -> NewJob {
    NewJob::new(JOB)
        .agent(agent)
        .payload(json!({ "transaction": id }))
        .idempotency_key(format!("{JOB}:{id}"))
        .max_attempts(crate::onchain::identity::jobs::MAX_ATTEMPTS)
}

/// The owner's answer to a send, or a transfer of the agent's token, waiting for confirmation:
/// queued, or cancelled. 409 when the transaction is not waiting.
pub async fn decide(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    id: Uuid,
    confirm: bool,
) -> Result<WalletTransaction, Error> {
    let mut db = pool.begin().await?;
    if confirm {
        recheck(&mut db, agent, id).await?;
    }
    let row = sqlx::query_as!(
        WalletTransaction,
        r#"UPDATE wallet_transactions SET status = $4, updated_at = now()
          WHERE id = $1 AND agent_id = $2 AND purpose IN ('send', 'token_transfer') AND status = $3
         RETURNING id, purpose, chain_id, from_address, to_address, value_wei, status, tx_hash, signed_hashes, error, block_number,
                   gas_used, created_at, updated_at, requested_by, NULL::text AS "recipient?",
                   NULL::text AS "token_amount?", input"#,
        id,
        agent as _,
        "awaiting_confirmation",
        if confirm { "queued" } else { "cancelled" }
    )
    .fetch_optional(&mut *db)
    .await?;
    let Some(row) = row else {
        let exists = sqlx::query_scalar!(
            "SELECT status FROM wallet_transactions WHERE id = $1 AND agent_id = $2",
            id,
            agent as _
        )
        .fetch_optional(&mut *db)
        .await?;
        return Err(match exists {
            None => Error::not_found("transaction"),
            Some(s) => Error::Conflict(format!("the transaction is {s}, not awaiting confirmation")),
        });
    };
    if confirm {
        // A token transfer is signed by the economy's job, a native send by this module's.
        let job = if row.purpose == "token_transfer" {
            crate::onchain::economy::onchain::job(agent, id)
        } else {
            job(agent, id)
        };
        queue::enqueue_in(&mut db, job).await?;
    }
    let action = if confirm { "wallet.send_confirmed" } else { "wallet.send_cancelled" };
    activity::record_agent(&mut db, tenant, agent, origin, action, json!({ "transaction": id })).await?;
    db.commit().await?;
    Ok(row.described())
}

/// A native send waiting for confirmation is judged again at the moment it is confirmed, as
/// if asked now (the wallet row locked): the gas subsidy's 24-hour lock (a top-up since it was
/// asked must not leave as a transfer) and the owner's limits as they are now.
async fn recheck(db: &mut PgConnection, agent: AgentId, id: Uuid) -> Result<(), Error> {
    let waiting = sqlx::query!(
        "SELECT value_wei FROM wallet_transactions
          WHERE id = $1 AND agent_id = $2 AND purpose = 'send' AND status = 'awaiting_confirmation'",
        id,
        agent as _
    )
    .fetch_optional(&mut *db)
    .await?;
    let Some(waiting) = waiting else { return Ok(()) };
    let value: U256 = waiting.value_wei.parse().unwrap_or_default();
    within_limits(db, agent, value, Some(id)).await?;
    if crate::onchain::economy::gas::recently_subsidised(db, agent).await? {
        return Err(Error::Conflict(
            "this wallet got a gas top-up from the platform since the send was asked: it sends no native value \
             until a day has passed since the top-up; cancel the send or confirm it later"
                .into(),
        ));
    }
    Ok(())
}

/// Locks the agent's wallet row (what orders its sends and top-ups); false when it has none.
pub async fn lock_wallet(db: &mut PgConnection, agent: AgentId) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!("SELECT 1 AS \"one!\" FROM agent_wallets WHERE agent_id = $1 FOR UPDATE", agent as _)
        .fetch_optional(db)
        .await?
        .is_some())
}

/// Whether a native send of the agent's wallet is waiting (for confirmation, or to be signed
/// or mined): a top-up then would be value the send could carry away.
pub async fn sends_waiting(db: &mut PgConnection, agent: AgentId) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM wallet_transactions WHERE agent_id = $1 AND purpose = 'send'
                            AND status IN ('awaiting_confirmation', 'queued', 'signed')) AS "waiting!""#,
        agent as _
    )
    .fetch_one(db)
    .await
}

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(JOB, CycleScope::Agent, "Sends a queued native-value transfer from the agent's wallet.", run)
            .max_attempts(crate::onchain::identity::jobs::MAX_ATTEMPTS),
    ]
}

/// Signs (once), records, broadcasts and settles one send.
async fn run(ctx: JobContext) -> anyhow::Result<Value> {
    let id: Uuid = serde_json::from_value(ctx.job.payload["transaction"].clone())?;
    let deps = ctx.deps()?;
    Ok(match transactions::drive(&ctx.pool, deps, id).await? {
        Driven::Skipped(reason) => json!({ "skipped": true, "reason": reason }),
        Driven::Settled(Settled::Confirmed(r)) => json!({ "confirmed": true, "tx_hash": r.transaction_hash }),
        Driven::Settled(Settled::Failed(reason)) => json!({ "failed": true, "reason": reason }),
        Driven::Settled(other) => json!({ "state": format!("{other:?}") }),
    })
}
