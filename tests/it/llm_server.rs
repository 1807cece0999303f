//! SPEC M6: an OpenAI-compatible HTTP server on loopback that answers from a script, so the
//! real client path (JSON mode, tool calls, timeouts, 429 with Retry-After, 5xx, malformed
//! bodies, streams that end early or drip forever) is exercised end to end.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use futures::StreamExt;
use serde_json::{Value, json};

#[derive(Debug, Clone)]
pub enum Script {
    /// A normal answer; `usage: None` leaves usage out of the response.
    Reply {
        content: String,
        usage: Option<(u32, u32)>,
    },
    ToolCall {
        name: String,
        arguments: String,
    },
    Status {
        code: u16,
        retry_after: Option<u64>,
    },
    /// Waits, then answers with the inner script.
    Delay(Duration, Box<Script>),
    /// A 200 whose body is not a chat completion.
    Malformed(String),
    /// A server-sent-event stream of these text pieces, 20 ms apart; `complete: false` ends
    /// it without a finish reason or `[DONE]`, as a dropped connection would.
    Stream {
        pieces: Vec<String>,
        usage: Option<(u32, u32)>,
        complete: bool,
    },
    /// A server-sent-event stream that never ends: `piece` every `every`, forever (a provider
    /// that drips tokens slower than any reader would wait for the whole answer).
    Drip {
        piece: String,
        every: Duration,
    },
}

impl Script {
    pub fn reply(content: &str) -> Script {
        Script::Reply { content: content.into(), usage: Some((12, 7)) }
    }
}

#[derive(Clone, Default)]
struct Shared {
    scripts: Arc<Mutex<VecDeque<Script>>>,
    requests: Arc<Mutex<Vec<(HeaderMap, Value)>>>,
}

pub struct LlmServer {
    pub addr: SocketAddr,
    shared: Shared,
    task: tokio::task::JoinHandle<()>,
}

impl LlmServer {
    pub async fn start() -> LlmServer {
        let shared = Shared::default();
        let app = axum::Router::new()
            .route("/v1/chat/completions", post(completions))
            .route("/v1/embeddings", post(embeddings))
            .route("/v1/messages", post(messages))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        LlmServer { addr, shared, task }
    }

    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    pub fn push(&self, s: Script) {
        self.shared.scripts.lock().unwrap().push_back(s);
    }

    /// Bodies of the requests received so far.
    pub fn requests(&self) -> Vec<Value> {
        self.shared.requests.lock().unwrap().iter().map(|(_, b)| b.clone()).collect()
    }

    pub fn authorization(&self, i: usize) -> Option<String> {
        self.header(i, "authorization")
    }

    pub fn header(&self, i: usize, name: &str) -> Option<String> {
        self.shared.requests.lock().unwrap()[i].0.get(name).map(|v| v.to_str().unwrap().to_string())
    }
}

impl Drop for LlmServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Embeddings: a vector per input from its length (1,536 dimensions, as
/// `text-embedding-3-small` has), so tests can check order and cuts, and the usage the API
/// reports (a token per 4 characters).
async fn embeddings(State(shared): State<Shared>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    shared.requests.lock().unwrap().push((headers, body.clone()));
    let inputs = body["input"].as_array().cloned().unwrap_or_default();
    let text = |t: &Value| t.as_str().unwrap_or("").to_string();
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .rev() // out of order on purpose: clients must sort by index
        .map(|(i, t)| {
            let mut v = vec![0.0; 1536];
            (v[0], v[1]) = (text(t).chars().count() as f64, 1.0);
            json!({ "object": "embedding", "index": i, "embedding": v })
        })
        .collect();
    let tokens: usize = inputs.iter().map(|t| text(t).chars().count().div_ceil(4)).sum();
    let usage = json!({ "prompt_tokens": tokens, "total_tokens": tokens });
    Json(json!({ "object": "list", "data": data, "model": body["model"], "usage": usage })).into_response()
}

/// The Anthropic Messages API, answering from the same script.
async fn messages(State(shared): State<Shared>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    shared.requests.lock().unwrap().push((headers, body.clone()));
    let mut script = shared.scripts.lock().unwrap().pop_front().unwrap_or_else(|| Script::reply("scripted answer"));
    if let Script::Delay(d, inner) = script {
        tokio::time::sleep(d).await;
        script = *inner;
    }
    match script {
        Script::Reply { content, usage } => {
            let mut v = json!({ "type": "message", "role": "assistant", "model": body["model"], "stop_reason": "end_turn",
                "content": [{ "type": "text", "text": content }] });
            if let Some((p, c)) = usage {
                v["usage"] = json!({ "input_tokens": p, "output_tokens": c });
            }
            Json(v).into_response()
        }
        Script::Stream { pieces, usage, complete } => {
            let (p, c) = usage.unwrap_or((0, 0));
            let mut events = vec![format!(
                "event: message_start\ndata: {}\n\n",
                json!({ "type": "message_start", "message": { "usage": { "input_tokens": p, "output_tokens": 1 } } })
            )];
            events.extend(pieces.iter().map(|t| {
                format!(
                    "event: content_block_delta\ndata: {}\n\n",
                    json!({ "type": "content_block_delta", "index": 0, "delta": { "type": "text_delta", "text": t } })
                )
            }));
            if complete {
                events.push(format!("event: message_delta\ndata: {}\n\n", json!({ "type": "message_delta", "delta": { "stop_reason": "end_turn" }, "usage": { "output_tokens": c } })));
                events.push(format!("event: message_stop\ndata: {}\n\n", json!({ "type": "message_stop" })));
            }
            let stream = futures::stream::iter(events).then(|e| async move {
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok::<_, std::convert::Infallible>(e)
            });
            ([("content-type", "text/event-stream")], axum::body::Body::from_stream(stream)).into_response()
        }
        Script::Drip { piece, every } => {
            let event = format!(
                "event: content_block_delta\ndata: {}\n\n",
                json!({ "type": "content_block_delta", "index": 0, "delta": { "type": "text_delta", "text": piece } })
            );
            let stream = futures::stream::repeat(event).then(move |e| async move {
                tokio::time::sleep(every).await;
                Ok::<_, std::convert::Infallible>(e)
            });
            ([("content-type", "text/event-stream")], axum::body::Body::from_stream(stream)).into_response()
        }
        other => respond(other, &body).await,
    }
}

async fn completions(State(shared): State<Shared>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    shared.requests.lock().unwrap().push((headers, body.clone()));
    let script = shared.scripts.lock().unwrap().pop_front().unwrap_or_else(|| Script::reply("scripted answer"));
    respond(script, &body).await
}

fn respond(script: Script, body: &Value) -> std::pin::Pin<Box<dyn Future<Output = Response> + Send + '_>> {
    Box::pin(async move {
        let model = body["model"].clone();
        match script {
            Script::Reply { content, usage } => {
                let mut v = json!({
                    "id": "chatcmpl-test", "object": "chat.completion", "model": model,
                    "choices": [{ "index": 0, "message": { "role": "assistant", "content": content }, "finish_reason": "stop" }]
                });
                if let Some((p, c)) = usage {
                    v["usage"] = json!({ "prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c });
                }
                Json(v).into_response()
            }
            Script::ToolCall { name, arguments } => Json(json!({
                "id": "chatcmpl-test", "object": "chat.completion", "model": model,
                "choices": [{ "index": 0, "finish_reason": "tool_calls", "message": { "role": "assistant", "content": null,
                    "tool_calls": [{ "id": "call_1", "type": "function", "function": { "name": name, "arguments": arguments } }] } }],
                "usage": { "prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25 }
            }))
            .into_response(),
            Script::Status { code, retry_after } => {
                let mut resp = (StatusCode::from_u16(code).unwrap(), Json(json!({ "error": { "message": "scripted failure" } }))).into_response();
                if let Some(s) = retry_after {
                    resp.headers_mut().insert("retry-after", s.to_string().parse().unwrap());
                }
                resp
            }
            Script::Delay(d, inner) => {
                tokio::time::sleep(d).await;
                respond(*inner, body).await
            }
            Script::Malformed(text) => ([("content-type", "application/json")], text).into_response(),
            Script::Stream { pieces, usage, complete } => {
                let mut events: Vec<String> = pieces
                    .iter()
                    .map(|p| format!("data: {}\n\n", json!({ "choices": [{ "index": 0, "delta": { "content": p } }] })))
                    .collect();
                if complete {
                    events.push(format!("data: {}\n\n", json!({ "choices": [{ "index": 0, "delta": {}, "finish_reason": "stop" }] })));
                    if let Some((p, c)) = usage {
                        events.push(format!("data: {}\n\n", json!({ "choices": [], "usage": { "prompt_tokens": p, "completion_tokens": c } })));
                    }
                    events.push("data: [DONE]\n\n".into());
                }
                let stream = futures::stream::iter(events).then(|e| async move {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    Ok::<_, std::convert::Infallible>(e)
                });
                ([("content-type", "text/event-stream")], axum::body::Body::from_stream(stream)).into_response()
            }
            Script::Drip { piece, every } => {
                let event = format!("data: {}\n\n", json!({ "choices": [{ "index": 0, "delta": { "content": piece } }] }));
                let stream = futures::stream::repeat(event).then(move |e| async move {
                    tokio::time::sleep(every).await;
                    Ok::<_, std::convert::Infallible>(e)
                });
                ([("content-type", "text/event-stream")], axum::body::Body::from_stream(stream)).into_response()
            }
        }
    })
}
