//! Tier 1 (SPEC P2, P3): the deterministic pre-filter, then the triage model with its input
//! limits, the agent's calibration hints, strict output validation with clamping, and the
//! fail-open defaults when the model is slow, failing or talking nonsense.

use std::time::Instant;

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

mod lookups;
mod prefilter;
pub use lookups::lookup;
pub use prefilter::{ALL_CATEGORIES, SkipReason, Triage, is_trivial, prefilter};

use miniclaw_platform::llm::roles::{self, TriageCalibration, Turn};
use miniclaw_platform::llm::{CallContext, ChatRequest, Gateway, Message};

/// The message as the triage model sees it, and the recent history it gets.
pub const MESSAGE_CHARS: usize = 500;
pub const HISTORY_MESSAGES: usize = 3;
pub const HISTORY_CHARS: usize = 200;
pub const MAX_TOKENS_RANGE: (u32, u32) = (500, 4000);

/// The intents triage may answer (`Intent`), as strings.
pub const INTENTS: &[&str] = miniclaw_core::vocabulary::Intent::NAMES;
const STYLES: [&str; 4] = ["brief", "conversational", "detailed", "creative"];
const TONES: [&str; 4] = ["neutral", "supportive", "enthusiastic", "serious"];

/// What triage decided and how.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TriageOutcome {
    #[schema(value_type = Object)]
    pub triage: Triage,
    /// The pre-filter decided; no model was asked.
    pub skipped: bool,
    /// `trivial`, `tool_keyword` or `brief` when skipped.
    pub skip_reason: Option<String>,
    /// Why the fail-open defaults were used (timeout, error, invalid output).
    pub error: Option<String>,
    pub latency_ms: u64,
    pub model: Option<String>,
}

fn cut(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// What the triage prompt shows of the agent's calibration profile (C2): at most 5 hints and
/// topics of each kind, each cut to 200 characters.
fn calibration(c: &Value) -> TriageCalibration {
    let list = |key: &str| -> Vec<String> {
        c.get(key)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).map(|s| cut(s, 200)).take(5).collect())
            .unwrap_or_default()
    };
    TriageCalibration {
        triage_hints: list("triage_hints"),
        always_save: list("always_save"),
        never_save: list("never_save"),
        response_defaults: c.get("response_defaults").and_then(Value::as_str).map(|d| cut(d, 200)),
    }
}

/// Validates and clamps the triage model's JSON. Unknown enum values fall back to the
/// defaults, categories are filtered to the five known ones, maxTokens is clamped; output that
/// is not an object with a valid intent is an error (and triage fails open).
pub fn parse(text: &str) -> Result<Triage, String> {
    let v: Value = serde_json::from_str(text.trim()).map_err(|e| format!("triage output is not JSON: {e}"))?;
    let o = v.as_object().ok_or("triage output is not a JSON object")?;
    let d = Triage::fail_open();
    let intent = o.get("intent").and_then(Value::as_str).ok_or("triage output has no intent")?;
    if !INTENTS.contains(&intent) {
        return Err(format!("unknown intent `{}`", cut(intent, 40)));
    }
    let pick = |key: &str, allowed: &[&str], default: &str| -> String {
        o.get(key).and_then(Value::as_str).filter(|s| allowed.contains(s)).unwrap_or(default).to_string()
    };
    let flag = |key: &str, default: bool| o.get(key).and_then(Value::as_bool).unwrap_or(default);
    let categories = match o.get("relevantCategories").and_then(Value::as_array) {
        // Each known category once, in the model's order (`dedup` alone only drops neighbours).
        Some(a) => {
            let mut cs: Vec<String> = Vec::new();
            for c in a.iter().filter_map(Value::as_str).filter(|c| ALL_CATEGORIES.contains(c)) {
                if !cs.iter().any(|seen| seen == c) {
                    cs.push(c.to_string());
                }
            }
            cs
        }
        None => d.relevant_categories.clone(),
    };
    let max_tokens = o
        .get("maxTokens")
        .and_then(Value::as_f64)
        .map(|n| (n.max(0.0) as u32).clamp(MAX_TOKENS_RANGE.0, MAX_TOKENS_RANGE.1))
        .unwrap_or(d.max_tokens);
    Ok(Triage {
        intent: intent.to_string(),
        relevant_categories: categories,
        include_knowledge: flag("includeKnowledge", d.include_knowledge),
        include_summaries: flag("includeSummaries", d.include_summaries),
        save_worthy: flag("saveWorthy", d.save_worthy),
        save_hint: o.get("saveHint").and_then(Value::as_str).filter(|s| !s.trim().is_empty()).map(|s| cut(s, 100)),
        response_style: pick("responseStyle", &STYLES, &d.response_style),
        max_tokens,
        tools_needed: flag("toolsNeeded", d.tools_needed),
        emotional_tone: pick("emotionalTone", &TONES, &d.emotional_tone),
    })
}

/// Runs triage for `message` with the conversation's recent messages (oldest first).
/// `prefiltered` is what the pre-filter (P2) said of the message; the caller has it already.
pub async fn run(
    llm: &Gateway,
    ctx: &CallContext,
    message: &str,
    prefiltered: Option<(Triage, SkipReason)>,
    history: &[Message],
    calibration: Option<&Value>,
) -> TriageOutcome {
    let started = Instant::now();
    if let Some((triage, reason)) = prefiltered {
        let reason = match reason {
            SkipReason::Trivial => "trivial",
            SkipReason::ToolKeyword => "tool_keyword",
            SkipReason::Brief => "brief",
        };
        return TriageOutcome {
            triage,
            skipped: true,
            skip_reason: Some(reason.into()),
            error: None,
            latency_ms: 0,
            model: None,
        };
    }
    let input = roles::Triage {
        message: cut(message, MESSAGE_CHARS),
        history: history
            .iter()
            .rev()
            .take(HISTORY_MESSAGES)
            .rev()
            .map(|m| Turn { role: m.role.as_str().into(), content: cut(&m.content, HISTORY_CHARS) })
            .collect(),
        calibration: calibration.map(self::calibration),
    };
    let req = ChatRequest::from_input(input);
    // The route carries the 3 s deadline and 150 tokens (M1); a slow model is a failure here.
    let (triage, error, model) = match llm.complete(ctx, req).await {
        Ok(r) => match parse(&r.content) {
            Ok(t) => (t, None, Some(r.model)),
            Err(e) => (Triage::fail_open(), Some(e), Some(r.model)),
        },
        Err(e) => (Triage::fail_open(), Some(cut(&e.to_string(), 300)), None),
    };
    if let Some(e) = &error {
        tracing::info!(error = %e, "triage failed open");
    }
    TriageOutcome {
        triage,
        skipped: false,
        skip_reason: None,
        error,
        latency_ms: started.elapsed().as_millis() as u64,
        model,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miniclaw_platform::llm::RoleInput;
    use serde_json::json;

    #[test]
    fn model_output_is_validated_and_clamped() {
        let t = parse(
            r#"{"intent":"task_request","relevantCategories":["goal","nonsense","goal"],"maxTokens":99999,
                "responseStyle":"poetic","saveWorthy":false,"emotionalTone":"serious"}"#,
        )
        .unwrap();
        assert_eq!(t.intent, "task_request");
        assert_eq!(t.relevant_categories, vec!["goal"]);
        assert_eq!(t.max_tokens, 4000);
        assert_eq!(t.response_style, "conversational", "unknown style → default");
        assert!(!t.save_worthy);
        assert_eq!(t.emotional_tone, "serious");
        assert_eq!(parse(r#"{"intent":"small_talk","maxTokens":10}"#).unwrap().max_tokens, 500);
        assert!(parse("not json").is_err());
        assert!(parse(r#"["intent"]"#).is_err());
        assert!(parse(r#"{"intent":"world_domination"}"#).is_err());
    }

    #[test]
    fn calibration_hints_become_prompt_lines() {
        let system = |c: Value| {
            let input =
                roles::Triage { message: "hello".into(), calibration: Some(calibration(&c)), ..Default::default() };
            input.messages().remove(0).content
        };
        let long = "x".repeat(300);
        let c = json!({ "triage_hints": ["User prefers short answers", 7, long, "d", "e", "f"],
            "always_save": ["travel plans"], "response_defaults": { "length": "concise" } });
        assert_eq!(
            calibration(&c),
            TriageCalibration {
                triage_hints: vec![
                    "User prefers short answers".into(),
                    "x".repeat(200),
                    "d".into(),
                    "e".into(),
                    "f".into()
                ],
                always_save: vec!["travel plans".into()],
                never_save: Vec::new(),
                response_defaults: None,
            }
        );
        let h = system(c);
        assert!(h.contains("- User prefers short answers") && h.contains("Always worth saving: travel plans"), "{h}");
        assert!(!system(json!({})).contains("What past conversations"));
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Triage answers as a model might write them: known and unknown values in every field.
    fn output() -> impl Strategy<Value = Value> {
        let pick = |xs: Vec<&'static str>| prop::sample::select(xs);
        let mut intents: Vec<&'static str> = INTENTS.to_vec();
        intents.extend(["world_domination", ""]);
        let mut categories: Vec<&'static str> = ALL_CATEGORIES.to_vec();
        categories.extend(["nonsense", "Identity"]);
        (
            pick(intents),
            prop::collection::vec(pick(categories), 0..8),
            any::<f64>(),
            pick(vec!["brief", "creative", "poetic"]),
            pick(vec!["neutral", "serious", "angry"]),
            proptest::option::of("\\PC{0,150}"),
            any::<bool>(),
        )
            .prop_map(|(intent, cats, max, style, tone, hint, flag)| {
                json!({ "intent": intent, "relevantCategories": cats, "maxTokens": if max.is_finite() { json!(max) } else { json!(null) },
                    "responseStyle": style, "emotionalTone": tone, "saveHint": hint, "saveWorthy": flag, "toolsNeeded": flag })
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_model_text_is_parsed_or_refused_without_panicking(text in any::<String>()) {
            let _ = parse(&text);
        }

        #[test]
        fn a_parsed_triage_holds_only_allowed_values(v in output()) {
            let Ok(t) = parse(&v.to_string()) else {
                prop_assert!(!INTENTS.contains(&v["intent"].as_str().unwrap()));
                return Ok(());
            };
            prop_assert!(INTENTS.contains(&t.intent.as_str()));
            prop_assert!(t.relevant_categories.iter().all(|c| ALL_CATEGORIES.contains(&c.as_str())));
            let mut unique = t.relevant_categories.clone();
            unique.sort();
            unique.dedup();
            prop_assert_eq!(unique.len(), t.relevant_categories.len(), "each category once: {:?}", t.relevant_categories);
            prop_assert!((MAX_TOKENS_RANGE.0..=MAX_TOKENS_RANGE.1).contains(&t.max_tokens));
            prop_assert!(STYLES.contains(&t.response_style.as_str()) && TONES.contains(&t.emotional_tone.as_str()));
            prop_assert!(t.save_hint.as_ref().is_none_or(|h| !h.trim().is_empty() && h.chars().count() <= 100));
        }
    }
}
