//! The chat pipeline (SPEC P1–P8): the user's message is stored first, then triage decides
//! what the turn needs, context is loaded selectively, the reply is generated (streamed into
//! its row as it is produced), and calibration learns from the exchange after the reply.

pub mod calibrate;
pub mod context;
mod conversations;
mod economy_tools;
pub mod feedback;
mod finish;
mod generate;
mod history;
pub mod import;
pub mod mcp_servers;
mod mirror;
pub mod people;
pub mod policy;
pub mod portable;
pub mod prompt;
pub mod records;
pub mod relay;
pub mod shadow;
pub mod stream;
mod tools;
mod traversal;
pub mod triage;
mod turn;

pub use conversations::{
    PURGE_CYCLE, PURGE_DESCRIPTION, TurnRecord, check_room, conversation, conversations, delete_conversation, messages,
    purge_cycle, purge_deleted, reply_progress, turn_record,
};
pub use finish::trivial_for_extraction;
pub use history::tool_turn;
pub use history::{continued, seed_conversation};
pub use turn::{regenerate, regenerate_with, start, start_with};

use miniclaw_core::ids::{AgentId, ConversationId, MessageId, TenantId};
use std::time::Instant;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::runtime::Runtime;
use crate::tenancy::agents::Agent;
use context::UsedMemory;
use miniclaw_core::Error;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::llm::{CallContext, LlmError, Usage};

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
    /// The MCP server's `chat` tool.
    Mcp,
    /// Another agent, over A2A.
    A2a,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Web => "web",
            Channel::Api => "api",
            Channel::Openai => "openai",
            Channel::Telegram => "telegram",
            Channel::Email => "email",
            Channel::Mcp => "mcp",
            Channel::A2a => "a2a",
        }
    }
}

/// A conversation of one agent.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Conversation {
    pub id: Uuid,
    pub agent_id: AgentId,
    pub title: String,
    pub channel: String,
    pub message_count: i32,
    /// The miniapp end user it was started for (`X-Miniclaw-User`, the OpenAI `user`, or the
    /// key's binding); `null` for the owner's own and for requests that named none.
    pub end_user: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Whose conversations a request sees (hardening, finding 4). An owner session naming no end
/// user sees every conversation of the agent. Everyone else (every key, and an owner acting
/// for an end user) sees exactly the conversations of the end user it acts for, or, acting for
/// none, those started without one through the API; never the owner's own dashboard chats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Audience {
    pub owner: bool,
    pub end_user: Option<String>,
}

impl Audience {
    /// An owner session naming no end user: every conversation, and new ones are the owner's own.
    pub fn sees_all(&self) -> bool {
        self.owner && self.end_user.is_none()
    }
}

/// One message of a conversation.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct ChatMessage {
    pub id: Uuid,
    pub conversation_id: ConversationId,
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

/// The final metadata of a reply: what the JSON answer and the SSE `done` event carry, and what
/// the reply row keeps in `meta` (read back by the dashboard).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct ReplyMeta {
    pub conversation_id: ConversationId,
    pub user_message_id: MessageId,
    pub message_id: MessageId,
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
    /// The path of learned traversal (X5) when it ran: what the feedback route learns from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traversal: Option<crate::memory::graph::Trace>,
    /// The client's functions the model called (`ClientTools`); the reply's text may then be
    /// empty. `finish_reason` is `tool_calls`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<Object>)]
    pub tool_calls: Vec<miniclaw_platform::llm::ToolCall>,
}

/// Functions a client offers the model for one turn (the `tools` of the OpenAI-compatible
/// route). The model may call them; the agent never runs them: the calls go back to the client,
/// which sends their results with the turn again (`exchange`). For that turn they replace the
/// agent's own tools (its MCP servers, its wallet).
#[derive(Debug, Clone, Default)]
pub struct ClientTools {
    pub tools: Vec<miniclaw_platform::llm::Tool>,
    pub choice: Option<miniclaw_platform::llm::ToolChoice>,
    /// The turn's calls so far and the client's results, in order (assistant messages with
    /// `tool_calls`, `tool` messages).
    pub exchange: Vec<miniclaw_platform::llm::Message>,
}

/// Milliseconds per stage of a turn (the model's own time is in `generation_ms`).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, ToSchema)]
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
pub fn validate(message: &str) -> Result<(), Error> {
    if message.trim().is_empty() {
        return Err(Error::validation("message", "the message is empty"));
    }
    Error::check_length("message", message, MESSAGE_MAX_CHARS)
}

/// Who is chatting, with what agent.
#[derive(Debug, Clone)]
pub struct Caller {
    pub tenant_id: TenantId,
    pub agent_id: AgentId,
    pub origin: Origin,
    /// The miniapp end user the turn is for.
    pub end_user: Option<String>,
}

impl Caller {
    /// The API key the caller speaks with, if any: the turn's cost is charged to it.
    pub fn key(&self) -> Option<miniclaw_core::ids::KeyId> {
        match self.origin.actor {
            crate::tenancy::auth::Actor::ApiKey(key) => Some(key),
            _ => None,
        }
    }

    /// Whose mood a turn adds to (X6): a miniapp's end user, else the owner, else the key.
    pub fn speaker(&self) -> String {
        match (&self.end_user, &self.origin.actor) {
            (Some(u), _) => format!("user:{u}"),
            (None, crate::tenancy::auth::Actor::Owner(_)) => crate::cognition::affect::OWNER.into(),
            _ => "api".into(),
        }
    }

    /// Which conversations the caller may continue. The platform's own turns (an inbound email
    /// answered, a job) are the owner's side: their conversations are owner-private, never read
    /// or continued by a key acting for no one.
    pub fn audience(&self) -> Audience {
        use crate::tenancy::auth::Actor;
        Audience { owner: !matches!(self.origin.actor, Actor::ApiKey(_)), end_user: self.end_user.clone() }
    }
}

/// The error a reply stopped on request carries (an A2A task cancelled).
pub const CANCELED: &str = "the reply was canceled before it was finished";

/// A turn that has been stored and is being generated.
pub struct Started {
    pub agent_id: AgentId,
    pub conversation_id: ConversationId,
    pub user_message_id: MessageId,
    pub reply_id: MessageId,
    /// Resolves with the reply, or the failure (also stored on the messages).
    pub done: tokio::task::JoinHandle<Result<Finished, Error>>,
}

/// A completed reply: its text as stored, with its metadata.
pub struct Finished {
    pub reply: String,
    pub meta: ReplyMeta,
}

/// The limits a turn is held to (kill switch and global cap: 503; budgets: 429 with the reset
/// time), checked before anything is stored; whether the account is new when they hold.
pub async fn budget_first(state: &Runtime, caller: &Caller) -> Result<bool, Error> {
    let caps = state.llm().caps();
    match miniclaw_platform::llm::budget::check(
        state.pool(),
        &crate::runtime::SQL,
        Some(caller.agent_id),
        Some(caller.tenant_id),
        caps,
    )
    .await?
    {
        Ok(limits) => Ok(limits.established == Some(false)),
        Err(refusal) => Err(LlmError::Refused(refusal).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_metadata_reads_back_from_its_row() {
        let meta = ReplyMeta {
            intent: "casual_chat".into(),
            triage_skipped: true,
            skip_reason: Some("brief".into()),
            engine: "offline".into(),
            memories_used: vec![UsedMemory {
                content: "The user's name is Alice".into(),
                rank: 0.8,
                ..Default::default()
            }],
            timings: Timings { context_ms: 1.5, ..Default::default() },
            ..Default::default()
        };
        let stored = serde_json::to_value(&meta).unwrap();
        let back: ReplyMeta = serde_json::from_value(stored.clone()).unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), stored);
    }
}
