//! The roles of the dream cycle and of gap diagnosis: `fusion` (a cluster of memories folded
//! into one), `dream_judge` (is a connection between two memories worth keeping?) and
//! `gap_diagnosis` (signals ranked into gaps the assistant should act on).

use serde::{Deserialize, Serialize};

use super::{MemoryItem, RoleInput, bulleted};
use crate::llm::{Message, Role};

const FUSION_PROMPT: &str = "Fold this cluster of memories about the user into one memory that keeps \
every distinct statement once, in the category most of them share. Do not invent anything. \
Answer with one JSON object: {\"content\": \"...\", \"category\": \"...\"}.";

const DREAM_JUDGE_PROMPT: &str = "Judge a connection between two memories about the user. Score from 1 \
to 10 how novel it is (not already obvious from either memory), how plausible and how useful to the \
assistant, accept it only when all three are at least 5, and state the connection in one sentence. \
Answer with one JSON object: {\"novelty\": 1-10, \"plausibility\": 1-10, \"usefulness\": 1-10, \
\"accept\": true|false, \"connection\": \"...\"}.";

const GAP_DIAGNOSIS_PROMPT: &str = "Find the gaps where the assistant should act for the user, from \
these signals (deadlines, distress, unanswered questions, stale items). Rank them by urgency: \
deadlines within a day and distress are high; deadlines within a week, unanswered questions and \
items untouched for two weeks are medium; the rest low. Answer with one JSON object: {\"gaps\": \
[{\"gap\": \"...\", \"urgency\": \"high\" | \"medium\" | \"low\", \"suggestion\": \"...\", \
\"justification\": \"...\"}]}, most urgent first.";

/// Fusion of a cluster of memories. Output `{"content", "category"}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Fusion {
    pub memories: Vec<MemoryItem>,
}

impl RoleInput for Fusion {
    const ROLE: Role = Role::Fusion;
    const JSON: bool = true;
    fn messages(&self) -> Vec<Message> {
        vec![Message::system(FUSION_PROMPT), Message::user(bulleted(&self.memories))]
    }
}

/// A memory as the dream judge sees it: its text and, when known, its category.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Note {
    pub content: String,
    #[serde(default)]
    pub category: String,
}

impl Note {
    fn line(&self) -> String {
        match self.category.as_str() {
            "" => self.content.clone(),
            c => format!("[{c}] {}", self.content),
        }
    }
}

/// The dream judge. Output `{"novelty", "plausibility", "usefulness"` (1–10), `"accept",
/// "connection"}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct DreamJudge {
    pub a: Note,
    pub b: Note,
}

impl RoleInput for DreamJudge {
    const ROLE: Role = Role::DreamJudge;
    const JSON: bool = true;
    fn messages(&self) -> Vec<Message> {
        vec![
            Message::system(DREAM_JUDGE_PROMPT),
            Message::user(format!("Memory A: {}\nMemory B: {}", self.a.line(), self.b.line())),
        ]
    }
}

/// Gap diagnosis. Output `{"gaps": [{"gap", "urgency", "suggestion", "justification"}]}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GapDiagnosis {
    pub signals: Vec<Signal>,
}

/// Something that may need the assistant's attention.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Signal {
    /// `task`, `distress`, `unresolved_question`, `stale`, …
    #[serde(default = "Signal::default_kind")]
    pub kind: String,
    #[serde(default)]
    pub description: String,
    /// Hours until its deadline, when it has one.
    #[serde(default)]
    pub due_in_hours: Option<f64>,
    /// Days since it was last touched.
    #[serde(default)]
    pub age_days: Option<f64>,
}

impl Signal {
    fn default_kind() -> String {
        "other".into()
    }
}

impl RoleInput for GapDiagnosis {
    const ROLE: Role = Role::GapDiagnosis;
    const JSON: bool = true;
    fn messages(&self) -> Vec<Message> {
        let lines: String = self
            .signals
            .iter()
            .map(|s| {
                let mut line = format!("- [{}] {}", s.kind, s.description);
                if let Some(h) = s.due_in_hours {
                    line.push_str(&format!(" (due in {h:.0} h)"));
                }
                if let Some(d) = s.age_days {
                    line.push_str(&format!(" (untouched for {d:.0} days)"));
                }
                line + "\n"
            })
            .collect();
        vec![Message::system(GAP_DIAGNOSIS_PROMPT), Message::user(format!("Signals:\n{lines}"))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dream_prompts_show_their_memories_and_signals() {
        let j: DreamJudge =
            serde_json::from_value(json!({ "a": { "content": "Wants to visit Japan", "category": "goal" },
            "b": { "content": "Likes ramen" } }))
            .unwrap();
        assert_eq!(j.messages()[1].content, "Memory A: [goal] Wants to visit Japan\nMemory B: Likes ramen");
        let f: Fusion = serde_json::from_value(json!({ "memories": [{ "content": "Runs daily" }] })).unwrap();
        assert_eq!(f.messages()[1].content, "- [context] Runs daily\n");
        let g: GapDiagnosis = serde_json::from_value(json!({ "signals": [
            { "kind": "task", "description": "Tax return", "due_in_hours": 6 },
            { "description": "Guitar practice", "age_days": 30 }] }))
        .unwrap();
        assert_eq!(
            g.messages()[1].content,
            "Signals:\n- [task] Tax return (due in 6 h)\n- [other] Guitar practice (untouched for 30 days)\n"
        );
    }
}
