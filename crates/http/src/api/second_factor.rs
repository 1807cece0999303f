//! The member's second factor (SPEC H3): TOTP (RFC 6238) set up with a secret for an
//! authenticator app and confirmed by a code, ten single-use recovery codes, and turning it off.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::auth::NO_STORE;
use super::extract::Json;
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_domain::tenancy::auth::Owner;
use miniclaw_domain::tenancy::totp::{self, Setup, Status};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(second_factor_status, set_up_second_factor))
        .routes(routes!(confirm_second_factor))
        .routes(routes!(renew_recovery_codes))
        .routes(routes!(disable_second_factor))
}

/// Whether the member's second factor is on, and how many recovery codes are left.
#[utoipa::path(get, path = "/v1/auth/second-factor", tag = "auth", security(("owner_session" = [])),
    responses((status = 200, body = Status), (status = 401, body = ErrorBody)))]
async fn second_factor_status(State(state): State<AppState>, owner: Owner) -> ApiResult<Json<Status>> {
    Ok(Json(totp::status(state.pool(), owner.owner_id).await?))
}

/// Starts setting up a second factor: a new secret to put in an authenticator app (shown
/// once). Nothing changes until a code made from it is confirmed. 409 when one is on already.
#[utoipa::path(post, path = "/v1/auth/second-factor", tag = "auth", security(("owner_session" = [])),
    responses((status = 201, body = Setup), (status = 401, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn set_up_second_factor(
    State(state): State<AppState>,
    owner: Owner,
) -> ApiResult<(StatusCode, [(axum::http::HeaderName, &'static str); 1], Json<Setup>)> {
    Ok((StatusCode::CREATED, [NO_STORE], Json(totp::setup(state.deps(), owner.owner_id, owner.tenant_id).await?)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeRequest {
    /// A code of the authenticator app (or, where it says so, a recovery code).
    pub code: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RecoveryCodes {
    /// Each works once in place of a code; shown only now.
    pub recovery_codes: Vec<String>,
}

/// Turns the second factor on with a code of the secret being set up; answers the recovery
/// codes. 403 `wrong_code`, 409 when nothing is being set up.
#[utoipa::path(post, path = "/v1/auth/second-factor/confirm", tag = "auth", request_body = CodeRequest,
    security(("owner_session" = [])),
    responses((status = 200, body = RecoveryCodes), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn confirm_second_factor(
    State(state): State<AppState>,
    owner: Owner,
    Json(req): Json<CodeRequest>,
) -> ApiResult<([(axum::http::HeaderName, &'static str); 1], Json<RecoveryCodes>)> {
    let codes = totp::enable(state.deps(), owner.owner_id, owner.tenant_id, &owner.origin(), &req.code).await?;
    Ok(([NO_STORE], Json(RecoveryCodes { recovery_codes: codes })))
}

/// New recovery codes with a current code (or a recovery code); the old ones stop working.
#[utoipa::path(post, path = "/v1/auth/second-factor/recovery-codes", tag = "auth", request_body = CodeRequest,
    security(("owner_session" = [])),
    responses((status = 200, body = RecoveryCodes), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn renew_recovery_codes(
    State(state): State<AppState>,
    owner: Owner,
    Json(req): Json<CodeRequest>,
) -> ApiResult<([(axum::http::HeaderName, &'static str); 1], Json<RecoveryCodes>)> {
    let origin = owner.origin();
    let codes = totp::renew_recovery_codes(state.deps(), owner.owner_id, owner.tenant_id, &origin, &req.code).await?;
    Ok(([NO_STORE], Json(RecoveryCodes { recovery_codes: codes })))
}

/// Turns the second factor off, with a current code (or a recovery code).
#[utoipa::path(post, path = "/v1/auth/second-factor/disable", tag = "auth", request_body = CodeRequest,
    security(("owner_session" = [])),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn disable_second_factor(
    State(state): State<AppState>,
    owner: Owner,
    Json(req): Json<CodeRequest>,
) -> ApiResult<StatusCode> {
    totp::disable(state.deps(), owner.owner_id, owner.tenant_id, &owner.origin(), &req.code).await?;
    Ok(StatusCode::NO_CONTENT)
}
