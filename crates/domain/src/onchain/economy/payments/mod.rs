//! Paid service calls in the x402 style (SPEC I8). A call without payment is answered 402 with
//! the payment requirements, in the body (x402 v1 clients) and base64 in `PAYMENT-REQUIRED`
//! (v2): for each way to pay, the amount, the asset, who to pay, the network, how long the
//! offer holds, and a nonce. Two ways:
//!
//! - credits (`network: miniclaw:credits`): a platform agent pays with `POST
//!   /v1/hosted-agents/{id}/payments {nonce}`, a ledger transfer to the seller's account whose
//!   idempotency key names the nonce; the proof is the transfer id.
//! - native value (`network: eip155:<chain id>`, when the service has a wei price, a chain is
//!   configured and the seller has a wallet): any wallet sends at least the amount to the
//!   seller's address with the nonce's 32 bytes as the transaction data (`extra.data`), which
//!   ties the payment to this requirement; the proof is the transaction hash, checked against
//!   the mined receipt and transaction.
//!
//! The client retries with the proof base64 in `PAYMENT-SIGNATURE` (or `X-PAYMENT`). The
//! server verifies it and claims the requirement in one statement: a proof pays one
//! requirement, a requirement is paid once, a payment made after the requirement expired does
//! not count, and a replayed proof is refused. One request at a time holds the lease to answer
//! a paid call; a failed answer gives it back, so the payer can retry with the same proof.

use alloy::consensus::Transaction as _;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::services::Service;
use crate::onchain::credits::{self, Holder};
use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use miniclaw_platform::chain::Chain;

mod pay;
pub use pay::{Paid, PayRequest, pay};

/// The network name of platform credits.
pub const CREDITS_NETWORK: &str = "miniclaw:credits";
/// How long a payment requirement holds.
pub const VALID_SECS: i64 = 600;

/// The x402 answer to an unpaid call.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRequired {
    /// 2.
    pub x402_version: u8,
    /// Why payment is (still) required.
    pub error: String,
    pub resource: Resource,
    /// The ways to pay, each good until `extra.expiresAt`.
    pub accepts: Vec<Requirement>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    pub url: String,
    pub description: String,
    pub mime_type: String,
}

/// One way to pay.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Requirement {
    /// `exact`.
    pub scheme: String,
    /// `miniclaw:credits`, or CAIP-2 `eip155:<chain id>`.
    pub network: String,
    /// Credits, or wei, as a decimal string.
    pub amount: String,
    /// `credits`, or `native` (the chain's own currency).
    pub asset: String,
    /// The seller's credit account id, or its wallet address.
    pub pay_to: String,
    pub max_timeout_seconds: i64,
    /// `nonce` (quote it in the proof), `expiresAt`, and for an on-chain payment `data`, the
    /// transaction data the payment must carry.
    #[schema(value_type = Object)]
    pub extra: Value,
}

/// The proof a client sends back (base64 JSON in `PAYMENT-SIGNATURE` or `X-PAYMENT`).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Proof {
    #[serde(default)]
    pub x402_version: Option<u8>,
    #[serde(default)]
    pub scheme: Option<String>,
    pub network: String,
    pub payload: ProofPayload,
}

#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProofPayload {
    pub nonce: String,
    /// Credits: the transfer id.
    pub transfer_id: Option<Uuid>,
    /// Native value: the transaction hash.
    pub tx_hash: Option<String>,
}

impl Proof {
    /// The header value: base64 of the JSON.
    pub fn encode(&self) -> String {
        B64.encode(serde_json::to_vec(self).expect("a proof serialises"))
    }

    pub fn decode(header: &str) -> Result<Proof, Error> {
        let bytes = B64.decode(header.trim()).map_err(|_| bad_proof("the payment header is not base64"))?;
        serde_json::from_slice(&bytes)
            .map_err(|e| bad_proof(&format!("the payment header is not a payment proof: {e}")))
    }
}

fn bad_proof(message: &str) -> Error {
    Error::Invalid { code: "invalid_payment", message: message.into(), details: None }
}

/// Why a proof did not pay: the call answers 402 again with fresh requirements and this reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpaid(pub String);

/// Hands out fresh payment requirements for `service` (each call its own nonce).
pub async fn require(
    pool: &PgPool,
    chain: Option<&Chain>,
    service: &Service,
    url: &str,
    error: &str,
) -> Result<PaymentRequired, Error> {
    let mut db = pool.begin().await?;
    let tenant = crate::tenancy::agents::tenant_of(&mut *db, AgentId(service.agent_id))
        .await?
        .ok_or_else(|| Error::not_found("agent"))?;
    let pay_to = credits::account(&mut db, Holder::Agent(tenant, AgentId(service.agent_id))).await?;
    let wallet = sqlx::query_scalar!("SELECT address FROM agent_wallets WHERE agent_id = $1", service.agent_id)
        .fetch_optional(&mut *db)
        .await?;
    let native = match (chain, &service.price_wei, wallet) {
        (Some(c), Some(wei), Some(address)) => Some((c.chain_id, wei.clone(), address)),
        _ => None,
    };
    let nonce = format!("{}{}", Uuid::new_v4().simple(), Uuid::new_v4().simple());
    let expires_at = Utc::now() + Duration::seconds(VALID_SECS);
    sqlx::query!(
        "INSERT INTO payment_requirements (nonce, service_id, agent_id, credits, pay_to_account, wei, pay_to_address,
                                           chain_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        nonce,
        service.id,
        service.agent_id,
        service.price,
        pay_to,
        native.as_ref().map(|n| n.1.clone()),
        native.as_ref().map(|n| n.2.clone()),
        native.as_ref().map(|n| n.0 as i64),
        expires_at
    )
    .execute(&mut *db)
    .await?;
    db.commit().await?;
    let extra = json!({ "nonce": nonce, "expiresAt": expires_at, "service": service.slug });
    // An on-chain payment carries the nonce as its data.
    let native_extra =
        json!({ "nonce": nonce, "expiresAt": expires_at, "service": service.slug, "data": format!("0x{nonce}") });
    let mut accepts = vec![Requirement {
        scheme: "exact".into(),
        network: CREDITS_NETWORK.into(),
        amount: service.price.to_string(),
        asset: "credits".into(),
        pay_to: pay_to.to_string(),
        max_timeout_seconds: VALID_SECS,
        extra: extra.clone(),
    }];
    if let Some((chain_id, wei, address)) = native {
        accepts.push(Requirement {
            scheme: "exact".into(),
            network: format!("eip155:{chain_id}"),
            amount: wei,
            asset: "native".into(),
            pay_to: address,
            max_timeout_seconds: VALID_SECS,
            extra: native_extra,
        });
    }
    Ok(PaymentRequired {
        x402_version: 2,
        error: error.into(),
        resource: Resource {
            url: url.into(),
            description: service.title.clone(),
            mime_type: "application/json".into(),
        },
        accepts,
    })
}

/// A verified, claimed payment.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Settlement {
    pub success: bool,
    /// The transfer id or the transaction hash.
    pub transaction: String,
    pub network: String,
    /// The paying agent (credits) or address (native).
    pub payer: String,
    pub nonce: String,
}

/// The proof's message in an on-chain payment: the transaction's data is the nonce's 32 bytes,
/// which ties the transaction to this one requirement.
pub fn nonce_data(nonce: &str) -> Option<Vec<u8>> {
    hex::decode(nonce).ok().filter(|b| b.len() == 32)
}

const USED: &str = "this payment was already used: a proof pays for one call";

/// Verifies `proof` for `service`, claims its requirement, and takes the lease to answer its
/// call: at most one request answers a payment, and a failed answer gives the lease back (the
/// same proof may then try again). `Ok(Err(Unpaid))`: it does not pay (unknown nonce, paid
/// after the requirement expired, wrong amount, payee or data, not mined, already used).
pub async fn verify(
    pool: &PgPool,
    chain: Option<&Chain>,
    service: &Service,
    proof: &Proof,
) -> Result<Result<Settlement, Unpaid>, Error> {
    let p = &proof.payload;
    let Some(r) = sqlx::query!(
        "SELECT credits, pay_to_account, wei, pay_to_address, chain_id, created_at, expires_at, proof, payer
           FROM payment_requirements WHERE nonce = $1 AND service_id = $2",
        p.nonce,
        service.id
    )
    .fetch_optional(pool)
    .await?
    else {
        return Ok(Err(Unpaid("no payment requirement has this nonce for this service".into())));
    };
    let given = p.transfer_id.map(|t| t.to_string()).or_else(|| p.tx_hash.as_deref().map(str::to_ascii_lowercase));
    let settlement = |transaction: String, payer: String| Settlement {
        success: true,
        transaction,
        network: proof.network.clone(),
        payer,
        nonce: p.nonce.clone(),
    };
    if let Some(used) = &r.proof {
        // The same proof again: its call may still be owed (an earlier answer failed).
        if given.as_deref() != Some(used.as_str()) {
            return Ok(Err(Unpaid(USED.into())));
        }
        return Ok(match lease(pool, &p.nonce).await? {
            true => Ok(settlement(used.clone(), r.payer.unwrap_or_default())),
            false => Err(Unpaid(USED.into())),
        });
    }
    let (paid_in, transaction, payer) = if proof.network == CREDITS_NETWORK {
        let Some(transfer) = p.transfer_id else {
            return Err(bad_proof("a credits payment names its `transferId`"));
        };
        let t = sqlx::query!(
            r#"SELECT t.amount, t.to_account, t.idempotency_key, t.created_at, a.agent_id AS "payer?"
                 FROM credit_transfers t JOIN credit_accounts a ON a.id = t.from_account WHERE t.id = $1"#,
            transfer
        )
        .fetch_optional(pool)
        .await?;
        let Some(t) = t else { return Ok(Err(Unpaid("no credit transfer has this id".into()))) };
        if t.to_account != r.pay_to_account || t.amount < r.credits || t.idempotency_key != payment_key(&p.nonce) {
            return Ok(Err(Unpaid("this transfer is not the payment of this requirement".into())));
        }
        if t.created_at > r.expires_at {
            return Ok(Err(Unpaid("the payment came after the requirement expired: pay the new one".into())));
        }
        ("credits", transfer.to_string(), t.payer.map(|a| a.to_string()).unwrap_or_default())
    } else {
        let (Some(chain), Some(wei), Some(address), Some(chain_id)) = (chain, &r.wei, &r.pay_to_address, r.chain_id)
        else {
            return Ok(Err(Unpaid(format!("this service cannot be paid on {}", proof.network))));
        };
        if proof.network != format!("eip155:{chain_id}") || chain.chain_id as i64 != chain_id {
            return Ok(Err(Unpaid(format!("this requirement is paid on eip155:{chain_id}"))));
        }
        let Some(hash) = p.tx_hash.as_deref().and_then(|h| h.parse::<B256>().ok()) else {
            return Err(bad_proof("a native payment names its `txHash` (0x and 64 hex digits)"));
        };
        // Each check costs the node one to three calls: a requirement gets a few, then a new one
        // must be asked for (which the per-address rate limit bounds).
        let checked = sqlx::query_scalar!(
            "UPDATE payment_requirements SET chain_checks = chain_checks + 1
              WHERE nonce = $1 AND paid_at IS NULL AND chain_checks < $2 RETURNING chain_checks",
            p.nonce,
            MAX_CHAIN_CHECKS
        )
        .fetch_optional(pool)
        .await?;
        if checked.is_none() {
            return Ok(Err(Unpaid(format!(
                "this requirement's payment was checked on chain {MAX_CHAIN_CHECKS} times without paying: ask for a new requirement"
            ))));
        }
        let expected = Expected { address, wei, data: nonce_data(&p.nonce), from: r.created_at, until: r.expires_at };
        match native(chain, hash, &expected).await {
            Ok(Ok(payer)) => ("native", format!("{hash:#x}"), payer),
            Ok(Err(why)) => return Ok(Err(why)),
            Err(e) => return Err(Error::Unavailable(format!("the payment cannot be checked on chain now: {e}"))),
        }
    };
    // Paid, and the lease to answer taken, in one statement.
    let claimed = sqlx::query_scalar!(
        "UPDATE payment_requirements SET paid_at = now(), paid_in = $2, proof = $3, payer = $4, serving_since = now()
          WHERE nonce = $1 AND paid_at IS NULL AND NOT EXISTS (SELECT 1 FROM payment_requirements WHERE proof = $3)
         RETURNING nonce",
        p.nonce,
        paid_in,
        transaction,
        payer
    )
    .fetch_optional(pool)
    .await;
    match claimed {
        Ok(Some(_)) => Ok(Ok(settlement(transaction, payer))),
        // Claimed by a concurrent retry, or the proof paid another requirement: a replay.
        Ok(None) => Ok(Err(Unpaid(USED.into()))),
        Err(sqlx::Error::Database(d)) if d.is_unique_violation() => Ok(Err(Unpaid(USED.into()))),
        Err(e) => Err(e.into()),
    }
}

/// How many on-chain checks of a proof one requirement gets before it pays nothing more.
pub const MAX_CHAIN_CHECKS: i32 = 5;

/// How long one request may take to answer a paid call before another may try.
pub const SERVING_LEASE_SECS: i64 = 300;

/// Takes the lease to answer a paid requirement's call: false when it was answered, or another
/// request is answering it.
async fn lease(pool: &PgPool, nonce: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!(
        "UPDATE payment_requirements SET serving_since = now()
          WHERE nonce = $1 AND paid_at IS NOT NULL AND served_at IS NULL
            AND (serving_since IS NULL OR serving_since < now() - make_interval(secs => $2))
         RETURNING nonce",
        nonce,
        SERVING_LEASE_SECS as f64
    )
    .fetch_optional(pool)
    .await?
    .is_some())
}

/// Gives the lease back after a failed answer: the same proof may try again.
pub async fn release(pool: &PgPool, nonce: &str) -> sqlx::Result<()> {
    sqlx::query!("UPDATE payment_requirements SET serving_since = NULL WHERE nonce = $1 AND served_at IS NULL", nonce)
        .execute(pool)
        .await?;
    Ok(())
}

/// What a native payment must be.
struct Expected<'a> {
    address: &'a str,
    wei: &'a str,
    /// The transaction's data: the nonce's bytes.
    data: Option<Vec<u8>>,
    /// Mined between these.
    from: DateTime<Utc>,
    until: DateTime<Utc>,
}

/// A native payment: mined, successful, to `address`, at least `wei`, carrying the nonce as its
/// data, mined while the requirement held. The payer's address.
async fn native(
    chain: &Chain,
    hash: B256,
    e: &Expected<'_>,
) -> Result<Result<String, Unpaid>, miniclaw_platform::chain::ChainError> {
    let p = chain.provider();
    let Some(receipt) = p.get_transaction_receipt(hash).await? else {
        return Ok(Err(Unpaid("the transaction is not mined yet".into())));
    };
    if !receipt.status() {
        return Ok(Err(Unpaid("the transaction reverted".into())));
    }
    let Some(tx) = p.get_transaction_by_hash(hash).await? else {
        return Ok(Err(Unpaid("the node does not know the transaction".into())));
    };
    let to: Option<Address> = e.address.parse().ok();
    let want: U256 = e.wei.parse().unwrap_or(U256::MAX);
    if tx.to() != to || tx.value() < want {
        return Ok(Err(Unpaid("the transaction does not pay this requirement (payee or amount)".into())));
    }
    if e.data.as_deref() != Some(tx.input().as_ref()) {
        return Ok(Err(Unpaid("the transaction's data is not this requirement's nonce (extra.data)".into())));
    }
    if let Some(block) = receipt.block_number {
        let mined = p.get_block_by_number(block.into()).await?.map(|b| b.header.timestamp as i64);
        // Block times are seconds and clocks drift: a few seconds of slack either side.
        if mined.is_some_and(|t| t < e.from.timestamp() - 5 || t > e.until.timestamp() + 5) {
            return Ok(Err(Unpaid("the transaction was not mined while the requirement held".into())));
        }
    }
    Ok(Ok(format!("{:#x}", receipt.from)))
}

/// The idempotency key of a credits payment of `nonce`.
pub fn payment_key(nonce: &str) -> String {
    format!("x402:{nonce}")
}

/// Deletes requirements that expired unpaid more than a day ago (each unpaid call leaves one).
pub async fn purge_expired(pool: &PgPool) -> sqlx::Result<u64> {
    Ok(sqlx::query!("DELETE FROM payment_requirements WHERE paid_at IS NULL AND expires_at < now() - interval '1 day'")
        .execute(pool)
        .await?
        .rows_affected())
}

/// Marks a paid requirement's call answered (a proof then never serves again).
pub async fn served(pool: &PgPool, nonce: &str) -> sqlx::Result<()> {
    sqlx::query!("UPDATE payment_requirements SET served_at = now() WHERE nonce = $1", nonce).execute(pool).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_survives_its_header() {
        let p = Proof {
            x402_version: Some(2),
            scheme: Some("exact".into()),
            network: CREDITS_NETWORK.into(),
            payload: ProofPayload { nonce: "n".repeat(32), transfer_id: Some(Uuid::nil()), tx_hash: None },
        };
        let back = Proof::decode(&p.encode()).unwrap();
        assert_eq!(back.payload.nonce, p.payload.nonce);
        assert_eq!(back.payload.transfer_id, Some(Uuid::nil()));
        assert!(matches!(Proof::decode("%%%"), Err(Error::Invalid { code: "invalid_payment", .. })));
        assert!(matches!(Proof::decode(&B64.encode(b"{}")), Err(Error::Invalid { .. })));
    }
}
