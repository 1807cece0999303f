//! How stakes end: withdrawn by the staker, validated or slashed by the operator or a recorded
//! outcome; and token stakes becoming active once the custodian holds them.

use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{Row, Stake, check_topic};
use crate::onchain::credits::{self, HOLDS, Holder, Move, SINK};
use crate::onchain::economy::{counterparty, record};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;

/// How a stake ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The backing was right: the stake goes back to the staker.
    Validated,
    /// The backing was wrong: the stake goes to the sink.
    Slashed,
}

/// Ends one active stake: withdrawn by its staker, or validated or slashed by the operator.
async fn close(
    db: &mut sqlx::PgConnection,
    deps: &Deps,
    origin: &Origin,
    id: Uuid,
    status: &str,
    note: Option<&str>,
) -> Result<Stake, Error> {
    let s = sqlx::query!(
        "SELECT tenant_id, staker_agent, target_agent, amount, status, asset, units FROM stakes WHERE id = $1 FOR UPDATE",
        id
    )
    .fetch_optional(&mut *db)
    .await?
    .ok_or_else(|| Error::not_found("stake"))?;
    if s.status != "active" {
        return Err(Error::Conflict(format!("the stake is {}, not active", s.status)));
    }
    let tenant = TenantId(s.tenant_id);
    let staker = match s.staker_agent {
        Some(a) => Holder::Agent(tenant, AgentId(a)),
        None => Holder::Tenant(tenant),
    };
    let (close_transfer, close_tx) = match (s.asset.as_str(), s.staker_agent, s.units.as_deref()) {
        ("token", Some(staker), Some(units)) => {
            let tx =
                crate::onchain::economy::token::unstake(db, deps, AgentId(staker), origin, units, status == "slashed")
                    .await?;
            (None, Some(tx))
        }
        _ => {
            let to = if status == "slashed" { SINK } else { credits::account(db, staker).await? };
            let key = format!("stake:{id}:close");
            let m = Move { from: HOLDS, to, amount: s.amount, kind: "stake_release", memo: None, key };
            (Some(credits::transfer(db, m).await?.id), None)
        }
    };
    sqlx::query!(
        "UPDATE stakes SET status = $2, close_transfer = $3, close_tx = $4, outcome = $5, resolved_at = now() WHERE id = $1",
        id,
        status,
        close_transfer,
        close_tx,
        note
    )
    .execute(&mut *db)
    .await?;
    let target_tenant = counterparty(db, AgentId(s.target_agent)).await.ok();
    let mut parties = Vec::new();
    if let Some(a) = s.staker_agent {
        parties.push((tenant, AgentId(a)));
    }
    if let Some(t) = target_tenant {
        parties.push((t, AgentId(s.target_agent)));
    }
    record(
        db,
        &parties,
        origin,
        &format!("economy.stake_{status}"),
        json!({ "stake": id, "amount": s.amount, "note": note }),
    )
    .await?;
    let row = select_stakes!("WHERE s.id = $1", id).fetch_one(&mut *db).await?;
    Ok(row.into())
}

/// The staker takes an active stake back: the agent's own stake, or (owner) one of the owner's.
pub async fn withdraw(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    is_owner: bool,
    id: Uuid,
) -> Result<Stake, Error> {
    let mut db = deps.pool.begin().await?;
    let mine = sqlx::query_scalar!(
        "SELECT id FROM stakes WHERE id = $1 AND tenant_id = $2 AND (staker_agent = $3 OR ($4 AND staker_agent IS NULL))",
        id,
        tenant as _,
        agent as _,
        is_owner
    )
    .fetch_optional(&mut *db)
    .await?;
    if mine.is_none() {
        return Err(Error::not_found("stake"));
    }
    let s = close(&mut db, deps, origin, id, "withdrawn", None).await?;
    db.commit().await?;
    Ok(s)
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Resolution {
    /// One stake; or every active stake behind `agent_id` (on `topic` when given).
    pub stake_id: Option<Uuid>,
    pub agent_id: Option<AgentId>,
    pub topic: Option<String>,
    pub outcome: Outcome,
    /// What happened, at most 2,000 characters.
    pub note: String,
}

/// The operator validates or slashes one stake, or every active stake behind an agent on a
/// topic (a recorded outcome). Returns the stakes it ended.
pub async fn resolve(deps: &Deps, origin: &Origin, r: Resolution) -> Result<Vec<Stake>, Error> {
    let note = r.note.trim();
    if note.is_empty() {
        return Err(Error::validation("note", "a resolution says what happened in `note`"));
    }
    if note.chars().count() > 2000 {
        return Err(Error::too_long("note", 2000, note.chars().count()));
    }
    let topic = r.topic.as_deref().map(check_topic).transpose()?;
    let ids: Vec<Uuid> = match (r.stake_id, r.agent_id) {
        (Some(id), None) => vec![id],
        (None, Some(agent)) => {
            sqlx::query_scalar!(
            "SELECT id FROM stakes WHERE target_agent = $1 AND status = 'active' AND ($2::text IS NULL OR topic = $2)
              ORDER BY id",
            agent as _,
            topic
        )
            .fetch_all(&deps.pool)
            .await?
        }
        _ => {
            return Err(Error::validation("stake_id", "name either `stake_id` or `agent_id` (with an optional topic)"));
        }
    };
    let status = match r.outcome {
        Outcome::Validated => "validated",
        Outcome::Slashed => "slashed",
    };
    let mut db = deps.pool.begin().await?;
    // Every stake row first, in id order, then the transfers: a withdrawal of one of them (its
    // row, then the holds account) cannot wait on this batch while it waits on the withdrawal.
    sqlx::query!("SELECT id FROM stakes WHERE id = ANY($1) ORDER BY id FOR UPDATE", &ids).fetch_all(&mut *db).await?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        out.push(close(&mut db, deps, origin, id, status, Some(note)).await?);
    }
    db.commit().await?;
    Ok(out)
}

/// How often a slashed stake's payout is sent before it waits for the operator.
pub const SLASH_PAYOUT_ATTEMPTS: i32 = 3;

/// What a mined (or failed) token transfer means for its stake. The transfer to the custodian:
/// the stake is active, or failed. A failed slash payout leaves the stake slashed and is sent
/// again (`SLASH_PAYOUT_ATTEMPTS` in all, then the reason waits for the operator): reopened, the
/// staker could withdraw what was slashed. Another failed payout (a withdrawal, a validation)
/// puts the stake back to active with the reason, to be withdrawn or resolved again (nothing
/// left the custodian). Safe to run twice for one transaction.
pub async fn settled(deps: &Deps, tx: Uuid, error: Option<&str>) -> Result<(), Error> {
    let pool = &deps.pool;
    let status = if error.is_none() { "active" } else { "failed" };
    sqlx::query!("UPDATE stakes SET status = $2 WHERE stake_tx = $1 AND status = 'pending'", tx, status)
        .execute(pool)
        .await?;
    let Some(reason) = error else { return Ok(()) };
    let mut db = pool.begin().await?;
    let slashed = sqlx::query!(
        "SELECT id, staker_agent, units, payout_attempts FROM stakes WHERE close_tx = $1 AND status = 'slashed' FOR UPDATE",
        tx
    )
    .fetch_optional(&mut *db)
    .await?;
    if let Some(s) = slashed {
        let attempts = s.payout_attempts + 1;
        let again = match (s.staker_agent, s.units.as_deref()) {
            (Some(staker), Some(units)) if attempts < SLASH_PAYOUT_ATTEMPTS => {
                let origin = Origin::new(crate::tenancy::auth::Actor::Job("stake_slash_payout".into()), None);
                let token =
                    crate::onchain::economy::token::unstake(&mut db, deps, AgentId(staker), &origin, units, true);
                let again = token.await?;
                // Not at once: what made it fail (a paused token, an empty custodian) needs time.
                let job = format!("{}:{again}", crate::onchain::economy::onchain::JOB);
                let wait = std::time::Duration::from_secs(300 * attempts as u64);
                miniclaw_platform::jobs::queue::postpone(&mut db, &job, wait).await?;
                Some(again)
            }
            _ => None,
        };
        let outcome = match again {
            Some(_) => format!("the slash payout failed ({reason}); sent again"),
            None => format!("the slash payout failed {attempts} times ({reason}); the operator must send it"),
        };
        sqlx::query!(
            "UPDATE stakes SET close_tx = coalesce($2, close_tx), payout_attempts = $3, outcome = $4 WHERE id = $1",
            s.id,
            again,
            attempts,
            outcome
        )
        .execute(&mut *db)
        .await?;
        db.commit().await?;
        return Ok(());
    }
    sqlx::query!(
        "UPDATE stakes SET status = 'active', close_tx = NULL, resolved_at = NULL,
                outcome = 'the payout failed, so the stake is active again: ' || $2
          WHERE close_tx = $1 AND status <> 'slashed'",
        tx,
        reason
    )
    .execute(&mut *db)
    .await?;
    db.commit().await?;
    Ok(())
}
