//! Conviction staking (SPEC I7). An owner or an agent stakes credits behind an agent or a skill
//! on a topic; the credits are held (`staker → HOLDS`) while the stake is active. An agent may
//! stake its own token instead: it sends the tokens to the platform's sponsor wallet (the
//! custodian; the stake is `pending` until that transfer is mined), and the sponsor sends them
//! back or to the slash sink (`MINICLAW_SLASH_SINK_ADDRESS`) when the stake ends. Conviction
//! grows with the stake's age:
//!
//! ```text
//! conviction(age) = amount × (1 − 2^(−age / 7 days))
//! ```
//!
//! half of the amount after a week, three quarters after two, the whole of it in the limit: a
//! stake cannot buy conviction, only time can. The operator, or a recorded outcome for an agent
//! and topic, validates a stake (the credits go back to the staker) or slashes it (they go to
//! `SINK`); the staker may withdraw an active stake (its conviction is gone). `signals` sums
//! them per topic. Stakes on an agent feed its PoC reputation, credits its backing.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::tips::Payer;
use super::{counterparty, idempotency_key, record};
use crate::onchain::credits::{self, HOLDS, Holder, Move};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;

/// Days after which a stake has half its amount as conviction.
pub const HALF_LIFE_DAYS: f64 = 7.0;

/// The conviction of `amount` staked `age_days` ago.
pub fn conviction(amount: i64, age_days: f64) -> f64 {
    amount as f64 * (1.0 - (-age_days.max(0.0) / HALF_LIFE_DAYS).exp2())
}

/// What a stake backs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    Agent,
    Skill,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StakeRequest {
    pub from: Payer,
    pub target: TargetKind,
    /// The agent backed (`target: agent`); default the agent in the path.
    pub agent_id: Option<AgentId>,
    /// The skill backed (`target: skill`), by its marketplace name.
    pub skill: Option<String>,
    /// The signal pool: 1–40 lower-case letters, digits and dashes, e.g. `research`.
    pub topic: String,
    /// Credits, or (`asset: token`) whole tokens, to stake.
    pub amount: i64,
    /// `credits` (default), or `token`: the staking agent's own token (`from: agent`).
    #[serde(default)]
    pub asset: Asset,
    pub idempotency_key: String,
}

/// What is staked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Asset {
    #[default]
    Credits,
    Token,
}

/// A stake and its conviction now.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Stake {
    pub id: Uuid,
    /// The staking agent; `null` when its owner staked.
    pub staker_agent_id: Option<Uuid>,
    /// `agent` or `skill`.
    pub target_kind: String,
    /// The agent backed (for a skill, its publisher).
    pub target_agent_id: Uuid,
    pub target_skill_id: Option<Uuid>,
    pub topic: String,
    /// `credits` or `token` (the staking agent's own).
    pub asset: String,
    /// Credits, or whole tokens.
    pub amount: i64,
    /// Token stakes: the base units held.
    pub units: Option<String>,
    /// `active`, `validated`, `slashed` or `withdrawn`; a token stake is `pending` until its
    /// transfer to the custodian is mined, `failed` if it was not.
    pub status: String,
    /// Token stakes: the status of the transfer that returned or slashed the tokens.
    pub payout: Option<String>,
    /// Of an active stake; 0 once it is resolved or withdrawn.
    pub conviction: f64,
    pub outcome: Option<String>,
    pub created_at: DateTime<Utc>,
    pub resolved_at: Option<DateTime<Utc>>,
}

struct Row {
    id: Uuid,
    staker_agent: Option<Uuid>,
    target_kind: String,
    target_agent: Uuid,
    target_skill: Option<Uuid>,
    topic: String,
    asset: String,
    amount: i64,
    units: Option<String>,
    status: String,
    payout: Option<String>,
    outcome: Option<String>,
    created_at: DateTime<Utc>,
    resolved_at: Option<DateTime<Utc>>,
    age_days: f64,
}

impl From<Row> for Stake {
    fn from(r: Row) -> Stake {
        Stake {
            conviction: if r.status == "active" { conviction(r.amount, r.age_days) } else { 0.0 },
            id: r.id,
            staker_agent_id: r.staker_agent,
            target_kind: r.target_kind,
            target_agent_id: r.target_agent,
            target_skill_id: r.target_skill,
            topic: r.topic,
            asset: r.asset,
            amount: r.amount,
            units: r.units,
            status: r.status,
            payout: r.payout,
            outcome: r.outcome,
            created_at: r.created_at,
            resolved_at: r.resolved_at,
        }
    }
}

macro_rules! select_stakes {
    ($where:literal, $($arg:expr),*) => {
        sqlx::query_as!(
            Row,
            r#"SELECT s.id, s.staker_agent, s.target_kind, s.target_agent, s.target_skill, s.topic, s.asset, s.amount, s.units,
                      s.status, w.status AS "payout?", s.outcome, s.created_at, s.resolved_at,
                      (extract(epoch FROM now() - s.created_at) / 86400)::float8 AS "age_days!"
                 FROM stakes s LEFT JOIN wallet_transactions w ON w.id = s.close_tx "# + $where,
            $($arg),*
        )
    };
}

mod end;
pub use end::{Outcome, Resolution, resolve, settled, withdraw};

pub fn check_topic(topic: &str) -> Result<String, Error> {
    let t = topic.trim().to_ascii_lowercase();
    super::services::check_slug(&t).map_err(|_| {
        Error::validation("topic", "a topic is 1–40 lower-case letters, digits and dashes, not starting with a dash")
    })?;
    Ok(t)
}

/// Stakes credits (or the agent's own token) from the agent in the path (or its owner's credits).
pub async fn stake(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    is_owner: bool,
    req: StakeRequest,
) -> Result<(Stake, bool), Error> {
    let pool = &deps.pool;
    let key = idempotency_key(&req.idempotency_key)?;
    let topic = check_topic(&req.topic)?;
    let amount = super::credits("amount", req.amount)?;
    if req.asset == Asset::Token && req.from == Payer::Owner {
        return Err(Error::validation("asset", "tokens are staked by the agent whose token it is (`from: agent`)"));
    }
    if req.from == Payer::Owner && !is_owner {
        return Err(Error::Refused {
            code: "owner_only",
            message: "only the owner stakes the owner's credits: an API key stakes as the agent (`from: agent`)".into(),
        });
    }
    let mut db = pool.begin().await?;
    let (target_agent, target_skill) = match req.target {
        TargetKind::Agent => (req.agent_id.unwrap_or(agent), None),
        TargetKind::Skill => {
            let slug = req.skill.as_deref().map(str::trim).unwrap_or("");
            if slug.is_empty() {
                return Err(Error::validation("skill", "staking on a skill needs its name in `skill`"));
            }
            let (skill_id, publisher) =
                crate::social::skills::publisher_of(&mut db, slug).await?.ok_or_else(|| Error::not_found("skill"))?;
            let publisher = publisher.ok_or_else(|| Error::Unprocessable {
                code: "skill_without_agent",
                message: "this skill's publishing agent is gone: there is no one to back".into(),
                details: None,
            })?;
            (publisher, Some(skill_id))
        }
    };
    let target_tenant = counterparty(&mut db, target_agent).await?;
    let (payer, staker_agent) = match req.from {
        Payer::Owner => (Holder::Tenant(tenant), None),
        Payer::Agent => (Holder::Agent(tenant, agent), Some(agent)),
    };
    let id = Uuid::now_v7();
    // Credits are held now; tokens go to the custodian, and the stake waits for that transfer.
    let (status, hold, units, stake_tx) = match req.asset {
        Asset::Credits => {
            let from = credits::account(&mut db, payer).await?;
            let memo = Some(format!("staked on {topic}"));
            let m = Move { from, to: HOLDS, amount, kind: "stake", memo, key: format!("stake:{key}") };
            let t = credits::transfer(&mut db, m).await?;
            if t.replayed {
                drop(db);
                let row = select_stakes!("WHERE s.hold_transfer = $1", t.id).fetch_one(pool).await?;
                return Ok((row.into(), false));
            }
            ("active", Some(t.id), None, None)
        }
        Asset::Token => {
            sqlx::query!("SELECT 1 AS one FROM agent_wallets WHERE agent_id = $1 FOR UPDATE", agent as _)
                .fetch_optional(&mut *db)
                .await?
                .ok_or_else(crate::onchain::wallets::no_wallet)?;
            let earlier = select_stakes!(
                "WHERE s.tenant_id = $1 AND s.staker_agent = $2 AND s.idempotency_key = $3",
                tenant as _,
                agent as _,
                key
            )
            .fetch_optional(&mut *db)
            .await?;
            if let Some(row) = earlier {
                return Ok((row.into(), false));
            }
            let custodian = super::escrow::arbiter(deps).await?;
            let (units, tx) = super::token::stake(&mut db, deps, agent, origin, custodian, amount).await?;
            ("pending", None, Some(units.to_string()), Some(tx))
        }
    };
    sqlx::query!(
        "INSERT INTO stakes (id, tenant_id, staker_agent, target_kind, target_agent, target_skill, topic, amount, status,
                             idempotency_key, hold_transfer, asset, units, stake_tx)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        id,
        tenant as _,
        staker_agent.map(|a| a.0),
        if target_skill.is_some() { "skill" } else { "agent" },
        target_agent as _,
        target_skill,
        topic,
        amount,
        status,
        key,
        hold,
        if units.is_some() { "token" } else { "credits" },
        units,
        stake_tx
    )
    .execute(&mut *db)
    .await
    .map_err(super::key_conflict)?;
    let parties = [(tenant, agent), (target_tenant, target_agent)];
    let details = json!({ "stake": id, "topic": topic, "amount": amount, "asset": req.asset, "status": status,
                          "target_agent": target_agent, "skill": target_skill });
    record(&mut db, &parties, origin, "economy.staked", details).await?;
    db.commit().await?;
    Ok((get(pool, id).await?, true))
}

pub async fn get(pool: &PgPool, id: Uuid) -> Result<Stake, Error> {
    Ok(select_stakes!("WHERE s.id = $1", id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| Error::not_found("stake"))?
        .into())
}

/// The stakes the agent made or that back it, newest first; with `owner`, the owner's stakes
/// on any agent too (for the owner's eyes only).
pub async fn list(
    pool: &PgPool,
    agent: AgentId,
    owner: Option<TenantId>,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<Stake>> {
    let rows = select_stakes!(
        "WHERE (s.staker_agent = $1 OR s.target_agent = $1 OR (s.staker_agent IS NULL AND s.tenant_id = $4))
           AND ($2::uuid IS NULL OR s.id < $2) ORDER BY s.id DESC LIMIT $3",
        agent as _,
        before,
        limit,
        owner.map(|t| t.0)
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(Stake::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conviction_is_half_the_stake_after_a_week_and_grows_toward_it() {
        assert_eq!(conviction(100, 0.0), 0.0);
        assert!((conviction(100, 7.0) - 50.0).abs() < 1e-9);
        assert!((conviction(100, 14.0) - 75.0).abs() < 1e-9);
        assert!(conviction(100, 365.0) < 100.0 && conviction(100, 365.0) > 99.99);
        assert_eq!(conviction(100, -3.0), 0.0, "a clock running backwards gives no conviction");
        let mut last = 0.0;
        for day in 0..60 {
            let c = conviction(1000, f64::from(day));
            assert!(c >= last);
            last = c;
        }
    }
}
