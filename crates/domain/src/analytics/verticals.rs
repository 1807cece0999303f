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
        _ => social(),
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
    let r = sqlx::query!(
        r#"WITH latest AS (
              SELECT DISTINCT ON (v.agent_id, v.provider) v.agent_id, v.provider, v.status, v.score
                FROM verification_records v JOIN agents a ON a.id = v.agent_id
               WHERE a.deleted_at IS NULL AND ($1::uuid IS NULL OR a.tenant_id = $1)
               ORDER BY v.agent_id, v.provider, v.checked_at DESC, v.id DESC)
           SELECT (SELECT count(DISTINCT agent_id) FROM latest WHERE status = 'verified') AS "verified_agents!",
                  (SELECT count(*) FROM verification_records v JOIN agents a ON a.id = v.agent_id
                    WHERE $1::uuid IS NULL OR a.tenant_id = $1) AS "verification_records!",
                  (SELECT jsonb_object_agg(provider, n) FROM (SELECT provider, count(*) AS n FROM latest
                    WHERE status = 'verified' GROUP BY provider) p) AS "by_provider",
                  (SELECT jsonb_object_agg(band, n) FROM (SELECT CASE WHEN score < 25 THEN '0-25' WHEN score < 50 THEN '25-50'
                        WHEN score < 75 THEN '50-75' WHEN score < 100 THEN '75-100' ELSE '100+' END AS band, count(*) AS n
                     FROM latest WHERE provider = 'talent_protocol' AND status = 'verified' AND score IS NOT NULL
                    GROUP BY 1) b) AS "talent_bands""#,
        tenant
    )
    .fetch_one(pool)
    .await?;
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
    let r = sqlx::query!(
        r#"SELECT
              (SELECT count(*) FROM agent_wallets w JOIN agents a ON a.id = w.agent_id
                WHERE a.deleted_at IS NULL AND ($1::uuid IS NULL OR a.tenant_id = $1)) AS "wallets!",
              (SELECT count(*) FROM agent_external_wallets w JOIN agents a ON a.id = w.agent_id
                WHERE a.deleted_at IS NULL AND ($1::uuid IS NULL OR a.tenant_id = $1)) AS "owner_held!",
              (SELECT count(*) FROM agent_identities i JOIN agents a ON a.id = i.agent_id
                WHERE i.status = 'registered' AND a.deleted_at IS NULL AND ($1::uuid IS NULL OR a.tenant_id = $1)) AS "identities!",
              (SELECT count(*) FROM agent_identities i JOIN agents a ON a.id = i.agent_id
                 LEFT JOIN agent_wallets w ON w.agent_id = i.agent_id
                WHERE i.status = 'registered' AND a.deleted_at IS NULL AND ($1::uuid IS NULL OR a.tenant_id = $1)
                  AND i.owner_address IS DISTINCT FROM w.address) AS "sponsored!",
              (SELECT count(*) FROM wallet_transactions t JOIN agents a ON a.id = t.agent_id
                WHERE t.purpose = 'send' AND t.status = 'confirmed' AND ($1::uuid IS NULL OR a.tenant_id = $1)) AS "sends!""#,
        tenant
    )
    .fetch_one(pool)
    .await?;
    Ok((
        json!({
            "wallets_created": r.wallets,
            "owner_held_wallets": r.owner_held,
            "erc8004_identities": r.identities,
            "sponsored_identities": r.sponsored,
            "confirmed_sends": r.sends,
        }),
        vec![Unavailable { metric: "tokens_deployed", reason: "agent tokens are not part of the platform yet" }],
    ))
}

async fn runtime(pool: &PgPool, tenant: Option<uuid::Uuid>) -> sqlx::Result<Answer> {
    let r = sqlx::query!(
        r#"SELECT
              (SELECT count(*) FROM agents WHERE deleted_at IS NULL AND ($1::uuid IS NULL OR tenant_id = $1)) AS "agents!",
              (SELECT count(*) FROM agents WHERE deleted_at IS NULL AND active AND ($1::uuid IS NULL OR tenant_id = $1)) AS "active!",
              (SELECT count(*) FROM conversations c JOIN agents a ON a.id = c.agent_id
                WHERE a.deleted_at IS NULL AND ($1::uuid IS NULL OR a.tenant_id = $1)) AS "conversations!",
              (SELECT count(*) FROM chat_messages m JOIN agents a ON a.id = m.agent_id
                WHERE a.deleted_at IS NULL AND ($1::uuid IS NULL OR a.tenant_id = $1)) AS "messages!",
              (SELECT count(*) FROM chat_analytics c
                WHERE c.created_at > now() - interval '24 hours' AND ($1::uuid IS NULL OR c.tenant_id = $1)) AS "turns_24h!",
              (SELECT avg(c.response_ms)::float8 FROM chat_analytics c
                WHERE c.created_at > now() - interval '24 hours' AND ($1::uuid IS NULL OR c.tenant_id = $1)) AS "avg_latency_ms",
              (SELECT count(*) FROM jobs j LEFT JOIN agents a ON a.id = j.agent_id
                WHERE j.status IN ('queued', 'running') AND ($1::uuid IS NULL OR a.tenant_id = $1)) AS "queue!",
              (SELECT count(*) FROM jobs j LEFT JOIN agents a ON a.id = j.agent_id
                WHERE j.status = 'dead' AND ($1::uuid IS NULL OR a.tenant_id = $1)) AS "dead!""#,
        tenant
    )
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
    let r = sqlx::query!(
        r#"WITH latest AS (
              SELECT DISTINCT ON (p.agent_id) p.agent_id, p.total, p.grade, p.dimensions
                FROM poc_scores p JOIN agents a ON a.id = p.agent_id
               WHERE a.deleted_at IS NULL AND ($1::uuid IS NULL OR a.tenant_id = $1)
               ORDER BY p.agent_id, p.day DESC)
           SELECT (SELECT count(*) FROM latest) AS "scored!",
                  (SELECT avg(total)::float8 FROM latest) AS "avg_total",
                  (SELECT jsonb_object_agg(grade, n) FROM (SELECT grade, count(*) AS n FROM latest GROUP BY grade) g) AS "grades",
                  (SELECT jsonb_object_agg(k, round(a::numeric, 1)) FROM (SELECT d.key AS k, avg(d.value::float8) AS a
                     FROM latest, jsonb_each_text(latest.dimensions) d GROUP BY d.key) x) AS "dimensions""#,
        tenant
    )
    .fetch_one(pool)
    .await?;
    Ok((
        json!({
            "agents_with_a_poc_score": r.scored,
            "avg_poc_score": r.avg_total.map(|v| (v * 10.0).round() / 10.0),
            "grade_distribution": r.grades.unwrap_or(json!({})),
            "dimension_averages": r.dimensions.unwrap_or(json!({})),
        }),
        vec![
            Unavailable { metric: "badge_distribution", reason: "reputation badges are not part of the platform yet" },
            Unavailable { metric: "reputation_events", reason: "stakes and reviews are not part of the platform yet" },
        ],
    ))
}

fn social() -> Answer {
    (
        json!({}),
        vec![
            Unavailable { metric: "posts", reason: "the agent feed is not part of the platform yet" },
            Unavailable { metric: "likes", reason: "the agent feed is not part of the platform yet" },
            Unavailable { metric: "comments", reason: "the agent feed is not part of the platform yet" },
            Unavailable { metric: "skill_market", reason: "the skill market is not part of the platform yet" },
        ],
    )
}
