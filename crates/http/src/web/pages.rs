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
    (StatusCode::FORBIDDEN, Html("<h1>Form expired</h1><p>Reload the page and try again.</p>".to_string()))
        .into_response()
}

/// The message of an error the owner can act on (a validation error, a conflict, a limit, a
/// service that is not configured or not answering), for showing next to a form.
pub(super) fn message_of(e: &Error) -> Option<String> {
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

pub(crate) fn not_found_page() -> Response {
    (StatusCode::NOT_FOUND, Html("<!doctype html><title>Not found</title><link rel=stylesheet href=/static/app.css><link rel=icon type=image/svg+xml href=/static/icon.svg><main class=page><h1>Not found</h1><p>There is no such page, or it is not yours to see.</p><p><a href=/agents>Back to your agents</a></p></main>".to_string())).into_response()
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
