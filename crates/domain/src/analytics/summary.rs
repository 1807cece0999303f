//! Hours added up into the metrics an answer shows. Rates and averages are computed from the
//! sums at the end (never averages of averages); percentiles from the merged histograms.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::hist::{self, Hist};
use super::{HourRow, LlmRow};

/// A running sum of hours.
#[derive(Debug, Clone, Default)]
pub struct Acc {
    messages: i64,
    errors: i64,
    skipped: i64,
    cost_usd: f64,
    prompt_tokens: i64,
    completion_tokens: i64,
    response_ms_sum: i64,
    triage_ms_sum: i64,
    triaged: i64,
    extractions: i64,
    flushes: i64,
    facts: i64,
    batch_size_sum: i64,
    batch_flushes: i64,
    threshold_sum: i64,
    thresholds: i64,
    context_tokens: i64,
    memories_used: i64,
    dossier_uses: i64,
    latency: Hist,
    triage: Hist,
    context: Hist,
    generation: Hist,
    dedup: BTreeMap<String, i64>,
    intents: BTreeMap<String, i64>,
    styles: BTreeMap<String, i64>,
    skip_reasons: BTreeMap<String, i64>,
    finish_reasons: BTreeMap<String, i64>,
    channels: BTreeMap<String, i64>,
    models: BTreeMap<String, i64>,
}

fn count_into(into: &mut BTreeMap<String, i64>, stored: &serde_json::Value) {
    if let Some(o) = stored.as_object() {
        for (k, v) in o {
            *into.entry(k.clone()).or_default() += v.as_i64().unwrap_or(0);
        }
    }
}

fn ratio(part: i64, whole: i64) -> Option<f64> {
    (whole > 0).then(|| round4(part as f64 / whole as f64))
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The median, 95th percentile and mean of a stage's time, in ms (`null` without data).
#[derive(Debug, Clone, Default, Serialize, ToSchema, PartialEq)]
pub struct Percentiles {
    pub p50: Option<f64>,
    pub p95: Option<f64>,
    pub avg: Option<f64>,
}

/// The metrics of a range (D1).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Metrics {
    /// Chat turns answered.
    pub messages: i64,
    /// Replies that failed (a provider error, a crash); not in `messages`.
    pub failed_replies: i64,
    /// failed / (answered + failed).
    pub error_rate: Option<f64>,
    /// The chat calls' cost (USD, from the price table; free engines cost 0).
    pub chat_cost_usd: f64,
    pub cost_per_message: Option<f64>,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    /// The whole turn, from the request to the stored reply.
    pub latency_ms: Percentiles,
    /// Triage, for turns whose triage ran.
    pub triage_ms: Percentiles,
    /// Memory and knowledge retrieval.
    pub context_ms: Percentiles,
    /// The reply's generation.
    pub generation_ms: Percentiles,
    /// Share of turns whose triage the pre-filter skipped, and why.
    pub triage_skip_rate: Option<f64>,
    pub skip_reasons: BTreeMap<String, i64>,
    /// Share of turns that went through extraction.
    pub extraction_rate: Option<f64>,
    /// Facts (and insights) stored per extraction call.
    pub facts_per_extraction: Option<f64>,
    /// Extraction's dedup outcomes: exact_match, llm_new, llm_update, llm_duplicate, no_existing.
    pub dedup: BTreeMap<String, i64>,
    /// Messages per extraction call, and the adaptive threshold the turns saw.
    pub avg_batch_size: Option<f64>,
    pub avg_batch_threshold: Option<f64>,
    pub avg_context_tokens: Option<f64>,
    pub avg_memories_used: Option<f64>,
    /// Share of turns answered with the compiled dossier.
    pub dossier_use_rate: Option<f64>,
    pub intents: BTreeMap<String, i64>,
    pub response_styles: BTreeMap<String, i64>,
    pub finish_reasons: BTreeMap<String, i64>,
    pub channels: BTreeMap<String, i64>,
    pub chat_models: BTreeMap<String, i64>,
}

impl Acc {
    pub fn add(&mut self, r: &HourRow) {
        self.messages += i64::from(r.messages);
        self.errors += i64::from(r.errors);
        self.skipped += i64::from(r.skipped);
        self.cost_usd += r.cost_usd;
        self.prompt_tokens += r.prompt_tokens;
        self.completion_tokens += r.completion_tokens;
        self.response_ms_sum += r.response_ms_sum;
        self.triage_ms_sum += r.triage_ms_sum;
        self.triaged += i64::from(r.triaged);
        self.extractions += i64::from(r.extractions);
        self.flushes += i64::from(r.flushes);
        self.facts += i64::from(r.facts);
        self.batch_size_sum += r.batch_size_sum;
        self.batch_flushes += i64::from(r.batch_flushes);
        self.threshold_sum += r.threshold_sum;
        self.thresholds += i64::from(r.thresholds);
        self.context_tokens += r.context_tokens;
        self.memories_used += r.memories_used;
        self.dossier_uses += i64::from(r.dossier_uses);
        hist::merge(&mut self.latency, &r.latency_hist);
        hist::merge(&mut self.triage, &r.triage_hist);
        hist::merge(&mut self.context, &r.context_hist);
        hist::merge(&mut self.generation, &r.generation_hist);
        count_into(&mut self.dedup, &r.dedup);
        count_into(&mut self.intents, &r.intents);
        count_into(&mut self.styles, &r.styles);
        count_into(&mut self.skip_reasons, &r.skip_reasons);
        count_into(&mut self.finish_reasons, &r.finish_reasons);
        count_into(&mut self.channels, &r.channels);
        count_into(&mut self.models, &r.models);
    }

    pub fn metrics(&self) -> Metrics {
        let n = self.messages;
        let avg = |sum: i64, count: i64| (count > 0).then(|| ((sum as f64 / count as f64) * 100.0).round() / 100.0);
        let pct = |h: &Hist, sum: Option<i64>, count: i64| Percentiles {
            p50: hist::quantile(h, 0.5),
            p95: hist::quantile(h, 0.95),
            avg: sum.and_then(|s| avg(s, count)),
        };
        Metrics {
            messages: n,
            failed_replies: self.errors,
            error_rate: ratio(self.errors, n + self.errors),
            chat_cost_usd: (self.cost_usd * 1e8).round() / 1e8,
            cost_per_message: (n > 0).then(|| (self.cost_usd / n as f64 * 1e8).round() / 1e8),
            prompt_tokens: self.prompt_tokens,
            completion_tokens: self.completion_tokens,
            latency_ms: pct(&self.latency, Some(self.response_ms_sum), n),
            triage_ms: pct(&self.triage, Some(self.triage_ms_sum), self.triaged),
            context_ms: pct(&self.context, None, 0),
            generation_ms: pct(&self.generation, None, 0),
            triage_skip_rate: ratio(self.skipped, n),
            skip_reasons: self.skip_reasons.clone(),
            extraction_rate: ratio(self.extractions, n),
            facts_per_extraction: avg(self.facts, self.flushes),
            dedup: self.dedup.clone(),
            avg_batch_size: avg(self.batch_size_sum, self.batch_flushes),
            avg_batch_threshold: avg(self.threshold_sum, self.thresholds),
            avg_context_tokens: avg(self.context_tokens, n),
            avg_memories_used: avg(self.memories_used, n),
            dossier_use_rate: ratio(self.dossier_uses, n),
            intents: self.intents.clone(),
            response_styles: self.styles.clone(),
            finish_reasons: self.finish_reasons.clone(),
            channels: self.channels.clone(),
            chat_models: self.models.clone(),
        }
    }

    /// The histogram of whole-turn latency (for the snapshots' p95).
    pub fn latency(&self) -> &Hist {
        &self.latency
    }
}

/// Model calls of one model, or of one call type (role).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct LlmLine {
    /// `provider/model`, or the role.
    pub key: String,
    pub calls: i64,
    pub errors: i64,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub cost_usd: f64,
    pub avg_latency_ms: Option<f64>,
}

/// Every model call of the range.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct LlmSummary {
    pub calls: i64,
    pub total_cost_usd: f64,
    /// Most expensive first.
    pub by_model: Vec<LlmLine>,
    pub by_call_type: Vec<LlmLine>,
}

pub fn llm(rows: &[LlmRow]) -> LlmSummary {
    let mut by_model: BTreeMap<String, (LlmLine, i64)> = BTreeMap::new();
    let mut by_role: BTreeMap<String, (LlmLine, i64)> = BTreeMap::new();
    for r in rows {
        for (map, key) in [(&mut by_model, format!("{}/{}", r.provider, r.model)), (&mut by_role, r.role.clone())] {
            let (line, latency) = map.entry(key.clone()).or_insert_with(|| (LlmLine { key, ..Default::default() }, 0));
            line.calls += i64::from(r.calls);
            line.errors += i64::from(r.errors);
            line.prompt_tokens += r.prompt_tokens;
            line.completion_tokens += r.completion_tokens;
            line.cost_usd += r.cost_usd;
            *latency += r.latency_ms_sum;
        }
    }
    let finish = |m: BTreeMap<String, (LlmLine, i64)>| {
        let mut v: Vec<LlmLine> = m
            .into_values()
            .map(|(mut l, latency)| {
                l.avg_latency_ms = (l.calls > 0).then(|| ((latency as f64 / l.calls as f64) * 10.0).round() / 10.0);
                l.cost_usd = (l.cost_usd * 1e8).round() / 1e8;
                l
            })
            .collect();
        v.sort_by(|a, b| b.cost_usd.total_cmp(&a.cost_usd).then(b.calls.cmp(&a.calls)));
        v
    };
    let calls = rows.iter().map(|r| i64::from(r.calls)).sum();
    let total = rows.iter().map(|r| r.cost_usd).sum::<f64>();
    LlmSummary {
        calls,
        total_cost_usd: (total * 1e8).round() / 1e8,
        by_model: finish(by_model),
        by_call_type: finish(by_role),
    }
}
