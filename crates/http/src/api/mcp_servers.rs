//! MCP servers an owner attaches to an agent, whose tools the agent's chat model may call, and
//! the calls it made: owner only (a key, and so a miniapp's end user, can never add one).

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
use miniclaw_domain::chat::mcp_servers::{self, McpCall, McpServer, McpServerInput, McpServerPatch};
use miniclaw_domain::tenancy::auth::AgentScope;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(add_server, list_servers))
        .routes(routes!(remove_server, update_server))
        .routes(routes!(refresh_server))
        .routes(routes!(list_calls))
        .routes(routes!(decide_call))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = McpCallDecision)]
pub struct Decision {
    /// true runs the call now; false refuses it.
    pub approve: bool,
}

/// Attaches an MCP server (Streamable HTTP) to the agent: it must answer now, and its tools are
/// listed and offered to the chat model when triage says tools are needed. A URL that is, or
/// resolves to, a private address is 422 `url_refused` unless the operator allows it
/// (`MINICLAW_URL_ALLOWLIST`); a server that does not answer, or not as MCP, is 422
/// `mcp_server_failed`. At most 10 per agent. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/mcp-servers", tag = "agents", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = McpServerInput, security(("owner_session" = [])),
    responses((status = 201, body = McpServer), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn add_server(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<McpServerInput>,
) -> ApiResult<(StatusCode, Json<McpServer>)> {
    scope.require_owner()?;
    let server = mcp_servers::add(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), input).await?;
    Ok((StatusCode::CREATED, Json(server)))
}

/// The agent's MCP servers with the tools they listed (never their secrets), newest first;
/// `X-Next-Before` names the next page. Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/mcp-servers", tag = "agents", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = [])),
    responses((status = 200, body = Vec<McpServer>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_servers(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<McpServer>> {
    scope.require_owner()?;
    let rows = mcp_servers::page(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |s| s.id))
}

/// Detaches an MCP server. Owner only.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/mcp-servers/{server}", tag = "agents",
    params(("id" = Uuid, Path, description = "Agent id"), ("server" = Uuid, Path, description = "MCP server id")),
    security(("owner_session" = [])),
    responses((status = 204, description = "Detached"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn remove_server(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<StatusCode> {
    scope.require_owner()?;
    mcp_servers::remove(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Changes a server's approval (`writes` or `never`) and the speakers its tools are available
/// to besides the owner in person (`available_to`: `owner_key`, `end_user`, `correspondent`,
/// `peer`, `payer`). The tools run with the server's stored secret, so share them knowingly.
/// Owner only.
#[utoipa::path(patch, path = "/v1/hosted-agents/{id}/mcp-servers/{server}", tag = "agents",
    params(("id" = Uuid, Path, description = "Agent id"), ("server" = Uuid, Path, description = "MCP server id")),
    request_body = McpServerPatch, security(("owner_session" = [])),
    responses((status = 200, body = McpServer), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn update_server(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(patch): Json<McpServerPatch>,
) -> ApiResult<Json<McpServer>> {
    scope.require_owner()?;
    Ok(Json(mcp_servers::update(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1, patch).await?))
}

/// Lists the server's tools again (after it changed them). Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/mcp-servers/{server}/refresh", tag = "agents",
    params(("id" = Uuid, Path, description = "Agent id"), ("server" = Uuid, Path, description = "MCP server id")),
    security(("owner_session" = [])),
    responses((status = 200, body = McpServer), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn refresh_server(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<McpServer>> {
    scope.require_owner()?;
    Ok(Json(mcp_servers::refresh(state.deps(), scope.agent_id, ids.1).await?))
}

/// The agent's calls of MCP tools, newest first: pending ones wait for a decision;
/// `X-Next-Before` names the next page. Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/mcp-calls", tag = "agents", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = [])),
    responses((status = 200, body = Vec<McpCall>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_calls(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<McpCall>> {
    scope.require_owner()?;
    let rows = mcp_servers::calls(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |c| c.id))
}

/// Approves (runs it now) or rejects a pending call; 409 once decided. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/mcp-calls/{call}/decision", tag = "agents",
    params(("id" = Uuid, Path, description = "Agent id"), ("call" = Uuid, Path, description = "Call id")),
    request_body = Decision, security(("owner_session" = [])),
    responses((status = 200, body = McpCall), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn decide_call(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(decision): Json<Decision>,
) -> ApiResult<Json<McpCall>> {
    scope.require_owner()?;
    let call =
        mcp_servers::decide(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1, decision.approve)
            .await?;
    Ok(Json(call))
}
