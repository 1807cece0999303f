//! Letta Agent Files (`.af`, an open format): reading one into a bundle, and writing a bundle
//! as one that validates against the format's schema (`AgentFileSchema`).
//!
//! How the two map:
//! - The `persona` memory block is the soul; the agent's `description` is the persona.
//! - Every other memory block becomes pinned memories (core memory is always in context, as
//!   pinned memories are): a block written as `- ` lines gives a memory per line, any other
//!   text a memory per paragraph group of at most 4,000 characters. The block's label is the
//!   category (`human` is `identity`). Writing does the reverse with the live memories, a block
//!   per category; knowledge entries stay behind (the format has no archival memory).
//! - Messages: what the user said, and what the agent said (its `send_message` calls, or its
//!   text where it called no tool) become one conversation; system and tool messages, inner
//!   thoughts and heartbeats do not. Tools are not imported: this platform runs its own tools,
//!   never imported code. Both generations of the format are read: the current one
//!   (`agents`, `blocks`, ...) and the earlier single-agent one (`core_memory`, `messages`).

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDateTime, Utc};
use miniclaw_core::Error;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{Bundle, FORMAT, PortableAgent, VERSION};
use crate::chat::portable::{PortableConversation, PortableMessage};
use crate::cognition::portable::PortableSoulVersion;
use crate::memory::portable::PortableMemory;
use crate::memory::{Category, MemorySource, MemoryStatus};

/// Longest memory made from a block, in characters.
const PIECE_CHARS: usize = 4_000;

fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter(|p| p["type"].as_str().is_none_or(|t| t == "text"))
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn time_of(v: &Value) -> Option<DateTime<Utc>> {
    let s = v.as_str()?;
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .ok()
        .or_else(|| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f").ok().map(|t| t.and_utc()))
}

/// A block label as a memory category: `human` is `identity`; other labels as they are, made
/// to fit a category's form (`context` when nothing is left).
fn category_of(label: &str) -> String {
    if matches!(label, "human" | "user" | "about_user") {
        return Category::Identity.as_str().into();
    }
    let mut c: String =
        label.to_ascii_lowercase().chars().map(|ch| if ch.is_ascii_lowercase() { ch } else { '_' }).take(32).collect();
    c = c.trim_matches('_').to_string();
    if c.len() < 2 { Category::Context.as_str().into() } else { c }
}

fn label_of(category: &str) -> String {
    if category == Category::Identity.as_str() { "human".into() } else { category.into() }
}

/// A block's text as memory contents: one per `- ` line when the block is such a list,
/// otherwise paragraphs joined up to `PIECE_CHARS` (a longer paragraph is cut).
fn pieces(value: &str) -> Vec<String> {
    let lines: Vec<&str> = value.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if !lines.is_empty() && lines.iter().all(|l| l.starts_with("- ")) {
        return lines.iter().map(|l| l[2..].trim().to_string()).filter(|l| !l.is_empty()).collect();
    }
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for para in value.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        let para: String = para.chars().take(PIECE_CHARS).collect();
        if !current.is_empty() && current.chars().count() + para.chars().count() + 2 > PIECE_CHARS {
            out.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push_str("\n\n");
        }
        current.push_str(&para);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// What the agent said in one message: its `send_message` calls, or its text when it called no
/// tool (a plain reply); `None` for inner thoughts beside another tool call.
fn assistant_text(m: &Value) -> Option<String> {
    let calls = m["tool_calls"].as_array().filter(|c| !c.is_empty());
    match calls {
        Some(calls) => {
            let said: Vec<String> = calls
                .iter()
                .filter(|c| c["function"]["name"] == "send_message")
                .filter_map(|c| c["function"]["arguments"].as_str())
                .filter_map(|a| serde_json::from_str::<Value>(a).ok())
                .filter_map(|a| a["message"].as_str().map(str::to_string))
                .collect();
            (!said.is_empty()).then(|| said.join("\n"))
        }
        None => Some(text_of(&m["content"])),
    }
}

/// What the user said: the text, unwrapped from the `{"type": "user_message", "message": ...}`
/// envelope older agents store; `None` for heartbeats, logins and system alerts.
fn user_text(m: &Value) -> Option<String> {
    let text = text_of(&m["content"]);
    match serde_json::from_str::<Value>(&text) {
        Ok(v) if v.is_object() && v.get("type").is_some() => {
            (v["type"] == "user_message").then(|| v["message"].as_str().unwrap_or_default().to_string())
        }
        _ => Some(text),
    }
}

/// A Letta Agent File as a bundle, with notes on what did not come along.
pub fn read(doc: Value) -> Result<(Bundle, Vec<String>), Error> {
    let doc = match doc {
        // Some published files hold the document as a JSON string.
        Value::String(s) => serde_json::from_str(&s)
            .map_err(|e| Error::validation("", format!("the document is a string that is not JSON: {e}")))?,
        v => v,
    };
    let not_ours = || {
        Error::validation(
            "",
            format!(
                "the document is neither a `{FORMAT}` bundle (its `format` field) nor a Letta Agent File (`agents`)"
            ),
        )
    };
    let mut notes = Vec::new();
    let empty = Vec::new();
    let (agent, blocks): (&Value, Vec<&Value>) = if let Some(list) = doc.get("agents") {
        let list = list.as_array().ok_or_else(|| Error::validation("agents", "agents must be a list"))?;
        let agent = list.first().ok_or_else(|| Error::validation("agents", "the file has no agent"))?;
        if list.len() > 1 {
            notes.push(format!("the file has {} agents; the first was imported", list.len()));
        }
        let all = doc["blocks"].as_array().unwrap_or(&empty);
        let ids: Vec<&str> = agent["block_ids"].as_array().unwrap_or(&empty).iter().filter_map(Value::as_str).collect();
        let mut blocks: Vec<&Value> =
            all.iter().filter(|b| b["id"].as_str().is_some_and(|id| ids.contains(&id))).collect();
        blocks.extend(agent["memory_blocks"].as_array().unwrap_or(&empty).iter());
        (agent, blocks)
    } else if doc.get("core_memory").is_some() || doc.get("messages").is_some() {
        (&doc, doc["core_memory"].as_array().map(|b| b.iter().collect()).unwrap_or_default())
    } else {
        return Err(not_ours());
    };
    if !agent.is_object() {
        return Err(Error::validation("agents[0]", "the agent must be an object"));
    }
    let now = Utc::now();
    let made = time_of(&doc["created_at"]).or_else(|| time_of(&agent["created_at"])).unwrap_or(now).min(now);
    let name = agent["name"].as_str().map(str::trim).filter(|n| !n.is_empty()).unwrap_or("Imported agent");
    let name: String = name.chars().take(crate::tenancy::agents::NAME_MAX).collect();
    let persona: String = agent["description"]
        .as_str()
        .unwrap_or_default()
        .trim()
        .chars()
        .take(crate::tenancy::agents::PERSONA_MAX)
        .collect();

    let mut soul = None;
    let mut memories = Vec::new();
    for block in blocks {
        let label = block["label"].as_str().unwrap_or("context");
        let value = block["value"].as_str().unwrap_or_default().trim();
        if value.is_empty() {
            continue;
        }
        if label == "persona" && soul.is_none() {
            let max = crate::cognition::soul::MAX_CHARS;
            if value.chars().count() > max {
                notes.push(format!("the persona block was cut to {max} characters to fit a soul"));
            }
            let persona = value.chars().take(max).collect::<String>();
            // An imported persona becomes the soul only past the screen every soul rewrite
            // passes: a shared `.af` file is a stranger's text.
            match crate::cognition::soul::screen(&persona) {
                Some(why) => notes.push(format!("the persona block was not taken as the soul: {why}")),
                None => soul = Some(persona),
            }
            continue;
        }
        let category = category_of(label);
        for content in pieces(value) {
            memories.push(PortableMemory {
                id: Uuid::now_v7(),
                content,
                title: Some(label.chars().take(200).collect()),
                category: category.clone(),
                source: MemorySource::Owner,
                confidence: 0.9,
                importance: 7.0,
                mention_count: 1,
                last_mentioned_at: None,
                expires_at: None,
                status: MemoryStatus::Active,
                pinned: true,
                shareable: false,
                invalid_at: None,
                knowledge_id: None,
                source_url: None,
                last_retrieved_at: None,
                access_count: 0,
                faded_at: None,
                occurred_at: made,
                created_at: made,
                updated_at: made,
                history: Vec::new(),
            });
        }
    }
    let soul = soul
        .or_else(|| {
            (!persona.is_empty() && crate::cognition::soul::screen(&persona).is_none()).then(|| persona.clone())
        })
        .unwrap_or_else(|| format!("I am {name}."));

    let mut said = Vec::new();
    for m in agent["messages"].as_array().or_else(|| doc["messages"].as_array()).unwrap_or(&empty) {
        let text = match m["role"].as_str() {
            Some("user") => user_text(m),
            Some("assistant") => assistant_text(m),
            _ => None,
        };
        let Some(text) = text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()) else { continue };
        let role = m["role"].as_str().unwrap_or_default().to_string();
        let at = time_of(&m["created_at"]).unwrap_or(made).min(now);
        said.push(PortableMessage {
            role,
            content: text.chars().take(crate::chat::portable::MESSAGE_MAX).collect(),
            channel: None,
            created_at: at,
        });
    }
    said.sort_by_key(|m| m.created_at);
    let conversations = (!said.is_empty()).then(|| {
        vec![PortableConversation {
            title: format!("Imported from Letta: {name}").chars().take(200).collect(),
            channel: "api".into(),
            end_user: None,
            owner_private: false,
            created_at: said[0].created_at,
            updated_at: said[said.len() - 1].created_at,
            messages: said,
        }]
    });
    let tools =
        agent["tool_ids"].as_array().map(Vec::len).or_else(|| doc["tools"].as_array().map(Vec::len)).unwrap_or(0);
    if tools > 0 {
        notes.push(format!(
            "{tools} Letta tools were not imported: this platform runs its own tools, never imported code"
        ));
    }
    let timezone = agent["timezone"].as_str().filter(|tz| tz.parse::<chrono_tz::Tz>().is_ok()).map(str::to_string);
    let bundle = Bundle {
        format: FORMAT.into(),
        version: VERSION,
        exported_at: made,
        agent: PortableAgent {
            name,
            persona,
            emoji: None,
            tier: None,
            premium_model: None,
            daily_token_budget: None,
            outreach_enabled: None,
            outreach_auto_reply_confidence: None,
            notification_mode: None,
            proactiveness: None,
            quiet_hours: None,
            timezone,
        },
        soul: vec![PortableSoulVersion {
            version: 1,
            content: soul,
            actor_type: "owner".into(),
            reason: Some("imported from a Letta Agent File".into()),
            accepted_by: "first".into(),
            created_at: made,
        }],
        memories,
        relations: Vec::new(),
        dossier: None,
        tasks: Vec::new(),
        skills: Vec::new(),
        conversations,
    };
    Ok((bundle, notes))
}

/// A bundle as a Letta Agent File (the current generation of the format).
pub fn write(b: &Bundle) -> Value {
    let now = Utc::now();
    let soul = b.soul.last().map(|s| s.content.as_str()).unwrap_or_default();
    let name = &b.agent.name;
    let mut blocks = vec![json!({
        "id": "block-0", "label": "persona", "value": soul, "limit": soul.chars().count().max(5000),
        "description": "Who the agent is: its soul.", "metadata": {}, "read_only": false, "is_template": false,
    })];
    let mut by_category: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for m in &b.memories {
        let live = m.status.is_live() && m.invalid_at.is_none() && m.expires_at.is_none_or(|e| e > now);
        if live && m.knowledge_id.is_none() {
            by_category.entry(m.category.as_str()).or_default().push(format!("- {}", m.content.replace('\n', " ")));
        }
    }
    for (category, lines) in by_category {
        let value = lines.join("\n");
        blocks.push(json!({
            "id": format!("block-{}", blocks.len()), "label": label_of(category), "value": value,
            "limit": value.chars().count().max(5000), "metadata": {}, "read_only": false, "is_template": false,
            "description": format!("What the agent knows ({category})."),
        }));
    }
    let system = format!(
        "You are {name}. Your persona block holds who you are; your other memory blocks hold what you know of the person you talk with."
    );
    let mut messages = vec![json!({
        "type": "message", "id": "message-0", "role": "system", "agent_id": "agent-0",
        "content": [{ "type": "text", "text": system }], "created_at": b.exported_at.to_rfc3339(),
    })];
    let mut said: Vec<&PortableMessage> = b.conversations.iter().flatten().flat_map(|c| c.messages.iter()).collect();
    said.sort_by_key(|m| m.created_at);
    for m in said {
        messages.push(json!({
            "type": "message", "id": format!("message-{}", messages.len()), "role": m.role, "agent_id": "agent-0",
            "content": [{ "type": "text", "text": m.content }], "created_at": m.created_at.to_rfc3339(),
        }));
    }
    let in_context: Vec<Value> = messages.iter().map(|m| m["id"].clone()).collect();
    let block_ids: Vec<Value> = blocks.iter().map(|b| b["id"].clone()).collect();
    json!({
        "agents": [{
            "id": "agent-0",
            "name": name,
            "description": b.agent.persona,
            "agent_type": "letta_v1_agent",
            "system": system,
            "block_ids": block_ids,
            "tool_ids": [],
            "source_ids": [],
            "tags": [],
            "tool_rules": [],
            "memory_blocks": [],
            "tools": [],
            "messages": messages,
            "in_context_message_ids": in_context,
            "timezone": b.agent.timezone,
        }],
        "groups": [],
        "blocks": blocks,
        "files": [],
        "sources": [],
        "tools": [],
        "mcp_servers": [],
        "metadata": { "exported_by": "miniclaw", "format": FORMAT, "format_version": VERSION.to_string() },
        "created_at": now.to_rfc3339(),
    })
}
