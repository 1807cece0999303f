//! Operator routes of the model gateway: the effective routing table and the kill switch
//! that pauses every model call, chat turns and background work (SPEC M1, M7).

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use miniclaw_core::ids::TenantId;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::Admin;
use super::extract::Json;
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_platform::llm::budget;
use miniclaw_platform::llm::routing::RoutingTable;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(llm_routes)).routes(routes!(list_switches, set_switch, clear_switch))
}

/// The effective routing table: each role's targets (primary first), timeout and max tokens.
#[utoipa::path(get, path = "/v1/admin/llm/routes", tag = "admin", security(("admin_bearer" = [])),
    responses((status = 200, body = RoutingTable), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn llm_routes(_: Admin, State(state): State<AppState>) -> Json<RoutingTable> {
    Json(state.llm().routes().clone())
}

#[derive(Serialize, ToSchema)]
pub struct KillSwitch {
    /// `global` or `tenant:<id>`.
    pub scope: String,
    pub reason: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KillSwitchRequest {
    /// Pause one tenant; omit to pause every tenant.
    pub tenant_id: Option<TenantId>,
    #[serde(default)]
    pub reason: String,
}

/// The kill switches that are on.
#[utoipa::path(get, path = "/v1/admin/llm/kill-switch", tag = "admin", security(("admin_bearer" = [])),
    responses((status = 200, body = Vec<KillSwitch>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_switches(_: Admin, State(state): State<AppState>) -> ApiResult<Json<Vec<KillSwitch>>> {
    let rows = budget::switches(state.pool()).await?;
    Ok(Json(rows.into_iter().map(|(scope, reason, created_at)| KillSwitch { scope, reason, created_at }).collect()))
}

/// Pauses model calls globally or for one tenant: chat turns are refused with 503 `kill_switch`
/// and the reason (nothing is stored; the client keeps its message), background work is skipped.
#[utoipa::path(put, path = "/v1/admin/llm/kill-switch", tag = "admin", request_body = KillSwitchRequest, security(("admin_bearer" = [])),
    responses((status = 204, description = "On"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn set_switch(
    _: Admin,
    State(state): State<AppState>,
    Json(req): Json<KillSwitchRequest>,
) -> ApiResult<StatusCode> {
    budget::kill(state.pool(), req.tenant_id, req.reason.trim()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Resumes model calls (globally, or for the tenant given).
#[utoipa::path(delete, path = "/v1/admin/llm/kill-switch", tag = "admin", request_body = KillSwitchRequest, security(("admin_bearer" = [])),
    responses((status = 204, description = "Off"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody, description = "It was not on")))]
async fn clear_switch(
    _: Admin,
    State(state): State<AppState>,
    Json(req): Json<KillSwitchRequest>,
) -> ApiResult<StatusCode> {
    if budget::revive(state.pool(), req.tenant_id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(crate::error::ApiError::not_found("kill switch"))
    }
}
