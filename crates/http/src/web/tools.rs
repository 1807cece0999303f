//! An agent's tools: the MCP servers its owner attached (attach, list again, detach) and the
//! calls its model made to them, with the owner's decision on those that wait for it.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent, WebOwner};
use super::pages::*;
use crate::app::AppState;
use miniclaw_domain::chat::mcp_servers::{self, McpCall, McpServer, McpServerInput};
use miniclaw_domain::tenancy::agents::Agent;

#[derive(Template)]
#[template(path = "web/tools.html")]
struct ToolsPage {
    csrf: String,
    agent: Agent,
    servers: Vec<McpServer>,
    pending: Vec<McpCall>,
    recent: Vec<McpCall>,
    error: Option<String>,
    /// What the attach form held when it was refused.
    name: String,
    url: String,
    tab: &'static str,
}

/// The calls shown: the newest.
const CALLS_SHOWN: i64 = 50;

async fn tools_page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    error: Option<String>,
    form: (String, String),
) -> PageResult {
    let servers = mcp_servers::list(state.pool(), agent.id).await.map_err(api_error)?;
    let calls = mcp_servers::calls(state.pool(), agent.id, CALLS_SHOWN, None).await.map_err(api_error)?;
    let (pending, recent) = calls.into_iter().partition(|c| c.status == "pending");
    Ok(render(ToolsPage {
        csrf: web.csrf,
        agent,
        servers,
        pending,
        recent,
        error,
        name: form.0,
        url: form.1,
        tab: "tools",
    }))
}

pub async fn tools(State(state): State<AppState>, WebAgent { owner: web, agent }: WebAgent) -> PageResult {
    tools_page(&state, web, agent, None, Default::default()).await
}

fn back(agent: &Agent) -> axum::response::Response {
    Redirect::to(&format!("/agents/{}/tools", agent.id)).into_response()
}

pub async fn attach(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let input = McpServerInput {
        name: f.text("name"),
        url: f.text("url"),
        secret: Some(f.text("secret")).filter(|s| !s.trim().is_empty()),
        approval: Some(f.text("approval")).filter(|a| !a.is_empty()),
        available_to: Some(f.all("available_to")),
    };
    let (name, url) = (input.name.clone(), input.url.clone());
    let origin = web.owner.origin();
    match mcp_servers::add(state.deps(), web.owner.tenant_id, agent.id, &origin, input).await {
        Ok(_) => Ok(back(&agent)),
        Err(e) => tools_page(&state, web, agent, Some(shown(e)?), (name, url)).await,
    }
}

/// A server in `/agents/{id}/tools/{server}/…` (the agent's `{id}` is `WebAgent`'s).
#[derive(Deserialize)]
pub struct ServerPath {
    server: Uuid,
}

pub async fn detach(
    State(state): State<AppState>,
    Path(ServerPath { server }): Path<ServerPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let origin = web.owner.origin();
    match mcp_servers::remove(state.pool(), web.owner.tenant_id, agent.id, &origin, server).await {
        Ok(()) => Ok(back(&agent)),
        Err(miniclaw_core::Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => Err(api_error(e)),
    }
}

pub async fn refresh(
    State(state): State<AppState>,
    Path(ServerPath { server }): Path<ServerPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    match mcp_servers::refresh(state.deps(), agent.id, server).await {
        Ok(_) => Ok(back(&agent)),
        Err(miniclaw_core::Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => tools_page(&state, web, agent, Some(shown(e)?), Default::default()).await,
    }
}

/// A call in `/agents/{id}/tools/calls/{call}` (the agent's `{id}` is `WebAgent`'s).
#[derive(Deserialize)]
pub struct CallPath {
    call: Uuid,
}

/// The owner's decision on a waiting call: `decision=approve` runs it now, anything else refuses it.
pub async fn decide(
    State(state): State<AppState>,
    Path(CallPath { call }): Path<CallPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let approve = f.text("decision") == "approve";
    let origin = web.owner.origin();
    match mcp_servers::decide(state.deps(), web.owner.tenant_id, agent.id, &origin, call, approve).await {
        Ok(_) => Ok(back(&agent)),
        Err(miniclaw_core::Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => tools_page(&state, web, agent, Some(shown(e)?), Default::default()).await,
    }
}
