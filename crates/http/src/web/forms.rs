//! Form plumbing for the dashboard: urlencoded bodies with repeated keys (checkbox lists), the
//! pre-session CSRF cookie of the sign-in and sign-up forms, and safe post-login destinations.
//! (The session CSRF check of every other form is the `Posted` extractor in `extract.rs`.)

use rand::RngCore;

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
    match (crate::auth::cookie(headers, PRE_SESSION_CSRF_COOKIE), form.get("csrf")) {
        (Some(c), Some(f)) if !c.is_empty() && c.len() == f.len() => c.as_bytes().ct_eq(f.as_bytes()).into(),
        _ => false,
    }
}

/// Where to go after signing in (or refreshing): the `next` the page was given if it is
/// certainly a path on this site, otherwise `/agents`. Browsers are lenient with what follows
/// a `Location`: they drop tabs and newlines (`/\t/evil.example` becomes `//evil.example`, another
/// site), read `\` as `/`, and some servers decode `%2F`. So `next` must start with exactly one
/// `/`, hold only visible ASCII (no whitespace, no control characters), no backslash and no `//`,
/// and all of that also once percent-decoded.
pub fn safe_next(next: Option<&str>) -> String {
    const MAX: usize = 2048;
    let plain = |s: &str| {
        s.starts_with('/') && s.chars().all(|c| c.is_ascii_graphic()) && !s.contains('\\') && !s.contains("//")
    };
    match next {
        Some(n)
            if n.len() <= MAX && plain(n) && plain(&percent_encoding::percent_decode_str(n).decode_utf8_lossy()) =>
        {
            n.to_string()
        }
        _ => "/agents".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn only_plain_same_site_paths_are_destinations() {
        for ok in ["/agents", "/agents/0195/chat?c=0195#latest", "/agents/x/memories?q=jazz+clubs&status=active"] {
            assert_eq!(safe_next(Some(ok)), ok);
        }
        for bad in [
            "//evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r\n/evil.example",
            "/%09/evil.example",
            "/%0a/evil.example",
            "/%2F/evil.example",
            "/%2f%2fevil.example",
            "/%5Cevil.example",
            "/\\evil.example",
            "\\/evil.example",
            "/ /evil.example",
            "/\u{a0}/evil.example",
            "/\u{2028}/evil.example",
            "/agents/\u{0}",
            "/a//b",
            "https://evil.example/",
            "evil.example",
            "",
            " /agents",
            "/agents ",
            "/café",
        ] {
            assert_eq!(safe_next(Some(bad)), "/agents", "{bad:?}");
        }
        assert_eq!(safe_next(None), "/agents");
        assert_eq!(safe_next(Some(&format!("/{}", "a".repeat(3000)))), "/agents");
    }
}
