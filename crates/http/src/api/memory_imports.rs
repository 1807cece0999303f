//! Imported histories (memories on real conversations): a transcript recorded whole and
//! worked off by jobs, with the times its messages were said; for an end user, what it teaches
//! is theirs (SPEC H1).

use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path, Query};
use super::memories::{READ, WRITE};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::chat::import::{self, Import, ImportRequest, Started};
use miniclaw_domain::tenancy::auth::AgentScope;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(import_transcript)).routes(routes!(list_imports)).routes(routes!(get_import))
}

/// Imports a history: a transcript of messages (`role` user/assistant, or `speaker`) with the
/// times they were said. It is recorded whole (a bad message is a 400 naming it; nothing is
/// stored then), and a job runs extraction over it in time order, so the memories found carry
/// those times as `occurred_at`. 202 with the import to poll; the same transcript again is 200
/// with the earlier import and `duplicate: true`, storing nothing new. Key scope:
/// `memories:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/memories/import", tag = "memories", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = ImportRequest, security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 202, body = Started), (status = 200, body = Started, description = "Imported before"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 413, body = ErrorBody)))]
async fn import_transcript(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(req): Json<ImportRequest>,
) -> ApiResult<(StatusCode, Json<Started>)> {
    scope.require(WRITE)?;
    let started = import::start(state.pool(), scope.agent_id, scope.end_user.as_deref(), req).await?;
    let status = if started.duplicate { StatusCode::OK } else { StatusCode::ACCEPTED };
    Ok((status, Json(started)))
}

/// The agent's imports, newest first, with their progress (paged: `limit`, `before`). Key
/// scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/memory-imports", tag = "memories", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = Vec<Import>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_imports(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Import>> {
    scope.require(READ)?;
    let rows =
        import::list(state.pool(), scope.agent_id, scope.end_user.as_deref(), page.before, page.fetch()?).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |i| i.id))
}

/// One import and how far it got. Key scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/memory-imports/{import_id}", tag = "memories",
    params(("id" = Uuid, Path, description = "Agent id"), ("import_id" = Uuid, Path, description = "Import id")),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = Import), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_import(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, uuid::Uuid)>,
) -> ApiResult<Json<Import>> {
    scope.require(READ)?;
    Ok(Json(import::get(state.pool(), scope.agent_id, scope.end_user.as_deref(), ids.1).await?))
}
