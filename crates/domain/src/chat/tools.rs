//! The tools the chat model may call when triage says tools are needed (SPEC P5): its memory,
//! its activity log, its identity (wallet, ERC-8004), a teaching of the wisdom collection for the
//! moment, and, when the owner is the one speaking, its tasks and its settings. Their results are plain lines a reply can quote; the
//! offline engine calls the same tools for the plain questions ("what are my tasks?"). An economy
//! action (triage intent `economy_action`) adds the economy tools (`economy_tools`): reading
//! them for anyone, moving value only when the owner is the one speaking. The tools of the MCP
//! servers the owner attached come along (`mcp_servers`).

use serde_json::{Value, json};

use super::policy::{Reach, framed, may};
use super::turn::Turn;
use crate::runtime::Runtime;
use miniclaw_platform::llm::{Message, Tool, ToolCall};

pub(super) fn tools(turn: &Turn, intent: &str, mcp: Vec<Tool>) -> Vec<Tool> {
    let speaker = turn.speaker();
    let mut tools = base_tools(may(speaker, Reach::OwnerAffairs), may(speaker, Reach::Activity));
    tools.extend(mcp);
    if intent == "economy_action" {
        tools.extend(super::economy_tools::tools(super::economy_tools::may_move_value(turn)));
    }
    tools
}

fn no_arguments(name: &str, description: &str) -> Tool {
    Tool {
        name: name.into(),
        description: description.into(),
        parameters: json!({ "type": "object", "properties": {} }),
    }
}

/// Whether the owner is the one speaking in person: the tasks and the settings are theirs to
/// hear, not a miniapp's end user's, a Telegram stranger's or a paying caller's.
fn owner_speaking(turn: &Turn) -> bool {
    may(turn.speaker(), Reach::OwnerAffairs)
}

fn base_tools(owner_speaking: bool, activity: bool) -> Vec<Tool> {
    let mut tools = vec![
        Tool {
            name: "search_memory".into(),
            description: "Search your long-term memory about the user and your knowledge base.".into(),
            parameters: json!({ "type": "object", "properties": { "query": { "type": "string" } }, "required": ["query"] }),
        },
        no_arguments(
            "my_identity",
            "Your identity: your id, your wallet address, your ERC-8004 registration and agentId.",
        ),
        no_arguments(
            "wisdom",
            "A teaching from your wisdom collection that fits this moment, with its author and work.",
        ),
    ];
    if activity {
        tools.push(Tool {
            name: "recent_activity".into(),
            description: "Your own recent activity log (what happened to you and what you did).".into(),
            parameters: json!({ "type": "object", "properties": { "limit": { "type": "integer", "minimum": 1, "maximum": 20 } } }),
        });
    }
    if owner_speaking {
        tools.push(Tool {
            name: "list_tasks".into(),
            description:
                "Your tasks (what you proposed or were asked to do), live ones first, with status and due date.".into(),
            parameters: json!({ "type": "object", "properties": {
                "status": { "type": "string", "enum": ["pending", "approved", "in_progress", "done", "rejected"] } } }),
        });
        tools.push(no_arguments(
            "my_settings",
            "Your settings: name, persona, tier, timezone, proactiveness, notification mode, outreach, quiet hours.",
        ));
    }
    tools
}

/// The agent's tasks as lines, live ones first.
async fn task_lines(state: &Runtime, turn: &Turn, status: Option<&str>) -> String {
    match crate::cognition::tasks::list(state.pool(), turn.caller.agent_id, 50, None).await {
        Ok(tasks) => {
            let lines: Vec<String> = tasks
                .iter()
                .filter(|t| status.is_none_or(|s| t.status == s))
                .take(20)
                .map(|t| {
                    let due = t.due_at.map(|d| format!(", due {}", d.format("%Y-%m-%d"))).unwrap_or_default();
                    format!("- {} ({}{due})", t.title, t.status.replace('_', " "))
                })
                .collect();
            if lines.is_empty() { "no tasks".into() } else { lines.join("\n") }
        }
        Err(e) => format!("tasks unavailable: {e}"),
    }
}

/// The agent's id, wallet and ERC-8004 registration as lines.
async fn identity_lines(state: &Runtime, turn: &Turn) -> Result<String, sqlx::Error> {
    let agent = turn.caller.agent_id;
    let mut conn = state.pool().acquire().await?;
    let (server, _) = crate::onchain::wallets::held(&mut conn, agent).await?;
    let wallet = crate::onchain::wallets::payout_address(&mut conn, agent, true).await?;
    let registration = crate::onchain::identity::registration(&mut conn, agent).await?;
    let mut lines = vec![format!("- agent id: {agent}")];
    lines.push(match wallet {
        Some(a) if server => format!("- wallet address: {a} (server-managed)"),
        Some(a) => format!("- wallet address: {a} (held by the owner)"),
        None => "- wallet: none yet".into(),
    });
    lines.push(match registration {
        Some((status, Some(id))) if status == "registered" => format!("- ERC-8004: registered, agentId {id}"),
        Some((status, _)) if status != "none" => format!("- ERC-8004: {status}"),
        _ => "- ERC-8004: not registered".into(),
    });
    Ok(lines.join("\n"))
}

/// The agent's settings as lines (nothing secret: no keys, no budgets).
async fn settings_lines(state: &Runtime, turn: &Turn) -> Result<String, sqlx::Error> {
    let Some(a) = crate::tenancy::agents::by_id(state.pool(), turn.caller.agent_id).await? else {
        return Ok("no such agent".into());
    };
    let persona: String = a.persona.chars().take(300).collect();
    let quiet = a.quiet_hours.as_ref().map_or("none".to_string(), |q| format!("{}–{}", q.start, q.end));
    Ok([
        format!("- name: {}", a.name),
        format!("- persona: {}", if persona.trim().is_empty() { "(none)" } else { persona.trim() }),
        format!("- tier: {}", a.tier),
        format!("- timezone: {}", a.timezone),
        format!("- proactiveness: {}", a.proactiveness),
        format!("- notification mode: {}", a.notification_mode.replace('_', " ")),
        format!("- outreach: {}", if a.outreach_enabled { "enabled" } else { "off" }),
        format!("- quiet hours: {quiet}"),
    ]
    .join("\n"))
}

/// A teaching for the agent's moment (its local time, growth phase and the owner's mood).
async fn wisdom_line(state: &Runtime, turn: &Turn) -> String {
    match crate::social::wisdom::context::of_agent(state.pool(), turn.caller.agent_id, chrono::Utc::now()).await {
        Ok(Some(moment)) => match crate::social::wisdom::one_for(&moment) {
            Some(t) => format!("- \"{}\" ({}, {})", t.text, t.author, t.source),
            None => "no teaching fits this moment".into(),
        },
        Ok(None) => "no such agent".into(),
        Err(e) => format!("wisdom unavailable: {e}"),
    }
}

/// Runs the tools the model asked for (at most `MAX_CALLS` of a reply), for the turn's speaker
/// only those the policy lets them reach: the assistant message that called them and one
/// message in the tool role per call, each result framed as untrusted data (`policy::framed`).
pub(super) async fn run_tools(state: &Runtime, turn: &Turn, calls: &[ToolCall]) -> Vec<Message> {
    let calls: Vec<ToolCall> = calls
        .iter()
        .take(MAX_CALLS)
        .enumerate()
        .map(|(n, c)| ToolCall { id: if c.id.is_empty() { format!("call_{n}") } else { c.id.clone() }, ..c.clone() })
        .collect();
    let mut out = vec![Message::calls("", calls.clone())];
    let speaker = turn.speaker();
    for (n, call) in calls.iter().enumerate() {
        let args: Value = serde_json::from_str(&call.arguments).unwrap_or(Value::Null);
        let result = match call.name.as_str() {
            "search_memory" => {
                let query = args.get("query").and_then(Value::as_str).unwrap_or(&turn.message).to_string();
                let reader = super::policy::reader(speaker, turn.caller.end_user.as_deref());
                let searcher = crate::memory::search::Searcher { deps: state.deps(), ctx: turn.call_context(), reader };
                let req = crate::memory::search::SearchRequest {
                    query,
                    limit: Some(5),
                    filters: Default::default(),
                    rerank: false,
                    traversal: true,
                };
                match searcher.search(turn.caller.agent_id, &req).await {
                    Ok(r) => r.results.iter().map(|r| format!("- {}", r.memory.content)).collect::<Vec<_>>().join("\n"),
                    Err(e) => format!("search failed: {e}"),
                }
            }
            "recent_activity" if !may(speaker, Reach::Activity) => format!("unknown tool `{}`", call.name),
            "recent_activity" => {
                let limit = args.get("limit").and_then(Value::as_i64).unwrap_or(10).clamp(1, 20);
                match miniclaw_platform::activity::list_agent(state.pool(), turn.caller.agent_id, limit, None).await {
                    Ok(entries) => entries
                        .iter()
                        .map(|e| format!("- {} {} ({})", e.created_at.format("%Y-%m-%d %H:%M"), e.action, e.actor_type))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    Err(e) => format!("activity log unavailable: {e}"),
                }
            }
            // Offered only to the owner; a model that names them for anyone else gets nothing.
            "list_tasks" | "my_settings" if !owner_speaking(turn) => format!("unknown tool `{}`", call.name),
            "list_tasks" => task_lines(state, turn, args.get("status").and_then(Value::as_str)).await,
            "my_identity" => identity_lines(state, turn).await.unwrap_or_else(|e| format!("identity unavailable: {e}")),
            "my_settings" => settings_lines(state, turn).await.unwrap_or_else(|e| format!("settings unavailable: {e}")),
            "wisdom" => wisdom_line(state, turn).await,
            other => match super::economy_tools::run(state, turn, other, &args, n).await {
                Some(result) => result,
                None => {
                    let c = &turn.caller;
                    super::mcp_servers::run(state.deps(), c.tenant_id, c.agent_id, (&c.origin, speaker), other, &args)
                        .await
                        .unwrap_or_else(|| format!("unknown tool `{other}`"))
                }
            },
        };
        out.push(Message::tool_result(call.id.clone(), framed(&call.name, &result)));
    }
    out
}

/// Tool calls of one reply that run; the rest are not answered.
const MAX_CALLS: usize = 3;
