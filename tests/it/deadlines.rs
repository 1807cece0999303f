//! Slow peers and crowds (hardening 15): a provider that drips its answer forever is cut at the
//! stream deadline, a client that trickles its request body in gets a 408, and resumes beyond
//! the follower caps get a 429.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use futures::StreamExt;
use miniclaw::config::Config;
use miniclaw::llm::{CallContext, ChatRequest, Message, Role};
use reqwest::Method;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::chat_stream::parse_sse;
use crate::chat_support::Chat;
use crate::common::{TestApp, TestDb};
use crate::llm_server::{LlmServer, Script};

fn drip() -> Script {
    Script::Drip { piece: "drip ".into(), every: Duration::from_millis(100) }
}

#[tokio::test]
async fn a_provider_that_drips_forever_is_cut_at_the_stream_deadline_and_the_reply_can_be_regenerated() {
    let server = LlmServer::start().await;
    let app = TestApp::builder()
        .env("OPENAI_BASE_URL", &server.base_url())
        .env("MINICLAW_LLM_STREAM_DEADLINE_SECS", "2")
        .spawn()
        .await;
    let c = Chat::new(app).await;
    server.push(drip());

    let started = Instant::now();
    // Brief message: no triage call, the first scripted answer is the chat stream.
    let resp = c.stream("Tell me a story").await;
    let body = tokio::time::timeout(Duration::from_secs(20), resp.text()).await.expect("the stream ends").unwrap();
    let elapsed = started.elapsed();
    assert!(elapsed >= Duration::from_secs(2) && elapsed < Duration::from_secs(15), "ended after {elapsed:?}");

    let events = parse_sse(&body);
    assert!(events.iter().any(|(e, _, _)| e == "token"), "the drip reached the client: {body}");
    let (event, _, data) = events.last().unwrap();
    assert_eq!(event, "error", "{body}");
    let error: Value = serde_json::from_str(data).unwrap();
    assert_eq!(error["error"]["code"], "upstream_failed");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("every model for this role failed"), "generic: {message}");
    let port = server.addr.port().to_string();
    assert!(!message.contains("deadline") && !message.contains(&port), "no internal detail: {message}");
    // The log knows why.
    let logged: Vec<Option<String>> = sqlx::query_scalar("SELECT error FROM llm_usage_logs WHERE role = 'chat'")
        .fetch_all(c.app.pool())
        .await
        .unwrap();
    assert!(logged.iter().flatten().any(|e| e.contains("deadline")), "{logged:?}");

    let start: Value = serde_json::from_str(&events[0].2).unwrap();
    let conversation = start["conversation_id"].as_str().unwrap().to_string();
    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    assert_eq!(msgs[0]["content"], "Tell me a story", "the user's message is kept");
    assert_eq!((msgs[0]["status"].as_str(), msgs[1]["status"].as_str()), (Some("error"), Some("error")));
    assert!(msgs[1]["content"].as_str().unwrap().starts_with("drip "), "the reply keeps what came: {msgs}");

    server.push(Script::Stream { pieces: vec!["Once ".into(), "upon a time.".into()], usage: None, complete: true });
    let user_id = msgs[0]["id"].as_str().unwrap();
    let r = c.app.send(c.post(&format!("/conversations/{conversation}/messages/{user_id}/regenerate"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["reply"], "Once upon a time.");
}

#[tokio::test]
async fn an_anthropic_stream_that_drips_forever_is_cut_at_the_deadline_too() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let env: HashMap<String, String> = [
        ("ANTHROPIC_API_KEY", "ak-test".to_string()),
        ("ANTHROPIC_BASE_URL", server.base_url()),
        ("MINICLAW_LLM_STREAM_DEADLINE_SECS", "1".to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let gw = miniclaw::gateway(db.pool.clone(), &Config::from_map(&env).unwrap()).unwrap();
    server.push(drip());
    let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
    let req = ChatRequest::new(Role::ChatPremium, vec![Message::user("a long story")]);
    let started = Instant::now();
    let err = tokio::time::timeout(Duration::from_secs(10), gw.stream(&CallContext::default(), req, tx))
        .await
        .expect("the call ends at its deadline")
        .unwrap_err();
    assert!(started.elapsed() >= Duration::from_secs(1), "{:?}", started.elapsed());
    assert!(err.to_string().contains("deadline"), "{err}");
    assert!(rx.recv().await.is_some(), "pieces arrived before the cut");
}

#[tokio::test]
async fn a_request_body_that_trickles_in_gets_a_408_and_other_requests_are_served_meanwhile() {
    let app = TestApp::builder().env("MINICLAW_REQUEST_BODY_TIMEOUT_SECS", "1").spawn().await;
    let socket = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    let (mut read, mut write) = socket.into_split();
    write
        .write_all(
            b"POST /v1/auth/login HTTP/1.1\r\nHost: miniclaw\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
        )
        .await
        .unwrap();
    let started = Instant::now();
    // A byte every 200 ms: an idle timeout between pieces would never fire, the deadline does.
    let dripping = tokio::spawn(async move {
        while write.write_all(b" ").await.is_ok() {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    assert_eq!(app.get("/healthz").await.status, 200, "the server answers others meanwhile");

    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), read.read_to_end(&mut answer))
        .await
        .expect("the server answers and closes the connection")
        .unwrap();
    let elapsed = started.elapsed();
    dripping.abort();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"timeout\""), "{answer}");
    assert!(elapsed >= Duration::from_millis(900) && elapsed < Duration::from_secs(8), "after {elapsed:?}");

    // A body sent in time, in pieces, is read as usual.
    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/signup")
                .json(&json!({ "email": "x@example.com", "password": "correct horse battery" })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
}

type Body = futures::stream::BoxStream<'static, reqwest::Result<axum::body::Bytes>>;

/// Starts a streaming chat turn; returns its reply id and the still open stream.
async fn streaming_turn(c: &Chat) -> (String, Body) {
    let resp = c.stream("Tell me a story").await;
    let mut body: Body = resp.bytes_stream().boxed();
    let mut seen = String::new();
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(10), body.next()).await.unwrap().unwrap().unwrap();
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if let Some((_, _, data)) = parse_sse(&seen).into_iter().find(|(e, _, _)| e == "start") {
            let start: Value = serde_json::from_str(&data).unwrap();
            return (start["message_id"].as_str().unwrap().to_string(), body);
        }
    }
}

/// Asserts a 429 with `Retry-After` (without reading an endless stream should it be a 200);
/// returns the error body.
async fn refused(req: reqwest::RequestBuilder) -> Value {
    let resp = req.send().await.unwrap();
    assert_eq!(resp.status(), 429, "a resume beyond the cap is refused");
    assert!(resp.headers().contains_key("retry-after"));
    resp.json().await.unwrap()
}

#[tokio::test]
async fn resumes_beyond_the_follower_caps_get_429_with_retry_after() {
    let server = LlmServer::start().await;
    let app = TestApp::builder()
        .env("OPENAI_BASE_URL", &server.base_url())
        .env("MINICLAW_FOLLOWERS_PER_REPLY", "2")
        .env("MINICLAW_FOLLOWERS_PER_AGENT", "3")
        .spawn()
        .await;
    let c = Chat::new(app).await;
    let resume =
        |reply: &str| c.app.as_bearer(&c.owner.token, Method::GET, &c.path(&format!("/chat/replies/{reply}/stream")));
    server.push(drip());
    server.push(drip());

    // The client that started the reply counts: one resume fills the reply's two places.
    let (first, _first_stream) = streaming_turn(&c).await;
    let resumed = resume(&first).send().await.unwrap();
    assert_eq!(resumed.status(), 200);
    let crowded = refused(resume(&first)).await;
    assert_eq!(crowded["error"]["code"], "rate_limited");
    // Through the chat endpoint's Last-Event-ID too.
    refused(c.post("/chat").header("last-event-id", format!("{first}:0")).json(&json!({ "message": "x" }))).await;

    // A second reply has room of its own, but the agent's three places are taken.
    let (second, _second_stream) = streaming_turn(&c).await;
    let crowded = refused(resume(&second)).await;
    assert!(crowded["error"]["message"].as_str().unwrap().contains("this agent"), "{crowded}");

    // A follower that goes away gives its place back.
    drop(resumed);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let r = resume(&second).send().await.unwrap();
        if r.status() == 200 {
            break;
        }
        assert_eq!(r.status(), 429);
        assert!(Instant::now() < deadline, "the place of a closed follower was never given back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
