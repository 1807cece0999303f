//! The offline engine's triage role: the pipeline's pre-filter, then keyword rules for intent,
//! categories, style and tone for what it lets through.

use miniclaw_domain::chat::triage::{ALL_CATEGORIES, Triage, prefilter};

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
        // A plain question about the agent's own tasks, identity, settings or what it was told
        // is answered from its tools (`triage::lookup`).
        tools_needed: miniclaw_domain::chat::triage::lookup(message).is_some(),
        emotional_tone: tone.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
