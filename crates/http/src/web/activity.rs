//! An agent's activity log.

use askama::Template;
use axum::extract::State;

use super::extract::WebAgent;
use super::pages::*;
use crate::app::AppState;
use miniclaw_domain::tenancy::agents::Agent;
use miniclaw_platform::activity::{self, ActivityEntry};

#[derive(Template)]
#[template(path = "web/activity.html")]
struct ActivityPage {
    csrf: String,
    agent: Agent,
    entries: Vec<ActivityEntry>,
    tab: &'static str,
}

pub async fn activity(State(state): State<AppState>, WebAgent { owner: web, agent }: WebAgent) -> PageResult {
    let mut entries = activity::list_agent(state.pool(), agent.id, 200, None).await.map_err(internal)?;
    miniclaw_domain::tenancy::team::name_actors(state.pool(), web.owner.tenant_id, &mut entries)
        .await
        .map_err(internal)?;
    Ok(render(ActivityPage { csrf: web.csrf, agent, entries, tab: "activity" }))
}
