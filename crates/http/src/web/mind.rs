//! The Mind tab: the compiled dossier (compile now), deep reflections with the actions they
//! applied (reflect now), the tasks they set, and the knowledge gaps (confirm or dismiss).

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect};
use miniclaw_core::ids::AgentId;
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent, WebOwner};
use super::notice::{Notice, NoticeQuery};
use super::pages::{PageResult, api_error, internal, message_of, render};
use crate::app::AppState;
use miniclaw_domain::cognition::dossier::{self, DossierState};
use miniclaw_domain::cognition::lint::{self, KnowledgeGap};
use miniclaw_domain::cognition::reflection::{self, Reflection};
use miniclaw_domain::cognition::tasks::{self, Task};
use miniclaw_domain::tenancy::agents::Agent;

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
    /// How the agent's speakers seem to feel (X6) and how its users write (X8).
    moods: miniclaw_domain::cognition::affect::Moods,
    signals: Option<miniclaw_domain::cognition::signals::Signals>,
    /// Where the agent and its user left off (X9).
    live: miniclaw_domain::cognition::ledger::LiveState,
    /// The newest mirror of the access patterns (X11).
    mirror: Option<miniclaw_domain::cognition::mirror::Mirror>,
    /// The health of the traversal graph (X5).
    graph: miniclaw_domain::memory::graph::Health,
    notice: Option<String>,
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
    Query(q): Query<NoticeQuery>,
) -> PageResult {
    page(&state, web, agent, Notice::message_of(&q.notice)).await
}

/// The Mind tab with a notice: one from a redirect's code, or (straight after a post that did
/// not go through) what happened.
async fn page(state: &AppState, web: WebOwner, agent: Agent, notice: Option<String>) -> PageResult {
    let id = agent.id;
    let pool = state.pool();
    let reflections = reflection::list(pool, id, 20, None)
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
    let tasks = tasks::list(pool, id, 50, None).await.map_err(internal)?;
    Ok(render(MindPage {
        csrf: web.csrf,
        tab: "mind",
        dossier: dossier::get(pool, id).await.map_err(internal)?,
        reflections,
        tasks,
        gaps: lint::gaps(pool, id, super::pages::LIST_SHOWN, None).await.map_err(internal)?,
        moods: miniclaw_domain::cognition::affect::moods(pool, id, None).await.map_err(internal)?,
        signals: miniclaw_domain::cognition::signals::get(pool, id).await.map_err(internal)?,
        live: miniclaw_domain::cognition::ledger::live_state(pool, id, state.deps().clock.now())
            .await
            .map_err(internal)?,
        mirror: miniclaw_domain::cognition::mirror::latest(pool, id).await.map_err(internal)?,
        graph: miniclaw_domain::memory::graph::health(pool, id).await.map_err(internal)?,
        notice,
        agent,
    }))
}

#[derive(Template)]
#[template(path = "web/ledger.html")]
struct LedgerPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    months: Vec<miniclaw_domain::cognition::ledger::Period>,
    /// The chosen month's days, the chosen day's sessions.
    month: Option<(String, Vec<miniclaw_domain::cognition::ledger::Period>)>,
    day: Option<(chrono::NaiveDate, Vec<miniclaw_domain::cognition::recovery::Session>)>,
}

#[derive(Debug, Deserialize)]
pub struct LedgerQuery {
    #[serde(default)]
    month: String,
    #[serde(default)]
    day: String,
}

/// The session ledger (X9): months, a month's days, a day's sessions with their summaries.
pub async fn ledger(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<LedgerQuery>,
) -> PageResult {
    use miniclaw_domain::cognition::ledger as l;
    let pool = state.pool();
    let day = chrono::NaiveDate::parse_from_str(&q.day, "%Y-%m-%d").ok();
    let month = day.map(|d| d.format("%Y-%m").to_string()).or_else(|| {
        chrono::NaiveDate::parse_from_str(&format!("{}-01", q.month), "%Y-%m-%d").ok().map(|_| q.month.clone())
    });
    let days = match &month {
        Some(m) => Some((m.clone(), l::periods(pool, agent.id, Some(m)).await.map_err(internal)?)),
        None => None,
    };
    let sessions = match day {
        Some(d) => Some((d, l::sessions(pool, agent.id, Some(d), l::DAY_SESSIONS_MAX).await.map_err(internal)?)),
        None => None,
    };
    Ok(render(LedgerPage {
        csrf: web.csrf,
        months: l::periods(pool, agent.id, None).await.map_err(internal)?,
        month: days,
        day: sessions,
        tab: "mind",
        agent,
    }))
}

fn back(agent: AgentId, notice: Notice) -> axum::response::Response {
    Redirect::to(&format!("/agents/{agent}/mind?notice={}", notice.code())).into_response()
}

fn count(n: impl TryInto<u32>) -> u32 {
    n.try_into().unwrap_or(0)
}

pub async fn compile(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    match dossier::compile(state.deps(), web.owner.tenant_id, agent.id, &web.owner.origin(), false).await {
        Ok(Some(d)) => Ok(back(agent.id, Notice::Compiled { memories: count(d.memories), words: count(d.words) })),
        Ok(None) => Ok(back(agent.id, Notice::NothingToCompile)),
        Err(e) => page(&state, web, agent, Some(format!("Compilation failed: {e}"))).await,
    }
}

pub async fn reflect(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    if let Some(reason) = reflection::not_ready(state.pool(), agent.id, false).await.map_err(internal)? {
        return page(&state, web, agent, Some(format!("Not yet: {reason}."))).await;
    }
    let run = reflection::run(
        state.deps(),
        web.owner.tenant_id,
        agent.id,
        &web.owner.origin(),
        miniclaw_core::vocabulary::ReflectionTrigger::Owner,
    )
    .await;
    let notice = match run {
        Ok(r) if r.status == "applied" => {
            return Ok(back(agent.id, Notice::ReflectionApplied(count(r.actions.as_array().map_or(0, Vec::len)))));
        }
        Ok(r) => format!("Reflection {}: {}", r.status, r.error.unwrap_or_default()),
        Err(e) => format!("Reflection failed: {e}"),
    };
    page(&state, web, agent, Some(notice)).await
}

pub async fn add_task(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let due_at = match f.text("due").trim() {
        "" => None,
        d => match chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d") {
            Ok(day) => day.and_hms_opt(12, 0, 0).map(|t| t.and_utc()),
            Err(_) => return page(&state, web, agent, Some("The due date is YYYY-MM-DD.".into())).await,
        },
    };
    let input = tasks::TaskInput { title: Some(f.text("title")), detail: None, due_at };
    let origin = web.owner.origin();
    match tasks::create(state.pool(), web.owner.tenant_id, agent.id, &origin, tasks::Mover::Owner, input).await {
        Ok(_) => Ok(back(agent.id, Notice::TaskAdded)),
        Err(e) => page(&state, web, agent, Some(format!("Not added: {}", message_of(&e).unwrap_or_default()))).await,
    }
}

/// The task in `/agents/{id}/tasks/{task}/move`.
#[derive(Deserialize)]
pub struct TaskPath {
    task: Uuid,
}

pub async fn move_task(
    State(state): State<AppState>,
    Path(TaskPath { task }): Path<TaskPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let to = f.text("to");
    let origin = web.owner.origin();
    let moved =
        tasks::transition(state.pool(), web.owner.tenant_id, agent.id, &origin, tasks::Mover::Owner, task, &to, None)
            .await;
    match moved {
        Ok(_) => Ok(back(agent.id, Notice::TaskMoved)),
        Err(e) => page(&state, web, agent, Some(format!("Not moved: {}", message_of(&e).unwrap_or_default()))).await,
    }
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
    let Ok(status) = status.parse::<miniclaw_core::vocabulary::GapStatus>() else {
        return Ok(back(agent.id, Notice::UnknownGapStatus));
    };
    lint::set_gap_status(state.pool(), agent.id, gid, status.as_str()).await.map_err(api_error)?;
    Ok(back(agent.id, Notice::Gap(status)))
}
