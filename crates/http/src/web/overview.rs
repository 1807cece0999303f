//! An agent's overview, the page an owner lands on after creating one: what the agent is, a
//! first-run checklist that ticks itself off, its last conversations, what it learned lately,
//! what waits for the owner's decision, and where its replies come from.

use askama::Template;
use axum::extract::{Query, State};
use miniclaw_domain::channels::outreach::{self, Status as OutreachStatus};
use miniclaw_domain::chat::{self, Audience, Conversation, mcp_servers};
use miniclaw_domain::cognition::{lint, tasks};
use miniclaw_domain::memory::{self, ListFilter, Memory};
use miniclaw_domain::tenancy::agents::Agent;
use miniclaw_domain::tenancy::auth::keys;
use miniclaw_platform::llm::Role;
use serde::Deserialize;

use super::extract::WebAgent;
use super::pages::*;
use crate::app::AppState;

/// How many conversations and memories the overview shows.
const SHOWN: i64 = 5;

/// One step of the first-run checklist.
struct Step {
    label: &'static str,
    done: bool,
    href: String,
    testid: &'static str,
}

/// Something that waits for the owner, with where to decide it.
struct Waiting {
    what: String,
    href: String,
}

#[derive(Template)]
#[template(path = "web/overview.html")]
struct OverviewPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    steps: Vec<Step>,
    conversations: Vec<Conversation>,
    memories: Vec<Memory>,
    waiting: Vec<Waiting>,
    gaps: Vec<lint::KnowledgeGap>,
    replies_from: String,
    /// Just created: says so, and what to do first.
    created: bool,
}

#[derive(Deserialize)]
pub struct OverviewQuery {
    created: Option<String>,
}

impl OverviewPage {
    fn steps_done(&self) -> usize {
        self.steps.iter().filter(|s| s.done).count()
    }
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<OverviewQuery>,
) -> PageResult {
    let pool = state.pool();
    let id = agent.id;
    let everyone = Audience { owner: true, end_user: None };
    let conversations = chat::conversations(pool, id, &everyone, SHOWN, None).await.map_err(internal)?;
    let filter = ListFilter { limit: Some(SHOWN), ..Default::default() };
    let memories = memory::list(pool, id, &memory::Reader::All, &filter).await.map_err(api_error)?;
    let keys = keys::list(pool, id, LIST_SHOWN, None).await.map_err(internal)?;
    let live_keys = keys.iter().filter(|k| k.revoked_at.is_none()).count();
    let used_keys = keys.iter().any(|k| k.last_used_at.is_some());
    let a = |rest: &str| format!("/agents/{id}{rest}");
    let steps = vec![
        Step { label: "Chat with it", done: !conversations.is_empty(), href: a("/chat"), testid: "step-chat" },
        Step { label: "Teach it a fact", done: !memories.is_empty(), href: a("/memories"), testid: "step-memory" },
        Step { label: "Make an API key", done: live_keys > 0, href: a("/keys"), testid: "step-key" },
        Step { label: "Call the API with the key", done: used_keys, href: "/docs".into(), testid: "step-api" },
    ];

    let mut waiting = Vec::new();
    let pending_tasks = tasks::list(pool, id, 50, None).await.map_err(internal)?;
    let pending_tasks = pending_tasks.iter().filter(|t| t.status == "pending").count();
    if pending_tasks > 0 {
        waiting.push(Waiting {
            what: plural(pending_tasks, "task waits", "tasks wait") + " for approval",
            href: a("/mind"),
        });
    }
    let proposed = outreach::list(pool, id, Some(OutreachStatus::Proposed), None, 50, None).await.map_err(internal)?;
    if !proposed.is_empty() {
        waiting.push(Waiting {
            what: plural(proposed.len(), "email draft waits", "email drafts wait") + " for approval",
            href: a("/outreach"),
        });
    }
    let calls = mcp_servers::calls(pool, id, 50, None).await.map_err(api_error)?;
    let pending_calls = calls.iter().filter(|c| c.status == "pending").count();
    if pending_calls > 0 {
        waiting.push(Waiting {
            what: plural(pending_calls, "tool call waits", "tool calls wait") + " for your decision",
            href: a("/tools"),
        });
    }
    let gaps = lint::gaps(pool, id, SHOWN, None).await.map_err(internal)?;
    let replies_from = if state.llm().paid(Role::Chat) {
        let provider = state.llm().routes().route(Role::Chat).targets.first().map(|t| t.provider.clone());
        format!("the model provider {}", provider.unwrap_or_default())
    } else {
        "the built-in offline engine: no model provider is configured, so replies are short and drawn from what it \
         remembers"
            .into()
    };
    Ok(render(OverviewPage {
        csrf: web.csrf,
        agent,
        tab: "overview",
        steps,
        conversations,
        memories,
        waiting,
        gaps,
        replies_from,
        created: q.created.is_some(),
    }))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}
