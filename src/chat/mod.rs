//! The chat pipeline (SPEC P1–P8): the user's message is stored first, then triage decides
//! what the turn needs, context is loaded selectively, the reply is generated (streamed into
//! its row as it is produced), and calibration learns from the exchange after the reply.

pub mod calibrate;
pub mod context;
pub mod prompt;
pub mod stream;
pub mod triage;

use std::time::Instant;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::activity::Origin;
use crate::agents::Agent;
use crate::app::AppState;
use crate::error::ApiError;
use crate::llm::offline::triage::Triage;
use crate::llm::{CallContext, ChatRequest, ChatResponse, LlmError, Message, Role, Tool, Usage};
use context::UsedMemory;
use stream::Event;

/// Longest message a user may send (P1).
pub const MESSAGE_MAX_CHARS: usize = 2000;
/// Conversation messages given to the chat model, and how much of each.
pub const HISTORY_MESSAGES: i64 = 10;
pub const HISTORY_CHARS: usize = 1000;
/// A reply still `streaming` after this long belongs to a generation that died.
pub const STALE_STREAM_SECS: i64 = 300;

/// Where a message came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Web,
    Api,
    Openai,
    Telegram,
    Email,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Web => "web",
            Channel::Api => "api",
            Channel::Openai => "openai",
            Channel::Telegram => "telegram",
            Channel::Email => "email",
        }
    }
}

/// A conversation of one agent.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Conversation {
    pub id: Uuid,
    pub agent_id: Uuid,
    pub title: String,
    pub channel: String,
    pub message_count: i32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// One message of a conversation.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct ChatMessage {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub position: i32,
    /// `user` or `assistant`.
    pub role: String,
    pub content: String,
    /// user: `pending`, `complete`, `error`; assistant: `streaming`, `complete`, `error`, `superseded`.
    pub status: String,
    pub error: Option<String>,
    pub channel: String,
    /// For a reply: the user message it answers.
    pub reply_to: Option<Uuid>,
    /// For a reply: intent, triage_skipped, memories_used, engine, model, usage, ...
    #[schema(value_type = Object)]
    pub meta: Value,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

pub(crate) const MESSAGE_COLUMNS: &str =
    "id, conversation_id, position, role, content, status, error, channel, reply_to, meta, created_at, updated_at";

/// The final metadata of a reply: what the JSON answer and the SSE `done` event carry.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReplyMeta {
    pub conversation_id: Uuid,
    pub user_message_id: Uuid,
    pub message_id: Uuid,
    pub intent: String,
    pub response_style: String,
    pub triage_skipped: bool,
    /// `trivial`, `tool_keyword`, `brief` when the pre-filter decided.
    pub skip_reason: Option<String>,
    /// Why triage fell back to its fail-open defaults.
    pub triage_error: Option<String>,
    #[schema(value_type = Vec<Object>)]
    pub memories_used: Vec<UsedMemory>,
    #[schema(value_type = Object)]
    pub searched: context::Searched,
    /// `model` or `offline`.
    pub engine: String,
    pub provider: String,
    pub model: String,
    pub usage: Usage,
    pub finish_reason: String,
    pub channel: String,
    /// Where the turn's time went, in milliseconds.
    pub timings: Timings,
}

/// Milliseconds per stage of a turn (the model's own time is in `generation_ms`).
#[derive(Debug, Clone, Copy, Default, Serialize, ToSchema)]
pub struct Timings {
    pub setup_ms: f64,
    pub triage_ms: f64,
    pub embed_ms: f64,
    pub context_ms: f64,
    pub generation_ms: f64,
}

fn ms_since(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0
}

/// Checks a message: not empty, at most 2,000 characters.
pub fn validate(message: &str) -> Result<(), ApiError> {
    if message.trim().is_empty() {
        return Err(ApiError::validation("message", "the message is empty"));
    }
    let n = message.chars().count();
    if n > MESSAGE_MAX_CHARS {
        return Err(ApiError::validation(
            "message",
            format!("the message has {n} characters; the limit is {MESSAGE_MAX_CHARS}"),
        ));
    }
    Ok(())
}

/// Who is chatting, with what agent.
#[derive(Debug, Clone)]
pub struct Caller {
    pub tenant_id: Uuid,
    pub agent_id: Uuid,
    pub origin: Origin,
}

impl Caller {
    /// The context of the turn's own calls (triage, reply, tools): the budgets admitted the turn
    /// when it was stored (`start`, `regenerate`), so they are not checked again call by call.
    fn call_context(&self) -> CallContext {
        CallContext {
            agent_id: Some(self.agent_id),
            tenant_id: Some(self.tenant_id),
            background: false,
            request_id: self.origin.request_id.clone(),
            admitted: true,
        }
    }
}

/// A turn that has been stored and is being generated.
pub struct Started {
    pub conversation_id: Uuid,
    pub user_message_id: Uuid,
    pub reply_id: Uuid,
    /// Resolves with the reply, or the failure (also stored on the messages).
    pub done: tokio::task::JoinHandle<Result<Finished, ApiError>>,
}

/// A completed reply: its text as stored, with its metadata.
pub struct Finished {
    pub reply: String,
    pub meta: ReplyMeta,
}

/// The agent's daily token budget, checked before anything is stored (429 with the reset time).
pub async fn budget_first(state: &AppState, caller: &Caller) -> Result<(), ApiError> {
    match crate::llm::budget::check(state.pool(), Some(caller.agent_id), Some(caller.tenant_id), false).await? {
        Ok(()) => Ok(()),
        Err(refusal) => Err(LlmError::Refused(refusal).into()),
    }
}

/// The agent with what a turn reads beside it: the calibration profile (for triage), the
/// current soul (for the prompt) and the conversation so far.
#[derive(sqlx::FromRow)]
struct TurnAgent {
    #[sqlx(flatten)]
    agent: Agent,
    calibration: Option<Value>,
    soul: Option<String>,
    /// The last completed messages before this one as `[role, content]`, oldest first.
    history: sqlx::types::Json<Vec<(String, String)>>,
    /// The context probe, made along when the turn may want context.
    #[sqlx(flatten)]
    available: context::Available,
    probed: bool,
}

fn title_of(message: &str) -> String {
    let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= 60 {
        one_line
    } else {
        format!("{}…", one_line.chars().take(59).collect::<String>())
    }
}

/// What `start`'s statement answers: the budgets it judged, and where the message went.
#[derive(sqlx::FromRow)]
struct Stored {
    #[sqlx(flatten)]
    limits: crate::llm::budget::Limits,
    within: bool,
    position: Option<i32>,
    created_at: Option<DateTime<Utc>>,
}

/// Stores the user's message (and an empty reply that will stream into its row) and starts
/// generating. The agent's daily budget (and the tenant's monthly one) is checked in the same
/// statement, before anything is stored: over budget, nothing is written (429).
pub async fn start(
    state: &AppState,
    caller: Caller,
    message: String,
    conversation_id: Option<Uuid>,
    channel: Channel,
) -> Result<Started, ApiError> {
    validate(&message)?;
    // One statement, so one round trip and one commit: the budgets, the conversation (its row
    // lock orders concurrent messages), the user message and the reply to come. The user
    // message is durable before any model is asked.
    let (user_message_id, reply_id) = (Uuid::now_v7(), Uuid::now_v7());
    let (conversation_id, new_conversation) = match conversation_id {
        Some(id) => (id, false),
        None => (Uuid::now_v7(), true),
    };
    let sql = format!(
        "WITH limits AS (SELECT {}
         ), allowed AS (SELECT 1 FROM limits WHERE {}
         ), created AS (
            INSERT INTO conversations (id, agent_id, title, channel, message_count)
            SELECT $1, $2, $7, $6, 2 WHERE $8 AND EXISTS (SELECT 1 FROM allowed) RETURNING id, 0 AS position
         ), existing AS (
            UPDATE conversations SET message_count = message_count + 2, updated_at = now()
             WHERE id = $1 AND agent_id = $2 AND NOT $8 AND EXISTS (SELECT 1 FROM allowed)
            RETURNING id, message_count - 2 AS position
         ), conversation AS (SELECT * FROM created UNION ALL SELECT * FROM existing
         ), question AS (
            INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel)
            SELECT $3, id, $2, position, 'user', $5, 'pending', $6 FROM conversation RETURNING position, created_at
         ), reply AS (
            INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, reply_to)
            SELECT $4, id, $2, position + 1, 'assistant', '', 'streaming', $6, $3 FROM conversation
         )
         SELECT l.*, EXISTS (SELECT 1 FROM allowed) AS within, q.position, q.created_at
           FROM limits l LEFT JOIN question q ON true",
        crate::llm::budget::limits_sql("$2", "$9", "ARRAY[]::text[]", "now()", "false"),
        crate::llm::budget::WITHIN_SQL
    );
    let now = Utc::now();
    let stored: Stored = sqlx::query_as(&sql)
        .bind(conversation_id)
        .bind(caller.agent_id)
        .bind(user_message_id)
        .bind(reply_id)
        .bind(&message)
        .bind(channel.as_str())
        .bind(title_of(&message))
        .bind(new_conversation)
        .bind(caller.tenant_id)
        .fetch_one(state.pool())
        .await?;
    if !stored.within {
        // The statement's own condition decided; `judge` (the same rules) says why.
        let refusal = crate::llm::budget::judge(stored.limits, now)
            .err()
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("the budget statement and its rules disagree")))?;
        return Err(LlmError::Refused(refusal).into());
    }
    let stored = stored.position.zip(stored.created_at);
    let (position, user_created) = stored.ok_or_else(|| ApiError::not_found("conversation"))?;

    let turn = Turn {
        caller,
        conversation_id,
        user_message_id,
        user_position: position,
        user_created,
        reply_id,
        message,
        channel,
        messages: position + 2,
    };
    Ok(spawn(state, turn))
}

async fn insert_reply(
    conn: &mut sqlx::PgConnection,
    reply_id: Uuid,
    conversation_id: Uuid,
    agent_id: Uuid,
    position: i32,
    user_message_id: Uuid,
    channel: Channel,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, reply_to)
         VALUES ($1, $2, $3, $4, 'assistant', '', 'streaming', $5, $6)",
    )
    .bind(reply_id)
    .bind(conversation_id)
    .bind(agent_id)
    .bind(position)
    .bind(channel.as_str())
    .bind(user_message_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Generates a new reply to a user message (or to the message an assistant reply answered).
/// Earlier replies to it are marked `superseded`. 409 while a reply to it is still streaming.
pub async fn regenerate(
    state: &AppState,
    caller: Caller,
    conversation_id: Uuid,
    message_id: Uuid,
) -> Result<Started, ApiError> {
    budget_first(state, &caller).await?;
    let mut tx = state.pool().begin().await?;
    let found: Option<(Uuid, String)> = sqlx::query_as(
        "SELECT m.id, m.role FROM chat_messages m
          WHERE m.id = $1 AND m.conversation_id = $2 AND m.agent_id = $3",
    )
    .bind(message_id)
    .bind(conversation_id)
    .bind(caller.agent_id)
    .fetch_optional(&mut *tx)
    .await?;
    let (id, role) = found.ok_or_else(|| ApiError::not_found("message"))?;
    let user_id = if role == "user" {
        id
    } else {
        sqlx::query_scalar::<_, Option<Uuid>>("SELECT reply_to FROM chat_messages WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await?
            .ok_or_else(|| ApiError::not_found("message"))?
    };
    // Lock the conversation: one regeneration at a time.
    sqlx::query("SELECT 1 FROM conversations WHERE id = $1 FOR UPDATE").bind(conversation_id).execute(&mut *tx).await?;
    let (content, position, created, channel): (String, i32, DateTime<Utc>, String) =
        sqlx::query_as("SELECT content, position, created_at, channel FROM chat_messages WHERE id = $1")
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
    let streaming: bool = sqlx::query_scalar(&format!(
        "SELECT EXISTS (SELECT 1 FROM chat_messages WHERE reply_to = $1 AND status = 'streaming'
           AND updated_at > now() - interval '{STALE_STREAM_SECS} seconds')"
    ))
    .bind(user_id)
    .fetch_one(&mut *tx)
    .await?;
    if streaming {
        return Err(ApiError::Conflict("a reply to this message is still being generated".into()));
    }
    sqlx::query(
        "UPDATE chat_messages SET status = 'superseded', updated_at = now()
          WHERE reply_to = $1 AND status IN ('complete', 'error', 'streaming')",
    )
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE chat_messages SET status = 'pending', error = NULL, updated_at = now() WHERE id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let reply_position: i32 = sqlx::query_scalar(
        "UPDATE conversations SET message_count = message_count + 1, updated_at = now() WHERE id = $1
         RETURNING message_count - 1",
    )
    .bind(conversation_id)
    .fetch_one(&mut *tx)
    .await?;
    let channel = match channel.as_str() {
        "web" => Channel::Web,
        "openai" => Channel::Openai,
        "telegram" => Channel::Telegram,
        "email" => Channel::Email,
        _ => Channel::Api,
    };
    let reply_id = Uuid::now_v7();
    insert_reply(&mut tx, reply_id, conversation_id, caller.agent_id, reply_position, user_id, channel).await?;
    tx.commit().await?;
    let turn = Turn {
        caller,
        conversation_id,
        user_message_id: user_id,
        user_position: position,
        user_created: created,
        reply_id,
        message: content,
        channel,
        messages: reply_position + 1,
    };
    Ok(spawn(state, turn))
}

/// Everything one generation needs.
struct Turn {
    caller: Caller,
    conversation_id: Uuid,
    user_message_id: Uuid,
    user_position: i32,
    user_created: DateTime<Utc>,
    reply_id: Uuid,
    message: String,
    channel: Channel,
    /// Messages in the conversation once the reply is in.
    messages: i32,
}

fn spawn(state: &AppState, turn: Turn) -> Started {
    let (conversation_id, user_message_id, reply_id) = (turn.conversation_id, turn.user_message_id, turn.reply_id);
    let events = state.chat_streams().open(reply_id);
    let state = state.clone();
    let done = tokio::spawn(async move {
        use futures::FutureExt;
        // A panic is a failed generation like any other: the messages must not stay pending.
        let result = match std::panic::AssertUnwindSafe(generate(&state, &turn, &events)).catch_unwind().await {
            Ok(r) => r,
            Err(_) => Err(ApiError::Internal(anyhow::anyhow!("the generation panicked"))),
        };
        if let Err(e) = &result {
            fail(&state, &turn, e, &events).await;
        }
        state.chat_streams().close(turn.reply_id);
        result
    });
    Started { conversation_id, user_message_id, reply_id, done }
}

/// Records a failed generation: both messages get the error status (the user message can be
/// regenerated), the reply keeps whatever text it had.
async fn fail(state: &AppState, turn: &Turn, e: &ApiError, events: &tokio::sync::broadcast::Sender<Event>) {
    let message = e.to_string();
    tracing::warn!(agent_id = %turn.caller.agent_id, reply_id = %turn.reply_id, error = %message, "chat generation failed");
    let stored = sqlx::query(
        "UPDATE chat_messages SET status = 'error', error = $3, updated_at = now()
              WHERE id IN ($1, $2) AND status IN ('pending', 'streaming')",
    )
    .bind(turn.user_message_id)
    .bind(turn.reply_id)
    .bind(&message)
    .execute(state.pool())
    .await;
    if let Err(db) = stored {
        tracing::error!(error = %db, "could not record the failed generation");
    }
    let _ = events.send(Event::Failed { code: e.code().into(), message });
}

/// Appends streamed text to the reply row, then announces it. Text that arrives while a write
/// is in flight is written together with the next one.
async fn persist_deltas(
    pool: &PgPool,
    reply_id: Uuid,
    mut rx: tokio::sync::mpsc::Receiver<String>,
    events: &tokio::sync::broadcast::Sender<Event>,
) -> Result<usize, sqlx::Error> {
    let mut written = 0usize;
    while let Some(first) = rx.recv().await {
        let mut text = first;
        while let Ok(more) = rx.try_recv() {
            text.push_str(&more);
        }
        if text.is_empty() {
            continue;
        }
        sqlx::query("UPDATE chat_messages SET content = content || $2, updated_at = now() WHERE id = $1")
            .bind(reply_id)
            .bind(&text)
            .execute(pool)
            .await?;
        written += text.len();
        let _ = events.send(Event::Delta { end: written, text });
    }
    Ok(written)
}

fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "search_memory".into(),
            description: "Search your long-term memory about the user and your knowledge base.".into(),
            parameters: json!({ "type": "object", "properties": { "query": { "type": "string" } }, "required": ["query"] }),
        },
        Tool {
            name: "recent_activity".into(),
            description: "Your own recent activity log (what happened to you and what you did).".into(),
            parameters: json!({ "type": "object", "properties": { "limit": { "type": "integer", "minimum": 1, "maximum": 20 } } }),
        },
    ]
}

/// Runs the tools the model asked for and returns their results as text.
async fn run_tools(state: &AppState, turn: &Turn, calls: &[crate::llm::ToolCall]) -> String {
    let mut out = String::from("Results of the tools you called:\n");
    for call in calls.iter().take(3) {
        let args: Value = serde_json::from_str(&call.arguments).unwrap_or(Value::Null);
        let result = match call.name.as_str() {
            "search_memory" => {
                let query = args.get("query").and_then(Value::as_str).unwrap_or(&turn.message).to_string();
                let searcher = crate::memory::search::Searcher {
                    pool: state.pool(),
                    embedder: state.embedder(),
                    llm: state.llm(),
                    ctx: turn.caller.call_context(),
                };
                let req = crate::memory::search::SearchRequest {
                    query,
                    limit: Some(5),
                    filters: Default::default(),
                    rerank: false,
                };
                match searcher.search(turn.caller.agent_id, &req).await {
                    Ok(r) => r.results.iter().map(|r| format!("- {}", r.memory.content)).collect::<Vec<_>>().join("\n"),
                    Err(e) => format!("search failed: {e}"),
                }
            }
            "recent_activity" => {
                let limit = args.get("limit").and_then(Value::as_i64).unwrap_or(10).clamp(1, 20);
                match crate::activity::list_agent(state.pool(), turn.caller.agent_id, limit, None).await {
                    Ok(entries) => entries
                        .iter()
                        .map(|e| format!("- {} {} ({})", e.created_at.format("%Y-%m-%d %H:%M"), e.action, e.actor_type))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    Err(e) => format!("activity log unavailable: {e}"),
                }
            }
            other => format!("unknown tool `{other}`"),
        };
        out.push_str(&format!("[{}]\n{}\n", call.name, if result.is_empty() { "(nothing)" } else { &result }));
    }
    out
}

/// The pipeline of one turn, after the messages are stored.
async fn generate(
    state: &AppState,
    turn: &Turn,
    events: &tokio::sync::broadcast::Sender<Event>,
) -> Result<Finished, ApiError> {
    let pool = state.pool();
    let started = Instant::now();
    let mut timings = Timings::default();
    let ctx = turn.caller.call_context();
    let embedder = state.embedder();
    // The message is embedded beside the setup and triage, not after them, whenever context may
    // be wanted: the pre-filter asks for it, or the triage model will decide (and it nearly always
    // wants memories). With a real triage model the embedding then costs no wall time at all.
    let prefiltered = crate::llm::offline::triage::prefilter(&turn.message);
    let may_want_context = prefiltered.as_ref().is_none_or(|(t, _)| context::wants_context(t));
    let embedding = async {
        let stage = Instant::now();
        if !may_want_context {
            return (None, 0.0);
        }
        let vector = match embedder.embed(std::slice::from_ref(&turn.message)).await {
            Ok(mut v) => v.pop(),
            Err(e) => {
                tracing::warn!(error = %e, "embedding the message failed; context by recency");
                None
            }
        };
        (vector, ms_since(stage))
    };
    let prepared = async {
        // The agent, its calibration profile, its soul, the conversation and, when the turn may
        // want context, what context the agent has: one round trip.
        let sql = format!(
            "SELECT {}, {}, $7 AS probed, (SELECT profile FROM agent_calibration WHERE agent_id = $1) AS calibration,
                    (SELECT content FROM agent_souls WHERE agent_id = $1 ORDER BY version DESC LIMIT 1) AS soul,
                    (SELECT coalesce(json_agg(json_build_array(role, left(content, $6)) ORDER BY position), '[]')
                       FROM (SELECT role, content, position FROM chat_messages
                              WHERE conversation_id = $3 AND position < $4 AND status = 'complete'
                              ORDER BY position DESC LIMIT $5) recent) AS history
               FROM agents WHERE id = $1 AND tenant_id = $2",
            crate::agents::COLUMNS,
            context::available_sql("$1", "$7", "$8")
        );
        let agent: TurnAgent = sqlx::query_as(&sql)
            .bind(turn.caller.agent_id)
            .bind(turn.caller.tenant_id)
            .bind(turn.conversation_id)
            .bind(turn.user_position)
            .bind(HISTORY_MESSAGES)
            .bind(HISTORY_CHARS as i32)
            .bind(may_want_context)
            .bind(embedder.model())
            .fetch_optional(pool)
            .await?
            .ok_or_else(|| ApiError::not_found("agent"))?;
        let history: Vec<Message> = agent
            .history
            .iter()
            .map(
                |(role, content)| {
                    if role == "user" { Message::user(content.clone()) } else { Message::assistant(content.clone()) }
                },
            )
            .collect();
        let setup_ms = ms_since(started);
        // Tier 1: triage.
        let stage = Instant::now();
        let t = triage::run(state.llm(), &ctx, &turn.message, prefiltered, &history, agent.calibration.as_ref()).await;
        Ok::<_, ApiError>((history, agent, t, setup_ms, ms_since(stage)))
    };
    let ((query, embed_ms), prepared) = tokio::join!(embedding, prepared);
    let (history, TurnAgent { agent, soul, available, probed, .. }, t, setup_ms, triage_ms) = prepared?;
    (timings.setup_ms, timings.triage_ms, timings.embed_ms) = (setup_ms, triage_ms, embed_ms);
    // Context, only what triage asked for.
    let query = if context::wants_context(&t.triage) { query } else { None };
    let stage = Instant::now();
    let query = query.as_deref().map(|v| (v, embedder.model()));
    let context = context::load(pool, turn.caller.agent_id, &t.triage, query, probed.then_some(available)).await?;
    timings.context_ms = ms_since(stage);
    let stage = Instant::now();

    // Tier 2: generation.
    let system = prompt::system(&agent, soul.as_deref(), &t.triage, &context);
    let role = if agent.tier == "premium" { Role::ChatPremium } else { Role::Chat };
    let mut messages = prompt::messages(system, history, &turn.message);
    let mut tool_usage = Usage::default();
    if t.triage.tools_needed {
        let req = ChatRequest::new(role, messages.clone()).max_tokens(t.triage.max_tokens).tools(tools());
        let first = state.llm().complete(&ctx, req).await?;
        tool_usage = first.usage;
        if first.tool_calls.is_empty() {
            timings.generation_ms = ms_since(stage);
            return finish(state, turn, &t, &context, first, Usage::default(), (started, timings), events, true).await;
        }
        messages.push(Message::system(run_tools(state, turn, &first.tool_calls).await));
    }
    let req = ChatRequest::new(role, messages).max_tokens(t.triage.max_tokens);
    if !state.llm().streams(role) {
        // One piece of text: stored and announced with the finished turn, no row update of its own.
        let response = state.llm().complete(&ctx, req).await?;
        timings.generation_ms = ms_since(stage);
        return finish(state, turn, &t, &context, response, tool_usage, (started, timings), events, true).await;
    }
    let (tx, rx) = tokio::sync::mpsc::channel::<String>(64);
    let (response, written) =
        tokio::join!(state.llm().stream(&ctx, req, tx), persist_deltas(pool, turn.reply_id, rx, events));
    written?;
    let response = response?;
    timings.generation_ms = ms_since(stage);
    finish(state, turn, &t, &context, response, tool_usage, (started, timings), events, false).await
}

/// Completes a turn: the reply row and its metadata, the user message, the analytics row, hit
/// tracking; then calibration, after the reply has been announced. `unstreamed`: the text
/// came from a plain call and still has to be stored and announced.
#[expect(clippy::too_many_arguments, reason = "the pieces of one turn, used once")]
async fn finish(
    state: &AppState,
    turn: &Turn,
    t: &triage::TriageOutcome,
    context: &context::Context,
    response: ChatResponse,
    extra_usage: Usage,
    (started, timings): (Instant, Timings),
    events: &tokio::sync::broadcast::Sender<Event>,
    unstreamed: bool,
) -> Result<Finished, ApiError> {
    let pool = state.pool();
    let usage = Usage {
        prompt_tokens: response.usage.prompt_tokens + extra_usage.prompt_tokens,
        completion_tokens: response.usage.completion_tokens + extra_usage.completion_tokens,
    };
    let used = context.used();
    let ids: Vec<Uuid> = used.iter().map(|m| m.id).collect();
    let meta = ReplyMeta {
        conversation_id: turn.conversation_id,
        user_message_id: turn.user_message_id,
        message_id: turn.reply_id,
        intent: t.triage.intent.clone(),
        response_style: t.triage.response_style.clone(),
        triage_skipped: t.skipped,
        skip_reason: t.skip_reason.clone(),
        triage_error: t.error.clone(),
        memories_used: used.clone(),
        searched: context.searched.clone(),
        engine: match response.engine {
            crate::llm::Engine::Model => "model".into(),
            crate::llm::Engine::Offline => "offline".into(),
        },
        provider: response.provider.clone(),
        model: response.model.clone(),
        usage,
        finish_reason: response.finish_reason.as_str().into(),
        channel: turn.channel.as_str().into(),
        timings,
    };
    let meta_json = serde_json::to_value(&meta).map_err(anyhow::Error::from)?;
    let cost = state.llm().cost(&response.model, usage).unwrap_or(0.0);

    // One statement (one round trip, one commit): the reply row (it already holds the streamed
    // text; a plain call's text is stored here), the user message and the analytics row. Only a
    // reply still streaming completes: a regeneration may have superseded it, and then nothing
    // is written.
    let content: String = sqlx::query_scalar(
        "WITH reply AS (
            UPDATE chat_messages SET content = CASE WHEN $27 THEN $26 ELSE content END, status = 'complete',
                   meta = $28, updated_at = now()
             WHERE id = $5 AND status = 'streaming' RETURNING content
         ), question AS (
            UPDATE chat_messages SET status = 'complete', error = NULL, updated_at = now()
             WHERE id = $1 AND EXISTS (SELECT 1 FROM reply)
         ), analytics AS (
            INSERT INTO chat_analytics (message_id, agent_id, tenant_id, conversation_id, reply_id, channel, intent,
                response_style, save_worthy, triage_skipped, skip_reason, triage_error, triage_ms, response_ms,
                triage_model, chat_model, engine, prompt_tokens, completion_tokens, cost_usd, memory_queries,
                memories_used, context_tokens, used_dossier, finish_reason)
            SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
                   $22, $23, $24, $25
             WHERE EXISTS (SELECT 1 FROM reply)
            ON CONFLICT (message_id) DO UPDATE SET reply_id = excluded.reply_id, intent = excluded.intent,
               response_style = excluded.response_style, save_worthy = excluded.save_worthy,
               triage_skipped = excluded.triage_skipped, skip_reason = excluded.skip_reason,
               triage_error = excluded.triage_error, triage_ms = excluded.triage_ms, response_ms = excluded.response_ms,
               triage_model = excluded.triage_model, chat_model = excluded.chat_model, engine = excluded.engine,
               prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
               cost_usd = excluded.cost_usd, memory_queries = excluded.memory_queries,
               memories_used = excluded.memories_used, context_tokens = excluded.context_tokens,
               used_dossier = excluded.used_dossier, finish_reason = excluded.finish_reason
         ), hits AS (
            -- Hit tracking (001 §7.5): recorded here, folded into the memories by a job.
            INSERT INTO memory_hits (memory_id, kind) SELECT unnest($29::uuid[]), 'mention' WHERE EXISTS (SELECT 1 FROM reply)
         )
         SELECT content FROM reply",
    )
    .bind(turn.user_message_id)
    .bind(turn.caller.agent_id)
    .bind(turn.caller.tenant_id)
    .bind(turn.conversation_id)
    .bind(turn.reply_id)
    .bind(turn.channel.as_str())
    .bind(&t.triage.intent)
    .bind(&t.triage.response_style)
    .bind(t.triage.save_worthy)
    .bind(t.skipped)
    .bind(&t.skip_reason)
    .bind(&t.error)
    .bind(t.latency_ms as i32)
    .bind(started.elapsed().as_millis() as i32)
    .bind(&t.model)
    .bind(&response.model)
    .bind(&meta.engine)
    .bind(usage.prompt_tokens as i32)
    .bind(usage.completion_tokens as i32)
    .bind(cost)
    .bind(context.searched.memory_queries as i32)
    .bind(used.len() as i32)
    .bind(context.tokens as i32)
    .bind(context.searched.dossier)
    .bind(response.finish_reason.as_str())
    .bind(&response.content)
    .bind(unstreamed)
    .bind(&meta_json)
    .bind(&ids)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| ApiError::Conflict("this reply was replaced by a regenerated one".into()))?;
    if unstreamed {
        let _ = events.send(Event::Delta { end: content.len(), text: content.clone() });
    }
    let _ = events.send(Event::Done(meta_json));
    metrics::counter!("chat_turns_total", "channel" => turn.channel.as_str(), "triage_skipped" => t.skipped.to_string())
        .increment(1);

    // Off the reply path: calibration and summaries.
    let after = calibrate::AfterTurn {
        agent_id: turn.caller.agent_id,
        tenant_id: turn.caller.tenant_id,
        conversation_id: turn.conversation_id,
        user_message_id: turn.user_message_id,
        message: turn.message.clone(),
        stated_at: turn.user_created,
        triage: t.triage.clone(),
        injected: ids,
        messages: turn.messages,
    };
    let state = state.clone();
    tokio::spawn(async move {
        if let Err(e) = calibrate::after_turn(&state, after).await {
            tracing::warn!(error = %format!("{e:#}"), "calibration after the turn failed; the stale flush retries");
        }
    });
    Ok(Finished { reply: content, meta })
}

/// Whether `triage` asked for nothing the extraction could use.
pub fn trivial_for_extraction(message: &str, triage: &Triage) -> bool {
    crate::llm::offline::triage::is_trivial(message) || message.trim().chars().count() < 20 || !triage.save_worthy
}

/// A conversation of the agent, or 404.
pub async fn conversation(pool: &PgPool, agent_id: Uuid, id: Uuid) -> Result<Conversation, ApiError> {
    sqlx::query_as(
        "SELECT id, agent_id, title, channel, message_count, created_at, updated_at FROM conversations
          WHERE id = $1 AND agent_id = $2",
    )
    .bind(id)
    .bind(agent_id)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| ApiError::not_found("conversation"))
}

/// The agent's conversations, most recently active first.
pub async fn conversations(pool: &PgPool, agent_id: Uuid, limit: i64) -> sqlx::Result<Vec<Conversation>> {
    sqlx::query_as(
        "SELECT id, agent_id, title, channel, message_count, created_at, updated_at FROM conversations
          WHERE agent_id = $1 ORDER BY updated_at DESC LIMIT $2",
    )
    .bind(agent_id)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A conversation's messages in order; superseded replies only when asked for.
pub async fn messages(
    pool: &PgPool,
    agent_id: Uuid,
    conversation_id: Uuid,
    include_superseded: bool,
) -> Result<Vec<ChatMessage>, ApiError> {
    conversation(pool, agent_id, conversation_id).await?;
    // A reply comes right after the message it answers, also when it was regenerated later and
    // so holds a position at the end of the conversation.
    Ok(sqlx::query_as(&format!(
        "SELECT {MESSAGE_COLUMNS} FROM chat_messages m
          WHERE conversation_id = $1 AND ($2 OR status <> 'superseded')
          ORDER BY coalesce((SELECT q.position FROM chat_messages q WHERE q.id = m.reply_to), position), position"
    ))
    .bind(conversation_id)
    .bind(include_superseded)
    .fetch_all(pool)
    .await?)
}

/// Deletes a conversation with its messages and summaries (memories learned from it stay).
pub async fn delete_conversation(pool: &PgPool, agent_id: Uuid, id: Uuid) -> Result<(), ApiError> {
    let gone = sqlx::query("DELETE FROM conversations WHERE id = $1 AND agent_id = $2")
        .bind(id)
        .bind(agent_id)
        .execute(pool)
        .await?
        .rows_affected();
    if gone == 0 {
        return Err(ApiError::not_found("conversation"));
    }
    Ok(())
}

/// A reply of the agent, for resuming its stream: its content length so far.
pub async fn reply_progress(pool: &PgPool, agent_id: Uuid, reply_id: Uuid) -> Result<(Uuid, String), ApiError> {
    sqlx::query_as(
        "SELECT conversation_id, content FROM chat_messages WHERE id = $1 AND agent_id = $2 AND role = 'assistant'",
    )
    .bind(reply_id)
    .bind(agent_id)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| ApiError::not_found("message"))
}

/// Starts a conversation holding earlier messages a client sent along (the OpenAI format
/// sends the whole history with each call); they are stored as complete, not extracted.
pub async fn seed_conversation(
    pool: &PgPool,
    agent_id: Uuid,
    channel: Channel,
    earlier: &[(String, String)],
) -> Result<Uuid, ApiError> {
    let id = Uuid::now_v7();
    let title = earlier.iter().find(|(r, _)| r == "user").map_or_else(|| "Conversation".into(), |(_, c)| title_of(c));
    let mut tx = pool.begin().await?;
    sqlx::query("INSERT INTO conversations (id, agent_id, title, channel, message_count) VALUES ($1, $2, $3, $4, $5)")
        .bind(id)
        .bind(agent_id)
        .bind(title)
        .bind(channel.as_str())
        .bind(earlier.len() as i32)
        .execute(&mut *tx)
        .await?;
    let (roles, contents): (Vec<String>, Vec<String>) =
        earlier.iter().map(|(r, c)| (r.clone(), c.chars().take(MESSAGE_MAX_CHARS * 4).collect())).unzip();
    let ids: Vec<Uuid> = earlier.iter().map(|_| Uuid::now_v7()).collect();
    sqlx::query(
        "INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel)
         SELECT m, $1, $2, (n - 1)::int, r, c, 'complete', $5
           FROM unnest($6::uuid[], $3::text[], $4::text[]) WITH ORDINALITY AS x(m, r, c, n)",
    )
    .bind(id)
    .bind(agent_id)
    .bind(&roles)
    .bind(&contents)
    .bind(channel.as_str())
    .bind(&ids)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(id)
}
