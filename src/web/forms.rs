//! Form plumbing for the dashboard: urlencoded bodies with repeated keys (checkbox lists), the
//! pre-session CSRF cookie of the sign-in and sign-up forms, and safe post-login destinations.
//! (The session CSRF check of every other form is the `Posted` extractor in `extract.rs`.)

use rand::RngCore;

use crate::auth::session;

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
