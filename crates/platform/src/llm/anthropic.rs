//! The Anthropic Messages API client: system prompt apart from the turns, content blocks,
//! tool use, streaming events. JSON mode has no switch in this API, so it is asked for in
//! the system prompt.

use std::time::Duration;

use serde_json::{Value, json};

use super::openai::{Completion, ProviderError, check_status, classify_transport, snippet};
use super::{ChatRequest, FinishReason, Message, MessageRole, ToolCall, ToolChoice, Usage};
use crate::config::Secret;

pub const API_VERSION: &str = "2023-06-01";

#[derive(Clone)]
pub struct AnthropicClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Secret,
}

impl AnthropicClient {
    pub fn new(base_url: &str, api_key: Secret) -> Self {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .build()
            .expect("static client settings");
        AnthropicClient { http, base_url: base_url.trim_end_matches('/').to_string(), api_key }
    }

    pub fn body(req: &ChatRequest, model: &str, max_tokens: u32) -> Value {
        let mut system: Vec<&str> =
            req.messages.iter().filter(|m| m.role == MessageRole::System).map(|m| m.content.as_str()).collect();
        if req.json {
            system.push("Respond with a single JSON object and nothing else.");
        }
        let messages = turns(&req.messages);
        let mut body = json!({ "model": model, "max_tokens": max_tokens, "messages": messages });
        if !system.is_empty() {
            body["system"] = json!(system.join("\n\n"));
        }
        if let Some(t) = req.temperature {
            body["temperature"] = json!(t);
        }
        if !req.tools.is_empty() {
            body["tools"] = req
                .tools
                .iter()
                .map(|t| json!({ "name": t.name, "description": t.description, "input_schema": t.parameters }))
                .collect();
        }
        if let Some(choice) = &req.tool_choice {
            body["tool_choice"] = match choice {
                ToolChoice::Auto => json!({ "type": "auto" }),
                ToolChoice::None => json!({ "type": "none" }),
                ToolChoice::Required => json!({ "type": "any" }),
                ToolChoice::Function(name) => json!({ "type": "tool", "name": name }),
            };
        }
        body
    }

    fn request(&self, body: &Value) -> reqwest::RequestBuilder {
        self.http
            .post(format!("{}/messages", self.base_url))
            .header("x-api-key", self.api_key.expose())
            .header("anthropic-version", API_VERSION)
            .json(body)
    }

    pub async fn complete(
        &self,
        req: &ChatRequest,
        model: &str,
        max_tokens: u32,
        timeout: Duration,
    ) -> Result<Completion, ProviderError> {
        let resp = self
            .request(&Self::body(req, model, max_tokens))
            .timeout(timeout)
            .send()
            .await
            .map_err(|e| classify_transport(e, timeout))?;
        let resp = check_status("anthropic", resp).await?;
        let text = resp.text().await.map_err(|e| classify_transport(e, timeout))?;
        parse_message(&text)
    }

    pub async fn stream(
        &self,
        req: &ChatRequest,
        model: &str,
        max_tokens: u32,
        timeout: Duration,
    ) -> Result<reqwest::Response, ProviderError> {
        let mut body = Self::body(req, model, max_tokens);
        body["stream"] = json!(true);
        // The error body `check_status` reads is inside the timeout too: a failing provider
        // that drips its error page must not hold the call.
        let answer = async {
            let resp = self.request(&body).send().await.map_err(|e| classify_transport(e, timeout))?;
            check_status("anthropic", resp).await
        };
        tokio::time::timeout(timeout, answer).await.map_err(|_| ProviderError::Timeout(timeout))?
    }
}

/// The conversation as the Messages API takes it: an assistant's calls as `tool_use` blocks
/// after its text, tool results as `tool_result` blocks of one user turn (consecutive results
/// share it, as the API asks).
fn turns(messages: &[Message]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for m in messages.iter().filter(|m| m.role != MessageRole::System) {
        match m.role {
            MessageRole::Tool => {
                let block = json!({ "type": "tool_result", "tool_use_id": m.tool_call_id, "content": m.content });
                match out.last_mut() {
                    Some(last) if last["role"] == "user" && last["content"].is_array() => {
                        if let Some(blocks) = last["content"].as_array_mut() {
                            blocks.push(block);
                        }
                    }
                    _ => out.push(json!({ "role": "user", "content": [block] })),
                }
            }
            MessageRole::Assistant if !m.tool_calls.is_empty() => {
                let mut blocks = Vec::new();
                if !m.content.is_empty() {
                    blocks.push(json!({ "type": "text", "text": m.content }));
                }
                for c in &m.tool_calls {
                    // The arguments as the model wrote them; text that is not a JSON object
                    // goes back as an empty input rather than failing the whole request.
                    let input = serde_json::from_str::<Value>(&c.arguments)
                        .ok()
                        .filter(Value::is_object)
                        .unwrap_or_else(|| json!({}));
                    blocks.push(json!({ "type": "tool_use", "id": c.id, "name": c.name, "input": input }));
                }
                out.push(json!({ "role": "assistant", "content": blocks }));
            }
            role => out.push(json!({
                "role": if role == MessageRole::User { "user" } else { "assistant" },
                "content": m.content,
            })),
        }
    }
    out
}

pub fn finish_reason(stop_reason: &str) -> FinishReason {
    match stop_reason {
        "max_tokens" => FinishReason::Length,
        "tool_use" => FinishReason::ToolCalls,
        _ => FinishReason::Stop,
    }
}

/// Parses a Messages API response body.
pub fn parse_message(text: &str) -> Result<Completion, ProviderError> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| ProviderError::Malformed(format!("{e}: {}", snippet(text))))?;
    let blocks = v["content"]
        .as_array()
        .ok_or_else(|| ProviderError::Malformed(format!("no content blocks: {}", snippet(text))))?;
    let mut content = String::new();
    let mut tool_calls = Vec::new();
    for b in blocks {
        match b["type"].as_str() {
            Some("text") => content.push_str(b["text"].as_str().unwrap_or_default()),
            Some("tool_use") => tool_calls.push(ToolCall {
                id: b["id"].as_str().unwrap_or_default().to_string(),
                name: b["name"].as_str().unwrap_or_default().to_string(),
                arguments: b["input"].to_string(),
            }),
            _ => {}
        }
    }
    let usage = match (v["usage"]["input_tokens"].as_u64(), v["usage"]["output_tokens"].as_u64()) {
        (Some(i), Some(o)) => Some(Usage { prompt_tokens: i as u32, completion_tokens: o as u32 }),
        _ => None,
    };
    Ok(Completion {
        content,
        tool_calls,
        usage,
        finish_reason: finish_reason(v["stop_reason"].as_str().unwrap_or("end_turn")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{Message, Role, Tool};

    #[test]
    fn calls_and_their_results_become_tool_use_and_tool_result_blocks() {
        let call =
            |id: &str| ToolCall { id: id.into(), name: "weather".into(), arguments: r#"{"city":"Oslo"}"#.into() };
        let req = ChatRequest::new(
            Role::Chat,
            vec![
                Message::system("persona"),
                Message::user("weather in Oslo and Bergen?"),
                Message::calls("", vec![call("tu_1"), call("tu_2")]),
                Message::tool_result("tu_1", "4 C"),
                Message::tool_result("tu_2", "7 C"),
            ],
        )
        .tool_choice(Some(ToolChoice::Function("weather".into())));
        let b = AnthropicClient::body(&req, "claude", 100);
        assert_eq!(b["messages"].as_array().unwrap().len(), 3, "{b}");
        assert_eq!(b["messages"][1]["content"][0]["type"], "tool_use");
        assert_eq!(b["messages"][1]["content"][0]["input"]["city"], "Oslo");
        assert_eq!(b["messages"][1]["content"].as_array().unwrap().len(), 2, "no empty text block");
        let results = b["messages"][2]["content"].as_array().unwrap();
        assert_eq!(b["messages"][2]["role"], "user");
        assert_eq!((results[0]["tool_use_id"].as_str(), results[1]["content"].as_str()), (Some("tu_1"), Some("7 C")));
        assert_eq!(b["tool_choice"], json!({ "type": "tool", "name": "weather" }));
    }

    #[test]
    fn system_goes_apart_and_json_mode_is_asked_for() {
        let req = ChatRequest::new(
            Role::Triage,
            vec![Message::system("classify"), Message::user("hi"), Message::assistant("hello")],
        )
        .json()
        .tools(vec![Tool {
            name: "balance".into(),
            description: "d".into(),
            parameters: json!({ "type": "object" }),
        }]);
        let b = AnthropicClient::body(&req, "claude-haiku-4-5", 150);
        assert_eq!(b["max_tokens"], 150);
        assert!(
            b["system"].as_str().unwrap().starts_with("classify") && b["system"].as_str().unwrap().contains("JSON")
        );
        assert_eq!(b["messages"].as_array().unwrap().len(), 2);
        assert_eq!(b["messages"][1]["role"], "assistant");
        assert_eq!(b["tools"][0]["input_schema"]["type"], "object");
    }

    #[test]
    fn messages_parse_text_tools_usage_and_stop_reason() {
        let text = r#"{"content":[{"type":"text","text":"Let me check."},{"type":"tool_use","id":"tu_1","name":"balance","input":{"token":"USDC"}}],"stop_reason":"tool_use","usage":{"input_tokens":40,"output_tokens":9}}"#;
        let c = parse_message(text).unwrap();
        assert_eq!(c.content, "Let me check.");
        assert_eq!(c.tool_calls[0].arguments, r#"{"token":"USDC"}"#);
        assert_eq!(c.finish_reason, FinishReason::ToolCalls);
        assert_eq!(c.usage, Some(Usage { prompt_tokens: 40, completion_tokens: 9 }));
        assert!(matches!(parse_message(r#"{"type":"error"}"#), Err(ProviderError::Malformed(_))));
    }
}
