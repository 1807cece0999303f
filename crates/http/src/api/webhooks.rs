//! Outbound webhooks: endpoints for one agent or the whole account, their deliveries, replays,
//! secret rotation and a test event. An owner manages every endpoint of the account; a key
//! with `webhooks:read` / `webhooks:write` only its own agent's.

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::auth::Caller;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_domain::channels::webhooks::{
    self, Delivery, Endpoint, EndpointInput, EndpointPatch, EndpointWithSecret, Manager,
};
use miniclaw_domain::tenancy::auth::Scope;

const READ: Scope = Scope("webhooks:read");
const WRITE: Scope = Scope("webhooks:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(events))
        .routes(routes!(create, list))
        .routes(routes!(get_endpoint, update, remove))
        .routes(routes!(rotate))
        .routes(routes!(test))
        .routes(routes!(deliveries))
        .routes(routes!(replay))
}

/// The caller as a manager of endpoints, holding `scope` when it is a key.
async fn manager(state: &AppState, method: &Method, headers: &HeaderMap, scope: Scope) -> ApiResult<Manager> {
    Ok(match crate::auth::caller(method, headers, state).await? {
        Caller::Key(key) => {
            key.require(scope)?;
            Manager { tenant_id: key.tenant_id, key_agent: Some(key.agent_id), origin: key.origin() }
        }
        Caller::AccountKey(_) => {
            return Err(miniclaw_core::Error::Refused {
                code: "agent_key_required",
                message:
                    "webhook endpoints are managed with an agent's key or a member's session, not a key of the account"
                        .into(),
            }
            .into());
        }
        Caller::Owner(owner) => Manager { tenant_id: owner.tenant_id, key_agent: None, origin: owner.origin() },
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventType {
    pub name: &'static str,
    pub description: &'static str,
}

/// Every event type an endpoint can subscribe to, with what its `data` holds. Public.
#[utoipa::path(get, path = "/v1/webhooks/events", tag = "webhooks", responses((status = 200, body = Vec<EventType>)))]
async fn events() -> Json<Vec<EventType>> {
    Json(webhooks::EVENTS.iter().map(|(name, description)| EventType { name, description }).collect())
}

/// Registers an endpoint for one agent (`agent_id`; a key's is always its own agent) or, for
/// an owner, the whole account. The answer carries its `whsec_` secret, shown only here and on
/// rotation. The URL must be public unless the operator allows it (422 `url_refused`). At most
/// 20 per account (409).
#[utoipa::path(post, path = "/v1/webhooks", tag = "webhooks", request_body = EndpointInput,
    security(("owner_session" = []), ("api_key" = ["webhooks:write"])),
    responses((status = 201, body = EndpointWithSecret), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn create(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Json(input): Json<EndpointInput>,
) -> ApiResult<(StatusCode, Json<EndpointWithSecret>)> {
    let who = manager(&state, &method, &headers, WRITE).await?;
    Ok((StatusCode::CREATED, Json(webhooks::create(state.deps(), &who, input).await?)))
}

/// The endpoints the caller manages, newest first; `X-Next-Before` names the next page.
#[utoipa::path(get, path = "/v1/webhooks", tag = "webhooks", params(Page),
    security(("owner_session" = []), ("api_key" = ["webhooks:read"])),
    responses((status = 200, body = Vec<Endpoint>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Endpoint>> {
    let who = manager(&state, &method, &headers, READ).await?;
    let rows = webhooks::list(state.pool(), &who, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |e| e.id))
}

/// One endpoint (never its secret).
#[utoipa::path(get, path = "/v1/webhooks/{endpoint}", tag = "webhooks",
    params(("endpoint" = Uuid, Path, description = "Endpoint id")),
    security(("owner_session" = []), ("api_key" = ["webhooks:read"])),
    responses((status = 200, body = Endpoint), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_endpoint(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<Endpoint>> {
    let who = manager(&state, &method, &headers, READ).await?;
    Ok(Json(webhooks::get(state.pool(), &who, id).await?))
}

/// Changes the URL, the events or the description, or turns the endpoint off and on (on again,
/// its failure clock starts over).
#[utoipa::path(patch, path = "/v1/webhooks/{endpoint}", tag = "webhooks", request_body = EndpointPatch,
    params(("endpoint" = Uuid, Path, description = "Endpoint id")),
    security(("owner_session" = []), ("api_key" = ["webhooks:write"])),
    responses((status = 200, body = Endpoint), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn update(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
    Json(patch): Json<EndpointPatch>,
) -> ApiResult<Json<Endpoint>> {
    let who = manager(&state, &method, &headers, WRITE).await?;
    Ok(Json(webhooks::update(state.deps(), &who, id, patch).await?))
}

/// Removes the endpoint and its deliveries.
#[utoipa::path(delete, path = "/v1/webhooks/{endpoint}", tag = "webhooks",
    params(("endpoint" = Uuid, Path, description = "Endpoint id")),
    security(("owner_session" = []), ("api_key" = ["webhooks:write"])),
    responses((status = 204, description = "Removed"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn remove(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    let who = manager(&state, &method, &headers, WRITE).await?;
    webhooks::remove(state.pool(), &who, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A new signing secret (in the answer, only there). For 24 hours deliveries carry a signature
/// by the previous secret beside the new one, so receivers switch without losing any.
#[utoipa::path(post, path = "/v1/webhooks/{endpoint}/rotate-secret", tag = "webhooks",
    params(("endpoint" = Uuid, Path, description = "Endpoint id")),
    security(("owner_session" = []), ("api_key" = ["webhooks:write"])),
    responses((status = 200, body = EndpointWithSecret), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn rotate(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<EndpointWithSecret>> {
    let who = manager(&state, &method, &headers, WRITE).await?;
    Ok(Json(webhooks::rotate(state.deps(), &who, id).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Queued {
    /// The delivery (see `…/deliveries`).
    pub delivery_id: Uuid,
}

/// Sends a `webhook.test` event to this endpoint now (through the same queue and retries).
#[utoipa::path(post, path = "/v1/webhooks/{endpoint}/test", tag = "webhooks",
    params(("endpoint" = Uuid, Path, description = "Endpoint id")),
    security(("owner_session" = []), ("api_key" = ["webhooks:write"])),
    responses((status = 202, body = Queued), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn test(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> ApiResult<(StatusCode, Json<Queued>)> {
    let who = manager(&state, &method, &headers, WRITE).await?;
    let delivery_id = webhooks::test(state.pool(), &who, id).await?;
    Ok((StatusCode::ACCEPTED, Json(Queued { delivery_id })))
}

/// The endpoint's deliveries with their status and last attempts, newest first;
/// `X-Next-Before` names the next page.
#[utoipa::path(get, path = "/v1/webhooks/{endpoint}/deliveries", tag = "webhooks",
    params(("endpoint" = Uuid, Path, description = "Endpoint id"), Page),
    security(("owner_session" = []), ("api_key" = ["webhooks:read"])),
    responses((status = 200, body = Vec<Delivery>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn deliveries(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Delivery>> {
    let who = manager(&state, &method, &headers, READ).await?;
    let rows = webhooks::deliveries(state.pool(), &who, id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |d| d.id))
}

/// Sends a delivered or failed delivery again, with the same `webhook-id` (receivers that
/// already have it deduplicate). 409 while it is still being tried.
#[utoipa::path(post, path = "/v1/webhooks/{endpoint}/deliveries/{delivery}/replay", tag = "webhooks",
    params(("endpoint" = Uuid, Path, description = "Endpoint id"), ("delivery" = Uuid, Path, description = "Delivery id")),
    security(("owner_session" = []), ("api_key" = ["webhooks:write"])),
    responses((status = 202, body = Delivery), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn replay(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Path(ids): Path<(Uuid, Uuid)>,
) -> ApiResult<(StatusCode, Json<Delivery>)> {
    let who = manager(&state, &method, &headers, WRITE).await?;
    Ok((StatusCode::ACCEPTED, Json(webhooks::replay(state.pool(), &who, ids.0, ids.1).await?)))
}
