//! One end user of an agent (SPEC H2): everything the agent keeps about them, taken out; or
//! erased everywhere it is kept. The owner's team (admins erase), or a key with the chat and
//! memory scopes; a key bound to an end user reaches only that one (their own "forget me").

use axum::extract::State;
use miniclaw_core::Error;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path};
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_domain::bundle::person::{self, Erased, PersonExport};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope, end_user};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(export_end_user)).routes(routes!(erase_end_user))
}

/// The end user of the path, if the caller may reach them: a key bound to another is 403.
fn person(scope: &AgentScope, raw: &str) -> Result<String, Error> {
    let named = end_user::parse("end_user", raw)?;
    if scope.end_user_bound && scope.end_user.as_deref() != Some(named.as_str()) {
        return Err(Error::Refused {
            code: "end_user_mismatch",
            message: "this key acts for another end user; it reaches only its own".into(),
        });
    }
    Ok(named)
}

/// Everything the agent keeps about one end user: their conversations with every message, the
/// memories learned from them with every version, and the log entries about them. Key scopes:
/// `chat:read` and `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/end-users/{end_user}/export", tag = "memories",
    params(("id" = Uuid, Path, description = "Agent id"), ("end_user" = String, Path, description = "The end user's id, as the miniapp names them")),
    security(("owner_session" = []), ("api_key" = ["chat:read", "memories:read"])),
    responses((status = 200, body = PersonExport), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn export_end_user(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(uuid::Uuid, String)>,
) -> ApiResult<Json<PersonExport>> {
    scope.require(Scope("chat:read"))?;
    scope.require(Scope("memories:read"))?;
    let who = person(&scope, &ids.1)?;
    Ok(Json(person::export(state.pool(), scope.agent_id, &who).await?))
}

/// Erases everything the agent keeps about one end user, everywhere it is kept (conversations,
/// messages, memories and every version, tombstones, search postings, vectors, analytics,
/// webhook payloads, queued jobs, kept answers); keys bound to them are revoked. Answers the
/// counts; the log keeps only those. For an owner's team, admins and owners; key scopes:
/// `chat:write` and `memories:write`.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/end-users/{end_user}", tag = "memories",
    params(("id" = Uuid, Path, description = "Agent id"), ("end_user" = String, Path, description = "The end user's id, as the miniapp names them")),
    security(("owner_session" = []), ("api_key" = ["chat:write", "memories:write"])),
    responses((status = 200, body = Erased), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn erase_end_user(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(uuid::Uuid, String)>,
) -> ApiResult<Json<Erased>> {
    scope.require(Scope("chat:write"))?;
    scope.require(Scope("memories:write"))?;
    let who = person(&scope, &ids.1)?;
    Ok(Json(person::erase(state.pool(), scope.tenant_id, scope.agent_id, &who, &scope.origin()).await?))
}
