//! Rule-based triage (001 §3): the deterministic pre-filter (P2) and keyword intent rules for
//! what it lets through. The chat pipeline uses `prefilter` to skip the triage call; the
//! offline engine uses `classify` as the whole triage role.

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

pub const ALL_CATEGORIES: [&str; 5] = ["identity", "goal", "interest", "preference", "context"];

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
        let t =
            Triage { save_worthy: words >= 4, max_tokens: if words < 4 { 400 } else { 800 }, ..Triage::fail_open() };
        return Some((t, SkipReason::Brief));
    }
    None
}

/// The whole offline triage: the pre-filter, then keyword rules for intent, categories,
/// style and tone.
pub fn classify(message: &str) -> Triage {
    if let Some((t, _)) = prefilter(message) {
        return t;
    }
    let m = message.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| m.contains(w));
    let intent =
        if has(&["feel", "sad", "anxious", "stressed", "lonely", "worried", "upset", "depressed", "overwhelmed"]) {
            "emotional_support"
        } else if has(&["brainstorm", "idea", "imagine", "creative", "story", "poem", "write me"]) {
            "creative_brainstorm"
        } else if has(&["remind", "schedule", "can you", "could you", "please", "help me", "todo", "task"]) {
            "task_request"
        } else if has(&["who are you", "your memory", "do you remember", "what do you know about me", "are you"]) {
            "meta_question"
        } else if has(&[
            "what is", "what's", "who is", "how does", "how do", "when did", "where is", "explain", "define",
        ]) {
            "information_lookup"
        } else if has(&["project", "build", "code", "deploy", "design", "plan"]) {
            "project_question"
        } else {
            "casual_chat"
        };
    let mut categories: Vec<String> = Vec::new();
    let mut add = |c: &str, words: &[&str]| {
        if has(words) {
            categories.push(c.to_string());
        }
    };
    add("identity", &["my name", "i am", "i'm", "i live", "my job", "i work"]);
    add("goal", &["want to", "goal", "plan", "hope to", "trying to", "going to"]);
    add("interest", &["like", "love", "enjoy", "into", "hobby", "interested"]);
    add("preference", &["prefer", "rather", "favorite", "favourite", "hate", "don't like"]);
    add("context", &["project", "work", "today", "tomorrow", "deadline", "meeting"]);
    if categories.is_empty() {
        categories = ALL_CATEGORIES.iter().map(|s| s.to_string()).collect();
    }
    let (style, max_tokens) = if has(&["explain", "in detail", "step by step", "why"]) {
        ("detailed", 2500)
    } else if intent == "creative_brainstorm" {
        ("creative", 2000)
    } else {
        ("conversational", 1200)
    };
    let tone = match intent {
        "emotional_support" => "supportive",
        "creative_brainstorm" => "enthusiastic",
        "task_request" | "project_question" => "serious",
        _ => "neutral",
    };
    Triage {
        intent: intent.into(),
        relevant_categories: categories,
        include_knowledge: matches!(intent, "information_lookup" | "project_question" | "task_request"),
        include_summaries: true,
        save_worthy: true,
        save_hint: None,
        response_style: style.into(),
        max_tokens,
        tools_needed: false,
        emotional_tone: tone.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn longer_messages_get_keyword_intents() {
        let t = classify("I have been feeling really anxious about the move and I do not know who to talk to about it");
        assert_eq!(t.intent, "emotional_support");
        assert_eq!(t.emotional_tone, "supportive");
        let t =
            classify("Could you explain in detail how the deployment of my project works and why it failed yesterday?");
        assert_eq!(t.intent, "task_request");
        assert_eq!(t.response_style, "detailed");
        assert!(t.relevant_categories.contains(&"context".to_string()));
    }
}
