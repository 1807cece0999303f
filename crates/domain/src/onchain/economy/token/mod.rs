//! Agent tokens (SPEC I5): an agent deploys its own ERC-20 (`contracts/AgentToken.sol`) from its
//! server-managed wallet and transfers it; the `token_index` cycle reads the token's `Transfer`
//! events into Postgres, holders and all; "evaluate" reports on-chain facts only (supply,
//! holders, transfers, age, concentration) and never a price.
//!
//! The indexer survives restarts without counting twice: each token's cursor (the last block
//! read) moves in the same transaction as the events it read, events are keyed by (transaction,
//! log index) so a block read again inserts nothing, and balances change only for the events
//! that were new.

use alloy::primitives::{Address, U256};
use alloy::providers::Provider;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;

use super::onchain::{self, Request};
use crate::onchain::wallets::transactions::WalletTransaction;
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::chain::contracts;
use miniclaw_platform::deps::Deps;

mod custody;
mod index;
pub use custody::{stake, tip, unstake};
pub use index::index;

/// The most blocks one indexer pass reads per token (nodes cap `eth_getLogs` ranges).
pub const BLOCKS_PER_PASS: u64 = 2_000;

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenInput {
    /// 1–64 characters.
    pub name: String,
    /// 1–11 upper-case letters and digits.
    pub symbol: String,
    /// 0–18, default 18.
    pub decimals: Option<u8>,
    /// Whole tokens minted to the agent's wallet, as a decimal string (× 10^decimals base units).
    pub supply: String,
}

/// The agent's token and, once deployed and indexed, its on-chain facts.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Token {
    pub chain_id: i64,
    /// The contract; `null` until the deployment is signed.
    pub address: Option<String>,
    pub name: String,
    pub symbol: String,
    pub decimals: i16,
    /// Base units minted, as a decimal string.
    pub supply: String,
    /// `deploying`, `deployed` or `failed` (the deployment's transaction).
    pub status: String,
    pub error: Option<String>,
    pub deploy_transaction_id: uuid::Uuid,
    pub deployed_block: Option<i64>,
    pub deployed_at: Option<DateTime<Utc>>,
    /// Every Transfer event up to this block is indexed.
    pub indexed_block: Option<i64>,
}

/// What the chain says about a token: facts, not prices.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Evaluation {
    pub token: Token,
    /// `totalSupply()` read from the chain now; `null` with `chain_error` when the node did not answer.
    pub total_supply: Option<String>,
    pub chain_error: Option<String>,
    /// Addresses holding a positive balance (indexed).
    pub holders: i64,
    /// Transfer events, the mint included (indexed).
    pub transfers: i64,
    /// Days since the deployment was mined.
    pub age_days: Option<f64>,
    /// Share of the supply held by the largest holder, and by the ten largest (0–1).
    pub top_holder_share: f64,
    pub top10_share: f64,
    /// Herfindahl–Hirschman index of the holdings (Σ share²): 1 when one address holds everything.
    pub concentration_hhi: f64,
    /// Always true: miniclaw reports no price for a token, only what the chain shows.
    pub no_price: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Holder {
    pub address: String,
    /// Base units, as a decimal string.
    pub balance: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TokenTransfer {
    /// The page cursor of this event: `<block>:<log index>`.
    pub cursor: String,
    pub block_number: i64,
    pub log_index: i64,
    pub tx_hash: String,
    pub from_address: String,
    pub to_address: String,
    /// Base units, as a decimal string.
    pub value: String,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TransferInput {
    /// The recipient, a 0x address.
    pub to: String,
    /// Base units, as a decimal string.
    pub amount: String,
}

fn symbol_ok(s: &str) -> bool {
    (1..=11).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// Requests the deployment of the agent's token: 202 with the token `deploying`. 409 when the
/// agent has one; 422 without a chain or a wallet.
pub async fn deploy(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: TokenInput,
) -> Result<Token, Error> {
    let name = input.name.trim();
    if name.is_empty() || name.chars().count() > 64 {
        return Err(Error::validation("name", "name is 1–64 characters"));
    }
    let symbol = input.symbol.trim();
    if !symbol_ok(symbol) {
        return Err(Error::validation("symbol", "symbol is 1–11 upper-case letters and digits"));
    }
    let decimals = input.decimals.unwrap_or(18);
    if decimals > 18 {
        return Err(Error::validation("decimals", "decimals is 0 to 18"));
    }
    let whole = onchain::amount("supply", &input.supply)?;
    let supply = whole
        .checked_mul(U256::from(10u64).pow(U256::from(decimals)))
        .ok_or_else(|| Error::validation("supply", "supply × 10^decimals does not fit in 256 bits"))?;
    let chain = crate::onchain::wallets::send::configured(deps)?;
    let mut db = deps.pool.begin().await?;
    let exists = sqlx::query_scalar!("SELECT 1 AS one FROM agent_tokens WHERE agent_id = $1", agent as _)
        .fetch_optional(&mut *db)
        .await?;
    if exists.is_some() {
        return Err(Error::Conflict("the agent has a token already".into()));
    }
    let call = Request {
        purpose: "deploy_token",
        sponsor: false,
        to: None,
        value: U256::ZERO,
        input: contracts::token_deployment(name, symbol, decimals, supply),
    };
    let tx = onchain::request(&mut db, chain, agent, origin, call).await?;
    sqlx::query!(
        "INSERT INTO agent_tokens (agent_id, chain_id, name, symbol, decimals, supply, deploy_tx)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        agent as _,
        chain.chain_id as i64,
        name,
        symbol,
        i16::from(decimals),
        supply.to_string(),
        tx
    )
    .execute(&mut *db)
    .await?;
    let details = json!({ "name": name, "symbol": symbol, "decimals": decimals, "supply": supply.to_string(), "transaction": tx });
    activity::record_agent(&mut db, tenant, agent, origin, "economy.token_deploy_requested", details).await?;
    db.commit().await?;
    get(&deps.pool, agent).await?.ok_or_else(|| Error::not_found("token"))
}

macro_rules! select_token {
    ($where:literal, $($arg:expr),*) => {
        sqlx::query_as!(
            Token,
            r#"SELECT t.chain_id, t.address, t.name, t.symbol, t.decimals, t.supply,
                      CASE w.status WHEN 'confirmed' THEN 'deployed' WHEN 'failed' THEN 'failed' WHEN 'cancelled' THEN 'failed'
                                    ELSE 'deploying' END AS "status!",
                      w.error, t.deploy_tx AS deploy_transaction_id, t.deployed_block, t.deployed_at, t.indexed_block
                 FROM agent_tokens t JOIN wallet_transactions w ON w.id = t.deploy_tx "# + $where,
            $($arg),*
        )
    };
}

pub async fn get(pool: &PgPool, agent: AgentId) -> sqlx::Result<Option<Token>> {
    select_token!("WHERE t.agent_id = $1", agent as _).fetch_optional(pool).await
}

/// Records a confirmed deployment: the contract's address, block and time (the indexer starts there).
pub async fn deployed(
    pool: &PgPool,
    chain: &miniclaw_platform::chain::Chain,
    tx: uuid::Uuid,
    receipt: &alloy::rpc::types::TransactionReceipt,
) -> anyhow::Result<()> {
    let block = receipt.block_number.unwrap_or_default();
    let at = chain.provider().get_block_by_number(block.into()).await.ok().flatten().map(|b| b.header.timestamp);
    let at = at.and_then(|t| DateTime::<Utc>::from_timestamp(t as i64, 0));
    let address = receipt.contract_address.map(|a| format!("{a:#x}"));
    sqlx::query!(
        "UPDATE agent_tokens SET address = coalesce($2, address), deployed_block = $3::bigint, deployed_at = $4,
                indexed_block = coalesce(indexed_block, $3::bigint - 1)
          WHERE deploy_tx = $1",
        tx,
        address,
        block as i64,
        at
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The token's on-chain facts.
pub async fn evaluate(
    pool: &PgPool,
    chain: Option<&miniclaw_platform::chain::Chain>,
    agent: AgentId,
) -> Result<Evaluation, Error> {
    let token = get(pool, agent).await?.ok_or_else(|| Error::not_found("token"))?;
    let r = sqlx::query!(
        r#"SELECT (SELECT count(*) FROM token_balances WHERE agent_id = $1 AND balance > 0) AS "holders!",
                  (SELECT count(*) FROM token_transfers WHERE agent_id = $1) AS "transfers!",
                  (SELECT coalesce(array_agg(balance::float8 ORDER BY balance DESC), '{}') FROM token_balances
                    WHERE agent_id = $1 AND balance > 0 AND address <> '0x0000000000000000000000000000000000000000') AS "balances!""#,
        agent as _
    )
    .fetch_one(pool)
    .await?;
    let (total_supply, chain_error) = match (chain, token.address.as_deref().filter(|_| token.status == "deployed")) {
        (Some(c), Some(address)) => match onchain::total_supply(c, address).await {
            Ok(s) => (Some(s.to_string()), None),
            Err(e) => (None, Some(e.to_string())),
        },
        (None, _) => (None, Some("no chain is configured (EVM_RPC_URL)".into())),
        (_, None) => (None, Some("the token is not deployed yet".into())),
    };
    let supply: f64 = token.supply.parse().unwrap_or(0.0);
    let shares: Vec<f64> = r.balances.iter().map(|b| if supply > 0.0 { b / supply } else { 0.0 }).collect();
    let age_days = token.deployed_at.map(|t| (Utc::now() - t).num_seconds().max(0) as f64 / 86_400.0);
    Ok(Evaluation {
        total_supply,
        chain_error,
        holders: r.holders,
        transfers: r.transfers,
        age_days,
        top_holder_share: shares.first().copied().unwrap_or(0.0),
        top10_share: shares.iter().take(10).sum(),
        concentration_hhi: shares.iter().map(|s| s * s).sum(),
        no_price: true,
        token,
    })
}

/// Holders by balance, largest first; `before` continues after that holder's address.
pub async fn holders(pool: &PgPool, agent: AgentId, limit: i64, before: Option<&str>) -> sqlx::Result<Vec<Holder>> {
    sqlx::query_as!(
        Holder,
        r#"SELECT address, balance::text AS "balance!" FROM token_balances
            WHERE agent_id = $1 AND balance > 0
              AND ($3::text IS NULL OR (balance, address) <
                   (SELECT c.balance, c.address FROM token_balances c WHERE c.agent_id = $1 AND c.address = $3))
            ORDER BY balance DESC, address DESC LIMIT $2"#,
        agent as _,
        limit,
        before
    )
    .fetch_all(pool)
    .await
}

/// Transfers newest first; `before` (`<block>:<log index>`) continues after that event.
pub async fn transfers(
    pool: &PgPool,
    agent: AgentId,
    limit: i64,
    before: Option<(i64, i64)>,
) -> sqlx::Result<Vec<TokenTransfer>> {
    sqlx::query_as!(
        TokenTransfer,
        r#"SELECT block_number || ':' || log_index AS "cursor!", block_number, log_index, tx_hash, from_address, to_address,
                  value::text AS "value!"
             FROM token_transfers WHERE agent_id = $1 AND ($3::bigint IS NULL OR (block_number, log_index) < ($3, $4::bigint))
            ORDER BY block_number DESC, log_index DESC LIMIT $2"#,
        agent as _,
        limit,
        before.map(|b| b.0),
        before.map(|b| b.1)
    )
    .fetch_all(pool)
    .await
}

/// Requests a transfer of the agent's token from its wallet. The owner's own request is queued;
/// anyone else's (a key) waits for the owner's confirmation (`POST …/wallet/transactions/{tid}/confirm`).
pub async fn transfer(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: TransferInput,
) -> Result<WalletTransaction, Error> {
    let to: Address = input.to.trim().parse().map_err(|_| Error::validation("to", "to must be a 0x address"))?;
    let amount = onchain::amount("amount", &input.amount)?;
    let chain = crate::onchain::wallets::send::configured(deps)?;
    let token = get(&deps.pool, agent).await?.ok_or_else(|| Error::not_found("token"))?;
    let (Some(address), "deployed") = (token.address.as_deref(), token.status.as_str()) else {
        return Err(Error::Conflict(format!("the token is {}, not deployed", token.status)));
    };
    let mut db = deps.pool.begin().await?;
    let call = Request {
        purpose: "token_transfer",
        sponsor: false,
        to: Some(address.parse().map_err(anyhow::Error::from)?),
        value: U256::ZERO,
        input: contracts::token_transfer(to, amount),
    };
    // A key (or anyone but the owner in person) only asks: the owner confirms or cancels it.
    let hold = onchain::token_move_waits(origin);
    let tx = onchain::request_held(&mut db, chain, agent, origin, call, hold).await?;
    let details = json!({ "transaction": tx, "to": format!("{to:#x}"), "amount": amount.to_string(),
                          "symbol": token.symbol, "awaiting_confirmation": hold });
    activity::record_agent(&mut db, tenant, agent, origin, "economy.token_transfer_requested", details).await?;
    db.commit().await?;
    crate::onchain::wallets::transactions::get(&deps.pool, tx).await.map_err(Error::from)
}
