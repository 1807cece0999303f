//! The offline engine (SPEC M4): deterministic, rule-based answers for roles, so the product
//! works with no provider configured. Its answers are labelled `engine: "offline"` by the
//! gateway. Every role has one; each works from the request's typed input (`llm::roles`), the
//! same value its prompt was rendered from. A request without one (built from messages) is
//! answered from its last user message.
//!
//! It sits above the domain (it calls the triage pre-filter, the soul guard's screen and the
//! supersession judge) and serves the model gateway through `llm::Fallback`: `engine()` is what
//! the binary, the tests and the benchmarks hand to `Gateway::new`.

pub mod compile;
pub mod dreams;
pub mod extraction;
pub mod gap_diagnosis;
pub mod lint;
mod memories;
pub mod mentor;
mod statements;
pub mod text;
pub mod triage;
pub mod writing;

use std::sync::Arc;

use miniclaw_domain::chat::policy::TOOL_DATA;
use miniclaw_platform::llm::roles::{self, Input};
use miniclaw_platform::llm::{ChatRequest, Fallback, MessageRole, Role, ToolCall, ToolChoice};

/// The offline engine as the gateway's fallback.
pub struct Engine;

impl Fallback for Engine {
    fn answer(&self, req: &ChatRequest) -> String {
        answer(req)
    }

    fn tool_calls(&self, req: &ChatRequest) -> Vec<ToolCall> {
        tool_calls(req)
    }
}

/// The tool a chat request's plain question asks for (`triage::lookup`), when the request offers that
/// tool, lets the engine choose and has no tool results yet: one call, else none.
pub fn tool_calls(req: &ChatRequest) -> Vec<ToolCall> {
    let chat = matches!(req.role, Role::Chat | Role::ChatPremium | Role::Skill);
    let answered = req.messages.iter().any(|m| m.role == MessageRole::Tool);
    if !chat || answered || matches!(req.tool_choice, Some(ToolChoice::None)) {
        return Vec::new();
    }
    let Some(last_user) = req.messages.iter().rev().find(|m| m.role == MessageRole::User) else { return Vec::new() };
    match miniclaw_domain::chat::triage::lookup(&last_user.content) {
        Some((name, args)) if req.tools.iter().any(|t| t.name == name) => {
            vec![ToolCall { id: "call_offline_1".into(), name: name.into(), arguments: args.to_string() }]
        }
        _ => Vec::new(),
    }
}

/// The engine, ready for `Gateway::new` or `Deps::from_config`.
pub fn engine() -> Arc<dyn Fallback> {
    Arc::new(Engine)
}

/// The offline answer to a request: JSON text for the structured roles, prose for the others.
pub fn answer(req: &ChatRequest) -> String {
    let last_user =
        req.messages.iter().rev().find(|m| m.role == MessageRole::User).map(|m| m.content.as_str()).unwrap_or("");
    match &req.input {
        Some(input) => from_input(input),
        None => match req.role {
            Role::Chat | Role::ChatPremium | Role::Skill => chat_reply(req, last_user),
            // Without a typed input the last user message is the text a role reads (as it is,
            // uncut: it is all the request holds); the roles that read no such text get an
            // empty input.
            Role::Triage => json(triage::classify(last_user)),
            Role::Summarization => text::summarize(&[last_user.to_string()]),
            Role::Extraction => {
                let text = roles::Transcript::Text(last_user.to_string());
                from_input(&roles::Extraction { transcript: text, ..roles::Extraction::default() }.into())
            }
            Role::Spawn => from_input(&roles::Spawn { brief: last_user.to_string() }.into()),
            Role::Guard => from_input(&roles::Guard::default().into()),
            Role::Dedup => from_input(&roles::Dedup::default().into()),
            Role::Rerank => from_input(&roles::Rerank::default().into()),
            Role::Mentor => from_input(&roles::Mentor::default().into()),
            Role::Compile => from_input(&roles::Compile::default().into()),
            Role::Lint => from_input(&roles::Lint::default().into()),
            Role::Fusion => from_input(&roles::Fusion::default().into()),
            Role::DreamJudge => from_input(&roles::DreamJudge::default().into()),
            Role::GapDiagnosis => from_input(&roles::GapDiagnosis::default().into()),
            Role::QualityEval => from_input(&roles::QualityEval::default().into()),
            Role::Digest => from_input(&roles::Digest::default().into()),
            Role::Outreach => from_input(&roles::Outreach::default().into()),
        },
    }
}

/// The answer to a typed input.
fn from_input(input: &Input) -> String {
    match input {
        // Triage reads what the model would: the recent turns and the message.
        Input::Triage(t) => json(triage::classify(&t.user_message())),
        Input::Extraction(e) => json(extraction::facts(&e.user_texts())),
        Input::Dedup(d) => json(text::dedup(d)),
        Input::Summarization(s) => {
            let texts: Vec<String> = s.messages.iter().map(|m| m.content.chars().take(200).collect()).collect();
            text::summarize(&texts)
        }
        Input::Guard(g) => json(text::guard(g)),
        Input::Mentor(m) => json(mentor::mentor(m)),
        Input::Compile(c) => compile::compile(c),
        Input::Lint(l) => json(lint::lint(l)),
        Input::Rerank(r) => json(text::rerank(r)),
        Input::Fusion(f) => json(dreams::fusion(f)),
        Input::DreamJudge(j) => json(dreams::dream_judge(j)),
        Input::GapDiagnosis(g) => json(gap_diagnosis::gap_diagnosis(g)),
        Input::QualityEval(q) => json(writing::quality_eval(q)),
        Input::Digest(d) => writing::digest(d),
        Input::FeedPost(f) => writing::feed_post(f),
        Input::Outreach(o) => json(writing::outreach(o)),
        Input::Spawn(s) => json(writing::spawn(s)),
    }
}

/// An answer as JSON text (through `Value`, so object keys come out sorted).
fn json(v: impl serde::Serialize) -> String {
    serde_json::to_value(v).expect("offline answers serialise").to_string()
}

/// A reply built from what the prompt already holds: the lines of its context sections that
/// share words with the message. Clearly marked as coming from no model.
fn chat_reply(req: &ChatRequest, message: &str) -> String {
    // The platform's own tools answer in the tool role, each framed as data (`policy::framed`).
    let results: Vec<&str> = req
        .messages
        .iter()
        .filter(|m| m.role == MessageRole::Tool)
        .filter_map(|m| m.content.strip_prefix(TOOL_DATA))
        .collect();
    if !results.is_empty() {
        return from_tool_results(&results.join("\n"));
    }
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
            reply.push_str(&to_the_user(line));
            reply.push('\n');
        }
    }
    reply
}

/// A reply from the results of the tools the engine called: each tool's lines under a heading
/// of what was looked up, memories said to the user in the second person.
fn from_tool_results(results: &str) -> String {
    let mut reply = String::from("[offline engine: no language model is configured] ");
    let mut sections = Vec::new();
    for block in results.split("\n[").map(|b| b.trim_start_matches('[')).filter(|b| !b.trim().is_empty()) {
        let (name, body) = block.split_once("]\n").unwrap_or((block, ""));
        let body = body.trim();
        let empty = body.is_empty() || body == "(nothing)" || body == "no tasks";
        sections.push(match (name.trim(), empty) {
            ("list_tasks", true) => "You have no tasks.".to_string(),
            ("list_tasks", false) => format!("Your tasks:\n{body}"),
            ("search_memory", true) => "I have nothing about that in my memory.".to_string(),
            ("search_memory", false) => {
                let lines: Vec<String> = body.lines().map(to_the_user).collect();
                format!("Here is what I remember about it:\n{}", lines.join("\n"))
            }
            ("my_identity", _) => format!("My identity:\n{body}"),
            ("my_settings", _) => format!("My settings:\n{body}"),
            ("wisdom", _) => format!("A teaching for this moment:\n{body}"),
            (_, true) => format!("`{}` found nothing.", name.trim()),
            (_, false) => body.to_string(),
        });
    }
    reply.push_str(&sections.join("\n\n"));
    reply
}

/// A memory line as said to the user it is about: "The user lives in Vienna" becomes "You live
/// in Vienna", "the user's brother" "your brother". Memories name the user in the third person;
/// a reply speaks to them.
fn to_the_user(line: &str) -> String {
    let text = line.strip_prefix("- ").unwrap_or(line);
    // In a fact about the user, "their" and "them" are the user too (extraction wrote "my" so).
    let about_the_user = text.starts_with("The user");
    let text = if let Some(rest) = text.strip_prefix("The user's ") {
        format!("Your {rest}")
    } else if let Some(rest) = text.strip_prefix("The user ") {
        let (verb, tail) = rest.split_once(' ').unwrap_or((rest, ""));
        let spaced = if tail.is_empty() { String::new() } else { format!(" {tail}") };
        format!("You {}{spaced}", second_person(verb))
    } else {
        text.to_string()
    };
    let mut text = format!(" {text} ").replace(" the user's ", " your ").replace(" the user ", " you ");
    if about_the_user {
        for (them, you) in [(" their ", " your "), (" them ", " you "), (" themselves ", " yourself ")] {
            text = text.replace(them, you);
        }
    }
    format!("- {}", text.trim())
}

/// The second-person present of a third-person verb ("lives" → "live", "is" → "are"); other
/// words (past tenses, adverbs) as they are.
fn second_person(verb: &str) -> String {
    match verb {
        "is" => return "are".into(),
        "has" => return "have".into(),
        "was" => return "were".into(),
        "does" => return "do".into(),
        "doesn't" => return "don't".into(),
        "isn't" => return "aren't".into(),
        "wasn't" => return "weren't".into(),
        _ => {}
    }
    if !verb.chars().all(|c| c.is_ascii_lowercase()) || verb.len() < 3 {
        return verb.into();
    }
    if let Some(stem) = verb.strip_suffix("ies")
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        return format!("{stem}y");
    }
    for ending in ["sses", "shes", "ches", "xes", "zes", "oes"] {
        if verb.ends_with(ending) {
            return verb[..verb.len() - 2].into();
        }
    }
    match verb.strip_suffix('s') {
        Some(stem) if !stem.ends_with(['s', 'u', 'i']) => stem.into(),
        _ => verb.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miniclaw_domain::chat::policy::framed;
    use miniclaw_platform::llm::Message;

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
        assert!(reply.contains("- You live in Vienna") && !reply.contains("jazz"), "{reply}");
    }

    #[test]
    fn a_plain_question_calls_the_tool_it_names_then_answers_from_the_result() {
        use miniclaw_platform::llm::Tool;
        let tool =
            |name: &str| Tool { name: name.into(), description: String::new(), parameters: serde_json::json!({}) };
        let ask = |text: &str| {
            ChatRequest::new(Role::Chat, vec![Message::system("You are Ada."), Message::user(text)]).tools(vec![
                tool("search_memory"),
                tool("list_tasks"),
                tool("my_identity"),
            ])
        };
        let calls = tool_calls(&ask("What are my tasks?"));
        assert_eq!((calls.len(), calls[0].name.as_str(), calls[0].arguments.as_str()), (1, "list_tasks", "{}"));
        let calls = tool_calls(&ask("What did I tell you about Lisbon?"));
        assert_eq!((calls[0].name.as_str(), calls[0].arguments.as_str()), ("search_memory", r#"{"query":"Lisbon"}"#));
        // Nothing to look up, a tool not offered, or `none`: no call.
        assert!(tool_calls(&ask("How was your day?")).is_empty());
        assert!(tool_calls(&ask("Share some wisdom")).is_empty(), "wisdom is not among the tools offered");
        assert!(tool_calls(&ask("What are my tasks?").tool_choice(Some(ToolChoice::None))).is_empty());

        // With the results, the answer quotes them, memories in the second person.
        let answered = ChatRequest::new(
            Role::Chat,
            vec![
                Message::system("You are Ada."),
                Message::user("What are my tasks? And what did I tell you about Lisbon?"),
                Message::calls("", Vec::new()),
                Message::tool_result("1", framed("list_tasks", "- Book the flights (approved, due 2026-12-01)")),
                Message::tool_result("2", framed("search_memory", "- The user lives in Lisbon")),
            ],
        );
        assert!(tool_calls(&answered).is_empty(), "one round of tools");
        let reply = answer(&answered);
        assert!(reply.contains("Your tasks:\n- Book the flights (approved, due 2026-12-01)"), "{reply}");
        assert!(reply.contains("- You live in Lisbon"), "{reply}");
        let none = Message::tool_result("1", framed("list_tasks", "no tasks"));
        let reply = answer(&ChatRequest::new(Role::Chat, vec![Message::user("my tasks?"), none]));
        assert!(reply.ends_with("You have no tasks."), "{reply}");
    }

    #[test]
    fn memories_are_said_to_the_user_in_the_second_person() {
        for (memory, said) in [
            ("- The user lives in Vienna", "- You live in Vienna"),
            ("- The user's name is Dana", "- Your name is Dana"),
            ("- The user studies law at night", "- You study law at night"),
            ("- The user watches football", "- You watch football"),
            ("- The user is a nurse", "- You are a nurse"),
            ("- The user has two cats", "- You have two cats"),
            ("- The user moved to Lisbon last week", "- You moved to Lisbon last week"),
            ("- The user plays chess", "- You play chess"),
            ("- The user works as a nurse", "- You work as a nurse"),
            ("- The user likes their dog Rex", "- You like your dog Rex"),
            (
                "- The user runs 5k with their neighbour who calls them Sunny",
                "- You run 5k with your neighbour who calls you Sunny",
            ),
            ("- Ben is the user's brother and visits the user often", "- Ben is your brother and visits you often"),
            ("- Vienna is the capital of Austria", "- Vienna is the capital of Austria"),
        ] {
            assert_eq!(to_the_user(memory), said);
        }
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

    #[test]
    fn typed_inputs_are_answered_from_their_values() {
        // Extraction reads the user's words, not the replies the prompt also shows.
        let e = roles::Extraction {
            known_facts: vec!["The user likes tea".into()],
            transcript: roles::Transcript::Turns(vec![roles::Exchange {
                user: "My name is Alice".into(),
                assistant: Some("I live in Paris, by the way".into()),
            }]),
            ..roles::Extraction::default()
        };
        let out: serde_json::Value = serde_json::from_str(&answer(&ChatRequest::from_input(e))).unwrap();
        assert_eq!(out["facts"].as_array().map(Vec::len), Some(1), "{out}");
        assert_eq!(out["facts"][0]["content"], "The user's name is Alice");
        // Triage classifies what the model would be shown: the same text, the same answer.
        let t = roles::Triage {
            message: "Could you explain step by step why my deploy failed?".into(),
            ..Default::default()
        };
        let raw = ChatRequest::new(Role::Triage, vec![Message::user(t.user_message())]);
        assert_eq!(answer(&ChatRequest::from_input(t)), answer(&raw));
        let d =
            roles::Dedup { candidates: vec!["The user likes jazz".into()], existing: vec!["User likes jazz".into()] };
        assert!(answer(&ChatRequest::from_input(d)).contains("\"duplicate\""));
    }
}
