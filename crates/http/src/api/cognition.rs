//! Cognition (SPEC C2–C5): deep reflections, the knowledge dossier, knowledge gaps, the tasks
//! reflection sets, and the calibration shadow.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::vocabulary::ReflectionTrigger;
use miniclaw_domain::chat::shadow::{self, ShadowReport};
use miniclaw_domain::cognition::dossier::{self, DossierState};
use miniclaw_domain::cognition::lint::{self, KnowledgeGap};
use miniclaw_domain::cognition::reflection::{self, Reflection};
use miniclaw_domain::tenancy::auth::{Actor, AgentScope, Scope};

const SOUL_READ: Scope = Scope("soul:read");
const SOUL_WRITE: Scope = Scope("soul:write");
const MEM_READ: Scope = Scope("memories:read");
const MEM_WRITE: Scope = Scope("memories:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(trigger_reflection))
        .routes(routes!(list_reflections))
        .routes(routes!(get_dossier))
        .routes(routes!(get_mirror))
        .routes(routes!(compile_dossier))
        .routes(routes!(knowledge_gaps))
        .routes(routes!(update_gap))
        .routes(routes!(calibration_shadow))
}

/// Runs a deep reflection now (the 24 h cooldown of the schedule does not apply; the
/// prerequisites do: 422 when the agent has fewer than 10 memories or 5 conversations). The
/// answer is the reflection record: `applied`, or `rejected` with the validation error when
/// the mentor's output was invalid (nothing applied). Key scope: `soul:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/reflection", tag = "cognition", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["soul:write"])),
    responses((status = 201, body = Reflection), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "A reflection of the agent is already running"),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn trigger_reflection(
    State(state): State<AppState>,
    scope: AgentScope,
) -> ApiResult<(StatusCode, Json<Reflection>)> {
    scope.require(SOUL_WRITE)?;
    let trigger =
        if matches!(scope.actor, Actor::Owner(_)) { ReflectionTrigger::Owner } else { ReflectionTrigger::ApiKey };
    if trigger == ReflectionTrigger::ApiKey
        && let Some(wait) = reflection::key_wait(state.pool(), scope.agent_id).await?
    {
        return Err(ApiError(Error::Limited {
            retry_after_secs: wait as u64,
            message: Some(format!(
                "a key may start {} reflection(s) of an agent an hour",
                reflection::KEY_REFLECTIONS_PER_HOUR
            )),
            reset_at: None,
        }));
    }
    if let Some(reason) = reflection::not_ready(state.pool(), scope.agent_id, false).await? {
        return Err(ApiError(Error::Unprocessable { code: "not_ready", message: reason, details: None }));
    }
    let r = reflection::run(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), trigger)
        .await
        .map_err(llm_or_internal)?;
    Ok((StatusCode::CREATED, Json(r)))
}

/// Model refusals keep their status (429 budget, 503 kill switch or global cap), a reflection
/// already running is 409, a database out of reach 503; anything else is a 500.
fn llm_or_internal(e: anyhow::Error) -> ApiError {
    if e.is::<reflection::AlreadyRunning>() {
        return ApiError(Error::Conflict(e.to_string()));
    }
    match e.downcast::<miniclaw_platform::llm::LlmError>() {
        Ok(llm) => llm.into(),
        Err(e) => e.into(),
    }
}

/// The agent's reflections, newest first, each with the actions it applied; `X-Next-Before`
/// names the next page. Key scope: `soul:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/reflections", tag = "cognition", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["soul:read"])),
    responses((status = 200, body = Vec<Reflection>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_reflections(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Reflection>> {
    scope.require(SOUL_READ)?;
    let rows = reflection::list(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |r| r.id))
}

/// The compiled knowledge dossier and whether it is fresh (no memory changed since; chat uses
/// it only then). 404 before the first compilation. Key scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/dossier", tag = "cognition", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = DossierState), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_dossier(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<DossierState>> {
    scope.require(MEM_READ)?;
    dossier::get(state.pool(), scope.agent_id).await?.map(Json).ok_or_else(|| ApiError::not_found("dossier"))
}

/// The newest nightly mirror of the agent's access patterns (X11): hot memories by access
/// energy (168-hour half-life), gaps (queries nothing answered well), friction (queries asked
/// again), co-access resonance, the memories it pinned, the hot memories it split, and the
/// weight of the pinned context. 404 before the first mirror. Its queries come from every user
/// of the agent: owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/mirror", tag = "cognition", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = [])),
    responses((status = 200, body = miniclaw_domain::cognition::mirror::Mirror), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_mirror(
    State(state): State<AppState>,
    scope: AgentScope,
) -> ApiResult<Json<miniclaw_domain::cognition::mirror::Mirror>> {
    scope.require_owner()?;
    miniclaw_domain::cognition::mirror::latest(state.pool(), scope.agent_id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found("mirror"))
}

/// Compiles the dossier now. 409 when the agent has no live memories. Key scope: `memories:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/dossier/compile", tag = "cognition", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 200, body = DossierState), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn compile_dossier(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<DossierState>> {
    scope.require(MEM_WRITE)?;
    let compiled = dossier::compile(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), false)
        .await
        .map_err(llm_or_internal)?;
    if compiled.is_none() {
        return Err(ApiError(Error::Conflict("the agent has no live memories to compile".into())));
    }
    dossier::get(state.pool(), scope.agent_id).await?.map(Json).ok_or_else(|| ApiError::not_found("dossier"))
}

/// Knowledge gaps found by lint: questions whose answers would help the agent. Confirmed gaps
/// first; dismissed ones are not listed; `X-Next-Before` names the next page. Key scope:
/// `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/knowledge-gaps", tag = "cognition", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = Vec<KnowledgeGap>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn knowledge_gaps(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<KnowledgeGap>> {
    scope.require(MEM_READ)?;
    let rows = lint::gaps(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |g| g.id))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GapUpdate {
    /// `confirmed` (kept by later lints), `dismissed` (hidden, not proposed again) or `open`.
    pub status: String,
}

/// Confirms or dismisses a knowledge gap. Key scope: `memories:write`.
#[utoipa::path(patch, path = "/v1/hosted-agents/{id}/knowledge-gaps/{gid}", tag = "cognition",
    params(("id" = Uuid, Path, description = "Agent id"), ("gid" = Uuid, Path, description = "Gap id")), request_body = GapUpdate,
    security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 200, body = KnowledgeGap), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_gap(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(input): Json<GapUpdate>,
) -> ApiResult<Json<KnowledgeGap>> {
    scope.require(MEM_WRITE)?;
    lint::set_gap_status(state.pool(), scope.agent_id, ids.1, &input.status)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found("knowledge gap"))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShadowInput {
    /// The text window to extract from, 1–8,000 characters.
    pub text: String,
}

/// Whether the request carries the admin bearer.
fn is_admin(state: &AppState, headers: &HeaderMap) -> bool {
    let Some(expected) = &state.config().admin_password else { return false };
    let Some(given) =
        headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    bool::from(Sha256::digest(given.trim().as_bytes()).ct_eq(&Sha256::digest(expected.expose().as_bytes())))
}

/// Access to the calibration shadow, checked before the body is read: the admin bearer, or a
/// caller of the agent when `DEBUG_SHADOW` is set.
pub struct ShadowAccess {
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: miniclaw_platform::activity::Origin,
}

impl axum::extract::FromRequestParts<AppState> for ShadowAccess {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &AppState) -> Result<Self, ApiError> {
        let Path(id) = Path::<AgentId>::from_request_parts(parts, state).await?;
        if is_admin(state, &parts.headers) {
            let tenant_id = miniclaw_domain::tenancy::agents::tenant_of(state.pool(), id)
                .await?
                .ok_or_else(|| ApiError::not_found("agent"))?;
            let request_id = parts.headers.get(crate::api::REQUEST_ID).and_then(|v| v.to_str().ok());
            let origin = miniclaw_platform::activity::Origin::new(Actor::Admin, request_id.map(str::to_string));
            return Ok(ShadowAccess { tenant_id, agent_id: id, origin });
        }
        if state.config().debug_shadow {
            let scope = crate::auth::agent_scope(&parts.method, &parts.headers, state, id).await?;
            return Ok(ShadowAccess { tenant_id: scope.tenant_id, agent_id: scope.agent_id, origin: scope.origin() });
        }
        Err(ApiError(Error::Refused {
            code: "shadow_disabled",
            message: "calibration shadow runs only with the admin bearer, or when DEBUG_SHADOW is set".into(),
        }))
    }
}

/// Runs extraction on a text window with the primary and an alternate model in parallel and
/// compares the facts (shared, primary only, alternate only, agreement). Writes nothing.
/// Fail-closed: allowed with `Authorization: Bearer $ADMIN_PASSWORD`, or for the agent's owner
/// and keys when the server runs with `DEBUG_SHADOW`; otherwise 403.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/calibration-shadow", tag = "cognition", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = ShadowInput, security(("admin_bearer" = []), ("owner_session" = []), ("api_key" = [])),
    responses((status = 200, body = ShadowReport), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn calibration_shadow(
    State(state): State<AppState>,
    access: ShadowAccess,
    Json(input): Json<ShadowInput>,
) -> ApiResult<Json<ShadowReport>> {
    Ok(Json(shadow::run(state.llm(), access.tenant_id, access.agent_id, &access.origin, &input.text).await?))
}
