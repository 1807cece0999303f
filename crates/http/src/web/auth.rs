//! Signing in and out of the dashboard: login and signup pages (with a pre-session CSRF
//! cookie), the session refresh and logout.
//!
//! Refreshing changes state (it rotates the refresh token), so it is a POST: `GET /refresh`
//! only renders a form that posts itself (with `static/app.js`; without it, a button), carrying
//! a CSRF token bound to the session the refresh cookie names.

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use miniclaw_core::ids::{TenantId, UserId};
use serde::Deserialize;

use super::extract::{Posted, WebOwner};
use super::forms::{Form, PRE_SESSION_CSRF_COOKIE, new_pre_session_token, pre_session_csrf_ok, safe_next};
use super::pages::*;
use crate::app::AppState;
use crate::auth::{SignInDevice, with_cookies};
use miniclaw_domain::tenancy::accounts::{check_password, create_owner};
use miniclaw_domain::tenancy::auth::session;
use miniclaw_domain::tenancy::auth::session::Refreshed;
use miniclaw_domain::tenancy::signins::{self, Begun, Device};
use miniclaw_domain::tenancy::verify;

pub async fn home(headers: HeaderMap) -> Redirect {
    if crate::auth::cookie(&headers, session::SESSION_COOKIE).is_some_and(|c| !c.is_empty()) {
        Redirect::to("/agents")
    } else {
        Redirect::to("/login")
    }
}

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

#[derive(Template)]
#[template(path = "web/login.html")]
struct LoginPage {
    csrf: String,
    next: String,
    email: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "web/signup.html")]
struct SignupPage {
    csrf: String,
    email: String,
    tenant_name: String,
    error: Option<String>,
}

pub(super) fn pre_session_page(state: &AppState, t: impl Template, csrf: &str) -> Response {
    let secure = if state.config().secure_cookies { "; Secure" } else { "" };
    with_cookies(
        render(t),
        [format!("{PRE_SESSION_CSRF_COOKIE}={csrf}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600{secure}")],
    )
}

pub async fn login_page(State(state): State<AppState>, Query(q): Query<NextQuery>) -> Response {
    let csrf = new_pre_session_token();
    pre_session_page(
        &state,
        LoginPage { csrf: csrf.clone(), next: safe_next(q.next.as_deref()), email: String::new(), error: None },
        &csrf,
    )
}

pub async fn signup_page(State(state): State<AppState>) -> Response {
    let csrf = new_pre_session_token();
    pre_session_page(
        &state,
        SignupPage { csrf: csrf.clone(), email: String::new(), tenant_name: String::new(), error: None },
        &csrf,
    )
}

/// Signs a member in whose credential was checked: to `next` with the session's cookies, or
/// to the page asking for their second factor.
pub(super) async fn signed_in(
    state: &AppState,
    owner_id: UserId,
    tenant_id: TenantId,
    next: &str,
    method: &str,
    device: &Device,
) -> PageResult {
    match signins::begin(state.deps(), state.session_keys(), owner_id, tenant_id, method, device)
        .await
        .map_err(api_error)?
    {
        Begun::Session { session_id, refresh_token } => {
            Ok(session_cookies(state, owner_id, tenant_id, session_id, &refresh_token, next))
        }
        Begun::SecondFactor { token } => {
            let csrf = new_pre_session_token();
            let page = SecondFactorPage { csrf: csrf.clone(), next: next.to_string(), token, error: None };
            Ok(pre_session_page(state, page, &csrf))
        }
    }
}

fn session_cookies(
    state: &AppState,
    owner_id: UserId,
    tenant_id: TenantId,
    session_id: uuid::Uuid,
    refresh: &str,
    next: &str,
) -> Response {
    let token = state.session_keys().issue(owner_id, tenant_id, session_id);
    with_cookies(
        Redirect::to(next).into_response(),
        session::login_cookies(&token, state.session_keys().ttl(), refresh, state.config().secure_cookies),
    )
}

#[derive(Template)]
#[template(path = "web/second_factor.html")]
struct SecondFactorPage {
    csrf: String,
    next: String,
    /// The sign-in's second-factor token.
    token: String,
    error: Option<String>,
}

/// The code of a sign-in that asked for the second factor.
pub async fn second_factor_submit(
    State(state): State<AppState>,
    headers: HeaderMap,
    SignInDevice(device): SignInDevice,
    body: Bytes,
) -> PageResult {
    let form = Form::parse(&body);
    if !pre_session_csrf_ok(&headers, &form) {
        return Err(forbidden_csrf());
    }
    let (token, next) = (form.text("token"), safe_next(form.get("next")));
    match signins::finish(state.deps(), state.session_keys(), &token, &form.text("code"), &device).await {
        Ok((owner, tenant, session_id, refresh)) => {
            Ok(session_cookies(&state, owner, tenant, session_id, &refresh, &next))
        }
        Err(e) => {
            let error = match e {
                miniclaw_core::Error::Refused { message, .. } => message,
                e => shown(e)?,
            };
            let csrf = new_pre_session_token();
            Ok(pre_session_page(
                &state,
                SecondFactorPage { csrf: csrf.clone(), next, token, error: Some(error) },
                &csrf,
            ))
        }
    }
}

pub async fn login_submit(
    State(state): State<AppState>,
    headers: HeaderMap,
    SignInDevice(device): SignInDevice,
    body: Bytes,
) -> PageResult {
    let form = Form::parse(&body);
    let csrf = new_pre_session_token();
    let next = safe_next(form.get("next"));
    if !pre_session_csrf_ok(&headers, &form) {
        return Err(forbidden_csrf());
    }
    let email = form.text("email");
    match check_password(state.pool(), &email, form.text("password")).await.map_err(api_error)? {
        Some((owner, tenant)) => signed_in(&state, owner.id, tenant.id, &next, "password", &device).await,
        None => {
            signins::password_failed(state.pool(), &email, &device).await.map_err(internal)?;
            Ok(pre_session_page(
                &state,
                LoginPage { csrf: csrf.clone(), next, email, error: Some("Invalid email or password.".into()) },
                &csrf,
            ))
        }
    }
}

pub async fn signup_submit(
    State(state): State<AppState>,
    headers: HeaderMap,
    SignInDevice(device): SignInDevice,
    body: Bytes,
) -> PageResult {
    let form = Form::parse(&body);
    if !pre_session_csrf_ok(&headers, &form) {
        return Err(forbidden_csrf());
    }
    let email = form.text("email");
    let tenant_name = form.text("tenant_name");
    let request_id = headers.get(crate::api::REQUEST_ID).and_then(|v| v.to_str().ok());
    match create_owner(
        state.pool(),
        &email,
        form.text("password"),
        Some(tenant_name.clone()),
        request_id,
        miniclaw_domain::tenancy::accounts::NewTenant::from_config(state.config()),
    )
    .await
    {
        Ok((owner, tenant)) => {
            verify::after_signup(state.deps(), &owner, tenant.id).await;
            signed_in(&state, owner.id, tenant.id, "/agents", "signup", &device).await
        }
        Err(e) => {
            let error = Some(shown(e)?);
            let csrf = new_pre_session_token();
            let page = SignupPage { csrf: csrf.clone(), email, tenant_name, error };
            Ok(pre_session_page(&state, page, &csrf))
        }
    }
}

#[derive(Template)]
#[template(path = "web/verify_email.html")]
struct VerifyEmailPage {
    csrf: String,
    token: String,
    /// What following the link did, once the form is posted.
    done: Option<String>,
}

#[derive(Deserialize)]
pub struct TokenQuery {
    #[serde(default)]
    pub(super) token: String,
}

/// The page a mailed link opens: a button that confirms the address (a POST, so that a mail
/// scanner fetching the link proves nothing).
pub async fn verify_email_page(State(state): State<AppState>, Query(q): Query<TokenQuery>) -> Response {
    let csrf = new_pre_session_token();
    pre_session_page(&state, VerifyEmailPage { csrf: csrf.clone(), token: q.token, done: None }, &csrf)
}

pub async fn verify_email_submit(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> PageResult {
    let form = Form::parse(&body);
    if !pre_session_csrf_ok(&headers, &form) {
        return Err(forbidden_csrf());
    }
    let done = match verify::confirm(state.pool(), &form.text("token")).await {
        Ok(v) if v.purpose == "sender" => {
            format!("{} is confirmed: your agents' email now goes out from it.", v.address)
        }
        Ok(v) if v.purpose == "email_change" => {
            format!("{} is now your account's address: sign in with it from now on.", v.address)
        }
        Ok(v) => format!("{} is confirmed.", v.address),
        Err(e) => shown(e)?,
    };
    Ok(render(VerifyEmailPage { csrf: String::new(), token: String::new(), done: Some(done) }))
}

#[derive(Template)]
#[template(path = "web/reset_password.html")]
struct ResetPasswordPage {
    csrf: String,
    /// The mailed link's token; empty on the page that asks for a link.
    token: String,
    done: Option<String>,
    error: Option<String>,
}

/// The page asking for a reset link (`/forgot-password`), or, with the link's token, the one
/// setting the new password (`/reset-password`).
pub async fn reset_password_page(State(state): State<AppState>, Query(q): Query<TokenQuery>) -> Response {
    let csrf = new_pre_session_token();
    pre_session_page(&state, ResetPasswordPage { csrf: csrf.clone(), token: q.token, done: None, error: None }, &csrf)
}

pub async fn forgot_password_submit(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> PageResult {
    let form = Form::parse(&body);
    if !pre_session_csrf_ok(&headers, &form) {
        return Err(forbidden_csrf());
    }
    let page = match miniclaw_domain::tenancy::passwords::ask_reset(state.deps(), &form.text("email")).await {
        Ok(()) => ResetPasswordPage {
            csrf: String::new(),
            token: String::new(),
            done: Some("If the address has an account, a link is on its way. It works once, for an hour.".into()),
            error: None,
        },
        Err(e) => {
            let csrf = new_pre_session_token();
            let page =
                ResetPasswordPage { csrf: csrf.clone(), token: String::new(), done: None, error: Some(shown(e)?) };
            return Ok(pre_session_page(&state, page, &csrf));
        }
    };
    Ok(render(page))
}

pub async fn reset_password_submit(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> PageResult {
    let form = Form::parse(&body);
    if !pre_session_csrf_ok(&headers, &form) {
        return Err(forbidden_csrf());
    }
    let token = form.text("token");
    let request_id = headers.get(crate::api::REQUEST_ID).and_then(|v| v.to_str().ok());
    match miniclaw_domain::tenancy::passwords::reset(state.pool(), &token, form.text("password"), request_id).await {
        Ok(()) => Ok(render(ResetPasswordPage {
            csrf: String::new(),
            token: String::new(),
            done: Some("Your password is set. Every session of the account ended: sign in with it.".into()),
            error: None,
        })),
        Err(e) => {
            let csrf = new_pre_session_token();
            let page = ResetPasswordPage { csrf: csrf.clone(), token, done: None, error: Some(shown(e)?) };
            Ok(pre_session_page(&state, page, &csrf))
        }
    }
}

#[derive(Template)]
#[template(path = "web/refresh.html")]
struct RefreshPage {
    csrf: String,
    next: String,
}

/// The sign-in page, coming back to `next` afterwards; the session cookies are cleared.
fn to_login(state: &AppState, next: &str) -> Response {
    let to = format!("/login?next={}", url::form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>());
    with_cookies(Redirect::to(&to).into_response(), session::logout_cookies(state.config().secure_cookies))
}

/// The refresh cookie and the session it names, if there is one.
fn refresh_cookie(headers: &HeaderMap) -> Option<(&str, uuid::Uuid)> {
    let token = crate::auth::cookie(headers, session::REFRESH_COOKIE).filter(|t| !t.is_empty())?;
    Some((token, session::refresh_session_id(token)?))
}

/// Where an expired session is sent: a page whose form trades the refresh cookie for a new
/// session (`POST /refresh`). It changes nothing itself.
pub async fn refresh_page(State(state): State<AppState>, headers: HeaderMap, Query(q): Query<NextQuery>) -> Response {
    let next = safe_next(q.next.as_deref());
    let Some((_, sid)) = refresh_cookie(&headers) else { return to_login(&state, &next) };
    let csrf = state.session_keys().csrf_token(sid);
    let mut resp = render(RefreshPage { csrf, next });
    resp.headers_mut().insert(axum::http::header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
    resp
}

/// Trades the refresh cookie for a new session and goes back where the owner was. Two tabs
/// doing this at once both stay signed in (the session's grace window, see `auth::session`).
pub async fn refresh(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> PageResult {
    let form = Form::parse(&body);
    let next = safe_next(form.get("next"));
    let Some((token, sid)) = refresh_cookie(&headers) else { return Ok(to_login(&state, &next)) };
    if !form.get("csrf").is_some_and(|t| state.session_keys().csrf_ok(sid, t)) {
        return Err(forbidden_csrf());
    }
    match session::refresh(state.pool(), state.session_keys(), token).await.map_err(internal)? {
        Refreshed::Renewed { owner_id, tenant_id, session_id, refresh_token } => {
            let jwt = state.session_keys().issue(owner_id, tenant_id, session_id);
            Ok(with_cookies(
                Redirect::to(&next).into_response(),
                session::login_cookies(&jwt, state.session_keys().ttl(), &refresh_token, state.config().secure_cookies),
            ))
        }
        Refreshed::Reused | Refreshed::Invalid => Ok(to_login(&state, &next)),
    }
}

pub async fn logout(State(state): State<AppState>, Posted { who: web, .. }: Posted<WebOwner>) -> PageResult {
    session::revoke(state.pool(), web.owner.session_id).await.map_err(internal)?;
    Ok(with_cookies(Redirect::to("/login").into_response(), session::logout_cookies(state.config().secure_cookies)))
}
