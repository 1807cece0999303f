//! The Analytics tab of an agent and the tenant overview (D1): charts over a date range
//! (messages, cost, latency p50/p95 per day; intents, styles, skip reasons, finish reasons,
//! channels and memory categories as bars), the model calls by model and by call type, and, for
//! an agent, the week-over-week comparison and the quality trend of its daily snapshots.

use askama::Template;
use axum::extract::{Query, State};
use chrono::{Duration, NaiveDate, Utc};
use serde::Deserialize;

use super::charts::{self, Line};
use super::extract::{WebAgent, WebOwner};
use super::pages::{PageResult, internal, render};
use crate::app::AppState;
use miniclaw_domain::analytics::compare::{self, Comparison};
use miniclaw_domain::analytics::summary::{LlmLine, LlmSummary};
use miniclaw_domain::analytics::{self, Analytics, Granularity, Metrics, Scope};
use miniclaw_domain::tenancy::agents::Agent;

#[derive(Debug, Default, Deserialize)]
pub struct RangeForm {
    from: Option<String>,
    to: Option<String>,
}

/// The page's range: whole UTC days, `to` inclusive on the form; 30 days by default.
struct Range {
    from: NaiveDate,
    to: NaiveDate,
    error: Option<String>,
}

fn range(q: &RangeForm) -> Range {
    let today = Utc::now().date_naive();
    let parse =
        |s: &Option<String>| s.as_deref().filter(|s| !s.is_empty()).map(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d"));
    match (parse(&q.from).transpose(), parse(&q.to).transpose()) {
        (Ok(from), Ok(to)) => {
            let to = to.unwrap_or(today);
            let from = from.unwrap_or(to - Duration::days(29));
            if from > to || (to - from).num_days() >= analytics::MAX_DAYS {
                let error = format!("Pick a start before the end, at most {} days apart.", analytics::MAX_DAYS);
                Range { from: today - Duration::days(29), to: today, error: Some(error) }
            } else {
                Range { from, to, error: None }
            }
        }
        _ => Range { from: today - Duration::days(29), to: today, error: Some("Dates are YYYY-MM-DD.".into()) },
    }
}

pub struct Chart {
    pub title: &'static str,
    pub svg: String,
}

impl Chart {
    fn line(id: &str, title: &'static str, unit: &str, x: &[String], lines: &[Line]) -> Chart {
        Chart { title, svg: charts::line_chart(id, title, unit, x, lines) }
    }
    fn bars(id: &str, title: &'static str, m: &std::collections::BTreeMap<String, i64>) -> Chart {
        let bars: Vec<(String, f64)> = m.iter().map(|(k, v)| (k.clone(), *v as f64)).collect();
        Chart { title, svg: charts::bar_chart(id, title, &bars) }
    }
}

#[derive(Template)]
#[template(path = "web/analytics.html")]
struct AnalyticsPage {
    csrf: String,
    /// `None` for the tenant overview.
    agent: Option<Agent>,
    tab: &'static str,
    from: NaiveDate,
    to: NaiveDate,
    error: Option<String>,
    totals: Metrics,
    llm: LlmSummary,
    /// The model calls by model and by call type, with their captions.
    llm_tables: Vec<(&'static str, Vec<LlmLine>)>,
    charts: Vec<Chart>,
    bars: Vec<Chart>,
    comparison: Option<Comparison>,
    /// The daily quality score (1–10) of the snapshots, oldest first, as a chart.
    quality: Option<Chart>,
}

fn charts_of(a: &Analytics) -> (Vec<Chart>, Vec<Chart>) {
    let x: Vec<String> = a.series.iter().map(|p| p.start.format("%m-%d").to_string()).collect();
    let col = |f: &dyn Fn(&analytics::Point) -> Option<f64>| a.series.iter().map(f).collect::<Vec<_>>();
    let lines = vec![
        Chart::line(
            "messages",
            "Messages per day",
            "",
            &x,
            &[
                Line { label: "answered", values: col(&|p| Some(p.messages as f64)) },
                Line { label: "failed", values: col(&|p| Some(p.failed_replies as f64)) },
            ],
        ),
        Chart::line(
            "cost",
            "Chat cost per day (USD)",
            "",
            &x,
            &[Line { label: "cost", values: col(&|p| Some(p.cost_usd)) }],
        ),
        Chart::line(
            "latency",
            "Turn latency per day (ms)",
            " ms",
            &x,
            &[
                Line { label: "p50", values: col(&|p| p.latency_p50_ms) },
                Line { label: "p95", values: col(&|p| p.latency_p95_ms) },
            ],
        ),
    ];
    let t = &a.totals;
    let bar_charts = vec![
        Chart::bars("intents", "Intents", &t.intents),
        Chart::bars("styles", "Response styles", &t.response_styles),
        Chart::bars("skips", "Triage skipped, by reason", &t.skip_reasons),
        Chart::bars("finish", "Finish reasons", &t.finish_reasons),
        Chart::bars("channels", "Channels", &t.channels),
        Chart::bars("categories", "Memories by category (now)", &a.memory_categories),
    ];
    (lines, bar_charts)
}

async fn page(state: &AppState, web: WebOwner, agent: Option<Agent>, q: RangeForm) -> PageResult {
    let r = range(&q);
    let from = r.from.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let to = (r.to + Duration::days(1)).and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let scope = match &agent {
        Some(a) => Scope::Agent(a.id),
        None => Scope::Tenant(web.owner.tenant_id),
    };
    let a = analytics::analytics(state.pool(), scope, from, to, Granularity::Day).await.map_err(internal)?;
    let (charts, bars) = charts_of(&a);
    let (comparison, quality) = match &agent {
        Some(ag) => {
            let c = compare::comparison(state.pool(), ag.id, 7, Utc::now()).await.map_err(internal)?;
            let mut q: Vec<(NaiveDate, f64)> = analytics::snapshots::list(state.pool(), ag.id, 90, None)
                .await
                .map_err(internal)?
                .into_iter()
                .filter_map(|s| s.avg_quality_score.map(|v| (s.day, v)))
                .collect();
            q.reverse();
            let chart = (!q.is_empty()).then(|| {
                let x: Vec<String> = q.iter().map(|(d, _)| d.format("%m-%d").to_string()).collect();
                Chart::line(
                    "quality",
                    "Quality per day (1–10)",
                    "",
                    &x,
                    &[Line { label: "quality", values: q.iter().map(|(_, v)| Some(*v)).collect() }],
                )
            });
            (Some(c), chart)
        }
        None => (None, None),
    };
    Ok(render(AnalyticsPage {
        csrf: web.csrf,
        tab: "analytics",
        agent,
        from: r.from,
        to: r.to,
        error: r.error,
        totals: a.totals,
        llm_tables: vec![("By model", a.llm.by_model.clone()), ("By call type", a.llm.by_call_type.clone())],
        llm: a.llm,
        charts,
        bars,
        comparison,
        quality,
    }))
}

pub async fn agent(
    State(state): State<AppState>,
    WebAgent { owner, agent }: WebAgent,
    Query(q): Query<RangeForm>,
) -> PageResult {
    page(&state, owner, Some(agent), q).await
}

pub async fn tenant(State(state): State<AppState>, owner: WebOwner, Query(q): Query<RangeForm>) -> PageResult {
    page(&state, owner, None, q).await
}
