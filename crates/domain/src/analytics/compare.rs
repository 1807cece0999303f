//! Batch efficiency and period-over-period comparison (D4, 001 §9.4.13–14).

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;

use super::{Acc, Scope, hours, rollup};
use miniclaw_core::ids::AgentId;

/// Whether a rise of a metric is good news.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Better {
    Higher,
    Lower,
    /// Neither: volume and dedup shares describe, they do not judge.
    Neither,
}

/// One metric, now and the period before.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Compared {
    pub metric: &'static str,
    pub current: Option<f64>,
    pub previous: Option<f64>,
    /// current − previous.
    pub delta: Option<f64>,
    /// The change in percent of the previous value (`null` when that is 0 or missing).
    pub pct_change: Option<f64>,
    pub better: Better,
    /// `improved`, `regressed`, `unchanged`, `changed` (for metrics that are neither good nor
    /// bad) or `not_available` (no data in one of the periods).
    pub verdict: &'static str,
}

/// The comparison of the last `period_days` with the `period_days` before.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Comparison {
    pub period_days: i64,
    pub current_from: DateTime<Utc>,
    pub previous_from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    /// The 14 metrics of 001 §9.4.14.
    pub metrics: Vec<Compared>,
}

fn compared(metric: &'static str, current: Option<f64>, previous: Option<f64>, better: Better) -> Compared {
    let delta = current.zip(previous).map(|(c, p)| ((c - p) * 1e6).round() / 1e6);
    let pct_change = current.zip(previous).filter(|(_, p)| *p != 0.0).map(|(c, p)| ((c - p) / p * 1e4).round() / 100.0);
    let verdict = match (delta, better) {
        (None, _) => "not_available",
        (Some(0.0), _) => "unchanged",
        (Some(_), Better::Neither) => "changed",
        (Some(d), Better::Higher) if d > 0.0 => "improved",
        (Some(d), Better::Lower) if d < 0.0 => "improved",
        _ => "regressed",
    };
    Compared { metric, current, previous, delta, pct_change, better, verdict }
}

/// The 14 metrics of a period.
fn fourteen(acc: &Acc, total_cost: f64, quality: Option<f64>) -> Vec<(&'static str, Option<f64>, Better)> {
    let m = acc.metrics();
    let dedup_total: i64 = m.dedup.values().sum();
    let share = |k: &str| (dedup_total > 0).then(|| *m.dedup.get(k).unwrap_or(&0) as f64 / dedup_total as f64);
    vec![
        ("avg_cost_per_message", m.cost_per_message, Better::Lower),
        ("total_cost_usd", Some(total_cost), Better::Lower),
        ("avg_latency_ms", m.latency_ms.avg, Better::Lower),
        ("avg_triage_ms", m.triage_ms.avg, Better::Lower),
        ("extraction_rate", m.extraction_rate, Better::Neither),
        ("avg_facts_per_extraction", m.facts_per_extraction, Better::Higher),
        ("dedup_exact_match_rate", share("exact_match"), Better::Neither),
        ("dedup_llm_new_rate", share("llm_new"), Better::Neither),
        ("dedup_llm_update_rate", share("llm_update"), Better::Neither),
        ("dedup_llm_duplicate_rate", share("llm_duplicate"), Better::Neither),
        ("dedup_no_existing_rate", share("no_existing"), Better::Neither),
        ("avg_quality_score", quality, Better::Higher),
        ("total_messages", Some(m.messages as f64), Better::Neither),
        ("triage_skip_rate", m.triage_skip_rate, Better::Neither),
    ]
}

async fn period(pool: &PgPool, agent: AgentId, from: DateTime<Utc>, to: DateTime<Utc>) -> sqlx::Result<(Acc, f64)> {
    let (rows, llm) = hours(pool, Scope::Agent(agent), from, to).await?;
    let mut acc = Acc::default();
    rows.iter().for_each(|r| acc.add(r));
    Ok((acc, llm.iter().map(|l| l.cost_usd).sum()))
}

/// The last `days` (to the end of the current hour) against the `days` before.
pub async fn comparison(pool: &PgPool, agent: AgentId, days: i64, now: DateTime<Utc>) -> sqlx::Result<Comparison> {
    let to = rollup::hour_of(now) + Duration::hours(1);
    let mid = to - Duration::days(days);
    let from = mid - Duration::days(days);
    let (cur, cur_cost) = period(pool, agent, mid, to).await?;
    let (prev, prev_cost) = period(pool, agent, from, mid).await?;
    let cur_quality = super::quality::average(pool, agent, mid, to).await?;
    let prev_quality = super::quality::average(pool, agent, from, mid).await?;
    let metrics = fourteen(&cur, cur_cost, cur_quality)
        .into_iter()
        .zip(fourteen(&prev, prev_cost, prev_quality))
        .map(|((name, c, better), (_, p, _))| compared(name, c, p, better))
        .collect();
    Ok(Comparison { period_days: days, current_from: mid, previous_from: from, to, metrics })
}

/// One day of batching.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BatchDay {
    pub day: NaiveDate,
    /// Extraction calls made.
    pub extraction_calls: i64,
    pub avg_batch_size: Option<f64>,
    pub avg_batch_threshold: Option<f64>,
    pub facts_per_extraction: Option<f64>,
    /// Calls a per-message extraction would have made on top: Σ (batch size − 1).
    pub calls_saved: i64,
}

/// Extraction batching over a range (001 §9.4.13).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BatchEfficiency {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    pub extraction_calls: i64,
    pub messages_extracted: i64,
    pub calls_saved: i64,
    /// calls_saved / (calls_saved + extraction_calls).
    pub efficiency: Option<f64>,
    /// The measured prompt of an extraction call (tokens, mean over the range's calls).
    pub avg_extraction_prompt_tokens: Option<f64>,
    /// The measured mean size of a message that went through extraction (tokens, counted as
    /// characters / 4).
    pub avg_message_tokens: Option<f64>,
    /// What every call saved did not send again: the prompt beyond its messages
    /// (`avg_extraction_prompt_tokens − avg_batch_size × avg_message_tokens`, at least 0), times
    /// `calls_saved`. `null` without extraction calls.
    pub tokens_saved_estimate: Option<i64>,
    pub days: Vec<BatchDay>,
}

pub async fn batch_efficiency(
    pool: &PgPool,
    agent: AgentId,
    days: i64,
    now: DateTime<Utc>,
) -> sqlx::Result<BatchEfficiency> {
    let to = rollup::hour_of(now) + Duration::hours(1);
    let from = (to - Duration::days(days)).date_naive().and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let (rows, llm) = hours(pool, Scope::Agent(agent), from, to).await?;
    let mut by_day: std::collections::BTreeMap<NaiveDate, Acc> = Default::default();
    let (mut calls, mut batched, mut total) = (0i64, 0i64, Acc::default());
    for r in &rows {
        by_day.entry(r.hour.date_naive()).or_default().add(r);
        total.add(r);
        calls += i64::from(r.batch_flushes);
        batched += r.batch_size_sum;
    }
    let days = by_day
        .into_iter()
        .map(|(day, acc)| {
            let m = acc.metrics();
            let calls = rows
                .iter()
                .filter(|r| r.hour.date_naive() == day)
                .map(|r| (i64::from(r.batch_flushes), r.batch_size_sum))
                .fold((0, 0), |(c, b), (rc, rb)| (c + rc, b + rb));
            BatchDay {
                day,
                extraction_calls: calls.0,
                avg_batch_size: m.avg_batch_size,
                avg_batch_threshold: m.avg_batch_threshold,
                facts_per_extraction: m.facts_per_extraction,
                calls_saved: (calls.1 - calls.0).max(0),
            }
        })
        .collect();
    let saved = (batched - calls).max(0);
    let extraction: Vec<_> = llm.iter().filter(|l| l.role == "extraction").collect();
    let llm_calls: i64 = extraction.iter().map(|l| i64::from(l.calls)).sum();
    let avg_prompt =
        (llm_calls > 0).then(|| extraction.iter().map(|l| l.prompt_tokens).sum::<i64>() as f64 / llm_calls as f64);
    // Built at run time: the messages are read through `chat::records`.
    let avg_message: Option<f64> = sqlx::query_scalar(&format!(
        "SELECT avg(char_length(m.content))::float8 / 4 FROM chat_analytics c CROSS JOIN LATERAL ({}) m
          WHERE c.agent_id = $1 AND c.extraction_triggered AND c.created_at >= $2 AND c.created_at < $3",
        crate::chat::records::message_sql("c.agent_id", "c.message_id")
    ))
    .bind(agent)
    .bind(from)
    .bind(to)
    .fetch_one(pool)
    .await?;
    let avg_batch = total.metrics().avg_batch_size;
    let tokens_saved_estimate = match (avg_prompt, avg_message, avg_batch) {
        (Some(p), Some(m), Some(b)) => Some(((p - b * m).max(0.0) * saved as f64).round() as i64),
        _ => None,
    };
    Ok(BatchEfficiency {
        from,
        to,
        extraction_calls: calls,
        messages_extracted: batched,
        calls_saved: saved,
        efficiency: (saved + calls > 0).then(|| (saved as f64 / (saved + calls) as f64 * 1e4).round() / 1e4),
        avg_extraction_prompt_tokens: avg_prompt.map(|p| (p * 10.0).round() / 10.0),
        avg_message_tokens: avg_message.map(|m| (m * 10.0).round() / 10.0),
        tokens_saved_estimate,
        days,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_say_whether_the_change_is_good_for_the_metric() {
        let c = compared("avg_cost_per_message", Some(0.002), Some(0.004), Better::Lower);
        assert_eq!((c.delta, c.pct_change, c.verdict), (Some(-0.002), Some(-50.0), "improved"));
        let c = compared("avg_latency_ms", Some(1200.0), Some(1000.0), Better::Lower);
        assert_eq!((c.pct_change, c.verdict), (Some(20.0), "regressed"));
        let c = compared("avg_facts_per_extraction", Some(3.0), Some(2.0), Better::Higher);
        assert_eq!(c.verdict, "improved");
        let c = compared("total_messages", Some(10.0), Some(0.0), Better::Neither);
        assert_eq!((c.pct_change, c.verdict), (None, "changed"));
        let c = compared("avg_quality_score", None, Some(7.0), Better::Higher);
        assert_eq!((c.delta, c.verdict), (None, "not_available"));
        let c = compared("triage_skip_rate", Some(0.3), Some(0.3), Better::Neither);
        assert_eq!(c.verdict, "unchanged");
    }
}
