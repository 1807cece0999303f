//! Spawning (SPEC S6): an agent drafted from a brief, created only when the owner confirms.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{Json, Path};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::tenancy::agents::Agent;
use miniclaw_domain::tenancy::agents::spawn::{self, Confirm, Draft};
use miniclaw_domain::tenancy::auth::Owner;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(draft)).routes(routes!(get_draft)).routes(routes!(confirm))
}

/// A brief for a new agent.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Brief {
    /// What the agent is for, 1–2,000 characters.
    pub brief: String,
}

/// Drafts a new agent from a brief with the `spawn` role: name, persona, first soul and
/// suggested skills (`engine` says `offline` when the offline engine's template drafted it).
/// Nothing is created until the owner confirms the draft. Owner only.
#[utoipa::path(post, path = "/v1/agents/spawn", tag = "agents", request_body = Brief, security(("owner_session" = [])),
    responses((status = 201, body = Draft), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn draft(
    State(state): State<AppState>,
    owner: Owner,
    Json(b): Json<Brief>,
) -> ApiResult<(StatusCode, Json<Draft>)> {
    let d = spawn::draft(state.deps(), owner.tenant_id, &owner.origin(), &b.brief).await?;
    Ok((StatusCode::CREATED, Json(d)))
}

/// One of your drafts. Owner only.
#[utoipa::path(get, path = "/v1/agents/spawn/{draft}", tag = "agents", params(("draft" = Uuid, Path, description = "Draft id")),
    security(("owner_session" = [])),
    responses((status = 200, body = Draft), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_draft(State(state): State<AppState>, owner: Owner, Path(id): Path<Uuid>) -> ApiResult<Json<Draft>> {
    spawn::get(state.pool(), owner.tenant_id, id).await?.map(Json).ok_or_else(|| ApiError::not_found("draft"))
}

/// Creates the drafted agent, with your changes (`name`, `persona`, `soul`; absent ones keep
/// the draft's), and its first soul. 409 once the draft was confirmed. Owner only.
#[utoipa::path(post, path = "/v1/agents/spawn/{draft}/confirm", tag = "agents", params(("draft" = Uuid, Path, description = "Draft id")),
    request_body = Confirm, security(("owner_session" = [])),
    responses((status = 201, body = Agent), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn confirm(
    State(state): State<AppState>,
    owner: Owner,
    Path(id): Path<Uuid>,
    Json(changes): Json<Confirm>,
) -> ApiResult<(StatusCode, Json<Agent>)> {
    let max = state.config().agents_per_tenant;
    let agent =
        spawn::confirm(state.deps(), state.registry(), owner.tenant_id, &owner.origin(), id, changes, max).await?;
    Ok((StatusCode::CREATED, Json(agent)))
}
