//! The economy tools of a turn whose intent is an economy action (SPEC I6, P5): its token's
//! public on-chain facts for any speaker; the agent's economy summary (its finances), tips to
//! other agents and gifts to the owner only when the owner is speaking. A value-moving tool never moves more than the owner's auto-approve limit
//! on its own: above it the tip waits for the owner's confirmation on the Economy tab.

use serde_json::{Value, json};

use super::turn::Turn;
use crate::onchain::economy::tips::{self, Payer, Rail, TipRequest};
use crate::onchain::economy::{self, summary};
use crate::runtime::Runtime;
use miniclaw_platform::llm::Tool;

/// Whether this turn may move value: the owner speaking in person (`policy`).
pub(super) fn may_move_value(turn: &Turn) -> bool {
    super::policy::may(turn.speaker(), super::policy::Reach::OwnerAffairs)
}

pub(super) fn tools(owner_speaking: bool) -> Vec<Tool> {
    let mut tools = vec![Tool {
        name: "token_facts".into(),
        description:
            "Your ERC-20 token's on-chain facts: supply, holders, transfers, age, concentration (never a price).".into(),
        parameters: json!({ "type": "object", "properties": {} }),
    }];
    if owner_speaking {
        tools.push(Tool {
            name: "economy_summary".into(),
            description:
                "Your economy: credits, what your orders and stakes hold, tips given and received, orders by status, \
                      the stakes backing you, your wallet's native balance."
                    .into(),
            parameters: json!({ "type": "object", "properties": {} }),
        });
        let amount = json!({ "type": "integer", "minimum": 1, "description": "Platform credits" });
        let memo = json!({ "type": "string", "maxLength": 500 });
        tools.push(Tool {
            name: "tip_agent".into(),
            description: "Tip another agent in platform credits from your own credits.".into(),
            parameters: json!({ "type": "object", "properties": {
                "to": { "type": "string", "description": "The agent's name or id" }, "amount": amount, "memo": memo },
                "required": ["to", "amount"] }),
        });
        tools.push(Tool {
            name: "gift_owner".into(),
            description: "Give your owner a gift in platform credits from your own credits.".into(),
            parameters: json!({ "type": "object", "properties": { "amount": amount, "memo": memo }, "required": ["amount"] }),
        });
    }
    tools
}

/// Runs an economy tool; `None` when `name` is not one (or not offered to this turn).
pub(super) async fn run(state: &Runtime, turn: &Turn, name: &str, args: &Value, n: usize) -> Option<String> {
    let (tenant, agent) = (turn.caller.tenant_id, turn.caller.agent_id);
    match name {
        // Offered only to the owner; a model that names it for anyone else gets nothing.
        "economy_summary" if !may_move_value(turn) => None,
        "economy_summary" => {
            let chain = state.deps().chain.as_deref();
            Some(match summary::of(state.pool(), chain, tenant, agent).await {
                Ok(e) => serde_json::to_string(&e).unwrap_or_default(),
                Err(e) => format!("the economy summary is unavailable: {}", e.public_message()),
            })
        }
        "token_facts" => {
            let chain = state.deps().chain.as_deref();
            Some(match crate::onchain::economy::token::evaluate(state.pool(), chain, agent).await {
                Ok(e) => serde_json::to_string(&e).unwrap_or_default(),
                Err(miniclaw_core::Error::NotFound(_)) => "you have no token".into(),
                Err(e) => format!("the token's facts are unavailable: {}", e.public_message()),
            })
        }
        "tip_agent" | "gift_owner" if may_move_value(turn) => Some(tip(state, turn, name, args, n).await),
        _ => None,
    }
}

async fn tip(state: &Runtime, turn: &Turn, name: &str, args: &Value, n: usize) -> String {
    let (tenant, agent) = (turn.caller.tenant_id, turn.caller.agent_id);
    let Some(amount) = args.get("amount").and_then(Value::as_i64).filter(|a| *a > 0) else {
        return "no tip: `amount` must be a positive whole number of credits".into();
    };
    let to = match (name, args.get("to").and_then(Value::as_str)) {
        ("gift_owner", _) => None,
        (_, Some(to)) => match economy::find_agent(state.pool(), tenant, agent, to).await {
            Ok(found) => Some(found),
            Err(why) => return format!("no tip: {why}"),
        },
        (_, None) => return "no tip: name the agent to tip in `to`".into(),
    };
    let limit = match summary::auto_approve(state.pool(), agent).await {
        Ok(l) => l,
        Err(e) => return format!("no tip: {e}"),
    };
    let confirm = amount > limit;
    let req = TipRequest {
        from: Payer::Agent,
        to_agent_id: to.as_ref().map(|(id, _)| *id),
        rail: Rail::Credits,
        amount: amount.to_string(),
        memo: args.get("memo").and_then(Value::as_str).map(str::to_string),
        idempotency_key: format!("chat:{}:{n}", turn.reply_id),
    };
    let whom = to.map_or_else(|| "your owner".to_string(), |(_, name)| name);
    match tips::give(state.deps(), tenant, agent, &turn.caller.origin, false, req, confirm).await {
        Ok(g) if g.tip.status == "awaiting_confirmation" => format!(
            "The {} of {amount} credits to {whom} waits for the owner's confirmation on the Economy tab \
             (the auto-approve limit is {limit} credits). Tip id {}.",
            g.tip.kind, g.tip.id
        ),
        Ok(g) => {
            format!("Done: a {} of {amount} credits to {whom} ({}). Tip id {}.", g.tip.kind, g.tip.status, g.tip.id)
        }
        Err(e) => format!("no tip: {}", e.public_message()),
    }
}
