//! The offline `mentor` role (deep reflection): merge near-duplicates, upgrade the confidence
//! of memories mentioned often, deprecate expired ones, and calibration hints, a clarity score
//! and tasks from what the memories hold.

use std::collections::{BTreeMap, HashSet};

use serde_json::{Value, json};

use super::memories::{CATEGORIES, memories, near_duplicates};
use miniclaw_core::text::content_words;
use miniclaw_platform::llm::roles::Mentor;

/// Deep reflection, from the memories and the soul. Output: `{"actions": [...], "calibration":
/// {"triage_hints", "always_save", "never_save", "response_defaults"}, "clarity",
/// "soul_rewrite": null, "tasks": [...]}`. Actions: merge near-duplicates, upgrade the
/// confidence of memories mentioned three times or more, deprecate expired ones.
pub fn mentor(input: &Mentor) -> Value {
    let ms = memories(&input.memories);
    let mut actions = Vec::new();
    let mut merged_away = HashSet::new();
    for (keep, drop) in near_duplicates(&ms) {
        merged_away.insert(drop);
        actions.push(json!({ "action": "merge", "keep": keep, "remove": drop, "content": ms[keep].content,
            "reason": "near-duplicate wording" }));
    }
    // A memory merged away is not touched again (the gateway rejects such a list).
    for (i, m) in ms.iter().enumerate().filter(|(i, _)| !merged_away.contains(i)) {
        if m.expired && !m.pinned {
            actions.push(json!({ "action": "deprecate", "index": i, "reason": "past its expiry date" }));
        } else if m.mentions >= 3 && m.confidence < 0.95 {
            let confidence = (m.confidence + 0.05 * (m.mentions - 2) as f64).min(0.95);
            actions.push(json!({ "action": "upgrade_confidence", "index": i, "confidence": round2(confidence),
                "reason": format!("mentioned {} times", m.mentions) }));
        }
    }
    actions.truncate(50);

    let mut by_category: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &ms {
        *by_category.entry(m.category.as_str()).or_default() += 1;
    }
    let topics = top_words(ms.iter().filter(|m| m.importance >= 6.0 || m.mentions >= 2).map(|m| m.content.as_str()), 5);
    let mut hints: Vec<String> = by_category
        .iter()
        .filter(|(_, n)| **n >= 2)
        .map(|(c, n)| format!("The user has shared {n} {c} facts: messages about {c} are usually worth saving."))
        .collect();
    if !topics.is_empty() {
        hints.push(format!("Recurring topics: {}.", topics.join(", ")));
    }
    hints.push("Greetings and acknowledgements carry no new facts.".into());
    hints.truncate(5);
    while hints.len() < 2 {
        hints.push("Questions about earlier conversations need memory.".into());
    }
    let avg_len = ms.iter().map(|m| m.content.len()).sum::<usize>() / ms.len().max(1);

    let soul = input.soul.as_deref().unwrap_or("");
    let covered = by_category.len().min(CATEGORIES.len()) as f64 / CATEGORIES.len() as f64;
    let confidence = ms.iter().map(|m| m.confidence).sum::<f64>() / ms.len().max(1) as f64;
    let duplicates = actions.iter().filter(|a| a["action"] == "merge").count() as f64 / ms.len().max(1) as f64;
    let clarity =
        (if soul.trim().is_empty() { 0.0 } else { 30.0 }) + 30.0 * covered + 40.0 * confidence * (1.0 - duplicates);
    let tasks: Vec<Value> = ms
        .iter()
        .filter(|m| m.category == "goal" && !m.expired)
        .take(3)
        .map(|m| json!({ "title": format!("Help with: {}", m.content), "reason": "an open goal the user shared" }))
        .collect();
    json!({
        "actions": actions,
        "calibration": {
            "triage_hints": hints,
            "always_save": topics,
            "never_save": ["greetings", "thanks"],
            "response_defaults": { "length": if avg_len > 80 { "detailed" } else { "concise" } },
        },
        "clarity": clarity.round().clamp(0.0, 100.0) as i64,
        "soul_rewrite": Value::Null,
        "tasks": tasks,
    })
}

/// The most frequent content words of some texts (ties alphabetical), skipping "user".
fn top_words<'a>(texts: impl Iterator<Item = &'a str>, n: usize) -> Vec<String> {
    let mut freq: BTreeMap<String, usize> = BTreeMap::new();
    for t in texts {
        for w in content_words(t) {
            if w != "user" && w != "user's" && w.chars().count() > 3 {
                *freq.entry(w).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<(String, usize)> = freq.into_iter().filter(|(_, c)| *c >= 2).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.into_iter().take(n).map(|(w, _)| w).collect()
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentor_merges_upgrades_and_deprecates() {
        let input = serde_json::from_value(json!({ "soul": "I am Ada, a calm guide.", "memories": [
            { "content": "The user lives in Vienna", "category": "identity", "confidence": 0.9 },
            { "content": "User lives in Vienna", "category": "identity", "confidence": 0.7 },
            { "content": "The user likes jazz", "category": "interest", "mention_count": 4, "confidence": 0.8 },
            { "content": "The user has a dentist appointment on Friday", "category": "context", "expired": true },
            { "content": "The user wants to learn Rust", "category": "goal" },
        ]}))
        .unwrap();
        let out = mentor(&input);
        let actions = out["actions"].as_array().unwrap();
        assert_eq!(actions[0]["action"], "merge");
        assert_eq!((actions[0]["keep"].as_u64(), actions[0]["remove"].as_u64()), (Some(0), Some(1)));
        assert!(
            actions.iter().any(|a| a["action"] == "upgrade_confidence" && a["index"] == 2 && a["confidence"] == 0.9)
        );
        assert!(actions.iter().any(|a| a["action"] == "deprecate" && a["index"] == 3));
        let hints = out["calibration"]["triage_hints"].as_array().unwrap();
        assert!((2..=5).contains(&hints.len()));
        let clarity = out["clarity"].as_i64().unwrap();
        assert!((0..=100).contains(&clarity));
        assert!(out["tasks"][0]["title"].as_str().unwrap().contains("learn Rust"));
        assert_eq!(mentor(&input), out, "deterministic");
    }
}
