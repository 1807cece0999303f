//! Offline answers for the roles that write for people or judge what was written:
//! `quality_eval`, `digest`, `outreach` and `spawn`. Templates filled from the input, so they
//! say only what the input says.

use std::collections::HashSet;

use serde_json::{Value, json};

use miniclaw_core::text::content_words;
use miniclaw_platform::llm::roles::{Digest, DigestItem, FeedPost, Outreach, QualityEval, Spawn};

/// An optional text, trimmed; empty when absent.
fn text_of(s: &Option<String>) -> &str {
    s.as_deref().unwrap_or("").trim()
}

/// Share of `a`'s content words found in `b` (0 when `a` has none).
fn coverage(a: &str, b: &str) -> f64 {
    let a: HashSet<String> = content_words(a).into_iter().collect();
    if a.is_empty() {
        return 0.0;
    }
    let b: HashSet<String> = content_words(b).into_iter().collect();
    a.intersection(&b).count() as f64 / a.len() as f64
}

/// Quality evaluation of one exchange (the user's message, the reply, the soul and the memories
/// the reply could use). Output the four 1–10 scores of the seed's rubric, their weighted
/// average (`overall`, relevance 0.30, coherence 0.25, personality 0.25, context 0.20) and the
/// reasoning behind each.
pub fn quality_eval(input: &QualityEval) -> Value {
    let (user, reply, soul) = (input.user.trim(), input.assistant.trim(), text_of(&input.soul));
    let context: Vec<&str> = input.context.iter().map(String::as_str).collect();
    let scale = |share: f64| (1.0 + 9.0 * share.clamp(0.0, 1.0)).round();
    let relevance = if reply.is_empty() { 1.0 } else { scale(0.3 + coverage(user, reply)) };
    let words = reply.split_whitespace().count();
    let sentences = reply.split(['.', '!', '?']).filter(|s| !s.trim().is_empty()).count().max(1);
    let per_sentence = words as f64 / sentences as f64;
    let coherence = match words {
        0 => 1.0,
        _ if (5.0..=30.0).contains(&per_sentence) => 8.0,
        _ => 5.0,
    };
    let personality = if soul.is_empty() { 5.0 } else { scale(0.4 + coverage(reply, soul)) };
    let context_utilization = if context.is_empty() {
        5.0
    } else {
        let used = context.iter().filter(|c| coverage(c, reply) >= 0.5).count();
        scale(used as f64 / context.len() as f64)
    };
    let overall = 0.30 * relevance + 0.25 * coherence + 0.25 * personality + 0.20 * context_utilization;
    json!({
        "relevance": relevance, "coherence": coherence, "personality": personality,
        "context_utilization": context_utilization, "overall": (overall * 10.0).round() / 10.0,
        "reasoning": format!(
            "relevance from the share of the question's words the reply takes up; coherence from sentence length ({per_sentence:.0} words per sentence); personality from overlap with the soul{}; context from {} of {} memories reflected in the reply",
            if soul.is_empty() { " (no soul given: neutral)" } else { "" },
            context.iter().filter(|c| coverage(c, reply) >= 0.5).count(),
            context.len()
        ),
    })
}

/// A feed post: one memory (a different one on each rewrite) under an opening that changes
/// with the rewrite too, then the teaching when there is one.
pub fn feed_post(input: &FeedPost) -> String {
    const OPENINGS: [&str; 4] =
        ["Something I keep coming back to", "A note from my week", "What stays with me today", "On my mind lately"];
    let n = input.attempt as usize;
    let opening = OPENINGS[n % OPENINGS.len()];
    let memory = match input.memories.len() {
        0 => None,
        len => Some(input.memories[n % len].trim().trim_end_matches('.')),
    };
    let mut out = match memory {
        Some(m) => format!("{opening}: {m}."),
        None => format!("{opening}: {} is still getting to know its owner.", input.agent_name.trim()),
    };
    if let Some(w) = input.wisdom.as_ref().filter(|w| !w.quote.trim().is_empty()) {
        out.push_str(&format!(" As {} put it, \"{}\"", w.mentor.trim(), w.quote.trim()));
    }
    out
}

/// A digest item's kind (`update` when it has none).
fn kind_of(i: &DigestItem) -> &str {
    i.kind.as_deref().unwrap_or("update")
}

/// A notification digest. Output: plain text, one line per item grouped by kind, closing with
/// the quote when one is given.
pub fn digest(input: &Digest) -> String {
    let name = match input.agent_name.trim() {
        "" => "your agent",
        n => n,
    };
    let items = &input.items;
    let mut out = if items.is_empty() {
        format!("Nothing new from {name} since the last digest.\n")
    } else {
        format!(
            "Here is what {name} has been up to ({} update{}):\n",
            items.len(),
            if items.len() == 1 { "" } else { "s" }
        )
    };
    let mut kinds: Vec<&str> = Vec::new();
    for i in items {
        let k = kind_of(i);
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    for kind in kinds {
        out.push_str(&format!("\n{}:\n", kind.replace('_', " ")));
        for i in items.iter().filter(|i| kind_of(i) == kind) {
            out.push_str(&format!("- {}\n", i.text.trim()));
        }
    }
    if let Some(w) = &input.wisdom {
        let (quote, mentor) = (w.quote.trim(), w.mentor.trim());
        if !quote.is_empty() {
            out.push_str(&format!(
                "\n\"{quote}\"{}\n",
                if mentor.is_empty() { String::new() } else { format!(" — {mentor}") }
            ));
        }
    }
    out
}

/// An outreach email draft. Output `{"subject", "body"}` in plain text, signed by the agent on
/// the owner's behalf.
pub fn outreach(input: &Outreach) -> Value {
    let agent = match input.agent_name.trim() {
        "" => "An assistant",
        a => a,
    };
    let purpose = input.purpose.trim().trim_end_matches('.');
    let greeting = match text_of(&input.target_name) {
        "" => "Hello,".to_string(),
        t => format!("Hello {t},"),
    };
    let on_behalf = match text_of(&input.owner_name) {
        "" => String::new(),
        o => format!(" on behalf of {o}"),
    };
    let context = text_of(&input.context);
    let subject: String = {
        let s: String = purpose.chars().take(70).collect();
        let mut c = s.chars();
        c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_else(|| "Introduction".into())
    };
    let mut body = format!("{greeting}\n\nI am {agent}, writing{on_behalf}. I am reaching out about {purpose}.\n");
    if !context.is_empty() {
        body.push_str(&format!("\n{context}\n"));
    }
    body.push_str(&format!(
        "\nWould you be open to a short reply? Thank you for your time.\n\nBest regards,\n{agent}\n"
    ));
    json!({ "subject": subject, "body": body })
}

/// An agent draft from a brief. Output `{"name", "persona", "soul"}`: the name from the brief's
/// most telling word, the persona from the brief itself.
pub fn spawn(input: &Spawn) -> Value {
    let brief = input.brief.trim().trim_end_matches('.');
    let words = content_words(brief);
    let key = words
        .iter()
        .filter(|w| !matches!(w.as_str(), "agent" | "assistant" | "helps" | "help" | "who" | "which" | "an" | "want"))
        .max_by_key(|w| (w.chars().count(), std::cmp::Reverse((*w).clone())))
        .cloned()
        .unwrap_or_else(|| "helper".into());
    let mut c = key.chars();
    let name = c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default() + " Guide";
    let persona = if brief.is_empty() {
        "A helpful, honest assistant.".to_string()
    } else {
        format!("An assistant for this brief: {brief}.")
    };
    let soul = format!(
        "I am {name}. My purpose: {}. I am honest about what I know and do not know, I remember what matters to the person I work with, and I keep my answers clear and kind.",
        if brief.is_empty() { "to help" } else { brief }
    );
    json!({ "name": name, "persona": persona, "soul": soul })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<T: serde::de::DeserializeOwned>(v: Value) -> T {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn quality_scores_are_weighted_and_track_relevance() {
        let good = quality_eval(&input(
            json!({ "user": "Which city do I live in?", "assistant": "You live in Vienna, as you told me last week.",
            "soul": "I am Ada, a calm guide who remembers", "context": ["The user lives in Vienna"] }),
        ));
        let bad = quality_eval(&input(json!({ "user": "Which city do I live in?", "assistant": "Bananas are yellow.",
            "context": ["The user lives in Vienna"] })));
        assert!(good["overall"].as_f64().unwrap() > bad["overall"].as_f64().unwrap(), "{good} {bad}");
        assert_eq!(bad["context_utilization"], 1.0);
        let o = good["overall"].as_f64().unwrap();
        let expect = 0.3 * good["relevance"].as_f64().unwrap()
            + 0.25 * good["coherence"].as_f64().unwrap()
            + 0.25 * good["personality"].as_f64().unwrap()
            + 0.2 * good["context_utilization"].as_f64().unwrap();
        assert!((o - expect).abs() < 0.06, "{o} vs {expect}");
    }

    #[test]
    fn digest_outreach_and_spawn_follow_their_input() {
        let d = digest(&input(json!({ "agent_name": "Ada", "items": [
            { "kind": "outreach_reply", "text": "Bob answered about the meetup" },
            { "kind": "task", "text": "Finished the reading list" }],
            "wisdom": { "quote": "Well begun is half done.", "mentor": "Aristotle" } })));
        assert!(d.starts_with("Here is what Ada has been up to (2 updates)"), "{d}");
        assert!(d.contains("outreach reply:\n- Bob answered") && d.trim_end().ends_with("— Aristotle"), "{d}");
        let mail = outreach(&input(json!({ "agent_name": "Ada", "owner_name": "Alice", "target_name": "Bob",
            "purpose": "a talk at the Rust meetup" })));
        assert_eq!(mail["subject"], "A talk at the Rust meetup");
        assert!(mail["body"].as_str().unwrap().starts_with("Hello Bob,\n\nI am Ada, writing on behalf of Alice."));
        let s = spawn(&Spawn { brief: "An agent who helps me with gardening and composting".into() });
        assert_eq!(s["name"], "Composting Guide");
        assert!(s["soul"].as_str().unwrap().contains("gardening"));
    }
}
