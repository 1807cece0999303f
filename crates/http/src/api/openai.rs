//! The OpenAI-compatible endpoint (SPEC P8): `POST /v1/chat/completions` with the agent id as
//! `model`, answered by the same pipeline as the agent's own chat route, as one completion or
//! as `chat.completion.chunk` events; `GET /v1/models` lists the agents a caller may talk to,
//! as OpenAI clients expect before their first call. Errors on these routes carry OpenAI's
//! fields (`message`, `type`, `param`, `code`) besides our own.

use miniclaw_core::ids::{AgentId, ConversationId};
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, Method};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::chat::{WRITE, audience, caller};
use super::extract::{Json, Path};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::chat::stream::{self, Event};
use miniclaw_domain::chat::{self, Channel};
use miniclaw_domain::tenancy::agents;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(chat_completions))
        .routes(routes!(list_models))
        .routes(routes!(get_model))
        .layer(axum::middleware::map_response(openai_errors))
}

/// OpenAI's error fields on our error body: `type` from the status, `param` from the field the
/// error names; `code` and `message` are already there. OpenAI clients read these to raise
/// their own error classes (`BadRequestError`, `AuthenticationError`, ...).
async fn openai_errors(response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let kind = match status.as_u16() {
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        429 => "rate_limit_error",
        400..=499 => "invalid_request_error",
        _ => "server_error",
    };
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 64 * 1024).await else {
        return (parts.status, Json(json!({ "error": { "message": "the error could not be read", "type": kind } })))
            .into_response();
    };
    let Ok(mut v) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(parts, axum::body::Body::from(bytes));
    };
    if let Some(e) = v.get_mut("error").and_then(Value::as_object_mut) {
        let param = e.get("details").and_then(|d| d.get("field")).cloned().unwrap_or(Value::Null);
        e.insert("type".into(), kind.into());
        e.insert("param".into(), param);
    }
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(v.to_string()))
}

/// One agent as an OpenAI model.
#[derive(Debug, Serialize, ToSchema)]
pub struct Model {
    /// The agent id: what `model` takes in a chat completion.
    pub id: AgentId,
    /// Always `model`.
    pub object: &'static str,
    /// When the agent was created (Unix seconds).
    pub created: i64,
    /// Always `miniclaw`.
    pub owned_by: &'static str,
    /// The agent's name (extension).
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ModelList {
    /// Always `list`.
    pub object: &'static str,
    pub data: Vec<Model>,
}

fn model(a: &miniclaw_domain::tenancy::agents::Agent) -> Model {
    Model { id: a.id, object: "model", created: a.created_at.timestamp(), owned_by: "miniclaw", name: a.name.clone() }
}

/// The agents the caller may reach, as OpenAI models: a key's own agent, or every agent of the
/// owner's tenant. Auth: `Authorization: Bearer mck_...` (any scope) or an owner session.
#[utoipa::path(get, path = "/v1/models", tag = "chat",
    security(("api_key" = []), ("owner_session" = [])),
    responses((status = 200, body = ModelList), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn list_models(State(state): State<AppState>, method: Method, headers: HeaderMap) -> ApiResult<Json<ModelList>> {
    let agents = match crate::auth::caller(&method, &headers, &state).await? {
        crate::auth::Caller::Key(scope) => {
            agents::get(state.pool(), scope.tenant_id, scope.agent_id).await?.into_iter().collect()
        }
        crate::auth::Caller::Owner(owner) => {
            agents::list(state.pool(), owner.tenant_id, state.config().agents_per_tenant, None).await?
        }
    };
    Ok(Json(ModelList { object: "list", data: agents.iter().map(model).collect() }))
}

/// One agent as an OpenAI model; an agent the caller cannot reach is a 404.
#[utoipa::path(get, path = "/v1/models/{model}", tag = "chat",
    params(("model" = String, Path, description = "The agent id")),
    security(("api_key" = []), ("owner_session" = [])),
    responses((status = 200, body = Model), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn get_model(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Path(raw): Path<String>,
) -> ApiResult<Json<Model>> {
    let agent_id = raw.trim().parse::<AgentId>().map_err(|_| ApiError::not_found("model"))?;
    let scope = crate::auth::agent_scope(&method, &headers, &state, agent_id).await?;
    let agent =
        agents::get(state.pool(), scope.tenant_id, agent_id).await?.ok_or_else(|| ApiError::not_found("model"))?;
    Ok(Json(model(&agent)))
}

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
    pub conversation_id: Option<ConversationId>,
    /// The miniapp end user the call is for (1–128 characters): the conversation is theirs and
    /// only their conversations are continued. A key bound to an end user refuses another (403).
    pub user: Option<String>,
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
/// turn. With no `conversation_id`, earlier messages that are exactly a stored conversation of
/// the caller's end user continue it (each message is stored once, however often a client
/// sends the history again); other earlier messages start a new conversation. `stream: true`
/// answers with `chat.completion.chunk` events and `[DONE]`. Auth: `Authorization: Bearer
/// mck_...` with `chat:write` (or an owner session).
#[utoipa::path(post, path = "/v1/chat/completions", tag = "chat", request_body = CompletionRequest,
    security(("api_key" = ["chat:write"]), ("owner_session" = [])),
    responses((status = 200, description = "chat.completion, or chat.completion.chunk events with `stream: true`"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 502, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn chat_completions(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Json(req): Json<CompletionRequest>,
) -> ApiResult<Response> {
    let agent_id = req
        .model
        .trim()
        .parse::<AgentId>()
        .map_err(|_| ApiError::validation("model", "`model` must be the id of one of your hosted agents"))?;
    let mut scope = crate::auth::agent_scope(&method, &headers, &state, agent_id).await?;
    scope.require(WRITE)?;
    scope.act_for(req.user.as_deref(), "user")?;
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
    let (pool, audience) = (state.pool(), audience(&scope));
    let conversation_id = match req.conversation_id {
        Some(id) => Some(id),
        None if !earlier.is_empty() => match chat::continued(pool, agent_id, &audience, &earlier).await? {
            Some(id) => Some(id),
            None => {
                // Refuse an exhausted budget (and a full agent) before the history is stored
                // (`start` checks the turn itself in the statement that stores it).
                chat::budget_first(&state, &caller(&scope)).await?;
                chat::check_room(pool, agent_id, state.config().caps.conversations_per_agent).await?;
                Some(chat::seed_conversation(pool, agent_id, &audience, Channel::Openai, &earlier).await?)
            }
        },
        None => None,
    };
    let started = chat::start(&state, caller(&scope), message, conversation_id, Channel::Openai).await?;
    let id = format!("chatcmpl-{}", started.reply_id.uuid().simple());
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
    let follower = state.chat_streams().follow_first(started.agent_id, started.reply_id);
    let rx = stream::spawn_follow(state.runtime().clone(), follower, 0);
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
