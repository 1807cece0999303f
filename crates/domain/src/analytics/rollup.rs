//! The hourly rollups (D1): one row per agent and hour of what its chat turns did
//! (`analytics_hourly`) and of every model call it made (`analytics_llm_hourly`). The
//! `analytics_rollup` cycle recomputes the recent hours every few minutes (so the extraction
//! results that land on a message after its turn are counted), and the reader computes the hours
//! after the watermark from the raw rows with the same statement, so an answer is never stale.

use chrono::{DateTime, Duration, DurationRound, Utc};
use serde_json::json;
use sqlx::PgPool;

use super::hist::bucket_sql;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};

pub const CYCLE: &str = "analytics_rollup";
/// Hours before the watermark recomputed by every run: results written onto a message after its
/// turn (extraction, dedup) are counted if they land within this many hours.
pub const RECOMPUTE_HOURS: i64 = 6;
/// The oldest data a first run rolls up.
pub const BACKFILL_DAYS: i64 = 400;

/// The per-(agent, hour) aggregate of `chat_analytics` (and failed replies) in `[$1, $2)`, for the
/// agents `$3` (NULL: all) of the tenant `$4` (NULL: any). The columns of `analytics_hourly`.
// Built at run time (once): it embeds the histogram bucket rule shared with `hist`.
pub static HOURLY_SELECT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let dist = |kind: &str, value: &str, filter: &str| {
        format!(
            "SELECT agent_id, date_trunc('hour', created_at) AS hour, '{kind}' AS kind, ({value})::text AS v, count(*) AS n
               FROM src {filter} GROUP BY 1, 2, 4"
        )
    };
    let kinds = [
        dist("intent", "intent", ""),
        dist("style", "response_style", ""),
        dist("skip", "skip_reason", "WHERE skip_reason IS NOT NULL"),
        dist("finish", "coalesce(finish_reason, 'unknown')", ""),
        dist("channel", "channel", ""),
        dist("model", "coalesce(chat_model, 'none')", ""),
        dist("lat", &bucket_sql("response_ms"), ""),
        dist("tri", &bucket_sql("triage_ms"), "WHERE NOT triage_skipped"),
        dist("ctx", &bucket_sql("context_ms"), "WHERE context_ms IS NOT NULL"),
        dist("gen", &bucket_sql("generation_ms"), "WHERE generation_ms IS NOT NULL"),
        "SELECT agent_id, date_trunc('hour', created_at), 'dedup', d.key, sum(d.value::bigint)
           FROM src, jsonb_each_text(src.dedup) d GROUP BY 1, 2, 4"
            .to_string(),
    ]
    .join(" UNION ALL ");
    let counts = |kind: &str| {
        format!(
            "coalesce((SELECT counts FROM dist d WHERE d.agent_id = k.agent_id AND d.hour = k.hour AND d.kind = '{kind}'), '{{}}')"
        )
    };
    format!(
        "WITH src AS (
            SELECT c.* FROM chat_analytics c
             WHERE c.created_at >= $1 AND c.created_at < $2 AND ($3::uuid[] IS NULL OR c.agent_id = ANY($3))
               AND ($4::uuid IS NULL OR c.tenant_id = $4)
         ), failed AS (
            {failed}
         ), base AS (
            SELECT agent_id, date_trunc('hour', created_at) AS hour,
                   count(*)::int AS messages,
                   count(*) FILTER (WHERE triage_skipped)::int AS skipped,
                   coalesce(sum(cost_usd), 0)::float8 AS cost_usd,
                   coalesce(sum(prompt_tokens), 0)::bigint AS prompt_tokens,
                   coalesce(sum(completion_tokens), 0)::bigint AS completion_tokens,
                   coalesce(sum(response_ms), 0)::bigint AS response_ms_sum,
                   coalesce(sum(triage_ms) FILTER (WHERE NOT triage_skipped), 0)::bigint AS triage_ms_sum,
                   count(*) FILTER (WHERE NOT triage_skipped)::int AS triaged,
                   count(*) FILTER (WHERE extraction_triggered)::int AS extractions,
                   count(*) FILTER (WHERE extraction_triggered AND dedup <> '{{}}')::int AS flushes,
                   coalesce(sum(facts_extracted), 0)::int AS facts,
                   coalesce(sum(batch_size) FILTER (WHERE extraction_triggered AND dedup <> '{{}}'), 0)::bigint AS batch_size_sum,
                   count(batch_size) FILTER (WHERE extraction_triggered AND dedup <> '{{}}')::int AS batch_flushes,
                   coalesce(sum(batch_threshold), 0)::bigint AS threshold_sum,
                   count(batch_threshold)::int AS thresholds,
                   coalesce(sum(context_tokens), 0)::bigint AS context_tokens,
                   coalesce(sum(memories_used), 0)::bigint AS memories_used,
                   count(*) FILTER (WHERE used_dossier)::int AS dossier_uses
              FROM src GROUP BY 1, 2
         ), dist AS (
            SELECT agent_id, hour, kind, jsonb_object_agg(v, n) AS counts FROM ({kinds}) x GROUP BY 1, 2, 3
         ), keys AS (
            SELECT agent_id, hour FROM base UNION SELECT agent_id, hour FROM failed
         )
         SELECT k.agent_id, k.hour, a.tenant_id,
                coalesce(b.messages, 0) AS messages, coalesce(f.n, 0)::int AS errors, coalesce(b.skipped, 0) AS skipped,
                coalesce(b.cost_usd, 0) AS cost_usd, coalesce(b.prompt_tokens, 0) AS prompt_tokens,
                coalesce(b.completion_tokens, 0) AS completion_tokens, coalesce(b.response_ms_sum, 0) AS response_ms_sum,
                coalesce(b.triage_ms_sum, 0) AS triage_ms_sum, coalesce(b.triaged, 0) AS triaged,
                coalesce(b.extractions, 0) AS extractions, coalesce(b.flushes, 0) AS flushes, coalesce(b.facts, 0) AS facts,
                coalesce(b.batch_size_sum, 0) AS batch_size_sum, coalesce(b.batch_flushes, 0) AS batch_flushes,
                coalesce(b.threshold_sum, 0) AS threshold_sum, coalesce(b.thresholds, 0) AS thresholds,
                coalesce(b.context_tokens, 0) AS context_tokens, coalesce(b.memories_used, 0) AS memories_used,
                coalesce(b.dossier_uses, 0) AS dossier_uses,
                {lat} AS latency_hist, {tri} AS triage_hist, {ctx} AS context_hist, {gen} AS generation_hist,
                {dedup} AS dedup, {intent} AS intents, {style} AS styles, {skip} AS skip_reasons,
                {finish} AS finish_reasons, {channel} AS channels, {model} AS models
           FROM keys k CROSS JOIN LATERAL (SELECT {tenant} AS tenant_id) a
           LEFT JOIN base b ON b.agent_id = k.agent_id AND b.hour = k.hour
           LEFT JOIN failed f ON f.agent_id = k.agent_id AND f.hour = k.hour
          WHERE a.tenant_id IS NOT NULL",
        failed = crate::chat::records::failed_replies_by_hour_sql(&format!(
            "m.created_at >= $1 AND m.created_at < $2 AND ($3::uuid[] IS NULL OR m.agent_id = ANY($3))
             AND ($4::uuid IS NULL OR {} = $4)",
            crate::tenancy::agents::sql::tenant_any("m.agent_id")
        )),
        tenant = crate::tenancy::agents::sql::tenant_any("k.agent_id"),
        lat = counts("lat"),
        tri = counts("tri"),
        ctx = counts("ctx"),
        gen = counts("gen"),
        dedup = counts("dedup"),
        intent = counts("intent"),
        style = counts("style"),
        skip = counts("skip"),
        finish = counts("finish"),
        channel = counts("channel"),
        model = counts("model"),
    )
});

/// The per-(agent, hour, role, provider, model) aggregate of the gateway's usage log, with the
/// same parameters as [`HOURLY_SELECT`]. The columns of `analytics_llm_hourly`.
pub static LLM_HOURLY_SELECT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    miniclaw_platform::llm::usage::hourly_sql(&crate::tenancy::agents::sql::tenant_any("x.agent_id"))
});

/// The hour `t` falls in.
pub fn hour_of(t: DateTime<Utc>) -> DateTime<Utc> {
    t.duration_trunc(Duration::hours(1)).unwrap_or(t)
}

/// Where the rollups end (hours before it are rolled up); `None` before the first run.
pub async fn watermark(pool: &PgPool) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar!("SELECT rolled_to FROM analytics_rollup_state").fetch_optional(pool).await
}

/// Rolls up every complete hour since the watermark (and the `RECOMPUTE_HOURS` before it; on a
/// first run, up to `BACKFILL_DAYS` back), replacing what those hours held, and moves the
/// watermark to the current hour. Returns the hours written.
pub async fn run(pool: &PgPool, now: DateTime<Utc>) -> sqlx::Result<u64> {
    let to = hour_of(now);
    let from = match watermark(pool).await? {
        Some(w) => hour_of(w.min(to)) - Duration::hours(RECOMPUTE_HOURS),
        None => to - Duration::days(BACKFILL_DAYS),
    };
    let mut tx = pool.begin().await?;
    let mut written = 0;
    // Dynamic: the statements embed the shared hourly aggregates.
    for (table, select) in
        [("analytics_hourly", HOURLY_SELECT.as_str()), ("analytics_llm_hourly", LLM_HOURLY_SELECT.as_str())]
    {
        sqlx::query(&format!("DELETE FROM {table} WHERE hour >= $1 AND hour < $2"))
            .bind(from)
            .bind(to)
            .execute(&mut *tx)
            .await?;
        let n = sqlx::query(&format!("INSERT INTO {table} {select}"))
            .bind(from)
            .bind(to)
            .bind(None::<Vec<uuid::Uuid>>)
            .bind(None::<uuid::Uuid>)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if table == "analytics_hourly" {
            written = n;
        }
    }
    sqlx::query!(
        "INSERT INTO analytics_rollup_state (id, rolled_to) VALUES (true, $1)
         ON CONFLICT (id) DO UPDATE SET rolled_to = greatest(analytics_rollup_state.rolled_to, $1)",
        to
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(written)
}

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            CYCLE,
            CycleScope::Platform,
            "Analytics (D1): rolls chat analytics and model usage up per agent and hour (recent hours recomputed).",
            |ctx: JobContext| async move {
                let hours = run(&ctx.pool, Utc::now()).await?;
                Ok(json!({ "agent_hours": hours }))
            },
        )
        .every(std::time::Duration::from_secs(300)),
    ]
}
