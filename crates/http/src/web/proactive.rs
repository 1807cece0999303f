//! The Proactive tab (SPEC X7, O5): the trust score and dial, the owner's daily cap, what is
//! scheduled and when, and what was sent or held back, each with why; accept or dismiss a
//! check-in.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use miniclaw_core::Error;
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent, WebOwner};
use super::notice::{Notice, NoticeQuery};
use super::pages::{PageResult, internal, not_found_page, render, shown};
use crate::app::AppState;
use miniclaw_domain::channels::proactive::{self, Outcome, ProactiveInput, Summary};
use miniclaw_domain::tenancy::agents::Agent;

#[derive(Template)]
#[template(path = "web/proactive.html")]
struct ProactivePage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    s: Summary,
    notice: Option<String>,
    error: Option<String>,
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    notice: Option<String>,
    error: Option<String>,
) -> PageResult {
    let s = proactive::summary(state.pool(), agent.id, chrono::Utc::now()).await.map_err(internal)?;
    Ok(render(ProactivePage { csrf: web.csrf, agent, tab: "proactive", s, notice, error }))
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<NoticeQuery>,
) -> PageResult {
    page(&state, web, agent, Notice::message_of(&q.notice), None).await
}

fn back(agent: &Agent, notice: Notice) -> Response {
    Redirect::to(&format!("/agents/{}/proactive?notice={}", agent.id, notice.code())).into_response()
}

pub async fn save(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let Ok(daily_max) = f.text("daily_max").trim().parse::<i32>() else {
        return page(&state, web, agent, None, Some("The daily limit is a number from 0 to 10.".into())).await;
    };
    match proactive::set_daily_max(state.pool(), agent.id, ProactiveInput { daily_max }).await {
        Ok(()) => Ok(back(&agent, Notice::ProactiveSaved)),
        Err(e) => page(&state, web, agent, None, Some(shown(e)?)).await,
    }
}

/// The item in `/agents/{id}/proactive/{pid}/{accept|dismiss}`.
#[derive(Deserialize)]
pub struct ItemPath {
    pid: Uuid,
}

async fn react(state: &AppState, web: WebOwner, agent: Agent, item: Uuid, outcome: Outcome) -> PageResult {
    let origin = web.owner.origin();
    match proactive::react(state.pool(), agent.id, item, outcome, &origin).await {
        Ok(_) => Ok(back(
            &agent,
            if outcome == Outcome::Accepted { Notice::ProactiveAccepted } else { Notice::ProactiveDismissed },
        )),
        Err(Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => page(state, web, agent, None, Some(shown(e)?)).await,
    }
}

pub async fn accept(
    State(state): State<AppState>,
    Path(ItemPath { pid }): Path<ItemPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    react(&state, web, agent, pid, Outcome::Accepted).await
}

pub async fn dismiss(
    State(state): State<AppState>,
    Path(ItemPath { pid }): Path<ItemPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    react(&state, web, agent, pid, Outcome::Dismissed).await
}
