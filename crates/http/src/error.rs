//! The HTTP face of the domain error: `ApiError` wraps `miniclaw_core::Error` and is the only
//! place that knows which status each variant is. Every failure a client sees is rendered as
//! `{"error":{"code","message","details?"}}`; internal errors are logged with their cause and
//! shown to the client only as a generic message.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use miniclaw_core::Error;
use miniclaw_core::error::{INTERNAL_MESSAGE, Limit};
use serde::Serialize;
use utoipa::ToSchema;

/// JSON body of every error response.
#[derive(Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable machine-readable code, e.g. `not_found`, `invalid_json`.
    pub code: String,
    /// Human-readable explanation; safe to show to a user.
    pub message: String,
    /// Extra structured context (the offending field, allowed values, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub details: Option<serde_json::Value>,
}

/// A domain error on its way to an HTTP client.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct ApiError(pub Error);

pub type ApiResult<T> = Result<T, ApiError>;

/// Everything that becomes a domain error becomes an `ApiError` the same way.
macro_rules! through_the_domain_error {
    ($($from:ty),+ $(,)?) => {$(
        impl From<$from> for ApiError {
            fn from(e: $from) -> Self {
                ApiError(e.into())
            }
        }
    )+};
}

through_the_domain_error!(Error, anyhow::Error, sqlx::Error, miniclaw_platform::llm::LlmError);

/// Back to the domain error, for code that mixes HTTP helpers into a domain flow.
impl From<ApiError> for Error {
    fn from(e: ApiError) -> Self {
        e.0
    }
}

/// A domain error rendered as a response directly (dashboard pages that handle a domain
/// result themselves).
pub trait ErrorResponse {
    fn into_response(self) -> Response;
}

impl ErrorResponse for Error {
    fn into_response(self) -> Response {
        ApiError(self).into_response()
    }
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError(Error::bad_request(message))
    }

    pub fn validation(field: &str, message: impl Into<String>) -> Self {
        ApiError(Error::validation(field, message))
    }

    pub fn too_long(field: &str, limit: usize, length: usize) -> Self {
        ApiError(Error::too_long(field, limit, length))
    }

    pub fn check_length(field: &str, value: &str, limit: usize) -> Result<(), ApiError> {
        Ok(Error::check_length(field, value, limit)?)
    }

    pub fn not_found(what: impl std::fmt::Display) -> Self {
        ApiError(Error::not_found(what))
    }

    /// The domain error inside.
    pub fn error(&self) -> &Error {
        &self.0
    }

    pub fn status(&self) -> StatusCode {
        status(&self.0)
    }

    pub fn code(&self) -> &'static str {
        self.0.code()
    }

    /// The message a client may see: never an internal error's text (that goes to the log).
    pub fn public_message(&self) -> String {
        self.0.public_message()
    }

    fn body(&self) -> ErrorBody {
        let (message, details) = match &self.0 {
            Error::Internal(_) => (INTERNAL_MESSAGE.to_string(), None),
            Error::Invalid { message, details, .. } | Error::Unprocessable { message, details, .. } => {
                (message.clone(), details.clone())
            }
            Error::Limited { retry_after_secs, message, reset_at } => (
                message.clone().unwrap_or_else(|| self.0.to_string()),
                Some(match reset_at {
                    Some(at) => serde_json::json!({ "retry_after_secs": retry_after_secs, "reset_at": at }),
                    None => serde_json::json!({ "retry_after_secs": retry_after_secs }),
                }),
            ),
            Error::Exhausted { message, retry_after_secs, reset_at, .. } => (
                message.clone(),
                retry_after_secs.map(|secs| match reset_at {
                    Some(at) => serde_json::json!({ "retry_after_secs": secs, "reset_at": at }),
                    None => serde_json::json!({ "retry_after_secs": secs }),
                }),
            ),
            other => (other.to_string(), None),
        };
        ErrorBody { error: ErrorDetail { code: self.code().to_string(), message, details } }
    }
}

/// The status of each domain error: the one mapping from the domain to HTTP.
pub fn status(e: &Error) -> StatusCode {
    match e {
        Error::Invalid { .. } => StatusCode::BAD_REQUEST,
        Error::Unauthenticated(_) => StatusCode::UNAUTHORIZED,
        Error::Refused { .. } => StatusCode::FORBIDDEN,
        Error::NotFound(_) => StatusCode::NOT_FOUND,
        Error::Conflict(_) => StatusCode::CONFLICT,
        Error::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        Error::Unsupported(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        Error::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        Error::Limited { .. } => StatusCode::TOO_MANY_REQUESTS,
        Error::Exhausted { limit: Limit::Caller, .. } => StatusCode::TOO_MANY_REQUESTS,
        Error::Exhausted { limit: Limit::Operator, .. } => StatusCode::SERVICE_UNAVAILABLE,
        Error::Exhausted { limit: Limit::Payment, .. } => StatusCode::PAYMENT_REQUIRED,
        Error::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        Error::Upstream(_) => StatusCode::BAD_GATEWAY,
        Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Renders a bare status as our error shape; used where a layer produced a plain error response.
pub fn status_body(status: StatusCode) -> ErrorBody {
    let (code, message) = match status {
        StatusCode::NOT_FOUND => ("not_found", "no such route"),
        StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", "this route does not accept that method"),
        StatusCode::PAYLOAD_TOO_LARGE => ("payload_too_large", "request body is larger than the limit"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ("unsupported_media_type", "expected Content-Type: application/json"),
        StatusCode::REQUEST_TIMEOUT => ("timeout", "the request took too long"),
        StatusCode::BAD_REQUEST => ("bad_request", "the request could not be understood"),
        StatusCode::TOO_MANY_REQUESTS => ("rate_limited", "rate limit exceeded"),
        StatusCode::SERVICE_UNAVAILABLE => ("unavailable", "service unavailable"),
        s if s.is_server_error() => ("internal", "internal error"),
        _ => ("error", "request failed"),
    };
    ErrorBody { error: ErrorDetail { code: code.into(), message: message.into(), details: None } }
}

/// Seconds a 503 asks clients to wait before trying again.
const UNAVAILABLE_RETRY_SECS: &str = "2";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Error::Internal(e) = &self.0 {
            tracing::error!(error = ?e, "internal error");
        }
        let status = self.status();
        let body = self.body();
        let mut resp = (status, Json(body)).into_response();
        let retry_after = match &self.0 {
            Error::Limited { retry_after_secs, .. } => Some(*retry_after_secs),
            Error::Exhausted { retry_after_secs, .. } => *retry_after_secs,
            _ => None,
        };
        if let Some(secs) = retry_after
            && let Ok(v) = HeaderValue::from_str(&secs.max(1).to_string())
        {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        // Unavailable is transient (the database restarting, a paused service): say when to
        // come back rather than leave clients to guess or hammer.
        if let Error::Unavailable(_) = &self.0 {
            resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static(UNAVAILABLE_RETRY_SECS));
        }
        resp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_hide_their_cause() {
        let err = ApiError(Error::Internal(anyhow::anyhow!("password=hunter2 in connection string")));
        let body = serde_json::to_string(&err.body()).unwrap();
        assert!(!body.contains("hunter2"));
        assert!(body.contains("\"code\":\"internal\""));
    }

    #[test]
    fn rate_limited_sets_retry_after() {
        let resp = ApiError(Error::Limited { retry_after_secs: 7, message: None, reset_at: None }).into_response();
        assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(resp.headers()[header::RETRY_AFTER], "7");
    }

    #[test]
    fn an_exhausted_budget_is_a_429_with_its_reset_time() {
        use miniclaw_platform::llm::{LlmError, budget::Refusal};
        let reset_at = chrono::Utc::now() + chrono::Duration::hours(3);
        let err: ApiError = LlmError::Refused(Refusal::AgentDailyTokens { budget: 100, used: 120, reset_at }).into();
        assert_eq!(err.status(), StatusCode::TOO_MANY_REQUESTS);
        let body = serde_json::to_value(err.body()).unwrap();
        assert_eq!(body["error"]["details"]["reset_at"], serde_json::json!(reset_at));
        let secs = body["error"]["details"]["retry_after_secs"].as_u64().unwrap();
        assert!((3 * 3600 - 5..=3 * 3600).contains(&secs), "{secs}");
        assert_eq!(err.code(), "budget_exhausted");
        let paused: ApiError =
            LlmError::Refused(Refusal::KillSwitch { scope: "global".into(), reason: "x".into() }).into();
        assert_eq!((paused.status(), paused.code()), (StatusCode::SERVICE_UNAVAILABLE, "kill_switch"));
        assert!(paused.into_response().headers().get(header::RETRY_AFTER).is_none(), "no time is known");
        let capped: ApiError = LlmError::Refused(Refusal::GlobalDailyCap { cap: 50.0, spent: 50.1, reset_at }).into();
        assert_eq!((capped.status(), capped.code()), (StatusCode::SERVICE_UNAVAILABLE, "global_spend_cap"));
        assert!(capped.into_response().headers().contains_key(header::RETRY_AFTER));
        let held: ApiError = LlmError::Refused(Refusal::AgentTokensHeld { budget: 100, used: 90 }).into();
        assert_eq!((held.status(), held.code()), (StatusCode::TOO_MANY_REQUESTS, "budget_exhausted"));
        assert_eq!(held.into_response().headers()[header::RETRY_AFTER], "5");
        let failed: ApiError = LlmError::AllFailed { attempts: vec!["openai/gpt-5-mini: HTTP 500".into()] }.into();
        assert_eq!((failed.status(), failed.code()), (StatusCode::BAD_GATEWAY, "upstream_failed"));
        let broke = ApiError(Error::Exhausted {
            limit: Limit::Payment,
            code: "insufficient_credits",
            message: "x".into(),
            retry_after_secs: None,
            reset_at: None,
        });
        assert_eq!(broke.status(), StatusCode::PAYMENT_REQUIRED);
    }
}
