//! The transactions of agents' wallets: recorded when signed (before they are broadcast), then
//! settled against the chain. `settle` is what a retried job calls after a crash: it looks the
//! receipt up by the recorded hash, broadcasts the same signed bytes again if the node lost
//! them, and never signs anything new.

use alloy::primitives::{Address, B256, TxKind};
use alloy::rpc::types::TransactionReceipt;
use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::ids::{AgentId, MessageId, TenantId};
use miniclaw_platform::chain::tx::{self, Broadcast, Call, Signed};
use miniclaw_platform::chain::{Chain, ChainError};
use miniclaw_platform::llm::spend::{Held, Payer};

/// Most transactions one listing returns.
pub const LIST_MAX: i64 = 200;

/// One transaction of the agent's wallet.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct WalletTransaction {
    pub id: Uuid,
    /// `register`, `set_agent_uri` or `send`.
    pub purpose: String,
    pub chain_id: i64,
    pub from_address: String,
    pub to_address: String,
    /// Native value in wei (decimal string).
    pub value_wei: String,
    /// `awaiting_confirmation`, `queued`, `signed` (hash recorded; broadcast or about to be),
    /// `confirmed`, `failed` or `cancelled`.
    pub status: String,
    pub tx_hash: Option<String>,
    /// Every hash it was signed under, oldest first. More than one when another transaction of
    /// the wallet was found holding its nonce at the confirmed depth, and it was signed again.
    pub signed_hashes: Vec<String>,
    /// Why it failed (the node's refusal or the contract's revert reason).
    pub error: Option<String>,
    pub block_number: Option<i64>,
    pub gas_used: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Who asked for it: `owner`, `api_key`, `job`, `system` (for a pending one, whose request
    /// the owner is confirming).
    pub requested_by: Option<String>,
    /// For a transfer of the agent's token (`token_transfer`, whose `to_address` is the token's
    /// contract): who receives the tokens, decoded from the call.
    pub recipient: Option<String>,
    /// For a transfer of the agent's token: how many base units, decoded from the call.
    pub token_amount: Option<String>,
    #[serde(skip)]
    #[schema(ignore)]
    pub input: Vec<u8>,
}

impl WalletTransaction {
    /// Fills in `recipient` and `token_amount` from the call of an ERC-20 `transfer(address,
    /// uint256)`: what the owner confirms is named, not only the contract it goes through.
    pub fn described(mut self) -> WalletTransaction {
        const TRANSFER: [u8; 4] = [0xa9, 0x05, 0x9c, 0xbb];
        if self.purpose == "token_transfer" && self.input.len() == 68 && self.input[..4] == TRANSFER {
            let to = alloy::primitives::Address::from_slice(&self.input[16..36]);
            let amount = alloy::primitives::U256::from_be_slice(&self.input[36..68]);
            self.recipient = Some(format!("{to:#x}"));
            self.token_amount = Some(amount.to_string());
        }
        self
    }
}

/// The wallet's transactions, newest first; `before` continues a listing after that id.
pub async fn list(
    pool: &PgPool,
    agent: AgentId,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<WalletTransaction>> {
    sqlx::query_as!(
        WalletTransaction,
        r#"SELECT id, purpose, chain_id, from_address, to_address, value_wei, status, tx_hash, signed_hashes, error, block_number,
                gas_used, created_at, updated_at, requested_by, NULL::text AS "recipient?", NULL::text AS "token_amount?",
                input
           FROM wallet_transactions WHERE agent_id = $1 AND ($3::uuid IS NULL OR id < $3)
          ORDER BY id DESC LIMIT $2"#,
        agent as _,
        limit,
        before
    )
    .fetch_all(pool)
    .await
    .map(|rows| rows.into_iter().map(WalletTransaction::described).collect())
}

/// The agent's newest transaction for `purpose` that is signed and not yet settled (sent or
/// waiting to be), so a rerun drives it instead of signing another.
pub async fn in_flight(pool: &PgPool, agent: AgentId, purpose: &str) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT id FROM wallet_transactions WHERE agent_id = $1 AND purpose = $2 AND status = 'signed'
          ORDER BY created_at DESC LIMIT 1",
        agent as _,
        purpose
    )
    .fetch_optional(pool)
    .await
}

/// A transaction's status, `None` when there is no such transaction.
pub async fn status(conn: &mut sqlx::PgConnection, id: Uuid) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT status FROM wallet_transactions WHERE id = $1", id).fetch_optional(conn).await
}

/// One transaction.
pub async fn get(pool: &PgPool, id: Uuid) -> sqlx::Result<WalletTransaction> {
    sqlx::query_as!(
        WalletTransaction,
        r#"SELECT id, purpose, chain_id, from_address, to_address, value_wei, status, tx_hash, signed_hashes, error, block_number,
                gas_used, created_at, updated_at, requested_by, NULL::text AS "recipient?", NULL::text AS "token_amount?",
                input
           FROM wallet_transactions WHERE id = $1"#,
        id
    )
    .fetch_one(pool)
    .await
    .map(WalletTransaction::described)
}

/// How many `purpose` transactions signed by `from` (the sponsor wallet) were made for the
/// agents of `tenant` since the start of the UTC day, failed ones excluded.
pub async fn signed_by_today(pool: &sqlx::PgPool, tenant: TenantId, from: &str, purpose: &str) -> sqlx::Result<i64> {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "SELECT count(*) FROM wallet_transactions
              WHERE agent_id IN ({}) AND purpose = $3 AND lower(from_address) = lower($2)
                AND status NOT IN ('failed', 'cancelled')
                AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'",
            crate::tenancy::agents::sql::of_tenant("$1")
        )
    });
    sqlx::query_scalar(&SQL).bind(tenant).bind(from).bind(purpose).fetch_one(pool).await
}

/// What a transaction signed by `signed` may cost the platform, held against the spending
/// limits of `agent`'s account (SPEC T1) when the platform pays it (`platform_pays`: the
/// sponsor wallet signed it): its value and all its gas at its highest fee, in dollars at
/// `MINICLAW_NATIVE_USD`. `Ok(None)` when the agent's own wallet pays (or the coin is priced
/// at 0); `Err(reason)` when a limit is reached — then it must not be sent.
pub async fn hold_paid(
    deps: &miniclaw_platform::deps::Deps,
    chain: &Chain,
    agent: AgentId,
    platform_pays: bool,
    signed: &Signed,
) -> anyhow::Result<Result<Option<MessageId>, String>> {
    if !platform_pays {
        return Ok(Ok(None));
    }
    let usd = wei_usd(signed.max_cost_wei, chain);
    Ok(match deps.llm.spender().hold(Payer::agent(agent), usd).await? {
        Ok(held) => Ok(held.map(|h| h.id)),
        Err(refusal) => Err(format!("the platform pays for this transaction, and {refusal}")),
    })
}

/// `wei` of the chain's native coin in dollars, at `MINICLAW_NATIVE_USD`.
fn wei_usd(wei: alloy::primitives::U256, chain: &Chain) -> f64 {
    wei.saturating_to::<u128>() as f64 / 1e18 * chain.settings.native_usd.unwrap_or(0.0)
}

/// Records a signed transaction (status `signed`), before it is broadcast, with the hold of
/// what the platform may pay for it (`hold_paid`). `id` is the row to fill in when the
/// transaction was requested earlier (a send), else a new row is made.
#[expect(clippy::too_many_arguments, reason = "one row's fields")]
pub async fn record_signed(
    conn: &mut sqlx::PgConnection,
    id: Option<Uuid>,
    agent: AgentId,
    purpose: &str,
    chain: &Chain,
    call: &Call,
    signed: &Signed,
    hold: Option<MessageId>,
) -> sqlx::Result<Uuid> {
    let id = id.unwrap_or_else(Uuid::now_v7);
    sqlx::query!(
        "INSERT INTO wallet_transactions (id, agent_id, purpose, chain_id, from_address, to_address, value_wei, input,
                                          status, nonce, tx_hash, raw_tx, signed_hashes, hold_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'signed', $9, $10, $11, ARRAY[$10], $12)
         ON CONFLICT (agent_id, id) DO UPDATE SET status = 'signed', nonce = $9, tx_hash = $10, raw_tx = $11, error = NULL,
                                        from_address = $5, to_address = $6, superseded_checks = 0, superseded_since = NULL,
                                        signed_hashes = array_append(wallet_transactions.signed_hashes, $10),
                                        hold_id = $12, updated_at = now()",
        id,
        agent as _,
        purpose,
        chain.chain_id as i64,
        format!("{:#x}", signed.from),
        format!("{:#x}", call.target(signed.from, signed.nonce)),
        call.value.to_string(),
        call.input.to_vec(),
        signed.nonce as i64,
        format!("{:#x}", signed.hash),
        signed.raw,
        hold as _
    )
    .execute(conn)
    .await?;
    Ok(id)
}

/// Where a recorded transaction stands.
#[derive(Debug)]
pub enum Settled {
    Confirmed(Box<TransactionReceipt>),
    /// Mined and reverted, or refused by the node for good: the reason.
    Failed(String),
    /// Another transaction took its nonce: it will never be mined (nothing happened).
    Superseded,
    /// Broadcast, not mined yet.
    Waiting,
}

/// Brings a recorded (`signed`) transaction to its outcome as far as the chain allows within
/// the configured wait, and stores the outcome. Node outages are errors (try again later).
pub async fn settle(
    deps: &miniclaw_platform::deps::Deps,
    chain: &Chain,
    id: Uuid,
) -> anyhow::Result<Result<Settled, ChainError>> {
    let pool = &deps.pool;
    let row = sqlx::query!(
        "SELECT agent_id, tx_hash, raw_tx, nonce, signed_hashes, from_address, to_address, value_wei, input, status,
                error, creates
           FROM wallet_transactions WHERE id = $1",
        id
    )
    .fetch_one(pool)
    .await?;
    let (Some(hash), Some(raw), Some(nonce)) = (row.tx_hash, row.raw_tx, row.nonce) else {
        anyhow::bail!("transaction {id} was never signed");
    };
    if row.status == "failed" {
        return Ok(Ok(Settled::Failed(row.error.unwrap_or_default())));
    }
    let hash: B256 = hash.parse()?;
    let to = if row.creates { TxKind::Create } else { TxKind::Call(row.to_address.parse()?) };
    let call = Call { to, value: row.value_wei.parse()?, input: row.input.into() };
    let from: Address = row.from_address.parse()?;

    // Every hash the row was signed under: the current one, and any earlier signing.
    let mut hashes: Vec<B256> = row.signed_hashes.iter().filter_map(|h| h.parse().ok()).collect();
    if !hashes.contains(&hash) {
        hashes.push(hash);
    }
    let outcome = async {
        for h in hashes.iter().rev() {
            if let Some(r) = tx::receipt(chain, *h).await? {
                return Ok(Some(r));
            }
        }
        match tx::broadcast(chain, &raw).await? {
            Broadcast::Accepted => tx::wait_for_receipt(chain, hash, chain.settings.receipt_wait).await,
            // Mined meanwhile under this very hash, or truly replaced: the receipt tells, or the
            // node knowing the transaction (its receipt is on its way).
            Broadcast::Superseded => match tx::receipt(chain, hash).await? {
                Some(r) => Ok(Some(r)),
                None if tx::known(chain, hash).await? => Ok(None),
                None => Err(ChainError::Rejected("superseded".into())),
            },
        }
    }
    .await;
    // What the sender paid, once it is settled: the gas of a mined transaction, and its value
    // when it succeeded.
    let mut paid_wei = alloy::primitives::U256::ZERO;
    let fee = |r: &TransactionReceipt| {
        alloy::primitives::U256::from(r.gas_used).saturating_mul(alloy::primitives::U256::from(r.effective_gas_price))
    };
    let settled = match outcome {
        Ok(Some(receipt)) if receipt.status() => {
            paid_wei = fee(&receipt).saturating_add(call.value);
            sqlx::query!(
                "UPDATE wallet_transactions SET status = 'confirmed', block_number = $2, gas_used = $3, error = NULL,
                        tx_hash = $4, updated_at = now() WHERE id = $1",
                id,
                receipt.block_number.map(|n| n as i64),
                receipt.gas_used as i64,
                format!("{:#x}", receipt.transaction_hash)
            )
            .execute(pool)
            .await?;
            Settled::Confirmed(Box::new(receipt))
        }
        Ok(Some(receipt)) => {
            paid_wei = fee(&receipt);
            let reason = format!("the transaction reverted: {}", tx::revert_reason(chain, from, &call, &receipt).await);
            mark_failed(pool, id, &reason, receipt.block_number, Some(receipt.gas_used)).await?;
            Settled::Failed(reason)
        }
        Ok(None) => Settled::Waiting,
        Err(ChainError::Rejected(m)) if m == "superseded" => {
            // "Nonce too low" may come from a node that mined the transaction but cannot show
            // it yet (one behind a load balancer): it is declared replaced, and signed again,
            // only on evidence — another transaction of the wallet found holding its nonce at
            // the confirmed depth. Without it, the row waits; a second payment never leaves.
            let depth = chain.settings.confirmations;
            let holder = match tx::nonce_holder(chain, from, nonce as u64, depth).await {
                Ok(h) => h,
                Err(e) => return Ok(Err(e)),
            };
            sqlx::query!(
                "UPDATE wallet_transactions
                    SET superseded_checks = superseded_checks + 1, superseded_since = coalesce(superseded_since, now()),
                        updated_at = now()
                  WHERE id = $1",
                id
            )
            .execute(pool)
            .await?;
            let by = match holder {
                Some(Some(h)) if !hashes.contains(&h) => Some(format!("{h:#x}")),
                Some(None) => Some(format!("a transaction more than {} blocks back", tx::NONCE_SEARCH_BLOCKS)),
                _ => None,
            };
            match by {
                None => Settled::Waiting,
                Some(by) => {
                    let reason = format!("replaced: {by} of this wallet used its nonce, so it was never mined");
                    mark_failed(pool, id, &reason, None, None).await?;
                    Settled::Superseded
                }
            }
        }
        Err(e) if e.is_transient() => return Ok(Err(e)),
        Err(e) => {
            let reason = e.to_string();
            mark_failed(pool, id, &reason, None, None).await?;
            Settled::Failed(reason)
        }
    };
    if !matches!(settled, Settled::Waiting) {
        book_paid(deps, chain, id, AgentId(row.agent_id), paid_wei).await?;
    }
    Ok(Ok(settled))
}

/// Books what the platform paid for a settled transaction it held the cost of (`hold_paid`),
/// and frees the rest of the hold. The hold is taken off the row first, so a settlement run
/// twice books once.
async fn book_paid(
    deps: &miniclaw_platform::deps::Deps,
    chain: &Chain,
    id: Uuid,
    agent: AgentId,
    paid_wei: alloy::primitives::U256,
) -> sqlx::Result<()> {
    let hold = sqlx::query_scalar!(
        r#"UPDATE wallet_transactions w SET hold_id = NULL FROM wallet_transactions old
            WHERE w.id = $1 AND old.id = w.id AND w.hold_id IS NOT NULL
        RETURNING old.hold_id AS "hold!: MessageId""#,
        id
    )
    .fetch_optional(&deps.pool)
    .await?;
    if let Some(hold) = hold {
        let held = Held { payer: Payer::agent(agent), id: hold };
        deps.llm.spender().spent(Some(held), wei_usd(paid_wei, chain)).await;
    }
    Ok(())
}

async fn mark_failed(
    pool: &PgPool,
    id: Uuid,
    reason: &str,
    block: Option<u64>,
    gas_used: Option<u64>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE wallet_transactions SET status = 'failed', error = $2, block_number = $3, gas_used = $4,
                updated_at = now() WHERE id = $1",
        id,
        reason,
        block.map(|n| n as i64),
        gas_used.map(|n| n as i64)
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// What `drive` did.
#[derive(Debug)]
pub enum Driven {
    /// Nothing to do (`awaiting_confirmation`, `cancelled`, settled already): why.
    Skipped(String),
    /// `Confirmed` or `Failed`; never `Waiting` or `Superseded` (those are errors: retry).
    Settled(Settled),
}

/// Brings a requested (`queued`) or recorded (`signed`) transaction to its outcome: signs it once
/// with its signer's key (the agent's, or the platform sponsor's), records it before it leaves,
/// broadcasts and settles. An `Err` is worth retrying later (the node is unreachable, the
/// transaction is not mined yet, or it lost its nonce and is signed again on the next run).
pub async fn drive(pool: &PgPool, deps: &miniclaw_platform::deps::Deps, id: Uuid) -> anyhow::Result<Driven> {
    let row = sqlx::query!(
        "SELECT agent_id, purpose, status, to_address, value_wei, input, signer, creates
           FROM wallet_transactions WHERE id = $1",
        id
    )
    .fetch_one(pool)
    .await?;
    let Some(chain) = deps.chain.as_deref() else {
        anyhow::bail!("no chain is configured (EVM_RPC_URL)");
    };
    match row.status.as_str() {
        "queued" => {
            let to = if row.creates { TxKind::Create } else { TxKind::Call(row.to_address.parse()?) };
            let call = Call { to, value: row.value_wei.parse()?, input: row.input.into() };
            let agent = AgentId(row.agent_id);
            let sponsor = row.signer == "sponsor";
            let signer = match sponsor {
                true => crate::onchain::wallets::sponsor_signer(pool, &deps.vault).await?,
                false => crate::onchain::wallets::signer(pool, &deps.vault, agent).await?,
            };
            let signed = match tx::sign(chain, &signer, &call).await {
                Ok(s) => s,
                Err(e) if e.is_transient() => return Err(e.into()),
                Err(e) => {
                    let reason = e.to_string();
                    mark_failed(pool, id, &reason, None, None).await?;
                    return Ok(Driven::Settled(Settled::Failed(reason)));
                }
            };
            let hold = match hold_paid(deps, chain, agent, sponsor, &signed).await? {
                Ok(hold) => hold,
                Err(reason) => {
                    mark_failed(pool, id, &reason, None, None).await?;
                    return Ok(Driven::Settled(Settled::Failed(reason)));
                }
            };
            let mut db = pool.begin().await?;
            record_signed(&mut db, Some(id), agent, &row.purpose, chain, &call, &signed, hold).await?;
            db.commit().await?;
        }
        "signed" => {}
        other => return Ok(Driven::Skipped(format!("the transaction is {other}"))),
    }
    match settle(deps, chain, id).await?? {
        s @ (Settled::Confirmed(_) | Settled::Failed(_)) => Ok(Driven::Settled(s)),
        Settled::Superseded => {
            sqlx::query!(
                "UPDATE wallet_transactions SET status = 'queued', tx_hash = NULL, raw_tx = NULL, nonce = NULL, error = NULL,
                        superseded_checks = 0, superseded_since = NULL, updated_at = now() WHERE id = $1",
                id
            )
            .execute(pool)
            .await?;
            anyhow::bail!("the transaction was replaced by another of the wallet; signing it again")
        }
        Settled::Waiting => anyhow::bail!("the transaction is broadcast but not mined yet; checking its receipt again"),
    }
}
