//! An OpenAI-compatible chat-completions client: OpenAI itself, xAI, and any server that
//! speaks the same API (`OPENAI_BASE_URL`: vLLM, llama.cpp, Ollama, OpenRouter, ...).
//! JSON mode and tool calls are supported; errors are classified so the gateway knows what
//! to retry.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use super::{ChatRequest, FinishReason, Message, ToolCall, ToolChoice, Usage};
use crate::config::Secret;

#[derive(Clone)]
pub struct OpenAiClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<Secret>,
    pub provider: &'static str,
}

/// A provider failure, classified for the retry and fallback logic.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ProviderError {
    /// 429 or 5xx or a connection failure: worth retrying, after `retry_after` if given.
    #[error("{message}")]
    Retryable { message: String, retry_after: Option<Duration> },
    /// The request itself was refused (4xx other than 429): retrying will not help.
    #[error("{message}")]
    Rejected { message: String },
    /// The answer did not have the expected shape.
    #[error("malformed response: {0}")]
    Malformed(String),
    #[error("timed out after {0:?}")]
    Timeout(Duration),
}

/// What a provider returned for one call.
#[derive(Debug, Clone)]
pub struct Completion {
    pub content: String,
    pub tool_calls: Vec<ToolCall>,
    /// `None` when the provider did not report usage.
    pub usage: Option<Usage>,
    pub finish_reason: FinishReason,
}

impl OpenAiClient {
    pub fn new(provider: &'static str, base_url: &str, api_key: Option<Secret>) -> Self {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .build()
            .expect("reqwest client builds with static settings");
        OpenAiClient { http, base_url: base_url.trim_end_matches('/').to_string(), api_key, provider }
    }

    /// The request body for a chat completion.
    pub fn body(req: &ChatRequest, model: &str, max_tokens: u32) -> Value {
        let messages: Vec<Value> = req.messages.iter().map(wire_message).collect();
        let mut body = json!({ "model": model, "messages": messages, "max_completion_tokens": max_tokens });
        if req.json {
            body["response_format"] = json!({ "type": "json_object" });
        }
        if let Some(t) = req.temperature {
            body["temperature"] = json!(t);
        }
        if !req.tools.is_empty() {
            body["tools"] = req
                .tools
                .iter()
                .map(|t| json!({ "type": "function", "function": { "name": t.name, "description": t.description, "parameters": t.parameters } }))
                .collect();
        }
        if let Some(choice) = &req.tool_choice {
            body["tool_choice"] = match choice {
                ToolChoice::Auto => json!("auto"),
                ToolChoice::None => json!("none"),
                ToolChoice::Required => json!("required"),
                ToolChoice::Function(name) => json!({ "type": "function", "function": { "name": name } }),
            };
        }
        body
    }

    pub async fn complete(
        &self,
        req: &ChatRequest,
        model: &str,
        max_tokens: u32,
        timeout: Duration,
    ) -> Result<Completion, ProviderError> {
        let body = Self::body(req, model, max_tokens);
        let mut call = self.http.post(format!("{}/chat/completions", self.base_url)).json(&body).timeout(timeout);
        if let Some(key) = &self.api_key {
            call = call.bearer_auth(key.expose());
        }
        let resp = call.send().await.map_err(|e| classify_transport(e, timeout))?;
        let resp = check_status(self.provider, resp).await?;
        let text = resp.text().await.map_err(|e| classify_transport(e, timeout))?;
        parse_completion(&text)
    }
}

/// One message as the chat-completions API takes it: an assistant's calls as `tool_calls`
/// (its text `null` when it has none), a tool's result with the call it answers.
fn wire_message(m: &Message) -> Value {
    let mut v = json!({ "role": m.role.as_str(), "content": m.content });
    if !m.tool_calls.is_empty() {
        if m.content.is_empty() {
            v["content"] = Value::Null;
        }
        v["tool_calls"] = m
            .tool_calls
            .iter()
            .map(
                |c| json!({ "id": c.id, "type": "function", "function": { "name": c.name, "arguments": c.arguments } }),
            )
            .collect();
    }
    if let Some(id) = &m.tool_call_id {
        v["tool_call_id"] = json!(id);
    }
    v
}

/// One piece of a streamed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamPiece {
    Delta(String),
    Finish(FinishReason),
    Usage(Usage),
}

impl OpenAiClient {
    /// Starts a streamed completion (`stream: true`, usage in the last chunk). Errors before
    /// the body are classified like `complete`, within `timeout`; the body is then read with
    /// `SseParser` (the gateway bounds that).
    pub async fn stream(
        &self,
        req: &ChatRequest,
        model: &str,
        max_tokens: u32,
        timeout: Duration,
    ) -> Result<reqwest::Response, ProviderError> {
        let mut body = Self::body(req, model, max_tokens);
        body["stream"] = json!(true);
        body["stream_options"] = json!({ "include_usage": true });
        let mut call = self.http.post(format!("{}/chat/completions", self.base_url)).json(&body);
        if let Some(key) = &self.api_key {
            call = call.bearer_auth(key.expose());
        }
        // The error body `check_status` reads is inside the timeout too: a failing provider
        // that drips its error page must not hold the call.
        let answer = async {
            let resp = call.send().await.map_err(|e| classify_transport(e, timeout))?;
            check_status(self.provider, resp).await
        };
        tokio::time::timeout(timeout, answer).await.map_err(|_| ProviderError::Timeout(timeout))?
    }
}

/// Incremental parser of a server-sent-event stream, in OpenAI's dialect or (with
/// `anthropic()`) the Messages API's.
#[derive(Default)]
pub struct SseParser {
    buffer: String,
    pub done: bool,
    anthropic: bool,
    input_tokens: u32,
}

impl SseParser {
    pub fn anthropic() -> Self {
        SseParser { anthropic: true, ..Default::default() }
    }

    fn anthropic_event(&mut self, v: &Value, out: &mut Vec<StreamPiece>) -> Result<(), ProviderError> {
        match v["type"].as_str() {
            Some("message_start") => {
                self.input_tokens = v["message"]["usage"]["input_tokens"].as_u64().unwrap_or(0) as u32
            }
            Some("content_block_delta") => {
                if let Some(text) = v["delta"]["text"].as_str()
                    && !text.is_empty()
                {
                    out.push(StreamPiece::Delta(text.to_string()));
                }
            }
            Some("message_delta") => {
                if let Some(r) = v["delta"]["stop_reason"].as_str() {
                    out.push(StreamPiece::Finish(super::anthropic::finish_reason(r)));
                }
                if let Some(o) = v["usage"]["output_tokens"].as_u64() {
                    out.push(StreamPiece::Usage(Usage {
                        prompt_tokens: self.input_tokens,
                        completion_tokens: o as u32,
                    }));
                }
            }
            Some("message_stop") => self.done = true,
            Some("error") => {
                return Err(ProviderError::Malformed(format!("stream error event: {}", snippet(&v.to_string()))));
            }
            _ => {}
        }
        Ok(())
    }

    /// Feeds bytes; returns the pieces completed by them.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<StreamPiece>, ProviderError> {
        self.buffer.push_str(&String::from_utf8_lossy(bytes));
        let mut out = Vec::new();
        while let Some(end) = self.buffer.find('\n') {
            let line: String = self.buffer.drain(..=end).collect();
            let line = line.trim();
            let Some(data) = line.strip_prefix("data:") else { continue };
            let data = data.trim();
            if data == "[DONE]" {
                self.done = true;
                continue;
            }
            let v: Value = serde_json::from_str(data)
                .map_err(|e| ProviderError::Malformed(format!("stream chunk: {e}: {}", snippet(data))))?;
            if self.anthropic {
                self.anthropic_event(&v, &mut out)?;
                continue;
            }
            if let Some(choice) = v["choices"].get(0) {
                if let Some(text) = choice["delta"]["content"].as_str()
                    && !text.is_empty()
                {
                    out.push(StreamPiece::Delta(text.to_string()));
                }
                if let Some(r) = choice["finish_reason"].as_str() {
                    out.push(StreamPiece::Finish(FinishReason::parse(r)));
                }
            }
            if let (Some(p), Some(c)) = (v["usage"]["prompt_tokens"].as_u64(), v["usage"]["completion_tokens"].as_u64())
            {
                out.push(StreamPiece::Usage(Usage { prompt_tokens: p as u32, completion_tokens: c as u32 }));
            }
        }
        Ok(out)
    }
}

/// Passes a successful response through; turns 429/5xx (and Anthropic's 529 overload) into
/// `Retryable` with the server's `Retry-After`, and other failures into `Rejected`.
pub async fn check_status(provider: &str, resp: reqwest::Response) -> Result<reqwest::Response, ProviderError> {
    let status = resp.status();
    if status.is_success() {
        return Ok(resp);
    }
    let retry_after = resp
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64);
    let message = format!("{provider} answered {status}: {}", snippet(&resp.text().await.unwrap_or_default()));
    if status.as_u16() == 429 || status.is_server_error() {
        Err(ProviderError::Retryable { message, retry_after })
    } else {
        Err(ProviderError::Rejected { message })
    }
}

pub(crate) fn classify_transport(e: reqwest::Error, timeout: Duration) -> ProviderError {
    if e.is_timeout() {
        ProviderError::Timeout(timeout)
    } else {
        ProviderError::Retryable { message: format!("transport error: {e}"), retry_after: None }
    }
}

pub(crate) fn snippet(text: &str) -> String {
    let t: String = text.chars().take(300).collect();
    t.replace('\n', " ")
}

#[derive(Deserialize)]
struct WireResponse {
    choices: Vec<WireChoice>,
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct WireChoice {
    message: WireMessage,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct WireMessage {
    content: Option<String>,
    #[serde(default)]
    tool_calls: Vec<WireToolCall>,
}

#[derive(Deserialize)]
struct WireToolCall {
    id: String,
    function: WireFunction,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    arguments: String,
}

#[derive(Deserialize)]
struct WireUsage {
    prompt_tokens: u32,
    completion_tokens: u32,
}

/// Parses a chat-completions response body.
pub fn parse_completion(text: &str) -> Result<Completion, ProviderError> {
    let wire: WireResponse =
        serde_json::from_str(text).map_err(|e| ProviderError::Malformed(format!("{e}: {}", snippet(text))))?;
    let choice = wire.choices.into_iter().next().ok_or_else(|| ProviderError::Malformed("no choices".into()))?;
    let tool_calls: Vec<ToolCall> = choice
        .message
        .tool_calls
        .into_iter()
        .map(|t| ToolCall { id: t.id, name: t.function.name, arguments: t.function.arguments })
        .collect();
    let finish_reason = match choice.finish_reason.as_deref() {
        Some(r) => FinishReason::parse(r),
        None if !tool_calls.is_empty() => FinishReason::ToolCalls,
        None => FinishReason::Stop,
    };
    Ok(Completion {
        content: choice.message.content.unwrap_or_default(),
        tool_calls,
        usage: wire.usage.map(|u| Usage { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens }),
        finish_reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{Message, Role, Tool};

    #[test]
    fn request_bodies_carry_json_mode_and_tools() {
        let req =
            ChatRequest::new(Role::Triage, vec![Message::system("classify"), Message::user("hi")]).json().tools(vec![
                Tool {
                    name: "balance".into(),
                    description: "wallet balance".into(),
                    parameters: json!({ "type": "object" }),
                },
            ]);
        let body = OpenAiClient::body(&req, "gpt-5-mini", 150);
        assert_eq!(body["model"], "gpt-5-mini");
        assert_eq!(body["max_completion_tokens"], 150);
        assert_eq!(body["response_format"]["type"], "json_object");
        assert_eq!(body["messages"][1], json!({ "role": "user", "content": "hi" }));
        assert_eq!(body["tools"][0]["function"]["name"], "balance");
        assert!(body.get("tool_choice").is_none(), "the provider's default unless asked");
    }

    #[test]
    fn calls_and_their_results_go_back_in_the_chat_completions_shape() {
        let call = ToolCall { id: "call_1".into(), name: "weather".into(), arguments: r#"{"city":"Oslo"}"#.into() };
        let req = ChatRequest::new(
            Role::Chat,
            vec![Message::user("weather?"), Message::calls("", vec![call]), Message::tool_result("call_1", "4 C")],
        )
        .tool_choice(Some(ToolChoice::Required));
        let body = OpenAiClient::body(&req, "m", 10);
        assert_eq!(body["tool_choice"], "required");
        assert_eq!(body["messages"][1]["content"], Value::Null);
        assert_eq!(body["messages"][1]["tool_calls"][0]["function"]["arguments"], r#"{"city":"Oslo"}"#);
        assert_eq!(body["messages"][2], json!({ "role": "tool", "content": "4 C", "tool_call_id": "call_1" }));
    }

    #[test]
    fn sse_chunks_parse_across_arbitrary_splits() {
        let stream = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}\n\ndata: [DONE]\n\n";
        for split in [1, 7, 30, stream.len()] {
            let mut p = SseParser::default();
            let mut pieces = Vec::new();
            for chunk in stream.as_bytes().chunks(split) {
                pieces.extend(p.feed(chunk).unwrap());
            }
            assert!(p.done);
            assert_eq!(
                pieces,
                vec![
                    StreamPiece::Delta("Hel".into()),
                    StreamPiece::Delta("lo".into()),
                    StreamPiece::Finish(FinishReason::Stop),
                    StreamPiece::Usage(Usage { prompt_tokens: 5, completion_tokens: 2 }),
                ],
                "split {split}"
            );
        }
        assert!(SseParser::default().feed(b"data: {oops\n").is_err());
    }

    #[test]
    fn anthropic_stream_events_parse() {
        let stream = concat!(
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n",
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":4}}\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
        );
        let mut p = SseParser::anthropic();
        let pieces = p.feed(stream.as_bytes()).unwrap();
        assert!(p.done);
        assert_eq!(
            pieces,
            vec![
                StreamPiece::Delta("Hi".into()),
                StreamPiece::Finish(FinishReason::Stop),
                StreamPiece::Usage(Usage { prompt_tokens: 25, completion_tokens: 4 }),
            ]
        );
    }

    #[test]
    fn responses_parse_with_tool_calls_and_usage() {
        let text = r#"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"balance","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":12,"completion_tokens":3}}"#;
        let c = parse_completion(text).unwrap();
        assert_eq!(c.finish_reason, FinishReason::ToolCalls);
        assert_eq!(c.tool_calls[0].name, "balance");
        assert_eq!(c.usage, Some(Usage { prompt_tokens: 12, completion_tokens: 3 }));
        assert!(matches!(parse_completion("{not json"), Err(ProviderError::Malformed(_))));
        assert!(matches!(parse_completion(r#"{"choices":[]}"#), Err(ProviderError::Malformed(_))));
    }
}
