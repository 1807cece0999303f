//! The account as a whole (SPEC H2): what the platform holds about a member, taken out; and
//! closing it (owners: it stops at once and is purged after the grace period; they may reopen it
//! until then).

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::Json;
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_domain::bundle::account::{self, AccountExport};
use miniclaw_domain::tenancy::auth::Owner;
use miniclaw_domain::tenancy::closing::{self, Closing};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(account_state))
        .routes(routes!(export_account))
        .routes(routes!(close_account))
        .routes(routes!(reopen_account))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AccountState {
    /// Set while the account is closing.
    pub closing: Option<Closing>,
}

/// Whether the account is closing, and when it will be purged.
#[utoipa::path(get, path = "/v1/account", tag = "team", security(("owner_session" = [])),
    responses((status = 200, body = AccountState), (status = 401, body = ErrorBody)))]
async fn account_state(State(state): State<AppState>, owner: Owner) -> ApiResult<Json<AccountState>> {
    let closing = closing::state(state.pool(), owner.tenant_id, state.config().account_grace_days).await?;
    Ok(Json(AccountState { closing }))
}

/// Everything the platform holds about the signed-in member: their account, the devices they
/// signed in from, the team, the account's activity and, for owners and admins, every agent as
/// a `miniclaw.agent` bundle with its conversations (no secrets, no vectors).
#[utoipa::path(get, path = "/v1/account/export", tag = "team", security(("owner_session" = [])),
    responses((status = 200, body = AccountExport), (status = 401, body = ErrorBody)))]
async fn export_account(State(state): State<AppState>, owner: Owner) -> ApiResult<Json<AccountExport>> {
    Ok(Json(account::export(state.runtime(), owner.tenant_id, owner.owner_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseRequest {
    /// The owner's password (required when they have one).
    pub password: Option<String>,
}

/// Closes the account (owners): every other session ends, keys are refused (403
/// `account_closing`), model calls and jobs stop; after `MINICLAW_ACCOUNT_GRACE_DAYS` (14) the
/// account and everything it holds is purged. Until then an owner may reopen it. 403
/// `wrong_password`; 409 when it is closing already.
#[utoipa::path(post, path = "/v1/account/close", tag = "team", request_body = CloseRequest,
    security(("owner_session" = [])),
    responses((status = 202, body = Closing), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn close_account(
    State(state): State<AppState>,
    owner: Owner,
    Json(req): Json<CloseRequest>,
) -> ApiResult<(StatusCode, Json<Closing>)> {
    let grace = state.config().account_grace_days;
    let (id, tenant, session, origin) = (owner.owner_id, owner.tenant_id, owner.session_id, owner.origin());
    let closing = closing::close(state.pool(), id, tenant, session, &origin, req.password, grace).await?;
    Ok((StatusCode::ACCEPTED, Json(closing)))
}

/// Reopens a closing account (owners): everything works again. 409 when it is not closing.
#[utoipa::path(post, path = "/v1/account/reopen", tag = "team", security(("owner_session" = [])),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn reopen_account(State(state): State<AppState>, owner: Owner) -> ApiResult<StatusCode> {
    closing::reopen(state.pool(), owner.owner_id, owner.tenant_id, &owner.origin()).await?;
    Ok(StatusCode::NO_CONTENT)
}
