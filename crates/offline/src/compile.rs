//! The offline `compile` role: the dossier, a markdown digest of the memories by category with
//! near-duplicates merged and contradictions resolved.

use std::collections::{HashMap, HashSet};

use super::memories::{CATEGORIES, Memory, memories, near_duplicates, single_valued};
use miniclaw_platform::llm::roles::Compile;

/// Dossier compilation. Output: markdown starting with `## Index`, one heading per category in
/// a fixed order, near-duplicates merged (the stronger wording kept), a contradicting older fact
/// dropped in favour of the newer or more confident one, at most 600 words.
pub fn compile(input: &Compile) -> String {
    let ms: Vec<Memory> =
        memories(&input.memories).into_iter().filter(|m| !m.expired && !m.content.is_empty()).collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn mem(content: &str, category: &str) -> Value {
        json!({ "content": content, "category": category })
    }

    fn input(v: Value) -> Compile {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn compiled_dossier_has_an_index_merges_and_resolves_contradictions() {
        let memories = input(json!({ "memories": [
            { "content": "The user lives in Berlin", "category": "identity", "age_days": 40 },
            { "content": "The user lives in Vienna", "category": "identity", "age_days": 2 },
            { "content": "The user likes jazz", "category": "interest" },
            { "content": "User likes jazz", "category": "interest", "confidence": 0.5 },
            { "content": "The user wants to run a marathon", "category": "goal" },
        ]}));
        let d = compile(&memories);
        assert!(d.starts_with("## Index\n"), "{d}");
        assert!(d.contains("## Identity") && d.contains("## Goal") && d.contains("## Interest"));
        assert!(d.contains("Vienna") && !d.contains("Berlin"), "the newer fact wins: {d}");
        assert_eq!(d.matches("jazz").count(), 1, "{d}");
        let many: Vec<Value> =
            (0..400).map(|i| mem(&format!("The user knows fact number {i} about topic {i}"), "context")).collect();
        assert!(compile(&input(json!({ "memories": many }))).split_whitespace().count() < 600);
    }
}
