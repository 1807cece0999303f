//! The deterministic pre-filter (SPEC P2, 001 §3): small talk, tool keywords and brief
//! messages are decided without the triage model. Also the triage result type and its
//! fail-open defaults, which every triage path (pre-filter, model, offline engine) returns.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// The triage result (001 §3.3), with the field names the triage model is asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Triage {
    pub intent: String,
    pub relevant_categories: Vec<String>,
    pub include_knowledge: bool,
    pub include_summaries: bool,
    pub save_worthy: bool,
    pub save_hint: Option<String>,
    pub response_style: String,
    pub max_tokens: u32,
    pub tools_needed: bool,
    pub emotional_tone: String,
}

/// The categories of facts about the user (`Category::USER_FACTS`), as strings.
pub const ALL_CATEGORIES: [&str; 5] =
    miniclaw_core::vocabulary::Category::names(miniclaw_core::vocabulary::Category::USER_FACTS);

impl Triage {
    /// The fail-open defaults (001 §3.5).
    pub fn fail_open() -> Self {
        Triage {
            intent: "project_question".into(),
            relevant_categories: ALL_CATEGORIES.iter().map(|s| s.to_string()).collect(),
            include_knowledge: true,
            include_summaries: true,
            save_worthy: true,
            save_hint: None,
            response_style: "conversational".into(),
            max_tokens: 2500,
            tools_needed: false,
            emotional_tone: "neutral".into(),
        }
    }
}

/// Why the pre-filter decided without the triage model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    Trivial,
    ToolKeyword,
    Brief,
}

static TRIVIAL: LazyLock<Regex> = LazyLock::new(|| {
    let words = [
        // greetings
        "hi",
        "hii+",
        "hey+",
        "hello+",
        "hallo",
        "howdy",
        "hiya",
        "gm",
        "gn",
        "good morning",
        "good night",
        "good evening",
        "morning",
        "evening",
        "yo+",
        "sup",
        "wassup",
        "what'?s up",
        "heya",
        // acknowledgments
        "ok",
        "okay",
        "k",
        "kk",
        "okey",
        "sure",
        "got it",
        "gotcha",
        "sounds good",
        "makes sense",
        "understood",
        "noted",
        "on it",
        "will do",
        "alright",
        "all right",
        "cool",
        "nice",
        "great",
        "perfect",
        "awesome",
        "fine",
        "yep",
        "yup",
        "yes",
        "yeah",
        "yea",
        "no",
        "nope",
        "nah",
        "thanks",
        "thank you",
        "thx",
        "ty",
        "tysm",
        "cheers",
        "bye",
        "goodbye",
        "see you",
        "cya",
        "later",
        "ttyl",
        // affirmations
        "true",
        "absolutely",
        "definitely",
        "exactly",
        "indeed",
        "facts",
        "bet",
        "word",
        "right",
        "agreed",
        "same",
        // reactions
        "lol+",
        "lmao+",
        "rofl",
        "haha+",
        "hehe+",
        "ha+",
        "wow+",
        "omg",
        "smh",
        "ikr",
        "oof",
        "yikes",
        "damn",
        "nice one",
        // abbreviations
        "tbh",
        "imo",
        "imho",
        "fyi",
        "btw",
        "np",
        "nvm",
        "yw",
        "ofc",
        "mb",
        "fs",
        "fr",
        "idk",
        "brb",
        "gg",
        "wp",
        "ngl",
    ];
    Regex::new(&format!(r"(?i)^\s*(?:(?:{})[\s!.?,~]*)+$", words.join("|"))).expect("static trivial pattern")
});

static EMOJI_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[\s\p{Extended_Pictographic}\p{Emoji_Modifier}\u{200d}\u{fe0f}]+$").expect("static emoji pattern")
});

static TOOL_KEYWORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(balance|price|prices|send|sent|token|tokens|wallet|transfer|swap|buy|sell|tip|pay|payment|gas|stake|staking|transaction|tx|usdc|eth|celo)\b")
        .expect("static keyword pattern")
});

pub fn is_trivial(message: &str) -> bool {
    let m = message.trim();
    !m.is_empty() && (TRIVIAL.is_match(m) || EMOJI_ONLY.is_match(m))
}

/// The deterministic pre-filter (SPEC P2): a result and the reason, or `None` when the
/// message needs the triage model.
/// What a brief message (no triage call) is, read off its shape: a question asks for
/// something (`information_lookup`), a request asks for something done (`task_request`),
/// anything else is said in passing (`casual_chat`). Only what is shown and logged as the
/// turn's intent; the brief budget and context are the same for all three.
fn brief_intent(message: &str) -> &'static str {
    let m = message.trim().to_lowercase();
    let first = m.split(|c: char| !c.is_alphanumeric() && c != '\'').find(|w| !w.is_empty()).unwrap_or("");
    const ASKS: [&str; 15] = [
        "what", "who", "where", "when", "why", "how", "which", "do", "does", "did", "is", "are", "can", "could", "will",
    ];
    const REQUESTS: [&str; 9] = ["remind", "add", "schedule", "please", "make", "book", "send", "note", "remember"];
    if m.ends_with('?') || ASKS.contains(&first) {
        "information_lookup"
    } else if REQUESTS.contains(&first) {
        "task_request"
    } else {
        "casual_chat"
    }
}

pub fn prefilter(message: &str) -> Option<(Triage, SkipReason)> {
    if is_trivial(message) {
        let t = Triage {
            intent: "small_talk".into(),
            relevant_categories: Vec::new(),
            include_knowledge: false,
            include_summaries: false,
            save_worthy: false,
            response_style: "brief".into(),
            max_tokens: 500,
            ..Triage::fail_open()
        };
        return Some((t, SkipReason::Trivial));
    }
    if TOOL_KEYWORDS.is_match(message) {
        let t = Triage {
            intent: "economy_action".into(),
            tools_needed: true,
            save_worthy: true,
            include_knowledge: true,
            max_tokens: 2500,
            ..Triage::fail_open()
        };
        return Some((t, SkipReason::ToolKeyword));
    }
    let words = message.split_whitespace().count();
    if words <= 12 {
        // A plain question one of the agent's tools answers ("what are my tasks?") gets them.
        let t = Triage {
            intent: brief_intent(message).into(),
            save_worthy: words >= 4,
            max_tokens: if words < 4 { 400 } else { 800 },
            tools_needed: super::lookup(message).is_some(),
            ..Triage::fail_open()
        };
        return Some((t, SkipReason::Brief));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brief_messages_get_the_intent_their_shape_says() {
        for (m, intent) in [
            ("What is my name?", "information_lookup"),
            ("where do I live", "information_lookup"),
            ("Remind me to call Dana tomorrow.", "task_request"),
            ("I moved to Lisbon last week.", "casual_chat"),
            ("My sister is called Marta.", "casual_chat"),
        ] {
            let (t, reason) = prefilter(m).unwrap();
            assert_eq!((reason, t.intent.as_str()), (SkipReason::Brief, intent), "{m}");
        }
    }

    #[test]
    fn greetings_acks_and_emoji_are_small_talk() {
        for m in ["hi", "Hey!!", "ok thanks", "gm", "lol", "sounds good", "👍", "🔥🔥", "tbh", "thank you!"] {
            let (t, reason) = prefilter(m).unwrap_or_else(|| panic!("{m} not pre-filtered"));
            assert_eq!(reason, SkipReason::Trivial, "{m}");
            assert_eq!(t.intent, "small_talk");
            assert!(!t.save_worthy && t.relevant_categories.is_empty());
            assert_eq!((t.max_tokens, t.response_style.as_str()), (500, "brief"));
        }
    }

    #[test]
    fn tool_keywords_are_economy_actions() {
        let (t, reason) = prefilter("what's my wallet balance right now").unwrap();
        assert_eq!(reason, SkipReason::ToolKeyword);
        assert_eq!(t.intent, "economy_action");
        assert!(t.tools_needed && t.save_worthy && t.include_knowledge);
        assert_eq!(t.max_tokens, 2500);
    }

    #[test]
    fn brief_messages_follow_the_word_count_rules() {
        let (t, reason) = prefilter("tell me more").unwrap();
        assert_eq!(reason, SkipReason::Brief);
        assert_eq!((t.save_worthy, t.max_tokens), (false, 400));
        let (t, _) = prefilter("I moved to Vienna last spring").unwrap();
        assert_eq!((t.save_worthy, t.max_tokens), (true, 800));
        let twelve = "one two three four five six seven eight nine ten eleven twelve";
        assert!(prefilter(twelve).is_some());
        assert!(prefilter(&format!("{twelve} thirteen")).is_none());
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// Messages made of greeting, keyword and ordinary words, so that every branch is reached.
    fn message() -> impl Strategy<Value = String> {
        let word =
            prop::sample::select(vec!["hi", "ok", "thanks", "wallet", "send", "jazz", "vienna", "I", "moved", "👍"]);
        let sep = prop::sample::select(vec![" ", "  ", "! ", ", ", "\n", "\t"]);
        prop::collection::vec((word, sep), 0..20)
            .prop_map(|ws| ws.into_iter().map(|(w, s)| format!("{w}{s}")).collect())
    }

    fn check(m: &str) -> Result<(), TestCaseError> {
        let words = m.split_whitespace().count();
        match prefilter(m) {
            Some((t, SkipReason::Trivial)) => {
                prop_assert!(is_trivial(m));
                prop_assert_eq!((t.intent.as_str(), t.max_tokens, t.save_worthy), ("small_talk", 500, false));
            }
            Some((t, SkipReason::ToolKeyword)) => {
                prop_assert!(!is_trivial(m) && t.tools_needed && t.intent == "economy_action");
            }
            Some((t, SkipReason::Brief)) => {
                prop_assert!(words <= 12 && !is_trivial(m));
                prop_assert_eq!(t.save_worthy, words >= 4);
                prop_assert!(t.max_tokens == 400 || t.max_tokens == 800);
            }
            None => prop_assert!(words > 12 && !is_trivial(m), "{:?} needs the model", m),
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_unicode_message_is_decided_without_panicking(m in any::<String>()) {
            check(&m)?;
        }

        #[test]
        fn word_mixes_take_the_documented_branch(m in message()) {
            check(&m)?;
        }

        #[test]
        fn surrounding_whitespace_changes_nothing(m in message(), pad in "[ \t\n]{0,4}") {
            let padded = format!("{pad}{m}{pad}");
            prop_assert_eq!(prefilter(&padded).map(|(_, r)| r), prefilter(&m).map(|(_, r)| r));
        }
    }
}
