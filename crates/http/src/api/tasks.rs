//! Tasks (SPEC S3) and the timeline (S4): the agent's tasks and the owner's approval. `pending → approved →
//! in_progress → done`, or `rejected`; only the owner approves or rejects, an agent's key may
//! create tasks (they wait for approval), start approved ones and finish them.

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
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::cognition::tasks::{self, Mover, Task, TaskInput};
use miniclaw_domain::cognition::timeline::{self, Milestone};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};

pub(crate) const READ: Scope = Scope("tasks:read");
pub(crate) const WRITE: Scope = Scope("tasks:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_tasks, create_task))
        .routes(routes!(update_task))
        .routes(routes!(move_task))
        .routes(routes!(get_timeline))
}

pub(crate) fn mover(scope: &AgentScope) -> Mover {
    if scope.is_owner() { Mover::Owner } else { Mover::Agent }
}

/// The agent's tasks (from reflection, the owner or the agent), live ones (pending, approved,
/// in progress) first, newest first; `X-Next-Before` names the next page. Key scope: `tasks:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/tasks", tag = "cognition", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["tasks:read"])),
    responses((status = 200, body = Vec<Task>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_tasks(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Task>> {
    scope.require(READ)?;
    let rows = tasks::list(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |t| t.id))
}

/// Creates a task; it is `pending` until the owner approves it. Key scope: `tasks:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/tasks", tag = "cognition", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = TaskInput, security(("owner_session" = []), ("api_key" = ["tasks:write"])),
    responses((status = 201, body = Task), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_task(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<TaskInput>,
) -> ApiResult<(StatusCode, Json<Task>)> {
    scope.require(WRITE)?;
    let task =
        tasks::create(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), mover(&scope), input).await?;
    Ok((StatusCode::CREATED, Json(task)))
}

/// Changes a live task's title, detail or due date (409 once done or rejected). Key scope:
/// `tasks:write`.
#[utoipa::path(patch, path = "/v1/hosted-agents/{id}/tasks/{task}", tag = "cognition",
    params(("id" = Uuid, Path, description = "Agent id"), ("task" = Uuid, Path, description = "Task id")),
    request_body = TaskInput, security(("owner_session" = []), ("api_key" = ["tasks:write"])),
    responses((status = 200, body = Task), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn update_task(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(input): Json<TaskInput>,
) -> ApiResult<Json<Task>> {
    scope.require(WRITE)?;
    Ok(Json(tasks::update(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1, input).await?))
}

/// A move of a task.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Move {
    /// `approved`, `in_progress`, `done` or `rejected`.
    pub to: String,
    /// Why (kept with the task; e.g. the reason of a rejection), at most 500 characters.
    pub reason: Option<String>,
}

/// Moves a task: the owner approves or rejects; the owner or an agent's key starts an approved
/// task (`in_progress`) and finishes one (`done`). 409 names the task's state when the move is
/// not possible from it; 403 `owner_only` when a key approves or rejects. Key scope: `tasks:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/tasks/{task}/transition", tag = "cognition",
    params(("id" = Uuid, Path, description = "Agent id"), ("task" = Uuid, Path, description = "Task id")),
    request_body = Move, security(("owner_session" = []), ("api_key" = ["tasks:write"])),
    responses((status = 200, body = Task), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn move_task(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(m): Json<Move>,
) -> ApiResult<Json<Task>> {
    scope.require(WRITE)?;
    if !["approved", "in_progress", "done", "rejected"].contains(&m.to.as_str()) {
        return Err(ApiError::validation("to", "to must be approved, in_progress, done or rejected"));
    }
    let (pool, origin) = (state.pool(), scope.origin());
    let who = mover(&scope);
    let t = tasks::transition(pool, scope.tenant_id, scope.agent_id, &origin, who, ids.1, &m.to, m.reason.as_deref())
        .await?;
    Ok(Json(t))
}

/// A page of milestones.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MilestonePage {
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// Milestones before this time (RFC 3339): the `X-Next-Before` of the previous page.
    pub before: Option<chrono::DateTime<chrono::Utc>>,
}

/// The agent's timeline: its milestones (creation, first conversation, 100th message, memories,
/// soul versions, first reflection, first task done, wallet, ERC-8004 registration,
/// verifications, PoC grade changes), newest first, each with its monthly `chapter`; brought up
/// to date by the read; `X-Next-Before` names the next page. Key scope: `agent:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/timeline", tag = "cognition",
    params(("id" = Uuid, Path, description = "Agent id"), MilestonePage),
    security(("owner_session" = []), ("api_key" = ["agent:read"])),
    responses((status = 200, body = Vec<Milestone>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_timeline(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<MilestonePage>,
) -> ApiResult<Paged<Milestone>> {
    scope.require(Scope::AGENT_READ)?;
    let page = Page { limit: q.limit, before: None };
    timeline::refresh(state.pool(), scope.agent_id).await?;
    let rows = timeline::list(state.pool(), scope.agent_id, page.fetch()?, q.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |m| m.at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)))
}
