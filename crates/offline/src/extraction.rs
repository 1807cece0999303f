//! Offline fact extraction. Two layers, sentence by sentence:
//! - patterns for the classic statements ("my name is", "I live in", "I want to", "I like /
//!   prefer / hate", dated plans), turned into third-person facts with a category;
//! - for any other first-person statement that carries a fact, the sentence itself
//!   (`statements`: what carries a fact, what is small talk, the third person).
//!
//! Input: the user's words of the transcript (`roles::Extraction`), or the last user message
//! of the prompt. Output: `{"facts": [{"content", "category", "confidence", "importance"}],
//! "insights": []}`.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use serde_json::{Value, json};

use super::statements::{chatter, instruction, possessive, statement};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fact {
    pub content: String,
    pub category: &'static str,
    pub confidence: f32,
    /// 0–10.
    pub importance: f32,
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
        // A move is a new home: "we moved to Lisbon last week" is where the user lives now. The
        // place is the capitalised words after "to", so "moved to a bigger flat" is not a home.
        r(
            r"(?i:\b(?:i|we)(?:'ve| have)?(?: just| recently| finally| now)? (?:moved|relocated)(?: back)? to) (\p{Lu}[\p{L}'.-]*(?:[ -](?:\p{Lu}[\p{L}'.-]*|(?:de|da|do|del|la|am)\b))*)",
            "identity",
            "The user lives in {}",
        ),
        r(
            r"(?i)\bi(?:'m| am) from ([\p{L}][\p{L}' .-]{0,60}?)(?:\s+and\b|[,.!?;]|$)",
            "identity",
            "The user is from {}",
        ),
        r(r"(?i)\bi work ((?:as|at|for) [^,.!?;]{2,80})", "identity", "The user works {}"),
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
    let text = text.replace(['’', '‘'], "'");
    let mut facts: Vec<Fact> = Vec::new();
    for sentence in sentences(&text) {
        if chatter(sentence) && !instruction(sentence) {
            continue;
        }
        let mut found = by_rules(sentence);
        if found.is_empty()
            && let Some(f) = statement(sentence)
        {
            found.push(f);
        }
        for f in found {
            if !facts.iter().any(|g| g.content.eq_ignore_ascii_case(&f.content)) {
                facts.push(f);
            }
        }
    }
    facts
}

/// The sentences of a message: split after `.`, `!`, `?` and `;` and at line breaks, keeping
/// the mark (a question is told by its `?`).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in bytes.iter().enumerate() {
        let next_is_space = bytes.get(k + 1).is_none_or(|(_, n)| n.is_whitespace());
        if matches!(c, '\n') || (matches!(c, '.' | '!' | '?' | ';') && next_is_space) {
            let end = i + c.len_utf8();
            let s = text[start..end].trim();
            if !s.is_empty() {
                out.push(s);
            }
            start = end;
        }
    }
    let rest = text[start..].trim();
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// The pattern rules over one sentence.
fn by_rules(sentence: &str) -> Vec<Fact> {
    let mut facts: Vec<(usize, Fact)> = Vec::new();
    for rule in RULES.iter() {
        for caps in rule.pattern.captures_iter(sentence) {
            let start = caps.get(0).map_or(0, |m| m.start());
            let content = if rule.category == "context" {
                let verb = if caps[2].eq_ignore_ascii_case("have") { "has" } else { "will" };
                format!("{} the user {verb} {}", capitalize(caps[1].trim()), caps[3].trim())
            } else {
                let value: Vec<String> =
                    caps[1].trim().trim_end_matches(['.', ' ']).split(' ').map(possessive).collect();
                rule.template.replace("{}", &value.join(" "))
            };
            if !facts.iter().any(|(_, f)| f.content.eq_ignore_ascii_case(&content)) {
                let importance = importance_of(rule.category);
                facts.push((start, Fact { content, category: rule.category, confidence: 0.8, importance }));
            }
        }
    }
    facts.sort_by_key(|(pos, _)| *pos);
    facts.into_iter().map(|(_, f)| f).collect()
}

pub(super) fn importance_of(category: &str) -> f32 {
    match category {
        "identity" => 7.0,
        "preference" | "goal" => 6.0,
        "interest" => 5.0,
        _ => 4.0,
    }
}

pub(super) fn capitalize(s: &str) -> String {
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
                Fact {
                    content: "The user's name is Alice".into(),
                    category: "identity",
                    confidence: 0.8,
                    importance: 7.0
                },
                Fact {
                    content: "The user lives in Vienna".into(),
                    category: "identity",
                    confidence: 0.8,
                    importance: 7.0
                },
            ]
        );
    }

    #[test]
    fn work_keeps_the_preposition_it_was_said_with() {
        for (said, fact) in [
            ("I work as a nurse.", "The user works as a nurse"),
            ("I work at the Royal Hospital.", "The user works at the Royal Hospital"),
            ("I work for my uncle.", "The user works for their uncle"),
        ] {
            let facts = extract(said);
            assert_eq!(facts.first().map(|f| (f.category, f.content.as_str())), Some(("identity", fact)), "{said}");
        }
    }

    #[test]
    fn a_move_is_where_the_user_lives_now() {
        for (said, home) in [
            ("Actually I moved to Lisbon last week.", Some("The user lives in Lisbon")),
            ("We've just moved to New York, it's huge!", Some("The user lives in New York")),
            ("i moved back to Vienna in May", Some("The user lives in Vienna")),
            ("I moved to a bigger flat near the park.", None),
        ] {
            let facts = extract(said);
            let got = facts.iter().find(|f| f.content.starts_with("The user lives in")).map(|f| f.content.as_str());
            assert_eq!(got, home, "{said}: {facts:?}");
        }
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

    fn one(text: &str) -> Option<(&'static str, String)> {
        let mut f = extract(text);
        assert!(f.len() <= 1, "{f:?}");
        f.pop().map(|f| (f.category, f.content))
    }

    #[test]
    fn ordinary_statements_become_third_person_facts() {
        for (said, category, fact) in [
            ("My sister Ana just got engaged to Tom!", "event", "The user's sister Ana just got engaged to Tom"),
            ("My cousin's wedding in Porto was lovely.", "event", "The user's cousin's wedding in Porto was lovely"),
            ("I graduated from nursing school in June.", "event", "The user graduated from nursing school in June"),
            ("I'm allergic to peanuts.", "identity", "The user is allergic to peanuts"),
            (
                "Oh btw I adopted a beagle called Pixel last weekend.",
                "context",
                "The user adopted a beagle called Pixel last weekend",
            ),
            (
                "I run 5k every Tuesday with my neighbour.",
                "context",
                "The user runs 5k every Tuesday with their neighbour",
            ),
            (
                "I've been learning Portuguese on the train.",
                "goal",
                "The user has been learning Portuguese on the train",
            ),
            (
                "Please keep your answers short and skip the emojis.",
                "preference",
                "Please keep your answers short and skip the emojis",
            ),
            ("We bought a used Honda Civic yesterday.", "context", "We bought a used Honda Civic yesterday"),
            ("I love my dog Rex", "interest", "The user likes their dog Rex"),
            ("I hope to visit Japan in spring.", "goal", "The user wants to visit Japan in spring"),
            ("I'm hoping to visit Japan in spring.", "goal", "The user is hoping to visit Japan in spring"),
            ("Use metric units with me, always.", "preference", "Use metric units with me, always"),
            ("Give me times in 24-hour format please.", "preference", "Give me times in 24-hour format please"),
        ] {
            assert_eq!(one(said), Some((category, fact.to_string())), "{said}");
        }
    }

    #[test]
    fn small_talk_questions_and_passing_moods_stay_out() {
        for said in [
            "I'm so tired today",
            "ugh, I'm starving right now",
            "I think so",
            "I guess you're right",
            "I love that idea!",
            "Can you tell me a joke?",
            "What's the capital of Peru?",
            "thanks, that helps a lot",
            "I'm not sure what you mean",
            "haha that's hilarious",
            "I don't know",
            "Where do I live again?",
            "let me think about it",
            "I know, right",
            "I hope so!",
            "I'm a bit nervous about it tbh",
            "my brain is fried today",
            "I'll be back later",
            "sorry, I keep asking you random stuff",
        ] {
            assert_eq!(one(said), None, "{said}");
        }
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn any_message_gives_facts_without_panicking(text in any::<String>()) {
            for f in extract(&text) {
                prop_assert!(!f.content.trim().is_empty());
                prop_assert!((0.0..=10.0).contains(&f.importance));
            }
        }

        #[test]
        fn first_person_words_in_any_order_are_handled(
            words in prop::collection::vec("(I|my|me|I'm|we|the|dog|é|ünïcode|called|Rex|'|’|!|\\?|\\.|;|,|ies|y|es)", 0..14)
        ) {
            let text = words.join(" ");
            for f in extract(&text) {
                prop_assert!(!f.content.trim().is_empty());
            }
        }
    }
}
