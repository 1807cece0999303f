//! Paid work that is not a model call, admitted like one (SPEC T1): a paid embedding, a priced
//! email, gas (and a gas top-up) the platform pays. Each holds its most expensive outcome in
//! dollars through the same admission as a model call (`reservations::admit`: the agent's day,
//! the new account's allowance, the tenant's month, new accounts' share and the platform's
//! day, each judged on its row locked), and books what it really cost when it ends
//! (`reservations::spend`). Free work (a price of 0) holds nothing.

use sqlx::PgPool;

use super::budget::{Refusal, SpendCaps};
use super::reservations::{self, Cost, NO_AGENT};
use crate::domain_sql::DomainSql;
use miniclaw_core::ids::{AgentId, MessageId, TenantId};

/// Who a unit of paid work is for: an agent (its tenant pays), a tenant, or — neither known —
/// the platform, which only its daily cap then limits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Payer {
    pub agent: Option<AgentId>,
    pub tenant: Option<TenantId>,
}

impl Payer {
    pub fn agent(agent: AgentId) -> Payer {
        Payer { agent: Some(agent), tenant: None }
    }

    pub fn tenant(tenant: TenantId) -> Payer {
        Payer { agent: None, tenant: Some(tenant) }
    }
}

/// A hold on the books for one unit of paid work, to settle with what it cost (`Spender::spent`).
/// Its id can be stored with work that outlives a process (a transaction waiting to be mined).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    pub payer: Payer,
    pub id: MessageId,
}

/// Admits and books paid work that is not a model call. Made by the gateway
/// (`Gateway::spender`), so it judges the same limits with the same caps.
#[derive(Clone)]
pub struct Spender {
    pool: PgPool,
    domain: DomainSql,
    caps: SpendCaps,
}

impl Spender {
    pub(super) fn new(pool: PgPool, domain: DomainSql, caps: SpendCaps) -> Spender {
        Spender { pool, domain, caps }
    }

    /// Holds `usd`, the most a unit of work for `payer` may cost, against every limit that
    /// applies; `Ok(None)` for free work (nothing to hold), `Err` with the refusal when a limit
    /// is reached (nothing held, and the work must not run).
    pub async fn hold(&self, payer: Payer, usd: f64) -> anyhow::Result<Result<Option<Held>, Refusal>> {
        if usd.is_nan() || usd <= 0.0 {
            return Ok(Ok(None));
        }
        let cost = Cost { tokens: 0, usd };
        Ok(
            match reservations::admit(&self.pool, &self.domain, payer.agent, payer.tenant, None, cost, self.caps)
                .await?
            {
                Ok((id, _)) => Ok(Some(Held { payer, id })),
                Err(refusal) => Err(refusal),
            },
        )
    }

    /// Books `usd`, what the work held by `held` really cost (0 when it did not happen), and
    /// frees the rest of the hold. A failure is logged: the sweep settles a hold left behind.
    pub async fn spent(&self, held: Option<Held>, usd: f64) {
        let Some(held) = held else { return };
        let agent = held.payer.agent.map_or(NO_AGENT, |a| a.0);
        if let Err(e) = reservations::spend(&self.pool, agent, held.payer.tenant, held.id, usd).await {
            tracing::warn!(error = %e, usd, "could not book paid work");
        }
    }
}
