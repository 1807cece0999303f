//! An owner's password and address (SPEC H3): changing the password while signed in, resetting
//! a forgotten one by a link mailed to the account's address, and moving to a new address once a
//! link mailed to it is followed.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::Json;
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_domain::tenancy::auth::Owner;
use miniclaw_domain::tenancy::passwords;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(change_password))
        .routes(routes!(ask_reset))
        .routes(routes!(reset_password))
        .routes(routes!(change_email))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub current_password: String,
    /// 12–128 characters.
    pub new_password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PasswordChanged {
    /// The owner's other sessions, now ended (this one goes on).
    pub sessions_ended: u64,
}

/// Changes the signed-in owner's password. The current one must be given (403
/// `wrong_password`); every other session of the owner ends. 422 `no_password` for an account
/// that signs in with a wallet.
#[utoipa::path(post, path = "/v1/auth/password", tag = "auth", request_body = PasswordChange,
    security(("owner_session" = [])),
    responses((status = 200, body = PasswordChanged), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn change_password(
    State(state): State<AppState>,
    owner: Owner,
    Json(req): Json<PasswordChange>,
) -> ApiResult<Json<PasswordChanged>> {
    let (id, tenant, session, origin) = (owner.owner_id, owner.tenant_id, owner.session_id, owner.origin());
    let ended =
        passwords::change(state.pool(), id, tenant, session, &origin, req.current_password, req.new_password).await?;
    Ok(Json(PasswordChanged { sessions_ended: ended }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetAsked {
    /// The account's email address.
    pub email: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ResetAnswer {
    /// Always the same, whether or not the address has an account.
    pub status: &'static str,
}

/// Mails a link that resets the password of the account with this address (valid one hour,
/// once). The answer is the same whether or not the address has an account; 503 when the
/// platform sends no mail.
#[utoipa::path(post, path = "/v1/auth/password/reset", tag = "auth", request_body = ResetAsked,
    responses((status = 202, body = ResetAnswer), (status = 400, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn ask_reset(
    State(state): State<AppState>,
    Json(req): Json<ResetAsked>,
) -> ApiResult<(StatusCode, Json<ResetAnswer>)> {
    passwords::ask_reset(state.deps(), &req.email).await?;
    Ok((StatusCode::ACCEPTED, Json(ResetAnswer { status: "if the address has an account, a link is on its way" })))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordReset {
    /// The `token` of the mailed link.
    pub token: String,
    /// The new password, 12–128 characters.
    pub password: String,
}

/// Follows a reset link: sets the new password, proves the address it was mailed to and ends
/// every session of the account (sign in again). 400 for a token that is unknown, used or
/// expired.
#[utoipa::path(post, path = "/v1/auth/password/reset/confirm", tag = "auth", request_body = PasswordReset,
    responses((status = 200, body = ResetAnswer), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn reset_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(req): Json<PasswordReset>,
) -> ApiResult<Json<ResetAnswer>> {
    let request_id = super::extract::request_id(&headers);
    passwords::reset(state.pool(), &req.token, req.password, request_id.as_deref()).await?;
    Ok(Json(ResetAnswer { status: "the password is set; sign in with it" }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmailChange {
    pub new_email: String,
    /// Required when the account has a password.
    pub current_password: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EmailChangeAsked {
    /// Where the link went: following it (`POST /v1/auth/verify-email`) makes it the account's
    /// address. Until then nothing changes.
    pub sent_to: String,
}

/// Asks to move the signed-in member to a new address: a link is mailed to it (valid 48
/// hours), and the address changes only when it is followed. 403 `wrong_password`, 409 when the
/// address is another account's, 503 when the platform sends no mail.
#[utoipa::path(post, path = "/v1/auth/email", tag = "auth", request_body = EmailChange,
    security(("owner_session" = [])),
    responses((status = 202, body = EmailChangeAsked), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 503, body = ErrorBody)))]
async fn change_email(
    State(state): State<AppState>,
    owner: Owner,
    Json(req): Json<EmailChange>,
) -> ApiResult<(StatusCode, Json<EmailChangeAsked>)> {
    let (id, tenant, origin) = (owner.owner_id, owner.tenant_id, owner.origin());
    let sent_to =
        passwords::change_email(state.deps(), id, tenant, &origin, req.current_password, &req.new_email).await?;
    Ok((StatusCode::ACCEPTED, Json(EmailChangeAsked { sent_to })))
}
