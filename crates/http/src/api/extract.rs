//! Request extractors that turn every rejection into our JSON error shape, so a malformed body,
//! path or query string gets a 4xx naming the problem instead of axum's plain-text default.

use axum::body::Bytes;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header;
use miniclaw_core::Error;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON body. 400 for syntax and shape problems (naming them), 413 when too large, 415
/// without a JSON content type, and 400 for strings containing NUL, which PostgreSQL text
/// cannot hold.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T, S> FromRequest<S> for Json<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|mime| {
                let mime = mime.trim().to_ascii_lowercase();
                mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
            })
            .unwrap_or(false);
        if !is_json {
            return Err(ApiError(Error::Unsupported("expected Content-Type: application/json".into())));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError(Error::TooLarge { limit: crate::api::body_limit() })
            } else {
                ApiError::bad_request(format!("could not read the request body: {e}"))
            }
        })?;
        from_bytes(&bytes).map(Json)
    }
}

/// A JSON body already read (for routes that check the raw bytes first, such as a signed
/// webhook), with the same checks and errors as [`Json`].
/// The request's id (set by the request-id layer), for the activity log.
pub fn request_id(headers: &axum::http::HeaderMap) -> Option<String> {
    headers.get(crate::api::REQUEST_ID).and_then(|v| v.to_str().ok()).map(str::to_string)
}

pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if contains_nul_escape(bytes) {
        return Err(ApiError(Error::Invalid {
            code: "invalid_body",
            message: "strings may not contain NUL (\\u0000) characters".into(),
            details: None,
        }));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        body_error(&path, e.into_inner())
    })?;
    // Trailing characters after the value are a syntax error too.
    de.end().map_err(|e| body_error("", e))?;
    Ok(value)
}

/// 400 naming the problem and, for shape errors, the field (`kind`, `scopes[2]`, ...).
fn body_error(path: &str, e: serde_json::Error) -> ApiError {
    use serde_json::error::Category;
    let (code, what) = match e.classify() {
        Category::Data => ("invalid_body", "request body has the wrong shape"),
        _ => ("invalid_json", "request body is not valid JSON"),
    };
    let message = if path.is_empty() || path == "." { format!("{what}: {e}") } else { format!("{what}: {path}: {e}") };
    ApiError(Error::Invalid { code, message, details: None })
}

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

/// Whether a JSON text contains the escape `\u0000` (a raw NUL byte is not valid JSON anyway).
/// Escaped backslashes are skipped, so the literal text `\\u0000` is not mistaken for one.
pub fn contains_nul_escape(json: &[u8]) -> bool {
    let mut i = 0;
    while i < json.len() {
        if json[i] == b'\\' {
            if json.get(i + 1) == Some(&b'u') && json.get(i + 2..i + 6) == Some(b"0000") {
                return true;
            }
            i += 2; // skip the escaped character
        } else {
            i += 1;
        }
    }
    false
}

#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> Self {
        ApiError(Error::Invalid { code: "invalid_path", message: r.body_text(), details: None })
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        ApiError(Error::Invalid { code: "invalid_query", message: r.body_text(), details: None })
    }
}

#[cfg(test)]
mod tests {
    use super::contains_nul_escape;

    #[test]
    fn finds_nul_escapes_but_not_escaped_backslashes() {
        assert!(contains_nul_escape(br#"{"a":"x\u0000y"}"#));
        assert!(contains_nul_escape(br#"{"a":"\\\u0000"}"#));
        assert!(!contains_nul_escape(br#"{"a":"\\u0000"}"#), "an escaped backslash then text");
        assert!(!contains_nul_escape(br#"{"a":"\u0001"}"#));
    }
}
