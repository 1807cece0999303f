//! The Brain tab (D6): the agent's memories as an interactive 3-D graph (rotate by dragging,
//! zoom with the wheel, hover for the memory, click to open it), drawn by a small script over a
//! canvas from the graph embedded in the page; the clusters are listed as text for readers
//! without the script.

use askama::Template;
use axum::extract::State;

use super::extract::WebAgent;
use super::pages::{PageResult, internal, render};
use crate::app::AppState;
use miniclaw_domain::analytics::brain::{self, BrainGraph};
use miniclaw_domain::tenancy::agents::Agent;

/// How many memories the tab shows (the most important first).
const SHOWN: i64 = 300;

#[derive(Template)]
#[template(path = "web/brain.html")]
struct BrainPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    graph: BrainGraph,
    /// The graph as JSON for the script, safe inside a `<script>` element.
    json: String,
}

pub async fn show(State(state): State<AppState>, WebAgent { owner, agent }: WebAgent) -> PageResult {
    let model = state.embedder().model().to_string();
    let graph = brain::graph(state.pool(), agent.id, &model, SHOWN, 42).await.map_err(internal)?;
    // `<` escaped as JSON allows, so no memory's text can close the script element.
    let json = serde_json::to_string(&graph).map_err(internal)?.replace('<', "\\u003c");
    Ok(render(BrainPage { csrf: owner.csrf, agent, tab: "brain", graph, json }))
}
