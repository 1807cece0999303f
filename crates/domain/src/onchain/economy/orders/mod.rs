//! Service orders between agents (SPEC I6): a buyer agent orders a seller agent's service and
//! its price is held in the ledger (`buyer → HOLDS`) from the start. The order then moves
//!
//! ```text
//! offered ──accept──▶ accepted ──deliver──▶ delivered ──settle──▶ settled   (HOLDS → seller)
//!    │                   │                     └──dispute──▶ disputed ──operator──▶ settled | refunded
//!    └─decline/cancel─▶ refunded ◀──refund / cancel after the deadline──┘         (HOLDS → buyer)
//! ```
//!
//! and nothing else: any other step is 409 with what the order allows. A step is one
//! transaction that locks the order row, so two parties acting at once get one step each in
//! some order, and the held credits move exactly once. An escrowed order (`rail: escrow`) holds
//! its price in wei in the escrow contract instead, and follows it (`escrow`).

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{counterparty, idempotency_key, record};
use crate::onchain::credits::{self, HOLDS, Holder, Move};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;

mod machine;
pub use machine::{Action, Role, Status, allowed, next};

/// An order as either party sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Order {
    pub id: Uuid,
    pub service_id: Uuid,
    pub service_slug: String,
    pub service_title: String,
    pub buyer_agent_id: Uuid,
    pub seller_agent_id: Uuid,
    /// `credits` (the price held in the ledger) or `escrow` (the price in wei held on chain).
    pub rail: String,
    /// In credits, held from the offer until the order is settled or refunded (credit orders).
    pub price: Option<i64>,
    /// In wei, held by the escrow contract (escrowed orders).
    pub price_wei: Option<String>,
    /// Escrowed orders: `funding`, `funded`, `fund_failed`, `releasing`, `release_failed`,
    /// `released`, `refunding`, `refund_failed` or `refunded`.
    pub escrow_state: Option<String>,
    /// Why the last escrow transaction failed.
    pub escrow_error: Option<String>,
    /// The hash of the last escrow transaction, once signed.
    pub escrow_tx_hash: Option<String>,
    /// `offered`, `accepted`, `delivered`, `settled`, `disputed` or `refunded`.
    pub status: String,
    pub request: String,
    pub delivery: Option<String>,
    pub dispute_reason: Option<String>,
    pub resolution: Option<String>,
    /// The buyer's 1–5 rating, given when settling.
    pub rating: Option<i16>,
    pub hold_transfer_id: Option<Uuid>,
    /// The transfer that paid the seller (settled) or the buyer back (refunded).
    pub close_transfer_id: Option<Uuid>,
    pub deliver_by: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OrderRequest {
    /// The seller agent.
    pub seller_agent_id: AgentId,
    /// The seller's service slug.
    pub service: String,
    /// What the buyer asks for, at most 4,000 characters.
    #[serde(default)]
    pub request: String,
    /// Hours the seller has to deliver once the order exists: 1–720, default 72.
    pub deliver_within_hours: Option<i64>,
    /// `credits` (default) or `escrow`: the service's price in wei, held by the escrow contract
    /// from the buyer's wallet (within its limits).
    #[serde(default)]
    pub rail: OrderRail,
    /// Unique per order from this buyer: a retry with the same key returns the same order.
    pub idempotency_key: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OrderRail {
    #[default]
    Credits,
    Escrow,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OrderStep)]
pub struct Step {
    pub action: Action,
    /// `deliver`: the result handed over (required, at most 20,000 characters).
    pub delivery: Option<String>,
    /// `dispute`: why (required, at most 2,000 characters).
    pub reason: Option<String>,
    /// `settle`: the buyer's 1–5 rating of the service.
    pub rating: Option<i16>,
}

struct Row {
    status: String,
    rail: String,
    escrow_state: Option<String>,
    buyer_agent: Uuid,
    buyer_tenant: Uuid,
    seller_agent: Uuid,
    seller_tenant: Uuid,
    price: Option<i64>,
    deliver_by: DateTime<Utc>,
}

/// Places an order: 201 with the price held from the buyer's credits (402 when short), or, in
/// escrow, with the escrow's funding on its way from the buyer's wallet.
pub async fn place(
    deps: &Deps,
    tenant: TenantId,
    buyer: AgentId,
    origin: &Origin,
    req: OrderRequest,
) -> Result<(Order, bool), Error> {
    let pool = &deps.pool;
    let key = idempotency_key(&req.idempotency_key)?;
    let request = req.request.trim();
    if request.chars().count() > 4000 {
        return Err(Error::too_long("request", 4000, request.chars().count()));
    }
    let hours = req.deliver_within_hours.unwrap_or(72);
    if !(1..=720).contains(&hours) {
        return Err(Error::validation("deliver_within_hours", "deliver_within_hours is 1 to 720"));
    }
    if req.seller_agent_id == buyer {
        return Err(Error::validation("seller_agent_id", "an agent cannot order its own service"));
    }
    let mut db = pool.begin().await?;
    let seller_tenant = counterparty(&mut db, req.seller_agent_id).await?;
    let service = sqlx::query!(
        "SELECT id, price, price_wei, active FROM agent_services WHERE agent_id = $1 AND slug = $2",
        req.seller_agent_id as _,
        req.service.trim()
    )
    .fetch_optional(&mut *db)
    .await?
    .ok_or_else(|| Error::not_found("service"))?;
    if !service.active {
        return Err(Error::Conflict("this service is not on offer any more".into()));
    }
    let id = Uuid::now_v7();
    let deliver_by = Utc::now() + Duration::hours(hours);
    let (price, hold, price_wei, escrow_tx) = match req.rail {
        OrderRail::Credits => {
            let from = credits::account(&mut db, Holder::Agent(tenant, buyer)).await?;
            let memo = Some(format!("held for an order of {}", req.service.trim()));
            let m =
                Move { from, to: HOLDS, amount: service.price, kind: "order_hold", memo, key: format!("order:{key}") };
            let t = credits::transfer(&mut db, m).await?;
            if t.replayed {
                drop(db);
                let id = sqlx::query_scalar!("SELECT id FROM service_orders WHERE hold_transfer = $1", t.id)
                    .fetch_one(pool)
                    .await?;
                return Ok((get(pool, id).await?, false));
            }
            (Some(service.price), Some(t.id), None, None)
        }
        OrderRail::Escrow => {
            let Some(wei) = service.price_wei else {
                return Err(Error::Unprocessable {
                    code: "no_wei_price",
                    message: "this service has no price in wei (price_wei): order it in credits".into(),
                    details: None,
                });
            };
            // The buyer's wallet row is its lock: a retry waits here, then finds the order.
            crate::onchain::wallets::get(pool, buyer).await?.ok_or_else(|| Error::Unprocessable {
                code: "no_wallet",
                message: "an escrowed order is paid from the buyer's wallet, and it has none".into(),
                details: None,
            })?;
            sqlx::query!("SELECT 1 AS one FROM agent_wallets WHERE agent_id = $1 FOR UPDATE", buyer as _)
                .fetch_one(&mut *db)
                .await?;
            let earlier = sqlx::query_scalar!(
                "SELECT id FROM service_orders WHERE buyer_agent = $1 AND idempotency_key = $2",
                buyer as _,
                key
            )
            .fetch_optional(&mut *db)
            .await?;
            if let Some(id) = earlier {
                drop(db);
                return Ok((get(pool, id).await?, false));
            }
            let value = super::onchain::amount("price_wei", &wei)?;
            let funding =
                super::escrow::Funding { order: id, buyer, seller: req.seller_agent_id, value, deadline: deliver_by };
            let tx = super::escrow::fund(&mut db, deps, funding, origin).await?;
            (None, None, Some(wei), Some(tx))
        }
    };
    let rail = match req.rail {
        OrderRail::Credits => "credits",
        OrderRail::Escrow => "escrow",
    };
    sqlx::query!(
        "INSERT INTO service_orders (id, service_id, buyer_agent, buyer_tenant, seller_agent, seller_tenant, price, status,
                                     request, idempotency_key, hold_transfer, deliver_by, rail, price_wei, escrow_state,
                                     escrow_tx)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'offered', $8, $9, $10, $11, $12, $13, $14, $15)",
        id,
        service.id,
        buyer as _,
        tenant as _,
        req.seller_agent_id as _,
        seller_tenant as _,
        price,
        request,
        key,
        hold,
        deliver_by,
        rail,
        price_wei,
        escrow_tx.map(|_| "funding"),
        escrow_tx
    )
    .execute(&mut *db)
    .await
    .map_err(super::key_conflict)?;
    let parties = [(tenant, buyer), (seller_tenant, req.seller_agent_id)];
    let details = json!({ "order": id, "service": service.id, "rail": rail, "price": price, "price_wei": price_wei,
                          "status": "offered" });
    record(&mut db, &parties, origin, "economy.order_offered", details).await?;
    db.commit().await?;
    Ok((get(pool, id).await?, true))
}

/// Takes a step on an order `agent` is a party to (the operator: `agent` is `None`).
pub async fn step(deps: &Deps, agent: Option<AgentId>, origin: &Origin, id: Uuid, s: Step) -> Result<Order, Error> {
    let pool = &deps.pool;
    let mut db = pool.begin().await?;
    let o = sqlx::query_as!(
        Row,
        "SELECT status, rail, escrow_state, buyer_agent, buyer_tenant, seller_agent, seller_tenant, price, deliver_by
           FROM service_orders WHERE id = $1 FOR UPDATE",
        id
    )
    .fetch_optional(&mut *db)
    .await?
    .ok_or_else(|| Error::not_found("order"))?;
    let role = match agent {
        None => Role::Operator,
        Some(a) if a.0 == o.buyer_agent => Role::Buyer,
        Some(a) if a.0 == o.seller_agent => Role::Seller,
        Some(_) => return Err(Error::not_found("order")),
    };
    let from = Status::parse(&o.status).ok_or_else(|| Error::Internal(anyhow::anyhow!("order status {}", o.status)))?;
    let to = next(from, role, s.action, Utc::now() > o.deliver_by).map_err(Error::Conflict)?;
    let escrowed = o.rail == "escrow";
    if escrowed {
        match o.escrow_state.as_deref() {
            Some(busy @ ("funding" | "releasing" | "refunding")) => {
                return Err(Error::Conflict(format!("the escrow is {busy}: wait for that transaction to land")));
            }
            Some(state) if s.action == Action::Accept && state != "funded" => {
                return Err(Error::Conflict(format!(
                    "the escrow is {state}, not funded: the order cannot be accepted"
                )));
            }
            _ => {}
        }
    }
    let text = |field: &str, v: &Option<String>, max: usize| -> Result<Option<String>, Error> {
        let t = v.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_string);
        match &t {
            Some(t) if t.chars().count() > max => Err(Error::too_long(field, max, t.chars().count())),
            _ => Ok(t),
        }
    };
    let delivery = text("delivery", &s.delivery, 20_000)?;
    let reason = text("reason", &s.reason, 2_000)?;
    if s.action == Action::Deliver && delivery.is_none() {
        return Err(Error::validation("delivery", "delivering needs the result in `delivery`"));
    }
    if s.action == Action::Dispute && reason.is_none() {
        return Err(Error::validation("reason", "a dispute needs its reason in `reason`"));
    }
    if s.rating.is_some_and(|r| !(1..=5).contains(&r)) {
        return Err(Error::validation("rating", "rating is 1 to 5"));
    }
    // A payout: credits move now; escrow asks the contract and the order follows its outcome.
    let (close, escrow) = match (to, escrowed) {
        (Status::Settled | Status::Refunded, false) => (Some(release(&mut db, &o, id, to).await?), None),
        (Status::Settled | Status::Refunded, true) => {
            let buyer = AgentId(o.buyer_agent);
            let release = to == Status::Settled;
            let tx = super::escrow::payout(&mut db, deps, buyer, id, release, role == Role::Buyer, origin).await?;
            (None, Some((tx, if release { "releasing" } else { "refunding" })))
        }
        _ => (None, None),
    };
    // The status a payout leads to waits for the chain.
    let to = if escrow.is_some() { from } else { to };
    let (resolution, rating) = match role {
        Role::Operator => (reason.clone(), None),
        _ => (None, if to == Status::Settled { s.rating } else { None }),
    };
    sqlx::query!(
        "UPDATE service_orders SET status = $2, delivery = coalesce($3, delivery),
                dispute_reason = CASE WHEN $2 = 'disputed' THEN $4 ELSE dispute_reason END,
                resolution = coalesce($5, resolution), rating = coalesce($6, rating), close_transfer = $7,
                closed_at = CASE WHEN $7::uuid IS NULL THEN NULL ELSE now() END, updated_at = now(),
                escrow_tx = coalesce($8, escrow_tx), escrow_state = coalesce($9, escrow_state),
                escrow_error = CASE WHEN $9::text IS NULL THEN escrow_error END
          WHERE id = $1",
        id,
        to.as_str(),
        delivery,
        reason,
        resolution,
        rating,
        close,
        escrow.map(|(tx, _)| tx),
        escrow.map(|(_, state)| state)
    )
    .execute(&mut *db)
    .await?;
    let parties =
        [(TenantId(o.buyer_tenant), AgentId(o.buyer_agent)), (TenantId(o.seller_tenant), AgentId(o.seller_agent))];
    let details = json!({ "order": id, "from": from.as_str(), "to": to.as_str(), "action": s.action, "price": o.price,
                          "escrow": escrow.map(|(_, state)| state) });
    let action = match escrow {
        Some((_, state)) => format!("economy.escrow_{state}"),
        None => format!("economy.order_{}", to.as_str()),
    };
    record(&mut db, &parties, origin, &action, details).await?;
    db.commit().await?;
    get(pool, id).await
}

/// The cycle that settles deliveries their buyer left unanswered.
pub const AUTO_SETTLE: &str = "order_auto_settle";
/// A delivery the buyer neither settles nor disputes for this long is settled for them.
pub const AUTO_SETTLE_DAYS: i64 = 7;

/// Settles, as their buyer would, the orders delivered more than `AUTO_SETTLE_DAYS` ago that
/// the buyer neither settled nor disputed (at most 100 a run; the next run takes the rest). An
/// escrow order asks the contract to release, like a settle by hand. How many were settled.
pub async fn settle_unanswered(deps: &Deps) -> Result<usize, Error> {
    let due: Vec<(Uuid, Uuid)> = sqlx::query_as(
        "SELECT id, buyer_agent FROM service_orders
          WHERE status = 'delivered' AND updated_at < now() - make_interval(days => $1::int)
            AND coalesce(escrow_state, '') NOT IN ('funding', 'releasing', 'refunding')
          ORDER BY updated_at LIMIT 100",
    )
    .bind(AUTO_SETTLE_DAYS as i32)
    .fetch_all(&deps.pool)
    .await?;
    let origin = Origin::new(crate::tenancy::auth::Actor::Job(AUTO_SETTLE.into()), None);
    let mut settled = 0;
    for (id, buyer) in due {
        let s = Step { action: Action::Settle, delivery: None, reason: None, rating: None };
        match step(deps, Some(AgentId(buyer)), &origin, id, s).await {
            Ok(_) => settled += 1,
            // Taken meanwhile (settled, disputed, refunded): nothing to do.
            Err(Error::Conflict(_)) => {}
            Err(e) => tracing::warn!(order = %id, error = %e, "could not settle an unanswered delivery"),
        }
    }
    Ok(settled)
}

/// Moves the held price to the seller (settled) or back to the buyer (refunded).
async fn release(conn: &mut PgConnection, o: &Row, id: Uuid, to: Status) -> Result<Uuid, Error> {
    let (payee, kind) = match to {
        Status::Settled => (Holder::Agent(TenantId(o.seller_tenant), AgentId(o.seller_agent)), "order_settled"),
        _ => (Holder::Agent(TenantId(o.buyer_tenant), AgentId(o.buyer_agent)), "order_refunded"),
    };
    let account = credits::account(conn, payee).await?;
    let amount = o.price.ok_or_else(|| Error::Internal(anyhow::anyhow!("credit order {id} has no price")))?;
    let m = Move { from: HOLDS, to: account, amount, kind, memo: None, key: format!("order:{id}:close") };
    Ok(credits::transfer(conn, m).await?.id)
}

macro_rules! select_orders {
    ($where:literal, $($arg:expr),*) => {
        sqlx::query_as!(
            Order,
            r#"SELECT o.id, o.service_id, s.slug AS service_slug, s.title AS service_title, o.buyer_agent AS buyer_agent_id,
                      o.seller_agent AS seller_agent_id, o.rail, o.price, o.price_wei, o.escrow_state, o.escrow_error,
                      w.tx_hash AS "escrow_tx_hash?", o.status, o.request, o.delivery,
                      o.dispute_reason, o.resolution, o.rating, o.hold_transfer AS hold_transfer_id,
                      o.close_transfer AS close_transfer_id, o.deliver_by, o.created_at, o.updated_at, o.closed_at
                 FROM service_orders o JOIN agent_services s ON s.id = o.service_id
                 LEFT JOIN wallet_transactions w ON w.id = o.escrow_tx "# + $where,
            $($arg),*
        )
    };
}

pub async fn get(pool: &PgPool, id: Uuid) -> Result<Order, Error> {
    select_orders!("WHERE o.id = $1", id).fetch_optional(pool).await?.ok_or_else(|| Error::not_found("order"))
}

/// An order `agent` is a party to (404 otherwise).
pub async fn of_party(pool: &PgPool, agent: AgentId, id: Uuid) -> Result<Order, Error> {
    select_orders!("WHERE o.id = $1 AND (o.buyer_agent = $2 OR o.seller_agent = $2)", id, agent as _)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| Error::not_found("order"))
}

/// The orders `agent` placed or received, newest first.
pub async fn list(pool: &PgPool, agent: AgentId, limit: i64, before: Option<Uuid>) -> sqlx::Result<Vec<Order>> {
    select_orders!(
        "WHERE (o.buyer_agent = $1 OR o.seller_agent = $1) AND ($2::uuid IS NULL OR o.id < $2) ORDER BY o.id DESC LIMIT $3",
        agent as _,
        before,
        limit
    )
    .fetch_all(pool)
    .await
}
