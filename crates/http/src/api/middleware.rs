//! Cross-cutting HTTP behaviour: spans with request ids, latency metrics per route, the
//! guarantee that every error response has the JSON error shape, and a deadline for request
//! bodies.

use crate::error::ErrorResponse as _;
use miniclaw_core::Error;
use std::any::Any;
use std::time::Instant;

use axum::body::Body;
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{HeaderValue, Response, header};
use axum::middleware::Next;
use axum::response::IntoResponse;

use crate::error::{ApiError, status_body};

/// The request's span: its id, method and path for the logs; for traces also the route, the
/// status and the tenant and agent (recorded as they become known), under the caller's span
/// when the request carries W3C trace context.
pub fn span_for(req: &Request<Body>) -> tracing::Span {
    let request_id = req.headers().get(super::REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
    let span = tracing::info_span!(
        "request",
        otel.name = %req.method(),
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
        request_id = %request_id,
        method = %req.method(),
        path = %req.uri().path(),
        http.route = tracing::field::Empty,
        http.response.status_code = tracing::field::Empty,
        tenant.id = tracing::field::Empty,
        agent.id = tracing::field::Empty,
    );
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    miniclaw_platform::telemetry::adopt_remote_parent(&span, header("traceparent"), header("tracestate"));
    span
}

/// Counts and times every matched request by route template (never by raw path, which would
/// make one series per id).
pub async fn record_metrics(req: Request, next: Next) -> axum::response::Response {
    let route =
        req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_owned()).unwrap_or_else(|| "unmatched".into());
    let method = req.method().to_string();
    let start = Instant::now();
    let span = tracing::Span::current();
    miniclaw_platform::telemetry::rename(&span, format!("{method} {route}"));
    span.record("http.route", route.as_str());
    let resp = next.run(req).await;
    span.record("http.response.status_code", i64::from(resp.status().as_u16()));
    if resp.status().is_server_error() {
        span.record("otel.status_code", "ERROR");
    }
    let status = resp.status().as_u16().to_string();
    let elapsed = start.elapsed().as_secs_f64();
    metrics::counter!("http_requests_total", "method" => method.clone(), "route" => route.clone(), "status" => status)
        .increment(1);
    metrics::histogram!("http_request_duration_seconds", "method" => method, "route" => route).record(elapsed);
    resp
}

/// Replaces the body of any error response that is neither JSON nor a dashboard page (axum's
/// 405, a layer's 413, ...) with our error shape, keeping status and headers.
pub async fn json_errors(resp: axum::response::Response) -> axum::response::Response {
    let status = resp.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return resp;
    }
    // JSON errors stay, and so do the dashboard's own error pages (HTML with a way back).
    let shaped = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json") || ct.starts_with("text/html"));
    if shaped {
        return resp;
    }
    let (mut parts, _) = resp.into_parts();
    let body = serde_json::to_vec(&status_body(status)).unwrap_or_default();
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    parts.headers.remove(header::CONTENT_LENGTH);
    axum::response::Response::from_parts(parts, Body::from(body))
}

/// A handler panic becomes a JSON 500 (the panic text is logged, not sent).
pub fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response<Body> {
    let msg = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into());
    Error::Internal(anyhow::anyhow!("handler panicked: {msg}")).into_response()
}

/// Per-client-address rate limit (SPEC A6). Health and metrics endpoints are exempt so that
/// monitoring never trips it.
pub async fn limit_per_ip(
    State(state): State<crate::app::AppState>,
    req: Request,
    next: Next,
) -> axum::response::Response {
    if let Some(limiter) = state.ip_limiter() {
        let path = req.uri().path();
        let exempt = matches!(path, "/healthz" | "/readyz" | "/metrics") || path.starts_with("/static/");
        if !exempt
            && let Some(ConnectInfo(addr)) = req.extensions().get::<ConnectInfo<std::net::SocketAddr>>()
            && let Err(retry_after_secs) = limiter.check(&crate::ratelimit::client_bucket(
                addr.ip(),
                req.headers(),
                &state.config().trusted_proxies,
            ))
        {
            return Error::Limited {
                retry_after_secs,
                message: Some("too many requests from this address".into()),
                reset_at: None,
            }
            .into_response();
        }
    }
    next.run(req).await
}

/// Paid work a request for one agent makes (its embeddings) is that agent's account's to pay:
/// the agent named by an API path (`/v1/hosted-agents/{id}/…`) or a dashboard page
/// (`/agents/{id}/…`). The id is only a label here: a request for an agent its caller may not
/// reach is refused by its extractor before anything is embedded. Work for no agent in the
/// path (the OpenAI-compatible route, MCP, A2A) names its agent where it knows it.
pub async fn paid_by_agent(req: Request, next: Next) -> axum::response::Response {
    match crate::reads::agent_in_path(req.uri().path()) {
        Some(agent) => {
            let payer = miniclaw_platform::llm::spend::Payer::agent(agent);
            miniclaw_platform::embed::paid_by(payer, next.run(req)).await
        }
        None => next.run(req).await,
    }
}

/// PostgreSQL text cannot hold NUL; refuse it in the URL (path or query) up front rather than
/// fail deep inside a query.
pub async fn reject_nul_in_uri(req: Request, next: Next) -> axum::response::Response {
    let has_nul = req.uri().path_and_query().is_some_and(|pq| {
        let s = pq.as_str().as_bytes();
        s.windows(3).any(|w| w[0] == b'%' && w[1] == b'0' && w[2] == b'0')
    });
    if has_nul {
        return ApiError::bad_request("the URL may not contain NUL (%00) characters").into_response();
    }
    next.run(req).await
}

/// Headers on every response: no framing by other sites (`X-Frame-Options` and CSP
/// `frame-ancestors`, against clickjacking), no content sniffing, and no caching of a response
/// that sets a cookie (sign-in, refresh, sign-out, the sign-in forms' CSRF cookie).
pub async fn security_headers(mut resp: axum::response::Response) -> axum::response::Response {
    let h = resp.headers_mut();
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    let csp = match h.get(header::CONTENT_SECURITY_POLICY).and_then(|v| v.to_str().ok()) {
        Some(policy) if policy.contains("frame-ancestors") => None,
        Some(policy) => HeaderValue::from_str(&format!("{policy}; frame-ancestors 'none'")).ok(),
        None => Some(HeaderValue::from_static("frame-ancestors 'none'")),
    };
    if let Some(csp) = csp {
        h.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    if h.contains_key(header::SET_COOKIE) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    resp
}

/// The body of a request whose client did not finish sending it in time.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive in time")]
struct BodyTooSlow;

/// A slow client (slowloris) must not hold a connection and a task forever: the request body
/// has `MINICLAW_REQUEST_BODY_TIMEOUT_SECS` in total from the headers, however steadily it
/// trickles in. Past that its reader gets an error and the client a 408 (and the connection is
/// closed). Only reading the request is bounded: a handler may take as long as it needs, and
/// streamed responses (SSE) are never cut.
pub async fn request_body_deadline(
    State(state): State<crate::app::AppState>,
    req: Request,
    next: Next,
) -> axum::response::Response {
    use axum::body::HttpBody;
    use futures::StreamExt;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    if req.body().size_hint().exact() == Some(0) {
        return next.run(req).await;
    }
    let limit = state.config().streams.request_body_timeout;
    let deadline = tokio::time::Instant::now() + limit;
    let expired = Arc::new(AtomicBool::new(false));
    let flag = expired.clone();
    let (parts, body) = req.into_parts();
    let timed = futures::stream::unfold(Some(body.into_data_stream()), move |data| {
        let flag = flag.clone();
        async move {
            let mut data = data?;
            match tokio::time::timeout_at(deadline, data.next()).await {
                Ok(Some(chunk)) => Some((chunk.map_err(axum::BoxError::from), Some(data))),
                Ok(None) => None,
                Err(_) => {
                    flag.store(true, Ordering::Relaxed);
                    Some((Err(axum::BoxError::from(BodyTooSlow)), None))
                }
            }
        }
    });
    let resp = next.run(Request::from_parts(parts, Body::from_stream(timed))).await;
    // Whatever the reader made of the failed body (400, 413, ...), the cause was the deadline.
    if expired.load(Ordering::Relaxed) && (resp.status().is_client_error() || resp.status().is_server_error()) {
        let body = crate::error::ErrorBody {
            error: crate::error::ErrorDetail {
                code: "timeout".into(),
                message: format!("the request body did not arrive within {} s", limit.as_secs()),
                details: None,
            },
        };
        let mut resp = (axum::http::StatusCode::REQUEST_TIMEOUT, axum::Json(body)).into_response();
        resp.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        return resp;
    }
    resp
}
