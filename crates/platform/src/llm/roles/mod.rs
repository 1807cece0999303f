//! Every model role's typed input, and its prompt: a struct per role that holds what the call is
//! about and renders the messages a provider is sent (`RoleInput::messages`).
//! `ChatRequest::from_input` builds the request from it and keeps the value in `input`; with no
//! provider configured the offline engine answers from that same value, so the prompt and the
//! offline answer never read different data. Chat, premium chat and skills have no such input:
//! the chat pipeline assembles their prompt itself.
//!
//! - `pipeline`: triage, extraction, dedup, summarization (the chat pipeline's roles)
//! - `upkeep`: guard, mentor, compile, lint, rerank (soul, cognition cycles, search)
//! - `dreams`: fusion, dream judge, gap diagnosis
//! - `writing`: quality evaluation, digest, feed post (the digest role), outreach, spawn

mod dreams;
mod pipeline;
mod upkeep;
mod writing;

use serde::{Deserialize, Serialize};

pub use dreams::{DreamJudge, Fusion, GapDiagnosis, Note, Signal};
pub use pipeline::{Dedup, Exchange, Extraction, Summarization, Transcript, Triage, TriageCalibration, Turn};
pub use upkeep::{Compile, Guard, Lint, Mentor, PocItem, Rerank, TaskItem, UsageItem};
pub use writing::{Digest, DigestItem, FeedPost, Outreach, QualityEval, Spawn, Wisdom};

use super::{ChatRequest, Message, Role};

/// A role's typed input: the role it is for, whether the answer is a JSON object, and the
/// prompt it renders.
pub trait RoleInput: Into<Input> {
    const ROLE: Role;
    /// Ask for a JSON object (`response_format: json_object`).
    const JSON: bool;
    fn messages(&self) -> Vec<Message>;
}

macro_rules! inputs {
    ($($name:ident),* $(,)?) => {
        /// The typed input of a request, one variant per role that has one.
        #[derive(Debug, Clone, Serialize, Deserialize)]
        #[serde(tag = "role", content = "input", rename_all = "snake_case")]
        pub enum Input {
            $($name($name),)*
        }

        impl Input {
            /// The role this input is for.
            pub fn role(&self) -> Role {
                match self {
                    $(Input::$name(_) => <$name as RoleInput>::ROLE,)*
                }
            }

            /// The prompt this input renders.
            pub fn messages(&self) -> Vec<Message> {
                match self {
                    $(Input::$name(i) => i.messages(),)*
                }
            }
        }

        $(
            impl From<$name> for Input {
                fn from(i: $name) -> Self {
                    Input::$name(i)
                }
            }
        )*
    };
}

inputs!(
    Triage,
    Extraction,
    Dedup,
    Summarization,
    Guard,
    Mentor,
    Compile,
    Lint,
    Rerank,
    Fusion,
    DreamJudge,
    GapDiagnosis,
    QualityEval,
    Digest,
    FeedPost,
    Outreach,
    Spawn,
);

impl ChatRequest {
    /// The request for a role's typed input: its role, its prompt, its JSON flag, and the input
    /// itself for the offline engine.
    pub fn from_input<I: RoleInput>(input: I) -> Self {
        let mut req = ChatRequest::new(I::ROLE, input.messages());
        req.json = I::JSON;
        req.input = Some(input.into());
        req
    }
}

/// One memory as the memory-maintenance roles see it. Defaults fill what a hand-written input
/// leaves out. Actions in their answers refer to memories by position in the list (`index`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryItem {
    pub content: String,
    #[serde(default = "MemoryItem::default_category")]
    pub category: String,
    #[serde(default = "MemoryItem::default_confidence")]
    pub confidence: f64,
    #[serde(default = "MemoryItem::default_mentions")]
    pub mention_count: i64,
    /// 0–10.
    #[serde(default = "MemoryItem::default_importance")]
    pub importance: f64,
    /// Days since the memory was created.
    #[serde(default)]
    pub age_days: f64,
    /// Past its expiry date.
    #[serde(default)]
    pub expired: bool,
    #[serde(default)]
    pub pinned: bool,
}

impl MemoryItem {
    fn default_category() -> String {
        "context".into()
    }
    fn default_confidence() -> f64 {
        0.8
    }
    fn default_mentions() -> i64 {
        1
    }
    fn default_importance() -> f64 {
        5.0
    }
}

/// Memories as numbered lines with their metadata (actions refer to these numbers).
fn numbered(memories: &[MemoryItem]) -> String {
    memories
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "{i}. [{}] {} (confidence {:.2}, mentioned {}×, importance {:.0})\n",
                m.category, m.content, m.confidence, m.mention_count, m.importance
            )
        })
        .collect()
}

/// Memories as bullet points with their category.
fn bulleted(memories: &[MemoryItem]) -> String {
    memories.iter().map(|m| format!("- [{}] {}\n", m.category, m.content)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::MessageRole;

    #[test]
    fn a_request_from_an_input_carries_its_role_prompt_flag_and_input() {
        let req = ChatRequest::from_input(Dedup { candidates: vec!["a".into()], existing: vec!["b".into()] });
        assert_eq!((req.role, req.json), (Role::Dedup, true));
        assert_eq!(req.messages.iter().map(|m| m.role).collect::<Vec<_>>(), [MessageRole::System, MessageRole::User]);
        assert_eq!(req.messages[1].content, "Existing facts:\n0. b\n\nCandidates:\n- a");
        let input = req.input.expect("typed input");
        assert_eq!(input.role(), Role::Dedup);
        assert_eq!(input.messages(), req.messages);
        let summary = ChatRequest::from_input(Summarization::default());
        assert!(!summary.json && matches!(summary.input, Some(Input::Summarization(_))));
    }

    #[test]
    fn memories_render_with_their_metadata_and_fill_defaults() {
        let m: MemoryItem = serde_json::from_value(serde_json::json!({ "content": "The user likes jazz" })).unwrap();
        assert_eq!((m.category.as_str(), m.confidence, m.mention_count, m.importance), ("context", 0.8, 1, 5.0));
        let confident = MemoryItem { confidence: f64::from(0.85f32), mention_count: 3, importance: 7.0, ..m.clone() };
        assert_eq!(
            numbered(&[m.clone(), confident]),
            "0. [context] The user likes jazz (confidence 0.80, mentioned 1×, importance 5)\n\
             1. [context] The user likes jazz (confidence 0.85, mentioned 3×, importance 7)\n"
        );
        assert_eq!(bulleted(&[m]), "- [context] The user likes jazz\n");
    }
}
