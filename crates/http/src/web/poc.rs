//! The PoC tab: the agent's Proof-of-Contribution score with its five dimensions and every
//! sub-signal (points, maximum, value, source, or "not available" and why), its daily history, and the
//! human-verification records behind the identity dimension.

use askama::Template;
use axum::extract::State;
use serde_json::Value;

use super::extract::WebAgent;
use super::pages::*;
use crate::app::AppState;
use miniclaw_domain::onchain::poc::{self, Poc, PocDay, SignalStatus};
use miniclaw_domain::onchain::verification::{self, VerificationRecord};
use miniclaw_domain::tenancy::agents::Agent;

pub struct SignalView {
    pub label: &'static str,
    pub value: String,
    pub points: u32,
    pub max: u32,
    pub source: &'static str,
    pub rule: &'static str,
    pub measured: bool,
}

pub struct DimensionView {
    pub key: &'static str,
    pub label: &'static str,
    pub weight: u32,
    pub score: u32,
    pub weighted: f64,
    /// The points its measured signals could earn (100 unless some are left out).
    pub available: u32,
    pub signals: Vec<SignalView>,
}

#[derive(Template)]
#[template(path = "web/poc.html")]
struct PocPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    poc: Poc,
    dimensions: Vec<DimensionView>,
    history: Vec<PocDay>,
    records: Vec<VerificationRecord>,
}

/// A measured value as a reader wants it: `—` for nothing, the profile as "3 of 4 (missing …)".
fn shown(v: &Value) -> String {
    match v {
        Value::Null => "—".into(),
        Value::String(s) => s.clone(),
        Value::Object(o) if o.contains_key("filled") => {
            let missing: Vec<&str> =
                o["missing"].as_array().map(|m| m.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            let base = format!("{} of {}", o["filled"], o["of"]);
            if missing.is_empty() { base } else { format!("{base} (missing {})", missing.join(", ")) }
        }
        other => super::readable::text(other),
    }
}

pub async fn show(State(state): State<AppState>, WebAgent { owner: web, agent }: WebAgent) -> PageResult {
    let poc = poc::compute(state.pool(), state.deps().chain.as_deref(), web.owner.tenant_id, agent.id)
        .await
        .map_err(internal)?
        .ok_or_else(not_found_page)?;
    let dimensions = poc
        .dimensions
        .iter()
        .map(|d| DimensionView {
            key: d.key,
            label: d.label,
            weight: d.weight,
            score: d.score,
            weighted: d.weighted,
            available: d.available,
            signals: d
                .signals
                .iter()
                .map(|s| SignalView {
                    label: s.label,
                    value: shown(&s.value),
                    points: s.points,
                    max: s.max,
                    source: s.source,
                    rule: s.rule,
                    measured: s.status == SignalStatus::Measured,
                })
                .collect(),
        })
        .collect();
    let history = poc::history(state.pool(), agent.id, 14, None).await.map_err(internal)?;
    let records = verification::list(state.pool(), agent.id, 50, None).await.map_err(internal)?;
    Ok(render(PocPage { csrf: web.csrf, agent, tab: "poc", poc, dimensions, history, records }))
}

#[cfg(test)]
mod tests {
    use super::shown;
    use serde_json::json;

    #[test]
    fn values_read_as_text() {
        assert_eq!(shown(&json!(null)), "—");
        assert_eq!(shown(&json!("self_xyz")), "self_xyz");
        assert_eq!(shown(&json!(45)), "45");
        assert_eq!(shown(&json!({ "filled": 3, "of": 4, "missing": ["soul"] })), "3 of 4 (missing soul)");
        assert_eq!(shown(&json!({ "filled": 4, "of": 4, "missing": [] })), "4 of 4");
    }
}
