//! The chat pipeline's roles: `triage` (what context a message needs), `extraction` (facts and
//! insights from a batch of turns), `dedup` (candidates against known facts) and
//! `summarization` (a stretch of a conversation in a few sentences).

use serde::{Deserialize, Serialize};

use super::RoleInput;
use crate::llm::{Message, Role};

const TRIAGE_PROMPT: &str = "You classify one chat message for an assistant that has long-term memory, \
so that it loads only the context the message needs. Answer with one JSON object with exactly \
these fields: intent (one of casual_chat, project_question, task_request, creative_brainstorm, \
economy_action, information_lookup, emotional_support, meta_question, small_talk), \
relevantCategories (array of identity, goal, interest, preference, context; empty for small \
talk), includeKnowledge (bool), includeSummaries (bool), saveWorthy (bool: does the message \
hold facts about the user worth remembering), saveHint (short string or null), responseStyle \
(brief, conversational, detailed, creative), maxTokens (500-4000), toolsNeeded (bool), \
emotionalTone (neutral, supportive, enthusiastic, serious).";

const EXTRACTION_PROMPT: &str = "Extract what is worth remembering from these messages. Facts: \
information about the user only (never about the assistant), each one short third-person \
sentence with a category: preference, identity, goal, interest or context. Insights: the \
assistant's own specific conclusions or advice, only when it gave genuinely useful, specific \
guidance. Do not repeat anything already known (listed below). Answer with one JSON object: \
{\"facts\": [{\"content\": \"...\", \"category\": \"...\", \"confidence\": 0.0-1.0}], \
\"insights\": [{\"content\": \"...\"}]}.";

const DEDUP_PROMPT: &str = "For each candidate fact, decide against the numbered existing facts: \
\"new\" (not known), \"duplicate\" (already known) or \"update\" (a newer version of existing \
fact INDEX). Answer with one JSON object: {\"decisions\": [{\"decision\": \"new\" | \"duplicate\" | \
\"update\", \"index\": INDEX?}]}, one decision per candidate, in order.";

const SUMMARIZATION_PROMPT: &str =
    "Summarise this part of a conversation in 2 to 4 sentences: what the user said, wanted and decided.";

/// One message of a conversation: who said it (`user`, `assistant`, `system`) and what.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub role: String,
    pub content: String,
}

/// Triage of one message. Output: the triage object (`intent`, `relevantCategories`, …).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Triage {
    /// The message, as far as the model is shown it.
    pub message: String,
    /// The recent messages before it, oldest first, as far as the model is shown them.
    #[serde(default)]
    pub history: Vec<Turn>,
    /// What the agent's past conversations showed (C2), when it has a calibration profile.
    #[serde(default)]
    pub calibration: Option<TriageCalibration>,
}

/// The parts of an agent's calibration profile that triage is shown.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TriageCalibration {
    #[serde(default)]
    pub triage_hints: Vec<String>,
    #[serde(default)]
    pub always_save: Vec<String>,
    #[serde(default)]
    pub never_save: Vec<String>,
    #[serde(default)]
    pub response_defaults: Option<String>,
}

impl Triage {
    /// The user message: the recent history, one `[role] text` line each, then the message.
    pub fn user_message(&self) -> String {
        let mut prompt = String::new();
        for m in &self.history {
            prompt.push_str(&format!("[{}] {}\n", m.role, m.content));
        }
        prompt.push_str(&format!("Message to classify: {}", self.message));
        prompt
    }

    /// The calibration as lines of the system prompt; none when it holds no hints or topics.
    fn hints(&self) -> Option<String> {
        let c = self.calibration.as_ref()?;
        if c.triage_hints.is_empty() && c.always_save.is_empty() && c.never_save.is_empty() {
            return None;
        }
        let mut s = String::from("What past conversations with this user showed:\n");
        for h in &c.triage_hints {
            s.push_str(&format!("- {h}\n"));
        }
        if !c.always_save.is_empty() {
            s.push_str(&format!("- Always worth saving: {}\n", c.always_save.join("; ")));
        }
        if !c.never_save.is_empty() {
            s.push_str(&format!("- Never worth saving: {}\n", c.never_save.join("; ")));
        }
        if let Some(d) = &c.response_defaults {
            s.push_str(&format!("- Response defaults: {d}\n"));
        }
        Some(s)
    }
}

impl RoleInput for Triage {
    const ROLE: Role = Role::Triage;
    const JSON: bool = true;
    fn messages(&self) -> Vec<Message> {
        let mut system = TRIAGE_PROMPT.to_string();
        if let Some(h) = self.hints() {
            system.push_str("\n\n");
            system.push_str(&h);
        }
        vec![Message::system(system), Message::user(self.user_message())]
    }
}

/// Extraction. Output `{"facts": [{"content", "category", "confidence"}], "insights":
/// [{"content"}]}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Extraction {
    /// Facts the agent already has, so they are not extracted again.
    #[serde(default)]
    pub known_facts: Vec<String>,
    #[serde(default)]
    pub known_insights: Vec<String>,
    /// Triage's save hints for the batch.
    #[serde(default)]
    pub focus: Vec<String>,
    pub transcript: Transcript,
}

/// What extraction reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transcript {
    /// A batch of the user's messages, each with the assistant's reply when there is one.
    Turns(Vec<Exchange>),
    /// One text window, as the user's words (the calibration shadow).
    Text(String),
}

impl Default for Transcript {
    fn default() -> Self {
        Transcript::Turns(Vec::new())
    }
}

/// A user message and the reply it got.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    pub user: String,
    #[serde(default)]
    pub assistant: Option<String>,
}

impl Extraction {
    /// The user's words in the transcript, message by message.
    pub fn user_texts(&self) -> Vec<&str> {
        match &self.transcript {
            Transcript::Turns(turns) => turns.iter().map(|t| t.user.as_str()).collect(),
            Transcript::Text(text) => vec![text.as_str()],
        }
    }
}

impl RoleInput for Extraction {
    const ROLE: Role = Role::Extraction;
    const JSON: bool = true;
    /// What is known, the focus, then the transcript (each reply cut to 1,000 characters).
    fn messages(&self) -> Vec<Message> {
        let mut prompt = String::new();
        if !self.known_facts.is_empty() {
            prompt.push_str(&format!("Already known facts:\n- {}\n\n", self.known_facts.join("\n- ")));
        }
        if !self.known_insights.is_empty() {
            prompt.push_str(&format!("Already known insights:\n- {}\n\n", self.known_insights.join("\n- ")));
        }
        if !self.focus.is_empty() {
            prompt.push_str(&format!("Focus: {}\n\n", self.focus.join(", ")));
        }
        match &self.transcript {
            Transcript::Turns(turns) => {
                for t in turns {
                    prompt.push_str(&format!("[user] {}\n", t.user));
                    if let Some(r) = &t.assistant {
                        prompt.push_str(&format!("[assistant] {}\n", r.chars().take(1000).collect::<String>()));
                    }
                }
            }
            Transcript::Text(text) => prompt.push_str(&format!("[user] {text}")),
        }
        vec![Message::system(EXTRACTION_PROMPT), Message::user(prompt)]
    }
}

/// Dedup of a batch of candidate facts against the agent's facts. Output `{"decisions":
/// [{"decision": "new" | "duplicate" | "update", "index"?}]}`, one per candidate, in order.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Dedup {
    pub candidates: Vec<String>,
    /// Numbered in the prompt: `index` refers to this list.
    #[serde(default)]
    pub existing: Vec<String>,
}

impl RoleInput for Dedup {
    const ROLE: Role = Role::Dedup;
    const JSON: bool = true;
    fn messages(&self) -> Vec<Message> {
        let numbered: Vec<String> = self.existing.iter().enumerate().map(|(i, e)| format!("{i}. {e}")).collect();
        let prompt = format!(
            "Existing facts:\n{}\n\nCandidates:\n{}",
            numbered.join("\n"),
            self.candidates.iter().map(|c| format!("- {c}")).collect::<Vec<_>>().join("\n")
        );
        vec![Message::system(DEDUP_PROMPT), Message::user(prompt)]
    }
}

/// A summary of part of a conversation. Output: 2–4 sentences of plain text.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Summarization {
    /// The messages in order, as far as the model is shown them.
    pub messages: Vec<Turn>,
}

impl RoleInput for Summarization {
    const ROLE: Role = Role::Summarization;
    const JSON: bool = false;
    fn messages(&self) -> Vec<Message> {
        let transcript: String = self.messages.iter().map(|m| format!("[{}] {}\n", m.role, m.content)).collect();
        vec![Message::system(SUMMARIZATION_PROMPT), Message::user(transcript)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triage_shows_the_recent_turns_the_message_and_the_calibration() {
        let t = Triage {
            message: "Can you plan my week?".into(),
            history: vec![Turn { role: "user".into(), content: "hi".into() }],
            calibration: Some(TriageCalibration {
                triage_hints: vec!["User prefers short answers".into()],
                always_save: vec!["travel plans".into()],
                ..TriageCalibration::default()
            }),
        };
        let m = t.messages();
        assert!(m[0].content.starts_with(TRIAGE_PROMPT), "{}", m[0].content);
        assert!(m[0].content.ends_with(
            "\n\nWhat past conversations with this user showed:\n- User prefers short answers\n\
             - Always worth saving: travel plans\n"
        ));
        assert_eq!(m[1].content, "[user] hi\nMessage to classify: Can you plan my week?");
        let plain = Triage { calibration: Some(TriageCalibration::default()), ..t };
        assert_eq!(plain.messages()[0].content, TRIAGE_PROMPT, "an empty profile adds nothing");
    }

    #[test]
    fn extraction_shows_what_is_known_the_focus_and_the_transcript() {
        let e = Extraction {
            known_facts: vec!["The user likes jazz".into()],
            known_insights: Vec::new(),
            focus: vec!["travel".into(), "music".into()],
            transcript: Transcript::Turns(vec![
                Exchange { user: "I live in Vienna".into(), assistant: Some("Noted!".into()) },
                Exchange { user: "and I like tea".into(), assistant: None },
            ]),
        };
        let m = e.messages();
        assert_eq!(m[0].content, EXTRACTION_PROMPT);
        assert_eq!(
            m[1].content,
            "Already known facts:\n- The user likes jazz\n\nFocus: travel, music\n\n\
             [user] I live in Vienna\n[assistant] Noted!\n[user] and I like tea\n"
        );
        assert_eq!(e.user_texts(), ["I live in Vienna", "and I like tea"]);
        let window = Extraction { transcript: Transcript::Text("My name is Ada".into()), ..Extraction::default() };
        assert_eq!(window.messages()[1].content, "[user] My name is Ada");
    }

    #[test]
    fn summarization_shows_the_transcript() {
        let s = Summarization {
            messages: vec![
                Turn { role: "user".into(), content: "I am moving".into() },
                Turn { role: "assistant".into(), content: "Where to?".into() },
            ],
        };
        assert_eq!(s.messages()[1].content, "[user] I am moving\n[assistant] Where to?\n");
    }
}
