//! The model gateway (SPEC §3): every LLM call in miniclaw names a role and goes through
//! `Gateway::complete` with a `CallContext` (call), which routes it (routing), checks budgets,
//! the global spend cap and the kill switch (budget; a chat turn holds its tokens while it
//! runs: reservations), calls a provider with retries, fallbacks and a circuit breaker
//! (gateway, breaker, providers, openai, anthropic), prices it (pricing) and logs it (usage).
//! Every role but chat, premium chat and skills takes a typed input (roles) that renders its
//! prompt; with no provider configured the offline engine answers from that same input: the
//! gateway calls it through the `Fallback` trait, implemented by `miniclaw-offline` with the
//! domain's own rules and handed to `Gateway::new` by whoever assembles the process.

pub mod anthropic;
mod breaker;
pub mod budget;
pub mod call;
pub mod gateway;
pub mod key_usage;
pub mod openai;
pub mod pricing;
mod providers;
pub mod reservations;
pub mod roles;
pub mod routing;
pub mod spend;
pub mod usage;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use call::{CallContext, LlmError};
pub use gateway::{Fallback, Gateway};
pub use roles::{Input, RoleInput};

/// Every kind of LLM call (SPEC M1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Triage,
    Chat,
    ChatPremium,
    Skill,
    Extraction,
    Dedup,
    Summarization,
    Guard,
    Mentor,
    Compile,
    Lint,
    QualityEval,
    Rerank,
    Fusion,
    DreamJudge,
    GapDiagnosis,
    Digest,
    Outreach,
    Spawn,
}

impl Role {
    pub const ALL: [Role; 19] = [
        Role::Triage,
        Role::Chat,
        Role::ChatPremium,
        Role::Skill,
        Role::Extraction,
        Role::Dedup,
        Role::Summarization,
        Role::Guard,
        Role::Mentor,
        Role::Compile,
        Role::Lint,
        Role::QualityEval,
        Role::Rerank,
        Role::Fusion,
        Role::DreamJudge,
        Role::GapDiagnosis,
        Role::Digest,
        Role::Outreach,
        Role::Spawn,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Triage => "triage",
            Role::Chat => "chat",
            Role::ChatPremium => "chat_premium",
            Role::Skill => "skill",
            Role::Extraction => "extraction",
            Role::Dedup => "dedup",
            Role::Summarization => "summarization",
            Role::Guard => "guard",
            Role::Mentor => "mentor",
            Role::Compile => "compile",
            Role::Lint => "lint",
            Role::QualityEval => "quality_eval",
            Role::Rerank => "rerank",
            Role::Fusion => "fusion",
            Role::DreamJudge => "dream_judge",
            Role::GapDiagnosis => "gap_diagnosis",
            Role::Digest => "digest",
            Role::Outreach => "outreach",
            Role::Spawn => "spawn",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Roles whose work is cheap classification or bookkeeping (001 §4.1: triage, extraction,
    /// summaries and guards run on a cheap model whatever the agent's tier).
    pub fn is_cheap(self) -> bool {
        !matches!(self, Role::Chat | Role::ChatPremium | Role::Skill | Role::Mentor | Role::Spawn)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MessageRole {
    System,
    User,
    Assistant,
    /// A tool's result, answering one of the assistant's `tool_calls`.
    Tool,
}

impl MessageRole {
    pub fn as_str(self) -> &'static str {
        match self {
            MessageRole::System => "system",
            MessageRole::User => "user",
            MessageRole::Assistant => "assistant",
            MessageRole::Tool => "tool",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: MessageRole,
    pub content: String,
    /// The functions an assistant message called (its text may then be empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// The call a `tool` message answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    fn of(role: MessageRole, content: impl Into<String>) -> Self {
        Message { role, content: content.into(), tool_calls: Vec::new(), tool_call_id: None }
    }
    pub fn system(content: impl Into<String>) -> Self {
        Message::of(MessageRole::System, content)
    }
    pub fn user(content: impl Into<String>) -> Self {
        Message::of(MessageRole::User, content)
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Message::of(MessageRole::Assistant, content)
    }
    /// An assistant message that called functions.
    pub fn calls(content: impl Into<String>, tool_calls: Vec<ToolCall>) -> Self {
        Message { tool_calls, ..Message::of(MessageRole::Assistant, content) }
    }
    /// A function's result, answering the call `id`.
    pub fn tool_result(id: impl Into<String>, content: impl Into<String>) -> Self {
        Message { tool_call_id: Some(id.into()), ..Message::of(MessageRole::Tool, content) }
    }
}

/// Whether and which function the model must call (OpenAI's `tool_choice`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolChoice {
    /// The model decides (the default when tools are given).
    Auto,
    /// No function call.
    None,
    /// At least one function call.
    Required,
    /// This function.
    Function(String),
}

/// A function the model may call (OpenAI tool format).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments.
    pub parameters: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The arguments as the model wrote them (JSON text).
    pub arguments: String,
}

/// One LLM call.
#[derive(Debug, Clone)]
pub struct ChatRequest {
    pub role: Role,
    pub messages: Vec<Message>,
    /// Ask for a JSON object (`response_format: json_object`).
    pub json: bool,
    pub tools: Vec<Tool>,
    /// How the model may use `tools` (`None`: the provider's default, auto).
    pub tool_choice: Option<ToolChoice>,
    /// Overrides the route's max tokens when smaller.
    pub max_tokens: Option<u32>,
    pub temperature: Option<f32>,
    /// The typed input the prompt was rendered from (`from_input`). Providers never see it
    /// (the prompt carries it as text); the offline engine answers from it.
    pub input: Option<Input>,
    /// The model the route's primary target runs instead of its own (an agent's
    /// `premium_model`); fallbacks keep theirs, and the offline engine is never replaced.
    pub model: Option<String>,
}

impl ChatRequest {
    /// A request from its messages: chat, premium chat and skills, whose prompt the chat
    /// pipeline assembles. The other roles are built with `from_input`.
    pub fn new(role: Role, messages: Vec<Message>) -> Self {
        ChatRequest {
            role,
            messages,
            json: false,
            tools: Vec::new(),
            tool_choice: None,
            max_tokens: None,
            temperature: None,
            input: None,
            model: None,
        }
    }
    pub fn model(mut self, model: Option<String>) -> Self {
        self.model = model;
        self
    }
    pub fn json(mut self) -> Self {
        self.json = true;
        self
    }
    pub fn max_tokens(mut self, n: u32) -> Self {
        self.max_tokens = Some(n);
        self
    }
    pub fn tools(mut self, tools: Vec<Tool>) -> Self {
        self.tools = tools;
        self
    }
    pub fn tool_choice(mut self, choice: Option<ToolChoice>) -> Self {
        self.tool_choice = choice;
        self
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    Stop,
    Length,
    ToolCalls,
    Error,
}

impl FinishReason {
    pub fn as_str(self) -> &'static str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
            FinishReason::ToolCalls => "tool_calls",
            FinishReason::Error => "error",
        }
    }

    pub fn parse(s: &str) -> FinishReason {
        match s {
            "length" | "max_tokens" => FinishReason::Length,
            "tool_calls" | "tool_use" | "function_call" => FinishReason::ToolCalls,
            _ => FinishReason::Stop,
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Usage {
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
}

impl Usage {
    pub fn total(&self) -> u32 {
        self.prompt_tokens + self.completion_tokens
    }
}

/// What answered: a real model, or the offline engine (never mistaken for one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    Model,
    Offline,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChatResponse {
    pub content: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    pub finish_reason: FinishReason,
    pub provider: String,
    pub model: String,
    pub engine: Engine,
}
