//! Who a model call is for (`CallContext`: agent, tenant, background or not, request id,
//! already admitted by the budgets) and how a call through the gateway fails (`LlmError`).

use super::budget::Refusal;
use crate::ids::{AgentId, TenantId};

/// Who a call is for, and whether a user is waiting on it.
#[derive(Debug, Clone, Default)]
pub struct CallContext {
    pub agent_id: Option<AgentId>,
    pub tenant_id: Option<TenantId>,
    /// Whether no user waits on the call (a job's work); logged with it. The kill switch and
    /// every budget apply to foreground and background calls alike.
    pub background: bool,
    pub request_id: Option<String>,
    /// The caller checked the budgets, the global cap and the kill switch a moment ago for the
    /// whole unit of work (a chat turn is admitted once, answering 429 or 503 before anything is
    /// stored, and holds its expected tokens: `reservations`), so its calls are not checked
    /// again one by one. They are still logged and counted.
    pub admitted: bool,
}

impl CallContext {
    /// Calls made for an agent on behalf of `origin`: a job's calls are background work, anyone
    /// else's foreground; the request id travels along.
    pub fn for_agent(tenant_id: TenantId, agent_id: AgentId, origin: &crate::activity::Origin) -> CallContext {
        CallContext {
            agent_id: Some(agent_id),
            tenant_id: Some(tenant_id),
            background: matches!(origin.actor, crate::auth::Actor::Job(_)),
            request_id: origin.request_id.clone(),
            admitted: false,
        }
    }

    /// Says whether the calls are background work, whoever asked for them.
    pub fn background(self, background: bool) -> CallContext {
        CallContext { background, ..self }
    }

    /// The budgets admitted the whole unit of work already (a chat turn): see `admitted`.
    pub fn admitted(self) -> CallContext {
        CallContext { admitted: true, ..self }
    }

    /// A background job's calls for an agent: no request to trace.
    pub fn job(agent_id: AgentId, tenant_id: Option<TenantId>) -> CallContext {
        CallContext { agent_id: Some(agent_id), tenant_id, background: true, ..CallContext::default() }
    }
}

/// Why the gateway gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// Every target failed; one line per attempt.
    #[error("every model for this role failed: {}", .attempts.join("; "))]
    AllFailed { attempts: Vec<String> },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}
