//! Chat (SPEC P1): the agent's chat endpoint as JSON or as an SSE stream that can be resumed
//! with `Last-Event-ID`, conversations and their history, regeneration, and an
//! OpenAI-compatible `POST /v1/chat/completions` where `model` is the agent id.

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
use uuid::Uuid;

use super::extract::{Json, Path, Query};
use crate::app::AppState;
use crate::auth::{AgentScope, Scope};
use crate::chat::stream::{self, Event};
use crate::chat::{self, Caller, Channel, ChatMessage, Conversation, ReplyMeta, Started};
use crate::error::{ApiError, ApiResult, ErrorBody};

const READ: Scope = Scope("chat:read");
const WRITE: Scope = Scope("chat:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(chat_turn))
        .routes(routes!(resume_reply))
        .routes(routes!(list_conversations))
        .routes(routes!(conversation_messages))
        .routes(routes!(delete_conversation))
        .routes(routes!(regenerate))
        .routes(routes!(chat_completions))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatInput {
    /// 1–2,000 characters.
    pub message: String,
    /// Continue this conversation; a new one is started without it.
    pub conversation_id: Option<Uuid>,
}

/// The reply as JSON: its text with the turn's metadata.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChatReply {
    pub reply: String,
    #[serde(flatten)]
    pub meta: ReplyMeta,
}

#[derive(Debug, Clone, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct ListParams {
    /// 1–200, default 50.
    pub limit: Option<i64>,
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

fn caller(scope: &AgentScope) -> Caller {
    Caller { tenant_id: scope.tenant_id, agent_id: scope.agent_id, origin: scope.origin() }
}

/// `web` for the dashboard (session cookie), `api` for bearer tokens and keys.
fn channel(headers: &HeaderMap) -> Channel {
    if headers.contains_key(header::AUTHORIZATION) { Channel::Api } else { Channel::Web }
}

fn wants_sse(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains("text/event-stream"))
}

/// `Last-Event-ID: <reply id>:<byte offset>`.
fn last_event_id(headers: &HeaderMap) -> Result<Option<(Uuid, usize)>, ApiError> {
    let Some(raw) = headers.get("last-event-id").and_then(|v| v.to_str().ok()) else { return Ok(None) };
    let bad = || ApiError::validation("Last-Event-ID", "expected `<message id>:<offset>` as sent in the stream's ids");
    let (id, offset) = raw.trim().split_once(':').ok_or_else(bad)?;
    Ok(Some((Uuid::parse_str(id).map_err(|_| bad())?, offset.parse().map_err(|_| bad())?)))
}

fn sse_id(reply: Uuid, offset: usize) -> String {
    format!("{reply}:{offset}")
}

/// The SSE stream of one reply from `offset`: `start`, `token`s, then `done` or `error`.
fn reply_events(
    state: AppState,
    reply_id: Uuid,
    offset: usize,
    start: Option<Value>,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(64);
    let pool = state.pool().clone();
    tokio::spawn(async move { stream::follow(pool, state.chat_streams(), reply_id, offset, tx).await });
    let first = start.map(|s| Ok(SseEvent::default().event("start").id(sse_id(reply_id, offset)).data(s.to_string())));
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
                        .id(sse_id(reply_id, end))
                        .data(json!({ "text": text }).to_string()),
                    false,
                )
            }
            Event::Done(meta) => {
                (SseEvent::default().event("done").id(sse_id(reply_id, at)).data(meta.to_string()), true)
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
        return Ok(reply_events(state, started.reply_id, 0, Some(start)).into_response());
    }
    let chat::Finished { reply, meta } =
        started.done.await.map_err(|e| anyhow::anyhow!("the generation task failed: {e}"))??;
    Ok(Json(ChatReply { reply, meta }).into_response())
}

/// Sends a message to the agent. The message is stored before any model call; the reply comes
/// as JSON, or as Server-Sent Events with `Accept: text/event-stream` (`start`, `token`s with
/// ids `<message id>:<byte offset>`, then `done` with the metadata, or `error`). Sending the
/// same request with `Last-Event-ID` resumes that reply instead of starting a new turn. Over
/// the agent's daily token budget: 429 with the reset time. Key scope: `chat:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/chat", tag = "chat", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = ChatInput, security(("owner_session" = []), ("api_key" = ["chat:write"])),
    responses((status = 200, body = ChatReply, description = "The reply (JSON), or an SSE stream with `Accept: text/event-stream`"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody), (status = 502, body = ErrorBody)))]
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

async fn resume(state: AppState, scope: &AgentScope, reply_id: Uuid, offset: usize) -> ApiResult<Response> {
    let (_, content) = chat::reply_progress(state.pool(), scope.agent_id, reply_id).await?;
    if offset > content.len() || !content.is_char_boundary(offset) {
        return Err(ApiError::validation("Last-Event-ID", "the offset is not one this reply's stream sent"));
    }
    Ok(reply_events(state, reply_id, offset, None).into_response())
}

/// The SSE stream of a reply from the offset in `Last-Event-ID` (or `?offset=`): what was
/// produced since, then the live rest. Works during and after generation. Key scope: `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/chat/replies/{mid}/stream", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("mid" = Uuid, Path, description = "Reply (assistant message) id"), ResumeParams),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, description = "text/event-stream"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn resume_reply(
    State(state): State<AppState>,
    scope: AgentScope,
    headers: HeaderMap,
    Path(ids): Path<(Uuid, Uuid)>,
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

/// The agent's conversations, most recently active first. Key scope: `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/conversations", tag = "chat", params(("id" = Uuid, Path, description = "Agent id"), ListParams),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, body = Vec<Conversation>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_conversations(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(params): Query<ListParams>,
) -> ApiResult<Json<Vec<Conversation>>> {
    scope.require(READ)?;
    let limit = params.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::validation("limit", "limit must be between 1 and 200"));
    }
    Ok(Json(chat::conversations(state.pool(), scope.agent_id, limit).await?))
}

/// A conversation's messages in order (a reply right after the message it answers), each with its
/// status and, for replies, the metadata.
/// Key scope: `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/conversations/{cid}/messages", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("cid" = Uuid, Path, description = "Conversation id"), HistoryParams),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, body = Vec<ChatMessage>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn conversation_messages(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(Uuid, Uuid)>,
    Query(params): Query<HistoryParams>,
) -> ApiResult<Json<Vec<ChatMessage>>> {
    scope.require(READ)?;
    Ok(Json(chat::messages(state.pool(), scope.agent_id, ids.1, params.include_superseded).await?))
}

/// Deletes a conversation and its messages; what the agent learned from it stays in memory.
/// Key scope: `chat:write`.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/conversations/{cid}", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("cid" = Uuid, Path, description = "Conversation id")),
    security(("owner_session" = []), ("api_key" = ["chat:write"])),
    responses((status = 204, description = "Deleted"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_conversation(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    scope.require(WRITE)?;
    chat::delete_conversation(state.pool(), scope.agent_id, ids.1).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Generates a new reply to a user message (or to the message a reply answered), for example
/// after a failed generation; earlier replies become `superseded`. JSON or SSE like the chat
/// endpoint. 409 while a reply to it is still streaming. Key scope: `chat:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/conversations/{cid}/messages/{mid}/regenerate", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("cid" = Uuid, Path, description = "Conversation id"), ("mid" = Uuid, Path, description = "Message id")),
    security(("owner_session" = []), ("api_key" = ["chat:write"])),
    responses((status = 200, body = ChatReply), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 429, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn regenerate(
    State(state): State<AppState>,
    scope: AgentScope,
    headers: HeaderMap,
    Path(ids): Path<(Uuid, Uuid, Uuid)>,
) -> ApiResult<Response> {
    scope.require(WRITE)?;
    let started = chat::regenerate(&state, caller(&scope), ids.1, ids.2).await?;
    respond(state, started, wants_sse(&headers)).await
}

// ---- OpenAI compatibility ----

#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct CompletionMessage {
    /// `system`, `user`, `assistant` (others are ignored).
    pub role: String,
    /// Text, or an array of content parts whose `text` parts are joined.
    #[schema(value_type = Object)]
    pub content: Option<Value>,
}

/// OpenAI's chat-completions request. Unknown fields (temperature, ...) are accepted and ignored:
/// the agent's own settings decide.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct CompletionRequest {
    /// The agent id.
    pub model: String,
    pub messages: Vec<CompletionMessage>,
    #[serde(default)]
    pub stream: bool,
    /// `{"include_usage": true}` adds a usage chunk to the stream.
    #[schema(value_type = Option<Object>)]
    pub stream_options: Option<Value>,
    /// Continue this conversation (extension; with the OpenAI SDKs pass it in `extra_body`).
    pub conversation_id: Option<Uuid>,
}

fn text_of(content: &Option<Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// OpenAI-compatible chat completions: `model` is the agent id, the last `user` message is the
/// turn; with no `conversation_id` the earlier messages of the request start a new
/// conversation. `stream: true` answers with `chat.completion.chunk` events and `[DONE]`.
/// Auth: `Authorization: Bearer mck_...` with `chat:write` (or an owner session).
#[utoipa::path(post, path = "/v1/chat/completions", tag = "chat", request_body = CompletionRequest,
    security(("api_key" = ["chat:write"]), ("owner_session" = [])),
    responses((status = 200, description = "chat.completion, or chat.completion.chunk events with `stream: true`"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn chat_completions(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(req): Json<CompletionRequest>,
) -> ApiResult<Response> {
    let agent_id = Uuid::parse_str(req.model.trim())
        .map_err(|_| ApiError::validation("model", "`model` must be the id of one of your hosted agents"))?;
    let scope = AgentScope::resolve(&headers, &state, agent_id).await?;
    scope.require(WRITE)?;
    let Some(last) = req.messages.iter().rposition(|m| m.role == "user") else {
        return Err(ApiError::validation("messages", "the request needs at least one `user` message"));
    };
    let message = text_of(&req.messages[last].content);
    chat::validate(&message)?;
    let earlier: Vec<(String, String)> = req.messages[..last]
        .iter()
        .filter(|m| m.role == "user" || m.role == "assistant")
        .map(|m| (m.role.clone(), text_of(&m.content)))
        .filter(|(_, c)| !c.trim().is_empty())
        .collect();
    let conversation_id = match req.conversation_id {
        Some(id) => Some(id),
        None if !earlier.is_empty() => {
            // Refuse an exhausted budget before the history is stored (`start` checks the turn
            // itself in the statement that stores it).
            chat::budget_first(&state, &caller(&scope)).await?;
            Some(chat::seed_conversation(state.pool(), agent_id, Channel::Openai, &earlier).await?)
        }
        None => None,
    };
    let started = chat::start(&state, caller(&scope), message, conversation_id, Channel::Openai).await?;
    let id = format!("chatcmpl-{}", started.reply_id.simple());
    let created = chrono::Utc::now().timestamp();
    let model = req.model.clone();
    if !req.stream {
        let chat::Finished { reply: content, meta } =
            started.done.await.map_err(|e| anyhow::anyhow!("the generation task failed: {e}"))??;
        return Ok(Json(json!({
            "id": id,
            "object": "chat.completion",
            "created": created,
            "model": model,
            "choices": [{ "index": 0, "message": { "role": "assistant", "content": content }, "finish_reason": openai_finish(&meta.finish_reason) }],
            "usage": { "prompt_tokens": meta.usage.prompt_tokens, "completion_tokens": meta.usage.completion_tokens, "total_tokens": meta.usage.total() },
            "miniclaw": { "conversation_id": meta.conversation_id, "message_id": meta.message_id, "intent": meta.intent,
                          "triage_skipped": meta.triage_skipped, "engine": meta.engine },
        }))
        .into_response());
    }
    let include_usage =
        req.stream_options.as_ref().and_then(|o| o.get("include_usage")).and_then(Value::as_bool) == Some(true);
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(64);
    let pool = state.pool().clone();
    let reply_id = started.reply_id;
    let follower = state.clone();
    tokio::spawn(async move { stream::follow(pool, follower.chat_streams(), reply_id, 0, tx).await });
    let chunk = move |delta: Value, finish: Option<&str>, usage: Option<Value>| {
        let mut c = json!({ "id": id, "object": "chat.completion.chunk", "created": created, "model": model,
            "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }] });
        if let Some(u) = usage {
            c["choices"] = json!([]);
            c["usage"] = u;
        }
        SseEvent::default().data(c.to_string())
    };
    let first = chunk(json!({ "role": "assistant", "content": "" }), None, None);
    let events = futures::stream::unfold((rx, Some(chunk), false), move |(mut rx, chunk, finished)| async move {
        let chunk = chunk?;
        if finished {
            return None;
        }
        let out: Vec<SseEvent> = match rx.recv().await {
            Some(Event::Delta { text, .. }) => vec![chunk(json!({ "content": text }), None, None)],
            Some(Event::Done(meta)) => {
                let mut v =
                    vec![chunk(json!({}), Some(openai_finish(meta["finish_reason"].as_str().unwrap_or("stop"))), None)];
                if include_usage {
                    let p = meta["usage"]["prompt_tokens"].as_u64().unwrap_or(0);
                    let c = meta["usage"]["completion_tokens"].as_u64().unwrap_or(0);
                    v.push(chunk(
                        json!({}),
                        None,
                        Some(json!({ "prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c })),
                    ));
                }
                v.push(SseEvent::default().data("[DONE]"));
                return Some((futures::stream::iter(v.into_iter().map(Ok)), (rx, None, true)));
            }
            Some(Event::Failed { code, message }) => {
                let e = json!({ "error": { "message": message, "type": "server_error", "code": code } });
                let v = vec![SseEvent::default().data(e.to_string())];
                return Some((futures::stream::iter(v.into_iter().map(Ok)), (rx, None, true)));
            }
            None => return None,
        };
        Some((futures::stream::iter(out.into_iter().map(Ok)), (rx, Some(chunk), false)))
    });
    let body = futures::StreamExt::chain(
        futures::stream::iter([Ok::<_, Infallible>(first)]),
        futures::StreamExt::flatten(events),
    );
    Ok(Sse::new(body).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))).into_response())
}

fn openai_finish(reason: &str) -> &'static str {
    match reason {
        "length" => "length",
        "tool_calls" => "tool_calls",
        _ => "stop",
    }
}
