//! The offline `lint` role: merge, deprecate, recategorize and contradiction actions over the
//! memories, and the knowledge gaps they leave open.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::memories::{Memory, category_hint, memories, near_duplicates, single_valued};
use miniclaw_platform::llm::roles::Lint;

/// Memory lint. Output: `{"actions": [...], "knowledge_gaps": [{"question", "context"}]}`.
/// merge near-duplicates; deprecate memories older than 60 days with importance ≤ 3;
/// recategorize when the wording clearly says another category; flag single-valued facts
/// with two values as a contradiction (the older, less confident one is the weaker).
pub fn lint(input: &Lint) -> Value {
    let ms = memories(&input.memories);
    let mut actions = Vec::new();
    let mut touched = HashSet::new();
    for (keep, drop) in near_duplicates(&ms) {
        touched.insert(drop);
        actions.push(json!({ "action": "merge", "keep": keep, "remove": drop, "content": ms[keep].content,
            "reason": "near-duplicate wording" }));
    }
    let mut by_subject: HashMap<&'static str, (usize, String)> = HashMap::new();
    for (i, m) in ms.iter().enumerate() {
        if touched.contains(&i) || m.pinned {
            continue;
        }
        if m.age_days >= 60.0 && m.importance <= 3.0 {
            touched.insert(i);
            actions.push(json!({ "action": "deprecate", "index": i, "mode": "expire",
                "reason": format!("{} days old with importance {}", m.age_days.round(), m.importance) }));
            continue;
        }
        if let Some(hint) = category_hint(&m.content)
            && hint != m.category
            && m.category != "insight"
        {
            actions.push(json!({ "action": "recategorize", "index": i, "category": hint,
                "reason": format!("the wording describes {hint}, not {}", m.category) }));
        }
        if let Some((subject, value)) = single_valued(&m.content) {
            match by_subject.get(subject) {
                Some((other, v)) if *v != value => {
                    let o = &ms[*other];
                    let weaker = if (m.confidence, -m.age_days) < (o.confidence, -o.age_days) { i } else { *other };
                    actions.push(json!({ "action": "flag_contradiction", "indices": [*other, i], "weaker": weaker,
                        "reason": format!("two different values for \"{subject}\"") }));
                }
                Some(_) => {}
                None => {
                    by_subject.insert(subject, (i, value));
                }
            }
        }
    }
    json!({ "actions": actions, "knowledge_gaps": gaps(&ms) })
}

/// Questions worth asking the user: their name when no memory has it, by when they hope to
/// reach their goals, what draws them to their interests (at most 10).
fn gaps(ms: &[Memory]) -> Vec<Value> {
    let mut gaps = Vec::new();
    let said = |needle: &str| ms.iter().any(|m| m.content.to_lowercase().contains(needle));
    if !ms.is_empty() && !said("name is") {
        gaps.push(json!({ "question": "What is the user's name?", "context": "no memory records the user's name" }));
    }
    if ms.iter().any(|m| m.category == "goal") && !said("deadline") && !said(" by ") {
        for m in ms.iter().filter(|m| m.category == "goal").take(4) {
            gaps.push(json!({ "question": format!("By when does the user hope to get this done: {}?", m.content.trim_end_matches('.')),
                "context": m.content }));
        }
    }
    for m in ms.iter().filter(|m| m.category == "interest").take(4) {
        gaps.push(json!({ "question": format!("What draws the user to this: {}?", m.content.trim_end_matches('.')),
            "context": m.content }));
    }
    gaps.truncate(10);
    gaps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lint_finds_each_kind_of_action_and_gaps() {
        let input = serde_json::from_value(json!({ "memories": [
            { "content": "The user lives in Vienna", "category": "identity", "confidence": 0.9, "age_days": 1 },
            { "content": "The user lives in Graz", "category": "identity", "confidence": 0.6, "age_days": 90 },
            { "content": "The user likes hiking", "category": "context" },
            { "content": "Old note about a parking spot", "category": "context", "age_days": 75, "importance": 2 },
            { "content": "The user likes hiking a lot", "category": "context", "confidence": 0.5 },
        ]}))
        .unwrap();
        let out = lint(&input);
        let actions = out["actions"].as_array().unwrap();
        let kinds: Vec<&str> = actions.iter().map(|a| a["action"].as_str().unwrap()).collect();
        assert!(
            kinds.contains(&"merge") && kinds.contains(&"deprecate") && kinds.contains(&"recategorize"),
            "{kinds:?}"
        );
        let flag = actions.iter().find(|a| a["action"] == "flag_contradiction").unwrap();
        assert_eq!(flag["weaker"], 1);
        assert!(
            actions.iter().any(|a| a["action"] == "recategorize" && a["index"] == 2 && a["category"] == "interest")
        );
        let gaps = out["knowledge_gaps"].as_array().unwrap();
        assert!(gaps.iter().any(|g| g["question"] == "What is the user's name?"));
        assert!(gaps.len() <= 10);
    }
}
