//! The Timeline tab (S4): the agent's milestones in monthly chapters.

use askama::Template;
use axum::extract::State;

use super::extract::WebAgent;
use super::pages::{PageResult, internal, render};
use crate::app::AppState;
use miniclaw_domain::cognition::timeline::{self, Chapter};
use miniclaw_domain::tenancy::agents::Agent;

#[derive(Template)]
#[template(path = "web/timeline.html")]
struct TimelinePage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    chapters: Vec<Chapter>,
}

pub async fn show(State(state): State<AppState>, WebAgent { owner, agent }: WebAgent) -> PageResult {
    timeline::refresh(state.pool(), agent.id).await.map_err(internal)?;
    let chapters = timeline::chapters(state.pool(), agent.id, 500).await.map_err(internal)?;
    Ok(render(TimelinePage { csrf: owner.csrf, agent, tab: "timeline", chapters }))
}
