//! Hosted agents (SPEC A2) and their activity log (A7).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use miniclaw_core::Error;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::reads::Reads;
use miniclaw_core::ids::AgentId;
use miniclaw_domain::tenancy::agents::{self, Agent, AgentInput};
use miniclaw_domain::tenancy::auth::{AgentScope, Owner, Scope};
use miniclaw_platform::activity::{self, ActivityEntry};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_agent, list_agents))
        .routes(routes!(get_agent, update_agent, delete_agent))
        .routes(routes!(restore_agent))
        .routes(routes!(agent_activity))
}

/// Creates an agent in the owner's tenant.
#[utoipa::path(post, path = "/v1/hosted-agents", tag = "agents", request_body = AgentInput, security(("owner_session" = [])),
    responses((status = 201, body = Agent), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn create_agent(
    State(state): State<AppState>,
    owner: Owner,
    Json(input): Json<AgentInput>,
) -> ApiResult<(StatusCode, Json<Agent>)> {
    let mut tx = state.pool().begin().await?;
    let max = state.config().agents_per_tenant;
    let agent =
        agents::create(&mut tx, state.registry(), state.llm(), owner.tenant_id, &owner.origin(), input, max).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(agent)))
}

/// The tenant's agents, newest first; `X-Next-Before` names the next page.
#[utoipa::path(get, path = "/v1/hosted-agents", tag = "agents", params(Page), security(("owner_session" = [])),
    responses((status = 200, body = Vec<Agent>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn list_agents(State(state): State<AppState>, owner: Owner, Query(page): Query<Page>) -> ApiResult<Paged<Agent>> {
    let rows = agents::list(state.pool(), owner.tenant_id, page.fetch()?, page.before.map(AgentId)).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |a| a.id))
}

/// An agent's settings. Key scope: `agent:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}", tag = "agents", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["agent:read"])),
    responses((status = 200, body = Agent), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_agent(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Agent>> {
    scope.require(Scope::AGENT_READ)?;
    agents::get_cached(state.pool(), scope.tenant_id, scope.agent_id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found("agent"))
}

/// Changes settings; absent fields stay, `null` clears a nullable one. Key scope: `agent:write`,
/// which cannot change the owner-only fields (`tier`, `premium_model`, `daily_token_budget`,
/// `active`, `evm_address`, `ed25519_public_key`, `connect_scopes`): 403 `owner_only` names them.
#[utoipa::path(patch, path = "/v1/hosted-agents/{id}", tag = "agents", params(("id" = Uuid, Path, description = "Agent id")), request_body = AgentInput,
    security(("owner_session" = []), ("api_key" = ["agent:write"])),
    responses((status = 200, body = Agent), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_agent(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<AgentInput>,
) -> ApiResult<Json<Agent>> {
    scope.require(Scope::AGENT_WRITE)?;
    let owner_only = input.owner_only_fields();
    if scope.scopes.is_some() && !owner_only.is_empty() {
        return Err(ApiError(Error::Refused {
            code: "owner_only",
            message: format!("only the owner may change {}", owner_only.join(", ")),
        }));
    }
    let mut tx = state.pool().begin().await?;
    let after = agents::update(&mut tx, state.llm(), scope.tenant_id, scope.agent_id, &scope.origin(), input)
        .await?
        .ok_or_else(|| ApiError::not_found("agent"))?;
    tx.commit().await?;
    Ok(Json(after))
}

/// Deletes the agent: it is gone at once (keys stop working, cycles stop) and purged with all of
/// its data after the retention period (`MINICLAW_AGENT_RETENTION_DAYS`, default 30 days), until
/// when `POST …/restore` brings it back. Owner only.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}", tag = "agents", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = [])),
    responses((status = 204, description = "Deleted (restorable until purged)"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_agent(State(state): State<AppState>, scope: AgentScope) -> ApiResult<StatusCode> {
    scope.require_owner()?;
    let mut tx = state.pool().begin().await?;
    agents::delete(&mut tx, scope.tenant_id, scope.agent_id, &scope.origin(), state.config().agent_retention_days)
        .await?
        .ok_or_else(|| ApiError::not_found("agent"))?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Restores an agent deleted within the retention period, with its data, keys and cycles.
/// Owner only; 404 when there is no such deleted agent (or it was purged).
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/restore", tag = "agents", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = [])),
    responses((status = 200, body = Agent), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn restore_agent(State(state): State<AppState>, owner: Owner, Path(id): Path<AgentId>) -> ApiResult<Json<Agent>> {
    let mut tx = state.pool().begin().await?;
    let agent = agents::restore(
        &mut tx,
        state.registry(),
        owner.tenant_id,
        id,
        &owner.origin(),
        state.config().agent_retention_days,
    )
    .await?
    .ok_or_else(|| ApiError::not_found("deleted agent"))?;
    tx.commit().await?;
    Ok(Json(agent))
}

/// Every state change of the agent with its actor and request id, newest first;
/// `X-Next-Before` names the next page. Key scope: `agent:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/activity", tag = "agents", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["agent:read"])),
    responses((status = 200, body = Vec<ActivityEntry>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn agent_activity(
    State(state): State<AppState>,
    scope: AgentScope,
    reads: Reads,
    Query(page): Query<Page>,
) -> ApiResult<Paged<ActivityEntry>> {
    scope.require(Scope::AGENT_READ)?;
    let fetch = page.fetch()?;
    let mut rows = crate::read!(reads, db => activity::list_agent(db, scope.agent_id, fetch, page.before).await)?;
    miniclaw_domain::tenancy::team::name_actors(state.pool(), scope.tenant_id, &mut rows).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |e| e.id))
}
