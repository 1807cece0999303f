//! The one API error type. Every failure a client can see is one of these variants, rendered as
//! `{"error":{"code","message","details?"}}` with the matching status code. Internal errors are
//! logged with their cause and shown to the client only as a generic message.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
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

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{message}")]
    BadRequest { code: &'static str, message: String, details: Option<serde_json::Value> },
    #[error("{0}")]
    Unauthorized(String),
    #[error("{message}")]
    Forbidden { code: &'static str, message: String },
    /// The full message, e.g. "agent not found" (see `not_found`).
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("request body is larger than the limit of {limit} bytes")]
    PayloadTooLarge { limit: usize },
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{message}")]
    Unprocessable { code: &'static str, message: String, details: Option<serde_json::Value> },
    #[error("rate limit exceeded; retry in {retry_after_secs} s")]
    /// `reset_at`: when the limit resets, for limits with a fixed reset (budgets).
    RateLimited { retry_after_secs: u64, message: Option<String>, reset_at: Option<chrono::DateTime<chrono::Utc>> },
    #[error("{0}")]
    Unavailable(String),
    /// A model call the limits refuse (`budget::Refusal`): 429 `budget_exhausted` for the
    /// caller's own budgets, 503 `global_spend_cap` or `kill_switch` for the operator's limits;
    /// with `Retry-After` when it is known when to ask again.
    #[error("{message}")]
    Refused {
        status: StatusCode,
        code: &'static str,
        message: String,
        retry_after_secs: Option<u64>,
        reset_at: Option<chrono::DateTime<chrono::Utc>>,
    },
    /// An upstream (model provider) failed.
    #[error("{0}")]
    BadGateway(String),
    #[error(transparent)]
    Internal(anyhow::Error),
}

pub type ApiResult<T> = Result<T, ApiError>;

const INTERNAL_MESSAGE: &str = "internal error; the request id in x-request-id helps the operator find it";

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::BadRequest { code: "bad_request", message: message.into(), details: None }
    }

    pub fn validation(field: &str, message: impl Into<String>) -> Self {
        ApiError::BadRequest {
            code: "validation_failed",
            message: message.into(),
            details: Some(serde_json::json!({ "field": field })),
        }
    }

    /// A free-text field longer than its limit: 422 `too_long`, naming the field and the limit
    /// (in characters) in the message and in `details`.
    pub fn too_long(field: &str, limit: usize, length: usize) -> Self {
        ApiError::Unprocessable {
            code: "too_long",
            message: format!("`{field}` has {length} characters; the limit is {limit}"),
            details: Some(serde_json::json!({ "field": field, "limit": limit, "length": length })),
        }
    }

    /// `too_long` when `value` has more than `limit` characters.
    pub fn check_length(field: &str, value: &str, limit: usize) -> Result<(), ApiError> {
        let length = value.chars().count();
        if length > limit { Err(ApiError::too_long(field, limit, length)) } else { Ok(()) }
    }

    /// `what` not found, e.g. `not_found("agent")` → "agent not found".
    pub fn not_found(what: impl std::fmt::Display) -> Self {
        ApiError::NotFound(format!("{what} not found"))
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden { .. } => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Refused { status, .. } => *status,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest { code, .. } => code,
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::Forbidden { code, .. } => code,
            ApiError::NotFound(_) => "not_found",
            ApiError::Conflict(_) => "conflict",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::Unprocessable { code, .. } => code,
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::Refused { code, .. } => code,
            ApiError::BadGateway(_) => "upstream_failed",
            ApiError::Internal(_) => "internal",
        }
    }

    /// The message a client may see: never an internal error's text (that goes to the log).
    pub fn public_message(&self) -> String {
        match self {
            ApiError::Internal(_) => INTERNAL_MESSAGE.to_string(),
            other => other.to_string(),
        }
    }

    fn body(&self) -> ErrorBody {
        let (message, details) = match self {
            ApiError::Internal(_) => (INTERNAL_MESSAGE.to_string(), None),
            ApiError::BadRequest { message, details, .. } | ApiError::Unprocessable { message, details, .. } => {
                (message.clone(), details.clone())
            }
            ApiError::RateLimited { retry_after_secs, message, reset_at } => (
                message.clone().unwrap_or_else(|| self.to_string()),
                Some(match reset_at {
                    Some(at) => serde_json::json!({ "retry_after_secs": retry_after_secs, "reset_at": at }),
                    None => serde_json::json!({ "retry_after_secs": retry_after_secs }),
                }),
            ),
            ApiError::Refused { message, retry_after_secs, reset_at, .. } => (
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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(e) = &self {
            tracing::error!(error = ?e, "internal error");
        }
        let status = self.status();
        let body = self.body();
        let mut resp = (status, Json(body)).into_response();
        let retry_after = match &self {
            ApiError::RateLimited { retry_after_secs, .. } => Some(*retry_after_secs),
            ApiError::Refused { retry_after_secs, .. } => *retry_after_secs,
            _ => None,
        };
        if let Some(secs) = retry_after
            && let Ok(v) = HeaderValue::from_str(&secs.max(1).to_string())
        {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        // Unavailable is transient (the database restarting, a paused service): say when to
        // come back rather than leave clients to guess or hammer.
        if let ApiError::Unavailable(_) = &self {
            resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static(UNAVAILABLE_RETRY_SECS));
        }
        resp
    }
}

/// A model call that could not be made or failed everywhere. A budget refusal is the caller's
/// limit: 429 `budget_exhausted` with the reset time (`Retry-After` and `details.reset_at`), or
/// a few seconds when the rest of the budget is only held by turns in progress. The operator's
/// limits are not the caller's doing: the global daily cap is 503 `global_spend_cap` until
/// midnight UTC, the kill switch 503 `kill_switch` with the operator's reason and no retry
/// time. Every target failing is a 502 naming the attempts without their secrets.
impl From<crate::llm::LlmError> for ApiError {
    fn from(e: crate::llm::LlmError) -> Self {
        use crate::llm::LlmError;
        use crate::llm::budget::{HELD_RETRY_SECS, Refusal};
        match e {
            LlmError::Refused(r) => {
                let status = match r {
                    Refusal::GlobalDailyCap { .. } | Refusal::KillSwitch { .. } => StatusCode::SERVICE_UNAVAILABLE,
                    _ => StatusCode::TOO_MANY_REQUESTS,
                };
                let reset_at = r.reset_at();
                let retry_after_secs = match (&r, reset_at) {
                    (_, Some(at)) => Some((at - chrono::Utc::now()).num_seconds().max(1) as u64),
                    (Refusal::AgentTokensHeld { .. }, None) => Some(HELD_RETRY_SECS),
                    _ => None,
                };
                ApiError::Refused { status, code: r.code(), message: r.to_string(), retry_after_secs, reset_at }
            }
            // The attempts name providers' answers (which can quote a masked key or an internal
            // address): they go to the log, the client learns how many failed.
            LlmError::AllFailed { attempts } => {
                tracing::warn!(attempts = %attempts.join("; "), "every model for the role failed");
                let n = attempts.len();
                ApiError::BadGateway(format!(
                    "every model for this role failed ({n} attempt{}); try again, or regenerate the reply",
                    if n == 1 { "" } else { "s" }
                ))
            }
            LlmError::Db(e) => e.into(),
        }
    }
}

/// Internal, unless it is a saturated resource that answers "try again shortly" (429 with
/// `Retry-After`: all password-hashing slots busy) or a database that cannot be reached (503).
impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        if let Some(db) = e.chain().find_map(|c| c.downcast_ref::<sqlx::Error>())
            && database_unreachable(db)
        {
            return database_unavailable(db);
        }
        if e.is::<crate::auth::password::Busy>() {
            return ApiError::RateLimited {
                retry_after_secs: 1,
                message: Some(crate::auth::password::Busy.to_string()),
                reset_at: None,
            };
        }
        ApiError::Internal(e)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        if database_unreachable(&e) { database_unavailable(&e) } else { ApiError::Internal(e.into()) }
    }
}

/// Seconds a 503 asks clients to wait before trying again.
const UNAVAILABLE_RETRY_SECS: &str = "2";

/// The database could not be reached or is going away: no connection within the pool's acquire
/// timeout, a connection cut (the server stopped or restarted: its sessions end with SQLSTATE
/// class 08 or 57P01-57P03), too many connections, or a database closed to new connections. A
/// restart (or reopening) ends these by itself.
pub fn database_unreachable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) => {
            d.code().is_some_and(|c| c.starts_with("08") || matches!(&*c, "57P01" | "57P02" | "57P03" | "53300"))
                // A database closed to new connections (`ALLOW_CONNECTIONS false`, maintenance).
                || (d.code().as_deref() == Some("55000") && d.message().contains("not currently accepting connections"))
        }
        _ => false,
    }
}

fn database_unavailable(e: &sqlx::Error) -> ApiError {
    tracing::warn!(error = %e, "database unavailable");
    ApiError::Unavailable("the database is unavailable; try again shortly".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_hide_their_cause() {
        let err = ApiError::Internal(anyhow::anyhow!("password=hunter2 in connection string"));
        let body = serde_json::to_string(&err.body()).unwrap();
        assert!(!body.contains("hunter2"));
        assert!(body.contains("\"code\":\"internal\""));
    }

    #[test]
    fn rate_limited_sets_retry_after() {
        let resp = ApiError::RateLimited { retry_after_secs: 7, message: None, reset_at: None }.into_response();
        assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(resp.headers()[header::RETRY_AFTER], "7");
    }

    #[test]
    fn an_exhausted_budget_is_a_429_with_its_reset_time() {
        use crate::llm::{LlmError, budget::Refusal};
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
    }
}
