//! The agent as a Model Context Protocol server: `POST/GET/DELETE /mcp` on the Streamable HTTP
//! transport, the agent chosen by the `mck_` key in `Authorization: Bearer`. Each tool calls the
//! code of the REST route it mirrors and needs the same key scope; each request is authenticated
//! on its own (a revoked key stops at once, a session id alone grants nothing), and a session
//! belongs to the key that started it (another key naming its id finds no such session).
//!
//! Protocol errors (unknown tool, malformed JSON-RPC, an unsupported protocol version) are
//! JSON-RPC errors; a tool that ran and failed (bad arguments, a missing scope, an id that is
//! not this agent's) is a result with `isError` and `{"error": {"code", "message"}}`, so the
//! model that called it reads why. Sessions live in this process (an MCP client reconnects to
//! another process with a new `initialize`); protocol revisions without sessions are served
//! statelessly.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header, request::Parts};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use miniclaw_core::Error;
use miniclaw_core::ids::{ConversationId, MemoryId};
use miniclaw_domain::chat::stream::{self, Event};
use miniclaw_domain::chat::{self, Channel};
use miniclaw_domain::cognition::dossier;
use miniclaw_domain::cognition::tasks::{self, TaskInput};
use miniclaw_domain::memory::ingest::MemoryInput;
use miniclaw_domain::memory::search::{SearchFilters, SearchRequest};
use miniclaw_domain::memory::{self as memory_store};
use miniclaw_domain::onchain::economy::summary;
use miniclaw_domain::tenancy::agents;
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};
use miniclaw_platform::activity;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, JsonObject, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::api::{chat as chat_api, memories, soul as soul_api, tasks as tasks_api};
use crate::app::AppState;
use crate::auth::{self as request_auth, Caller};
use crate::error::ApiError;

/// Where the MCP endpoint is served (as the agents' registration files list it).
pub const PATH: &str = miniclaw_domain::onchain::identity::file::MCP_PATH;

/// How long a finished chat call waits for its last progress notifications to go out.
const PROGRESS_DRAIN: std::time::Duration = std::time::Duration::from_secs(5);

/// The MCP endpoint, behind key authentication.
pub fn routes(state: &AppState) -> Router<AppState> {
    let factory_state = state.clone();
    let config = StreamableHttpServerConfig::default()
        // Every request carries a key, so DNS rebinding gains a browser nothing: the public
        // host names of a deployment are not this layer's to list.
        .disable_allowed_hosts()
        .with_max_request_body_bytes(state.config().body_limit);
    let service = StreamableHttpService::new(
        move || Ok(AgentServer { state: factory_state.clone() }),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    Router::new()
        .route_service(PATH, service)
        .route_layer(axum::middleware::map_response(transport_errors))
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), authenticate))
}

/// The MCP endpoint in the OpenAPI document: its HTTP surface (the JSON-RPC messages it carries
/// are the MCP specification's).
pub struct OpenApiPaths;

impl utoipa::Modify for OpenApiPaths {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn};
        use utoipa::openapi::request_body::RequestBodyBuilder;
        use utoipa::openapi::security::SecurityRequirement;
        use utoipa::openapi::{ContentBuilder, ObjectBuilder, Required, ResponseBuilder, Type};

        let object = || ContentBuilder::new().schema(Some(ObjectBuilder::new().schema_type(Type::Object))).build();
        let text = || ContentBuilder::new().schema(Some(ObjectBuilder::new().schema_type(Type::String))).build();
        let refusals = |op: OperationBuilder| {
            [
                ("400", "Not a JSON-RPC message (-32700), or a request the transport refuses (-32600)"),
                ("401", "No agent key, or a revoked or expired one (`WWW-Authenticate: Bearer`)"),
                ("404", "An MCP session that has ended"),
                ("406", "`Accept` lacks `application/json` and `text/event-stream`"),
                ("413", "A body over the request body limit"),
                ("429", "The key's rate limit"),
            ]
            .into_iter()
            .fold(op, |op, (status, why)| {
                op.response(
                    status,
                    ResponseBuilder::new().description(why).content("application/json", object()).build(),
                )
            })
            .security(SecurityRequirement::new("api_key", ["*"]))
            .tag("mcp")
        };
        let session = || {
            ParameterBuilder::new()
                .name("Mcp-Session-Id")
                .parameter_in(ParameterIn::Header)
                .required(Required::False)
                .description(Some("The session `initialize` started (protocol revisions with sessions)"))
                .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                .build()
        };
        let post = OperationBuilder::new()
            .operation_id(Some("mcp_post"))
            .summary(Some("Send an MCP message (JSON-RPC) to the key's agent"))
            .description(Some(
                "The Streamable HTTP transport of the Model Context Protocol. Tools: chat, search_memories, \
                 add_memory, update_memory, forget_memory, list_tasks, propose_task, read_dossier, read_soul, \
                 recent_activity, economy_summary, each needing the key scope of the REST route it mirrors; \
                 resources: the agent's profile, dossier and pinned memories. Send \
                 `Accept: application/json, text/event-stream`.",
            ))
            .parameter(session())
            .request_body(Some(
                RequestBodyBuilder::new().content("application/json", object()).required(Some(Required::True)).build(),
            ))
            .response(
                "200",
                ResponseBuilder::new()
                    .description("The response, as JSON or as a Server-Sent Events stream of JSON-RPC messages")
                    .content("application/json", object())
                    .content("text/event-stream", text())
                    .build(),
            )
            .response("202", ResponseBuilder::new().description("A notification or response accepted").build());
        let get = OperationBuilder::new()
            .operation_id(Some("mcp_get"))
            .summary(Some("Open the session's stream of server messages (Server-Sent Events)"))
            .parameter(session())
            .response(
                "200",
                ResponseBuilder::new().description("The stream").content("text/event-stream", text()).build(),
            )
            .response("405", ResponseBuilder::new().description("No stream without a session").build());
        let delete = OperationBuilder::new()
            .operation_id(Some("mcp_delete"))
            .summary(Some("End an MCP session"))
            .parameter(session())
            .response("202", ResponseBuilder::new().description("Ended").build())
            .response("204", ResponseBuilder::new().description("Ended").build());
        openapi.paths.add_path_operation(PATH, vec![HttpMethod::Post], refusals(post));
        openapi.paths.add_path_operation(PATH, vec![HttpMethod::Get], refusals(get));
        openapi.paths.add_path_operation(PATH, vec![HttpMethod::Delete], refusals(delete));
    }
}

/// The transport's own refusals, which it words as plain text (a body that is not JSON-RPC, a
/// missing or unknown session, an `Accept` without the MCP media types), as JSON-RPC errors: a
/// body that does not parse is the parse error (-32700) with 400, anything else an invalid
/// request (-32600) with the transport's status.
async fn transport_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, 16 * 1024).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => String::new(),
    };
    let unparsed = status == axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE && text.contains("deserialize");
    let (status, code, message) = if unparsed {
        (axum::http::StatusCode::BAD_REQUEST, -32700, "Parse error: the body is not a JSON-RPC message".to_string())
    } else {
        let reason = status.canonical_reason().unwrap_or("refused");
        (status, -32600, if text.is_empty() { reason.to_string() } else { text })
    };
    parts.status = status;
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = json!({ "jsonrpc": "2.0", "id": null, "error": { "code": code, "message": message } });
    Response::from_parts(parts, axum::body::Body::from(body.to_string()))
}

/// Admits a request with an agent key and hands its scope to the tools; anything else is 401
/// with `WWW-Authenticate: Bearer`, before the MCP layer reads a byte of the body.
/// Which key started each MCP session of this process: a session belongs to its key, and
/// another key naming its id is answered as if the session did not exist. At most
/// `SESSION_OWNERS` are kept (the map starts over when full: the sessions it forgot are then
/// bound again by the next key that uses them, as after a restart).
static SESSION_OWNERS: LazyLock<std::sync::Mutex<std::collections::HashMap<String, String>>> =
    LazyLock::new(Default::default);
const MAX_SESSION_OWNERS: usize = 100_000;
const SESSION_HEADER: &str = "mcp-session-id";

async fn authenticate(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let refused = match request_auth::caller(request.method(), request.headers(), &state).await {
        Ok(Caller::Key(scope)) => {
            let key = scope.actor.id().unwrap_or_default();
            let named = request.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_string);
            if let Some(session) = &named {
                let owner = SESSION_OWNERS.lock().ok().and_then(|m| m.get(session).cloned());
                if owner.is_some_and(|o| o != key) {
                    let mut response = ApiError(Error::not_found("MCP session")).into_response();
                    *response.status_mut() = axum::http::StatusCode::NOT_FOUND;
                    return response;
                }
            }
            let ending = request.method() == axum::http::Method::DELETE;
            request.extensions_mut().insert(scope);
            let response = next.run(request).await;
            let started = response.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_string);
            if let (Some(session), Ok(mut owners)) = (started.or(named.clone()), SESSION_OWNERS.lock()) {
                if ending {
                    owners.remove(&session);
                } else if response.status().is_success() {
                    if owners.len() >= MAX_SESSION_OWNERS {
                        owners.clear();
                    }
                    owners.entry(session).or_insert(key);
                }
            }
            return response;
        }
        Ok(Caller::AccountKey(_)) => Error::Refused {
            code: "agent_key_required",
            message: "the MCP endpoint serves one agent: use a key of that agent, not a key of the account".into(),
        },
        Ok(Caller::Owner(_)) => Error::Unauthenticated(
            "the MCP endpoint takes an agent key (`Authorization: Bearer mck_…`), not an owner session".into(),
        ),
        Err(e) => e,
    };
    let mut response = ApiError(refused).into_response();
    if response.status() == axum::http::StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    response
}

/// One MCP session (or one stateless request) of the agent a key names.
#[derive(Clone)]
struct AgentServer {
    state: AppState,
}

/// The key's access, as the authentication layer left it on this request.
fn scope_of(context: &RequestContext<RoleServer>) -> Result<AgentScope, McpError> {
    context
        .extensions
        .get::<Parts>()
        .and_then(|parts| parts.extensions.get::<AgentScope>())
        .cloned()
        .ok_or_else(|| McpError::invalid_request("the request carries no agent key", None))
}

// ---- tool arguments ------------------------------------------------------------------------

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct ChatArgs {
    /// What to say to the agent (1–2,000 characters).
    message: String,
    /// Continue this conversation (from an earlier reply); a new one is started without it.
    #[schema(inline)]
    conversation_id: Option<ConversationId>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    /// What to look for, in words.
    query: String,
    /// 1–50, default 10.
    limit: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct UpdateArgs {
    /// The memory to change (an id from a search or an earlier tool result).
    #[schema(inline)]
    memory_id: MemoryId,
    /// New wording; the old one is kept in the memory's history.
    content: Option<String>,
    /// identity, goal, preference, interest, context, insight, knowledge, ... (lower case).
    category: Option<String>,
    /// 0–10.
    importance: Option<f32>,
    /// 0–1.
    confidence: Option<f32>,
    /// Pin (always in the agent's context) or unpin.
    pinned: Option<bool>,
    /// Why, for the history.
    reason: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct ForgetArgs {
    /// The memory to delete.
    #[schema(inline)]
    memory_id: MemoryId,
    /// Why, for the history.
    reason: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    /// 1–100, default 20.
    limit: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

/// The JSON Schema of a tool's arguments: the argument type's own schema, closed to unknown
/// fields as its deserializer is.
fn schema_of<T: utoipa::PartialSchema>() -> Arc<JsonObject> {
    let mut schema = match serde_json::to_value(T::schema()) {
        Ok(Value::Object(o)) => o,
        _ => JsonObject::new(),
    };
    schema.insert("type".into(), "object".into());
    schema.insert("additionalProperties".into(), false.into());
    Arc::new(schema)
}

/// The tools, their names, what they do, the scope each needs and their argument schema.
struct ToolSpec {
    name: &'static str,
    scope: Scope,
    description: &'static str,
    schema: fn() -> Arc<JsonObject>,
    read_only: bool,
    destructive: bool,
}

const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "chat",
        scope: chat_api::WRITE,
        description: "Send a message to the agent and get its reply. The turn is stored in a conversation of \
            the `mcp` channel; pass the returned conversation_id to continue it. With a progress token, the \
            reply's text arrives as progress notifications while it is written.",
        schema: schema_of::<ChatArgs>,
        read_only: false,
        destructive: false,
    },
    ToolSpec {
        name: "search_memories",
        scope: memories::READ,
        description: "Search the agent's long-term memory (hybrid: exact words, meaning, importance, time). \
            Returns the best memories with their ids and scores.",
        schema: schema_of::<SearchArgs>,
        read_only: true,
        destructive: false,
    },
    ToolSpec {
        name: "add_memory",
        scope: memories::WRITE,
        description: "Store a new memory. A memory that restates a live one is merged with it; one that \
            replaces a value (a new address, a changed plan) supersedes the old one.",
        schema: schema_of::<MemoryInput>,
        read_only: false,
        destructive: false,
    },
    ToolSpec {
        name: "update_memory",
        scope: memories::WRITE,
        description: "Change a memory's wording, category, importance, confidence or pin. Every change is a new \
            version in the memory's history.",
        schema: schema_of::<UpdateArgs>,
        read_only: false,
        destructive: false,
    },
    ToolSpec {
        name: "forget_memory",
        scope: memories::WRITE,
        description: "Delete a memory. Its history stays, and the agent will not learn the same fact again \
            unless the user says it again.",
        schema: schema_of::<ForgetArgs>,
        read_only: false,
        destructive: true,
    },
    ToolSpec {
        name: "list_tasks",
        scope: tasks_api::READ,
        description: "The agent's tasks, live ones (pending, approved, in progress) first, newest first.",
        schema: schema_of::<ListArgs>,
        read_only: true,
        destructive: false,
    },
    ToolSpec {
        name: "propose_task",
        scope: tasks_api::WRITE,
        description: "Propose a task for the agent. It stays `pending` until the owner approves it.",
        schema: schema_of::<TaskInput>,
        read_only: false,
        destructive: false,
    },
    ToolSpec {
        name: "read_dossier",
        scope: memories::READ,
        description: "The agent's compiled knowledge dossier (what it knows about its user, in sections) and \
            whether it is fresh.",
        schema: schema_of::<NoArgs>,
        read_only: true,
        destructive: false,
    },
    ToolSpec {
        name: "read_soul",
        scope: soul_api::READ,
        description: "The agent's current soul document: its persona, values and voice, with its version.",
        schema: schema_of::<NoArgs>,
        read_only: true,
        destructive: false,
    },
    ToolSpec {
        name: "recent_activity",
        scope: Scope::AGENT_READ,
        description: "The agent's latest state changes (memories, soul, tasks, settings), newest first, each \
            with who made it.",
        schema: schema_of::<ListArgs>,
        read_only: true,
        destructive: false,
    },
    ToolSpec {
        name: "economy_summary",
        scope: Scope("economy:read"),
        description: "The agent's economy at a glance: credits, wallet balance, tips, orders, stakes and services.",
        schema: schema_of::<NoArgs>,
        read_only: true,
        destructive: false,
    },
];

static TOOL_LIST: LazyLock<Vec<Tool>> = LazyLock::new(|| {
    TOOLS
        .iter()
        .map(|t| {
            let description = format!("{} Key scope: `{}`.", t.description, t.scope);
            Tool::new(t.name, description, (t.schema)()).with_annotations(
                ToolAnnotations::new().read_only(t.read_only).destructive(t.destructive).open_world(false),
            )
        })
        .collect()
});

/// Arguments read into `T`; what does not fit is a validation error naming the field.
fn arguments<T: DeserializeOwned>(arguments: Option<JsonObject>) -> Result<T, Error> {
    let value = Value::Object(arguments.unwrap_or_default());
    serde_path_to_error::deserialize(value).map_err(|e| {
        let field = e.path().to_string();
        let field = if field == "." { "arguments".to_string() } else { field };
        Error::validation(&field, format!("{field}: {}", e.inner()))
    })
}

/// A failed tool call as the model reads it: our error code and its public message.
fn tool_error(e: Error) -> CallToolResult {
    if let Error::Internal(err) = &e {
        tracing::error!(error = format!("{err:#}"), "an MCP tool call failed");
    }
    CallToolResult::structured_error(json!({ "error": { "code": e.code(), "message": e.public_message() } }))
}

/// A failed resource read as a JSON-RPC error.
fn protocol_error(e: Error) -> McpError {
    let data = Some(json!({ "code": e.code() }));
    match &e {
        Error::Internal(err) => {
            tracing::error!(error = format!("{err:#}"), "an MCP resource read failed");
            McpError::internal_error(e.public_message(), data)
        }
        Error::NotFound(_) => McpError::resource_not_found(e.public_message(), data),
        Error::Invalid { .. } | Error::Unprocessable { .. } => McpError::invalid_params(e.public_message(), data),
        _ => McpError::invalid_request(e.public_message(), data),
    }
}

fn limit(requested: Option<i64>) -> Result<i64, Error> {
    let n = requested.unwrap_or(20);
    if !(1..=100).contains(&n) {
        return Err(Error::validation("limit", "limit must be between 1 and 100"));
    }
    Ok(n)
}

fn value<T: serde::Serialize>(v: T) -> Result<Value, Error> {
    serde_json::to_value(v).map_err(|e| Error::Internal(e.into()))
}

impl AgentServer {
    /// Runs tool `name` for `scope`; its structured result (always a JSON object).
    async fn run(
        &self,
        scope: &AgentScope,
        name: &str,
        args: Option<JsonObject>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, Error> {
        let state = &self.state;
        let pool = state.pool();
        match name {
            "chat" => self.chat(scope, arguments(args)?, context).await,
            "search_memories" => {
                let a: SearchArgs = arguments(args)?;
                let request = SearchRequest {
                    query: a.query,
                    limit: a.limit,
                    filters: SearchFilters::default(),
                    rerank: false,
                    traversal: true,
                };
                value(memories::search(state, scope, &request).await?)
            }
            "add_memory" => value(memories::add(state, scope, arguments(args)?).await?),
            "update_memory" => {
                let a: UpdateArgs = arguments(args)?;
                let change = memories::MemoryUpdate {
                    content: a.content,
                    category: a.category,
                    importance: a.importance,
                    confidence: a.confidence,
                    pinned: a.pinned,
                    reason: a.reason,
                    ..Default::default()
                };
                value(memories::edit(state, scope, a.memory_id, change).await?)
            }
            "forget_memory" => {
                let a: ForgetArgs = arguments(args)?;
                memories::forget(state, scope, a.memory_id, a.reason.as_deref()).await?;
                Ok(json!({ "deleted": a.memory_id }))
            }
            "list_tasks" => {
                scope.require(tasks_api::READ)?;
                let a: ListArgs = arguments(args)?;
                Ok(json!({ "tasks": tasks::list(pool, scope.agent_id, limit(a.limit)?, None).await? }))
            }
            "propose_task" => {
                scope.require(tasks_api::WRITE)?;
                let input: TaskInput = arguments(args)?;
                let mover = tasks_api::mover(scope);
                value(tasks::create(pool, scope.tenant_id, scope.agent_id, &scope.origin(), mover, input).await?)
            }
            "read_dossier" => {
                scope.require(memories::READ)?;
                arguments::<NoArgs>(args)?;
                let d = dossier::get(pool, scope.agent_id).await?;
                value(d.ok_or_else(|| Error::not_found("dossier (the agent has not compiled one yet)"))?)
            }
            "read_soul" => {
                arguments::<NoArgs>(args)?;
                value(soul_api::current(state, scope).await?)
            }
            "recent_activity" => {
                scope.require(Scope::AGENT_READ)?;
                let a: ListArgs = arguments(args)?;
                Ok(json!({ "activity": activity::list_agent(pool, scope.agent_id, limit(a.limit)?, None).await? }))
            }
            "economy_summary" => {
                scope.require(Scope("economy:read"))?;
                arguments::<NoArgs>(args)?;
                let chain = state.deps().chain.as_deref();
                value(summary::of(pool, chain, scope.tenant_id, scope.agent_id).await?)
            }
            _ => Err(Error::not_found(format_args!("tool `{name}`"))),
        }
    }

    /// One chat turn through the pipeline (stored before any model call, as on every channel).
    /// With a progress token the reply's text is sent as progress while it is written; a
    /// cancelled call stops waiting, and the turn finishes and stays in its conversation.
    async fn chat(
        &self,
        scope: &AgentScope,
        a: ChatArgs,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, Error> {
        scope.require(chat_api::WRITE)?;
        let state = &self.state;
        let started = chat::start(state, chat_api::caller(scope), a.message, a.conversation_id, Channel::Mcp).await?;
        let (conversation_id, message_id) = (started.conversation_id, started.reply_id);
        let progress = context.meta.get_progress_token().map(|token| {
            let follower = state.chat_streams().follow_first(started.agent_id, started.reply_id);
            let mut events = stream::spawn_follow(state.runtime().clone(), follower, 0);
            let peer = context.peer.clone();
            let ct = context.ct.clone();
            tokio::spawn(async move {
                while let Some(Event::Delta { end, text }) = events.recv().await {
                    let progress = ProgressNotificationParam::new(token.clone(), end as f64).with_message(text);
                    if ct.is_cancelled() || peer.notify_progress(progress).await.is_err() {
                        break;
                    }
                }
            })
        });
        let finished = tokio::select! {
            done = started.done => done.map_err(|e| Error::Internal(anyhow::anyhow!("the generation task failed: {e}")))??,
            () = context.ct.cancelled() => {
                return Err(Error::Conflict("the call was cancelled; the turn goes on in its conversation".into()));
            }
        };
        // The text sent as progress arrives before the result that ends the call.
        if let Some(forwarder) = progress {
            let _ = tokio::time::timeout(PROGRESS_DRAIN, forwarder).await;
        }
        Ok(json!({
            "reply": finished.reply,
            "conversation_id": conversation_id,
            "message_id": message_id,
            "meta": finished.meta,
        }))
    }
}

/// The resources: the agent's profile, its dossier and its pinned memories.
const RESOURCES: &[(&str, &str, &str)] = &[
    (
        "miniclaw://agent/profile",
        "profile",
        "The agent's settings: name, description, tier, models. Key scope: `agent:read`.",
    ),
    ("miniclaw://agent/dossier", "dossier", "The compiled knowledge dossier, as Markdown. Key scope: `memories:read`."),
    (
        "miniclaw://agent/pinned-memories",
        "pinned-memories",
        "The memories every chat turn carries first (at most 200). Key scope: `memories:read`.",
    ),
];

impl AgentServer {
    async fn read(&self, scope: &AgentScope, uri: &str) -> Result<ResourceContents, Error> {
        let pool = self.state.pool();
        let json = |v: Value| ResourceContents::text(v.to_string(), uri).with_mime_type("application/json");
        match uri {
            "miniclaw://agent/profile" => {
                scope.require(Scope::AGENT_READ)?;
                let agent = agents::get_cached(pool, scope.tenant_id, scope.agent_id)
                    .await?
                    .ok_or_else(|| Error::not_found("agent"))?;
                Ok(json(value(agent)?))
            }
            "miniclaw://agent/dossier" => {
                scope.require(memories::READ)?;
                let d = dossier::get(pool, scope.agent_id)
                    .await?
                    .ok_or_else(|| Error::not_found("dossier (the agent has not compiled one yet)"))?;
                Ok(ResourceContents::text(d.dossier.content, uri).with_mime_type("text/markdown"))
            }
            "miniclaw://agent/pinned-memories" => {
                scope.require(memories::READ)?;
                let pinned = memory_store::pinned(pool, scope.agent_id, &scope.reader(), 200).await?;
                Ok(json(json!({ "memories": pinned })))
            }
            _ => Err(Error::not_found(format_args!("resource `{uri}`"))),
        }
    }
}

impl ServerHandler for AgentServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(Implementation::new("miniclaw", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "A persistent agent hosted on miniclaw: chat with it, search and curate its long-term memory, \
                 read its dossier, soul, tasks, activity and economy. What a tool may do is what the key's \
                 scopes allow.",
            )
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        TOOL_LIST.iter().find(|t| t.name == name).cloned()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(TOOL_LIST.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let scope = scope_of(&context)?;
        if !TOOLS.iter().any(|t| t.name == request.name) {
            return Err(McpError::invalid_params(
                format!("unknown tool `{}`", request.name),
                Some(json!({ "code": "unknown_tool" })),
            ));
        }
        let name: Cow<'static, str> = request.name;
        Ok(match self.run(&scope, &name, request.arguments, &context).await {
            Ok(v) => CallToolResult::structured(v),
            Err(e) => tool_error(e),
        }
        .into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let resources = RESOURCES
            .iter()
            .map(|(uri, name, description)| {
                let mime = if *name == "dossier" { "text/markdown" } else { "application/json" };
                Resource::new(*uri, *name).with_description(*description).with_mime_type(mime)
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let scope = scope_of(&context)?;
        let contents = self.read(&scope, &request.uri).await.map_err(protocol_error)?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_a_closed_object_schema_without_references() {
        for tool in TOOL_LIST.iter() {
            let schema = Value::Object((*tool.input_schema).clone());
            assert_eq!(schema["type"], "object", "{}", tool.name);
            assert_eq!(schema["additionalProperties"], false, "{}", tool.name);
            assert!(!schema.to_string().contains("$ref"), "{}: {schema}", tool.name);
        }
        let chat = TOOL_LIST.iter().find(|t| t.name == "chat").unwrap();
        assert_eq!(chat.input_schema["required"], json!(["message"]));
        assert!(chat.input_schema["properties"]["conversation_id"].to_string().contains("uuid"));
    }

    #[test]
    fn registration_files_list_the_newest_revision_the_server_speaks() {
        use miniclaw_domain::onchain::identity::file::MCP_VERSION;
        assert_eq!(rmcp::model::ProtocolVersion::LATEST.as_str(), MCP_VERSION);
    }

    #[test]
    fn arguments_that_do_not_fit_name_the_field() {
        let mut args = JsonObject::new();
        args.insert("query".into(), json!(7));
        let e = arguments::<SearchArgs>(Some(args)).unwrap_err();
        assert_eq!(e.code(), "validation_failed");
        assert!(e.public_message().contains("query"), "{}", e.public_message());
        let mut extra = JsonObject::new();
        extra.insert("query".into(), json!("x"));
        extra.insert("filters".into(), json!({}));
        assert!(arguments::<SearchArgs>(Some(extra)).is_err());
        assert!(arguments::<NoArgs>(None).is_ok());
    }
}
