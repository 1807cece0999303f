//! The proactive side of an agent (SPEC X7, O5): what it sent, scheduled or held back on its
//! own and why, the trust score and dial, the owner's daily cap, and accepting or dismissing a
//! check-in.

use axum::extract::State;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::channels::proactive::{self, Item, Outcome, ProactiveInput, Summary};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};

const READ: Scope = Scope("proactive:read");
const WRITE: Scope = Scope("proactive:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_proactive, set_proactive))
        .routes(routes!(list_items))
        .routes(routes!(accept))
        .routes(routes!(dismiss))
}

/// Trust, dial, daily cap, what is scheduled and the newest of the rest. Key scope:
/// `proactive:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/proactive", tag = "proactive",
    params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["proactive:read"])),
    responses((status = 200, body = Summary), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn get_proactive(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Summary>> {
    scope.require(READ)?;
    Ok(Json(proactive::summary(state.pool(), scope.agent_id, chrono::Utc::now()).await?))
}

/// Sets the owner's daily cap on proactive messages and suggestions (0–10; 0 turns them
/// off). The dial is the agent's `proactiveness` setting. Owner only.
#[utoipa::path(patch, path = "/v1/hosted-agents/{id}/proactive", tag = "proactive",
    params(("id" = Uuid, Path, description = "Agent id")), request_body = ProactiveInput,
    security(("owner_session" = [])),
    responses((status = 200, body = Summary), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn set_proactive(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<ProactiveInput>,
) -> ApiResult<Json<Summary>> {
    scope.require_owner()?;
    proactive::set_daily_max(state.pool(), scope.agent_id, input).await?;
    Ok(Json(proactive::summary(state.pool(), scope.agent_id, chrono::Utc::now()).await?))
}

#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ItemQuery {
    /// `scheduled`, `sent`, `accepted`, `dismissed`, `ignored` or `suppressed`.
    pub status: Option<String>,
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The `X-Next-Before` of the previous page.
    pub before: Option<Uuid>,
}

/// The agent's proactive history, newest first, each with its gap, rule, timing and outcome;
/// paged (`X-Next-Before`). Key scope: `proactive:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/proactive/items", tag = "proactive",
    params(("id" = Uuid, Path, description = "Agent id"), ItemQuery),
    security(("owner_session" = []), ("api_key" = ["proactive:read"])),
    responses((status = 200, body = Vec<Item>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_items(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<ItemQuery>,
) -> ApiResult<Paged<Item>> {
    scope.require(READ)?;
    if let Some(s) = q.status.as_deref()
        && !proactive::STATUSES.contains(&s)
    {
        return Err(ApiError::validation(
            "status",
            "status must be one of scheduled, sent, accepted, dismissed, ignored, suppressed",
        ));
    }
    let page = Page { limit: q.limit, before: q.before };
    let rows = proactive::list(state.pool(), scope.agent_id, q.status.as_deref(), page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |i| i.id))
}

async fn react(state: &AppState, scope: &AgentScope, item: Uuid, outcome: Outcome) -> ApiResult<Json<Item>> {
    scope.require(WRITE)?;
    Ok(Json(proactive::react(state.pool(), scope.agent_id, item, outcome, &scope.origin()).await?))
}

/// Accepts a sent check-in or suggestion: trust +0.05. 409 naming the status unless `sent`.
/// Key scope: `proactive:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/proactive/items/{pid}/accept", tag = "proactive",
    params(("id" = Uuid, Path, description = "Agent id"), ("pid" = Uuid, Path, description = "Item id")),
    security(("owner_session" = []), ("api_key" = ["proactive:write"])),
    responses((status = 200, body = Item), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn accept(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<Item>> {
    react(&state, &scope, ids.1, Outcome::Accepted).await
}

/// Dismisses a sent check-in or suggestion: trust −0.05. 409 naming the status unless `sent`.
/// Key scope: `proactive:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/proactive/items/{pid}/dismiss", tag = "proactive",
    params(("id" = Uuid, Path, description = "Agent id"), ("pid" = Uuid, Path, description = "Item id")),
    security(("owner_session" = []), ("api_key" = ["proactive:write"])),
    responses((status = 200, body = Item), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn dismiss(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<Item>> {
    react(&state, &scope, ids.1, Outcome::Dismissed).await
}
