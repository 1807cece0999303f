//! Idempotency keys (SPEC H5), as Stripe's and OpenAI's clients send them: a write request
//! (POST, PUT, PATCH, DELETE) with an `Idempotency-Key` header runs once per key and
//! credential. Its answer is kept for 24 hours and given again to a retry, marked
//! `Idempotent-Replayed: true` — a chat turn retried after a dropped connection returns the
//! first turn's reply instead of running a second. The same key with another request (method,
//! path, query or body) is 422 `idempotency_key_reused`; a retry while the first still runs is
//! 409 `idempotency_in_progress`. A server error, or an answer streamed as events, is not kept:
//! the key is free again (a stream resumes by its reply instead). A request without a
//! credential (sign-up, sign-in) is not keyed.

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use sqlx::PgPool;

use crate::app::AppState;
use crate::error::ApiError;
use miniclaw_core::Error;
use miniclaw_domain::tenancy::auth::session::SESSION_COOKIE;
use miniclaw_platform::idempotency::{self as store, Held};

/// The request header naming the key.
pub const HEADER: &str = "idempotency-key";
/// The response header saying an answer is a replay.
pub const REPLAYED: &str = "idempotent-replayed";
/// The longest answer kept; a longer one frees its key (such answers are lists, not writes).
const KEEP_MAX_BYTES: usize = 1 << 20;

/// The middleware: see the module's documentation.
pub async fn keyed(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if !matches!(*req.method(), Method::POST | Method::PUT | Method::PATCH | Method::DELETE) {
        return next.run(req).await;
    }
    let Some(key) = req.headers().get(HEADER).map(|v| v.to_str().map(str::trim).map(str::to_string)) else {
        return next.run(req).await;
    };
    let key = match key {
        Ok(k) if !k.is_empty() && k.len() <= 255 => k,
        _ => return ApiError::validation(HEADER, "Idempotency-Key must be 1–255 visible characters").into_response(),
    };
    let headers = req.headers();
    let Some(credential) = crate::auth::bearer(headers).or_else(|| crate::auth::cookie(headers, SESSION_COOKIE)) else {
        return next.run(req).await;
    };
    let credential = Sha256::digest(credential.as_bytes()).to_vec();
    let (parts, body) = req.into_parts();
    // The body limit layer has bounded it already.
    let body = match to_bytes(body, usize::MAX).await {
        Ok(b) => b,
        Err(_) => return ApiError(Error::TooLarge { limit: 0 }).into_response(),
    };
    let mut h = Sha256::new();
    h.update(parts.method.as_str().as_bytes());
    h.update(b"\0");
    h.update(parts.uri.path_and_query().map_or("", |p| p.as_str()).as_bytes());
    h.update(b"\0");
    h.update(&body);
    let request = h.finalize().to_vec();
    let pool = state.pool();
    match store::claim(pool, &credential, &key, &request).await {
        Err(e) => return ApiError(e.into()).into_response(),
        Ok(held) => {
            if let Some(resp) = answer(held) {
                return resp;
            }
        }
    }
    let resp = next.run(Request::from_parts(parts, Body::from(body))).await;
    keep(pool, &credential, &key, resp).await
}

/// Answers with what the key holds, when it is not this request's to run.
fn answer(held: Held) -> Option<Response> {
    match held {
        Held::Taken => None,
        Held::Reused => Some(
            ApiError(Error::Unprocessable {
                code: "idempotency_key_reused",
                message: "this Idempotency-Key was used for another request; use a new key for a new request".into(),
                details: None,
            })
            .into_response(),
        ),
        Held::Running => Some(
            ApiError(Error::Conflict(
                "a request with this Idempotency-Key is still running; retry when it has answered".into(),
            ))
            .into_response(),
        ),
        Held::Answered { status, content_type, body } => {
            let mut resp = Response::new(Body::from(body));
            *resp.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
            if let Some(ct) = content_type.and_then(|c| HeaderValue::from_str(&c).ok()) {
                resp.headers_mut().insert(header::CONTENT_TYPE, ct);
            }
            resp.headers_mut().insert(REPLAYED, HeaderValue::from_static("true"));
            Some(resp)
        }
    }
}

/// Keeps the answer for the key, or frees the key (a server error, a stream, a large answer).
async fn keep(pool: &PgPool, credential: &[u8], key: &str, resp: Response) -> Response {
    let content_type = resp.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
    let streaming = content_type.as_deref().is_some_and(|c| c.starts_with("text/event-stream"));
    if resp.status().is_server_error() || streaming {
        if let Err(e) = store::free(pool, credential, key).await {
            tracing::warn!(error = %e, "could not free an idempotency key");
        }
        return resp;
    }
    let (parts, body) = resp.into_parts();
    let bytes = match to_bytes(body, usize::MAX).await {
        Ok(b) => b,
        Err(e) => {
            let _ = store::free(pool, credential, key).await;
            return ApiError(Error::Internal(anyhow::anyhow!("reading an answer to keep: {e}"))).into_response();
        }
    };
    let kept = if bytes.len() > KEEP_MAX_BYTES {
        store::free(pool, credential, key).await
    } else {
        store::keep(pool, credential, key, parts.status.as_u16(), content_type.as_deref(), &bytes).await
    };
    if let Err(e) = kept {
        tracing::warn!(error = %e, "could not keep an idempotent answer");
    }
    Response::from_parts(parts, Body::from(bytes))
}
