//! The offline roles of the dream cycle: `fusion` (a cluster of memories folded into one) and
//! `dream_judge` (is a connection between two memories novel, plausible and useful?).

use std::collections::{BTreeMap, HashSet};

use serde_json::{Value, json};

use super::memories::{memories, near_duplicates};
use miniclaw_core::text::{content_words, jaccard};
use miniclaw_platform::llm::roles::{DreamJudge, Fusion};

/// Fusion. Output `{"content", "category"}`: the distinct statements of the cluster (near
/// duplicates folded) joined into one memory, in the cluster's most common category.
pub fn fusion(input: &Fusion) -> Value {
    let ms = memories(&input.memories);
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

/// Dream judge of two memories. Output `{"novelty", "plausibility",
/// "usefulness"` (1–10), `"accept", "connection"}`. Novel when the wording barely overlaps,
/// plausible when they still share a content word or a category, useful when both are
/// about the user's goals, interests or preferences.
pub fn dream_judge(input: &DreamJudge) -> Value {
    let (a, b) = (input.a.content.clone(), input.b.content.clone());
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
    } else if !input.a.category.is_empty() && input.a.category == input.b.category {
        5.0
    } else {
        2.0
    };
    let personal = |c: &str| matches!(c, "goal" | "interest" | "preference");
    let usefulness: f64 = match (personal(&input.a.category), personal(&input.b.category)) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mem(content: &str, category: &str) -> Value {
        json!({ "content": content, "category": category })
    }

    fn input<T: serde::de::DeserializeOwned>(v: Value) -> T {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn fusion_and_dream_judge() {
        let fused = fusion(&input(json!({ "memories": [mem("The user runs every morning", "context"),
            mem("User runs every morning", "context"), mem("The user is training for a marathon", "goal")] })));
        assert_eq!(fused["content"], "The user runs every morning; The user is training for a marathon.");
        let j = dream_judge(&input(json!({ "a": mem("The user wants to visit Japan", "goal"),
            "b": mem("The user likes Japan's ramen", "interest") })));
        assert_eq!(j["accept"], true, "{j}");
        let j = dream_judge(&input(
            json!({ "a": mem("Meeting at noon", "context"), "b": mem("Printer is broken", "context") }),
        ));
        assert_eq!(j["accept"], false, "{j}");
    }
}
