//! Roles at the door (SPEC H4): every request made with a member's session is held against
//! what its route needs (`Need`) before any handler runs, so no route can forget the check. A
//! request with an `mck_` key, or with no session, passes here untouched: keys carry their own
//! scopes, and the extractors refuse a missing session.
//!
//! Reading is open to every member. Changing something is the agents' work (members and up)
//! unless the route handles credentials, money, the team or the account's shape (admins and
//! owners), or is the member's own account (anyone may sign out or change their password).

use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use miniclaw_domain::tenancy::auth::session;
use miniclaw_domain::tenancy::team::{self, Need};

use crate::app::AppState;
use crate::error::ApiError;

/// Ownership itself: closing the account and reopening it.
const OWN: &[&str] = &["/v1/account/close", "/v1/account/reopen", "/account/close", "/account/reopen"];

/// Writes that read: any member may make them.
const READS: &[&str] = &["/v1/hosted-agents/{id}/memories/search", "/v1/skills/validate"];

/// The member's own account and sign-in, and joining or leaving a team.
const ACCOUNT: &[&str] = &[
    "/v1/auth/",
    "/v1/team/join",
    "/v1/team/leave",
    "/login",
    "/signup",
    "/logout",
    "/refresh",
    "/verify-email",
    "/forgot-password",
    "/reset-password",
    "/join",
    "/account",
    "/team/leave",
];

/// Routes (or their beginnings) that handle credentials, money, the team or the account's
/// shape: admins and owners.
const MANAGE: &[&str] = &[
    "/v1/team",
    "/v1/email/sender",
    "/v1/webhooks",
    "/v1/api-keys",
    "/v1/hosted-agents/{id}/api-keys",
    "/v1/hosted-agents/{id}/end-users",
    "/v1/hosted-agents/{id}/restore",
    "/v1/hosted-agents/{id}/wallet",
    "/v1/hosted-agents/{id}/token",
    "/v1/hosted-agents/{id}/stakes",
    "/v1/hosted-agents/{id}/tips",
    "/v1/hosted-agents/{id}/payments",
    "/v1/hosted-agents/{id}/orders",
    "/v1/hosted-agents/{id}/services",
    "/v1/hosted-agents/{id}/economy",
    "/v1/hosted-agents/{id}/identity/register",
    "/v1/hosted-agents/{id}/telegram",
    "/v1/hosted-agents/{id}/mcp-servers",
    "/v1/hosted-agents/{id}/skills/publish",
    "/team",
    "/keys",
    "/agents/{id}/delete",
    "/agents/{id}/keys",
    "/agents/{id}/webhooks",
    "/agents/{id}/wallet",
    "/agents/{id}/economy",
    "/agents/{id}/identity/register",
    "/agents/{id}/telegram",
    "/agents/{id}/outreach/sender",
    "/agents/{id}/skills/publish",
    "/agents/{id}/tools",
];

/// Exceptions inside `MANAGE` prefixes that are the agents' work.
const WORK: &[&str] = &["/agents/{id}/tools/calls/{call}"];

fn under(path: &str, prefix: &str) -> bool {
    path == prefix || (path.starts_with(prefix) && (prefix.ends_with('/') || path[prefix.len()..].starts_with('/')))
}

/// What a request with `method` to the route `path` (its template) needs of a member.
pub fn need(method: &Method, path: &str) -> Need {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) || READS.contains(&path) {
        return Need::Read;
    }
    if OWN.contains(&path) {
        return Need::Own;
    }
    if ACCOUNT.iter().any(|p| under(path, p)) {
        return Need::Account;
    }
    if path == "/v1/hosted-agents/{id}" && *method == Method::DELETE {
        return Need::Manage;
    }
    if WORK.contains(&path) {
        return Need::Work;
    }
    if MANAGE.iter().any(|p| under(path, p)) {
        return Need::Manage;
    }
    Need::Work
}

/// Refuses a member's request their role does not allow (403 `role_forbidden`; a dashboard
/// page for a browser's form).
pub async fn gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_owned()).unwrap_or_default();
    let need = need(req.method(), &path);
    if need == Need::Read {
        return next.run(req).await;
    }
    let Some(owner) = crate::auth::session_of(req.headers(), &state) else { return next.run(req).await };
    let role = match session::role(state.pool(), owner.session_id, owner.owner_id, owner.tenant_id).await {
        Ok(Some(role)) => role,
        // Not live: the route's own extractor answers (401).
        Ok(None) => return next.run(req).await,
        Err(e) => return ApiError(e.into()).into_response(),
    };
    if role.may(need) {
        return next.run(req).await;
    }
    let refusal = team::refused(role, need);
    if crate::web::is_api(&path) {
        return ApiError(refusal).into_response();
    }
    crate::web::pages::error_page(axum::http::StatusCode::FORBIDDEN, &refusal.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_need_what_they_touch() {
        let post = Method::POST;
        assert_eq!(need(&Method::GET, "/v1/team"), Need::Read);
        assert_eq!(need(&post, "/v1/hosted-agents/{id}/memories/search"), Need::Read);
        assert_eq!(need(&post, "/v1/hosted-agents/{id}/chat"), Need::Work);
        assert_eq!(need(&post, "/v1/auth/password"), Need::Account);
        assert_eq!(need(&post, "/v1/account/close"), Need::Own);
        assert_eq!(need(&post, "/account/close"), Need::Own);
        assert_eq!(need(&post, "/account/password"), Need::Account);
        assert_eq!(need(&post, "/v1/team/leave"), Need::Account);
        assert_eq!(need(&post, "/v1/team/invitations"), Need::Manage);
        assert_eq!(need(&post, "/v1/hosted-agents/{id}/api-keys"), Need::Manage);
        assert_eq!(need(&Method::DELETE, "/v1/hosted-agents/{id}"), Need::Manage);
        assert_eq!(need(&Method::PATCH, "/v1/hosted-agents/{id}"), Need::Work);
        assert_eq!(need(&post, "/agents/{id}/tools/calls/{call}"), Need::Work);
        assert_eq!(need(&post, "/agents/{id}/tools"), Need::Manage);
        // A prefix is a whole segment: `/teams` is not under `/team`.
        assert_eq!(need(&post, "/teamwork"), Need::Work);
    }
}
