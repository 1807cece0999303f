//! The tools the chat model may call when triage says tools are needed (SPEC P5). An economy
//! action (triage intent `economy_action`) adds the economy tools (`economy_tools`): reading
//! them for anyone, moving value only when the owner is the one speaking. The tools of the MCP
//! servers the owner attached come along (`mcp_servers`).

use serde_json::{Value, json};

use super::turn::Turn;
use crate::runtime::Runtime;
use miniclaw_platform::llm::Tool;

pub(super) fn tools(turn: &Turn, intent: &str, mcp: Vec<Tool>) -> Vec<Tool> {
    let mut tools = base_tools();
    tools.extend(mcp);
    if intent == "economy_action" {
        tools.extend(super::economy_tools::tools(super::economy_tools::may_move_value(turn)));
    }
    tools
}

fn base_tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "search_memory".into(),
            description: "Search your long-term memory about the user and your knowledge base.".into(),
            parameters: json!({ "type": "object", "properties": { "query": { "type": "string" } }, "required": ["query"] }),
        },
        Tool {
            name: "recent_activity".into(),
            description: "Your own recent activity log (what happened to you and what you did).".into(),
            parameters: json!({ "type": "object", "properties": { "limit": { "type": "integer", "minimum": 1, "maximum": 20 } } }),
        },
    ]
}

/// Runs the tools the model asked for and returns their results as text.
pub(super) async fn run_tools(state: &Runtime, turn: &Turn, calls: &[miniclaw_platform::llm::ToolCall]) -> String {
    let mut out = String::from("Results of the tools you called:\n");
    for (n, call) in calls.iter().take(3).enumerate() {
        let args: Value = serde_json::from_str(&call.arguments).unwrap_or(Value::Null);
        let result = match call.name.as_str() {
            "search_memory" => {
                let query = args.get("query").and_then(Value::as_str).unwrap_or(&turn.message).to_string();
                let searcher = crate::memory::search::Searcher { deps: state.deps(), ctx: turn.caller.call_context() };
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
            other => match super::economy_tools::run(state, turn, other, &args, n).await {
                Some(result) => result,
                None => {
                    let c = &turn.caller;
                    super::mcp_servers::run(state.deps(), c.tenant_id, c.agent_id, &c.origin, other, &args)
                        .await
                        .unwrap_or_else(|| format!("unknown tool `{other}`"))
                }
            },
        };
        out.push_str(&format!("[{}]\n{}\n", call.name, if result.is_empty() { "(nothing)" } else { &result }));
    }
    out
}
