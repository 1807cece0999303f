//! Outreach (SPEC O1): proposals and their email threads, the sending quota, and the tenant's
//! sender identity. An agent's key with `outreach:write` may propose; approving, editing,
//! rejecting, replying and closing are the owner's (a key cannot approve its own email).

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::channels::outreach::draft::{EditInput, ProposalInput};
use miniclaw_domain::channels::outreach::limits::Quota;
use miniclaw_domain::channels::outreach::thread::{RejectInput, ReplyInput};
use miniclaw_domain::channels::outreach::{self, Status, Thread, ThreadDetail};
use miniclaw_domain::tenancy::auth::{AgentScope, Owner, Scope};
use miniclaw_platform::email::sender::{self, SenderInput, SenderView};

const READ: Scope = Scope("outreach:read");
const WRITE: Scope = Scope("outreach:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_outreach, propose))
        .routes(routes!(get_outreach, edit_outreach))
        .routes(routes!(outreach_quota))
        .routes(routes!(approve))
        .routes(routes!(reject))
        .routes(routes!(reply))
        .routes(routes!(close))
        .routes(routes!(get_sender, set_sender))
}

/// What a caller may read of the correspondence: the owner all of it, a key the threads active
/// in the last `KEY_READABLE_DAYS` days.
fn key_window(scope: &AgentScope) -> Option<chrono::DateTime<chrono::Utc>> {
    (!scope.is_owner()).then(|| chrono::Utc::now() - chrono::Duration::days(outreach::KEY_READABLE_DAYS))
}

/// A page of outreach, optionally of one status.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[into_params(parameter_in = Query)]
pub struct OutreachQuery {
    /// `proposed`, `approved`, `sent`, `replied`, `escalated`, `closed` or `rejected`.
    pub status: Option<String>,
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The `X-Next-Before` of the previous page.
    pub before: Option<Uuid>,
}

/// The agent's outreach, newest first; paged (`X-Next-Before`). A key sees the threads active in
/// the last 30 days; the owner sees them all. Key scope: `outreach:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/outreach", tag = "outreach",
    params(("id" = Uuid, Path, description = "Agent id"), OutreachQuery),
    security(("owner_session" = []), ("api_key" = ["outreach:read"])),
    responses((status = 200, body = Vec<Thread>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_outreach(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<OutreachQuery>,
) -> ApiResult<Paged<Thread>> {
    scope.require(READ)?;
    let status = match q.status.as_deref() {
        None => None,
        Some(s) => Some(Status::parse(s).ok_or_else(|| {
            ApiError::validation(
                "status",
                "status must be one of proposed, approved, sent, replied, escalated, closed, rejected",
            )
        })?),
    };
    let page = Page { limit: q.limit, before: q.before };
    let since = key_window(&scope);
    let rows = outreach::list(state.pool(), scope.agent_id, status, since, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |t| t.id))
}

/// Proposes an outreach email (201, `proposed`). Without `subject` and `body` the agent drafts
/// them with the `outreach` role from its soul and memories (`drafted_by` says whether a model
/// or the offline template wrote it). 409 when the agent's outreach is disabled; 400 for a bad
/// address or a line break in a header field (422 for a body over 10,000 characters). Key
/// scope: `outreach:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/outreach", tag = "outreach",
    params(("id" = Uuid, Path, description = "Agent id")), request_body = ProposalInput,
    security(("owner_session" = []), ("api_key" = ["outreach:write"])),
    responses((status = 201, body = Thread), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn propose(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<ProposalInput>,
) -> ApiResult<(StatusCode, Json<Thread>)> {
    scope.require(WRITE)?;
    let thread =
        outreach::draft::propose(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), input).await?;
    Ok((StatusCode::CREATED, Json(thread)))
}

/// One outreach with its emails (direction, headers, status), oldest first; for a key, 404 when
/// the thread was last active over 30 days ago. Key scope: `outreach:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/outreach/{oid}", tag = "outreach",
    params(("id" = Uuid, Path, description = "Agent id"), ("oid" = Uuid, Path, description = "Outreach id")),
    security(("owner_session" = []), ("api_key" = ["outreach:read"])),
    responses((status = 200, body = ThreadDetail), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn get_outreach(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<ThreadDetail>> {
    scope.require(READ)?;
    let detail = outreach::get(state.pool(), scope.agent_id, ids.1, key_window(&scope))
        .await?
        .ok_or_else(|| ApiError::not_found("outreach"))?;
    Ok(Json(detail))
}

/// Edits a proposal's subject, body or target name (409 naming the status unless `proposed`).
/// Owner only.
#[utoipa::path(patch, path = "/v1/hosted-agents/{id}/outreach/{oid}", tag = "outreach",
    params(("id" = Uuid, Path, description = "Agent id"), ("oid" = Uuid, Path, description = "Outreach id")),
    request_body = EditInput, security(("owner_session" = [])),
    responses((status = 200, body = Thread), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn edit_outreach(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(input): Json<EditInput>,
) -> ApiResult<Json<Thread>> {
    scope.require_owner()?;
    let t = outreach::draft::edit(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1, input).await?;
    Ok(Json(t))
}

/// Approves a proposal and queues its email (`approved`; `sent` once the outbox delivered it).
/// 429 with `reset_at` when the agent sent 5 emails in the last 24 hours or wrote to this
/// address in the last 7 days (the proposal stays `proposed`); 409 naming the status unless
/// `proposed`; 503 while no email transport is configured. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/outreach/{oid}/approve", tag = "outreach",
    params(("id" = Uuid, Path, description = "Agent id"), ("oid" = Uuid, Path, description = "Outreach id")),
    security(("owner_session" = [])),
    responses((status = 200, body = Thread), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 503, body = ErrorBody)))]
async fn approve(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<Thread>> {
    scope.require_owner()?;
    let settings = &state.config().email;
    Ok(Json(
        outreach::thread::approve(state.pool(), settings, scope.tenant_id, scope.agent_id, &scope.origin(), ids.1)
            .await?,
    ))
}

/// Rejects a proposal (`rejected`, final); 409 naming the status unless `proposed`. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/outreach/{oid}/reject", tag = "outreach",
    params(("id" = Uuid, Path, description = "Agent id"), ("oid" = Uuid, Path, description = "Outreach id")),
    request_body = RejectInput, security(("owner_session" = [])),
    responses((status = 200, body = Thread), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn reject(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(input): Json<RejectInput>,
) -> ApiResult<Json<Thread>> {
    scope.require_owner()?;
    let t =
        outreach::thread::reject(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1, input).await?;
    Ok(Json(t))
}

/// Sends the owner's reply in a `replied` or `escalated` thread: `body`, or the agent's
/// suggested reply when left out; threaded (`In-Reply-To`, `References`) and counted toward
/// the daily limit (429). Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/outreach/{oid}/reply", tag = "outreach",
    params(("id" = Uuid, Path, description = "Agent id"), ("oid" = Uuid, Path, description = "Outreach id")),
    request_body = ReplyInput, security(("owner_session" = [])),
    responses((status = 200, body = Thread), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn reply(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(input): Json<ReplyInput>,
) -> ApiResult<Json<Thread>> {
    scope.require_owner()?;
    let settings = &state.config().email;
    let t = outreach::thread::respond(
        state.pool(),
        settings,
        scope.tenant_id,
        scope.agent_id,
        &scope.origin(),
        ids.1,
        input,
    )
    .await?;
    Ok(Json(t))
}

/// Closes a thread (`closed`, final); 409 naming the status when it is a proposal or final.
/// Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/outreach/{oid}/close", tag = "outreach",
    params(("id" = Uuid, Path, description = "Agent id"), ("oid" = Uuid, Path, description = "Outreach id")),
    security(("owner_session" = [])),
    responses((status = 200, body = Thread), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn close(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<Thread>> {
    scope.require_owner()?;
    Ok(Json(outreach::thread::close(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1).await?))
}

/// The agent's sending quota: 5 emails in any 24 hours; how many are used and when the next
/// slot opens. Key scope: `outreach:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/outreach-quota", tag = "outreach",
    params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["outreach:read"])),
    responses((status = 200, body = Quota), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn outreach_quota(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Quota>> {
    scope.require(READ)?;
    Ok(Json(outreach::quota(state.pool(), scope.agent_id).await?))
}

/// The tenant's sender identity for outgoing email (nulls: the platform default,
/// `MINICLAW_EMAIL_FROM` and the agent's name).
#[utoipa::path(get, path = "/v1/email/sender", tag = "outreach", security(("owner_session" = [])),
    responses((status = 200, body = SenderView), (status = 401, body = ErrorBody)))]
async fn get_sender(State(state): State<AppState>, owner: Owner) -> ApiResult<Json<SenderView>> {
    Ok(Json(sender::get_sender(state.pool(), owner.tenant_id).await?))
}

/// Sets the tenant's sender identity: the From name and address of its agents' email (nulls
/// restore the platform default). A new address is mailed a link; until it is followed the
/// email goes from the platform's address with this one as `Reply-To` (`verified: false`). 400
/// for an address that is not one or a name with a line break, 422 for an address on the
/// platform's own domain.
#[utoipa::path(put, path = "/v1/email/sender", tag = "outreach", request_body = SenderInput,
    security(("owner_session" = [])),
    responses((status = 200, body = SenderView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn set_sender(
    State(state): State<AppState>,
    owner: Owner,
    Json(input): Json<SenderInput>,
) -> ApiResult<Json<SenderView>> {
    let view =
        miniclaw_domain::tenancy::verify::set_sender(state.deps(), owner.tenant_id, owner.owner_id, input).await?;
    Ok(Json(view))
}
