//! Commerce open to any client (SPEC I8): an agent's services on offer, and paid calls answered
//! 402 with x402 payment requirements until a verified payment comes with the retry. Signal
//! pools for owners (I7), and the operator's resolutions of disputed orders and of stakes.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use miniclaw_core::Error;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::admin::Admin;
use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::{AgentId, ConversationId, TenantId};
use miniclaw_domain::chat::{self, Caller, Channel};
use miniclaw_domain::onchain::economy::orders::{self, Action, Order, Step};
use miniclaw_domain::onchain::economy::payments::{self, PaymentRequired, Proof, Settlement};
use miniclaw_domain::onchain::economy::services::{self, Service};
use miniclaw_domain::onchain::economy::signals::{self, Pool};
use miniclaw_domain::onchain::economy::stakes::{self, Resolution, Stake};
use miniclaw_domain::tenancy::auth::{Actor, Owner};
use miniclaw_platform::activity::Origin;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(offer))
        .routes(routes!(call))
        .routes(routes!(signals))
        .routes(routes!(resolve_order))
        .routes(routes!(resolve_stakes))
}

/// An agent's services on offer: what each does and costs. Public.
#[utoipa::path(get, path = "/v1/commerce/{agent}/services", tag = "commerce", params(("agent" = Uuid, Path, description = "Agent id"), Page),
    responses((status = 200, body = Vec<Service>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn offer(
    State(state): State<AppState>,
    Path(agent): Path<AgentId>,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Service>> {
    let rows = services::offer(state.pool(), agent, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |s| s.id))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CallInput {
    /// What the caller asks the service for, 1–2,000 characters.
    pub input: String,
}

/// A paid call answered.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CallAnswer {
    /// The agent's answer.
    pub output: String,
    pub conversation_id: ConversationId,
    /// The payment that paid for it (also base64 in `PAYMENT-RESPONSE`).
    pub payment: Settlement,
}

const PAYMENT_REQUIRED: &str = "payment-required";
const PAYMENT_RESPONSE: &str = "payment-response";

/// Calls an agent's paid service. Without a payment, or with one that does not pay (unknown or
/// expired nonce, wrong payee or amount, not mined, already used), the answer is 402 with the
/// x402 payment requirements in the body and base64 in `PAYMENT-REQUIRED`: pay one (credits:
/// `POST /v1/hosted-agents/{id}/payments`; native value: a transfer to `payTo`) and call again
/// with the proof base64 in `PAYMENT-SIGNATURE` (or `X-PAYMENT`). A verified payment is claimed
/// once and the agent answers `input`; a replayed proof gets 402 again. Public.
#[utoipa::path(post, path = "/v1/commerce/{agent}/services/{slug}/call", tag = "commerce",
    params(("agent" = Uuid, Path, description = "Agent id"), ("slug" = String, Path, description = "The service's slug"),
        ("PAYMENT-SIGNATURE" = Option<String>, Header, description = "The payment proof, base64 JSON (`X-PAYMENT` is read too)")),
    request_body = CallInput,
    responses((status = 200, body = CallAnswer, headers(("payment-response" = String, description = "base64 JSON of the settlement"))),
        (status = 400, body = ErrorBody),
        (status = 402, body = PaymentRequired, headers(("payment-required" = String, description = "base64 JSON of the body"))),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn call(
    State(state): State<AppState>,
    Path((agent, slug)): Path<(AgentId, String)>,
    headers: HeaderMap,
    Json(body): Json<CallInput>,
) -> Result<Response, ApiError> {
    let service = services::by_slug(state.pool(), agent, &slug).await?;
    if !service.active {
        return Err(ApiError::not_found("service"));
    }
    let input = body.input.trim();
    if input.is_empty() {
        return Err(ApiError::validation("input", "input is required"));
    }
    ApiError::check_length("input", input, chat::MESSAGE_MAX_CHARS)?;
    let chain = state.deps().chain.as_deref();
    let url = format!("/v1/commerce/{agent}/services/{slug}/call");
    let header = ["payment-signature", "x-payment"].iter().find_map(|h| headers.get(*h)).and_then(|v| v.to_str().ok());
    let Some(header) = header else {
        let required = payments::require(state.pool(), chain, &service, &url, "payment required").await?;
        return Ok(payment_required(required));
    };
    let proof = Proof::decode(header)?;
    let settlement = match payments::verify(state.pool(), chain, &service, &proof).await? {
        Ok(s) => s,
        Err(unpaid) => {
            let required = payments::require(state.pool(), chain, &service, &url, &unpaid.0).await?;
            return Ok(payment_required(required));
        }
    };
    let caller = Caller {
        tenant_id: TenantId(service.tenant_id),
        agent_id: agent,
        origin: Origin::new(Actor::System, super::extract::request_id(&headers)),
        end_user: Some(format!("x402:{}", settlement.payer)),
    };
    let message = format!("A paid request for your service \"{}\". {}\n\n{input}", service.title, service.description);
    let message: String = message.chars().take(chat::MESSAGE_MAX_CHARS).collect();
    let answered = async {
        let started = chat::start(&state, caller, message, None, Channel::Api).await?;
        let finished =
            started.done.await.map_err(|e| Error::Internal(anyhow::anyhow!("the paid call's turn stopped: {e}")))??;
        Ok::<_, ApiError>((started.conversation_id, finished))
    }
    .await;
    let (conversation_id, finished) = match answered {
        Ok(a) => a,
        Err(e) => {
            // Paid but not answered: the same proof may try again.
            payments::release(state.pool(), &settlement.nonce).await?;
            return Err(e);
        }
    };
    payments::served(state.pool(), &settlement.nonce).await?;
    let encoded = base64::engine::general_purpose::STANDARD.encode(serde_json::to_vec(&settlement).unwrap_or_default());
    let answer = CallAnswer { output: finished.reply, conversation_id, payment: settlement };
    let mut resp = (StatusCode::OK, Json(answer)).into_response();
    if let Ok(v) = HeaderValue::from_str(&encoded) {
        resp.headers_mut().insert(HeaderName::from_static(PAYMENT_RESPONSE), v);
    }
    Ok(resp)
}

fn payment_required(required: PaymentRequired) -> Response {
    let encoded = base64::engine::general_purpose::STANDARD.encode(serde_json::to_vec(&required).unwrap_or_default());
    let mut resp = (StatusCode::PAYMENT_REQUIRED, Json(required)).into_response();
    if let Ok(v) = HeaderValue::from_str(&encoded) {
        resp.headers_mut().insert(HeaderName::from_static(PAYMENT_REQUIRED), v);
    }
    resp
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SignalQuery {
    /// One topic's pool only.
    pub topic: Option<String>,
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The `X-Next-Before` of the previous page: pools of topics before this one.
    pub before: Option<String>,
}

/// Signal pools: per topic, the active stakes, the credits they hold, their summed conviction,
/// validations and slashes so far, and the agents backed most, per asset (credits, or one
/// agent's token). By topic, last first, paged by topic.
#[utoipa::path(get, path = "/v1/signals", tag = "economy", params(SignalQuery), security(("owner_session" = [])),
    responses((status = 200, body = Vec<Pool>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn signals(State(state): State<AppState>, _: Owner, Query(q): Query<SignalQuery>) -> ApiResult<Paged<Pool>> {
    let page = Page { limit: q.limit, before: None };
    let (items, next_before) =
        signals::pools(state.pool(), q.topic.as_deref(), q.before.as_deref(), page.limit()?).await?;
    Ok(Paged { items, next_before })
}

/// How the operator resolves a disputed order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ruling {
    /// The seller delivered: the held price goes to the seller.
    Settle,
    /// It did not: the price goes back to the buyer.
    Refund,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OrderResolution {
    pub ruling: Ruling,
    /// Why, at most 2,000 characters.
    pub note: String,
}

/// The operator resolves a disputed order: settled (the seller is paid) or refunded. 409 when it
/// is not disputed.
#[utoipa::path(post, path = "/v1/admin/orders/{order}/resolution", tag = "admin", params(("order" = Uuid, Path, description = "Order id")),
    request_body = OrderResolution, security(("admin_bearer" = [])),
    responses((status = 200, body = Order), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn resolve_order(
    _: Admin,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(order): Path<Uuid>,
    Json(r): Json<OrderResolution>,
) -> ApiResult<Json<Order>> {
    if r.note.trim().is_empty() {
        return Err(ApiError::validation("note", "a resolution says why in `note`"));
    }
    let action = match r.ruling {
        Ruling::Settle => Action::Settle,
        Ruling::Refund => Action::Refund,
    };
    let origin = Origin::new(Actor::Admin, super::extract::request_id(&headers));
    let step = Step { action, delivery: None, reason: Some(r.note), rating: None };
    Ok(Json(orders::step(state.deps(), None, &origin, order, step).await?))
}

/// The operator validates (credits back to the staker) or slashes (credits to the sink) one
/// stake, or records an outcome for an agent, optionally on one topic, which resolves every
/// active stake behind it. Returns the stakes resolved; 409 when a named stake is not active.
#[utoipa::path(post, path = "/v1/admin/stakes/resolutions", tag = "admin", request_body = Resolution, security(("admin_bearer" = [])),
    responses((status = 200, body = Vec<Stake>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn resolve_stakes(
    _: Admin,
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(r): Json<Resolution>,
) -> ApiResult<Json<Vec<Stake>>> {
    let origin = Origin::new(Actor::Admin, super::extract::request_id(&headers));
    Ok(Json(stakes::resolve(state.deps(), &origin, r).await?))
}
