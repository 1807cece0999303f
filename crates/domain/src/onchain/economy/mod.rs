//! The agent economy (SPEC I6–I8) on platform credits and the agents' wallets.
//!
//! - `tips`: owner → agent, agent → agent, and agent → owner gifts, in credits or native value.
//! - `services`: what an agent sells, priced in credits (and optionally in wei).
//! - `orders`: a buyer agent's order of a seller's service, `offered → accepted → delivered →
//!   settled | disputed | refunded`, the price held in the ledger while it runs.
//! - `payments`: paid service calls in the x402 style (402 with payment requirements, a retry
//!   with proof, verified against the ledger or the chain, each proof good once).
//! - `stakes`: conviction staking on agents and skills (credits, or the agent's own token),
//!   validations and slashes; `signals`: the pools they make per topic.
//! - `summary`: an agent's economy at a glance (the dashboard's tab, the gateway's summary).
//! - `token`: an agent's ERC-20, deployed from its wallet, indexed from its events, evaluated.
//! - `escrow`: orders whose price in wei is held by the escrow contract.
//! - `gas`: the platform's gas subsidy for agent wallets.
//! - `onchain`: requesting the economy's transactions and the job that settles them.
//!
//! Counterparties are agents anywhere on the platform, addressed by their public id: a tip or an
//! order crosses tenants by design. Each side sees the tip or the order and nothing else of the
//! other's, and every movement is in the activity log of both agents.

pub mod escrow;
pub mod gas;
pub mod onchain;
pub mod orders;
pub mod payments;
pub mod services;
pub mod signals;
pub mod stakes;
pub mod standing;
pub mod summary;
pub mod tips;
pub mod token;

use serde_json::Value;
use sqlx::PgConnection;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};

/// The longest idempotency key, in characters.
pub const KEY_MAX: usize = 200;

/// An idempotency key as given: 1–200 characters.
pub fn idempotency_key(key: &str) -> Result<String, Error> {
    let k = key.trim();
    if k.is_empty() {
        return Err(Error::validation("idempotency_key", "idempotency_key is required: any unique string per action"));
    }
    if k.chars().count() > KEY_MAX {
        return Err(Error::too_long("idempotency_key", KEY_MAX, k.chars().count()));
    }
    Ok(k.to_string())
}

/// An idempotency key's unique index refusing a row: the key was used for something else (409).
pub fn key_conflict(e: sqlx::Error) -> Error {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            Error::Conflict("this idempotency key was used for a different action; use a new key".into())
        }
        _ => e.into(),
    }
}

/// An amount of credits: a positive whole number, at most a billion.
pub fn credits(field: &str, amount: i64) -> Result<i64, Error> {
    if !(1..=1_000_000_000).contains(&amount) {
        return Err(Error::validation(field, format!("{field} is a whole number of credits from 1 to 1,000,000,000")));
    }
    Ok(amount)
}

/// An optional memo: at most 500 characters, blank is none.
pub fn memo(memo: Option<&str>) -> Result<Option<String>, Error> {
    let Some(m) = memo.map(str::trim).filter(|m| !m.is_empty()) else { return Ok(None) };
    let n = m.chars().count();
    if n > 500 {
        return Err(Error::too_long("memo", 500, n));
    }
    Ok(Some(m.to_string()))
}

/// A live agent anywhere on the platform, and its tenant: 404 when there is none.
pub async fn counterparty(conn: &mut PgConnection, agent: AgentId) -> Result<TenantId, Error> {
    crate::tenancy::agents::tenant_of(conn, agent).await?.ok_or_else(|| Error::not_found("agent"))
}

/// Records an economy event in the activity log of each agent involved (once per agent).
pub async fn record(
    conn: &mut PgConnection,
    parties: &[(TenantId, AgentId)],
    origin: &Origin,
    action: &str,
    details: Value,
) -> sqlx::Result<()> {
    let mut seen: Vec<AgentId> = Vec::with_capacity(parties.len());
    for &(tenant, agent) in parties {
        if !seen.contains(&agent) {
            seen.push(agent);
            activity::record_agent(conn, tenant, agent, origin, action, details.clone()).await?;
            if let Some(event) = webhook_event(action) {
                let mut data = details.clone();
                if let Some(d) = data.as_object_mut() {
                    d.insert("action".into(), action.into());
                }
                crate::channels::webhooks::emit(conn, agent, event, data).await?;
            }
        }
    }
    Ok(())
}

/// The webhook event an economy action is for each party, if any.
fn webhook_event(action: &str) -> Option<&'static str> {
    if action.starts_with("economy.order_") || action.starts_with("economy.escrow_") {
        Some("order.updated")
    } else if action == "economy.payment" {
        Some("payment.made")
    } else {
        None
    }
}

/// The agent a chat names (by id, or by name: the owner's own agents first, then the platform's),
/// with its name; why not when none or several match.
pub async fn find_agent(
    pool: &sqlx::PgPool,
    tenant: TenantId,
    from: AgentId,
    named: &str,
) -> Result<(AgentId, String), String> {
    let named = named.trim();
    let by_id = named.parse::<uuid::Uuid>().ok();
    let rows = crate::tenancy::agents::named(pool, tenant, from, by_id, named)
        .await
        .map_err(|e| format!("the agents could not be read: {e}"))?;
    let own: Vec<_> = rows.iter().filter(|r| r.2).collect();
    let pick = match (own.len(), rows.len()) {
        (1, _) => own[0],
        (0, 1) => &rows[0],
        (0, 0) => return Err(format!("no agent is called {named:?}")),
        _ => return Err(format!("several agents are called {named:?}: name it by id")),
    };
    Ok((pick.0, pick.1.clone()))
}

#[cfg(test)]
mod webhook_tests {
    use super::webhook_event;

    #[test]
    fn order_steps_and_payments_are_webhook_events() {
        assert_eq!(webhook_event("economy.order_offered"), Some("order.updated"));
        assert_eq!(webhook_event("economy.escrow_releasing"), Some("order.updated"));
        assert_eq!(webhook_event("economy.payment"), Some("payment.made"));
        assert_eq!(webhook_event("economy.service_saved"), None);
    }
}
