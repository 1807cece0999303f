//! Memories (SPEC R1–R8): CRUD, bulk upload, hybrid search, history, store health and
//! knowledge ingestion, for owners and for keys with `memories:*`.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, MemoryId};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path, Query};
use super::page::{Paged, VersionPage};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::reads::Reads;
use miniclaw_domain::memory::hygiene::{self, Health};
use miniclaw_domain::memory::ingest::{KnowledgeResult, MemoryInput, add_text, add_url, embed_all, new_memory};
use miniclaw_domain::memory::search::{SearchRequest, SearchResponse, Searcher};
use miniclaw_domain::memory::supersede::{self, Relations};
use miniclaw_domain::memory::{self, ListFilter, Memory, MemoryPatch, MemorySource, MemoryVersion};
use miniclaw_domain::tenancy::auth::{self, Actor, AgentScope, Scope};
use miniclaw_platform::activity::REASON_MAX;

pub(crate) const READ: Scope = Scope("memories:read");
pub(crate) const WRITE: Scope = Scope("memories:write");
/// Largest bulk upload (R1): all or nothing.
pub const BULK_MAX: usize = 500;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_memory, list_memories))
        .routes(routes!(get_memory, update_memory, delete_memory))
        .routes(routes!(memory_history))
        .routes(routes!(memory_relations))
        .routes(routes!(restore_memory))
        .routes(routes!(bulk_create))
        .routes(routes!(search_memories))
        .routes(routes!(memory_health))
        .routes(routes!(add_knowledge))
        .routes(routes!(add_knowledge_url))
}

#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemoryUpdate {
    pub content: Option<String>,
    pub category: Option<String>,
    pub importance: Option<f32>,
    pub confidence: Option<f32>,
    /// Pin or unpin.
    pub pinned: Option<bool>,
    /// Let the feed digest write from it (`true`), or keep it private (`false`, the default of
    /// every memory): the digest uses nothing else. The owner's alone to set (403 `owner_only`
    /// for a key).
    pub shareable: Option<bool>,
    /// active, dormant, archived, deprecated
    pub status: Option<String>,
    /// `null` clears the expiry; absent leaves it.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<DateTime<Utc>>)]
    pub expires_at: Option<Option<DateTime<Utc>>>,
    /// Why, for the history.
    pub reason: Option<String>,
}

fn double_option<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<DateTime<Utc>>>, D::Error> {
    Option::<DateTime<Utc>>::deserialize(d).map(Some)
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkInput {
    /// 1–500 memories, stored all or none.
    pub memories: Vec<MemoryInput>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BulkResult {
    pub created: usize,
    pub memories: Vec<Memory>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KnowledgeText {
    /// Up to 50,000 characters, stored as chunks of at most 400.
    pub text: String,
    pub title: Option<String>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KnowledgeUrl {
    /// An http(s) URL of a public page.
    pub url: String,
}

#[derive(Debug, Clone, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct DeleteParams {
    /// Why, for the history.
    pub reason: Option<String>,
}

fn source_of(scope: &AgentScope) -> MemorySource {
    if matches!(scope.actor, Actor::Owner(_)) { MemorySource::Owner } else { MemorySource::Api }
}

/// 404 unless `scope` may reach memory `id` (`memory::reachable`).
pub(crate) async fn reachable(state: &AppState, scope: &AgentScope, id: MemoryId, write: bool) -> Result<(), Error> {
    memory::reachable(state.pool(), scope.agent_id, scope.end_user.as_deref(), id, write).await
}

/// Adds a memory. Key scope: `memories:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/memories", tag = "memories", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = MemoryInput, security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 201, body = Memory), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn create_memory(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<MemoryInput>,
) -> ApiResult<(StatusCode, Json<Memory>)> {
    Ok((StatusCode::CREATED, Json(add(&state, &scope, input).await?)))
}

/// Adds a memory for `scope` (REST and the MCP `add_memory` tool).
pub(crate) async fn add(state: &AppState, scope: &AgentScope, input: MemoryInput) -> Result<Memory, Error> {
    scope.require(WRITE)?;
    memory::validate(Some(&input.content), Some(&input.category), input.confidence, input.importance)?;
    memory::validate_time(input.occurred_at)?;
    let embedding = embed_all(state, std::slice::from_ref(&input.content)).await.pop().flatten();
    let mut tx = state.pool().begin().await?;
    memory::check_room(&mut tx, scope.agent_id, 1, state.config().caps.memories_per_agent).await?;
    let mut new = new_memory(input, source_of(scope), embedding);
    new.end_user = scope.end_user.clone();
    let (m, _) = supersede::create_current(&mut tx, scope.agent_id, &scope.origin(), new, None).await?;
    tx.commit().await?;
    Ok(m)
}

/// The agent's memories, newest first, filtered by category, source and status. Key scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/memories", tag = "memories", params(("id" = Uuid, Path, description = "Agent id"), ListFilter),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = Vec<Memory>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_memories(scope: AgentScope, reads: Reads, Query(filter): Query<ListFilter>) -> ApiResult<Response> {
    scope.require(READ)?;
    let json = |body: Arc<str>| ([(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response();
    // Pages are kept per agent and filter until one of the agent's memories changes (SPEC B3,
    // `auth::cache`); not with a replica, whose reads may lag what was forgotten.
    let cache = auth::cache::cache();
    let reader = scope.reader().narrowed(filter.end_user.as_deref())?;
    let key = format!("{filter:?} {reader:?}");
    if !reads.has_replica()
        && let Some(page) = cache.page(scope.agent_id, &key)
    {
        return Ok(json(page));
    }
    let generation = cache.page_generation();
    let page = crate::read!(reads, db => memory::list(db, scope.agent_id, &reader, &filter).await)?;
    let body: Arc<str> = serde_json::to_string(&page).map_err(anyhow::Error::from)?.into();
    if !reads.has_replica() {
        cache.put_page(generation, scope.agent_id, key, body.clone());
    }
    Ok(json(body))
}

/// One memory. Key scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/memories/{mid}", tag = "memories",
    params(("id" = Uuid, Path, description = "Agent id"), ("mid" = Uuid, Path, description = "Memory id")),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = Memory), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_memory(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, MemoryId)>,
) -> ApiResult<Json<Memory>> {
    scope.require(READ)?;
    reachable(&state, &scope, ids.1, false).await?;
    Ok(Json(memory::get(state.pool(), scope.agent_id, ids.1).await?))
}

/// Edits, pins/unpins or changes the status of a memory; every change is a new version. An
/// owner's new wording is a correction: the old one gets a tombstone. Key scope: `memories:write`.
#[utoipa::path(patch, path = "/v1/hosted-agents/{id}/memories/{mid}", tag = "memories",
    params(("id" = Uuid, Path, description = "Agent id"), ("mid" = Uuid, Path, description = "Memory id")), request_body = MemoryUpdate,
    security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 200, body = Memory), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn update_memory(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, MemoryId)>,
    Json(input): Json<MemoryUpdate>,
) -> ApiResult<Json<Memory>> {
    Ok(Json(edit(&state, &scope, ids.1, input).await?))
}

/// Changes memory `id` of `scope`'s agent (REST and the MCP `update_memory` tool).
pub(crate) async fn edit(
    state: &AppState,
    scope: &AgentScope,
    id: MemoryId,
    input: MemoryUpdate,
) -> Result<Memory, Error> {
    scope.require(WRITE)?;
    if input.shareable.is_some() {
        miniclaw_domain::chat::policy::owner_setting(&scope.actor, "shareable")?;
    }
    reachable(state, scope, id, true).await?;
    memory::validate(input.content.as_deref(), input.category.as_deref(), input.confidence, input.importance)?;
    if let Some(r) = &input.reason {
        Error::check_length("reason", r, REASON_MAX)?;
    }
    let embedding = match &input.content {
        Some(c) => embed_all(state, std::slice::from_ref(c)).await.pop().flatten(),
        None => None,
    };
    let patch = MemoryPatch {
        content: input.content,
        category: input.category,
        confidence: input.confidence,
        importance: input.importance,
        pinned: input.pinned,
        shareable: input.shareable,
        status: input.status.as_deref().map(|s| miniclaw_core::vocabulary::parse("status", s)).transpose()?,
        expires_at: input.expires_at,
        embedding,
    };
    let mut tx = state.pool().begin().await?;
    let m = memory::update(&mut tx, scope.agent_id, id, &scope.origin(), patch, input.reason.as_deref()).await?;
    tx.commit().await?;
    Ok(m)
}

/// Deletes a memory. Its history stays, and a tombstone keeps extraction from storing the same
/// fact again unless the user says it again. Key scope: `memories:write`.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/memories/{mid}", tag = "memories",
    params(("id" = Uuid, Path, description = "Agent id"), ("mid" = Uuid, Path, description = "Memory id"), DeleteParams),
    security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 204, description = "Deleted"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_memory(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, MemoryId)>,
    Query(params): Query<DeleteParams>,
) -> ApiResult<StatusCode> {
    forget(&state, &scope, ids.1, params.reason.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Deletes memory `id` of `scope`'s agent (REST and the MCP `forget_memory` tool).
pub(crate) async fn forget(
    state: &AppState,
    scope: &AgentScope,
    id: MemoryId,
    reason: Option<&str>,
) -> Result<(), Error> {
    scope.require(WRITE)?;
    if let Some(r) = reason {
        Error::check_length("reason", r, REASON_MAX)?;
    }
    reachable(state, scope, id, true).await?;
    let mut tx = state.pool().begin().await?;
    memory::delete(&mut tx, scope.agent_id, id, &scope.origin(), reason).await?;
    tx.commit().await?;
    Ok(())
}

/// A page of a memory's versions with actor and reason, in the order they happened; also for
/// deleted memories. Without `before` the newest page; `X-Next-Before` names the one before it.
/// Key scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/memories/{mid}/history", tag = "memories",
    params(("id" = Uuid, Path, description = "Agent id"), ("mid" = Uuid, Path, description = "Memory id"), VersionPage),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = Vec<MemoryVersion>, headers(("x-next-before" = String, description = "The `before` of the previous (older) page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn memory_history(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, MemoryId)>,
    Query(page): Query<VersionPage>,
) -> ApiResult<Paged<MemoryVersion>> {
    scope.require(READ)?;
    reachable(&state, &scope, ids.1, false).await?;
    let rows = memory::history(state.pool(), scope.agent_id, ids.1, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |v| v.version).chronological())
}

/// What a memory updates, extends or derives from, and what updates, extends or derives from
/// it (at most 200, newest first): a replaced value's memory names the one that replaced it, so
/// "what was it before?" has an answer. Key scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/memories/{mid}/relations", tag = "memories",
    params(("id" = Uuid, Path, description = "Agent id"), ("mid" = Uuid, Path, description = "Memory id")),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = Relations), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn memory_relations(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, MemoryId)>,
) -> ApiResult<Json<Relations>> {
    scope.require(READ)?;
    reachable(&state, &scope, ids.1, false).await?;
    let mut relations = supersede::relations(state.pool(), scope.agent_id, ids.1).await?;
    let reader = scope.reader();
    relations.relations.retain(|r| reader.reads(r.memory.end_user.as_deref()));
    Ok(Json(relations))
}

/// Why a memory is restored, for its history.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RestoreInput {
    pub reason: Option<String>,
}

/// Makes a replaced, contradicted or archived memory current again (it returns to search and
/// chat): for when a newer statement was wrongly taken to replace it, the old value holds once
/// more, or forgetting or fusion set aside something still wanted (a restored memory counts as
/// used now). The memory that replaced it stays. 409 when the memory is current already. Key
/// scope: `memories:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/memories/{mid}/restore", tag = "memories",
    params(("id" = Uuid, Path, description = "Agent id"), ("mid" = Uuid, Path, description = "Memory id")),
    request_body = RestoreInput, security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 200, body = Memory), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn restore_memory(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, MemoryId)>,
    Json(input): Json<RestoreInput>,
) -> ApiResult<Json<Memory>> {
    scope.require(WRITE)?;
    if let Some(r) = &input.reason {
        ApiError::check_length("reason", r, REASON_MAX)?;
    }
    reachable(&state, &scope, ids.1, true).await?;
    let mut tx = state.pool().begin().await?;
    let m = supersede::restore(&mut tx, scope.agent_id, ids.1, &scope.origin(), input.reason.as_deref()).await?;
    tx.commit().await?;
    Ok(Json(m))
}

/// Adds up to 500 memories in one transaction: all are stored, or none. Key scope: `memories:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/memories/bulk", tag = "memories", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = BulkInput, security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 201, body = BulkResult), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn bulk_create(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<BulkInput>,
) -> ApiResult<(StatusCode, Json<BulkResult>)> {
    scope.require(WRITE)?;
    if input.memories.is_empty() || input.memories.len() > BULK_MAX {
        return Err(ApiError::validation("memories", format!("send between 1 and {BULK_MAX} memories")));
    }
    for (i, m) in input.memories.iter().enumerate() {
        memory::validate(Some(&m.content), Some(&m.category), m.confidence, m.importance)
            .and_then(|()| memory::validate_time(m.occurred_at))
            .map_err(|e| e.within(&format!("memories[{i}]")))?;
    }
    let texts: Vec<String> = input.memories.iter().map(|m| m.content.clone()).collect();
    let vectors = embed_all(&state, &texts).await;
    let source = source_of(&scope);
    let origin = scope.origin();
    let mut tx = state.pool().begin().await?;
    memory::check_room(&mut tx, scope.agent_id, texts.len(), state.config().caps.memories_per_agent).await?;
    let mut created = Vec::with_capacity(texts.len());
    for (m, v) in input.memories.into_iter().zip(vectors) {
        let mut new = new_memory(m, source, v);
        new.end_user = scope.end_user.clone();
        created.push(supersede::create_current(&mut tx, scope.agent_id, &origin, new, Some("bulk upload")).await?.0);
    }
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(BulkResult { created: created.len(), memories: created })))
}

/// Hybrid search: BM25 and vector candidates, `min(1, 0.5*bm25 + 0.5*semantic + 0.05*prominence) +
/// 0.3*time` (1 for a memory of the day the query names, "on 29 Dec 2023", "on 25.01.2024"; 1/3
/// within a longer time it names, "last week", "in May"), each
/// result with its signals and the paths that found it, and an explanation of what was
/// searched (and, for an empty result, why). `rerank: true` adds the rerank model. Key scope:
/// `memories:read`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/memories/search", tag = "memories", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = SearchRequest, security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = SearchResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn search_memories(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(req): Json<SearchRequest>,
) -> ApiResult<Json<SearchResponse>> {
    Ok(Json(search(&state, &scope, &req).await?))
}

/// Searches `scope`'s agent's memories (REST and the MCP `search_memories` tool).
pub(crate) async fn search(state: &AppState, scope: &AgentScope, req: &SearchRequest) -> Result<SearchResponse, Error> {
    scope.require(READ)?;
    let searcher = Searcher { deps: state.deps(), ctx: scope.call_context(), reader: scope.reader() };
    searcher.search(scope.agent_id, req).await
}

/// The store-health report (R6): duplicate rates, recall-loop suppressions, tombstone hits,
/// stale share, contradictions. Key scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/memory-health", tag = "memories", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = Health), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn memory_health(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Health>> {
    scope.require(READ)?;
    Ok(Json(hygiene::health(state.pool(), scope.agent_id).await?))
}

/// Uploads text as knowledge, chunked at sentence boundaries into pieces of at most 400
/// characters. Key scope: `memories:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/knowledge", tag = "memories", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = KnowledgeText, security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 201, body = KnowledgeResult), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn add_knowledge(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<KnowledgeText>,
) -> ApiResult<(StatusCode, Json<KnowledgeResult>)> {
    scope.require(WRITE)?;
    let r = add_text(&state, scope.agent_id, &scope.origin(), &input.text, input.title).await?;
    Ok((StatusCode::CREATED, Json(r)))
}

/// Fetches a public web page and stores its text (HTML stripped, at most 5,000 characters) as
/// knowledge. Loopback, private, link-local and metadata addresses are refused with 422, also
/// after redirects, unless the operator allows them. Key scope: `memories:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/knowledge/url", tag = "memories", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = KnowledgeUrl, security(("owner_session" = []), ("api_key" = ["memories:write"])),
    responses((status = 201, body = KnowledgeResult), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn add_knowledge_url(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<KnowledgeUrl>,
) -> ApiResult<(StatusCode, Json<KnowledgeResult>)> {
    scope.require(WRITE)?;
    let r = add_url(&state, scope.agent_id, &scope.origin(), &input.url).await?;
    Ok((StatusCode::CREATED, Json(r)))
}
