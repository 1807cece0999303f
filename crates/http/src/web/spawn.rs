//! The spawn wizard (S6): a brief, the drafted agent to review and edit, then confirm (only then
//! is the agent created).

use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebOwner};
use super::pages::{PageResult, internal, message_of, not_found_page, render};
use crate::app::AppState;
use miniclaw_domain::tenancy::agents::spawn::{self, Confirm, Draft};

#[derive(Template)]
#[template(path = "web/spawn.html")]
struct SpawnPage {
    csrf: String,
    brief: String,
    draft: Option<Draft>,
    error: Option<String>,
}

pub async fn start(owner: WebOwner) -> PageResult {
    Ok(render(SpawnPage { csrf: owner.csrf, brief: String::new(), draft: None, error: None }))
}

pub async fn create_draft(State(state): State<AppState>, Posted { who: owner, form }: Posted<WebOwner>) -> PageResult {
    let brief = form.text("brief");
    match spawn::draft(state.deps(), owner.owner.tenant_id, &owner.owner.origin(), &brief).await {
        Ok(d) => Ok(Redirect::to(&format!("/agents/spawn/{}", d.id)).into_response()),
        Err(e) => {
            let error = Some(message_of(&e).unwrap_or_else(|| "The draft could not be made; try again.".into()));
            Ok(render(SpawnPage { csrf: owner.csrf, brief, draft: None, error }))
        }
    }
}

/// The draft in `/agents/spawn/{draft}`.
#[derive(Deserialize)]
pub struct DraftPath {
    draft: Uuid,
}

pub async fn show_draft(
    State(state): State<AppState>,
    owner: WebOwner,
    Path(DraftPath { draft }): Path<DraftPath>,
) -> PageResult {
    let d =
        spawn::get(state.pool(), owner.owner.tenant_id, draft).await.map_err(internal)?.ok_or_else(not_found_page)?;
    Ok(render(SpawnPage { csrf: owner.csrf, brief: d.brief.clone(), draft: Some(d), error: None }))
}

pub async fn confirm(
    State(state): State<AppState>,
    Path(DraftPath { draft }): Path<DraftPath>,
    Posted { who: owner, form }: Posted<WebOwner>,
) -> PageResult {
    let changes =
        Confirm { name: Some(form.text("name")), persona: Some(form.text("persona")), soul: Some(form.text("soul")) };
    let (tenant, origin) = (owner.owner.tenant_id, owner.owner.origin());
    let max = state.config().agents_per_tenant;
    match spawn::confirm(state.deps(), state.registry(), tenant, &origin, draft, changes, max).await {
        Ok(agent) => Ok(Redirect::to(&format!("/agents/{}?created=1", agent.id)).into_response()),
        Err(e) => {
            let d = spawn::get(state.pool(), tenant, draft).await.map_err(internal)?.ok_or_else(not_found_page)?;
            let error = Some(message_of(&e).unwrap_or_else(|| "The agent could not be created; try again.".into()));
            Ok(render(SpawnPage { csrf: owner.csrf, brief: d.brief.clone(), draft: Some(d), error }))
        }
    }
}
