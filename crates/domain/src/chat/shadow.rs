//! The calibration shadow (SPEC C3): one text window through extraction with the primary
//! model and an alternate one in parallel, compared. Nothing is written. The route is
//! fail-closed: only the admin bearer, or any caller of the agent when `DEBUG_SHADOW` is set.

use miniclaw_core::ids::{AgentId, TenantId};
use serde::Serialize;
use utoipa::ToSchema;

use super::calibrate::parse_extraction;
use crate::memory::normalize;
use miniclaw_core::Error;
use miniclaw_core::text::jaccard;
use miniclaw_platform::llm::roles::{Extraction, Transcript};
use miniclaw_platform::llm::{CallContext, ChatRequest, ChatResponse, Gateway, LlmError};

pub const MAX_CHARS: usize = 8_000;
/// Word overlap at which two extracted facts count as the same.
pub const SAME: f64 = 0.8;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Side {
    pub engine: String,
    pub model: String,
    pub facts: Vec<String>,
    /// Set when this side failed; its facts are then empty.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ShadowReport {
    pub shared: Vec<String>,
    pub primary_only: Vec<String>,
    pub alternate_only: Vec<String>,
    /// shared / (shared + primary only + alternate only); 1 when both found nothing.
    pub agreement: f64,
    pub primary: Side,
    pub alternate: Side,
}

fn side(r: Result<ChatResponse, LlmError>) -> Side {
    match r {
        Ok(r) => {
            let engine = match r.engine {
                miniclaw_platform::llm::Engine::Model => "model",
                miniclaw_platform::llm::Engine::Offline => "offline",
            };
            match parse_extraction(&r.content) {
                Ok(facts) => Side {
                    engine: engine.into(),
                    model: r.model,
                    facts: facts.into_iter().map(|f| f.content).collect(),
                    error: None,
                },
                Err(e) => Side { engine: engine.into(), model: r.model, facts: Vec::new(), error: Some(e.to_string()) },
            }
        }
        Err(e) => Side { engine: String::new(), model: String::new(), facts: Vec::new(), error: Some(e.to_string()) },
    }
}

/// Compares two fact lists: pairs of the same fact (normalised text, or word overlap ≥ 0.8).
pub fn compare(primary: &[String], alternate: &[String]) -> (Vec<String>, Vec<String>, Vec<String>, f64) {
    let mut matched = vec![false; alternate.len()];
    let (mut shared, mut primary_only) = (Vec::new(), Vec::new());
    for p in primary {
        let hit = alternate
            .iter()
            .enumerate()
            .find(|(j, a)| !matched[*j] && (normalize(p) == normalize(a) || jaccard(p, a) >= SAME));
        match hit {
            Some((j, _)) => {
                matched[j] = true;
                shared.push(p.clone());
            }
            None => primary_only.push(p.clone()),
        }
    }
    let alternate_only: Vec<String> =
        alternate.iter().zip(&matched).filter(|(_, m)| !**m).map(|(a, _)| a.clone()).collect();
    let total = shared.len() + primary_only.len() + alternate_only.len();
    let agreement = if total == 0 { 1.0 } else { shared.len() as f64 / total as f64 };
    (shared, primary_only, alternate_only, agreement)
}

pub async fn run(
    llm: &Gateway,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &miniclaw_platform::activity::Origin,
    text: &str,
) -> Result<ShadowReport, Error> {
    if text.trim().is_empty() {
        return Err(Error::validation("text", "the text window is empty"));
    }
    Error::check_length("text", text, MAX_CHARS)?;
    let input = Extraction { transcript: Transcript::Text(text.to_string()), ..Extraction::default() };
    let req = ChatRequest::from_input(input).max_tokens(2500);
    let ctx = CallContext::for_agent(tenant_id, agent_id, origin);
    let (p, a) = tokio::join!(llm.complete(&ctx, req.clone()), llm.complete_alternate(&ctx, req));
    // A budget or kill-switch refusal is the caller's answer, not a comparison.
    let (p, a) = match (p, a) {
        (Err(e @ LlmError::Refused(_)), _) | (_, Err(e @ LlmError::Refused(_))) => return Err(e.into()),
        pair => pair,
    };
    let (primary, alternate) = (side(p), side(a));
    let (shared, primary_only, alternate_only, agreement) = compare(&primary.facts, &alternate.facts);
    Ok(ShadowReport { shared, primary_only, alternate_only, agreement, primary, alternate })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_paired_and_agreement_counted() {
        let p = vec!["The user's name is Alice".to_string(), "The user lives in Vienna".to_string()];
        let a = vec!["the user's name is alice.".to_string(), "The user likes jazz".to_string()];
        let (shared, po, ao, agreement) = compare(&p, &a);
        assert_eq!(shared, vec!["The user's name is Alice"]);
        assert_eq!((po.len(), ao.len()), (1, 1));
        assert!((agreement - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(compare(&[], &[]).3, 1.0);
    }
}
