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

/// Measures one of the tenant's agents; `None` if the tenant has no such agent.
pub async fn measure(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    agent_id: AgentId,
) -> sqlx::Result<Option<(Measurements, DateTime<Utc>)>> {
    let Some(row) = sqlx::query!(
        r#"SELECT floor(extract(epoch FROM now() - a.created_at) / 86400)::bigint AS "age_days!",
                  btrim(a.persona) <> '' AS "persona!", btrim(a.emoji) <> '' AS "avatar!",
                  EXISTS (SELECT 1 FROM agent_souls s WHERE s.agent_id = a.id) AS "soul!",
                  (SELECT count(DISTINCT floor(extract(epoch FROM now() - m.created_at) / 86400))
                     FROM chat_messages m
                    WHERE m.agent_id = a.id AND m.role = 'user' AND m.created_at > now() - interval '7 days')
                  AS "active_days!",
                  EXISTS (SELECT 1 FROM agent_wallets w WHERE w.agent_id = a.id) AS "server_wallet!",
                  EXISTS (SELECT 1 FROM agent_external_wallets e WHERE e.agent_id = a.id) AS "owner_wallet!",
                  i.status AS "erc8004_status?", i.erc8004_id AS "erc8004_id?",
                  (SELECT count(*) FROM feed_posts f WHERE f.agent_id = a.id AND f.hidden_at IS NULL) AS "posts!",
                  (SELECT count(*) FROM feed_posts f WHERE f.agent_id = a.id AND f.hidden_at IS NULL AND f.source = 'digest') AS "digests!",
                  (SELECT count(*) FROM feed_likes l JOIN feed_posts f ON f.id = l.post_id
                    WHERE f.agent_id = a.id AND f.hidden_at IS NULL AND l.agent_id IS DISTINCT FROM a.id) AS "likes!",
                  (SELECT count(*) FROM feed_comments c JOIN feed_posts f ON f.id = c.post_id
                    WHERE f.agent_id = a.id AND f.hidden_at IS NULL AND c.agent_id IS DISTINCT FROM a.id) AS "comments!",
                  (SELECT count(*) FROM feed_likes l JOIN feed_posts f ON f.id = l.post_id WHERE l.agent_id = a.id AND f.agent_id <> a.id)
                  + (SELECT count(*) FROM feed_comments c JOIN feed_posts f ON f.id = c.post_id
                      WHERE c.agent_id = a.id AND f.agent_id <> a.id) AS "given!",
                  (SELECT count(*) FROM skills k WHERE k.agent_id = a.id) AS "published!",
                  (SELECT coalesce(sum(p.price), 0)::bigint FROM skill_purchases p JOIN skills k ON k.id = p.skill_id WHERE k.agent_id = a.id) AS "sales!",
                  (SELECT avg(r.rating)::float8 FROM skill_reviews r JOIN skills k ON k.id = r.skill_id WHERE k.agent_id = a.id) AS "rating?",
                  (SELECT count(*) FROM skill_reviews r JOIN skills k ON k.id = r.skill_id WHERE k.agent_id = a.id) AS "ratings!",
                  now() AS "now!"
             FROM agents a LEFT JOIN agent_identities i ON i.agent_id = a.id WHERE a.tenant_id = $1 AND a.id = $2 AND a.deleted_at IS NULL"#,
        tenant_id as _,
        agent_id as _
    )
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let verified = crate::verification::current(conn, agent_id).await?;
    let (commerce, stakes) = economy(conn, agent_id).await?;
    let m = Measurements {
        verified,
        age_days: row.age_days.max(0),
        persona: row.persona,
        avatar: row.avatar,
        soul: row.soul,
        active_days_7d: row.active_days.clamp(0, 7) as u32,
        wallet: if row.server_wallet {
            Some(signals::WalletKind::ServerManaged)
        } else if row.owner_wallet {
            Some(signals::WalletKind::OwnerHeld)
        } else {
            None
        },
        // A profile saved before any registration request leaves the status `none`.
        erc8004: row.erc8004_status.filter(|s| s != "none").map(|s| (s, row.erc8004_id)),
        social: signals::Social {
            posts: count(row.posts),
            likes: count(row.likes),
            comments: count(row.comments),
            given: count(row.given),
            digests: count(row.digests),
        },
        market: signals::Market {
            published: count(row.published),
            sales_credits: row.sales,
            rating: row.rating.map(|avg| ((avg * 10.0).round() / 10.0, count(row.ratings))),
        },
        commerce,
        stakes,
    };
    Ok(Some((m, row.now)))
}

/// What the agent earned and sold, and the stakes behind it (`None` before anyone staked on it).
async fn economy(
    conn: &mut PgConnection,
    agent_id: AgentId,
) -> sqlx::Result<(signals::Commerce, Option<signals::Stakes>)> {
    let r = sqlx::query!(
        r#"SELECT (SELECT coalesce(sum(e.amount), 0)::bigint FROM credit_entries e
                     JOIN credit_transfers t ON t.id = e.transfer_id JOIN credit_accounts a ON a.id = e.account_id
                    WHERE a.agent_id = $1 AND a.kind = 'agent' AND e.amount > 0
                      AND t.kind IN ('tip', 'order_settled', 'payment')) AS "revenue!",
                  (SELECT count(*) FROM agent_services WHERE agent_id = $1 AND active) AS "services!",
                  (SELECT w.status FROM agent_tokens t JOIN wallet_transactions w ON w.id = t.deploy_tx
                    WHERE t.agent_id = $1) AS "token_status?",
                  (SELECT count(*) FROM service_orders WHERE seller_agent = $1 AND status = 'settled') AS "settled!",
                  (SELECT count(*) FROM service_orders WHERE seller_agent = $1 AND status = 'refunded') AS "refunded!",
                  (SELECT avg(rating)::float8 FROM service_orders WHERE seller_agent = $1 AND rating IS NOT NULL) AS "rating?",
                  (SELECT count(rating) FROM service_orders WHERE seller_agent = $1) AS "ratings!",
                  (SELECT count(*) FROM stakes WHERE target_agent = $1 AND status NOT IN ('pending', 'failed')) AS "stakes_ever!",
                  (SELECT count(*) FROM stakes WHERE target_agent = $1 AND status IN ('active', 'validated')) AS "stakes!",
                  (SELECT count(*) FROM stakes WHERE target_agent = $1 AND status = 'validated') AS "validated!",
                  (SELECT count(*) FROM stakes WHERE target_agent = $1 AND status = 'slashed') AS "slashed!",
                  (SELECT coalesce(sum(amount), 0)::bigint FROM stakes
                    WHERE target_agent = $1 AND asset = 'credits' AND status IN ('active', 'validated')) AS "volume!",
                  (SELECT coalesce(sum(amount), 0)::bigint FROM stakes
                    WHERE target_agent = $1 AND asset = 'credits' AND status = 'active') AS "active!""#,
        agent_id as _
    )
    .fetch_one(conn)
    .await?;
    let commerce = signals::Commerce {
        revenue_credits: r.revenue,
        token: r.token_status.map(|s| match s.as_str() {
            "confirmed" => "deployed",
            "failed" | "cancelled" => "failed",
            _ => "deploying",
        }),
        active_services: count(r.services),
        settled: count(r.settled),
        refunded: count(r.refunded),
        rating: r.rating.map(|avg| ((avg * 10.0).round() / 10.0, count(r.ratings))),
    };
    let stakes = (r.stakes_ever > 0).then(|| signals::Stakes {
        count: count(r.stakes),
        validated: count(r.validated),
        slashed: count(r.slashed),
        volume: r.volume,
        active: r.active,
    });
    Ok((commerce, stakes))
}

/// The agent's score now; `None` if the tenant has no such agent.
pub async fn compute(pool: &PgPool, tenant_id: TenantId, agent_id: AgentId) -> sqlx::Result<Option<Poc>> {
    let mut conn = pool.acquire().await?;
    let Some((m, computed_at)) = measure(&mut conn, tenant_id, agent_id).await? else { return Ok(None) };
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
pub async fn record_today(pool: &PgPool, tenant_id: TenantId, agent_id: AgentId) -> sqlx::Result<Option<PocDay>> {
    let Some(p) = compute(pool, tenant_id, agent_id).await? else { return Ok(None) };
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
                let day = record_today(&ctx.pool, tenant, agent)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("agent {agent} no longer exists"))?;
                Ok(json!({ "day": day.day, "total": day.total, "grade": day.grade }))
            },
        )
        .every(std::time::Duration::from_secs(24 * 3600)),
    ]
}
