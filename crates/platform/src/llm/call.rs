//! Who a model call is for (`CallContext`: agent, tenant, background or not, request id,
//! already admitted by the budgets) and how a call through the gateway fails (`LlmError`).

use super::budget::Refusal;
use miniclaw_core::ids::{AgentId, KeyId, MessageId, TenantId};

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
    /// The tenant's account is new (`budget`): its spend counts toward its daily allowance and
    /// the new accounts' share of the global cap. Known once the call (or its unit of work) is
    /// admitted.
    pub new_account: bool,
    /// The chat turn (its reply) whose reservation holds this call's tokens: the call's use is
    /// counted on the reservation, and reaches the agent's usage row of the day when the turn
    /// gives its reservation back (`reservations`). A call with none, or whose reservation is
    /// gone, counts on the agent's row at once.
    pub held_by: Option<MessageId>,
    /// The API key the calls are made for (a request with an `mck_` key): their usage is
    /// attributed to it, and paid work it asks for counts toward its daily cap (SPEC H4).
    pub key_id: Option<KeyId>,
}

impl CallContext {
    /// Calls made for an agent on behalf of `origin`: a job's calls are background work, anyone
    /// else's foreground; the request id travels along.
    pub fn for_agent(tenant_id: TenantId, agent_id: AgentId, origin: &crate::activity::Origin) -> CallContext {
        CallContext {
            agent_id: Some(agent_id),
            tenant_id: Some(tenant_id),
            background: matches!(origin.actor, miniclaw_core::actor::Actor::Job(_)),
            request_id: origin.request_id.clone(),
            admitted: false,
            new_account: false,
            held_by: None,
            key_id: match origin.actor {
                miniclaw_core::actor::Actor::ApiKey(key) => Some(key),
                _ => None,
            },
        }
    }

    /// Says whether the calls are background work, whoever asked for them.
    pub fn background(self, background: bool) -> CallContext {
        CallContext { background, ..self }
    }

    /// The budgets admitted the whole unit of work already (a chat turn), for a new account or
    /// not: see `admitted`.
    pub fn admitted(self, new_account: bool) -> CallContext {
        CallContext { admitted: true, new_account, ..self }
    }

    /// The calls are a chat turn's, whose reservation is held by reply `reply_id`: see `held_by`.
    pub fn held_by(self, reply_id: MessageId) -> CallContext {
        CallContext { held_by: Some(reply_id), ..self }
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

/// A model call that could not be made or failed everywhere. A budget refusal is the caller's
/// limit (`budget_exhausted`, with the reset time, or a few seconds when the rest of the budget
/// is only held by turns in progress). The operator's limits are not the caller's doing: the
/// global daily cap and new accounts' share of it (`global_spend_cap`, until midnight UTC) and the kill switch
/// (`kill_switch`, with the operator's reason and no retry time). Every target failing is an
/// upstream failure naming how many attempts failed, without their text.
impl From<LlmError> for miniclaw_core::Error {
    fn from(e: LlmError) -> Self {
        use super::budget::HELD_RETRY_SECS;
        use miniclaw_core::error::Limit;
        match e {
            LlmError::Refused(r) => {
                let limit = match r {
                    Refusal::GlobalDailyCap { .. }
                    | Refusal::NewAccountsShare { .. }
                    | Refusal::KillSwitch { .. }
                    | Refusal::DollarsHeld {
                        limit: super::budget::HeldLimit::NewAccounts | super::budget::HeldLimit::Global,
                        ..
                    } => Limit::Operator,
                    _ => Limit::Caller,
                };
                let reset_at = r.reset_at();
                let retry_after_secs = match (&r, reset_at) {
                    (_, Some(at)) => Some((at - chrono::Utc::now()).num_seconds().max(1) as u64),
                    (
                        Refusal::AgentTokensHeld { .. } | Refusal::NewAccountBusy { .. } | Refusal::DollarsHeld { .. },
                        _,
                    ) => Some(HELD_RETRY_SECS),
                    _ => None,
                };
                miniclaw_core::Error::Exhausted {
                    limit,
                    code: r.code(),
                    message: r.to_string(),
                    retry_after_secs,
                    reset_at,
                }
            }
            // The attempts name providers' answers (which can quote a masked key or an internal
            // address): they go to the log, the caller learns how many failed.
            LlmError::AllFailed { attempts } => {
                tracing::warn!(attempts = %attempts.join("; "), "every model for the role failed");
                let n = attempts.len();
                miniclaw_core::Error::Upstream(format!(
                    "every model for this role failed ({n} attempt{}); try again, or regenerate the reply",
                    if n == 1 { "" } else { "s" }
                ))
            }
            LlmError::Db(e) => e.into(),
        }
    }
}
