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
use miniclaw_domain::tenancy::auth::account_keys;

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

/// The agents the caller may reach, as OpenAI models: an agent key's own agent, an account
/// key's agents, or every agent of the owner's tenant. Auth: `Authorization: Bearer mck_...` (any scope) or an owner session.
#[utoipa::path(get, path = "/v1/models", tag = "chat",
    security(("api_key" = []), ("owner_session" = [])),
    responses((status = 200, body = ModelList), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn list_models(State(state): State<AppState>, method: Method, headers: HeaderMap) -> ApiResult<Json<ModelList>> {
    let agents = match crate::auth::caller(&method, &headers, &state).await? {
        crate::auth::Caller::Key(scope) => {
            agents::get(state.pool(), scope.tenant_id, scope.agent_id).await?.into_iter().collect()
        }
        crate::auth::Caller::AccountKey(grant) => {
            account_keys::agents_of(state.pool(), &grant, state.config().agents_per_tenant).await?
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
    /// `system`, `user`, `assistant`, `tool` (others are ignored).
    pub role: String,
    /// Text, or an array of content parts whose `text` parts are joined.
    #[schema(value_type = Object)]
    pub content: Option<Value>,
    /// An assistant message's function calls, as the model made them:
    /// `[{id, type: "function", function: {name, arguments}}]`.
    #[schema(value_type = Option<Vec<Object>>)]
    pub tool_calls: Option<Value>,
    /// The call a `tool` message answers.
    pub tool_call_id: Option<String>,
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
    /// Functions the model may call, OpenAI's shape (`[{type: "function", function: {name,
    /// description, parameters}}]`, at most 128). The agent never runs them: a reply that calls
    /// them has `tool_calls` and `finish_reason: "tool_calls"`, and the client sends the
    /// results back as `tool` messages after that assistant message. Passed to the agent's
    /// model; the offline engine (no model configured) answers in text and refuses
    /// `tool_choice` `required` or a named function.
    #[schema(value_type = Option<Vec<Object>>)]
    pub tools: Option<Value>,
    /// `none`, `auto` (the default), `required`, or `{type: "function", function: {name}}`.
    #[schema(value_type = Option<Object>)]
    pub tool_choice: Option<Value>,
}

/// At most this many functions in one request.
const TOOLS_MAX: usize = 128;
/// The longest function description, call arguments or result, in characters.
const TOOL_TEXT_MAX: usize = 16_000;

fn check_length(field: &str, text: &str) -> ApiResult<()> {
    Ok(miniclaw_core::Error::check_length(field, text, TOOL_TEXT_MAX)?)
}

/// A function name as OpenAI accepts it.
fn function_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The request's functions, `tool_choice`, and the calls and results after the last `user`
/// message (`last`): what the turn passes to the model. `None` when the request has none of
/// them. Every mistake is a 400 naming the field.
fn client_tools(req: &CompletionRequest, last: usize) -> ApiResult<Option<chat::ClientTools>> {
    use miniclaw_platform::llm::{Message, Tool, ToolCall, ToolChoice};
    let mut tools = Vec::new();
    match &req.tools {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            if list.len() > TOOLS_MAX {
                return Err(ApiError::validation("tools", format!("at most {TOOLS_MAX} functions")));
            }
            for (i, t) in list.iter().enumerate() {
                let field = |f: &str| format!("tools[{i}]{f}");
                if t.get("type").and_then(Value::as_str) != Some("function") {
                    return Err(ApiError::validation(&field(".type"), "only `function` tools are supported"));
                }
                let f = &t["function"];
                let name = f.get("name").and_then(Value::as_str).unwrap_or_default();
                if !function_name(name) {
                    return Err(ApiError::validation(
                        &field(".function.name"),
                        "a function name is 1–64 letters, digits, `_` or `-`",
                    ));
                }
                if tools.iter().any(|t: &Tool| t.name == name) {
                    return Err(ApiError::validation(&field(".function.name"), "two functions share this name"));
                }
                let parameters = match f.get("parameters") {
                    None | Some(Value::Null) => json!({ "type": "object", "properties": {} }),
                    Some(p @ Value::Object(_)) => p.clone(),
                    Some(_) => {
                        return Err(ApiError::validation(
                            &field(".function.parameters"),
                            "must be a JSON Schema object",
                        ));
                    }
                };
                let description = f.get("description").and_then(Value::as_str).unwrap_or_default();
                check_length(&field(".function.description"), description)?;
                tools.push(Tool { name: name.into(), description: description.into(), parameters });
            }
        }
        Some(_) => return Err(ApiError::validation("tools", "must be an array of functions")),
    }
    let choice = match &req.tool_choice {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s == "auto" => Some(ToolChoice::Auto),
        Some(Value::String(s)) if s == "none" => Some(ToolChoice::None),
        Some(Value::String(s)) if s == "required" => Some(ToolChoice::Required),
        Some(v @ Value::Object(_)) if v["type"] == "function" => {
            let name = v["function"]["name"].as_str().unwrap_or_default();
            if !tools.iter().any(|t| t.name == name) {
                return Err(ApiError::validation("tool_choice", "names no function of `tools`"));
            }
            Some(ToolChoice::Function(name.into()))
        }
        Some(_) => {
            return Err(ApiError::validation(
                "tool_choice",
                "`none`, `auto`, `required` or `{\"type\": \"function\", \"function\": {\"name\": ...}}`",
            ));
        }
    };
    if matches!(choice, Some(ToolChoice::Required | ToolChoice::Function(_))) && tools.is_empty() {
        return Err(ApiError::validation("tool_choice", "asks for a function call but `tools` is empty"));
    }
    let mut exchange: Vec<Message> = Vec::new();
    for (i, m) in req.messages.iter().enumerate().skip(last + 1) {
        let field = |f: &str| format!("messages[{i}].{f}");
        let text = text_of(&m.content);
        match m.role.as_str() {
            "assistant" => {
                let mut calls = Vec::new();
                match &m.tool_calls {
                    None | Some(Value::Null) => {}
                    Some(Value::Array(list)) => {
                        for (j, c) in list.iter().enumerate() {
                            let id = c["id"].as_str().unwrap_or_default();
                            let name = c["function"]["name"].as_str().unwrap_or_default();
                            let arguments = c["function"]["arguments"].as_str();
                            let (Some(arguments), false, true) = (arguments, id.is_empty(), function_name(name)) else {
                                return Err(ApiError::validation(
                                    &field(&format!("tool_calls[{j}]")),
                                    "a call needs `id`, `function.name` and `function.arguments` (text)",
                                ));
                            };
                            check_length(&field(&format!("tool_calls[{j}].function.arguments")), arguments)?;
                            calls.push(ToolCall { id: id.into(), name: name.into(), arguments: arguments.into() });
                        }
                    }
                    Some(_) => return Err(ApiError::validation(&field("tool_calls"), "must be an array of calls")),
                }
                check_length(&field("content"), &text)?;
                if !calls.is_empty() || !text.trim().is_empty() {
                    exchange.push(Message::calls(text, calls));
                }
            }
            "tool" => {
                let id = m.tool_call_id.as_deref().unwrap_or_default();
                let called = exchange.iter().flat_map(|e| &e.tool_calls).any(|c| c.id == id);
                if !called {
                    return Err(ApiError::validation(
                        &field("tool_call_id"),
                        "answers no call of an assistant message before it (after the last `user` message)",
                    ));
                }
                check_length(&field("content"), &text)?;
                exchange.push(Message::tool_result(id, text));
            }
            _ => {}
        }
    }
    if tools.is_empty() && choice.is_none() && exchange.is_empty() {
        return Ok(None);
    }
    Ok(Some(chat::ClientTools { tools, choice, exchange }))
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
    let client = client_tools(&req, last)?;
    if let Some(c) = &client {
        use miniclaw_platform::llm::{Role, ToolChoice};
        let agent =
            agents::get(state.pool(), scope.tenant_id, agent_id).await?.ok_or_else(|| ApiError::not_found("model"))?;
        let role = if agent.tier == "premium" { Role::ChatPremium } else { Role::Chat };
        if matches!(c.choice, Some(ToolChoice::Required | ToolChoice::Function(_))) && !state.llm().paid(role) {
            return Err(ApiError::validation(
                "tool_choice",
                "no model is configured for this agent's chat: the offline engine answers in text and calls no function",
            ));
        }
    }
    let earlier: Vec<(String, String)> = req.messages[..last]
        .iter()
        .filter(|m| m.role == "user" || m.role == "assistant")
        .map(|m| (m.role.clone(), text_of(&m.content)))
        .filter(|(_, c)| !c.trim().is_empty())
        .collect();
    let (pool, audience) = (state.pool(), audience(&scope));
    // Results of calls a reply of this agent made continue that turn: the reply that called
    // is superseded by one that reads them.
    let continued_turn = match client.as_ref().and_then(|c| c.exchange.iter().rev().find_map(|m| m.tool_calls.first()))
    {
        Some(call) => chat::tool_turn(pool, agent_id, &audience, &call.id).await?,
        None => None,
    };
    if let Some((conversation, question)) = continued_turn {
        let started = chat::regenerate_with(&state, caller(&scope), conversation, question, client).await?;
        return answer(&state, started, req.model.clone(), req.stream, include_usage(&req)).await;
    }
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
    let started = chat::start_with(&state, caller(&scope), message, conversation_id, Channel::Openai, client).await?;
    answer(&state, started, req.model.clone(), req.stream, include_usage(&req)).await
}

fn include_usage(req: &CompletionRequest) -> bool {
    req.stream_options.as_ref().and_then(|o| o.get("include_usage")).and_then(Value::as_bool) == Some(true)
}

/// Function calls in the chat-completions shape (with `index` in a stream's delta).
fn wire_calls(calls: &Value, indexed: bool) -> Value {
    let calls = calls.as_array().map(Vec::as_slice).unwrap_or_default();
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut v = json!({ "id": c["id"], "type": "function",
                                "function": { "name": c["name"], "arguments": c["arguments"] } });
            if indexed {
                v["index"] = json!(i);
            }
            v
        })
        .collect()
}

/// The started turn's answer: one `chat.completion`, or its `chat.completion.chunk` events.
async fn answer(
    state: &AppState,
    started: chat::Started,
    model: String,
    stream: bool,
    include_usage: bool,
) -> ApiResult<Response> {
    let id = format!("chatcmpl-{}", started.reply_id.uuid().simple());
    let created = chrono::Utc::now().timestamp();
    if !stream {
        let chat::Finished { reply: content, meta } =
            started.done.await.map_err(|e| anyhow::anyhow!("the generation task failed: {e}"))??;
        let mut message = json!({ "role": "assistant", "content": content });
        if !meta.tool_calls.is_empty() {
            let calls = serde_json::to_value(&meta.tool_calls).map_err(anyhow::Error::from)?;
            message["tool_calls"] = wire_calls(&calls, false);
            if content.is_empty() {
                message["content"] = Value::Null;
            }
        }
        return Ok(Json(json!({
            "id": id,
            "object": "chat.completion",
            "created": created,
            "model": model,
            "choices": [{ "index": 0, "message": message, "finish_reason": openai_finish(&meta.finish_reason) }],
            "usage": { "prompt_tokens": meta.usage.prompt_tokens, "completion_tokens": meta.usage.completion_tokens, "total_tokens": meta.usage.total() },
            "miniclaw": { "conversation_id": meta.conversation_id, "message_id": meta.message_id, "intent": meta.intent,
                          "triage_skipped": meta.triage_skipped, "engine": meta.engine },
        }))
        .into_response());
    }
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
                let mut v = Vec::new();
                if meta["tool_calls"].as_array().is_some_and(|c| !c.is_empty()) {
                    v.push(chunk(json!({ "tool_calls": wire_calls(&meta["tool_calls"], true) }), None, None));
                }
                v.push(chunk(json!({}), Some(openai_finish(meta["finish_reason"].as_str().unwrap_or("stop"))), None));
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
