//! Offline fact extraction: sentence patterns ("my name is", "I live in", "I want to", "I
//! like/prefer/hate", dated plans) turned into third-person facts with a category.
//!
//! Input: the user's words of the transcript (`roles::Extraction`), or the last user message
//! of the prompt. Output: `{"facts": [{"content", "category", "confidence"}], "insights": []}`.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fact {
    pub content: String,
    pub category: &'static str,
    pub confidence: f32,
}

struct Rule {
    pattern: Regex,
    category: &'static str,
    template: &'static str,
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let r = |p: &str, category, template| Rule { pattern: Regex::new(p).expect("static pattern"), category, template };
    vec![
        r(r"(?i)\bmy name is ([\p{L}][\p{L}' -]{0,40}?)(?:\s+and\b|[,.!?;]|$)", "identity", "The user's name is {}"),
        r(
            r"(?i)\b(?:call me|i'?m called) ([\p{L}][\p{L}' -]{0,40}?)(?:\s+and\b|[,.!?;]|$)",
            "identity",
            "The user's name is {}",
        ),
        r(
            r"(?i)\bi (?:live|am living|'m living) in ([\p{L}][\p{L}' .-]{0,60}?)(?:\s+and\b|[,.!?;]|$)",
            "identity",
            "The user lives in {}",
        ),
        r(
            r"(?i)\bi(?:'m| am) from ([\p{L}][\p{L}' .-]{0,60}?)(?:\s+and\b|[,.!?;]|$)",
            "identity",
            "The user is from {}",
        ),
        r(r"(?i)\bi work (?:as|at|for) ([^,.!?;]{2,80})", "identity", "The user works as/at {}"),
        r(r"(?i)\bi(?:'m| am) an? ([\p{L}][\p{L} -]{2,40}?)(?:\s+and\b|[,.!?;]|$)", "identity", "The user is a {}"),
        r(
            r"(?i)\b(?:i want to|i'd like to|i would like to|i plan to|i'm planning to|my goal is to|i hope to) ([^,.!?;]{2,120})",
            "goal",
            "The user wants to {}",
        ),
        r(r"(?i)\bi (?:really )?(?:like|love|enjoy) ([^,.!?;]{2,80})", "interest", "The user likes {}"),
        r(r"(?i)\bi(?:'m| am) (?:interested in|into) ([^,.!?;]{2,80})", "interest", "The user is interested in {}"),
        r(r"(?i)\bi (?:prefer|would rather) ([^,.!?;]{2,80})", "preference", "The user prefers {}"),
        r(
            r"(?i)\bi (?:hate|dislike|can't stand|don't like|do not like) ([^,.!?;]{2,80})",
            "preference",
            "The user dislikes {}",
        ),
        r(
            r"(?i)\b((?:on|this|next) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|month)|tomorrow|tonight|on \d{4}-\d{2}-\d{2}) i (have|am going to|will|'ll) ([^,.!?;]{2,100})",
            "context",
            "{}",
        ),
    ]
});

/// The extraction answer for the user's messages: the facts of each, in order; no insights
/// (they are the assistant's own conclusions, which rules cannot draw).
pub fn facts(texts: &[&str]) -> Value {
    let facts: Vec<Fact> = texts.iter().flat_map(|t| extract(t)).collect();
    json!({ "facts": facts, "insights": [] })
}

/// Facts stated in `text`, in order of appearance, without duplicates.
pub fn extract(text: &str) -> Vec<Fact> {
    let mut facts: Vec<(usize, Fact)> = Vec::new();
    for rule in RULES.iter() {
        for caps in rule.pattern.captures_iter(text) {
            let start = caps.get(0).map_or(0, |m| m.start());
            let content = if rule.category == "context" {
                let verb = if caps[2].eq_ignore_ascii_case("have") { "has" } else { "will" };
                format!("{} the user {verb} {}", capitalize(caps[1].trim()), caps[3].trim())
            } else {
                rule.template.replace("{}", caps[1].trim().trim_end_matches(['.', ' ']))
            };
            if !facts.iter().any(|(_, f)| f.content.eq_ignore_ascii_case(&content)) {
                facts.push((start, Fact { content, category: rule.category, confidence: 0.8 }));
            }
        }
    }
    facts.sort_by_key(|(pos, _)| *pos);
    facts.into_iter().map(|(_, f)| f).collect()
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_facts_from_a_classic_sentence() {
        let facts = extract("My name is Alice and I live in Vienna.");
        assert_eq!(
            facts,
            vec![
                Fact { content: "The user's name is Alice".into(), category: "identity", confidence: 0.8 },
                Fact { content: "The user lives in Vienna".into(), category: "identity", confidence: 0.8 },
            ]
        );
    }

    #[test]
    fn goals_likes_preferences_and_plans() {
        let facts = extract(
            "I want to run a marathon next year. I love jazz, but I hate cilantro. I prefer short answers. Tomorrow I have a dentist appointment.",
        );
        let got: Vec<(&str, &str)> = facts.iter().map(|f| (f.category, f.content.as_str())).collect();
        assert_eq!(
            got,
            vec![
                ("goal", "The user wants to run a marathon next year"),
                ("interest", "The user likes jazz"),
                ("preference", "The user dislikes cilantro"),
                ("preference", "The user prefers short answers"),
                ("context", "Tomorrow the user has a dentist appointment"),
            ]
        );
        assert!(extract("hi there, how are you?").is_empty());
    }
}
