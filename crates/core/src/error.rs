//! The one domain error. Every failure a caller can be told about is one of these variants; the
//! HTTP layer maps each to a status and the `{"error":{...}}` shape (miniclaw-http's `ApiError`),
//! jobs log them, and no domain code knows a status code. Internal errors keep their cause (an
//! `anyhow::Error` chain) for the log and are shown to a client only as a generic message.

use chrono::{DateTime, Utc};
use serde_json::Value;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input is malformed or a field is invalid; `details` usually names the field.
    #[error("{message}")]
    Invalid { code: &'static str, message: String, details: Option<Value> },
    /// The input is well formed but cannot be acted on as it is (too long, inconsistent).
    #[error("{message}")]
    Unprocessable { code: &'static str, message: String, details: Option<Value> },
    /// The input is larger than `limit` bytes.
    #[error("request body is larger than the limit of {limit} bytes")]
    TooLarge { limit: usize },
    /// The input comes in a form that is not understood (a content type, an encoding).
    #[error("{0}")]
    Unsupported(String),
    /// Who is asking could not be established.
    #[error("{0}")]
    Unauthenticated(String),
    /// The caller is known and is refused, for the reason given.
    #[error("{message}")]
    Refused { code: &'static str, message: String },
    /// The full message, e.g. "agent not found" (see [`Error::not_found`]).
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// A rate limit: ask again in `retry_after_secs`. `reset_at`: when the limit resets, for
    /// limits with a fixed reset.
    #[error("rate limit exceeded; retry in {retry_after_secs} s")]
    Limited { retry_after_secs: u64, message: Option<String>, reset_at: Option<DateTime<Utc>> },
    /// A budget or cap refuses the work: whose limit it is says how the caller should read it
    /// (`Limit`), with a time to ask again when one is known.
    #[error("{message}")]
    Exhausted {
        limit: Limit,
        code: &'static str,
        message: String,
        retry_after_secs: Option<u64>,
        reset_at: Option<DateTime<Utc>>,
    },
    /// A service the platform runs on is unavailable for now (the database restarting).
    #[error("{0}")]
    Unavailable(String),
    /// A service outside the platform (a model provider, a chain node) failed.
    #[error("{0}")]
    Upstream(String),
    #[error(transparent)]
    Internal(anyhow::Error),
}

/// Whose limit an [`Error::Exhausted`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// The caller's own budget (an agent's daily tokens, a tenant's month).
    Caller,
    /// The operator's limit for everyone (the global daily cap, the kill switch).
    Operator,
    /// Nothing is left to pay with (credits).
    Payment,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn bad_request(message: impl Into<String>) -> Self {
        Error::Invalid { code: "bad_request", message: message.into(), details: None }
    }

    /// A field that fails validation: `validation_failed`, naming the field in `details`.
    pub fn validation(field: &str, message: impl Into<String>) -> Self {
        Error::Invalid {
            code: "validation_failed",
            message: message.into(),
            details: Some(serde_json::json!({ "field": field })),
        }
    }

    /// A free-text field longer than its limit: `too_long`, naming the field and the limit
    /// (in characters) in the message and in `details`.
    pub fn too_long(field: &str, limit: usize, length: usize) -> Self {
        Error::Unprocessable {
            code: "too_long",
            message: format!("`{field}` has {length} characters; the limit is {limit}"),
            details: Some(serde_json::json!({ "field": field, "limit": limit, "length": length })),
        }
    }

    /// `too_long` when `value` has more than `limit` characters.
    pub fn check_length(field: &str, value: &str, limit: usize) -> Result<()> {
        let length = value.chars().count();
        if length > limit { Err(Error::too_long(field, limit, length)) } else { Ok(()) }
    }

    /// A validation error of a part of a larger input, named from the whole: `within("memories[3]")`
    /// turns the field `content` into `memories[3].content`, in the message and in `details`.
    /// Other errors pass unchanged.
    pub fn within(self, path: &str) -> Self {
        let field = |details: &Option<serde_json::Value>| match details.as_ref().and_then(|d| d["field"].as_str()) {
            Some(f) if !f.is_empty() => format!("{path}.{f}"),
            _ => path.to_string(),
        };
        match self {
            Error::Invalid { code, message, details } => Error::Invalid {
                code,
                message: format!("{path}: {message}"),
                details: Some(serde_json::json!({ "field": field(&details) })),
            },
            Error::Unprocessable { code, message, details } => {
                let mut d = details.clone().unwrap_or_else(|| serde_json::json!({}));
                d["field"] = serde_json::json!(field(&details));
                Error::Unprocessable { code, message: format!("{path}: {message}"), details: Some(d) }
            }
            other => other,
        }
    }

    /// `what` not found, e.g. `not_found("agent")` → "agent not found".
    /// A limit of the day (UTC) reached: 429 until midnight UTC, saying `message`.
    pub fn limited_until_midnight(message: impl Into<String>) -> Self {
        let now = Utc::now();
        let midnight = now.date_naive().succ_opt().and_then(|d| d.and_hms_opt(0, 0, 0)).map(|t| t.and_utc());
        let reset = midnight.unwrap_or(now + chrono::Duration::days(1));
        Error::Limited {
            retry_after_secs: (reset - now).num_seconds().max(1) as u64,
            message: Some(message.into()),
            reset_at: Some(reset),
        }
    }

    pub fn not_found(what: impl std::fmt::Display) -> Self {
        Error::NotFound(format!("{what} not found"))
    }

    /// The stable machine-readable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Invalid { code, .. } | Error::Unprocessable { code, .. } => code,
            Error::TooLarge { .. } => "payload_too_large",
            Error::Unsupported(_) => "unsupported_media_type",
            Error::Unauthenticated(_) => "unauthorized",
            Error::Refused { code, .. } => code,
            Error::NotFound(_) => "not_found",
            Error::Conflict(_) => "conflict",
            Error::Limited { .. } => "rate_limited",
            Error::Exhausted { code, .. } => code,
            Error::Unavailable(_) => "unavailable",
            Error::Upstream(_) => "upstream_failed",
            Error::Internal(_) => "internal",
        }
    }

    /// The message a caller may see: never an internal error's text (that goes to the log).
    pub fn public_message(&self) -> String {
        match self {
            Error::Internal(_) => INTERNAL_MESSAGE.to_string(),
            other => other.to_string(),
        }
    }
}

/// What a caller is told about an internal error.
pub const INTERNAL_MESSAGE: &str = "internal error; the request id in x-request-id helps the operator find it";

/// Every password-hashing slot is taken: a saturated resource that answers "try again shortly".
#[derive(Debug, thiserror::Error)]
#[error("the server is busy checking passwords; try again in a moment")]
pub struct Busy;

/// Internal, unless it is a saturated resource (`Busy`: limited, retry in a second) or a
/// database that cannot be reached (unavailable). The cause stays in the chain.
impl From<anyhow::Error> for Error {
    fn from(e: anyhow::Error) -> Self {
        if let Some(db) = e.chain().find_map(|c| c.downcast_ref::<sqlx::Error>())
            && database_unreachable(db)
        {
            return database_unavailable(db);
        }
        if e.is::<Busy>() {
            return Error::Limited { retry_after_secs: 1, message: Some(Busy.to_string()), reset_at: None };
        }
        Error::Internal(e)
    }
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        if database_unreachable(&e) { database_unavailable(&e) } else { Error::Internal(e.into()) }
    }
}

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

fn database_unavailable(e: &sqlx::Error) -> Error {
    tracing::warn!(error = %e, "database unavailable");
    Error::Unavailable("the database is unavailable; try again shortly".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_daily_limit_resets_at_the_next_utc_midnight() {
        let Error::Limited { retry_after_secs, message, reset_at: Some(reset) } =
            Error::limited_until_midnight("twenty a day")
        else {
            panic!("a rate limit");
        };
        assert_eq!(message.as_deref(), Some("twenty a day"));
        assert_eq!(reset.time(), chrono::NaiveTime::MIN);
        assert!(reset > Utc::now() && (1..=86_400).contains(&retry_after_secs), "{reset} {retry_after_secs}");
    }

    #[test]
    fn internal_errors_keep_their_cause_but_not_in_the_public_message() {
        let err: Error = anyhow::anyhow!("password=hunter2 in connection string").into();
        assert!(matches!(err, Error::Internal(_)));
        assert!(format!("{err:?}").contains("hunter2"), "the log keeps the cause");
        assert!(!err.public_message().contains("hunter2"));
        assert_eq!(err.code(), "internal");
    }

    #[test]
    fn a_busy_slot_is_a_short_limit_and_a_closed_pool_is_unavailable() {
        let busy: Error = anyhow::Error::new(Busy).into();
        assert!(matches!(busy, Error::Limited { retry_after_secs: 1, .. }), "{busy:?}");
        let closed: Error = sqlx::Error::PoolClosed.into();
        assert!(matches!(closed, Error::Unavailable(_)), "{closed:?}");
        let wrapped: Error = anyhow::Error::new(sqlx::Error::PoolTimedOut).context("reading").into();
        assert!(matches!(wrapped, Error::Unavailable(_)), "{wrapped:?}");
    }

    #[test]
    fn lengths_are_counted_in_characters() {
        assert!(Error::check_length("name", "ééé", 3).is_ok());
        let err = Error::check_length("name", "éééé", 3).unwrap_err();
        assert_eq!(err.code(), "too_long");
        assert!(err.to_string().contains("`name` has 4 characters"), "{err}");
    }
}
