//! The memories pages: search with the signal breakdown, filters, add, edit, pin, delete (with
//! tombstone), history, knowledge upload (text and URL) and the store-health summary. They call
//! the same domain functions as the API.

use crate::error::ApiError;
use crate::error::ErrorResponse as _;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, MemoryId};
use serde::Deserialize;

use super::extract::{Posted, WebAgent, WebOwner};
use super::notice::Notice;
use super::pages::{PageResult, internal, message_of, not_found_page, render, shown};
use crate::app::AppState;
use miniclaw_domain::chat::import::{self, Import, ImportRequest};
use miniclaw_domain::memory::hygiene::{self, Health};
use miniclaw_domain::memory::ingest::{MemoryInput, add_text, add_url, embed_all, new_memory};
use miniclaw_domain::memory::search::{Explanation, SearchFilters, SearchRequest, Searcher};
use miniclaw_domain::memory::{
    self, ListFilter, Memory, MemoryPatch, MemorySource, MemoryStatus, MemoryVersion, Reader,
};
use miniclaw_domain::tenancy::agents::Agent;
use miniclaw_platform::llm::CallContext;

const CATEGORIES: &[&str] = miniclaw_core::vocabulary::Category::NAMES;
/// The memory list's status filter: the live statuses together, or one status.
const STATUS_CHOICES: [&str; 5] = [memory::LIVE, "active", "dormant", "archived", "deprecated"];

pub struct Row {
    memory: Memory,
    score: f64,
    bm25: f64,
    semantic: f64,
    prominence: f64,
    /// 1 when the memory is of the time the query named.
    time: f64,
    found_by: String,
}

#[derive(Template)]
#[template(path = "web/memories.html")]
struct MemoriesPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    health: Health,
    q: String,
    category: String,
    status: String,
    statuses: &'static [&'static str],
    categories: &'static [&'static str],
    rows: Vec<Row>,
    explanation: Option<Explanation>,
    error: Option<String>,
    notice: Option<String>,
    knowledge_cap: i64,
    imports: Vec<Import>,
}

#[derive(Debug, Default, Deserialize)]
pub struct MemoriesQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    category: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    notice: String,
}

async fn memories_page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    query: MemoriesQuery,
    error: Option<String>,
) -> PageResult {
    let status =
        if STATUS_CHOICES.contains(&query.status.as_str()) { query.status.clone() } else { memory::LIVE.into() };
    let category = query.category.trim().to_lowercase();
    let mut error = error;
    let mut explanation = None;
    let rows = if query.q.trim().is_empty() {
        let filter = ListFilter {
            category: (!category.is_empty()).then(|| category.clone()),
            status: Some(status.clone()),
            limit: Some(200),
            ..Default::default()
        };
        memory::list(state.pool(), agent.id, &Reader::All, &filter)
            .await
            .map_err(|e| e.into_response())?
            .into_iter()
            .map(|m| Row {
                memory: m,
                score: 0.0,
                bm25: 0.0,
                semantic: 0.0,
                prominence: 0.0,
                time: 0.0,
                found_by: String::new(),
            })
            .collect()
    } else {
        let ctx = CallContext::for_agent(web.owner.tenant_id, agent.id, &web.owner.origin());
        let searcher = Searcher { deps: state.deps(), ctx, reader: Reader::All };
        let req = SearchRequest {
            query: query.q.clone(),
            limit: Some(20),
            filters: SearchFilters {
                category: if category.is_empty() { Vec::new() } else { vec![category.clone()] },
                status: if status == memory::LIVE { Vec::new() } else { vec![status.clone()] },
                ..Default::default()
            },
            rerank: false,
            traversal: true,
        };
        match searcher.search(agent.id, &req).await {
            Ok(r) => {
                explanation = Some(r.explanation);
                r.results
                    .into_iter()
                    .map(|x| Row {
                        score: x.score,
                        bm25: x.signals.bm25,
                        semantic: x.signals.semantic,
                        prominence: x.signals.prominence,
                        time: x.signals.time,
                        found_by: x.found_by.join(" + "),
                        memory: x.memory,
                    })
                    .collect()
            }
            Err(e) => {
                error = Some(shown(e)?);
                Vec::new()
            }
        }
    };
    let health = hygiene::health(state.pool(), agent.id).await.map_err(internal)?;
    let imports = import::list(state.pool(), agent.id, None, None, 20).await.map_err(internal)?;
    Ok(render(MemoriesPage {
        csrf: web.csrf,
        agent,
        tab: "memories",
        health,
        q: query.q,
        category,
        status,
        statuses: &STATUS_CHOICES,
        categories: CATEGORIES,
        rows,
        explanation,
        error,
        notice: Notice::message_of(&query.notice),
        knowledge_cap: state.config().knowledge_cap,
        imports,
    }))
}

pub async fn memories(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(query): Query<MemoriesQuery>,
) -> PageResult {
    memories_page(&state, web, agent, query, None).await
}

/// Shows the list again with the form's error, or the error page for anything else.
async fn form_error(state: &AppState, web: WebOwner, agent: Agent, e: Error) -> PageResult {
    match message_of(&e) {
        Some(message) => memories_page(state, web, agent, MemoriesQuery::default(), Some(message)).await,
        None => Err(e.into_response()),
    }
}

fn back(id: AgentId, notice: Notice) -> axum::response::Response {
    Redirect::to(&format!("/agents/{id}/memories?notice={}", notice.code())).into_response()
}

pub async fn create(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let importance = match f.text("importance").trim() {
        "" => None,
        v => match v.parse::<f32>() {
            Ok(i) => Some(i),
            Err(_) => {
                return form_error(&state, web, agent, Error::validation("importance", "importance must be a number"))
                    .await;
            }
        },
    };
    let input = MemoryInput {
        content: f.text("content"),
        category: f.text("category").trim().to_lowercase(),
        importance,
        confidence: None,
        pinned: f.checked("pinned"),
        expires_at: None,
        occurred_at: None,
    };
    if let Err(e) = memory::validate(Some(&input.content), Some(&input.category), None, input.importance) {
        return form_error(&state, web, agent, e).await;
    }
    let embedding = embed_all(&state, std::slice::from_ref(&input.content)).await.pop().flatten();
    let mut tx = state.pool().begin().await.map_err(internal)?;
    if let Err(e) = memory::check_room(&mut tx, id, 1, state.config().caps.memories_per_agent).await {
        return form_error(&state, web, agent, e).await;
    }
    let new = new_memory(input, MemorySource::Owner, embedding);
    match memory::supersede::create_current(&mut tx, id, &web.owner.origin(), new, None).await {
        Ok(_) => {
            tx.commit().await.map_err(internal)?;
            Ok(back(id, Notice::MemoryAdded))
        }
        Err(e) => form_error(&state, web, agent, e).await,
    }
}

#[derive(Template)]
#[template(path = "web/memory.html")]
struct MemoryPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    memory: Option<Memory>,
    versions: Vec<MemoryVersion>,
    /// What it updates and what updated it (R7, X3).
    relations: Vec<memory::supersede::Related>,
    /// Its prominence now (X2).
    prominence: f64,
    statuses: &'static [&'static str],
    error: Option<String>,
}

async fn memory_page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    mid: MemoryId,
    error: Option<String>,
) -> PageResult {
    let versions = match memory::history(state.pool(), agent.id, mid, super::pages::LIST_SHOWN, None).await {
        // The newest versions, in the order they happened.
        Ok(v) => v.into_iter().rev().collect::<Vec<_>>(),
        Err(Error::NotFound(_)) => return Err(not_found_page()),
        Err(e) => return Err(e.into_response()),
    };
    let memory = match memory::get(state.pool(), agent.id, mid).await {
        Ok(m) => Some(m),
        Err(Error::NotFound(_)) => None,
        Err(e) => return Err(e.into_response()),
    };
    let relations = match &memory {
        Some(_) => {
            memory::supersede::relations(state.pool(), agent.id, mid)
                .await
                .map_err(|e| ApiError(e).into_response())?
                .relations
        }
        None => Vec::new(),
    };
    let prominence = memory.as_ref().map_or(0.0, |m| m.prominence(chrono::Utc::now()));
    Ok(render(MemoryPage {
        csrf: web.csrf,
        agent,
        tab: "memories",
        memory,
        versions,
        relations,
        prominence,
        statuses: MemoryStatus::NAMES,
        error,
    }))
}

/// The memory in `/agents/{id}/memories/{mid}/…` (the agent's `{id}` is `WebAgent`'s).
#[derive(Deserialize)]
pub struct MemoryPath {
    mid: MemoryId,
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Path(MemoryPath { mid }): Path<MemoryPath>,
) -> PageResult {
    memory_page(&state, web, agent, mid, None).await
}

pub async fn update(
    State(state): State<AppState>,
    Path(MemoryPath { mid }): Path<MemoryPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let content = f.text("content");
    let importance = f.text("importance").trim().parse::<f32>().ok();
    let category = f.text("category").trim().to_lowercase();
    let status = match f.text("status").as_str() {
        "" => Ok(None),
        s => miniclaw_core::vocabulary::parse::<MemoryStatus>("status", s).map(Some),
    };
    let status = match memory::validate(Some(&content), Some(&category), None, importance).and(status) {
        Ok(status) => status,
        Err(e) => return memory_page(&state, web, agent, mid, message_of(&e)).await,
    };
    let embedding = embed_all(&state, std::slice::from_ref(&content)).await.pop().flatten();
    let patch = MemoryPatch {
        content: Some(content),
        category: Some(category),
        importance,
        pinned: Some(f.checked("pinned")),
        shareable: Some(f.checked("shareable")),
        status,
        embedding,
        ..Default::default()
    };
    let reason = Some(f.text("reason")).filter(|r| !r.trim().is_empty());
    let mut tx = state.pool().begin().await.map_err(internal)?;
    match memory::update(&mut tx, id, mid, &web.owner.origin(), patch, reason.as_deref()).await {
        Ok(_) => {
            tx.commit().await.map_err(internal)?;
            Ok(Redirect::to(&format!("/agents/{id}/memories/{mid}")).into_response())
        }
        Err(Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => memory_page(&state, web, agent, mid, Some(shown(e)?)).await,
    }
}

pub async fn pin(
    State(state): State<AppState>,
    Path(MemoryPath { mid }): Path<MemoryPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let pinned = f.text("pinned") == "true";
    let patch = MemoryPatch { pinned: Some(pinned), ..Default::default() };
    let mut tx = state.pool().begin().await.map_err(internal)?;
    match memory::update(&mut tx, id, mid, &web.owner.origin(), patch, None).await {
        Ok(_) => tx.commit().await.map_err(internal)?,
        Err(Error::NotFound(_)) => return Err(not_found_page()),
        Err(e) => return Err(e.into_response()),
    }
    Ok(back(id, if pinned { Notice::Pinned } else { Notice::Unpinned }))
}

pub async fn restore(
    State(state): State<AppState>,
    Path(MemoryPath { mid }): Path<MemoryPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let mut tx = state.pool().begin().await.map_err(internal)?;
    match memory::supersede::restore(&mut tx, id, mid, &web.owner.origin(), Some("restored in the dashboard")).await {
        Ok(_) => tx.commit().await.map_err(internal)?,
        Err(Error::NotFound(_)) => return Err(not_found_page()),
        Err(e) => match message_of(&e) {
            Some(m) => return memory_page(&state, web, agent, mid, Some(m)).await,
            None => return Err(e.into_response()),
        },
    }
    Ok(Redirect::to(&format!("/agents/{id}/memories/{mid}")).into_response())
}

pub async fn delete(
    State(state): State<AppState>,
    Path(MemoryPath { mid }): Path<MemoryPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let mut tx = state.pool().begin().await.map_err(internal)?;
    match memory::delete(&mut tx, id, mid, &web.owner.origin(), Some("deleted in the dashboard")).await {
        Ok(_) => tx.commit().await.map_err(internal)?,
        Err(Error::NotFound(_)) => return Err(not_found_page()),
        Err(e) => return Err(e.into_response()),
    }
    Ok(back(id, Notice::MemoryDeleted))
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

pub async fn knowledge_text(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let title = Some(f.text("title")).filter(|t| !t.trim().is_empty());
    match add_text(&state, id, &web.owner.origin(), &f.text("text"), title).await {
        Ok(k) => Ok(back(id, Notice::Stored(count(k.chunks.len())))),
        Err(e) => form_error(&state, web, agent, e).await,
    }
}

pub async fn knowledge_url(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    match add_url(&state, id, &web.owner.origin(), &f.text("url")).await {
        Ok(k) => Ok(back(id, Notice::Fetched(count(k.chunks.len())))),
        Err(e) => form_error(&state, web, agent, e).await,
    }
}

/// Imports a transcript pasted as JSON: `[{"role"|"speaker", "content", "created_at"}, …]`
/// or `{"messages": […]}`.
pub async fn import_transcript(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let text = f.text("transcript");
    let parsed = serde_json::from_str::<serde_json::Value>(&text)
        .map_err(|e| Error::validation("transcript", format!("the transcript is not JSON: {e}")))
        .and_then(|v| {
            let v = if v.is_array() { serde_json::json!({ "messages": v }) } else { v };
            serde_json::from_value::<ImportRequest>(v).map_err(|e| {
                Error::validation(
                    "transcript",
                    format!("expected a list of messages with role or speaker, content and created_at: {e}"),
                )
            })
        });
    let started = match parsed {
        Ok(req) => import::start(state.pool(), id, None, req).await,
        Err(e) => Err(e),
    };
    match started {
        Ok(s) if s.duplicate => Ok(back(id, Notice::ImportDuplicate)),
        Ok(s) => Ok(back(id, Notice::ImportQueued(u32::try_from(s.import.messages).unwrap_or(0)))),
        Err(e) => form_error(&state, web, agent, e).await,
    }
}
