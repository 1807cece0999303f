//! The Mind tab: the compiled dossier (compile now), deep reflections with the actions they
//! applied (reflect now), the tasks they set, and the knowledge gaps (confirm or dismiss).

use crate::ids::AgentId;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent};
use super::pages::{PageResult, api_error, internal, render};
use crate::agents::Agent;
use crate::app::AppState;
use crate::cognition::dossier::{self, DossierState};
use crate::cognition::lint::{self, KnowledgeGap};
use crate::cognition::reflection::{self, Reflection};
use crate::cognition::tasks::{self, Task};

pub struct ActionView {
    pub kind: String,
    pub text: String,
}

pub struct ReflectionView {
    pub r: Reflection,
    pub actions: Vec<ActionView>,
    pub hints: Vec<String>,
}

#[derive(Template)]
#[template(path = "web/mind.html")]
struct MindPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    dossier: Option<DossierState>,
    reflections: Vec<ReflectionView>,
    tasks: Vec<Task>,
    gaps: Vec<KnowledgeGap>,
    notice: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct MindQuery {
    #[serde(default)]
    notice: String,
}

fn describe(a: &serde_json::Value) -> ActionView {
    let s =
        |k: &str| a.get(k).map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())).unwrap_or_default();
    let kind = s("action");
    let text = match kind.as_str() {
        "merge" => format!("merged \"{}\" into another memory", s("removed_content")),
        "recategorize" => format!("\"{}\": {} → {}", s("content"), s("from"), s("to")),
        "upgrade_confidence" => format!("\"{}\": confidence {} → {}", s("content"), s("from"), s("to")),
        "set_importance" => format!("\"{}\": importance {} → {}", s("content"), s("from"), s("to")),
        "flag_contradiction" => format!("\"{}\" contradicts \"{}\"", s("content"), s("contradicts")),
        "deprecate" => format!("deprecated \"{}\" ({})", s("content"), s("mode")),
        "create" => format!("created \"{}\" ({})", s("content"), s("category")),
        _ => a.to_string(),
    };
    ActionView { kind, text }
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<MindQuery>,
) -> PageResult {
    let id = agent.id;
    let pool = state.pool();
    let reflections = reflection::list(pool, id, 20)
        .await
        .map_err(internal)?
        .into_iter()
        .map(|r| {
            let actions = r.actions.as_array().map(|a| a.iter().map(describe).collect()).unwrap_or_default();
            let hints = r
                .calibration
                .as_ref()
                .and_then(|c| c["triage_hints"].as_array())
                .map(|h| h.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
                .unwrap_or_default();
            ReflectionView { r, actions, hints }
        })
        .collect();
    let tasks = tasks::list(pool, id, 50).await.map_err(internal)?;
    Ok(render(MindPage {
        csrf: web.csrf,
        tab: "mind",
        dossier: dossier::get(pool, id).await.map_err(internal)?,
        reflections,
        tasks,
        gaps: lint::gaps(pool, id).await.map_err(internal)?,
        notice: (!q.notice.is_empty()).then_some(q.notice),
        agent,
    }))
}

fn back(agent: AgentId, notice: &str) -> axum::response::Response {
    let encoded: String = percent_encoding::utf8_percent_encode(notice, percent_encoding::NON_ALPHANUMERIC).to_string();
    Redirect::to(&format!("/agents/{agent}/mind?notice={encoded}")).into_response()
}

pub async fn compile(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let notice = match dossier::compile(state.deps(), web.owner.tenant_id, agent.id, &web.owner.origin(), false).await {
        Ok(Some(d)) => format!("Dossier compiled from {} memories ({} words).", d.memories, d.words),
        Ok(None) => "Nothing to compile: the agent has no memories yet.".into(),
        Err(e) => format!("Compilation failed: {e}"),
    };
    Ok(back(agent.id, &notice))
}

pub async fn reflect(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let notice = match reflection::not_ready(state.pool(), agent.id, false).await.map_err(internal)? {
        Some(reason) => format!("Not yet: {reason}."),
        None => {
            match reflection::run(
                state.deps(),
                web.owner.tenant_id,
                agent.id,
                &web.owner.origin(),
                crate::vocabulary::ReflectionTrigger::Owner,
            )
            .await
            {
                Ok(r) if r.status == "applied" => {
                    format!("Reflection applied: {} actions.", r.actions.as_array().map_or(0, Vec::len))
                }
                Ok(r) => format!("Reflection {}: {}", r.status, r.error.unwrap_or_default()),
                Err(e) => format!("Reflection failed: {e}"),
            }
        }
    };
    Ok(back(agent.id, &notice))
}

/// The gap in `/agents/{id}/mind/gaps/{gid}` (the agent's `{id}` is `WebAgent`'s).
#[derive(Deserialize)]
pub struct GapPath {
    gid: Uuid,
}

pub async fn gap(
    State(state): State<AppState>,
    Path(GapPath { gid }): Path<GapPath>,
    Posted { who: WebAgent { agent, .. }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let status = f.text("status");
    if !crate::vocabulary::GapStatus::NAMES.contains(&status.as_str()) {
        return Ok(back(agent.id, "Unknown gap status."));
    }
    lint::set_gap_status(state.pool(), agent.id, gid, &status).await.map_err(api_error)?;
    Ok(back(agent.id, &format!("Gap {status}.")))
}
