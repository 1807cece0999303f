//! A client of remote MCP servers (Streamable HTTP), for the tools owners give their agents:
//! `initialize`, `tools/list`, `tools/call`. Every request goes straight (no proxy, no redirect)
//! to an address checked like URL ingestion's (`addresses::vet`: private ranges refused unless
//! the operator allows them), within a time limit, and reads at most `MAX_BODY` bytes: a server
//! that hangs, lies or floods costs one bounded request.

use std::net::SocketAddr;
use std::time::Duration;

use futures::StreamExt;
use miniclaw_core::Error;
use serde_json::{Value, json};

use crate::addresses::{Allowlist, vet};

/// The protocol revision asked for (the server may answer with an older one it speaks).
pub const PROTOCOL_VERSION: &str = "2025-11-25";
/// The most of a response read.
pub const MAX_BODY: usize = 1024 * 1024;
/// How long one request (a tool call included) may take.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// A tool a server lists.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct RemoteTool {
    pub name: String,
    pub description: String,
    /// The JSON Schema of its arguments.
    #[schema(value_type = Object)]
    pub input_schema: Value,
    /// The server says it changes nothing (`readOnlyHint`).
    pub read_only: bool,
}

/// What a tool call answered: its text (the text content, else the structured content), and
/// whether the tool reported a failure.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub text: String,
    pub is_error: bool,
}

/// A session with one server.
pub struct Session {
    client: reqwest::Client,
    url: reqwest::Url,
    secret: Option<String>,
    session_id: Option<String>,
    protocol: String,
    next_id: u64,
}

fn failed(message: impl Into<String>) -> Error {
    Error::Unprocessable { code: "mcp_server_failed", message: message.into(), details: None }
}

impl Session {
    /// Connects to the server at `url` (checked against `allow`) and initializes a session.
    pub async fn open(
        url: &str,
        secret: Option<String>,
        allow: &Allowlist,
        timeout: Duration,
    ) -> Result<Session, Error> {
        let url: reqwest::Url =
            url.trim().parse().map_err(|e| Error::validation("url", format!("not a valid URL: {e}")))?;
        let addr: SocketAddr = vet(&url, allow).await?;
        let host = url.host_str().unwrap_or_default().trim_start_matches('[').trim_end_matches(']').to_string();
        let client = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(timeout)
            .resolve(&host, addr)
            .user_agent(concat!("miniclaw/", env!("CARGO_PKG_VERSION"), " (agent tools)"))
            .build()
            .map_err(|e| Error::Internal(e.into()))?;
        let mut session =
            Session { client, url, secret, session_id: None, protocol: PROTOCOL_VERSION.into(), next_id: 1 };
        let init = session
            .request(
                "initialize",
                json!({ "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                        "clientInfo": { "name": "miniclaw", "version": env!("CARGO_PKG_VERSION") } }),
            )
            .await?;
        session.protocol = init["protocolVersion"]
            .as_str()
            .ok_or_else(|| failed("the server's answer to initialize names no protocol version"))?
            .to_string();
        session.notify("notifications/initialized").await?;
        Ok(session)
    }

    /// The tools the server offers (the first 100 pages' worth at most).
    pub async fn tools(&mut self) -> Result<Vec<RemoteTool>, Error> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..100 {
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let page = self.request("tools/list", params).await?;
            let listed = page["tools"].as_array().ok_or_else(|| failed("tools/list answered without a tool list"))?;
            for t in listed {
                let Some(name) = t["name"].as_str().filter(|n| !n.is_empty()) else { continue };
                tools.push(RemoteTool {
                    name: name.to_string(),
                    description: t["description"].as_str().unwrap_or_default().chars().take(1000).collect(),
                    input_schema: t
                        .get("inputSchema")
                        .filter(|s| s.is_object())
                        .cloned()
                        .unwrap_or(json!({ "type": "object" })),
                    read_only: t["annotations"]["readOnlyHint"].as_bool().unwrap_or(false),
                });
            }
            cursor = page["nextCursor"].as_str().map(str::to_string);
            if cursor.is_none() {
                break;
            }
        }
        Ok(tools)
    }

    /// Calls tool `name` with `arguments`.
    pub async fn call(&mut self, name: &str, arguments: Value) -> Result<Answer, Error> {
        let result = self.request("tools/call", json!({ "name": name, "arguments": arguments })).await?;
        let text: Vec<&str> = result["content"]
            .as_array()
            .map(|c| c.iter().filter_map(|part| part["text"].as_str()).collect())
            .unwrap_or_default();
        let text = if text.is_empty() {
            match result.get("structuredContent") {
                Some(v) if !v.is_null() => v.to_string(),
                _ => String::new(),
            }
        } else {
            text.join("\n")
        };
        Ok(Answer { text, is_error: result["isError"].as_bool().unwrap_or(false) })
    }

    fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        let mut req = self
            .client
            .post(self.url.clone())
            .header(reqwest::header::ACCEPT, "application/json, text/event-stream")
            .header("mcp-protocol-version", &self.protocol)
            .json(body);
        if let Some(id) = &self.session_id {
            req = req.header("mcp-session-id", id);
        }
        if let Some(secret) = &self.secret {
            req = req.bearer_auth(secret);
        }
        req
    }

    async fn notify(&mut self, method: &str) -> Result<(), Error> {
        let resp = self.post(&json!({ "jsonrpc": "2.0", "method": method })).send().await.map_err(unreachable)?;
        if !resp.status().is_success() {
            return Err(failed(format!("the server refused {method} with HTTP {}", resp.status().as_u16())));
        }
        Ok(())
    }

    /// One request and the result of its response.
    async fn request(&mut self, method: &str, params: Value) -> Result<Value, Error> {
        let id = self.next_id;
        self.next_id += 1;
        let resp = self
            .post(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .send()
            .await
            .map_err(unreachable)?;
        let status = resp.status().as_u16();
        if matches!(status, 401 | 403) {
            return Err(failed(format!("the server refused the credentials (HTTP {status})")));
        }
        if !resp.status().is_success() {
            return Err(failed(format!("the server answered {method} with HTTP {status}")));
        }
        if let Some(sid) = resp.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()) {
            self.session_id = Some(sid.to_string());
        }
        let sse = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("text/event-stream"));
        let body = read_limited(resp).await?;
        let messages = messages_of(&String::from_utf8_lossy(&body), sse)
            .ok_or_else(|| failed(format!("the answer to {method} is not JSON-RPC")))?;
        let answer = messages
            .into_iter()
            .find(|m| m["id"] == json!(id))
            .ok_or_else(|| failed(format!("the server sent no answer to {method}")))?;
        if let Some(e) = answer.get("error") {
            let message: String = e["message"].as_str().unwrap_or("no message").chars().take(300).collect();
            return Err(failed(format!("the server answered {method} with an error: {message}")));
        }
        answer
            .get("result")
            .filter(|r| r.is_object())
            .cloned()
            .ok_or_else(|| failed(format!("the answer to {method} has no result")))
    }
}

/// The JSON-RPC messages of a response body: one JSON object, or the `data` of each server-sent
/// event (lines may end with CRLF; events that are not JSON are skipped). `None` for a JSON body
/// that does not parse.
fn messages_of(body: &str, sse: bool) -> Option<Vec<Value>> {
    if !sse {
        return serde_json::from_str(body).ok().map(|m| vec![m]);
    }
    let body = body.replace("\r\n", "\n");
    let events = body.split("\n\n").filter_map(|event| {
        let data: Vec<&str> = event.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim_start).collect();
        serde_json::from_str(&data.join("\n")).ok()
    });
    Some(events.collect())
}

fn unreachable(e: reqwest::Error) -> Error {
    if e.is_timeout() {
        failed(format!("the server did not answer within {} s", TIMEOUT.as_secs()))
    } else {
        failed("the server could not be reached")
    }
}

/// The response body, at most `MAX_BODY` bytes.
async fn read_limited(resp: reqwest::Response) -> Result<Vec<u8>, Error> {
    let mut body = Vec::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(unreachable)?;
        if body.len() + chunk.len() > MAX_BODY {
            return Err(failed(format!("the server's answer is larger than {} KiB", MAX_BODY / 1024)));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_read_from_json_and_from_events_with_either_line_ending() {
        assert_eq!(messages_of(r#"{"id":1}"#, false), Some(vec![json!({ "id": 1 })]));
        assert_eq!(messages_of("<html>", false), None);
        let crlf =
            "event: message\r\ndata: {\"id\":0}\r\n\r\nid: 7\r\ndata: {\"id\":1,\r\ndata: \"result\":{}}\r\n\r\n";
        assert_eq!(messages_of(crlf, true), Some(vec![json!({ "id": 0 }), json!({ "id": 1, "result": {} })]));
        assert_eq!(messages_of("data: not json\n\n", true), Some(vec![]));
    }
}
