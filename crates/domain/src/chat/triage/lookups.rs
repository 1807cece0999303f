//! The plain questions a chat tool answers: "what are my tasks?", "what is your wallet
//! address?", "what did I tell you about Lisbon?". The pre-filter and the offline triage mark
//! such a message as needing tools, so the model is offered them; the offline engine calls the
//! one the question names and answers from its results.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Value, json};

/// The tool a plain question asks for, with its arguments; `None` for any other message.
pub fn lookup(message: &str) -> Option<(&'static str, Value)> {
    static RULES: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
        let r = |tool, p: &str| (tool, Regex::new(p).expect("static pattern"));
        vec![
            r(
                "search_memory",
                r"(?i)\b(?:what (?:did|have) i (?:tell|told|say|said to|mention(?:ed)? to) you about|what do you (?:know|remember) about|do you remember(?: anything about)?|remind me what i said about)\s+(.+?)[?.!\s]*$",
            ),
            r(
                "list_tasks",
                r"(?i)\b(?:what|which|show|list|any(?:thing)?|tell me)\b.{0,40}\b(?:tasks?|to-?dos?|to do list)\b",
            ),
            r(
                "my_identity",
                r"(?i)\b(?:wallet(?: address)?|erc-?8004|agent ?id|on-?chain identity|(?:are|is) you registered)\b",
            ),
            r(
                "my_settings",
                r"(?i)\b(?:your|my agent'?s?) (?:settings|tier|timezone|time zone|quiet hours|proactiveness|notification mode)\b",
            ),
            r("wisdom", r"(?i)\b(?:share|give me|tell me|any)\b.{0,20}\b(?:wisdom|teaching|quote)\b"),
        ]
    });
    // A question or a request, not a statement that names the same words ("I lost my wallet",
    // "I made a list of tasks").
    static ASKS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^(?:please\s+|hey\s+|so\s+)?(?:show|list|tell|give|share|remind|what|which|where|do you|are you|any)",
        )
        .expect("static pattern")
    });
    let message = message.trim();
    if !message.contains('?') && !ASKS.is_match(message) {
        return None;
    }
    RULES.iter().find_map(|(tool, p)| {
        let caps = p.captures(message)?;
        let args = match caps.get(1) {
            Some(topic) if *tool == "search_memory" => json!({ "query": topic.as_str().trim() }),
            _ => json!({}),
        };
        Some((*tool, args))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_questions_name_their_tool() {
        for (said, tool) in [
            ("What are my tasks?", Some("list_tasks")),
            ("which tasks are still open", Some("list_tasks")),
            ("Anything on my to-do list?", Some("list_tasks")),
            ("What is your wallet address?", Some("my_identity")),
            ("Are you registered on chain? What's your ERC-8004 id?", Some("my_identity")),
            ("What are your settings?", Some("my_settings")),
            ("Share some wisdom with me", Some("wisdom")),
            ("What did I tell you about Lisbon?", Some("search_memory")),
            ("How are you today?", None),
            ("I finished the report.", None),
            ("I lost my wallet on the train.", None),
            ("I made a list of tasks for tomorrow.", None),
        ] {
            assert_eq!(lookup(said).map(|(t, _)| t), tool, "{said}");
        }
        assert_eq!(
            lookup("What did I tell you about my sister's wedding?").unwrap().1,
            json!({ "query": "my sister's wedding" })
        );
        assert_eq!(lookup("do you remember the marathon plan").unwrap().1, json!({ "query": "the marathon plan" }));
    }
}
