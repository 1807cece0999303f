//! Analytics (SPEC D1, D2, D4): what an agent's (or a tenant's) chat turns and model calls cost,
//! how fast and how well they went, over a date range.
//!
//! - `rollup`: the hourly rollups and the cycle that keeps them.
//! - `hist`: latency histograms that survive the rollup (percentiles within 5 %).
//! - `summary`: adding hours up into the metrics an answer shows.
//! - `snapshots`: the daily per-agent snapshots (D2).
//! - `quality`: the daily quality evaluation of up to ten exchanges (D3).
//! - `compare`: batch efficiency and period-over-period comparison (D4).
//! - `verticals`: the five vertical metrics of a tenant or the platform, cached 60 s (D5).
//! - `brain`: the brain graph: PCA, K-Means, similarity edges and cluster labels (D6).

pub mod brain;
pub mod compare;
pub mod hist;
pub mod quality;
pub mod rollup;
pub mod snapshots;
pub mod summary;
pub mod turns;
pub mod verticals;

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::ids::{AgentId, TenantId};
pub use summary::{Acc, Metrics};

/// Whose analytics.
#[derive(Debug, Clone, Copy)]
pub enum Scope {
    Agent(AgentId),
    Tenant(TenantId),
}

impl Scope {
    fn agents(self) -> Option<Vec<Uuid>> {
        match self {
            Scope::Agent(a) => Some(vec![a.0]),
            Scope::Tenant(_) => None,
        }
    }
    fn tenant(self) -> Option<Uuid> {
        match self {
            Scope::Agent(_) => None,
            Scope::Tenant(t) => Some(t.0),
        }
    }
}

/// One agent's hour: the columns of `analytics_hourly`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HourRow {
    pub agent_id: Uuid,
    pub hour: DateTime<Utc>,
    pub tenant_id: Uuid,
    pub messages: i32,
    pub errors: i32,
    pub skipped: i32,
    pub cost_usd: f64,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub response_ms_sum: i64,
    pub triage_ms_sum: i64,
    pub triaged: i32,
    pub extractions: i32,
    pub flushes: i32,
    pub facts: i32,
    pub batch_size_sum: i64,
    pub batch_flushes: i32,
    pub threshold_sum: i64,
    pub thresholds: i32,
    pub context_tokens: i64,
    pub memories_used: i64,
    pub dossier_uses: i32,
    pub latency_hist: serde_json::Value,
    pub triage_hist: serde_json::Value,
    pub context_hist: serde_json::Value,
    pub generation_hist: serde_json::Value,
    pub dedup: serde_json::Value,
    pub intents: serde_json::Value,
    pub styles: serde_json::Value,
    pub skip_reasons: serde_json::Value,
    pub finish_reasons: serde_json::Value,
    pub channels: serde_json::Value,
    pub models: serde_json::Value,
}

/// One agent's model calls of one role and model in an hour: the columns of
/// `analytics_llm_hourly`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LlmRow {
    pub agent_id: Uuid,
    pub hour: DateTime<Utc>,
    pub role: String,
    pub provider: String,
    pub model: String,
    pub tenant_id: Uuid,
    pub calls: i32,
    pub errors: i32,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub cost_usd: f64,
    pub latency_ms_sum: i64,
}

const HOUR_COLUMNS: &str = "agent_id, hour, tenant_id, messages, errors, skipped, cost_usd, prompt_tokens, \
    completion_tokens, response_ms_sum, triage_ms_sum, triaged, extractions, flushes, facts, batch_size_sum, \
    batch_flushes, threshold_sum, thresholds, context_tokens, memories_used, dossier_uses, latency_hist, triage_hist, \
    context_hist, generation_hist, dedup, intents, styles, skip_reasons, finish_reasons, channels, models";

/// The hours of `[from, to)` (whole hours): rolled-up hours from the rollups, the rest computed
/// from the raw rows by the same statement, so the answer is as fresh as the data.
pub async fn hours(
    pool: &PgPool,
    scope: Scope,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> sqlx::Result<(Vec<HourRow>, Vec<LlmRow>)> {
    let split = rollup::watermark(pool).await?.map(rollup::hour_of).unwrap_or(from).clamp(from, to);
    // Dynamic: the column list is shared by both reads and the live part embeds the shared
    // hourly aggregate (`rollup::HOURLY_SELECT`).
    let filter = "hour >= $1 AND hour < $2 AND ($3::uuid[] IS NULL OR agent_id = ANY($3)) AND ($4::uuid IS NULL OR tenant_id = $4)";
    let mut rows: Vec<HourRow> = read(
        pool,
        &format!("SELECT {HOUR_COLUMNS} FROM analytics_hourly WHERE {filter} ORDER BY hour"),
        from,
        split,
        scope,
    )
    .await?;
    let llm_columns = "agent_id, hour, role, provider, model, tenant_id, calls, errors, prompt_tokens, \
        completion_tokens, cost_usd, latency_ms_sum";
    let mut llm: Vec<LlmRow> =
        read(pool, &format!("SELECT {llm_columns} FROM analytics_llm_hourly WHERE {filter}"), from, split, scope)
            .await?;
    if split < to {
        rows.extend(read::<HourRow>(pool, &rollup::HOURLY_SELECT, split, to, scope).await?);
        llm.extend(read::<LlmRow>(pool, &rollup::LLM_HOURLY_SELECT, split, to, scope).await?);
    }
    Ok((rows, llm))
}

/// Runs one of the hourly reads, whose parameters are always `[$1, $2)` and the scope (`$3`
/// agents, `$4` tenant).
async fn read<T>(pool: &PgPool, sql: &str, from: DateTime<Utc>, to: DateTime<Utc>, scope: Scope) -> sqlx::Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    sqlx::query_as(sql).bind(from).bind(to).bind(scope.agents()).bind(scope.tenant()).fetch_all(pool).await
}

/// How a range is cut into points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Granularity {
    Hour,
    Day,
}

impl Granularity {
    pub fn as_str(self) -> &'static str {
        match self {
            Granularity::Hour => "hour",
            Granularity::Day => "day",
        }
    }
    fn start_of(self, t: DateTime<Utc>) -> DateTime<Utc> {
        match self {
            Granularity::Hour => rollup::hour_of(t),
            Granularity::Day => t.date_naive().and_hms_opt(0, 0, 0).unwrap_or_default().and_utc(),
        }
    }
    fn step(self) -> Duration {
        match self {
            Granularity::Hour => Duration::hours(1),
            Granularity::Day => Duration::days(1),
        }
    }
}

/// The answer to "what happened between `from` and `to`".
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Analytics {
    /// `agent` or `tenant`.
    pub scope: &'static str,
    pub agent_id: Option<AgentId>,
    /// The range, widened to whole hours (or days at day granularity), UTC.
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    /// `hour` or `day`.
    pub granularity: &'static str,
    /// The whole range.
    pub totals: Metrics,
    /// Every hour or day of the range, empty ones included.
    pub series: Vec<Point>,
    /// Every model call (chat and background roles), by model and by call type.
    pub llm: summary::LlmSummary,
    /// The live memories of the agent (or tenant) now, by category.
    pub memory_categories: BTreeMap<String, i64>,
}

/// One hour or day of a series.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Point {
    pub start: DateTime<Utc>,
    pub messages: i64,
    pub failed_replies: i64,
    pub cost_usd: f64,
    pub latency_p50_ms: Option<f64>,
    pub latency_p95_ms: Option<f64>,
    pub triage_skip_rate: Option<f64>,
}

/// The longest range one request may ask for.
pub const MAX_DAYS: i64 = 400;

/// Analytics of `scope` over `[from, to)`, widened to whole hours or days.
pub async fn analytics(
    pool: &PgPool,
    scope: Scope,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    granularity: Granularity,
) -> sqlx::Result<Analytics> {
    let from = granularity.start_of(from);
    let to = {
        let start = granularity.start_of(to);
        if start < to { start + granularity.step() } else { start }
    };
    let (rows, llm) = hours(pool, scope, from, to).await?;
    let mut totals = Acc::default();
    let mut points: BTreeMap<DateTime<Utc>, Acc> = BTreeMap::new();
    let mut t = from;
    while t < to {
        points.insert(t, Acc::default());
        t += granularity.step();
    }
    for r in &rows {
        totals.add(r);
        points.entry(granularity.start_of(r.hour)).or_default().add(r);
    }
    let series = points
        .into_iter()
        .map(|(start, a)| {
            let m = a.metrics();
            Point {
                start,
                messages: m.messages,
                failed_replies: m.failed_replies,
                cost_usd: m.chat_cost_usd,
                latency_p50_ms: m.latency_ms.p50,
                latency_p95_ms: m.latency_ms.p95,
                triage_skip_rate: m.triage_skip_rate,
            }
        })
        .collect();
    let memory_categories = categories(pool, scope).await?;
    Ok(Analytics {
        scope: match scope {
            Scope::Agent(_) => "agent",
            Scope::Tenant(_) => "tenant",
        },
        agent_id: match scope {
            Scope::Agent(a) => Some(a),
            Scope::Tenant(_) => None,
        },
        from,
        to,
        granularity: granularity.as_str(),
        totals: totals.metrics(),
        series,
        llm: summary::llm(&llm),
        memory_categories,
    })
}

/// The live memories by category, now.
async fn categories(pool: &PgPool, scope: Scope) -> sqlx::Result<BTreeMap<String, i64>> {
    let rows =
        crate::memory::live_by_category(pool, scope.agents().and_then(|a| a.first().copied()), scope.tenant()).await?;
    Ok(rows.into_iter().collect())
}

/// An end user is erased (SPEC H2): the per-turn records of their conversations and the
/// quality judgements of their messages go (the hourly rollups keep only counts). In the
/// caller's transaction.
pub async fn forget_turns(
    conn: &mut sqlx::PgConnection,
    agent: miniclaw_core::ids::AgentId,
    conversations: &[uuid::Uuid],
    messages: &[uuid::Uuid],
) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM chat_analytics WHERE agent_id = $1 AND conversation_id = ANY($2)",
        agent as _,
        conversations
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "DELETE FROM quality_evaluations WHERE agent_id = $1 AND (message_id = ANY($2) OR reply_id = ANY($2))",
        agent as _,
        messages
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}
