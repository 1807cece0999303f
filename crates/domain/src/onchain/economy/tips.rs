//! Tips and gifts (SPEC I6): an owner tips their agent, an agent tips another agent, an agent
//! gives its owner a gift. In credits the transfer is made at once (or waits for the owner's
//! confirmation when a chat tool asked for more than the owner's auto-approve limit); in native
//! value it is a send from the agent's wallet, within the wallet's limits, and in the agent's
//! own token a token transfer from it; the tip follows that transaction to its outcome (an unreachable node leaves it pending; the send job
//! resumes it and never pays twice).
//!
//! Idempotency: the same key from the same payer is the same tip. A retry returns it and moves
//! nothing; the same key for a different tip is 409.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{counterparty, idempotency_key, record};
use crate::onchain::credits::{self, Holder, Move};
use crate::onchain::wallets::send::{self, SendRequest};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;

/// Who pays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Payer {
    /// The owner, from the owner's credits, to the agent in the path (owner session only).
    Owner,
    /// The agent in the path.
    Agent,
}

/// What moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rail {
    /// Platform credits.
    #[default]
    Credits,
    /// The chain's native value (wei), from the agent's server-managed wallet.
    Native,
    /// The paying agent's own token (base units), from its wallet.
    Token,
}

impl Rail {
    pub fn as_str(self) -> &'static str {
        match self {
            Rail::Credits => "credits",
            Rail::Native => "native",
            Rail::Token => "token",
        }
    }
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TipRequest {
    pub from: Payer,
    /// The agent receiving it. Omitted when the agent pays: a gift to its owner (in native value,
    /// to the owner-held wallet listed on the agent). Omitted when the owner pays: this agent.
    pub to_agent_id: Option<AgentId>,
    #[serde(default)]
    pub rail: Rail,
    /// Credits (a whole number), wei, or base units of the agent's token, as a decimal string, e.g. `"5"`.
    pub amount: String,
    /// At most 500 characters.
    pub memo: Option<String>,
    /// Unique per tip from this payer: a retry with the same key returns the same tip.
    pub idempotency_key: String,
}

/// A tip or a gift.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Tip {
    pub id: Uuid,
    /// `tip` (to an agent) or `gift` (to the owner).
    pub kind: String,
    /// The paying agent; `null` when the owner paid.
    pub from_agent_id: Option<Uuid>,
    /// The agent receiving it; `null` for a gift to the owner.
    pub to_agent_id: Option<Uuid>,
    /// `credits`, `native` or `token`.
    pub rail: String,
    /// Credits, or wei, as a decimal string.
    pub amount: String,
    pub memo: Option<String>,
    /// `completed`, `awaiting_confirmation`, `cancelled`; in native value or tokens also
    /// `pending` (queued, signed or broadcast) and `failed`, following its wallet transaction.
    pub status: String,
    pub transfer_id: Option<Uuid>,
    pub wallet_transaction_id: Option<Uuid>,
    pub tx_hash: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A tip asked for, and whether it is new (a retry returns the earlier one).
#[derive(Debug)]
pub struct Given {
    pub tip: Tip,
    pub created: bool,
}

macro_rules! select_tips {
    ($where:literal, $($arg:expr),*) => {
        sqlx::query_as!(
            Tip,
            r#"SELECT t.id, CASE WHEN t.to_agent IS NULL THEN 'gift' ELSE 'tip' END AS "kind!", t.from_agent AS from_agent_id,
                      t.to_agent AS to_agent_id, t.rail, t.amount, t.memo,
                      CASE WHEN t.rail IN ('native', 'token') THEN
                           CASE w.status WHEN 'confirmed' THEN 'completed' WHEN 'failed' THEN 'failed'
                                         WHEN 'cancelled' THEN 'cancelled' WHEN 'awaiting_confirmation' THEN 'awaiting_confirmation'
                                         ELSE 'pending' END
                           ELSE t.status END AS "status!",
                      t.transfer_id, t.wallet_tx AS wallet_transaction_id, w.tx_hash AS "tx_hash?", t.created_at
                 FROM tips t LEFT JOIN wallet_transactions w ON w.id = t.wallet_tx "# + $where,
            $($arg),*
        )
    };
}

/// Asks for a tip from the agent in the path (or its owner). `confirm` says whether credits wait
/// for the owner's confirmation (a chat tool above the auto-approve limit); the API moves them at
/// once.
pub async fn give(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    is_owner: bool,
    req: TipRequest,
    confirm: bool,
) -> Result<Given, Error> {
    let key = idempotency_key(&req.idempotency_key)?;
    let memo = super::memo(req.memo.as_deref())?;
    // The amount as stored and compared: a plain decimal without leading zeros.
    let amount = match req.rail {
        Rail::Credits => parse_credits(&req.amount)?.to_string(),
        Rail::Native | Rail::Token => super::onchain::amount("amount", &req.amount)?.to_string(),
    };
    let mut db = deps.pool.begin().await?;
    counterparty(&mut db, agent).await?;
    let (payer, from_agent, payee, to_agent) = match req.from {
        Payer::Owner => {
            if !is_owner {
                return Err(Error::Refused {
                    code: "owner_only",
                    message: "only the owner spends the owner's credits: an API key tips as the agent (`from: agent`)"
                        .into(),
                });
            }
            if req.to_agent_id.is_some_and(|a| a != agent) {
                return Err(Error::validation("to_agent_id", "an owner tips the agent in the path"));
            }
            if req.rail != Rail::Credits {
                return Err(Error::validation(
                    "rail",
                    "an owner tips in credits; native value and tokens go from the owner's own wallet",
                ));
            }
            (Holder::Tenant(tenant), None, Holder::Agent(tenant, agent), Some((tenant, agent)))
        }
        // A paused agent moves no value of its own (its owner may still give it credits).
        Payer::Agent if !crate::tenancy::agents::is_active(&mut *db, agent).await? => {
            return Err(crate::onchain::wallets::paused());
        }
        Payer::Agent => match req.to_agent_id {
            Some(other) if other == agent => {
                return Err(Error::validation("to_agent_id", "an agent cannot tip itself"));
            }
            Some(other) => {
                let other_tenant = counterparty(&mut db, other).await?;
                (
                    Holder::Agent(tenant, agent),
                    Some(agent),
                    Holder::Agent(other_tenant, other),
                    Some((other_tenant, other)),
                )
            }
            None => (Holder::Agent(tenant, agent), Some(agent), Holder::Tenant(tenant), None),
        },
    };
    let to_tenant = to_agent.map_or(tenant, |(t, _)| t);
    let kind = if to_agent.is_some() { "tip" } else { "gift" };
    let (status, transfer_id, wallet_tx, amount) = match req.rail {
        Rail::Credits => {
            let amount = parse_credits(&amount)?;
            let from = credits::account(&mut db, payer).await?;
            let to = credits::account(&mut db, payee).await?;
            if confirm {
                ("awaiting_confirmation", None, None, amount.to_string())
            } else {
                let m = Move { from, to, amount, kind, memo: memo.clone(), key: format!("tip:{key}") };
                let t = credits::transfer(&mut db, m).await?;
                if t.replayed {
                    drop(db);
                    return Ok(Given { tip: by_transfer(&deps.pool, t.id).await?, created: false });
                }
                ("completed", Some(t.id), None, amount.to_string())
            }
        }
        Rail::Native | Rail::Token => {
            // The wallet row is the payer's lock: a retry waits here and then finds the tip.
            sqlx::query!("SELECT 1 AS one FROM agent_wallets WHERE agent_id = $1 FOR UPDATE", agent as _)
                .fetch_optional(&mut *db)
                .await?
                .ok_or_else(crate::onchain::wallets::no_wallet)?;
            if let Some(tip) = existing(&mut db, tenant, from_agent, &key).await? {
                return replay(tip, to_agent.map(|(_, a)| a), req.rail, &amount);
            }
            let to = address_of(&mut db, agent, to_agent.map(|(_, a)| a)).await?;
            let chain = send::configured(deps)?;
            if req.rail == Rail::Token {
                let tx = super::token::tip(&mut db, deps, agent, origin, &to, &amount).await?;
                ("pending", None, Some(tx), amount.clone())
            } else {
                let send = SendRequest { to, value_wei: amount.clone() };
                let w = send::request_in(&mut db, chain, tenant, agent, origin, send).await?;
                ("pending", None, Some(w.id), w.value_wei)
            }
        }
    };
    let id = Uuid::now_v7();
    let inserted = sqlx::query_scalar!(
        "INSERT INTO tips (id, tenant_id, from_agent, to_tenant, to_agent, rail, amount, memo, status, idempotency_key,
                           transfer_id, wallet_tx)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING RETURNING id",
        id,
        tenant as _,
        from_agent.map(|a| a.0),
        to_tenant as _,
        to_agent.map(|(_, a)| a.0),
        req.rail.as_str(),
        amount,
        memo,
        status,
        key,
        transfer_id,
        wallet_tx
    )
    .fetch_optional(&mut *db)
    .await?;
    if inserted.is_none() {
        // A concurrent request with the same key won (a credit tip awaiting confirmation).
        let tip = existing(&mut db, tenant, from_agent, &key).await?.ok_or_else(|| Error::not_found("tip"))?;
        return replay(tip, to_agent.map(|(_, a)| a), req.rail, &amount);
    }
    let mut parties = vec![(tenant, agent)];
    parties.extend(to_agent);
    let details = json!({ "tip": id, "kind": kind, "rail": req.rail.as_str(), "amount": amount, "status": status,
                          "from_agent": from_agent, "to_agent": to_agent.map(|(_, a)| a) });
    record(&mut db, &parties, origin, &format!("economy.{kind}"), details).await?;
    db.commit().await?;
    Ok(Given { tip: get(&deps.pool, id).await?, created: true })
}

/// A whole number of credits written as a string.
fn parse_credits(amount: &str) -> Result<i64, Error> {
    let n: i64 = amount.trim().parse().map_err(|_| {
        Error::validation("amount", "amount in credits is a whole number written as a string, e.g. \"5\"")
    })?;
    super::credits("amount", n)
}

/// The same key again: the same tip, or 409 when it asks for a different one.
fn replay(tip: Tip, to_agent: Option<AgentId>, rail: Rail, amount: &str) -> Result<Given, Error> {
    if tip.to_agent_id != to_agent.map(|a| a.0) || tip.rail != rail.as_str() || tip.amount != amount {
        return Err(Error::Conflict("this idempotency key was used for a different tip; use a new key".into()));
    }
    Ok(Given { tip, created: false })
}

async fn existing(
    conn: &mut PgConnection,
    tenant: TenantId,
    from_agent: Option<AgentId>,
    key: &str,
) -> sqlx::Result<Option<Tip>> {
    select_tips!(
        "WHERE t.tenant_id = $1 AND t.from_agent IS NOT DISTINCT FROM $2::uuid AND t.idempotency_key = $3",
        tenant as _,
        from_agent.map(|a| a.0),
        key
    )
    .fetch_optional(conn)
    .await
}

/// Where native value for `to` goes: the recipient agent's server-managed wallet, else the first
/// owner-held wallet listed on it; for a gift, the first owner-held wallet listed on the payer.
async fn address_of(conn: &mut PgConnection, payer: AgentId, to: Option<AgentId>) -> Result<String, Error> {
    let target = to.unwrap_or(payer);
    let address = crate::onchain::wallets::payout_address(conn, target, to.is_some()).await?;
    address.ok_or_else(|| Error::Unprocessable {
        code: "no_recipient_wallet",
        message: match to {
            Some(_) => "the receiving agent has no wallet to be paid in".into(),
            None => "a gift in native value goes to the owner's wallet, and none is listed on this agent \
                     (POST …/wallet/external)"
                .into(),
        },
        details: None,
    })
}

pub async fn get(pool: &PgPool, id: Uuid) -> Result<Tip, Error> {
    let mut conn = pool.acquire().await?;
    select_tips!("WHERE t.id = $1", id).fetch_optional(&mut *conn).await?.ok_or_else(|| Error::not_found("tip"))
}

async fn by_transfer(pool: &PgPool, transfer: Uuid) -> Result<Tip, Error> {
    let mut conn = pool.acquire().await?;
    select_tips!("WHERE t.transfer_id = $1", transfer)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("tip"))
}

/// The agent's tips and gifts, given and received (its owner's tips to it included), newest first.
pub async fn list(pool: &PgPool, agent: AgentId, limit: i64, before: Option<Uuid>) -> sqlx::Result<Vec<Tip>> {
    let mut conn = pool.acquire().await?;
    select_tips!(
        "WHERE (t.from_agent = $1 OR t.to_agent = $1) AND ($2::uuid IS NULL OR t.id < $2) ORDER BY t.id DESC LIMIT $3",
        agent as _,
        before,
        limit
    )
    .fetch_all(&mut *conn)
    .await
}

/// The owner's answer to a credit tip waiting for confirmation: made (moving the credits) or
/// cancelled. 409 when it is not waiting; 402 when the payer's credits no longer cover it.
pub async fn decide(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    id: Uuid,
    confirm: bool,
) -> Result<Tip, Error> {
    let mut db = pool.begin().await?;
    let t = sqlx::query!(
        "SELECT status, rail, from_agent, to_agent, to_tenant, amount, memo, idempotency_key FROM tips
          WHERE id = $1 AND tenant_id = $2 AND from_agent = $3 FOR UPDATE",
        id,
        tenant as _,
        agent as _
    )
    .fetch_optional(&mut *db)
    .await?
    .ok_or_else(|| Error::not_found("tip"))?;
    if t.rail != "credits" || t.status != "awaiting_confirmation" {
        return Err(Error::Conflict(format!(
            "the tip is {}, not awaiting confirmation{}",
            t.status,
            if t.rail != "credits" { " (an on-chain tip follows its wallet transaction)" } else { "" }
        )));
    }
    let kind = if t.to_agent.is_some() { "tip" } else { "gift" };
    let transfer = if confirm {
        let from = credits::account(&mut db, Holder::Agent(tenant, agent)).await?;
        let payee = match t.to_agent {
            Some(a) => Holder::Agent(TenantId(t.to_tenant), AgentId(a)),
            None => Holder::Tenant(tenant),
        };
        let to = credits::account(&mut db, payee).await?;
        let amount = parse_credits(&t.amount)?;
        let m = Move { from, to, amount, kind, memo: t.memo, key: format!("tip:{}", t.idempotency_key) };
        Some(credits::transfer(&mut db, m).await?.id)
    } else {
        None
    };
    sqlx::query!(
        "UPDATE tips SET status = $2, transfer_id = $3 WHERE id = $1",
        id,
        if confirm { "completed" } else { "cancelled" },
        transfer
    )
    .execute(&mut *db)
    .await?;
    let mut parties = vec![(tenant, agent)];
    if let Some(a) = t.to_agent {
        parties.push((TenantId(t.to_tenant), AgentId(a)));
    }
    let action = if confirm { "economy.tip_confirmed" } else { "economy.tip_cancelled" };
    record(&mut db, &parties, origin, action, json!({ "tip": id })).await?;
    db.commit().await?;
    get(pool, id).await
}
