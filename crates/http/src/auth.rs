//! Authentication extractors. Handlers never parse headers: they take `Owner` (a dashboard or
//! API session) or `AgentScope` (an owner session or an `mck_` key, already checked against
//! the agent in the path) and ask it for the scope they need.

use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, header};
use miniclaw_core::Error;
use miniclaw_core::actor::Actor;
use miniclaw_core::ids::AgentId;
use miniclaw_domain::tenancy::auth::keys::{self, KeyRejection};
use miniclaw_domain::tenancy::auth::session::{self, SESSION_COOKIE};
use miniclaw_domain::tenancy::auth::{AgentScope, Owner};
use miniclaw_domain::tenancy::auth::{account_keys, end_user};
use uuid::Uuid;

use crate::app::AppState;
use crate::error::ApiError;

fn request_id(headers: &HeaderMap) -> Option<String> {
    headers.get(crate::api::REQUEST_ID).and_then(|v| v.to_str().ok()).map(str::to_string)
}

pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
}

/// Resolves the owner session of a request: `Ok(None)` when there is none at all. (For the
/// dashboard, whose forms carry their own CSRF token; API routes use the [`Owner`] extractor.)
pub async fn owner_from_parts(parts: &Parts, state: &AppState) -> Result<Option<Owner>, Error> {
    owner_from_headers(&parts.headers, state).await
}

/// `owner_from_parts` over the headers alone.
pub async fn owner_from_headers(headers: &HeaderMap, state: &AppState) -> Result<Option<Owner>, Error> {
    let Some((owner, _)) = signed_owner(headers, state)? else { return Ok(None) };
    live(state, owner).await.map(Some)
}

async fn live(state: &AppState, owner: Owner) -> Result<Owner, Error> {
    if !session::is_active(state.pool(), owner.session_id, owner.owner_id, owner.tenant_id).await? {
        return Err(signed_out());
    }
    Ok(owner)
}

/// How a request carried its owner session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Carrier {
    Bearer,
    Cookie,
}

/// The header a cookie-authenticated API request that changes something must carry (any
/// value): a page on another site cannot add it without the browser asking first (CORS), and
/// this server never says yes. `X-CSRF-Token` with the session's CSRF token also does.
pub const REQUESTED_WITH: &str = "x-requested-with";
pub const CSRF_HEADER: &str = "x-csrf-token";

/// Cross-site request forgery guard for API routes: a request authenticated by the session
/// cookie (the browser adds it by itself) that is not a safe method must carry
/// [`REQUESTED_WITH`] or a valid [`CSRF_HEADER`]. A bearer token is never sent by itself, so
/// bearer requests need neither.
pub fn cookie_request_ok(
    method: &Method,
    headers: &HeaderMap,
    state: &AppState,
    session_id: Uuid,
) -> Result<(), Error> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    let present = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty());
    if present(REQUESTED_WITH).is_some()
        || present(CSRF_HEADER).is_some_and(|t| state.session_keys().csrf_ok(session_id, t))
    {
        return Ok(());
    }
    Err(Error::Refused {
        code: "csrf_header_required",
        message: "a request authenticated by the session cookie must carry an `X-Requested-With` header \
                  (or `X-CSRF-Token`); API clients send the session token as a bearer instead"
            .into(),
    })
}

/// The owner named by a validly signed session token, before asking whether the session is
/// still live: `Ok(None)` when the request carries no session at all.
fn signed_owner(headers: &HeaderMap, state: &AppState) -> Result<Option<(Owner, Carrier)>, Error> {
    let (token, carrier) = match bearer(headers) {
        Some(t) if t.starts_with(keys::PREFIX) => {
            return Err(Error::Refused {
                code: "owner_session_required",
                message: "this route needs an owner session, not an API key".into(),
            });
        }
        Some(t) => (t, Carrier::Bearer),
        None => match crate::auth::cookie(headers, SESSION_COOKIE) {
            Some(t) if !t.is_empty() => (t, Carrier::Cookie),
            _ => return Ok(None),
        },
    };
    let claims = state
        .session_keys()
        .verify(token)
        .ok_or_else(|| Error::Unauthenticated("session expired or invalid; sign in again or refresh".into()))?;
    let owner =
        Owner { owner_id: claims.sub, tenant_id: claims.tid, session_id: claims.sid, request_id: request_id(headers) };
    Ok(Some((owner, carrier)))
}

/// The member a request's validly signed session token names, whether or not the session is
/// still live (the role gate asks; the extractors answer for everything else).
pub fn session_of(headers: &HeaderMap, state: &AppState) -> Option<Owner> {
    signed_owner(headers, state).ok().flatten().map(|(owner, _)| owner)
}

/// The owner session of an API request, with the cookie guard applied.
fn api_owner(method: &Method, headers: &HeaderMap, state: &AppState) -> Result<Option<Owner>, Error> {
    let Some((owner, carrier)) = signed_owner(headers, state)? else { return Ok(None) };
    if carrier == Carrier::Cookie {
        cookie_request_ok(method, headers, state, owner.session_id)?;
    }
    Ok(Some(owner))
}

fn signed_out() -> Error {
    Error::Unauthenticated("session has been signed out".into())
}

impl FromRequestParts<AppState> for Owner {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let owner = api_owner(&parts.method, &parts.headers, state)?
            .ok_or_else(|| Error::Unauthenticated("sign in first: no session token or cookie".into()))?;
        let owner = live(state, owner).await?;
        tracing::Span::current().record("tenant.id", tracing::field::display(owner.tenant_id));
        Ok(owner)
    }
}

impl FromRequestParts<AppState> for AgentScope {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let params = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(|_| Error::bad_request("missing agent id"))?;
        let raw = params
            .iter()
            .find(|(k, _)| *k == "id")
            .map(|(_, v)| v)
            .ok_or_else(|| Error::bad_request("missing agent id"))?;
        let agent_id = raw.parse::<AgentId>().map_err(|_| Error::Invalid {
            code: "invalid_path",
            message: format!("`{raw}` is not an agent id (a UUID)"),
            details: None,
        })?;

        let scope = agent_scope(&parts.method, &parts.headers, state, agent_id).await?;
        let span = tracing::Span::current();
        span.record("tenant.id", tracing::field::display(scope.tenant_id));
        span.record("agent.id", tracing::field::display(scope.agent_id));
        Ok(scope)
    }
}

/// Access to `agent_id` for a request with these headers: its owner's session or one of its
/// keys; another tenant's agent (or another agent's key) is a 404. For routes that name the
/// agent elsewhere than in the path (`/v1/chat/completions`).
pub async fn agent_scope(
    method: &Method,
    headers: &HeaderMap,
    state: &AppState,
    agent_id: AgentId,
) -> Result<AgentScope, Error> {
    if let Some(token) = bearer(headers).filter(|t| t.starts_with(keys::PREFIX)) {
        return key_scope(headers, state, token, agent_id).await;
    }

    let owner = api_owner(method, headers, state)?
        .ok_or_else(|| Error::Unauthenticated("sign in first: no session token or cookie".into()))?;
    // The session is live and the agent is the tenant's: one round trip.
    let (live, owned) = session::live_and_owning(state.pool(), &owner, agent_id).await?;
    if !live {
        return Err(signed_out());
    }
    if !owned {
        return Err(Error::not_found("agent"));
    }
    Ok(AgentScope {
        tenant_id: owner.tenant_id,
        agent_id,
        actor: owner.actor(),
        scopes: None,
        request_id: owner.request_id,
        end_user: end_user_header(headers)?,
        end_user_bound: false,
    })
}

/// Who a request is, for routes that name no agent (`GET /v1/models`): an agent's `mck_` key,
/// with its one agent, an account key, with the agents it reaches, or a live owner session,
/// with the tenant's agents.
pub enum Caller {
    Key(AgentScope),
    AccountKey(keys::KeyGrant),
    Owner(Owner),
}

/// The caller of a request that names no agent.
pub async fn caller(method: &Method, headers: &HeaderMap, state: &AppState) -> Result<Caller, Error> {
    if let Some(token) = bearer(headers).filter(|t| t.starts_with(keys::PREFIX)) {
        let grant = key_grant(state, token).await?;
        return match grant.reach.agent() {
            Some(agent) => scope_of(headers, grant, agent).map(Caller::Key),
            None => Ok(Caller::AccountKey(grant)),
        };
    }
    let owner = api_owner(method, headers, state)?
        .ok_or_else(|| Error::Unauthenticated("sign in first: no session token or cookie".into()))?;
    Ok(Caller::Owner(live(state, owner).await?))
}

/// The refusal of every credential of a suspended account.
fn suspended() -> Error {
    Error::Refused {
        code: "account_suspended",
        message: "this account is suspended by the platform's operator; contact them".into(),
    }
}

/// A key's access to `agent_id`: an agent out of its reach (another agent, another account's,
/// a deleted one) is a 404.
async fn key_scope(headers: &HeaderMap, state: &AppState, token: &str, agent_id: AgentId) -> Result<AgentScope, Error> {
    let grant = key_grant(state, token).await?;
    if !account_keys::reaches(state.pool(), &grant, agent_id).await? {
        return Err(Error::not_found("agent"));
    }
    scope_of(headers, grant, agent_id)
}

/// What a checked key may do for agent `agent_id`, within its reach, and for whom.
fn scope_of(headers: &HeaderMap, grant: keys::KeyGrant, agent_id: AgentId) -> Result<AgentScope, Error> {
    let bound = grant.end_user.is_some();
    let end_user = end_user::combine(grant.end_user, bound, end_user_header(headers)?, "X-Miniclaw-User")?;
    Ok(AgentScope {
        tenant_id: grant.tenant_id,
        agent_id,
        actor: Actor::ApiKey(grant.key_id),
        scopes: Some(grant.scopes),
        request_id: request_id(headers),
        end_user,
        end_user_bound: bound,
    })
}

/// Checks a presented key, then its rates: the platform's for every key, and the key's own.
async fn key_grant(state: &AppState, token: &str) -> Result<keys::KeyGrant, Error> {
    let grant = keys::authenticate(state.pool(), token).await.map_err(|r| {
        let reason = match r {
            KeyRejection::Malformed => "malformed API key",
            KeyRejection::Unknown => "unknown API key",
            KeyRejection::Revoked => "API key has been revoked",
            KeyRejection::Expired => "API key has expired",
            KeyRejection::Unavailable => {
                return Error::Unavailable("the key could not be checked; try again shortly".into());
            }
            KeyRejection::Suspended => return suspended(),
            KeyRejection::Closing => {
                return Error::Refused {
                    code: "account_closing",
                    message: "this account is closing; an owner can reopen it until it is purged".into(),
                };
            }
        };
        Error::Unauthenticated(reason.into())
    })?;
    let key = grant.key_id.to_string();
    if let Some(limiter) = state.key_limiter()
        && let Err(retry_after_secs) = limiter.check(&key)
    {
        return Err(Error::Limited {
            retry_after_secs,
            message: Some("rate limit for this API key exceeded".into()),
            reset_at: None,
        });
    }
    if let Some(per_minute) = grant.rate_per_minute
        && let Err(retry_after_secs) = state.own_key_limiter().check_rate(&key, per_minute)
    {
        return Err(Error::Limited {
            retry_after_secs,
            message: Some(format!("this API key's own rate of {per_minute} requests a minute is exceeded")),
            reset_at: None,
        });
    }
    Ok(grant)
}

/// Where a sign-in request comes from (its user agent and client address), for the activity.
pub struct SignInDevice(pub miniclaw_domain::tenancy::signins::Device);

impl FromRequestParts<AppState> for SignInDevice {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let user_agent =
            parts.headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
        let address = parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|c| crate::ratelimit::client_bucket(c.0.ip(), &parts.headers, &state.config().trusted_proxies));
        Ok(SignInDevice(miniclaw_domain::tenancy::signins::Device {
            user_agent,
            address,
            request_id: request_id(&parts.headers),
        }))
    }
}

/// The end user named by the request's `X-Miniclaw-User` header, if any.
pub fn end_user_header(headers: &HeaderMap) -> Result<Option<String>, Error> {
    match headers.get(end_user::HEADER) {
        None => Ok(None),
        Some(v) => {
            let raw = v.to_str().map_err(|_| Error::validation("X-Miniclaw-User", "must be visible ASCII"))?;
            end_user::parse("X-Miniclaw-User", raw).map(Some)
        }
    }
}

/// The value of cookie `name` in the request, if present.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Appends `Set-Cookie` headers to a response.
pub fn with_cookies(
    mut resp: axum::response::Response,
    cookies: impl IntoIterator<Item = String>,
) -> axum::response::Response {
    for c in cookies {
        if let Ok(v) = axum::http::HeaderValue::from_str(&c) {
            resp.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_parsed_from_the_header() {
        let mut h = HeaderMap::new();
        h.insert("cookie", "a=1; mc_session=tok.en; b=2".parse().unwrap());
        assert_eq!(cookie(&h, SESSION_COOKIE), Some("tok.en"));
        assert_eq!(cookie(&h, "missing"), None);
    }
}
