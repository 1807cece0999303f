//! The generation prompt (SPEC P5): persona, the compiled dossier or the two memory sections,
//! knowledge, summaries, and the reply's shape from triage; then the recent conversation and
//! the message.

use super::triage::Triage;
use crate::tenancy::agents::Agent;
use miniclaw_platform::llm::Message;

use super::context::Context;

fn style_line(t: &Triage) -> String {
    let style = match t.response_style.as_str() {
        "brief" => "Answer in one or two sentences.",
        "detailed" => "Give a thorough, well-structured answer.",
        "creative" => "Be imaginative and generous with ideas.",
        _ => "Answer conversationally.",
    };
    let tone = match t.emotional_tone.as_str() {
        "supportive" => " Be warm and supportive.",
        "enthusiastic" => " Match the user's enthusiasm.",
        "serious" => " Keep a serious, careful tone.",
        _ => "",
    };
    format!("{style}{tone} Stay within about {} tokens.", t.max_tokens)
}

/// The system prompt for one turn: persona, then the soul document (C1) when there is one.
pub fn system(agent: &Agent, soul: Option<&str>, triage: &Triage, ctx: &Context) -> String {
    let mut s = format!("You are {}, a persistent AI agent with long-term memory.", agent.name);
    if !agent.persona.trim().is_empty() {
        s.push_str("\n\n");
        s.push_str(agent.persona.trim());
    }
    if let Some(soul) = soul.filter(|s| !s.trim().is_empty()) {
        s.push_str("\n\n## Who you are (your soul)\n");
        s.push_str(soul.trim());
    }
    s.push_str("\n\n");
    s.push_str(&style_line(triage));
    let memories = ctx.dossier.is_some() || !ctx.certain.is_empty() || !ctx.picked_up.is_empty();
    if memories {
        s.push_str(
            "\nUse what you know about the user naturally: refer to it when it is relevant, without saying \
             \"I remember that you...\".",
        );
    }
    if let Some(d) = &ctx.dossier {
        s.push_str("\n\n## What you know about your user (compiled)\n");
        s.push_str(d.trim());
    }
    let section = |s: &mut String, title: &str, items: &mut dyn Iterator<Item = &str>| {
        let mut first = true;
        for item in items {
            if first {
                s.push_str(&format!("\n\n## {title}\n"));
                first = false;
            }
            s.push_str(&format!("- {}\n", item.replace('\n', " ")));
        }
    };
    section(&mut s, "What you know for certain about your user", &mut ctx.certain.iter().map(|m| m.content.as_str()));
    section(
        &mut s,
        "Things you've picked up about your user (hold these lightly)",
        &mut ctx.picked_up.iter().map(|m| m.content.as_str()),
    );
    section(&mut s, "From your knowledge base", &mut ctx.knowledge.iter().map(|m| m.content.as_str()));
    section(&mut s, "Earlier conversations", &mut ctx.summaries.iter().map(String::as_str));
    s
}

/// The whole message list: system prompt, recent history (oldest first), the message.
pub fn messages(system: String, history: Vec<Message>, message: &str) -> Vec<Message> {
    let mut out = Vec::with_capacity(history.len() + 2);
    out.push(Message::system(system));
    out.extend(history);
    out.push(Message::user(message));
    out
}
