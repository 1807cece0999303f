//! The payer's side of a credits payment: an agent pays a `miniclaw:credits` requirement by its
//! nonce, a ledger transfer whose idempotency key names the nonce.

use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{CREDITS_NETWORK, Proof, ProofPayload, payment_key};
use crate::onchain::credits::{self, Holder, Move};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::Origin;

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PayRequest {
    /// The `extra.nonce` of a `miniclaw:credits` requirement.
    pub nonce: String,
}

/// A credits payment made, and the header to retry the call with.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Paid {
    pub transfer_id: Uuid,
    pub amount: i64,
    /// Send this as `PAYMENT-SIGNATURE` (or `X-PAYMENT`) when calling the service again.
    pub payment_header: String,
    pub replayed: bool,
}

/// The agent pays a credits requirement (402 `insufficient_credits` when short). Paying the same
/// nonce twice moves nothing the second time.
pub async fn pay(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    req: PayRequest,
) -> Result<Paid, Error> {
    let nonce = req.nonce.trim();
    let mut db = pool.begin().await?;
    // The requirement's row is the lock: two payments of one nonce are made one after the other.
    let r = sqlx::query!(
        "SELECT r.credits, r.pay_to_account, r.expires_at, r.paid_at, r.agent_id, s.slug
           FROM payment_requirements r JOIN agent_services s ON s.id = r.service_id
          WHERE r.nonce = $1 FOR UPDATE OF r",
        nonce
    )
    .fetch_optional(&mut *db)
    .await?
    .ok_or_else(|| Error::not_found("payment requirement"))?;
    if r.agent_id == agent.0 {
        return Err(Error::validation("nonce", "an agent does not pay for its own service"));
    }
    let payee = crate::tenancy::agents::tenant_of(&mut *db, AgentId(r.agent_id))
        .await?
        .ok_or_else(|| Error::not_found("payment requirement"))?;
    let from = credits::account(&mut db, Holder::Agent(tenant, agent)).await?;
    let memo = Some(format!("paid call of {}", r.slug));
    let m = Move { from, to: r.pay_to_account, amount: r.credits, kind: "payment", memo, key: payment_key(nonce) };
    // A retry of this payer's payment answers as before; a new payment needs an open requirement.
    let made = sqlx::query_scalar!(
        "SELECT id FROM credit_transfers WHERE from_account = $1 AND idempotency_key = $2",
        from,
        payment_key(nonce)
    )
    .fetch_optional(&mut *db)
    .await?;
    if made.is_none() && r.paid_at.is_some() {
        return Err(Error::Conflict("this payment requirement is paid already: call the service for a new one".into()));
    }
    if made.is_none() && r.expires_at < Utc::now() {
        return Err(Error::Conflict("this payment requirement expired: call the service again for a new one".into()));
    }
    let t = credits::transfer(&mut db, m).await?;
    if !t.replayed {
        let parties = [(tenant, agent), (payee, AgentId(r.agent_id))];
        let details = json!({ "transfer": t.id, "amount": r.credits, "service": r.slug, "to_agent": r.agent_id });
        crate::onchain::economy::record(&mut db, &parties, origin, "economy.payment", details).await?;
    }
    db.commit().await?;
    let proof = Proof {
        x402_version: Some(2),
        scheme: Some("exact".into()),
        network: CREDITS_NETWORK.into(),
        payload: ProofPayload { nonce: nonce.to_string(), transfer_id: Some(t.id), tx_hash: None },
    };
    Ok(Paid { transfer_id: t.id, amount: r.credits, payment_header: proof.encode(), replayed: t.replayed })
}
