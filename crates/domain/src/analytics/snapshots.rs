//! Daily pipeline snapshots (D2, 001 §9.4.11): 23 metrics per agent and UTC day, written by the
//! daily `pipeline_snapshot` cycle. A run writes every day of the last 30 that has chat data and
//! no snapshot yet (the backfill of a first run) and rewrites yesterday and today; re-running a
//! day replaces its row.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;

use super::{Acc, Scope, hist, hours};
use miniclaw_core::ids::AgentId;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};

pub const CYCLE: &str = "pipeline_snapshot";
pub const BACKFILL_DAYS: i64 = 30;

/// One agent's day.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct Snapshot {
    pub day: NaiveDate,
    pub messages: i32,
    /// Every model call of the agent that day (chat and background), USD.
    pub total_cost_usd: f64,
    pub avg_cost_per_message: Option<f64>,
    pub avg_latency_ms: Option<f64>,
    pub p95_latency_ms: Option<f64>,
    pub avg_triage_ms: Option<f64>,
    pub triage_skip_rate: Option<f64>,
    pub extraction_rate: Option<f64>,
    pub avg_facts_per_extraction: Option<f64>,
    /// Shares of extraction's dedup outcomes.
    pub dedup_exact_match_rate: Option<f64>,
    pub dedup_llm_new_rate: Option<f64>,
    pub dedup_llm_update_rate: Option<f64>,
    pub dedup_llm_duplicate_rate: Option<f64>,
    pub dedup_no_existing_rate: Option<f64>,
    pub avg_batch_size: Option<f64>,
    pub avg_batch_threshold: Option<f64>,
    /// The day's quality evaluations averaged (1–10); `null` while none exist.
    pub avg_quality_score: Option<f64>,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub error_rate: Option<f64>,
    pub avg_context_tokens: Option<f64>,
    pub avg_memories_used: Option<f64>,
    pub dossier_use_rate: Option<f64>,
    pub computed_at: DateTime<Utc>,
}

/// The snapshot of a day's sums.
fn snapshot(day: NaiveDate, acc: &Acc, total_cost: f64, now: DateTime<Utc>) -> Snapshot {
    let m = acc.metrics();
    let dedup_total: i64 = m.dedup.values().sum();
    let share = |k: &str| {
        (dedup_total > 0).then(|| (*m.dedup.get(k).unwrap_or(&0) as f64 / dedup_total as f64 * 1e4).round() / 1e4)
    };
    Snapshot {
        day,
        messages: m.messages as i32,
        total_cost_usd: (total_cost * 1e8).round() / 1e8,
        avg_cost_per_message: m.cost_per_message,
        avg_latency_ms: m.latency_ms.avg,
        p95_latency_ms: hist::quantile(acc.latency(), 0.95),
        avg_triage_ms: m.triage_ms.avg,
        triage_skip_rate: m.triage_skip_rate,
        extraction_rate: m.extraction_rate,
        avg_facts_per_extraction: m.facts_per_extraction,
        dedup_exact_match_rate: share("exact_match"),
        dedup_llm_new_rate: share("llm_new"),
        dedup_llm_update_rate: share("llm_update"),
        dedup_llm_duplicate_rate: share("llm_duplicate"),
        dedup_no_existing_rate: share("no_existing"),
        avg_batch_size: m.avg_batch_size,
        avg_batch_threshold: m.avg_batch_threshold,
        // Filled from the day's quality evaluations by `run`.
        avg_quality_score: None,
        prompt_tokens: m.prompt_tokens,
        completion_tokens: m.completion_tokens,
        error_rate: m.error_rate,
        avg_context_tokens: m.avg_context_tokens,
        avg_memories_used: m.avg_memories_used,
        dossier_use_rate: m.dossier_use_rate,
        computed_at: now,
    }
}

/// Writes the agent's snapshots as of `now` (see the module). Returns the days written.
pub async fn run(pool: &PgPool, agent: AgentId, now: DateTime<Utc>) -> sqlx::Result<Vec<NaiveDate>> {
    let today = now.date_naive();
    let first = today - Duration::days(BACKFILL_DAYS);
    let from = first.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let to = (today + Duration::days(1)).and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let (rows, llm) = hours(pool, Scope::Agent(agent), from, to).await?;
    let mut days: BTreeMap<NaiveDate, (Acc, f64)> = BTreeMap::new();
    for r in &rows {
        days.entry(r.hour.date_naive()).or_default().0.add(r);
    }
    for l in &llm {
        if let Some(d) = days.get_mut(&l.hour.date_naive()) {
            d.1 += l.cost_usd;
        }
    }
    let done: Vec<NaiveDate> =
        sqlx::query_scalar!("SELECT day FROM pipeline_snapshots WHERE agent_id = $1 AND day >= $2", agent as _, first)
            .fetch_all(pool)
            .await?;
    let mut written = Vec::new();
    for (day, (acc, cost)) in days {
        if done.contains(&day) && day < today - Duration::days(1) {
            continue;
        }
        let mut s = snapshot(day, &acc, cost, now);
        let start = day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
        s.avg_quality_score = super::quality::average(pool, agent, start, start + Duration::days(1)).await?;
        sqlx::query!(
            "INSERT INTO pipeline_snapshots (agent_id, day, messages, total_cost_usd, avg_cost_per_message, avg_latency_ms,
                    p95_latency_ms, avg_triage_ms, triage_skip_rate, extraction_rate, avg_facts_per_extraction,
                    dedup_exact_match_rate, dedup_llm_new_rate, dedup_llm_update_rate, dedup_llm_duplicate_rate,
                    dedup_no_existing_rate, avg_batch_size, avg_batch_threshold, avg_quality_score, prompt_tokens,
                    completion_tokens, error_rate, avg_context_tokens, avg_memories_used, dossier_use_rate, computed_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
                     $23, $24, $25, $26)
             ON CONFLICT (agent_id, day) DO UPDATE SET messages = $3, total_cost_usd = $4, avg_cost_per_message = $5,
                    avg_latency_ms = $6, p95_latency_ms = $7, avg_triage_ms = $8, triage_skip_rate = $9,
                    extraction_rate = $10, avg_facts_per_extraction = $11, dedup_exact_match_rate = $12,
                    dedup_llm_new_rate = $13, dedup_llm_update_rate = $14, dedup_llm_duplicate_rate = $15,
                    dedup_no_existing_rate = $16, avg_batch_size = $17, avg_batch_threshold = $18,
                    avg_quality_score = $19, prompt_tokens = $20, completion_tokens = $21, error_rate = $22,
                    avg_context_tokens = $23, avg_memories_used = $24, dossier_use_rate = $25, computed_at = $26",
            agent as _,
            s.day,
            s.messages,
            s.total_cost_usd,
            s.avg_cost_per_message,
            s.avg_latency_ms,
            s.p95_latency_ms,
            s.avg_triage_ms,
            s.triage_skip_rate,
            s.extraction_rate,
            s.avg_facts_per_extraction,
            s.dedup_exact_match_rate,
            s.dedup_llm_new_rate,
            s.dedup_llm_update_rate,
            s.dedup_llm_duplicate_rate,
            s.dedup_no_existing_rate,
            s.avg_batch_size,
            s.avg_batch_threshold,
            s.avg_quality_score,
            s.prompt_tokens,
            s.completion_tokens,
            s.error_rate,
            s.avg_context_tokens,
            s.avg_memories_used,
            s.dossier_use_rate,
            s.computed_at
        )
        .execute(pool)
        .await?;
        written.push(day);
    }
    Ok(written)
}

/// The agent's snapshots, newest day first, at most `limit`, before `before`.
pub async fn list(pool: &PgPool, agent: AgentId, limit: i64, before: Option<NaiveDate>) -> sqlx::Result<Vec<Snapshot>> {
    sqlx::query_as!(
        Snapshot,
        "SELECT day, messages, total_cost_usd, avg_cost_per_message, avg_latency_ms, p95_latency_ms, avg_triage_ms,
                triage_skip_rate, extraction_rate, avg_facts_per_extraction, dedup_exact_match_rate, dedup_llm_new_rate,
                dedup_llm_update_rate, dedup_llm_duplicate_rate, dedup_no_existing_rate, avg_batch_size,
                avg_batch_threshold, avg_quality_score, prompt_tokens, completion_tokens, error_rate, avg_context_tokens,
                avg_memories_used, dossier_use_rate, computed_at
           FROM pipeline_snapshots WHERE agent_id = $1 AND ($2::date IS NULL OR day < $2) ORDER BY day DESC LIMIT $3",
        agent as _,
        before,
        limit
    )
    .fetch_all(pool)
    .await
}

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            CYCLE,
            CycleScope::Agent,
            "Pipeline snapshot (D2), daily: 23 metrics per day; backfills the last 30 days on a first run.",
            |ctx: JobContext| async move {
                let (agent, _) = ctx.agent().await?;
                let days = run(&ctx.pool, agent, Utc::now()).await?;
                Ok(json!({ "days": days }))
            },
        )
        .every(std::time::Duration::from_secs(24 * 3600)),
    ]
}
