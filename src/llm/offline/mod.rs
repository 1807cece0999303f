//! The offline engine (SPEC M4): deterministic, rule-based answers for roles, so the product
//! works with no provider configured. Its answers are labelled `engine: "offline"` by the
//! gateway. Every role has one; each works from the request's structured `input` (shapes
//! documented per function) and falls back to the last user message.

pub mod compile;
pub mod dreams;
pub mod extraction;
pub mod gap_diagnosis;
pub mod lint;
mod memories;
pub mod mentor;
pub mod text;
pub mod triage;
pub mod writing;

use super::{ChatRequest, MessageRole, Role};

/// The offline answer to a request: JSON text for the structured roles, prose for the others.
pub fn answer(req: &ChatRequest) -> String {
    let last_user =
        req.messages.iter().rev().find(|m| m.role == MessageRole::User).map(|m| m.content.as_str()).unwrap_or("");
    let input = req.input.clone().unwrap_or(serde_json::Value::Null);
    let json = |v: serde_json::Value| v.to_string();
    match req.role {
        Role::Triage => json(serde_json::to_value(triage::classify(last_user)).expect("triage result serialises")),
        Role::Chat | Role::ChatPremium | Role::Skill => chat_reply(req, last_user),
        Role::Extraction => {
            let texts: Vec<String> = match input.get("messages").and_then(serde_json::Value::as_array) {
                Some(ms) => ms
                    .iter()
                    .filter_map(|m| m.as_str().or_else(|| m.get("content").and_then(serde_json::Value::as_str)))
                    .map(str::to_string)
                    .collect(),
                None => vec![last_user.to_string()],
            };
            let facts: Vec<extraction::Fact> = texts.iter().flat_map(|t| extraction::extract(t)).collect();
            json(serde_json::json!({ "facts": facts, "insights": [] }))
        }
        Role::Summarization => text::summarize(&input, last_user),
        Role::Guard => json(text::guard(&input)),
        Role::Dedup => json(text::dedup(&input)),
        Role::Rerank => json(text::rerank(&input)),
        Role::Mentor => json(mentor::mentor(&input)),
        Role::Compile => compile::compile(&input),
        Role::Lint => json(lint::lint(&input)),
        Role::Fusion => json(dreams::fusion(&input)),
        Role::DreamJudge => json(dreams::dream_judge(&input)),
        Role::GapDiagnosis => json(gap_diagnosis::gap_diagnosis(&input)),
        Role::QualityEval => json(writing::quality_eval(&input)),
        Role::Digest => writing::digest(&input),
        Role::Outreach => json(writing::outreach(&input)),
        Role::Spawn => {
            let input = if input.is_null() { serde_json::json!({ "brief": last_user }) } else { input };
            json(writing::spawn(&input))
        }
    }
}

/// A reply built from what the prompt already holds: the lines of its context sections that
/// share words with the message. Clearly marked as coming from no model.
fn chat_reply(req: &ChatRequest, message: &str) -> String {
    let words: Vec<String> = message
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 3)
        .map(|w| w.to_lowercase())
        .collect();
    let context: Vec<&str> = req
        .messages
        .iter()
        .filter(|m| m.role == MessageRole::System)
        .flat_map(|m| m.content.lines())
        .map(str::trim)
        .filter(|l| l.starts_with("- "))
        .filter(|l| {
            let lower = l.to_lowercase();
            words.iter().any(|w| lower.contains(w.as_str()))
        })
        .take(3)
        .collect();
    let mut reply = String::from("[offline engine: no language model is configured] ");
    if context.is_empty() {
        reply.push_str("I got your message. I can remember what you tell me and search it, but I need a model to write real answers.");
    } else {
        reply.push_str("Here is what I know that relates to your message:\n");
        for line in context {
            reply.push_str(line);
            reply.push('\n');
        }
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Message;

    #[test]
    fn chat_uses_matching_context_lines_and_says_it_is_offline() {
        let req = ChatRequest::new(
            Role::Chat,
            vec![
                Message::system("You are Ada.\nWhat you know:\n- The user lives in Vienna\n- The user likes jazz"),
                Message::user("Where do I live? Vienna?"),
            ],
        );
        let reply = answer(&req);
        assert!(reply.starts_with("[offline engine"));
        assert!(reply.contains("lives in Vienna") && !reply.contains("jazz"), "{reply}");
    }

    #[test]
    fn every_role_answers_and_structured_roles_answer_json() {
        for role in Role::ALL {
            let out = answer(&ChatRequest::new(role, vec![Message::user("My name is Alice and I live in Vienna")]));
            assert!(!out.trim().is_empty(), "{role:?}");
            let prose = matches!(
                role,
                Role::Chat | Role::ChatPremium | Role::Skill | Role::Summarization | Role::Compile | Role::Digest
            );
            if !prose {
                let v: serde_json::Value =
                    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{role:?}: {e}: {out}"));
                assert!(v.is_object(), "{role:?}: {out}");
            }
        }
    }
}
