//! The dashboard's request extractors: who is signed in ([`WebOwner`]), which of their agents a
//! page is about ([`WebAgent`]), and a posted form whose session CSRF token has been checked
//! ([`Posted`]). Handlers take these instead of repeating the checks, so each check is written
//! once and a handler's signature says which ones it gets.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, RawPathParams, Request};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Redirect, Response};
use miniclaw_core::ids::AgentId;

use super::forms::Form;
use super::pages::{forbidden_csrf, internal, not_found_page};
use crate::app::AppState;
use crate::auth::owner_from_parts;
use miniclaw_domain::tenancy::agents::{self, Agent};
use miniclaw_domain::tenancy::auth::{Owner, session};

/// The signed-in owner of a dashboard page; anyone else is sent to sign in (or to refresh an
/// expired session first).
pub struct WebOwner {
    pub owner: Owner,
    /// The session's CSRF token, for the forms the page renders.
    pub csrf: String,
}

impl FromRequestParts<AppState> for WebOwner {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match owner_from_parts(parts, state).await {
            Ok(Some(owner)) => {
                let csrf = state.session_keys().csrf_token(owner.session_id);
                Ok(WebOwner { owner, csrf })
            }
            Ok(None) | Err(_) => {
                let next = parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/agents");
                let next = url::form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>();
                let target =
                    if crate::auth::cookie(&parts.headers, session::REFRESH_COOKIE).is_some_and(|c| !c.is_empty()) {
                        format!("/refresh?next={next}")
                    } else {
                        format!("/login?next={next}")
                    };
                Err(Redirect::to(&target).into_response())
            }
        }
    }
}

impl WebOwner {
    /// Whether the form carries this session's CSRF token.
    fn csrf_ok(&self, state: &AppState, form: &Form) -> bool {
        form.get("csrf").is_some_and(|t| state.session_keys().csrf_ok(self.owner.session_id, t))
    }
}

/// The signed-in owner and the agent named by the route's `{id}`. Anything that is not one of
/// the owner's agents (a malformed id, a missing agent, another tenant's) is the not-found
/// page, so the dashboard never tells which ids exist elsewhere.
pub struct WebAgent {
    pub owner: WebOwner,
    pub agent: Agent,
}

impl FromRequestParts<AppState> for WebAgent {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let owner = WebOwner::from_request_parts(parts, state).await?;
        // By name, not position: some routes carry more ids after the agent's
        // (`/agents/{id}/memories/{mid}`), which `Path<Uuid>` would refuse.
        let params = RawPathParams::from_request_parts(parts, state).await.map_err(|_| not_found_page())?;
        let id = params
            .iter()
            .find(|(name, _)| *name == "id")
            .and_then(|(_, value)| value.parse::<AgentId>().ok())
            .ok_or_else(not_found_page)?;
        // Tenant-scoped lookup: another tenant's agent is indistinguishable from a missing one.
        let agent =
            agents::get(state.pool(), owner.owner.tenant_id, id).await.map_err(internal)?.ok_or_else(not_found_page)?;
        Ok(WebAgent { owner, agent })
    }
}

/// What a posted form can be signed by: an extractor that knows the signed-in owner.
pub trait SignedIn: FromRequestParts<AppState, Rejection = Response> {
    /// The owner whose session the form's CSRF token must belong to.
    fn web_owner(&self) -> &WebOwner;
}

impl SignedIn for WebOwner {
    fn web_owner(&self) -> &WebOwner {
        self
    }
}

impl SignedIn for WebAgent {
    fn web_owner(&self) -> &WebOwner {
        &self.owner
    }
}

/// A state-changing dashboard post: `who` posted it (a [`WebOwner`] or [`WebAgent`]) and
/// `form` is its body, which carried that owner's session CSRF token. Without a valid token
/// the request is refused with the "form expired" page before the handler runs. (Sign-in and
/// sign-up have no session yet and check their double-submit cookie themselves.)
pub struct Posted<T> {
    pub who: T,
    pub form: Form,
}

impl<T: SignedIn + Send> FromRequest<AppState> for Posted<T> {
    type Rejection = Response;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (mut parts, body) = req.into_parts();
        let who = T::from_request_parts(&mut parts, state).await?;
        // `Bytes` honours the router's body limit (413) and reports read errors (400) itself.
        let body =
            Bytes::from_request(Request::from_parts(parts, body), state).await.map_err(IntoResponse::into_response)?;
        let form = Form::parse(&body);
        if !who.web_owner().csrf_ok(state, &form) {
            return Err(forbidden_csrf());
        }
        Ok(Posted { who, form })
    }
}
