//! Vertical metrics (D5, 001 §11): five independent views of the platform (trust, economy,
//! runtime, reputation, social), for one tenant or for the whole platform (the operator). Each
//! answer is kept 60 seconds in this process so frequent polling does not press the database.
//! A metric whose data the platform does not have yet is listed under `not_available` with the
//! reason, never given a number.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::PgPool;
use utoipa::ToSchema;

use miniclaw_core::ids::TenantId;
use miniclaw_platform::jobs::queue;

pub const VERTICALS: [&str; 5] = ["trust", "economy", "runtime", "reputation", "social"];
pub const CACHE_TTL: Duration = Duration::from_secs(60);

/// A metric the platform cannot measure yet, and why.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Unavailable {
    pub metric: &'static str,
    pub reason: &'static str,
}

/// One vertical's metrics.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Vertical {
    pub vertical: String,
    /// `tenant` (your agents) or `platform` (every tenant; the operator's view).
    pub scope: &'static str,
    #[schema(value_type = Object)]
    pub metrics: Value,
    pub not_available: Vec<Unavailable>,
    pub computed_at: DateTime<Utc>,
    /// Served from the 60-second cache.
    pub cached: bool,
}

type Key = (String, Option<TenantId>);
static CACHE: LazyLock<Mutex<HashMap<Key, (Instant, Vertical)>>> = LazyLock::new(Default::default);

/// The vertical for `tenant` (`None`: the platform), from the cache when it is younger than
/// `CACHE_TTL`. `None` for an unknown vertical.
pub async fn get(pool: &PgPool, vertical: &str, tenant: Option<TenantId>) -> sqlx::Result<Option<Vertical>> {
    if !VERTICALS.contains(&vertical) {
        return Ok(None);
    }
    let key = (vertical.to_string(), tenant);
    if let Some((at, v)) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&key)
        && at.elapsed() < CACHE_TTL
    {
        return Ok(Some(Vertical { cached: true, ..v.clone() }));
    }
    let t = tenant.map(|t| t.0);
    let (metrics, not_available) = match vertical {
        "trust" => trust(pool, t).await?,
        "economy" => economy(pool, t).await?,
        "runtime" => runtime(pool, t).await?,
        "reputation" => reputation(pool, t).await?,
        _ => social(pool, t).await?,
    };
    let v = Vertical {
        vertical: vertical.to_string(),
        scope: if tenant.is_some() { "tenant" } else { "platform" },
        metrics,
        not_available,
        computed_at: Utc::now(),
        cached: false,
    };
    CACHE.lock().unwrap_or_else(|e| e.into_inner()).insert(key, (Instant::now(), v.clone()));
    Ok(Some(v))
}

type Answer = (Value, Vec<Unavailable>);

async fn trust(pool: &PgPool, tenant: Option<uuid::Uuid>) -> sqlx::Result<Answer> {
    let r = crate::onchain::metrics::trust(pool, tenant).await?;
    Ok((
        json!({
            "verified_agents": r.verified_agents,
            "verification_records": r.verification_records,
            "verified_by_provider": r.by_provider.unwrap_or(json!({})),
            "talent_score_distribution": r.talent_bands.unwrap_or(json!({})),
        }),
        vec![Unavailable {
            metric: "unique_humans",
            reason: "verification records name the agent, not the person behind it",
        }],
    ))
}

async fn economy(pool: &PgPool, tenant: Option<uuid::Uuid>) -> sqlx::Result<Answer> {
    let r = crate::onchain::metrics::economy(pool, tenant).await?;
    Ok((
        json!({
            "wallets_created": r.wallets,
            "owner_held_wallets": r.owner_held,
            "erc8004_identities": r.identities,
            "sponsored_identities": r.sponsored,
            "confirmed_sends": r.sends,
            "tokens_deployed": r.tokens,
            "tips_by_status": r.tips.unwrap_or(json!({})),
            "orders_by_status": r.orders.unwrap_or(json!({})),
            "stakes_by_status": r.stakes.unwrap_or(json!({})),
        }),
        Vec::new(),
    ))
}

#[derive(sqlx::FromRow)]
struct Runtime {
    agents: i64,
    active: i64,
    conversations: i64,
    messages: i64,
    turns_24h: i64,
    avg_latency_ms: Option<f64>,
    queue: i64,
    dead: i64,
}

async fn runtime(pool: &PgPool, tenant: Option<uuid::Uuid>) -> sqlx::Result<Answer> {
    use crate::tenancy::agents::sql;
    // Built at run time: each count is its area's (`agents::sql`, `chat::records`, the queue's).
    let live = sql::in_scope("$1");
    let jobs_of_tenant = format!("($1::uuid IS NULL OR j.agent_id IN ({}))", sql::of_tenant("$1"));
    let r: Runtime = sqlx::query_as(&format!(
        "SELECT {agents} AS agents, {active} AS active, {conversations} AS conversations, {messages} AS messages,
                (SELECT count(*) FROM chat_analytics c
                  WHERE c.created_at > now() - interval '24 hours' AND ($1::uuid IS NULL OR c.tenant_id = $1)) AS turns_24h,
                (SELECT avg(c.response_ms)::float8 FROM chat_analytics c
                  WHERE c.created_at > now() - interval '24 hours' AND ($1::uuid IS NULL OR c.tenant_id = $1)) AS avg_latency_ms,
                {queue} AS queue, {dead} AS dead",
        agents = sql::count("$1", false),
        active = sql::count("$1", true),
        conversations = crate::chat::records::conversations_count_sql(&live),
        messages = crate::chat::records::messages_count_sql(&live),
        queue = queue::count_sql("'queued', 'running'", &jobs_of_tenant),
        dead = queue::count_sql("'dead'", &jobs_of_tenant),
    ))
    .bind(tenant)
    .fetch_one(pool)
    .await?;
    Ok((
        json!({
            "hosted_agents": r.agents,
            "active_agents": r.active,
            "conversations": r.conversations,
            "messages": r.messages,
            "turns_last_24h": r.turns_24h,
            "avg_latency_ms_last_24h": r.avg_latency_ms.map(|v| (v * 10.0).round() / 10.0),
            "task_queue": { "queued_or_running": r.queue, "dead": r.dead },
        }),
        Vec::new(),
    ))
}

async fn reputation(pool: &PgPool, tenant: Option<uuid::Uuid>) -> sqlx::Result<Answer> {
    let r = crate::onchain::metrics::reputation(pool, tenant).await?;
    Ok((
        json!({
            "agents_with_a_poc_score": r.scored,
            "avg_poc_score": r.avg_total.map(|v| (v * 10.0).round() / 10.0),
            "grade_distribution": r.grades.unwrap_or(json!({})),
            "dimension_averages": r.dimensions.unwrap_or(json!({})),
            "stakes_on_agents_by_status": r.stakes_on_agents.unwrap_or(json!({})),
        }),
        vec![Unavailable {
            metric: "badge_distribution",
            reason: "miniclaw awards no badges: the PoC grade (grade_distribution) is the reputation mark",
        }],
    ))
}

async fn social(pool: &PgPool, tenant: Option<uuid::Uuid>) -> sqlx::Result<Answer> {
    let r = crate::social::metrics::social(pool, tenant).await?;
    Ok((
        json!({
            "posts_by_visibility": r.posts.unwrap_or(json!({})),
            "likes": r.likes,
            "comments": r.comments,
            "skill_market": {
                "skills_published": r.skills_published,
                "installs": r.installs,
                "purchases": r.purchases,
                "reviews": r.reviews,
                "avg_rating": r.avg_rating,
            },
        }),
        Vec::new(),
    ))
}
