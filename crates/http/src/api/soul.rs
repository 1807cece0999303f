//! Soul documents (SPEC C1): read the current soul and its versions; write a new one. The
//! owner's session edits are authoritative; writes with an API key pass the guard and may be
//! rejected (422 with the guard's reason).

use axum::extract::State;
use miniclaw_core::Error;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Query};
use super::page::{Paged, VersionPage};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::cognition::soul::{self, SoulVersion};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};

pub(crate) const READ: Scope = Scope("soul:read");
const WRITE: Scope = Scope("soul:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_soul, put_soul)).routes(routes!(soul_versions))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SoulInput {
    /// The whole document, 1–8,000 characters.
    pub content: String,
    /// Why, for the version history (up to 500 characters).
    pub reason: Option<String>,
}

/// The current soul; `version` 0 and no content when the agent has none yet.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Soul {
    pub version: i32,
    pub content: Option<String>,
    pub current: Option<SoulVersion>,
}

/// The agent's current soul document. Key scope: `soul:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/soul", tag = "soul", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["soul:read"])),
    responses((status = 200, body = Soul), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_soul(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Soul>> {
    Ok(Json(current(&state, &scope).await?))
}

/// The current soul of `scope`'s agent (REST and the MCP `read_soul` tool).
pub(crate) async fn current(state: &AppState, scope: &AgentScope) -> Result<Soul, Error> {
    scope.require(READ)?;
    let current = soul::current(state.pool(), scope.agent_id).await?;
    Ok(Soul {
        version: current.as_ref().map_or(0, |c| c.version),
        content: current.as_ref().map(|c| c.content.clone()),
        current,
    })
}

/// Writes a new soul version. An owner session's edit is stored as is; a key's rewrite passes
/// the guard model (always, for a key; at most 5 proposals an hour, else 429; instruction
/// overrides and hostile instructions are always refused) and is 422 `soul_rejected` with the
/// reason when refused. Key scope: `soul:write`.
#[utoipa::path(put, path = "/v1/hosted-agents/{id}/soul", tag = "soul", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = SoulInput, security(("owner_session" = []), ("api_key" = ["soul:write"])),
    responses((status = 200, body = SoulVersion), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody, description = "Rejected by the guard, or a field over its length limit (`too_long`)"),
        (status = 429, body = ErrorBody, description = "A key's hourly rewrite limit")))]
async fn put_soul(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<SoulInput>,
) -> ApiResult<Json<SoulVersion>> {
    scope.require(WRITE)?;
    let d = soul::propose(
        state.deps(),
        scope.tenant_id,
        scope.agent_id,
        &input.content,
        input.reason.as_deref(),
        &scope.origin(),
    )
    .await?;
    match d.version {
        Some(v) => Ok(Json(v)),
        None => Err(ApiError(Error::Unprocessable {
            code: "soul_rejected",
            message: format!("the soul guard rejected the rewrite: {}", d.reason),
            details: Some(serde_json::json!({ "method": d.method, "jaccard": d.jaccard })),
        })),
    }
}

/// The soul's versions, newest first, with who wrote it, why, and how it was let in; the newest
/// `MINICLAW_SOUL_VERSIONS_KEPT` are kept. `X-Next-Before` names the next page. Key scope:
/// `soul:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/soul/versions", tag = "soul", params(("id" = Uuid, Path, description = "Agent id"), VersionPage),
    security(("owner_session" = []), ("api_key" = ["soul:read"])),
    responses((status = 200, body = Vec<SoulVersion>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn soul_versions(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<VersionPage>,
) -> ApiResult<Paged<SoulVersion>> {
    scope.require(READ)?;
    let rows = soul::versions(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |v| v.version))
}
