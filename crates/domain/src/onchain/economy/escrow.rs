//! Escrowed service orders (SPEC I8): the price in wei is held by the `ServiceEscrow` contract
//! (`MINICLAW_ESCROW_ADDRESS`) instead of the ledger. Placing the order funds the escrow from
//! the buyer's wallet; the seller accepts only once it is funded. Settling releases it to the
//! seller (signed by the buyer's wallet, or by the arbiter — the platform's sponsor wallet —
//! when the operator settles a dispute); every refund is signed by the arbiter, the platform
//! having decided it by the order's rules.
//!
//! The order follows the contract: a step that pays out (settle, refund) leaves the status as
//! it is and sets `escrow_state` to `releasing` or `refunding`; the order becomes `settled` or
//! `refunded` only when that transaction is mined. A reverted release leaves the order
//! `delivered` with `release_failed` and the reason, to be settled again or disputed; no other
//! step is taken while a payout is in flight.

use alloy::primitives::{Address, U256};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::onchain::{self, Request};
use crate::onchain::wallets::transactions::Settled;
use crate::tenancy::auth::Actor;
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::chain::{Chain, contracts};
use miniclaw_platform::deps::Deps;

/// The escrow contract, or 422 `escrow_not_configured`.
pub fn contract(chain: &Chain) -> Result<Address, Error> {
    chain.settings.escrow.as_deref().and_then(|a| a.parse().ok()).ok_or_else(|| Error::Unprocessable {
        code: "escrow_not_configured",
        message: "escrowed orders need the ServiceEscrow contract: the operator sets MINICLAW_ESCROW_ADDRESS".into(),
        details: None,
    })
}

/// The arbiter: the platform's sponsor wallet.
pub async fn arbiter(deps: &Deps) -> Result<Address, Error> {
    let signer =
        crate::onchain::wallets::sponsor_signer(&deps.pool, &deps.vault).await.map_err(|e| Error::Unprocessable {
            code: "master_key_required",
            message: format!("escrow needs the platform's sponsor wallet as its arbiter: {e}"),
            details: None,
        })?;
    Ok(signer.address())
}

/// A new escrowed order to fund.
#[derive(Debug, Clone, Copy)]
pub struct Funding {
    pub order: Uuid,
    pub buyer: AgentId,
    pub seller: AgentId,
    pub value: U256,
    /// After it the buyer may refund itself on chain.
    pub deadline: chrono::DateTime<chrono::Utc>,
}

/// Funds the escrow of a new order from the buyer's wallet (within the wallet's limits).
pub async fn fund(db: &mut PgConnection, deps: &Deps, f: Funding, origin: &Origin) -> Result<Uuid, Error> {
    let Funding { order, buyer, seller, value, deadline } = f;
    let chain = crate::onchain::wallets::send::configured(deps)?;
    let escrow = contract(chain)?;
    let arbiter = arbiter(deps).await?;
    let seller_wallet = sqlx::query_scalar!("SELECT address FROM agent_wallets WHERE agent_id = $1", seller as _)
        .fetch_optional(&mut *db)
        .await?
        .and_then(|a| a.parse::<Address>().ok())
        .ok_or_else(|| Error::Unprocessable {
            code: "no_recipient_wallet",
            message: "the seller has no server-managed wallet to be paid in".into(),
            details: None,
        })?;
    // The gas subsidy pays gas, not orders: a wallet topped up in the last day escrows nothing.
    if super::gas::recently_subsidised(db, buyer).await? {
        return Err(Error::Conflict(
            "the buyer's wallet got a gas top-up from the platform in the last 24 hours: it escrows no native value \
             until a day has passed (the order can go in credits)"
                .into(),
        ));
    }
    let (_, confirm) = crate::onchain::wallets::send::within_limits(db, buyer, value, None).await?;
    if confirm {
        return Err(Error::Unprocessable {
            code: "wallet_limit",
            message: format!(
                "{value} wei is above the wallet's confirmation threshold (confirm_above_wei), and escrowed orders are not \
                 held for confirmation: the owner raises the threshold or the order goes in credits"
            ),
            details: Some(serde_json::json!({ "limit": "confirm_above" })),
        });
    }
    let input =
        contracts::escrow_fund(contracts::order_key(order), seller_wallet, arbiter, deadline.timestamp() as u64);
    let call = Request { purpose: "escrow_fund", sponsor: false, to: Some(escrow), value, input };
    onchain::request(db, chain, buyer, origin, call).await
}

/// Requests the payout of a settled (`release`) or refunded order; the arbiter signs unless the
/// buyer releases.
pub async fn payout(
    db: &mut PgConnection,
    deps: &Deps,
    buyer: AgentId,
    order: Uuid,
    release: bool,
    by_buyer: bool,
    origin: &Origin,
) -> Result<Uuid, Error> {
    let chain = crate::onchain::wallets::send::configured(deps)?;
    let escrow = contract(chain)?;
    let key = contracts::order_key(order);
    let (purpose, input) = if release {
        ("escrow_release", contracts::escrow_release(key))
    } else {
        ("escrow_refund", contracts::escrow_refund(key))
    };
    let call = Request { purpose, sponsor: !(release && by_buyer), to: Some(escrow), value: U256::ZERO, input };
    onchain::request(db, chain, buyer, origin, call).await
}

/// What a mined (or failed) escrow transaction means for its order.
pub async fn settled(pool: &PgPool, tx: Uuid, outcome: &Settled) -> anyhow::Result<()> {
    let mut db = pool.begin().await?;
    let Some(o) = sqlx::query!(
        "SELECT id, escrow_state, buyer_agent, buyer_tenant, seller_agent, seller_tenant FROM service_orders
          WHERE escrow_tx = $1 FOR UPDATE",
        tx
    )
    .fetch_optional(&mut *db)
    .await?
    else {
        return Ok(());
    };
    let ok = matches!(outcome, Settled::Confirmed(_));
    let error = match outcome {
        Settled::Failed(reason) => Some(reason.clone()),
        _ => None,
    };
    // (new escrow state, new status if it changes)
    let (state, status) = match (o.escrow_state.as_deref(), ok) {
        (Some("funding"), true) => ("funded", None),
        // Nothing was held: the order ends refunded.
        (Some("funding"), false) => ("fund_failed", Some("refunded")),
        (Some("releasing"), true) => ("released", Some("settled")),
        (Some("releasing"), false) => ("release_failed", None),
        (Some("refunding"), true) => ("refunded", Some("refunded")),
        (Some("refunding"), false) => ("refund_failed", None),
        _ => return Ok(()),
    };
    sqlx::query!(
        "UPDATE service_orders SET escrow_state = $2, status = coalesce($3, status), escrow_error = $4,
                closed_at = CASE WHEN $3::text IS NULL THEN closed_at ELSE now() END, updated_at = now()
          WHERE id = $1",
        o.id,
        state,
        status,
        error
    )
    .execute(&mut *db)
    .await?;
    let parties =
        [(TenantId(o.buyer_tenant), AgentId(o.buyer_agent)), (TenantId(o.seller_tenant), AgentId(o.seller_agent))];
    let details = json!({ "order": o.id, "escrow": state, "status": status, "transaction": tx, "error": error });
    let origin = Origin::new(Actor::Job(super::onchain::JOB.into()), None);
    super::record(&mut db, &parties, &origin, &format!("economy.escrow_{state}"), details).await?;
    db.commit().await?;
    Ok(())
}
