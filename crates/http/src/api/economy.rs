//! The agent economy (SPEC I6–I8) for owners and miniapps: the summary, tips and gifts, the
//! agent's services, service orders, conviction stakes, and credits payments of x402
//! requirements. Key scopes `economy:read` and `economy:write`; spending the owner's credits
//! and the auto-approve limit need the owner.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::onchain::economy::orders::{self, Order, OrderRequest, Step};
use miniclaw_domain::onchain::economy::payments::{self, Paid, PayRequest};
use miniclaw_domain::onchain::economy::services::{self, Service, ServiceInput};
use miniclaw_domain::onchain::economy::stakes::{self, Stake, StakeRequest};
use miniclaw_domain::onchain::economy::summary::{self, Economy, Settings};
use miniclaw_domain::onchain::economy::tips::{self, Tip, TipRequest};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};

pub const READ: Scope = Scope("economy:read");
pub const WRITE: Scope = Scope("economy:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_economy))
        .routes(routes!(put_settings))
        .routes(routes!(list_tips, give_tip))
        .routes(routes!(decide_tip))
        .routes(routes!(list_services))
        .routes(routes!(put_service, delete_service))
        .routes(routes!(list_orders, place_order))
        .routes(routes!(get_order))
        .routes(routes!(step_order))
        .routes(routes!(list_stakes, stake))
        .routes(routes!(withdraw_stake))
        .routes(routes!(pay))
}

/// The agent's economy at a glance: credits, what its orders and stakes hold, its wallet's
/// native balance, tips, orders by status, the stakes backing it and their conviction, its
/// services, and the auto-approve limit. Key scope: `economy:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/economy", tag = "economy", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["economy:read"])),
    responses((status = 200, body = Economy), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_economy(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Economy>> {
    scope.require(READ)?;
    let chain = state.deps().chain.as_deref();
    Ok(Json(summary::of(state.pool(), chain, scope.tenant_id, scope.agent_id).await?))
}

/// Sets how many credits a chat tool may tip or gift without the owner's confirmation. Owner only.
#[utoipa::path(put, path = "/v1/hosted-agents/{id}/economy/settings", tag = "economy", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = Settings, security(("owner_session" = [])),
    responses((status = 200, body = Settings), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_settings(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(s): Json<Settings>,
) -> ApiResult<Json<Settings>> {
    scope.require_owner()?;
    Ok(Json(summary::set(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), s).await?))
}

/// The agent's tips and gifts, given and received, newest first (`X-Next-Before` pages). Key
/// scope: `economy:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/tips", tag = "economy", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["economy:read"])),
    responses((status = 200, body = Vec<Tip>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn list_tips(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Tip>> {
    scope.require(READ)?;
    let rows = tips::list(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |t| t.id))
}

/// A tip or a gift. `from: owner` (owner session): the owner tips this agent in credits. `from:
/// agent`: this agent tips `to_agent_id` (any agent on the platform), or without it gives its
/// owner a gift; in credits at once, or in native value as a send from its wallet within the
/// wallet's limits (the tip is `pending` until mined). 201 when made, 200 for a retry with the
/// same key (nothing moves again), 409 for the key reused for another tip, 402
/// `insufficient_credits`. Key scope: `economy:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/tips", tag = "economy", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = TipRequest, security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 201, body = Tip), (status = 200, body = Tip), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn give_tip(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(r): Json<TipRequest>,
) -> ApiResult<(StatusCode, Json<Tip>)> {
    scope.require(WRITE)?;
    let g =
        tips::give(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), scope.is_owner(), r, false).await?;
    Ok((if g.created { StatusCode::CREATED } else { StatusCode::OK }, Json(g.tip)))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TipDecision)]
pub struct Decision {
    /// true: make the tip; false: cancel it.
    pub confirm: bool,
}

/// The owner confirms or cancels a credit tip the agent's chat asked for above the auto-approve
/// limit. 409 when it is not waiting. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/tips/{tip}/decision", tag = "economy",
    params(("id" = Uuid, Path, description = "Agent id"), ("tip" = Uuid, Path, description = "Tip id")),
    request_body = Decision, security(("owner_session" = [])),
    responses((status = 200, body = Tip), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 402, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn decide_tip(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(d): Json<Decision>,
) -> ApiResult<Json<Tip>> {
    scope.require_owner()?;
    Ok(Json(tips::decide(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1, d.confirm).await?))
}

/// The agent's services, on offer or withdrawn, newest first. Key scope: `economy:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/services", tag = "economy", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["economy:read"])),
    responses((status = 200, body = Vec<Service>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_services(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Service>> {
    scope.require(READ)?;
    let rows = services::list(state.pool(), scope.agent_id, false, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |s| s.id))
}

/// Offers a service (201) or changes it (200): title, description, a price in credits and
/// optionally in wei. Key scope: `economy:write`.
#[utoipa::path(put, path = "/v1/hosted-agents/{id}/services/{slug}", tag = "economy",
    params(("id" = Uuid, Path, description = "Agent id"), ("slug" = String, Path, description = "The service's slug")),
    request_body = ServiceInput, security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 201, body = Service), (status = 200, body = Service), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_service(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, String)>,
    Json(input): Json<ServiceInput>,
) -> ApiResult<(StatusCode, Json<Service>)> {
    scope.require(WRITE)?;
    let (s, created) =
        services::put(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), &ids.1, input).await?;
    Ok((if created { StatusCode::CREATED } else { StatusCode::OK }, Json(s)))
}

/// Withdraws a service from sale; its orders carry on. Key scope: `economy:write`.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/services/{slug}", tag = "economy",
    params(("id" = Uuid, Path, description = "Agent id"), ("slug" = String, Path, description = "The service's slug")),
    security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_service(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, String)>,
) -> ApiResult<StatusCode> {
    scope.require(WRITE)?;
    services::deactivate(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), &ids.1).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The orders the agent placed or received, newest first. Key scope: `economy:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/orders", tag = "economy", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["economy:read"])),
    responses((status = 200, body = Vec<Order>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn list_orders(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Order>> {
    scope.require(READ)?;
    let rows = orders::list(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |o| o.id))
}

/// The agent orders another agent's service: 201 `offered` with the price held from its
/// credits (402 `insufficient_credits` when short); a retry with the same key returns the same
/// order (200). Key scope: `economy:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/orders", tag = "economy", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = OrderRequest, security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 201, body = Order), (status = 200, body = Order), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn place_order(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(r): Json<OrderRequest>,
) -> ApiResult<(StatusCode, Json<Order>)> {
    scope.require(WRITE)?;
    let (o, created) = orders::place(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), r).await?;
    Ok((if created { StatusCode::CREATED } else { StatusCode::OK }, Json(o)))
}

/// One order the agent is a party to. Key scope: `economy:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/orders/{order}", tag = "economy",
    params(("id" = Uuid, Path, description = "Agent id"), ("order" = Uuid, Path, description = "Order id")),
    security(("owner_session" = []), ("api_key" = ["economy:read"])),
    responses((status = 200, body = Order), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_order(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<Order>> {
    scope.require(READ)?;
    Ok(Json(orders::of_party(state.pool(), scope.agent_id, ids.1).await?))
}

/// A step on an order by the agent as buyer or seller: the seller accepts, declines, delivers
/// (`delivery`) or refunds; the buyer cancels (an offer, or an accepted order past its
/// deadline), settles (optional `rating`) or disputes (`reason`). Settling pays the held price
/// to the seller, refunding returns it to the buyer. Any other step is 409 with the steps the
/// order allows. Key scope: `economy:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/orders/{order}/steps", tag = "economy",
    params(("id" = Uuid, Path, description = "Agent id"), ("order" = Uuid, Path, description = "Order id")),
    request_body = Step, security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 200, body = Order), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn step_order(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(s): Json<Step>,
) -> ApiResult<Json<Order>> {
    scope.require(WRITE)?;
    Ok(Json(orders::step(state.deps(), Some(scope.agent_id), &scope.origin(), ids.1, s).await?))
}

/// The stakes the agent made and those backing it (for the owner, the owner's stakes too),
/// newest first, each with its conviction now. Key scope: `economy:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/stakes", tag = "economy", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["economy:read"])),
    responses((status = 200, body = Vec<Stake>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn list_stakes(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Stake>> {
    scope.require(READ)?;
    let owner = scope.is_owner().then_some(scope.tenant_id);
    let rows = stakes::list(state.pool(), scope.agent_id, owner, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |s| s.id))
}

/// Stakes credits behind an agent (default this one) or a skill, on a topic: from this agent, or
/// (`from: owner`, owner session) from the owner. The credits are held until the stake is
/// validated (returned), slashed (lost to the sink) or withdrawn. Conviction =
/// amount × (1 − 2^(−age/7 days)). Key scope: `economy:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/stakes", tag = "economy", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = StakeRequest, security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 201, body = Stake), (status = 200, body = Stake), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn stake(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(r): Json<StakeRequest>,
) -> ApiResult<(StatusCode, Json<Stake>)> {
    scope.require(WRITE)?;
    let (s, created) =
        stakes::stake(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), scope.is_owner(), r).await?;
    Ok((if created { StatusCode::CREATED } else { StatusCode::OK }, Json(s)))
}

/// Takes an active stake back: the agent's own, or (owner session) one of the owner's. 409 when
/// it is not active. Key scope: `economy:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/stakes/{stake}/withdraw", tag = "economy",
    params(("id" = Uuid, Path, description = "Agent id"), ("stake" = Uuid, Path, description = "Stake id")),
    security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 200, body = Stake), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
async fn withdraw_stake(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<Stake>> {
    scope.require(WRITE)?;
    let origin = scope.origin();
    Ok(Json(stakes::withdraw(state.deps(), scope.tenant_id, scope.agent_id, &origin, scope.is_owner(), ids.1).await?))
}

/// The agent pays a `miniclaw:credits` x402 requirement of another agent's service, by its
/// nonce: a transfer to the seller (402 `insufficient_credits` when short; paying the same nonce
/// again moves nothing). The answer carries the header to call the service again with. Key
/// scope: `economy:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/payments", tag = "economy", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = PayRequest, security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 200, body = Paid), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 402, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn pay(State(state): State<AppState>, scope: AgentScope, Json(r): Json<PayRequest>) -> ApiResult<Json<Paid>> {
    scope.require(WRITE)?;
    Ok(Json(payments::pay(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), r).await?))
}
