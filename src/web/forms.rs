//! Form plumbing for the dashboard: urlencoded bodies with repeated keys (checkbox lists),
//! the signed-in owner as an extractor that redirects to the login page, and CSRF checks.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Redirect, Response};
use rand::RngCore;

use crate::app::AppState;
use crate::auth::extract::owner_from_parts;
use crate::auth::{Owner, session};

pub const PRE_SESSION_CSRF_COOKIE: &str = "mc_csrf";

/// A parsed `application/x-www-form-urlencoded` body.
pub struct Form(Vec<(String, String)>);

impl Form {
    /// Parses a form body. NUL characters, which no field may hold, are dropped.
    pub fn parse(body: &[u8]) -> Self {
        Form(url::form_urlencoded::parse(body).map(|(k, v)| (k.replace('\0', ""), v.replace('\0', ""))).collect())
    }
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
    pub fn text(&self, key: &str) -> String {
        self.get(key).unwrap_or_default().to_string()
    }
    pub fn all(&self, key: &str) -> Vec<String> {
        self.0.iter().filter(|(k, _)| k == key).map(|(_, v)| v.clone()).collect()
    }
    pub fn checked(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// The signed-in owner of a dashboard page; anyone else is sent to sign in (or to refresh an
/// expired session first).
pub struct WebOwner {
    pub owner: Owner,
    pub csrf: String,
}

impl FromRequestParts<AppState> for WebOwner {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match owner_from_parts(parts, state).await {
            Ok(Some(owner)) => {
                let csrf = state.session_keys().csrf_token(owner.session_id);
                Ok(WebOwner { owner, csrf })
            }
            Ok(None) | Err(_) => {
                let next = parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/agents");
                let next = url::form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>();
                let target = if session::cookie(&parts.headers, session::REFRESH_COOKIE).is_some_and(|c| !c.is_empty())
                {
                    format!("/refresh?next={next}")
                } else {
                    format!("/login?next={next}")
                };
                Err(Redirect::to(&target).into_response())
            }
        }
    }
}

impl WebOwner {
    pub fn csrf_ok(&self, state: &AppState, form: &Form) -> bool {
        form.get("csrf").is_some_and(|t| state.session_keys().csrf_ok(self.owner.session_id, t))
    }
}

/// A fresh double-submit token for the sign-in and sign-up forms.
pub fn new_pre_session_token() -> String {
    let mut raw = [0u8; 16];
    rand::rng().fill_bytes(&mut raw);
    hex::encode(raw)
}

pub fn pre_session_csrf_ok(headers: &axum::http::HeaderMap, form: &Form) -> bool {
    use subtle::ConstantTimeEq;
    match (session::cookie(headers, PRE_SESSION_CSRF_COOKIE), form.get("csrf")) {
        (Some(c), Some(f)) if !c.is_empty() && c.len() == f.len() => c.as_bytes().ct_eq(f.as_bytes()).into(),
        _ => false,
    }
}

/// Only same-site relative paths are allowed as post-login destinations.
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') => n.to_string(),
        _ => "/agents".to_string(),
    }
}
