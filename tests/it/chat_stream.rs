//! Replies as they are produced, and made again: a dropped SSE stream that resumes from its
//! last event id, a failed generation that keeps the user's message and can be regenerated,
//! and where a reply regenerated later is listed.

use std::time::Duration;

use futures::StreamExt;
use reqwest::Method;
use serde_json::{Value, json};

use crate::chat_support::Chat;
use crate::common::TestApp;
use crate::llm_server::{LlmServer, Script};

/// Parses a text/event-stream body into (event, id, data) triples.
pub(crate) fn parse_sse(body: &str) -> Vec<(String, Option<String>, String)> {
    body.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .filter_map(|block| {
            let (mut event, mut id, mut data) = ("message".to_string(), None, Vec::new());
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event:") {
                    event = v.trim().to_string();
                } else if let Some(v) = line.strip_prefix("id:") {
                    id = Some(v.trim().to_string());
                } else if let Some(v) = line.strip_prefix("data:") {
                    data.push(v.strip_prefix(' ').unwrap_or(v).to_string());
                }
            }
            (!data.is_empty()).then(|| (event, id, data.join("\n")))
        })
        .collect()
}

fn tokens_text(events: &[(String, Option<String>, String)]) -> String {
    events
        .iter()
        .filter(|(e, _, _)| e == "token")
        .map(|(_, _, d)| serde_json::from_str::<Value>(d).unwrap()["text"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_dropped_sse_stream_resumes_from_its_last_event_id() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    let pieces: Vec<String> = (0..30).map(|i| format!("piece{i} ")).collect();
    let full: String = pieces.concat();
    server.push(Script::Stream { pieces, usage: Some((40, 30)), complete: true });

    // Brief message: no triage call, the first scripted answer is the chat stream.
    let resp = c.stream("Tell me a story").await;
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut body = resp.bytes_stream();
    let mut seen = String::new();
    // Read until a few tokens have arrived, then drop the connection.
    for _ in 0..200 {
        let chunk = tokio::time::timeout(Duration::from_secs(10), body.next()).await.unwrap().unwrap().unwrap();
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if parse_sse(&seen).iter().filter(|(e, _, _)| e == "token").count() >= 3 && seen.ends_with("\n\n") {
            break;
        }
    }
    drop(body);
    let before = parse_sse(&seen);
    assert_eq!(before[0].0, "start");
    let start: Value = serde_json::from_str(&before[0].2).unwrap();
    let reply_id = start["message_id"].as_str().unwrap().to_string();
    let last_id = before.iter().rev().find_map(|(_, id, _)| id.clone()).unwrap();
    assert!(last_id.starts_with(&reply_id));
    let got_before = tokens_text(&before);
    assert!(!got_before.is_empty() && got_before.len() < full.len(), "dropped mid-stream: {got_before:?}");

    // Reconnect with Last-Event-ID: the rest, exactly once, then `done`.
    let resumed = c
        .app
        .send(
            c.app
                .as_bearer(&c.owner.token, Method::GET, &c.path(&format!("/chat/replies/{reply_id}/stream")))
                .header("last-event-id", &last_id),
        )
        .await;
    assert_eq!(resumed.status, 200, "{}", resumed.text);
    let after = parse_sse(&resumed.text);
    assert_eq!(format!("{got_before}{}", tokens_text(&after)), full);
    let done = after.last().unwrap();
    assert_eq!(done.0, "done");
    let meta: Value = serde_json::from_str(&done.2).unwrap();
    assert_eq!(meta["message_id"], reply_id.as_str());
    assert_eq!(meta["usage"]["completion_tokens"], 30);

    // The same resume through the chat endpoint's Last-Event-ID, after completion.
    let again = c
        .app
        .send(c.post("/chat").header("last-event-id", format!("{reply_id}:0")).json(&json!({ "message": "ignored" })))
        .await;
    assert_eq!(tokens_text(&parse_sse(&again.text)), full);
    let bad = c.app.send(c.post("/chat").header("last-event-id", "nonsense").json(&json!({ "message": "x" }))).await;
    assert_eq!(bad.status, 400);
    let conversation = start["conversation_id"].as_str().unwrap();
    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    assert_eq!(msgs.as_array().unwrap().len(), 2, "resuming started no new turn");
    assert_eq!(msgs[1]["content"], full.as_str());
}

#[tokio::test]
async fn a_failed_generation_keeps_the_message_and_it_can_be_regenerated() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    // The streamed call falls back only to other providers (none here): one 500 fails it.
    server.push(Script::Status { code: 500, retry_after: None });
    let r = c.app.send(c.post("/chat").json(&json!({ "message": "Tell me a story" }))).await;
    assert_eq!(r.status, 502, "{}", r.text);
    let conversations = c.get("/conversations").await;
    let conversation = conversations[0]["id"].as_str().unwrap().to_string();
    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    assert_eq!(msgs[0]["content"], "Tell me a story");
    assert_eq!(msgs[0]["status"], "error", "the user's message is kept, marked failed");
    assert_eq!(msgs[1]["status"], "error");
    // Nothing of the provider's answer or address reaches the client (hardening finding 11).
    let port =
        server.base_url().rsplit(':').next().unwrap().trim_end_matches(|c: char| !c.is_ascii_digit()).to_string();
    for shown in [r.text.clone(), msgs[1]["error"].to_string(), msgs[0]["error"].to_string()] {
        assert!(!shown.contains("scripted failure") && !shown.contains(&port), "{shown}");
    }
    assert!(r.text.contains("every model for this role failed (1 attempt)"), "{}", r.text);
    let user_id = msgs[0]["id"].as_str().unwrap();

    server.push(Script::Stream { pieces: vec!["Once ".into(), "upon a time.".into()], usage: None, complete: true });
    let r = c.app.send(c.post(&format!("/conversations/{conversation}/messages/{user_id}/regenerate"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["reply"], "Once upon a time.");
    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    let statuses: Vec<&str> = msgs.as_array().unwrap().iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["complete", "complete"], "the failed reply is superseded and hidden");
    let all = c.get(&format!("/conversations/{conversation}/messages?include_superseded=true")).await;
    assert_eq!(all.as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn a_reply_regenerated_later_is_listed_after_the_message_it_answers() {
    let c = Chat::new(TestApp::spawn().await).await;
    let first = c.say("Which bulbs flower first in spring?", None).await;
    let conversation = first["conversation_id"].as_str().unwrap().to_string();
    c.say("And which ones flower last?", Some(&conversation)).await;
    let question = first["user_message_id"].as_str().unwrap();
    let r = c.app.send(c.post(&format!("/conversations/{conversation}/messages/{question}/regenerate"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let regenerated = r.json()["message_id"].as_str().unwrap().to_string();

    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    let order: Vec<(&str, &str)> = msgs
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["role"].as_str().unwrap(), m["content"].as_str().unwrap()))
        .take(3)
        .collect();
    assert_eq!(order[0], ("user", "Which bulbs flower first in spring?"));
    assert_eq!(msgs[1]["id"], regenerated.as_str(), "the new reply follows its question: {msgs}");
    assert_eq!(order[2], ("user", "And which ones flower last?"));
    let all = c.get(&format!("/conversations/{conversation}/messages?include_superseded=true")).await;
    let statuses: Vec<&str> = all.as_array().unwrap().iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["complete", "superseded", "complete", "complete", "complete"], "{all}");
}
