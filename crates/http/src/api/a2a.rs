//! A2A, the Agent2Agent protocol (version 1.0, JSON-RPC binding): every agent's Agent Card,
//! and its endpoint, where another agent's message is one chat turn of the `a2a` channel and
//! that turn is the A2A task (its id is the reply's id, its context the conversation).
//!
//! `SendMessage` answers with the finished task (or at once with `returnImmediately`),
//! `SendStreamingMessage` streams it as Server-Sent Events (the task, the reply's text as
//! artifact chunks, then the final status), `GetTask` reads it back and `CancelTask` stops a
//! reply still being written. Errors are JSON-RPC errors with A2A's codes.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, SecondsFormat, Utc};
use futures::Stream;
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, ConversationId, MessageId};
use serde_json::{Value, json};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::chat::{READ, WRITE, audience, caller};
use super::extract::Path;
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::chat::stream::{self, Event};
use miniclaw_domain::chat::{self, CANCELED, Channel, TurnRecord};
use miniclaw_domain::onchain::identity::file;
use miniclaw_domain::tenancy::agents;
use miniclaw_domain::tenancy::auth::AgentScope;

/// The A2A protocol version served.
pub const VERSION: &str = file::A2A_VERSION;
/// The header a client names its A2A version in.
const VERSION_HEADER: &str = "a2a-version";
/// How long `CancelTask` waits for a stopped reply to be recorded.
const CANCEL_WAIT: Duration = Duration::from_secs(5);

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(rpc)).routes(routes!(agent_card)).routes(routes!(well_known_card))
}

/// The JSON-RPC endpoint of agent `id`.
pub fn endpoint(base_url: &str, agent: AgentId) -> String {
    format!("{base_url}/v1/hosted-agents/{agent}/a2a")
}

// ---- the Agent Card ------------------------------------------------------------------------

/// The Agent Card of agent `id`: its name and description, the JSON-RPC endpoint, bearer
/// authentication with an agent key, streaming. Public once the owner has published the agent
/// (asked for its ERC-8004 identity); before that, only to the agent's owner and keys.
#[utoipa::path(get, path = "/agents/{id}/.well-known/agent-card.json", tag = "a2a", params(("id" = Uuid, Path, description = "Agent id")),
    responses((status = 200, description = "The A2A Agent Card", content_type = "application/json"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn agent_card(
    State(state): State<AppState>,
    Path(id): Path<AgentId>,
    method: Method,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let published = file::current(state.pool(), &state.public_url(), state.config(), id).await?;
    if published.is_none() {
        crate::auth::agent_scope(&method, &headers, &state, id).await?;
    }
    serve_card(&state, id, published).await
}

/// The Agent Card of the agent whose identity lists the request's host as its domain (public).
#[utoipa::path(get, path = "/.well-known/agent-card.json", tag = "a2a",
    responses((status = 200, description = "The A2A Agent Card of the host's agent", content_type = "application/json"),
        (status = 404, body = ErrorBody)))]
async fn well_known_card(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    let agent =
        super::identity::agent_of_host(&state, &headers).await?.ok_or_else(|| ApiError::not_found("agent card"))?;
    let published = file::current(state.pool(), &state.public_url(), state.config(), agent).await?;
    serve_card(&state, agent, published).await
}

async fn serve_card(state: &AppState, id: AgentId, published: Option<Value>) -> ApiResult<Response> {
    let agent = agents::by_id(state.pool(), id).await?.ok_or_else(|| ApiError::not_found("agent"))?;
    let description = published
        .as_ref()
        .and_then(|f| f["description"].as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{}, a persistent AI agent hosted on miniclaw.", agent.name));
    let base = state.public_url();
    let card = json!({
        "name": agent.name,
        "description": description,
        "supportedInterfaces": [{ "url": endpoint(&base, id), "protocolBinding": "JSONRPC", "protocolVersion": VERSION }],
        "provider": { "organization": "miniclaw", "url": base },
        "version": env!("CARGO_PKG_VERSION"),
        "capabilities": { "streaming": true, "pushNotifications": false },
        "securitySchemes": { "agent_key": { "httpAuthSecurityScheme": {
            "scheme": "Bearer",
            "bearerFormat": "mck_<id>_<secret>",
            "description": "An API key of this agent: `chat:write` to send messages, `chat:read` to read tasks",
        } } },
        "securityRequirements": [{ "schemes": { "agent_key": { "list": [] } } }],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{
            "id": "conversation",
            "name": "Conversation",
            "description": format!("Talk with {}: it answers from what it remembers across conversations and learns from what it is told.", agent.name),
            "tags": ["chat", "memory"],
            "examples": ["What do you remember about my project?"],
        }],
    });
    Ok((
        [(header::CONTENT_TYPE, "application/json"), (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*")],
        serde_json::to_string_pretty(&card).map_err(anyhow::Error::from)?,
    )
        .into_response())
}

// ---- JSON-RPC ------------------------------------------------------------------------------

/// A JSON-RPC error: A2A's codes, and the standard ones.
struct RpcError {
    code: i64,
    message: String,
    data: Option<Value>,
}

impl RpcError {
    fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into(), data: None }
    }
    fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(-32602, message)
    }
    fn task_not_found() -> Self {
        Self::new(-32001, "task not found")
    }
}

/// A domain error as A2A's JSON-RPC error, with our code in `data`.
impl From<Error> for RpcError {
    fn from(e: Error) -> Self {
        if let Error::Internal(err) = &e {
            tracing::error!(error = format!("{err:#}"), "an A2A call failed");
        }
        let code = match &e {
            Error::Invalid { .. } | Error::Unprocessable { .. } | Error::TooLarge { .. } | Error::NotFound(_) => -32602,
            Error::Refused { .. } | Error::Unauthenticated(_) | Error::Conflict(_) => -32600,
            _ => -32603,
        };
        RpcError { code, message: e.public_message(), data: Some(json!({ "code": e.code() })) }
    }
}

fn response(id: &Value, outcome: Result<Value, RpcError>) -> Value {
    match outcome {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(e) => {
            let mut error = json!({ "code": e.code, "message": e.message });
            if let Some(data) = e.data {
                error["data"] = data;
            }
            json!({ "jsonrpc": "2.0", "id": id, "error": error })
        }
    }
}

fn json_response(body: Value) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}

/// A2A JSON-RPC for agent `id`: `SendMessage`, `SendStreamingMessage` (Server-Sent Events),
/// `GetTask`, `CancelTask`. Sending needs the key scope `chat:write`, reading `chat:read`; the
/// turns are conversations of the `a2a` channel, seen by the owner and the key's end user.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/a2a", tag = "a2a", params(("id" = Uuid, Path, description = "Agent id"),
        ("A2A-Version" = Option<String>, Header, description = "The A2A version the client speaks (1.0)")),
    request_body(content = Object, description = "A JSON-RPC 2.0 request", content_type = "application/json"),
    security(("owner_session" = []), ("api_key" = ["chat:write"])),
    responses((status = 200, description = "A JSON-RPC response, or for `SendStreamingMessage` a Server-Sent Events stream of them", content_type = "application/json"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn rpc(State(state): State<AppState>, scope: AgentScope, headers: HeaderMap, body: Bytes) -> Response {
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => {
            return json_response(response(&Value::Null, Err(RpcError::new(-32700, format!("parse error: {e}")))));
        }
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let method = match (&request["jsonrpc"], request["method"].as_str(), &id) {
        (Value::String(v), Some(m), Value::String(_) | Value::Number(_)) if v == "2.0" => m.to_string(),
        _ => {
            let e = RpcError::new(-32600, "expected a JSON-RPC 2.0 request with a method and an id");
            return json_response(response(&id, Err(e)));
        }
    };
    if let Some(v) = headers.get(VERSION_HEADER).and_then(|v| v.to_str().ok())
        && v.trim().split('.').next() != Some("1")
    {
        let e = RpcError::new(-32009, format!("A2A version {v} is not supported; this agent speaks {VERSION}"));
        return json_response(response(&id, Err(e)));
    }
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    let outcome = match method.as_str() {
        "SendMessage" => send(&state, &scope, &params).await,
        "SendStreamingMessage" => match start(&state, &scope, &params).await {
            Ok(started) => return stream_task(state, id, started).into_response(),
            Err(e) => Err(e),
        },
        "GetTask" => get(&state, &scope, &params).await,
        "CancelTask" => cancel(&state, &scope, &params).await,
        m if m.contains("PushNotification") => Err(RpcError::new(-32003, "push notifications are not supported")),
        m => Err(RpcError::new(-32601, format!("method `{m}` not found"))),
    };
    json_response(response(&id, outcome))
}

/// The text of a `SendMessage` request's message and the conversation it continues.
fn read_message(params: &Value) -> Result<(String, Option<ConversationId>), RpcError> {
    let message = params
        .get("message")
        .filter(|m| m.is_object())
        .ok_or_else(|| RpcError::invalid_params("`message` is required"))?;
    if let Some(role) = message.get("role").and_then(Value::as_str)
        && role != "ROLE_USER"
    {
        return Err(RpcError::invalid_params("a message to the agent has the role ROLE_USER"));
    }
    if message.get("taskId").and_then(Value::as_str).is_some_and(|t| !t.is_empty()) {
        return Err(RpcError::new(
            -32004,
            "a task holds one turn and takes no further message; send with its contextId to continue the conversation",
        ));
    }
    let parts = message["parts"].as_array().ok_or_else(|| RpcError::invalid_params("`message.parts` is required"))?;
    let mut text = String::new();
    for part in parts {
        match part.get("text").and_then(Value::as_str) {
            Some(t) => {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(t);
            }
            None => return Err(RpcError::new(-32005, "only text parts are accepted (text/plain)")),
        }
    }
    let context = match message.get("contextId").and_then(Value::as_str).filter(|c| !c.is_empty()) {
        Some(c) => Some(
            c.parse::<ConversationId>()
                .map_err(|_| RpcError::invalid_params("`contextId` is not a context of this agent"))?,
        ),
        None => None,
    };
    Ok((text, context))
}

/// A turn started for a `SendMessage` request, with what its task shows before the reply.
struct Started {
    turn: chat::Started,
    request: String,
    at: DateTime<Utc>,
}

async fn start(state: &AppState, scope: &AgentScope, params: &Value) -> Result<Started, RpcError> {
    scope.require(WRITE)?;
    let (text, context) = read_message(params)?;
    let turn = chat::start(state, caller(scope), text.clone(), context, Channel::A2a).await?;
    Ok(Started { turn, request: text, at: Utc::now() })
}

async fn send(state: &AppState, scope: &AgentScope, params: &Value) -> Result<Value, RpcError> {
    let started = start(state, scope, params).await?;
    let immediately = params["configuration"]["returnImmediately"].as_bool().unwrap_or(false);
    let Started { turn, request, at } = started;
    let task = Task { id: turn.reply_id, context: turn.conversation_id, asked: turn.user_message_id, request };
    if immediately {
        return Ok(json!({ "task": task.json("TASK_STATE_WORKING", "", None, at) }));
    }
    // A failed turn is a failed task (read back below), not an error of the call.
    if let Err(e) = turn.done.await {
        return Err(Error::Internal(anyhow::anyhow!("the generation task failed: {e}")).into());
    }
    let record = chat::turn_record(state.pool(), scope.agent_id, &audience(scope), task.id, Channel::A2a)
        .await?
        .ok_or_else(RpcError::task_not_found)?;
    Ok(json!({ "task": task_of(task.id, &record) }))
}

async fn get(state: &AppState, scope: &AgentScope, params: &Value) -> Result<Value, RpcError> {
    scope.require(READ)?;
    let id = task_id(params)?;
    let record = chat::turn_record(state.pool(), scope.agent_id, &audience(scope), id, Channel::A2a)
        .await?
        .ok_or_else(RpcError::task_not_found)?;
    Ok(task_of(id, &record))
}

async fn cancel(state: &AppState, scope: &AgentScope, params: &Value) -> Result<Value, RpcError> {
    scope.require(WRITE)?;
    let id = task_id(params)?;
    let pool = state.pool();
    let audience = audience(scope);
    let read = || chat::turn_record(pool, scope.agent_id, &audience, id, Channel::A2a);
    let record = read().await?.ok_or_else(RpcError::task_not_found)?;
    if record.status != "streaming" {
        return Err(RpcError::new(-32002, "the task has already ended"));
    }
    if !state.chat_streams().stop(id) {
        return Err(RpcError::new(
            -32002,
            "the task is being answered by another server process and cannot be stopped from here",
        ));
    }
    let deadline = tokio::time::Instant::now() + CANCEL_WAIT;
    loop {
        let record = read().await?.ok_or_else(RpcError::task_not_found)?;
        if record.status != "streaming" || tokio::time::Instant::now() >= deadline {
            return Ok(task_of(id, &record));
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

fn task_id(params: &Value) -> Result<MessageId, RpcError> {
    params["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| RpcError::invalid_params("`id` is required: a task id this agent gave"))
}

// ---- tasks ---------------------------------------------------------------------------------

/// A task: one turn of the `a2a` channel.
struct Task {
    id: MessageId,
    context: ConversationId,
    asked: MessageId,
    request: String,
}

fn text_message(id: impl std::fmt::Display, role: &str, text: &str, task: MessageId, context: ConversationId) -> Value {
    json!({ "messageId": id.to_string(), "role": role, "parts": [{ "text": text }],
            "taskId": task.to_string(), "contextId": context.to_string() })
}

impl Task {
    /// The task in `state` with the reply's text so far and, when it ended badly, why.
    fn json(&self, state: &str, reply: &str, reason: Option<&str>, at: DateTime<Utc>) -> Value {
        let mut status = json!({ "state": state, "timestamp": at.to_rfc3339_opts(SecondsFormat::Millis, true) });
        let said = match (state, reason) {
            ("TASK_STATE_COMPLETED", _) => Some(reply),
            (_, Some(why)) => Some(why),
            _ => None,
        };
        if let Some(text) = said {
            status["message"] = text_message(self.id, "ROLE_AGENT", text, self.id, self.context);
        }
        let artifacts: Vec<Value> = if reply.is_empty() {
            vec![]
        } else {
            vec![json!({ "artifactId": "reply", "name": "reply", "parts": [{ "text": reply }] })]
        };
        json!({
            "id": self.id.to_string(),
            "contextId": self.context.to_string(),
            "status": status,
            "artifacts": artifacts,
            "history": [text_message(self.asked, "ROLE_USER", &self.request, self.id, self.context)],
        })
    }
}

fn task_of(id: MessageId, r: &TurnRecord) -> Value {
    let state = match (r.status.as_str(), r.error.as_deref()) {
        ("complete" | "superseded", _) => "TASK_STATE_COMPLETED",
        ("error", Some(CANCELED)) => "TASK_STATE_CANCELED",
        ("error", _) => "TASK_STATE_FAILED",
        _ => "TASK_STATE_WORKING",
    };
    let task = Task { id, context: r.conversation_id, asked: r.user_message_id, request: r.request.clone() };
    task.json(state, &r.reply, r.error.as_deref(), r.updated_at)
}

/// A streamed task: the task as it starts, the reply's text as it is written (artifact chunks),
/// then the final status.
fn stream_task(
    state: AppState,
    rpc_id: Value,
    started: Started,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let Started { turn, request, at } = started;
    let task = Task { id: turn.reply_id, context: turn.conversation_id, asked: turn.user_message_id, request };
    let follower = state.chat_streams().follow_first(turn.agent_id, turn.reply_id);
    let rx = stream::spawn_follow(state.runtime().clone(), follower, 0);
    let event = |rpc_id: &Value, result: Value| {
        Ok(SseEvent::default().data(json!({ "jsonrpc": "2.0", "id": rpc_id, "result": result }).to_string()))
    };
    let first = event(&rpc_id, json!({ "task": task.json("TASK_STATE_WORKING", "", None, at) }));
    let rest = futures::stream::unfold((rx, String::new(), false), move |(mut rx, mut text, ended)| {
        let rpc_id = rpc_id.clone();
        let (task_id, context_id) = (task.id, task.context);
        let (id, context) = (task_id.to_string(), context_id.to_string());
        async move {
            let finished = |state: &str, message: &str| {
                json!({ "statusUpdate": { "taskId": id, "contextId": context, "status": {
                    "state": state,
                    "timestamp": Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true),
                    "message": text_message(task_id, "ROLE_AGENT", message, task_id, context_id),
                } } })
            };
            if ended {
                return None;
            }
            let (result, ended) = match rx.recv().await? {
                Event::Delta { text: chunk, .. } => {
                    let append = !text.is_empty();
                    text.push_str(&chunk);
                    let update = json!({ "artifactUpdate": { "taskId": id, "contextId": context,
                        "artifact": { "artifactId": "reply", "name": "reply", "parts": [{ "text": chunk }] },
                        "append": append, "lastChunk": false } });
                    (update, false)
                }
                Event::Done(_) => (finished("TASK_STATE_COMPLETED", &text), true),
                Event::Failed { code, message } => {
                    let state = if code == "canceled" { "TASK_STATE_CANCELED" } else { "TASK_STATE_FAILED" };
                    (finished(state, &message), true)
                }
            };
            Some((event(&rpc_id, result), (rx, text, ended)))
        }
    });
    Sse::new(futures::StreamExt::chain(futures::stream::iter([first]), rest))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
