//! The roles that write for people or judge what was written: `quality_eval` (one exchange
//! scored), `digest` (the owner's notification digest), `outreach` (an email drafted on the
//! owner's behalf) and `spawn` (a new agent from a brief).

use serde::{Deserialize, Serialize};

use super::RoleInput;
use crate::llm::{Message, Role};

const QUALITY_EVAL_PROMPT: &str = "Evaluate one reply of an assistant to its user. Score from 1 to 10: \
relevance (does it answer the message), coherence (is it clear and well formed), personality (does \
it sound like the assistant's soul) and context_utilization (does it use what it knew about the \
user). overall is the weighted average: relevance 0.30, coherence 0.25, personality 0.25, context \
0.20. Answer with one JSON object: {\"relevance\": 1-10, \"coherence\": 1-10, \"personality\": 1-10, \
\"context_utilization\": 1-10, \"overall\": 1-10, \"reasoning\": \"...\"}.";

const DIGEST_PROMPT: &str = "Write a short plain-text digest for the owner of an AI agent: what the \
agent has been up to since the last digest, one line per item, grouped by kind, ending with the \
quote when one is given. Say nothing the items do not say.";

const FEED_POST_PROMPT: &str = "Write one short social post (at most 280 characters, plain text, no \
hashtags) in the voice of an AI agent for its feed: grounded in one thing it knows about its owner's \
world from the memories, coloured by its soul, with the perspective of the teaching when one is \
given (quote it briefly and name who said it). Say nothing the memories do not support, and say \
something different from the earlier posts listed.";

const OUTREACH_PROMPT: &str = "Draft a short, polite email that an AI agent sends on its owner's \
behalf: greet the recipient, say who is writing and why, add the context when given, ask for a \
reply and sign with the agent's name. Plain text, no placeholders. Answer with one JSON object: \
{\"subject\": \"...\", \"body\": \"...\"}.";

const SPAWN_PROMPT: &str = "Design a new AI agent from its owner's brief: a short name, a one-sentence \
persona, and a soul document in the first person (who it is, its purpose, what it values, how it \
speaks). Answer with one JSON object: {\"name\": \"...\", \"persona\": \"...\", \"soul\": \"...\"}.";

/// Quality evaluation of one exchange. Output the four 1–10 scores (`relevance`, `coherence`,
/// `personality`, `context_utilization`), `overall` and `reasoning`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct QualityEval {
    /// The user's message.
    pub user: String,
    /// The reply being judged.
    pub assistant: String,
    /// The agent's soul document, when it has one.
    #[serde(default)]
    pub soul: Option<String>,
    /// The memories the reply could draw on.
    #[serde(default)]
    pub context: Vec<String>,
}

impl RoleInput for QualityEval {
    const ROLE: Role = Role::QualityEval;
    const JSON: bool = true;
    fn messages(&self) -> Vec<Message> {
        let mut prompt = String::new();
        if let Some(soul) = &self.soul {
            prompt.push_str(&format!("Soul:\n{soul}\n\n"));
        }
        if !self.context.is_empty() {
            prompt.push_str(&format!("What it knew:\n- {}\n\n", self.context.join("\n- ")));
        }
        prompt.push_str(&format!("User: {}\n\nAssistant: {}", self.user, self.assistant));
        vec![Message::system(QUALITY_EVAL_PROMPT), Message::user(prompt)]
    }
}

/// A notification digest. Output: plain text.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Digest {
    pub agent_name: String,
    pub items: Vec<DigestItem>,
    /// A quote to close with.
    #[serde(default)]
    pub wisdom: Option<Wisdom>,
}

/// One thing that happened; items are grouped by `kind` (`update` when it has none).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DigestItem {
    #[serde(default)]
    pub kind: Option<String>,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Wisdom {
    #[serde(default)]
    pub quote: String,
    /// Who said it.
    #[serde(default)]
    pub mentor: String,
}

impl RoleInput for Digest {
    const ROLE: Role = Role::Digest;
    const JSON: bool = false;
    fn messages(&self) -> Vec<Message> {
        let mut prompt = format!("Agent: {}\n\nItems:\n", self.agent_name);
        for i in &self.items {
            prompt.push_str(&format!("- [{}] {}\n", i.kind.as_deref().unwrap_or("update"), i.text));
        }
        if let Some(w) = self.wisdom.as_ref().filter(|w| !w.quote.trim().is_empty()) {
            prompt.push_str(&format!("\nQuote: \"{}\"", w.quote));
            if !w.mentor.trim().is_empty() {
                prompt.push_str(&format!(" — {}", w.mentor));
            }
            prompt.push('\n');
        }
        vec![Message::system(DIGEST_PROMPT), Message::user(prompt)]
    }
}

/// A feed post by the feed digest (S1). Output: the post's text.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FeedPost {
    pub agent_name: String,
    /// The start of the agent's soul document.
    #[serde(default)]
    pub soul: Option<String>,
    /// What the agent knows, most important first.
    pub memories: Vec<String>,
    #[serde(default)]
    pub wisdom: Option<Wisdom>,
    /// The agent's latest posts, which the new one must not repeat.
    #[serde(default)]
    pub avoid: Vec<String>,
    /// 0 for the first draft; a rewrite after a too-similar draft counts up.
    #[serde(default)]
    pub attempt: u32,
}

impl RoleInput for FeedPost {
    const ROLE: Role = Role::Digest;
    const JSON: bool = false;
    fn messages(&self) -> Vec<Message> {
        let mut prompt = format!("Agent: {}\n", self.agent_name);
        if let Some(soul) = self.soul.as_deref().filter(|s| !s.trim().is_empty()) {
            prompt.push_str(&format!("\nSoul:\n{soul}\n"));
        }
        prompt.push_str("\nMemories:\n");
        for m in &self.memories {
            prompt.push_str(&format!("- {m}\n"));
        }
        if let Some(w) = self.wisdom.as_ref().filter(|w| !w.quote.trim().is_empty()) {
            prompt.push_str(&format!("\nTeaching: \"{}\" — {}\n", w.quote, w.mentor));
        }
        if !self.avoid.is_empty() {
            prompt.push_str("\nEarlier posts (write something different):\n");
            for a in &self.avoid {
                prompt.push_str(&format!("- {a}\n"));
            }
        }
        if self.attempt > 0 {
            prompt.push_str(&format!("\nThe previous draft was too close to an earlier post; this is rewrite {}: pick another memory and angle.\n", self.attempt));
        }
        vec![Message::system(FEED_POST_PROMPT), Message::user(prompt)]
    }
}

/// An outreach email draft. Output `{"subject", "body"}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Outreach {
    pub agent_name: String,
    /// On whose behalf the agent writes.
    #[serde(default)]
    pub owner_name: Option<String>,
    /// Who the email is for.
    #[serde(default)]
    pub target_name: Option<String>,
    /// What the email is about.
    pub purpose: String,
    #[serde(default)]
    pub context: Option<String>,
}

impl RoleInput for Outreach {
    const ROLE: Role = Role::Outreach;
    const JSON: bool = true;
    fn messages(&self) -> Vec<Message> {
        let mut prompt = format!("From: {}", self.agent_name);
        if let Some(o) = &self.owner_name {
            prompt.push_str(&format!(", on behalf of {o}"));
        }
        if let Some(t) = &self.target_name {
            prompt.push_str(&format!("\nTo: {t}"));
        }
        prompt.push_str(&format!("\nPurpose: {}", self.purpose));
        if let Some(c) = &self.context {
            prompt.push_str(&format!("\nContext: {c}"));
        }
        vec![Message::system(OUTREACH_PROMPT), Message::user(prompt)]
    }
}

/// An agent draft from a brief. Output `{"name", "persona", "soul"}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Spawn {
    pub brief: String,
}

impl RoleInput for Spawn {
    const ROLE: Role = Role::Spawn;
    const JSON: bool = true;
    fn messages(&self) -> Vec<Message> {
        vec![Message::system(SPAWN_PROMPT), Message::user(self.brief.clone())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writing_prompts_show_their_input() {
        let q: QualityEval = serde_json::from_value(json!({ "user": "Where do I live?", "assistant": "In Vienna.",
            "context": ["The user lives in Vienna"] }))
        .unwrap();
        assert_eq!(
            q.messages()[1].content,
            "What it knew:\n- The user lives in Vienna\n\nUser: Where do I live?\n\nAssistant: In Vienna."
        );
        let d: Digest = serde_json::from_value(json!({ "agent_name": "Ada", "items": [{ "text": "Read a book" }],
            "wisdom": { "quote": "Well begun is half done.", "mentor": "Aristotle" } }))
        .unwrap();
        assert_eq!(
            d.messages()[1].content,
            "Agent: Ada\n\nItems:\n- [update] Read a book\n\nQuote: \"Well begun is half done.\" — Aristotle\n"
        );
        let o: Outreach = serde_json::from_value(json!({ "agent_name": "Ada", "owner_name": "Alice",
            "target_name": "Bob", "purpose": "a talk at the Rust meetup" }))
        .unwrap();
        assert_eq!(
            o.messages()[1].content,
            "From: Ada, on behalf of Alice\nTo: Bob\nPurpose: a talk at the Rust meetup"
        );
        assert_eq!(Spawn { brief: "A gardening helper".into() }.messages()[1].content, "A gardening helper");
    }
}
