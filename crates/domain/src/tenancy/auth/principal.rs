//! Who is calling, once the HTTP layer has established it: an `Owner` (a dashboard or API
//! session) or an `AgentScope` (an owner session or an `mck_` key, already checked against the
//! agent), which handlers and domain functions ask for the scope they need.

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId, UserId};
use uuid::Uuid;

use super::scopes::{self, Scope};
pub use miniclaw_core::actor::Actor;
use miniclaw_platform::activity::Origin;

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
    /// Whose memories the request may read (SPEC H1): an end user's own and the agent's, or,
    /// acting for no end user, all of them (the owner, and the owner's keys).
    pub fn reader(&self) -> crate::memory::Reader {
        crate::memory::Reader::acting_for(self.end_user.as_deref())
    }

    pub fn origin(&self) -> Origin {
        Origin::new(self.actor.clone(), self.request_id.clone())
    }

    /// The context of model calls made for this caller and agent.
    pub fn call_context(&self) -> miniclaw_platform::llm::CallContext {
        miniclaw_platform::llm::CallContext::for_agent(self.tenant_id, self.agent_id, &self.origin())
    }

    /// 403 naming the scope when the caller's key lacks it.
    pub fn require(&self, scope: Scope) -> Result<(), Error> {
        match &self.scopes {
            None => Ok(()),
            Some(granted) if scopes::allows(granted, scope) => Ok(()),
            Some(_) => Err(Error::Refused {
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
    pub fn act_for(&mut self, named: Option<&str>, field: &str) -> Result<(), Error> {
        let named = named.map(|n| super::end_user::parse(field, n)).transpose()?;
        self.end_user = super::end_user::combine(self.end_user.take(), self.end_user_bound, named, field)?;
        Ok(())
    }

    /// For routes only the owner may use (key management).
    pub fn require_owner(&self) -> Result<UserId, Error> {
        match self.actor {
            Actor::Owner(id) => Ok(id),
            _ => Err(Error::Refused {
                code: "owner_session_required",
                message: "this route needs an owner session, not an API key".into(),
            }),
        }
    }
}
