//! Request extractors that turn every rejection into our JSON error shape, so a malformed body,
//! path or query string gets a 4xx naming the problem instead of axum's plain-text default.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts};

use crate::error::ApiError;

/// `axum::Json` with JSON errors: 400 for syntax and shape problems, 413 when too large,
/// 415 without a JSON content type.
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        match r {
            JsonRejection::JsonSyntaxError(e) => ApiError::BadRequest {
                code: "invalid_json",
                message: format!("request body is not valid JSON: {}", source_text(&e)),
                details: None,
            },
            JsonRejection::JsonDataError(e) => ApiError::BadRequest {
                code: "invalid_body",
                message: format!("request body has the wrong shape: {}", source_text(&e)),
                details: None,
            },
            JsonRejection::MissingJsonContentType(_) => {
                ApiError::UnsupportedMediaType("expected Content-Type: application/json".into())
            }
            JsonRejection::BytesRejection(e) => {
                if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::PayloadTooLarge { limit: crate::api::body_limit() }
                } else {
                    ApiError::bad_request(format!("could not read the request body: {e}"))
                }
            }
            other => ApiError::bad_request(other.body_text()),
        }
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> Self {
        ApiError::BadRequest { code: "invalid_path", message: r.body_text(), details: None }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        ApiError::BadRequest { code: "invalid_query", message: r.body_text(), details: None }
    }
}

/// The innermost error text (serde's message with line/column), without axum's prefix.
fn source_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur: &dyn std::error::Error = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}
