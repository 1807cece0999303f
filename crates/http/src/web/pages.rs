//! What every dashboard page shares: rendering, error pages and form-error messages.

use crate::error::ErrorResponse as _;
use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use miniclaw_core::Error;

pub(super) type PageResult = Result<Response, Response>;

/// The most entries of a list (keys, gaps, versions, ...) a page shows: its newest.
pub(super) const LIST_SHOWN: i64 = 500;

pub(super) fn render(t: impl Template) -> Response {
    match t.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => Error::Internal(e.into()).into_response(),
    }
}

pub(super) fn internal(e: impl Into<anyhow::Error>) -> Response {
    Error::Internal(e.into()).into_response()
}

pub(super) fn api_error(e: Error) -> Response {
    e.into_response()
}

pub(super) fn forbidden_csrf() -> Response {
    error_page(StatusCode::FORBIDDEN, "This form has expired: reload the page and try again.")
}

/// The message of an error the owner can act on (a validation error, a conflict, a limit, a
/// service that is not configured or not answering), for showing next to a form: as plain text,
/// without the Markdown code marks API messages use.
pub(super) fn message_of(e: &Error) -> Option<String> {
    plain_message(e).map(|m| m.replace('`', ""))
}

fn plain_message(e: &Error) -> Option<String> {
    match e {
        Error::Invalid { message, .. }
        | Error::Unprocessable { message, .. }
        | Error::Conflict(message)
        | Error::Unauthenticated(message)
        | Error::Unavailable(message)
        | Error::Upstream(message)
        | Error::Exhausted { message, .. } => Some(message.clone()),
        // A limit the owner reached (the daily email limit, say) says when it lifts.
        Error::Limited { message: Some(message), .. } => Some(message.clone()),
        _ => None,
    }
}

/// The message of an error to show next to the form, or (`Err`) the error's own response when
/// it is not one the owner can act on: `Some(shown(e)?)` in a handler.
#[expect(clippy::result_large_err, reason = "a handler's `PageResult` carries the same response")]
pub(super) fn shown(e: Error) -> Result<String, Response> {
    message_of(&e).ok_or_else(|| api_error(e))
}

/// An error page with a way back: the dashboard's answer to a failed request (a browser gets
/// a page, never the API's JSON).
pub(crate) fn error_page(status: StatusCode, message: &str) -> Response {
    let title = match status {
        StatusCode::NOT_FOUND => "Not found",
        StatusCode::FORBIDDEN => "Not allowed",
        StatusCode::UNAUTHORIZED => "Please sign in again",
        StatusCode::CONFLICT => "That changed meanwhile",
        StatusCode::TOO_MANY_REQUESTS => "Too many requests",
        s if s.is_server_error() => "Something went wrong on our side",
        _ => "That did not work",
    };
    let message = if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE {
        "The error was logged. Try again in a moment; if it keeps happening, the server's log says why.".to_string()
    } else {
        message.replace('`', "")
    };
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let body = format!(
        "<!doctype html><title>{title}</title><meta name=viewport content=\"width=device-width, initial-scale=1\">\
         <link rel=stylesheet href=/static/app.css><link rel=icon type=image/svg+xml href=/static/icon.svg>\
         <header class=topbar><a class=brand href=/><span class=logo aria-hidden=true>m</span>miniclaw</a>\
         <nav><a href=/agents>Agents</a><a href=/docs>API reference</a></nav></header>\
         <main class=page><h1>{title}</h1><p data-testid=error-message>{}</p><p><a href=/agents>Back to your agents</a></p></main>",
        esc(&message)
    );
    (status, Html(body)).into_response()
}

/// The dashboard's error responses as pages: a handler's JSON error (the domain error's
/// message) becomes the same page a browser gets for a missing one.
pub(crate) async fn html_errors(resp: Response) -> Response {
    let status = resp.status();
    let json = resp
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || !json {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    let bytes = axum::body::to_bytes(body, 64 * 1024).await.unwrap_or_default();
    let message = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
        .unwrap_or_default();
    let mut page = error_page(status, &message);
    if let Some(v) = parts.headers.get(axum::http::header::RETRY_AFTER) {
        page.headers_mut().insert(axum::http::header::RETRY_AFTER, v.clone());
    }
    page
}

pub(crate) fn not_found_page() -> Response {
    error_page(StatusCode::NOT_FOUND, "There is no such page, or it is not yours to see.")
}

/// Back to one of the agent's tabs with a notice (post/redirect/get).
pub(super) fn back_to(
    agent: &miniclaw_domain::tenancy::agents::Agent,
    tab: &str,
    notice: super::notice::Notice,
) -> Response {
    axum::response::Redirect::to(&format!("/agents/{}/{tab}?notice={}", agent.id, notice.code())).into_response()
}

/// A result of an action on one of the agent's tabs: back to `tab` with its notice, the
/// not-found page for something the viewer cannot see, or the tab's page (`page_with`) showing
/// the error.
pub(super) async fn after_action<Fut>(
    agent: miniclaw_domain::tenancy::agents::Agent,
    tab: &str,
    r: Result<super::notice::Notice, Error>,
    page_with: impl FnOnce(miniclaw_domain::tenancy::agents::Agent, String) -> Fut,
) -> PageResult
where
    Fut: std::future::Future<Output = PageResult>,
{
    match r {
        Ok(notice) => Ok(back_to(&agent, tab, notice)),
        Err(Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => page_with(agent, shown(e)?).await,
    }
}
