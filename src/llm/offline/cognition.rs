//! Offline answers for the memory-maintenance roles: `mentor` (deep reflection), `compile`
//! (dossier), `lint`, `fusion`, `dream_judge` and `gap_diagnosis`. Each is a small set of
//! explainable rules over words, so the cycles run and can be tested without a model.
//!
//! Memories are passed as `{"memories": [{"content", "category", "confidence"?,
//! "mention_count"?, "importance"?, "age_days"?, "expired"?, "pinned"?}, ...]}`; actions refer
//! to memories by their position in that array (`index`).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Value, json};

use crate::text::{content_words, jaccard};
use crate::vocabulary::Category;

/// Word overlap at which two memories say the same thing.
const NEAR_DUPLICATE: f64 = 0.6;
/// The dossier's sections: the facts about the user, then the agent's insights.
const CATEGORIES: [&str; 6] = Category::names([
    Category::Identity,
    Category::Goal,
    Category::Preference,
    Category::Interest,
    Category::Context,
    Category::Insight,
]);

#[derive(Debug, Clone)]
struct Memory {
    content: String,
    category: String,
    confidence: f64,
    mentions: i64,
    importance: f64,
    age_days: f64,
    expired: bool,
    pinned: bool,
}

fn memories(input: &Value) -> Vec<Memory> {
    let Some(items) = input.get("memories").and_then(Value::as_array) else { return Vec::new() };
    items
        .iter()
        .map(|m| Memory {
            content: m.get("content").and_then(Value::as_str).or(m.as_str()).unwrap_or("").trim().to_string(),
            category: m.get("category").and_then(Value::as_str).unwrap_or("context").to_string(),
            confidence: m.get("confidence").and_then(Value::as_f64).unwrap_or(0.8),
            mentions: m.get("mention_count").and_then(Value::as_i64).unwrap_or(1),
            importance: m.get("importance").and_then(Value::as_f64).unwrap_or(5.0),
            age_days: m.get("age_days").and_then(Value::as_f64).unwrap_or(0.0),
            expired: m.get("expired").and_then(Value::as_bool).unwrap_or(false),
            pinned: m.get("pinned").and_then(Value::as_bool).unwrap_or(false),
        })
        .collect()
}

/// Pairs `(keep, drop)` of near-duplicate memories in the same category; the kept one is the
/// more confident, then the more mentioned, then the newer. A memory is dropped at most once.
fn near_duplicates(ms: &[Memory]) -> Vec<(usize, usize)> {
    let mut dropped = HashSet::new();
    let mut pairs = Vec::new();
    for i in 0..ms.len() {
        for j in i + 1..ms.len() {
            if dropped.contains(&i) || dropped.contains(&j) || ms[i].category != ms[j].category {
                continue;
            }
            if ms[i].pinned && ms[j].pinned {
                continue;
            }
            if jaccard(&ms[i].content, &ms[j].content) < NEAR_DUPLICATE {
                continue;
            }
            let rank =
                |m: &Memory| (m.pinned, (m.confidence * 1000.0) as i64, m.mentions, -(m.age_days * 1000.0) as i64);
            let (keep, drop) = if rank(&ms[j]) > rank(&ms[i]) { (j, i) } else { (i, j) };
            dropped.insert(drop);
            pairs.push((keep, drop));
        }
    }
    pairs
}

/// The category a fact's wording suggests, when it clearly suggests one.
pub fn category_hint(content: &str) -> Option<&'static str> {
    let lower = content.to_lowercase();
    let has = |ws: &[&str]| ws.iter().any(|w| lower.contains(w));
    if has(&["name is", "lives in", "is from", "works as", "works at", "works for", "years old", "was born"]) {
        Some("identity")
    } else if has(&["wants to", "plans to", "goal is", "hopes to", "is trying to", "aims to"]) {
        Some("goal")
    } else if has(&["prefers", "dislikes", "would rather", "hates", "can't stand"]) {
        Some("preference")
    } else if has(&["likes", "loves", "enjoys", "is interested in", "is into"]) {
        Some("interest")
    } else {
        None
    }
}

/// A fact's subject and value when it follows one of the single-valued identity patterns
/// ("The user lives in X"): two memories with the same subject and different values contradict.
fn single_valued(content: &str) -> Option<(&'static str, String)> {
    let lower = content.to_lowercase();
    for subject in ["name is", "lives in", "is from", "works as", "works at", "works for"] {
        if let Some(pos) = lower.find(subject) {
            let value = lower[pos + subject.len()..].trim().trim_end_matches('.').to_string();
            if !value.is_empty() {
                return Some((subject, value));
            }
        }
    }
    None
}

/// Deep reflection. Extra input: `"soul"`. Output: `{"actions": [...], "calibration":
/// {"triage_hints", "always_save", "never_save", "response_defaults"}, "clarity",
/// "soul_rewrite": null, "tasks": [...]}`. Actions: merge near-duplicates, upgrade the
/// confidence of memories mentioned three times or more, deprecate expired ones.
pub fn mentor(input: &Value) -> Value {
    let ms = memories(input);
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

    let soul = input.get("soul").and_then(Value::as_str).unwrap_or("");
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

/// Dossier compilation. Output: markdown starting with `## Index`, one heading per category in
/// a fixed order, near-duplicates merged (the stronger wording kept), a contradicting older fact
/// dropped in favour of the newer or more confident one, at most 600 words.
pub fn compile(input: &Value) -> String {
    let ms: Vec<Memory> = memories(input).into_iter().filter(|m| !m.expired && !m.content.is_empty()).collect();
    let mut dropped: HashSet<usize> = near_duplicates(&ms).into_iter().map(|(_, d)| d).collect();
    let mut by_subject: HashMap<&'static str, usize> = HashMap::new();
    for (i, m) in ms.iter().enumerate() {
        if dropped.contains(&i) {
            continue;
        }
        if let Some((subject, _)) = single_valued(&m.content) {
            if let Some(&other) = by_subject.get(subject) {
                let better = |a: &Memory, b: &Memory| (a.age_days, -a.confidence) < (b.age_days, -b.confidence);
                let (keep, drop) = if better(m, &ms[other]) { (i, other) } else { (other, i) };
                dropped.insert(drop);
                by_subject.insert(subject, keep);
            } else {
                by_subject.insert(subject, i);
            }
        }
    }
    let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
    for category in CATEGORIES.iter().copied().chain(["other"]) {
        let lines: Vec<&str> = ms
            .iter()
            .enumerate()
            .filter(|(i, m)| {
                !dropped.contains(i)
                    && (m.category == category || (category == "other" && !CATEGORIES.contains(&m.category.as_str())))
            })
            .map(|(_, m)| m.content.as_str())
            .collect();
        if !lines.is_empty() {
            sections.push((category, lines));
        }
    }
    if sections.is_empty() {
        return "## Index\n\n(nothing is known yet)\n".into();
    }
    let title = |c: &str| c[..1].to_uppercase() + &c[1..];
    let mut out = String::from("## Index\n\n");
    for (c, lines) in &sections {
        out.push_str(&format!("- {} ({})\n", title(c), lines.len()));
    }
    let mut words = out.split_whitespace().count();
    for (c, lines) in &sections {
        let heading = format!("\n## {}\n\n", title(c));
        words += 2;
        if words >= 600 {
            break;
        }
        out.push_str(&heading);
        for line in lines {
            let n = line.split_whitespace().count() + 1;
            if words + n >= 600 {
                break;
            }
            words += n;
            out.push_str("- ");
            out.push_str(line.trim_end_matches('.'));
            out.push_str(".\n");
        }
    }
    out
}

/// Memory lint. Output: `{"actions": [...], "knowledge_gaps": [{"question", "context"}]}`.
/// merge near-duplicates; deprecate memories older than 60 days with importance ≤ 3;
/// recategorize when the wording clearly says another category; flag single-valued facts
/// with two values as a contradiction (the older, less confident one is the weaker).
pub fn lint(input: &Value) -> Value {
    let ms = memories(input);
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

/// Fusion. Output `{"content", "category"}`: the distinct statements of the cluster (near
/// duplicates folded) joined into one memory, in the cluster's most common category.
pub fn fusion(input: &Value) -> Value {
    let ms = memories(input);
    let dropped: HashSet<usize> = near_duplicates(&ms).into_iter().map(|(_, d)| d).collect();
    let parts: Vec<&str> = ms
        .iter()
        .enumerate()
        .filter(|(i, m)| !dropped.contains(i) && !m.content.is_empty())
        .map(|(_, m)| m.content.trim_end_matches('.'))
        .collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &ms {
        *counts.entry(m.category.as_str()).or_default() += 1;
    }
    let category =
        counts.iter().max_by_key(|(c, n)| (**n, std::cmp::Reverse(*c))).map(|(c, _)| *c).unwrap_or("context");
    json!({ "content": if parts.is_empty() { String::new() } else { parts.join("; ") + "." }, "category": category })
}

/// Dream judge. Input `{"a", "b"}` (two memories); output `{"novelty", "plausibility",
/// "usefulness"` (1–10), `"accept", "connection"}`. Novel when the wording barely overlaps,
/// plausible when they still share a content word or a category, useful when both are
/// about the user's goals, interests or preferences.
pub fn dream_judge(input: &Value) -> Value {
    let text = |k: &str| {
        let v = input.get(k);
        v.and_then(|v| v.get("content")).and_then(Value::as_str).or(v.and_then(Value::as_str)).unwrap_or("").to_string()
    };
    let category = |k: &str| input.get(k).and_then(|v| v.get("category")).and_then(Value::as_str).unwrap_or("");
    let (a, b) = (text("a"), text("b"));
    let shared: Vec<String> = {
        // possessives count as the word itself ("Japan's" is about Japan)
        let words = |t: &str| -> HashSet<String> {
            content_words(t).into_iter().map(|w| w.trim_end_matches("'s").to_string()).filter(|w| w != "user").collect()
        };
        let wa = words(&a);
        let mut s: Vec<String> = words(&b).into_iter().filter(|w| wa.contains(w)).collect();
        s.sort();
        s
    };
    let novelty = (10.0 - 10.0 * jaccard(&a, &b)).round().clamp(1.0, 10.0);
    let plausibility: f64 = if !shared.is_empty() {
        8.0
    } else if !category("a").is_empty() && category("a") == category("b") {
        5.0
    } else {
        2.0
    };
    let personal = |c: &str| matches!(c, "goal" | "interest" | "preference");
    let usefulness: f64 = match (personal(category("a")), personal(category("b"))) {
        (true, true) => 7.0,
        (true, false) | (false, true) => 5.0,
        _ => 3.0,
    };
    let accept = novelty >= 5.0 && plausibility >= 5.0 && usefulness >= 5.0;
    let connection = if shared.is_empty() {
        format!("{} / {}", a.trim_end_matches('.'), b.trim_end_matches('.'))
    } else {
        format!("Both concern {}: {} / {}", shared.join(", "), a.trim_end_matches('.'), b.trim_end_matches('.'))
    };
    json!({ "novelty": novelty, "plausibility": plausibility, "usefulness": usefulness, "accept": accept,
        "connection": connection })
}

/// Gap diagnosis. Input `{"signals": [{"kind", "description", "due_in_hours"?, "age_days"?}]}`;
/// output `{"gaps": [{"gap", "urgency": "high"|"medium"|"low", "suggestion", "justification"}]}`
/// ranked by urgency: deadlines within 24 h and distress are high, deadlines within a week,
/// unresolved questions and stale items medium, the rest low.
pub fn gap_diagnosis(input: &Value) -> Value {
    let signals = input.get("signals").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut gaps: Vec<(u8, Value)> = signals
        .iter()
        .map(|s| {
            let kind = s.get("kind").and_then(Value::as_str).unwrap_or("other");
            let description = s.get("description").and_then(Value::as_str).unwrap_or("").trim_end_matches('.');
            let due = s.get("due_in_hours").and_then(Value::as_f64);
            let age = s.get("age_days").and_then(Value::as_f64).unwrap_or(0.0);
            let (rank, urgency, suggestion, why) = match (kind, due) {
                (_, Some(h)) if h <= 24.0 => {
                    (0, "high", format!("Remind the user now: {description}."), format!("due in {h:.0} h"))
                }
                ("distress", _) => {
                    (0, "high", "Check in gently and offer help.".to_string(), "signs of distress".to_string())
                }
                (_, Some(h)) if h <= 168.0 => (
                    1,
                    "medium",
                    format!("Offer to plan the next step: {description}."),
                    format!("due in {:.0} days", h / 24.0),
                ),
                ("unresolved_question", _) => (
                    1,
                    "medium",
                    format!("Follow up on the open question: {description}."),
                    "asked and never answered".to_string(),
                ),
                ("stale", _) if age >= 14.0 => (
                    1,
                    "medium",
                    format!("Ask whether this still matters: {description}."),
                    format!("untouched for {age:.0} days"),
                ),
                _ => (
                    2,
                    "low",
                    format!("Mention it when it fits: {description}."),
                    "no deadline or urgency signal".to_string(),
                ),
            };
            (rank, json!({ "gap": description, "urgency": urgency, "suggestion": suggestion, "justification": why }))
        })
        .collect();
    gaps.sort_by_key(|(rank, _)| *rank);
    json!({ "gaps": gaps.into_iter().map(|(_, g)| g).collect::<Vec<_>>() })
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

    fn mem(content: &str, category: &str) -> Value {
        json!({ "content": content, "category": category })
    }

    #[test]
    fn mentor_merges_upgrades_and_deprecates() {
        let input = json!({ "soul": "I am Ada, a calm guide.", "memories": [
            { "content": "The user lives in Vienna", "category": "identity", "confidence": 0.9 },
            { "content": "User lives in Vienna", "category": "identity", "confidence": 0.7 },
            { "content": "The user likes jazz", "category": "interest", "mention_count": 4, "confidence": 0.8 },
            { "content": "The user has a dentist appointment on Friday", "category": "context", "expired": true },
            { "content": "The user wants to learn Rust", "category": "goal" },
        ]});
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

    #[test]
    fn compiled_dossier_has_an_index_merges_and_resolves_contradictions() {
        let input = json!({ "memories": [
            { "content": "The user lives in Berlin", "category": "identity", "age_days": 40 },
            { "content": "The user lives in Vienna", "category": "identity", "age_days": 2 },
            { "content": "The user likes jazz", "category": "interest" },
            { "content": "User likes jazz", "category": "interest", "confidence": 0.5 },
            { "content": "The user wants to run a marathon", "category": "goal" },
        ]});
        let d = compile(&input);
        assert!(d.starts_with("## Index\n"), "{d}");
        assert!(d.contains("## Identity") && d.contains("## Goal") && d.contains("## Interest"));
        assert!(d.contains("Vienna") && !d.contains("Berlin"), "the newer fact wins: {d}");
        assert_eq!(d.matches("jazz").count(), 1, "{d}");
        let many: Vec<Value> =
            (0..400).map(|i| mem(&format!("The user knows fact number {i} about topic {i}"), "context")).collect();
        assert!(compile(&json!({ "memories": many })).split_whitespace().count() < 600);
    }

    #[test]
    fn lint_finds_each_kind_of_action_and_gaps() {
        let input = json!({ "memories": [
            { "content": "The user lives in Vienna", "category": "identity", "confidence": 0.9, "age_days": 1 },
            { "content": "The user lives in Graz", "category": "identity", "confidence": 0.6, "age_days": 90 },
            { "content": "The user likes hiking", "category": "context" },
            { "content": "Old note about a parking spot", "category": "context", "age_days": 75, "importance": 2 },
            { "content": "The user likes hiking a lot", "category": "context", "confidence": 0.5 },
        ]});
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

    #[test]
    fn fusion_judge_and_gap_diagnosis() {
        let fused = fusion(&json!({ "memories": [mem("The user runs every morning", "context"),
            mem("User runs every morning", "context"), mem("The user is training for a marathon", "goal")] }));
        assert_eq!(fused["content"], "The user runs every morning; The user is training for a marathon.");
        let j = dream_judge(&json!({ "a": mem("The user wants to visit Japan", "goal"),
            "b": mem("The user likes Japan's ramen", "interest") }));
        assert_eq!(j["accept"], true, "{j}");
        let j =
            dream_judge(&json!({ "a": mem("Meeting at noon", "context"), "b": mem("Printer is broken", "context") }));
        assert_eq!(j["accept"], false, "{j}");
        let g = gap_diagnosis(&json!({ "signals": [
            { "kind": "stale", "description": "Guitar practice", "age_days": 30 },
            { "kind": "task", "description": "Tax return", "due_in_hours": 6 },
            { "kind": "other", "description": "Favourite colour unknown" },
        ]}));
        let urgencies: Vec<&str> =
            g["gaps"].as_array().unwrap().iter().map(|g| g["urgency"].as_str().unwrap()).collect();
        assert_eq!(urgencies, ["high", "medium", "low"]);
    }
}
