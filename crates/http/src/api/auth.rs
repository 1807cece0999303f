//! Owner accounts (SPEC A1): signup, login (password or wallet), refresh, logout, `/v1/me`, and
//! the links that prove an email address.

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use miniclaw_core::Error;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::auth::{SignInDevice, cookie_request_ok};
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::tenancy::accounts::{self, OwnerView, TenantView};
use miniclaw_domain::tenancy::auth::challenge::{self, Challenge, KeyType, Purpose};
use miniclaw_domain::tenancy::auth::session::Refreshed;
use miniclaw_domain::tenancy::auth::{Owner, session, signature};
use miniclaw_domain::tenancy::signins::{self, Begun};
use miniclaw_domain::tenancy::verify;
use miniclaw_platform::activity::{self, ActivityEntry};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(signup))
        .routes(routes!(login))
        .routes(routes!(login_second_factor))
        .routes(routes!(refresh))
        .routes(routes!(logout))
        .routes(routes!(wallet_challenge))
        .routes(routes!(wallet_login))
        .routes(routes!(me))
        .routes(routes!(verify_email))
        .routes(routes!(send_verification))
        .routes(routes!(tenant_activity))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SessionResponse {
    pub owner: OwnerView,
    pub tenant: TenantView,
    /// Bearer token for the API (15 minutes); also set as the `mc_session` cookie.
    pub session_token: String,
    /// Exchange at `POST /v1/auth/refresh` for a new session token (30 days, rotated on use);
    /// also set as the `mc_refresh` cookie.
    pub refresh_token: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignupRequest {
    pub email: String,
    /// 8–256 characters.
    pub password: String,
    pub tenant_name: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

/// A JSON body with the session cookies set.
fn session_response(
    state: &AppState,
    status: StatusCode,
    body: impl Serialize,
    session_token: &str,
    refresh_token: &str,
) -> Response {
    let cookies =
        session::login_cookies(session_token, state.session_keys().ttl(), refresh_token, state.config().secure_cookies);
    crate::auth::with_cookies((status, [NO_STORE], axum::Json(body)).into_response(), cookies)
}

/// Responses that carry credentials are never stored by a browser or a proxy.
pub const NO_STORE: (axum::http::HeaderName, &str) = (axum::http::header::CACHE_CONTROL, "no-store");

/// A session for `owner`: its tokens in the body and as cookies.
fn session_for(
    state: &AppState,
    status: StatusCode,
    owner: OwnerView,
    tenant: TenantView,
    session_id: uuid::Uuid,
    refresh: String,
) -> Response {
    let token = state.session_keys().issue(owner.id, tenant.id, session_id);
    let body = SessionResponse { owner, tenant, session_token: token.clone(), refresh_token: refresh.clone() };
    session_response(state, status, body, &token, &refresh)
}

/// A sign-in waiting for its second factor.
#[derive(Debug, Serialize, ToSchema)]
pub struct SecondFactorRequired {
    /// Always true: no session starts until a code is given.
    pub second_factor_required: bool,
    /// Present it with a code at `POST /v1/auth/login/second-factor` within 5 minutes.
    pub second_factor_token: String,
}

/// Signs a member in whose credential was checked: a session (with `status`), or 202 with
/// the token that asks for their second factor.
pub(crate) async fn signed_in(
    state: &AppState,
    status: StatusCode,
    owner: OwnerView,
    tenant: TenantView,
    method: &str,
    device: &signins::Device,
) -> ApiResult<Response> {
    match signins::begin(state.deps(), state.session_keys(), owner.id, tenant.id, method, device).await? {
        Begun::Session { session_id, refresh_token } => {
            Ok(session_for(state, status, owner, tenant, session_id, refresh_token))
        }
        Begun::SecondFactor { token } => Ok((
            StatusCode::ACCEPTED,
            [NO_STORE],
            axum::Json(SecondFactorRequired { second_factor_required: true, second_factor_token: token }),
        )
            .into_response()),
    }
}

/// Creates an owner account with its own tenant and signs it in.
#[utoipa::path(post, path = "/v1/auth/signup", tag = "auth", request_body = SignupRequest,
    responses((status = 201, body = SessionResponse, description = "Signed up; session cookies set"),
        (status = 400, body = ErrorBody), (status = 409, body = ErrorBody, description = "Email already registered")))]
async fn signup(
    State(state): State<AppState>,
    headers: HeaderMap,
    SignInDevice(device): SignInDevice,
    Json(req): Json<SignupRequest>,
) -> ApiResult<Response> {
    let (owner, tenant) = accounts::create_owner(
        state.pool(),
        &req.email,
        req.password,
        req.tenant_name,
        super::extract::request_id(&headers).as_deref(),
        miniclaw_domain::tenancy::accounts::NewTenant::from_config(state.config()),
    )
    .await?;
    verify::after_signup(state.deps(), &owner, tenant.id).await;
    signed_in(&state, StatusCode::CREATED, owner, tenant, "signup", &device).await
}

/// Signs in with email and password. With a second factor on, the answer is 202 with a token
/// to present with a code (`POST /v1/auth/login/second-factor`) instead of a session.
#[utoipa::path(post, path = "/v1/auth/login", tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = SessionResponse), (status = 202, body = SecondFactorRequired),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn login(
    State(state): State<AppState>,
    SignInDevice(device): SignInDevice,
    Json(req): Json<LoginRequest>,
) -> ApiResult<Response> {
    let Some((owner, tenant)) = accounts::check_password(state.pool(), &req.email, req.password).await? else {
        signins::password_failed(state.pool(), &req.email, &device).await?;
        return Err(ApiError(Error::Unauthenticated("invalid email or password".into())));
    };
    signed_in(&state, StatusCode::OK, owner, tenant, "password", &device).await
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecondFactorLogin {
    /// The `second_factor_token` of the sign-in.
    pub second_factor_token: String,
    /// A code of the member's authenticator app, or one of their recovery codes.
    pub code: String,
}

/// Finishes a sign-in that asked for a second factor. 401 when the sign-in expired (5
/// minutes), 403 `wrong_code`, 429 after too many wrong codes in a row.
#[utoipa::path(post, path = "/v1/auth/login/second-factor", tag = "auth", request_body = SecondFactorLogin,
    responses((status = 200, body = SessionResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn login_second_factor(
    State(state): State<AppState>,
    SignInDevice(device): SignInDevice,
    Json(req): Json<SecondFactorLogin>,
) -> ApiResult<Response> {
    let (owner, tenant, session_id, refresh) =
        signins::finish(state.deps(), state.session_keys(), &req.second_factor_token, &req.code, &device).await?;
    let account = accounts::me(state.pool(), owner, tenant).await?;
    Ok(session_for(&state, StatusCode::OK, account.owner, account.tenant, session_id, refresh))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct RefreshRequest {
    /// The refresh token; may be omitted when the `mc_refresh` cookie is sent.
    pub refresh_token: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct RefreshResponse {
    pub session_token: String,
    pub refresh_token: String,
}

/// Exchanges a refresh token for a new session token (and a new refresh token). The refresh
/// token presented stops working, except that for 30 seconds it yields the same answer again
/// (concurrent or retried refreshes); presented after that, it signs the session out (a used
/// token coming back means it was copied). With the `mc_refresh` cookie instead of a body, the
/// request must carry an `X-Requested-With` header.
#[utoipa::path(post, path = "/v1/auth/refresh", tag = "auth", request_body(content = RefreshRequest, description = "Optional when the cookie is sent"),
    responses((status = 200, body = RefreshResponse), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "Cookie without `X-Requested-With`")))]
async fn refresh(State(state): State<AppState>, headers: HeaderMap, body: axum::body::Bytes) -> ApiResult<Response> {
    let from_body = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        serde_json::from_slice::<RefreshRequest>(&body)
            .map_err(|e| Error::Invalid {
                code: "invalid_body",
                message: format!("request body has the wrong shape: {e}"),
                details: None,
            })?
            .refresh_token
    };
    let presented = match from_body {
        Some(t) => t,
        None => {
            let cookie = crate::auth::cookie(&headers, session::REFRESH_COOKIE)
                .filter(|c| !c.is_empty())
                .ok_or_else(|| Error::Unauthenticated("no refresh token".into()))?;
            // The browser sends the cookie by itself, also on a request another site makes.
            let sid = session::refresh_session_id(cookie).unwrap_or_default();
            cookie_request_ok(&Method::POST, &headers, &state, sid)?;
            cookie.to_string()
        }
    };
    let (owner_id, tenant_id, sid, next) =
        match session::refresh(state.pool(), state.session_keys(), &presented).await? {
            Refreshed::Renewed { owner_id, tenant_id, session_id, refresh_token } => {
                (owner_id, tenant_id, session_id, refresh_token)
            }
            Refreshed::Reused => {
                return Err(ApiError(Error::Unauthenticated(
                    "this refresh token was already exchanged; the session has been signed out, sign in again".into(),
                )));
            }
            Refreshed::Invalid => {
                return Err(ApiError(Error::Unauthenticated(
                    "refresh token is invalid, used or expired; sign in again".into(),
                )));
            }
        };
    let token = state.session_keys().issue(owner_id, tenant_id, sid);
    Ok(session_response(
        &state,
        StatusCode::OK,
        RefreshResponse { session_token: token.clone(), refresh_token: next.clone() },
        &token,
        &next,
    ))
}

/// Ends the session: its tokens stop working and the cookies are cleared.
#[utoipa::path(post, path = "/v1/auth/logout", tag = "auth", security(("owner_session" = [])),
    responses((status = 204, description = "Signed out"), (status = 401, body = ErrorBody)))]
async fn logout(State(state): State<AppState>, owner: Owner) -> ApiResult<Response> {
    session::revoke(state.pool(), owner.session_id).await?;
    let cookies = session::logout_cookies(state.config().secure_cookies);
    Ok(crate::auth::with_cookies((StatusCode::NO_CONTENT, [NO_STORE]).into_response(), cookies))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WalletChallengeRequest {
    /// The wallet's 0x address.
    pub address: String,
}

/// Starts a wallet login: returns the message to sign with EIP-191 `personal_sign`.
#[utoipa::path(post, path = "/v1/auth/wallet/challenge", tag = "auth", request_body = WalletChallengeRequest,
    responses((status = 200, body = Challenge), (status = 400, body = ErrorBody)))]
async fn wallet_challenge(
    State(state): State<AppState>,
    Json(req): Json<WalletChallengeRequest>,
) -> ApiResult<Json<Challenge>> {
    let address = signature::normalize_evm_address(req.address.trim())
        .ok_or_else(|| ApiError::validation("address", "address must be a 0x-prefixed 20-byte hex address"))?;
    Ok(Json(
        challenge::create(state.pool(), Purpose::OwnerLogin, KeyType::Evm, &address, None, &state.public_url()).await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WalletLoginRequest {
    pub nonce: String,
    /// 65-byte `personal_sign` signature, 0x-prefixed hex.
    pub signature: String,
    /// Name of the tenant to create when this wallet signs in for the first time.
    pub tenant_name: Option<String>,
}

/// Signs in with a wallet signature over the challenge; the first login creates the account.
/// With a second factor on, the answer is 202 with a token to present with a code.
#[utoipa::path(post, path = "/v1/auth/wallet/login", tag = "auth", request_body = WalletLoginRequest,
    responses((status = 200, body = SessionResponse), (status = 201, body = SessionResponse, description = "First login: account created"),
        (status = 202, body = SecondFactorRequired),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn wallet_login(
    State(state): State<AppState>,
    headers: HeaderMap,
    SignInDevice(device): SignInDevice,
    Json(req): Json<WalletLoginRequest>,
) -> ApiResult<Response> {
    let (owner, tenant, created) = accounts::wallet_sign_in(
        state.pool(),
        req.nonce.trim(),
        req.signature.trim(),
        req.tenant_name,
        super::extract::request_id(&headers).as_deref(),
        miniclaw_domain::tenancy::accounts::NewTenant::from_config(state.config()),
    )
    .await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    signed_in(&state, status, owner, tenant, "wallet", &device).await
}

#[derive(Serialize, ToSchema)]
pub struct MeResponse {
    pub owner: OwnerView,
    pub tenant: TenantView,
    /// Whether the owner's email is proven (the link mailed at signup was followed). Until it
    /// is, no mail goes to it and the account is held to a new account's model allowance.
    pub email_verified: bool,
}

/// The signed-in owner and their tenant.
#[utoipa::path(get, path = "/v1/me", tag = "auth", security(("owner_session" = [])),
    responses((status = 200, body = MeResponse), (status = 401, body = ErrorBody)))]
async fn me(State(state): State<AppState>, owner: Owner) -> ApiResult<Json<MeResponse>> {
    let account = accounts::me(state.pool(), owner.owner_id, owner.tenant_id).await?;
    Ok(Json(MeResponse { owner: account.owner, tenant: account.tenant, email_verified: account.email_verified }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyEmailRequest {
    /// The `token` of the link mailed to the address.
    pub token: String,
}

/// Follows a mailed link: proves the owner's signup address or the account's sender address.
/// 400 for a token that is unknown, used or expired (links are valid 48 hours, once).
#[utoipa::path(post, path = "/v1/auth/verify-email", tag = "auth", request_body = VerifyEmailRequest,
    responses((status = 200, body = verify::Verified), (status = 400, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "The address is no longer the one the link was for")))]
async fn verify_email(
    State(state): State<AppState>,
    Json(req): Json<VerifyEmailRequest>,
) -> ApiResult<Json<verify::Verified>> {
    Ok(Json(verify::confirm(state.pool(), &req.token).await?))
}

#[derive(Serialize, ToSchema)]
pub struct VerificationSent {
    /// The address the link went to.
    pub sent_to: String,
}

/// Mails the signed-in owner a new link proving their address (at most one a minute).
#[utoipa::path(post, path = "/v1/auth/verify-email/send", tag = "auth", security(("owner_session" = [])),
    responses((status = 202, body = VerificationSent), (status = 401, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "Verified already"),
        (status = 422, body = ErrorBody, description = "The account has no email address"),
        (status = 429, body = ErrorBody), (status = 503, body = ErrorBody, description = "The platform sends no email")))]
async fn send_verification(
    State(state): State<AppState>,
    owner: Owner,
) -> ApiResult<(StatusCode, Json<VerificationSent>)> {
    let sent_to = verify::resend_owner_link(state.deps(), owner.owner_id, owner.tenant_id).await?;
    Ok((StatusCode::ACCEPTED, Json(VerificationSent { sent_to })))
}

/// Tenant-level events (signups, deleted agents, the team's changes), newest first, each with the
/// member who acted; `X-Next-Before` names the next page.
#[utoipa::path(get, path = "/v1/activity", tag = "auth", params(Page), security(("owner_session" = [])),
    responses((status = 200, body = Vec<ActivityEntry>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn tenant_activity(
    State(state): State<AppState>,
    owner: Owner,
    Query(page): Query<Page>,
) -> ApiResult<Paged<ActivityEntry>> {
    let mut rows = activity::list_tenant(state.pool(), owner.tenant_id, page.fetch()?, page.before).await?;
    miniclaw_domain::tenancy::team::name_actors(state.pool(), owner.tenant_id, &mut rows).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |e| e.id))
}
