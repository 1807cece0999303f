//! The soul page: the current soul, an edit form (the owner's edit is authoritative), every
//! version with who wrote it and how it was let in, and a word diff between versions.

use crate::error::ErrorResponse as _;
use askama::Template;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;

use super::extract::{Posted, WebAgent, WebOwner};
use super::pages::{PageResult, internal, message_of, render};
use crate::app::AppState;
use miniclaw_domain::cognition::soul::{self, Piece, SoulVersion};
use miniclaw_domain::tenancy::agents::Agent;

#[derive(Template)]
#[template(path = "web/soul.html")]
struct SoulPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    current: Option<SoulVersion>,
    versions: Vec<SoulVersion>,
    /// The version shown as a diff against the one before it, and the pieces.
    diff: Option<(i32, Vec<Piece>)>,
    draft: String,
    error: Option<String>,
    notice: Option<String>,
    max_chars: usize,
}

#[derive(Debug, Default, Deserialize)]
pub struct SoulQuery {
    diff: Option<i32>,
    #[serde(default)]
    saved: bool,
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    q: SoulQuery,
    error: Option<String>,
    draft: Option<String>,
) -> PageResult {
    let versions = soul::versions(state.pool(), agent.id, super::pages::LIST_SHOWN, None).await.map_err(internal)?;
    let current = versions.first().cloned();
    let diff = q.diff.and_then(|v| {
        let new = versions.iter().find(|x| x.version == v)?;
        let old = versions.iter().find(|x| x.version == v - 1).map_or("", |o| o.content.as_str());
        Some((v, soul::diff(old, &new.content)))
    });
    Ok(render(SoulPage {
        csrf: web.csrf,
        tab: "soul",
        draft: draft.unwrap_or_else(|| current.as_ref().map(|c| c.content.clone()).unwrap_or_default()),
        agent,
        current,
        versions,
        diff,
        error,
        notice: q.saved.then(|| "Soul saved as a new version.".to_string()),
        max_chars: soul::MAX_CHARS,
    }))
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<SoulQuery>,
) -> PageResult {
    page(&state, web, agent, q, None, None).await
}

pub async fn save(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let content = f.text("content");
    let reason = f.text("reason");
    let reason = (!reason.trim().is_empty()).then(|| reason.trim().to_string());
    let origin = web.owner.origin();
    match soul::propose(state.deps(), web.owner.tenant_id, agent.id, &content, reason.as_deref(), &origin).await {
        Ok(_) => Ok(Redirect::to(&format!("/agents/{}/soul?saved=true", agent.id)).into_response()),
        Err(e) => match message_of(&e) {
            Some(m) => page(&state, web, agent, SoulQuery::default(), Some(m), Some(content)).await,
            None => Err(e.into_response()),
        },
    }
}
