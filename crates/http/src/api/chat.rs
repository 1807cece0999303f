//! Chat (SPEC P1): the agent's chat endpoint as JSON or as an SSE stream that can be resumed
//! with `Last-Event-ID`, conversations and their history, regeneration, and an
//! OpenAI-compatible `POST /v1/chat/completions` where `model` is the agent id.

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, ConversationId, MessageId};
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::Stream;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::reads::Reads;
use miniclaw_domain::chat::relay::ReplyEvent;
use miniclaw_domain::chat::stream::{self, Event};
use miniclaw_domain::chat::{self, Audience, Caller, Channel, ChatMessage, Conversation, ReplyMeta, Started};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};

pub(crate) const READ: Scope = Scope("chat:read");
pub(crate) const WRITE: Scope = Scope("chat:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(chat_turn))
        .routes(routes!(resume_reply))
        .routes(routes!(agent_events))
        .routes(routes!(list_conversations))
        .routes(routes!(conversation_messages))
        .routes(routes!(delete_conversation))
        .routes(routes!(regenerate))
        .routes(routes!(agent_affect))
        .routes(routes!(agent_signals))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatInput {
    /// 1–2,000 characters.
    pub message: String,
    /// Continue this conversation; a new one is started without it.
    pub conversation_id: Option<ConversationId>,
}

/// The reply as JSON: its text with the turn's metadata.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChatReply {
    pub reply: String,
    #[serde(flatten)]
    pub meta: ReplyMeta,
}

#[derive(Debug, Clone, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct HistoryParams {
    /// Also list replies that a regeneration replaced.
    #[serde(default)]
    pub include_superseded: bool,
}

#[derive(Debug, Clone, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct ResumeParams {
    /// Byte offset already received (as in the `Last-Event-ID` header, which wins).
    pub offset: Option<usize>,
}

pub(crate) fn caller(scope: &AgentScope) -> Caller {
    Caller {
        tenant_id: scope.tenant_id,
        agent_id: scope.agent_id,
        origin: scope.origin(),
        end_user: scope.end_user.clone(),
    }
}

/// Whose conversations the request sees (see `chat::Audience`).
pub(super) fn audience(scope: &AgentScope) -> Audience {
    Audience { owner: scope.is_owner(), end_user: scope.end_user.clone() }
}

/// `web` for the dashboard (session cookie), `api` for bearer tokens and keys.
fn channel(headers: &HeaderMap) -> Channel {
    if headers.contains_key(header::AUTHORIZATION) { Channel::Api } else { Channel::Web }
}

fn wants_sse(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains("text/event-stream"))
}

/// `Last-Event-ID: <reply id>:<byte offset>`.
fn last_event_id(headers: &HeaderMap) -> Result<Option<(MessageId, usize)>, ApiError> {
    let Some(raw) = headers.get("last-event-id").and_then(|v| v.to_str().ok()) else { return Ok(None) };
    stream::parse_event_id(raw).map(Some).ok_or_else(|| {
        ApiError::validation("Last-Event-ID", "expected `<message id>:<offset>` as sent in the stream's ids")
    })
}

/// The SSE stream of one reply from `offset`: `start`, `token`s, then `done` or `error`. The
/// follower's place is held until the stream ends or its client goes away.
fn reply_events(
    state: AppState,
    follower: stream::Follower,
    reply_id: MessageId,
    offset: usize,
    start: Option<Value>,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let rx = stream::spawn_follow(state.runtime().clone(), follower, offset);
    let first = start
        .map(|s| Ok(SseEvent::default().event("start").id(stream::event_id(reply_id, offset)).data(s.to_string())));
    let rest = futures::stream::unfold((rx, offset, false), move |(mut rx, mut at, finished)| async move {
        if finished {
            return None;
        }
        let ev = rx.recv().await?;
        let (sse, done) = match ev {
            Event::Delta { end, text } => {
                at = end;
                (
                    SseEvent::default()
                        .event("token")
                        .id(stream::event_id(reply_id, end))
                        .data(json!({ "text": text }).to_string()),
                    false,
                )
            }
            Event::Done(meta) => {
                (SseEvent::default().event("done").id(stream::event_id(reply_id, at)).data(meta.to_string()), true)
            }
            Event::Failed { code, message } => (
                SseEvent::default()
                    .event("error")
                    .data(json!({ "error": { "code": code, "message": message } }).to_string()),
                true,
            ),
        };
        Some((Ok(sse), (rx, at, done)))
    });
    Sse::new(futures::StreamExt::chain(futures::stream::iter(first), rest))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

/// Answers a started turn as JSON (waiting for the reply) or as SSE.
async fn respond(state: AppState, started: Started, sse: bool) -> ApiResult<Response> {
    if sse {
        let start = json!({
            "conversation_id": started.conversation_id,
            "user_message_id": started.user_message_id,
            "message_id": started.reply_id,
        });
        let follower = state.chat_streams().follow_first(started.agent_id, started.reply_id);
        return Ok(reply_events(state, follower, started.reply_id, 0, Some(start)).into_response());
    }
    let chat::Finished { reply, meta } =
        started.done.await.map_err(|e| anyhow::anyhow!("the generation task failed: {e}"))??;
    Ok(Json(ChatReply { reply, meta }).into_response())
}

/// Sends a message to the agent. The message is stored before any model call; the reply comes
/// as JSON, or as Server-Sent Events with `Accept: text/event-stream` (`start`, `token`s with
/// ids `<message id>:<byte offset>`, then `done` with the metadata, or `error`). Sending the
/// same request with `Last-Event-ID` resumes that reply instead of starting a new turn. Over
/// the agent's daily token budget: 429 `budget_exhausted` with the reset time; the operator's
/// kill switch or the platform's daily spending cap: 503 (`kill_switch`, `global_spend_cap`).
/// Refused, nothing is stored. A new conversation is for the end user the request acts for
/// (`X-Miniclaw-User`, or the key's binding); an existing one must be that end user's (404
/// otherwise). Starting a conversation beyond `MINICLAW_CONVERSATIONS_PER_AGENT` is 409. Key
/// scope: `chat:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/chat", tag = "chat", params(("id" = Uuid, Path, description = "Agent id"), ("X-Miniclaw-User" = Option<String>, Header, description = "The miniapp end user the request acts for (1–128 characters); a key bound to one refuses another (403)")),
    request_body = ChatInput, security(("owner_session" = []), ("api_key" = ["chat:write"])),
    responses((status = 200, body = ChatReply, description = "The reply (JSON), or an SSE stream with `Accept: text/event-stream`"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 502, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn chat_turn(
    State(state): State<AppState>,
    scope: AgentScope,
    headers: HeaderMap,
    Json(input): Json<ChatInput>,
) -> ApiResult<Response> {
    scope.require(WRITE)?;
    if let Some((reply_id, offset)) = last_event_id(&headers)? {
        return resume(state, &scope, reply_id, offset).await;
    }
    let started = chat::start(&state, caller(&scope), input.message, input.conversation_id, channel(&headers)).await?;
    respond(state, started, wants_sse(&headers)).await
}

/// Follows a reply again from `offset`: 429 with `Retry-After` when the reply, or the agent's
/// replies, already have as many followers as the settings allow.
async fn resume(state: AppState, scope: &AgentScope, reply_id: MessageId, offset: usize) -> ApiResult<Response> {
    let (_, content) = chat::reply_progress(state.pool(), scope.agent_id, &audience(scope), reply_id).await?;
    if offset > content.len() || !content.is_char_boundary(offset) {
        return Err(ApiError::validation("Last-Event-ID", "the offset is not one this reply's stream sent"));
    }
    let follower =
        state.chat_streams().follow(scope.agent_id, reply_id, &state.config().streams).map_err(|crowded| {
            Error::Limited { retry_after_secs: 5, message: Some(crowded.to_string()), reset_at: None }
        })?;
    Ok(reply_events(state, follower, reply_id, offset, None).into_response())
}

/// The SSE stream of a reply from the offset in `Last-Event-ID` (or `?offset=`): what was
/// produced since, then the live rest. Works during and after generation. 429 with
/// `Retry-After` when the reply (or the agent's replies) already has as many followers as
/// allowed. Key scope: `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/chat/replies/{mid}/stream", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("mid" = Uuid, Path, description = "Reply (assistant message) id"), ResumeParams, ("X-Miniclaw-User" = Option<String>, Header, description = "The miniapp end user the request acts for (1–128 characters); a key bound to one refuses another (403)")),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, description = "text/event-stream"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn resume_reply(
    State(state): State<AppState>,
    scope: AgentScope,
    headers: HeaderMap,
    Path(ids): Path<(AgentId, MessageId)>,
    Query(params): Query<ResumeParams>,
) -> ApiResult<Response> {
    scope.require(READ)?;
    let offset = match last_event_id(&headers)? {
        Some((id, _)) if id != ids.1 => {
            return Err(ApiError::validation("Last-Event-ID", "the id names another message than the path"));
        }
        Some((_, offset)) => offset,
        None => params.offset.unwrap_or(0),
    };
    resume(state, &scope, ids.1, offset).await
}

/// The agent's events as Server-Sent Events, for as long as the client stays: `ready` once,
/// then a `reply` event (a `ReplyEvent`) whenever a reply the request may see starts
/// (`streaming`) or ends (`complete`, `error`, `superseded`), whichever server process runs it;
/// follow a started reply with its stream. Events from while a client was away are not
/// replayed: list the conversations to catch up. A client too slow to keep up gets `lagged`
/// with how many it missed. The stream ends when the server shuts down. 429 with `Retry-After`
/// beyond `MINICLAW_EVENT_STREAMS_PER_AGENT` streams for the agent on one server. Key scope:
/// `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/events", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("X-Miniclaw-User" = Option<String>, Header, description = "The miniapp end user the request acts for (1–128 characters); a key bound to one refuses another (403)")),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, description = "text/event-stream of `ready`, then `reply` events (`ReplyEvent`)", body = ReplyEvent, content_type = "text/event-stream"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn agent_events(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Response> {
    use tokio::sync::broadcast::error::RecvError;
    scope.require(READ)?;
    let limit = state.config().streams.event_streams_per_agent;
    let subscription = state.chat_streams().relay().subscribe(scope.agent_id, limit).map_err(|e| Error::Limited {
        retry_after_secs: 5,
        message: Some(e.to_string()),
        reset_at: None,
    })?;
    let ready = SseEvent::default().event("ready").data(json!({ "agent_id": scope.agent_id }).to_string());
    let audience = audience(&scope);
    let events = futures::stream::unfold((subscription, audience), |(mut sub, audience)| async move {
        let event = loop {
            match sub.events.recv().await {
                Ok(e) if e.visible_to(&audience) => {
                    break SseEvent::default().event("reply").data(json!(*e).to_string());
                }
                Ok(_) => {}
                Err(RecvError::Lagged(missed)) => {
                    break SseEvent::default().event("lagged").data(json!({ "missed": missed }).to_string());
                }
                Err(RecvError::Closed) => return None,
            }
        };
        Some((Ok::<_, Infallible>(event), (sub, audience)))
    });
    let closing = state.chat_streams().closing().cancelled_owned();
    let stream =
        futures::StreamExt::take_until(futures::StreamExt::chain(futures::stream::iter([Ok(ready)]), events), closing);
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))).into_response())
}

/// The conversations the request may see, most recently active first; `X-Next-Before` names
/// the next page. An owner session sees all of them; a key (or an owner naming an end user
/// with `X-Miniclaw-User`) sees those of the end user it acts for, or, acting for none, those
/// started through the API without one; never the owner's dashboard chats. Key scope: `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/conversations", tag = "chat", params(("id" = Uuid, Path, description = "Agent id"), Page, ("X-Miniclaw-User" = Option<String>, Header, description = "The miniapp end user the request acts for (1–128 characters); a key bound to one refuses another (403)")),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, body = Vec<Conversation>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_conversations(
    scope: AgentScope,
    reads: Reads,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Conversation>> {
    scope.require(READ)?;
    let (before, audience, fetch) = (page.before.map(ConversationId), audience(&scope), page.fetch()?);
    let rows = crate::read!(reads, db => chat::conversations(db, scope.agent_id, &audience, fetch, before).await)?;
    Ok(Paged::newest_first(rows, page.limit()?, |c| c.id))
}

/// A page of a conversation's messages in reading order (a reply right after the message it
/// answers), each with its status and, for replies, the metadata. Without `before` the newest
/// page; `X-Next-Before` names the page before it. Key scope: `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/conversations/{cid}/messages", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("cid" = Uuid, Path, description = "Conversation id"), HistoryParams, Page, ("X-Miniclaw-User" = Option<String>, Header, description = "The miniapp end user the request acts for (1–128 characters); a key bound to one refuses another (403)")),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, body = Vec<ChatMessage>, headers(("x-next-before" = String, description = "The `before` of the previous (older) page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn conversation_messages(
    scope: AgentScope,
    reads: Reads,
    Path(ids): Path<(AgentId, ConversationId)>,
    Query(params): Query<HistoryParams>,
    Query(page): Query<Page>,
) -> ApiResult<Paged<ChatMessage>> {
    scope.require(READ)?;
    let (audience, before, fetch) = (audience(&scope), page.before.map(MessageId), page.fetch()?);
    let superseded = params.include_superseded;
    let rows = crate::read!(reads, db => chat::messages(db, scope.agent_id, &audience, ids.1, superseded, fetch, before).await)?;
    Ok(Paged::newest_first(rows, page.limit()?, |m| m.id).chronological())
}

/// Deletes a conversation the request may see: it is gone at once (404 from then on) and
/// purged with its messages after `MINICLAW_CONVERSATION_RETENTION_DAYS`; the deletion is in
/// the agent's activity log with who made it. What the agent learned from it stays in memory.
/// Key scope: `chat:write`.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/conversations/{cid}", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("cid" = Uuid, Path, description = "Conversation id"), ("X-Miniclaw-User" = Option<String>, Header, description = "The miniapp end user the request acts for (1–128 characters); a key bound to one refuses another (403)")),
    security(("owner_session" = []), ("api_key" = ["chat:write"])),
    responses((status = 204, description = "Deleted"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_conversation(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, ConversationId)>,
) -> ApiResult<StatusCode> {
    scope.require(WRITE)?;
    let retention = state.config().caps.conversation_retention_days;
    let (pool, origin) = (state.pool(), scope.origin());
    chat::delete_conversation(pool, scope.tenant_id, scope.agent_id, &audience(&scope), ids.1, &origin, retention)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Generates a new reply to a user message (or to the message a reply answered), for example
/// after a failed generation; earlier replies become `superseded`. JSON or SSE like the chat
/// endpoint. 409 while a reply to it is still streaming. Key scope: `chat:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/conversations/{cid}/messages/{mid}/regenerate", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("cid" = Uuid, Path, description = "Conversation id"), ("mid" = Uuid, Path, description = "Message id"), ("X-Miniclaw-User" = Option<String>, Header, description = "The miniapp end user the request acts for (1–128 characters); a key bound to one refuses another (403)")),
    security(("owner_session" = []), ("api_key" = ["chat:write"])),
    responses((status = 200, body = ChatReply), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 429, body = ErrorBody), (status = 502, body = ErrorBody),
        (status = 503, body = ErrorBody)))]
async fn regenerate(
    State(state): State<AppState>,
    scope: AgentScope,
    headers: HeaderMap,
    Path(ids): Path<(AgentId, ConversationId, MessageId)>,
) -> ApiResult<Response> {
    scope.require(WRITE)?;
    let started = chat::regenerate(&state, caller(&scope), ids.1, ids.2).await?;
    respond(state, started, wants_sse(&headers)).await
}

// ---- OpenAI compatibility ----

/// How the agent's speakers seem to feel (SPEC X6): per speaker, the mood their messages add up
/// to — valence and arousal averaged over hours (fast) and days (slow), the circumplex label of
/// the fast averages and whether it dropped well below the slow one (distress). Read from each
/// message without a model. The owner sees every speaker (at most 100, the most recently heard
/// first); a key sees its own: its end user's, or `api`. Key scope: `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/affect", tag = "chat", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, body = miniclaw_domain::cognition::affect::Moods), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn agent_affect(
    State(state): State<AppState>,
    scope: AgentScope,
) -> ApiResult<Json<miniclaw_domain::cognition::affect::Moods>> {
    scope.require(READ)?;
    let only = (!audience(&scope).sees_all()).then(|| caller(&scope).speaker());
    Ok(Json(miniclaw_domain::cognition::affect::moods(state.pool(), scope.agent_id, only.as_deref()).await?))
}

/// How the agent's users write (SPEC X8): messages per day, turns per conversation, the share
/// of messages that switch topic and characters per message, each a moving average with a 7-day
/// half-life over every chat turn; `null` before the first. Key scope: `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/signals", tag = "chat", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, body = Option<miniclaw_domain::cognition::signals::Signals>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn agent_signals(
    State(state): State<AppState>,
    scope: AgentScope,
) -> ApiResult<Json<Option<miniclaw_domain::cognition::signals::Signals>>> {
    scope.require(READ)?;
    Ok(Json(miniclaw_domain::cognition::signals::get(state.pool(), scope.agent_id).await?))
}
