//! The economy's transactions: token deployments and transfers, escrow funding, releases and
//! refunds, gas top-ups. Each is requested as a `queued` wallet transaction with its call
//! already encoded, in the same database transaction as the change that needs it, and the
//! `economy_chain` job brings it to its outcome (`wallets::transactions::drive`: signed once,
//! recorded before broadcast, settled; an unreachable node is retried, never paid twice), then
//! tells the token or the order what became of it.

use std::time::Duration;

use alloy::primitives::{Address, Bytes, U256};
use alloy::providers::Provider;
use alloy::rpc::types::TransactionRequest;
use alloy::sol_types::SolCall;
use serde_json::{Value, json};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::onchain::wallets::transactions::{self, Driven, Settled};
use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::chain::contracts::AgentToken;
use miniclaw_platform::chain::{Chain, ChainError};
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext, NewJob, queue};

pub const JOB: &str = "economy_chain";
pub const INDEX: &str = "token_index";

/// A transaction to request.
#[derive(Debug, Clone)]
pub struct Request {
    /// `deploy_token`, `token_transfer`, `escrow_fund`, `escrow_release`, `escrow_refund`, `gas_topup`.
    pub purpose: &'static str,
    /// Signed by the platform's sponsor wallet (else by the agent's).
    pub sponsor: bool,
    /// The contract or account called; `None` deploys `input`.
    pub to: Option<Address>,
    pub value: U256,
    pub input: Bytes,
}

/// A positive amount written as a decimal string.
pub fn amount(field: &str, text: &str) -> Result<U256, Error> {
    let t = text.trim();
    let n = (!t.is_empty() && t.len() <= 78 && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| U256::from_str_radix(t, 10).ok())
        .flatten()
        .filter(|n| !n.is_zero());
    n.ok_or_else(|| Error::validation(field, format!("{field} is a positive whole number written as a decimal string")))
}

/// Records the transaction `queued` for `agent` and queues its job, in the caller's transaction.
/// 422 `no_wallet` when the agent would sign and has no wallet.
pub async fn request(
    db: &mut PgConnection,
    chain: &Chain,
    agent: AgentId,
    origin: &Origin,
    r: Request,
) -> Result<Uuid, Error> {
    request_held(db, chain, agent, origin, r, false).await
}

/// Whether a transfer of the agent's token asked for by `origin` waits for the owner's
/// confirmation: anyone but the owner in person (a key, the agent's own tools for another
/// speaker, a job) only asks, and the owner confirms or cancels it like a send above the
/// wallet's threshold.
pub fn token_move_waits(origin: &Origin) -> bool {
    !matches!(origin.actor, crate::tenancy::auth::Actor::Owner(_))
}

/// `request`, waiting for the owner's confirmation when `hold` (`awaiting_confirmation`, no job
/// until `wallets::send::decide` confirms it).
pub async fn request_held(
    db: &mut PgConnection,
    chain: &Chain,
    agent: AgentId,
    origin: &Origin,
    r: Request,
    hold: bool,
) -> Result<Uuid, Error> {
    // A paused agent moves no value of its own, whoever asks (its keys go on working for reads).
    if !r.sponsor && !crate::tenancy::agents::is_active(&mut *db, agent).await? {
        return Err(crate::onchain::wallets::paused());
    }
    let from = if r.sponsor {
        String::new()
    } else {
        sqlx::query_scalar!("SELECT address FROM agent_wallets WHERE agent_id = $1", agent as _)
            .fetch_optional(&mut *db)
            .await?
            .ok_or_else(crate::onchain::wallets::no_wallet)?
    };
    let id = Uuid::now_v7();
    sqlx::query!(
        "INSERT INTO wallet_transactions (id, agent_id, purpose, chain_id, from_address, to_address, value_wei, input, status,
                                          signer, creates, requested_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $12 THEN 'awaiting_confirmation' ELSE 'queued' END,
                 $9, $10, $11)",
        id,
        agent as _,
        r.purpose,
        chain.chain_id as i64,
        from,
        r.to.map(|a| format!("{a:#x}")).unwrap_or_default(),
        r.value.to_string(),
        r.input.to_vec(),
        if r.sponsor { "sponsor" } else { "agent" },
        r.to.is_none(),
        origin.actor.kind(),
        hold
    )
    .execute(&mut *db)
    .await?;
    if !hold {
        queue::enqueue_in(db, job(agent, id)).await?;
    }
    Ok(id)
}

/// The job that signs and sends transaction `id`.
pub fn job(agent: AgentId, id: Uuid) -> NewJob {
    NewJob::new(JOB)
        .agent(agent)
        .payload(json!({ "transaction": id }))
        .idempotency_key(format!("{JOB}:{id}"))
        .max_attempts(crate::onchain::identity::jobs::MAX_ATTEMPTS)
}

/// `totalSupply()` of a token.
pub async fn total_supply(chain: &Chain, token: &str) -> Result<U256, ChainError> {
    let to: Address = token.parse().map_err(|_| ChainError::Rejected("the token address does not parse".into()))?;
    let req = TransactionRequest::default().to(to).input(AgentToken::totalSupplyCall {}.abi_encode().into());
    let out = chain.provider().call(req).await?;
    AgentToken::totalSupplyCall::abi_decode_returns(&out)
        .map_err(|e| ChainError::Rejected(format!("unexpected answer from the token: {e}")))
}

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            JOB,
            CycleScope::Agent,
            "Brings an economy transaction (token deployment or transfer, escrow step, gas top-up) to its outcome.",
            run,
        )
        .max_attempts(crate::onchain::identity::jobs::MAX_ATTEMPTS),
        Cycle::new(
            INDEX,
            CycleScope::Platform,
            "Indexes the Transfer events of agent tokens into holders and history.",
            index,
        )
        .every(Duration::from_secs(15)),
        Cycle::new(
            super::orders::AUTO_SETTLE,
            CycleScope::Platform,
            "Settles orders delivered more than 7 days ago that the buyer neither settled nor disputed.",
            |ctx: JobContext| async move {
                let settled = super::orders::settle_unanswered(ctx.deps()?).await?;
                Ok(json!({ "settled": settled }))
            },
        )
        .every(Duration::from_secs(3600)),
        Cycle::new(
            "payment_retention",
            CycleScope::Platform,
            "Deletes x402 payment requirements that expired unpaid more than a day ago.",
            |ctx: JobContext| async move {
                let deleted = super::payments::purge_expired(&ctx.pool).await?;
                Ok(json!({ "deleted": deleted }))
            },
        )
        .every(Duration::from_secs(24 * 3600)),
    ]
}

async fn index(ctx: JobContext) -> anyhow::Result<Value> {
    let deps = ctx.deps()?;
    let Some(chain) = deps.chain.as_deref() else { return Ok(json!({ "skipped": "no chain is configured" })) };
    let added = super::token::index(&ctx.pool, chain).await?;
    Ok(json!({ "transfers": added }))
}

/// The outcome of a transaction settled before: its receipt, or why it failed.
async fn outcome(pool: &sqlx::PgPool, chain: &Chain, id: Uuid) -> anyhow::Result<Option<Settled>> {
    let row = sqlx::query!("SELECT status, tx_hash, error FROM wallet_transactions WHERE id = $1", id)
        .fetch_one(pool)
        .await?;
    Ok(match (row.status.as_str(), row.tx_hash) {
        ("confirmed", Some(hash)) => {
            let receipt = miniclaw_platform::chain::tx::receipt(chain, hash.parse()?).await?;
            receipt.map(|r| Settled::Confirmed(Box::new(r)))
        }
        ("failed", _) => Some(Settled::Failed(row.error.unwrap_or_default())),
        _ => None,
    })
}

async fn run(ctx: JobContext) -> anyhow::Result<Value> {
    let id: Uuid = serde_json::from_value(ctx.job.payload["transaction"].clone())?;
    let deps = ctx.deps()?;
    let pool = &ctx.pool;
    let row = sqlx::query!("SELECT agent_id, purpose, signer FROM wallet_transactions WHERE id = $1", id)
        .fetch_one(pool)
        .await?;
    if row.signer == "agent" && super::gas::topping_up(pool, AgentId(row.agent_id)).await? {
        anyhow::bail!("a gas top-up of this wallet is on its way; sending after it lands");
    }
    let Some(chain) = deps.chain.as_deref() else { anyhow::bail!("no chain is configured (EVM_RPC_URL)") };
    let settled = match transactions::drive(pool, deps, id).await? {
        Driven::Settled(s) => s,
        // Settled by an earlier run whose follow-up did not finish: the outcome again, so the
        // token, order or stake hears of it (each follow-up is safe to run twice).
        Driven::Skipped(reason) => match outcome(pool, chain, id).await? {
            Some(s) => s,
            None => return Ok(json!({ "skipped": true, "reason": reason })),
        },
    };
    match (row.purpose.as_str(), &settled) {
        ("deploy_token", Settled::Confirmed(receipt)) => super::token::deployed(pool, chain, id, receipt).await?,
        ("token_transfer", Settled::Confirmed(_)) => super::stakes::settled(deps, id, None).await?,
        ("token_transfer", Settled::Failed(reason)) => super::stakes::settled(deps, id, Some(reason)).await?,
        ("escrow_fund" | "escrow_release" | "escrow_refund", _) => super::escrow::settled(pool, id, &settled).await?,
        _ => {}
    }
    Ok(match settled {
        Settled::Confirmed(r) => json!({ "confirmed": true, "purpose": row.purpose, "tx_hash": r.transaction_hash }),
        Settled::Failed(reason) => json!({ "failed": true, "purpose": row.purpose, "reason": reason }),
        other => json!({ "state": format!("{other:?}") }),
    })
}
