//! Proof of Contribution (SPEC I4, seed 001 §6.6): an agent's 0–100 score over five dimensions,
//! each explained sub-signal by sub-signal. `score` is the formula, `signals` the sub-signals and
//! their points (pure); this module measures an agent in SQL, and keeps the daily history that
//! the `poc_score` cycle writes and deep reflection reads.

pub mod score;
pub mod signals;

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;

use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::chain::Chain;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};
pub use score::{Backing, Dimension, Grade, Score, Signal, SignalStatus};
pub use signals::Measurements;

pub const CYCLE: &str = "poc_score";

/// An agent's score now, with every sub-signal.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Poc {
    pub agent_id: AgentId,
    /// 0–100.
    pub total: u32,
    pub grade: Grade,
    /// The weighted sum of the dimensions (the sum of their `weighted`), before the backing.
    pub base: f64,
    pub backing: Backing,
    /// identity, social, economy, skills, reputation.
    pub dimensions: Vec<Dimension>,
    pub computed_at: DateTime<Utc>,
}

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// How long the score waits for the node to tell a wallet's balance before leaving it out.
const BALANCE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// The balance of the agent's wallet (its server-managed one, else the first owner-held one
/// listed), read from the chain.
async fn funding(conn: &mut PgConnection, chain: Option<&Chain>, agent_id: AgentId) -> sqlx::Result<signals::Funding> {
    let Some(address) = crate::onchain::wallets::payout_address(conn, agent_id, true).await? else {
        return Ok(signals::Funding::NoWallet);
    };
    if chain.is_none() {
        return Ok(signals::Funding::Unread);
    }
    let read = tokio::time::timeout(BALANCE_WAIT, crate::onchain::wallets::balance(chain, &address)).await;
    Ok(match read.ok().and_then(Result::ok).and_then(|wei| wei.parse::<f64>().ok()) {
        Some(wei) => signals::Funding::Balance(wei / 1e18),
        None => signals::Funding::Unread,
    })
}

/// Measures one of the tenant's agents; `None` if the tenant has no such agent. `chain` is read
/// for the wallet's balance.
pub async fn measure(
    conn: &mut PgConnection,
    chain: Option<&Chain>,
    tenant_id: TenantId,
    agent_id: AgentId,
) -> sqlx::Result<Option<(Measurements, DateTime<Utc>)>> {
    let Some(agent) = crate::tenancy::agents::get(&mut *conn, tenant_id, agent_id).await? else {
        return Ok(None);
    };
    let now = Utc::now();
    let verified = crate::onchain::verification::current(conn, agent_id).await?;
    let (commerce, stakes) = economy(conn, agent_id).await?;
    let (server_wallet, owner_wallet) = crate::onchain::wallets::held(conn, agent_id).await?;
    let feed = crate::social::feed::counts(conn, agent_id).await?;
    let (published, sales, rating, ratings) = crate::social::skills::market(conn, agent_id).await?;
    let m = Measurements {
        verified,
        age_days: (now - agent.created_at).num_days().max(0),
        persona: !agent.persona.trim().is_empty(),
        avatar: !agent.emoji.trim().is_empty(),
        soul: crate::cognition::soul::exists(conn, agent_id).await?,
        active_days_7d: crate::chat::records::active_days(conn, agent_id, 7).await?.clamp(0, 7) as u32,
        wallet: if server_wallet {
            Some(signals::WalletKind::ServerManaged)
        } else if owner_wallet {
            Some(signals::WalletKind::OwnerHeld)
        } else {
            None
        },
        // A profile saved before any registration request leaves the status `none`.
        erc8004: crate::onchain::identity::registration(conn, agent_id).await?.filter(|(s, _)| s != "none"),
        social: signals::Social {
            posts: count(feed.posts),
            likes: count(feed.likes),
            comments: count(feed.comments),
            given: count(feed.given),
            digests: count(feed.digests),
        },
        market: signals::Market {
            published: count(published),
            sales_credits: sales,
            rating: rating.map(|avg| ((avg * 10.0).round() / 10.0, count(ratings))),
        },
        commerce,
        stakes,
        funding: funding(conn, chain, agent_id).await?,
    };
    Ok(Some((m, now)))
}

/// What the agent earned and sold, and the stakes behind it (`None` before anyone staked on it).
async fn economy(
    conn: &mut PgConnection,
    agent_id: AgentId,
) -> sqlx::Result<(signals::Commerce, Option<signals::Stakes>)> {
    let seller = crate::onchain::economy::standing::seller(conn, agent_id).await?;
    let backing = crate::onchain::economy::standing::backing(conn, agent_id).await?;
    let commerce = signals::Commerce {
        revenue_credits: crate::onchain::credits::revenue(conn, agent_id).await?,
        token: crate::onchain::economy::standing::token_deployment(conn, agent_id).await?.map(|s| match s.as_str() {
            "confirmed" => "deployed",
            "failed" | "cancelled" => "failed",
            _ => "deploying",
        }),
        active_services: count(seller.active_services),
        settled: count(seller.settled),
        refunded: count(seller.refunded),
        rating: seller.rating.map(|avg| ((avg * 10.0).round() / 10.0, count(seller.ratings))),
    };
    let stakes = (backing.ever > 0).then(|| signals::Stakes {
        count: count(backing.standing),
        validated: count(backing.validated),
        slashed: count(backing.slashed),
        volume: backing.volume,
        active: backing.active,
    });
    Ok((commerce, stakes))
}

/// The agent's score now; `None` if the tenant has no such agent.
pub async fn compute(
    pool: &PgPool,
    chain: Option<&Chain>,
    tenant_id: TenantId,
    agent_id: AgentId,
) -> sqlx::Result<Option<Poc>> {
    let mut conn = pool.acquire().await?;
    let Some((m, computed_at)) = measure(&mut conn, chain, tenant_id, agent_id).await? else { return Ok(None) };
    let s = signals::assess(&m);
    Ok(Some(Poc {
        agent_id,
        total: s.total,
        grade: s.grade,
        base: s.base,
        backing: s.backing,
        dimensions: s.dimensions,
        computed_at,
    }))
}

/// One day of an agent's score history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PocDay {
    /// The UTC day.
    pub day: NaiveDate,
    pub total: i32,
    /// S, A, B, C or D.
    pub grade: String,
    /// Each dimension's 0–100 score: `{"identity": …, "social": …, …}`.
    #[schema(value_type = Object)]
    pub dimensions: serde_json::Value,
    /// The backing multiplier applied (1.0–1.1).
    pub multiplier: f64,
    pub computed_at: DateTime<Utc>,
}

/// Computes the agent's score and stores it as today's (UTC) entry: one row per agent and day,
/// a later run the same day replaces it. `None` if the tenant has no such agent.
pub async fn record_today(
    pool: &PgPool,
    chain: Option<&Chain>,
    tenant_id: TenantId,
    agent_id: AgentId,
) -> sqlx::Result<Option<PocDay>> {
    let Some(p) = compute(pool, chain, tenant_id, agent_id).await? else { return Ok(None) };
    let dimensions: serde_json::Map<String, serde_json::Value> =
        p.dimensions.iter().map(|d| (d.key.to_string(), json!(d.score))).collect();
    let day = sqlx::query_as!(
        PocDay,
        r#"INSERT INTO poc_scores (agent_id, day, total, grade, dimensions, multiplier, computed_at)
           VALUES ($1, ($6::timestamptz AT TIME ZONE 'UTC')::date, $2, $3, $4, $5, $6)
           ON CONFLICT (agent_id, day) DO UPDATE
              SET total = excluded.total, grade = excluded.grade, dimensions = excluded.dimensions,
                  multiplier = excluded.multiplier, computed_at = excluded.computed_at
           RETURNING day, total::int AS "total!", grade, dimensions, multiplier, computed_at"#,
        agent_id as _,
        p.total as i16,
        p.grade.as_str(),
        serde_json::Value::Object(dimensions),
        p.backing.multiplier,
        p.computed_at
    )
    .fetch_one(pool)
    .await?;
    Ok(Some(day))
}

/// The agent's stored scores, newest day first, at most `limit` of them, before `before`.
pub async fn history(
    pool: &PgPool,
    agent_id: AgentId,
    limit: i64,
    before: Option<NaiveDate>,
) -> sqlx::Result<Vec<PocDay>> {
    sqlx::query_as!(
        PocDay,
        r#"SELECT day, total::int AS "total!", grade, dimensions, multiplier, computed_at
             FROM poc_scores WHERE agent_id = $1 AND ($2::date IS NULL OR day < $2) ORDER BY day DESC LIMIT $3"#,
        agent_id as _,
        before,
        limit
    )
    .fetch_all(pool)
    .await
}

/// The days the agent's grade changed: (day, the new grade, when it was computed, the grade
/// before, `None` on the first day).
pub async fn grade_changes(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<Vec<GradeChange>> {
    let rows = sqlx::query!(
        r#"SELECT day AS "day!", grade AS "grade!", computed_at AS "computed_at!", before FROM (
             SELECT day, grade, computed_at, lag(grade) OVER (ORDER BY day) AS before FROM poc_scores WHERE agent_id = $1) p
            WHERE before IS DISTINCT FROM grade"#,
        agent_id as _
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|r| (r.day, r.grade, r.computed_at, r.before)).collect())
}

type GradeChange = (NaiveDate, String, DateTime<Utc>, Option<String>);

/// The agent's most recent stored score.
pub async fn latest(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<Option<PocDay>> {
    Ok(history(pool, agent_id, 1, None).await?.into_iter().next())
}

/// The daily per-agent cycle that stores the score history.
pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            CYCLE,
            CycleScope::Agent,
            "Proof of Contribution (I4), daily: computes the agent's score and stores it as today's entry of its history.",
            |ctx: JobContext| async move {
                let (agent, tenant) = ctx.agent().await?;
                let chain = ctx.deps.as_ref().and_then(|d| d.chain.as_deref());
                let day = record_today(&ctx.pool, chain, tenant, agent)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("agent {agent} no longer exists"))?;
                Ok(json!({ "day": day.day, "total": day.total, "grade": day.grade }))
            },
        )
        .every(std::time::Duration::from_secs(24 * 3600)),
    ]
}
