//! Authentication extractors. Handlers never parse headers: they take `Owner` (a dashboard or
//! API session) or `AgentScope` (an owner session or an `mck_` key, already checked against
//! the agent in the path) and ask it for the scope they need.

use crate::ids::{AgentId, KeyId, TenantId, UserId};
use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, header};
use uuid::Uuid;

use super::end_user;
use super::keys::{self, KeyRejection};
use super::scopes::{self, Scope};
use super::session::{self, SESSION_COOKIE};
use crate::activity::Origin;
use crate::app::AppState;
use crate::error::ApiError;

/// Who performed an action, as recorded in the activity log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    Owner(UserId),
    ApiKey(KeyId),
    Job(String),
    Admin,
    System,
}

impl Actor {
    pub fn kind(&self) -> &'static str {
        match self {
            Actor::Owner(_) => "owner",
            Actor::ApiKey(_) => "api_key",
            Actor::Job(_) => "job",
            Actor::Admin => "admin",
            Actor::System => "system",
        }
    }

    pub fn id(&self) -> Option<String> {
        match self {
            Actor::Owner(id) => Some(id.to_string()),
            Actor::ApiKey(id) => Some(id.to_string()),
            Actor::Job(kind) => Some(kind.clone()),
            Actor::Admin | Actor::System => None,
        }
    }
}

fn request_id(headers: &HeaderMap) -> Option<String> {
    headers.get(crate::telemetry::REQUEST_ID).and_then(|v| v.to_str().ok()).map(str::to_string)
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
}

/// A signed-in owner (session JWT in the `mc_session` cookie or as a bearer token).
#[derive(Debug, Clone)]
pub struct Owner {
    pub owner_id: UserId,
    pub tenant_id: TenantId,
    pub session_id: Uuid,
    pub request_id: Option<String>,
}

impl Owner {
    pub fn actor(&self) -> Actor {
        Actor::Owner(self.owner_id)
    }

    pub fn origin(&self) -> Origin {
        Origin::new(self.actor(), self.request_id.clone())
    }
}

/// Resolves the owner session of a request: `Ok(None)` when there is none at all. (For the
/// dashboard, whose forms carry their own CSRF token; API routes use the [`Owner`] extractor.)
pub async fn owner_from_parts(parts: &Parts, state: &AppState) -> Result<Option<Owner>, ApiError> {
    owner_from_headers(&parts.headers, state).await
}

/// `owner_from_parts` over the headers alone.
pub async fn owner_from_headers(headers: &HeaderMap, state: &AppState) -> Result<Option<Owner>, ApiError> {
    let Some((owner, _)) = signed_owner(headers, state)? else { return Ok(None) };
    live(state, owner).await.map(Some)
}

async fn live(state: &AppState, owner: Owner) -> Result<Owner, ApiError> {
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
) -> Result<(), ApiError> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    let present = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty());
    if present(REQUESTED_WITH).is_some()
        || present(CSRF_HEADER).is_some_and(|t| state.session_keys().csrf_ok(session_id, t))
    {
        return Ok(());
    }
    Err(ApiError::Forbidden {
        code: "csrf_header_required",
        message: "a request authenticated by the session cookie must carry an `X-Requested-With` header \
                  (or `X-CSRF-Token`); API clients send the session token as a bearer instead"
            .into(),
    })
}

/// The owner named by a validly signed session token, before asking whether the session is
/// still live: `Ok(None)` when the request carries no session at all.
fn signed_owner(headers: &HeaderMap, state: &AppState) -> Result<Option<(Owner, Carrier)>, ApiError> {
    let (token, carrier) = match bearer(headers) {
        Some(t) if t.starts_with(keys::PREFIX) => {
            return Err(ApiError::Forbidden {
                code: "owner_session_required",
                message: "this route needs an owner session, not an API key".into(),
            });
        }
        Some(t) => (t, Carrier::Bearer),
        None => match session::cookie(headers, SESSION_COOKIE) {
            Some(t) if !t.is_empty() => (t, Carrier::Cookie),
            _ => return Ok(None),
        },
    };
    let claims = state
        .session_keys()
        .verify(token)
        .ok_or_else(|| ApiError::Unauthorized("session expired or invalid; sign in again or refresh".into()))?;
    let owner =
        Owner { owner_id: claims.sub, tenant_id: claims.tid, session_id: claims.sid, request_id: request_id(headers) };
    Ok(Some((owner, carrier)))
}

/// The owner session of an API request, with the cookie guard applied.
fn api_owner(method: &Method, headers: &HeaderMap, state: &AppState) -> Result<Option<Owner>, ApiError> {
    let Some((owner, carrier)) = signed_owner(headers, state)? else { return Ok(None) };
    if carrier == Carrier::Cookie {
        cookie_request_ok(method, headers, state, owner.session_id)?;
    }
    Ok(Some(owner))
}

fn signed_out() -> ApiError {
    ApiError::Unauthorized("session has been signed out".into())
}

impl FromRequestParts<AppState> for Owner {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let owner = api_owner(&parts.method, &parts.headers, state)?
            .ok_or_else(|| ApiError::Unauthorized("sign in first: no session token or cookie".into()))?;
        live(state, owner).await
    }
}

/// Access to one agent (the `{id}` of the path): an owner of its tenant, or a key of it.
#[derive(Debug, Clone)]
pub struct AgentScope {
    pub tenant_id: TenantId,
    pub agent_id: AgentId,
    pub actor: Actor,
    /// The key's scopes; `None` for the owner, who may do everything.
    pub scopes: Option<Vec<String>>,
    pub request_id: Option<String>,
    /// The miniapp end user the request acts for: the key's binding, else `X-Miniclaw-User`.
    pub end_user: Option<String>,
    /// Whether `end_user` is the key's binding (then no other end user may be named).
    pub end_user_bound: bool,
}

impl AgentScope {
    pub fn origin(&self) -> Origin {
        Origin::new(self.actor.clone(), self.request_id.clone())
    }

    /// The context of model calls made for this caller and agent.
    pub fn call_context(&self) -> crate::llm::CallContext {
        crate::llm::CallContext::for_agent(self.tenant_id, self.agent_id, &self.origin())
    }

    /// 403 naming the scope when the caller's key lacks it.
    pub fn require(&self, scope: Scope) -> Result<(), ApiError> {
        match &self.scopes {
            None => Ok(()),
            Some(granted) if scopes::allows(granted, scope) => Ok(()),
            Some(_) => Err(ApiError::Forbidden {
                code: "missing_scope",
                message: format!("this API key lacks the `{scope}` scope"),
            }),
        }
    }

    /// Whether an owner session (not a key) is calling.
    pub fn is_owner(&self) -> bool {
        matches!(self.actor, Actor::Owner(_))
    }

    /// Acts for the end user a request body names too (the OpenAI `user`): the same one as
    /// before, or a first one; another is 403 for a bound key and 400 otherwise.
    pub fn act_for(&mut self, named: Option<&str>, field: &str) -> Result<(), ApiError> {
        let named = named.map(|n| super::end_user::parse(field, n)).transpose()?;
        self.end_user = super::end_user::combine(self.end_user.take(), self.end_user_bound, named, field)?;
        Ok(())
    }

    /// For routes only the owner may use (key management).
    pub fn require_owner(&self) -> Result<UserId, ApiError> {
        match self.actor {
            Actor::Owner(id) => Ok(id),
            _ => Err(ApiError::Forbidden {
                code: "owner_session_required",
                message: "this route needs an owner session, not an API key".into(),
            }),
        }
    }
}

impl FromRequestParts<AppState> for AgentScope {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let params = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::bad_request("missing agent id"))?;
        let raw = params
            .iter()
            .find(|(k, _)| *k == "id")
            .map(|(_, v)| v)
            .ok_or_else(|| ApiError::bad_request("missing agent id"))?;
        let agent_id = raw.parse::<AgentId>().map_err(|_| ApiError::BadRequest {
            code: "invalid_path",
            message: format!("`{raw}` is not an agent id (a UUID)"),
            details: None,
        })?;

        AgentScope::resolve(&parts.method, &parts.headers, state, agent_id).await
    }
}

impl AgentScope {
    /// Access to `agent_id` for a request with these headers: its owner's session or one of its
    /// keys; another tenant's agent (or another agent's key) is a 404. For routes that name the
    /// agent elsewhere than in the path (`/v1/chat/completions`).
    pub async fn resolve(
        method: &Method,
        headers: &HeaderMap,
        state: &AppState,
        agent_id: AgentId,
    ) -> Result<AgentScope, ApiError> {
        if let Some(token) = bearer(headers).filter(|t| t.starts_with(keys::PREFIX)) {
            let grant = keys::authenticate(state.pool(), token).await.map_err(|r| {
                let reason = match r {
                    KeyRejection::Malformed => "malformed API key",
                    KeyRejection::Unknown => "unknown API key",
                    KeyRejection::Revoked => "API key has been revoked",
                    KeyRejection::Expired => "API key has expired",
                    KeyRejection::Unavailable => {
                        return ApiError::Unavailable("the key could not be checked; try again shortly".into());
                    }
                };
                ApiError::Unauthorized(reason.into())
            })?;
            if let Some(limiter) = state.key_limiter()
                && let Err(retry_after_secs) = limiter.check(&grant.key_id.to_string())
            {
                return Err(ApiError::RateLimited {
                    retry_after_secs,
                    message: Some("rate limit for this API key exceeded".into()),
                    reset_at: None,
                });
            }
            if grant.agent_id != agent_id {
                return Err(ApiError::not_found("agent"));
            }
            let bound = grant.end_user.is_some();
            let end_user =
                end_user::combine(grant.end_user, bound, end_user::from_headers(headers)?, "X-Miniclaw-User")?;
            return Ok(AgentScope {
                tenant_id: grant.tenant_id,
                agent_id,
                actor: Actor::ApiKey(grant.key_id),
                scopes: Some(grant.scopes),
                request_id: request_id(headers),
                end_user,
                end_user_bound: bound,
            });
        }

        let owner = api_owner(method, headers, state)?
            .ok_or_else(|| ApiError::Unauthorized("sign in first: no session token or cookie".into()))?;
        // The session is live and the agent is the tenant's: one round trip.
        let (live, owned): (bool, bool) = sqlx::query_as(&format!(
            "SELECT ({}), EXISTS (SELECT 1 FROM agents WHERE id = $4 AND tenant_id = $3 AND deleted_at IS NULL)",
            session::ACTIVE
        ))
        .bind(owner.session_id)
        .bind(owner.owner_id)
        .bind(owner.tenant_id)
        .bind(agent_id)
        .fetch_one(state.pool())
        .await?;
        if !live {
            return Err(signed_out());
        }
        if !owned {
            return Err(ApiError::not_found("agent"));
        }
        Ok(AgentScope {
            tenant_id: owner.tenant_id,
            agent_id,
            actor: owner.actor(),
            scopes: None,
            request_id: owner.request_id,
            end_user: end_user::from_headers(headers)?,
            end_user_bound: false,
        })
    }
}
