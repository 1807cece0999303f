//! Reply notices across processes (SPEC §14, B3): the agent event stream, and followers of a
//! reply that streams in another server process, both fed by one LISTEN connection per process.

use std::time::Duration;

use futures::StreamExt;
use reqwest::Method;
use serde_json::{Value, json};

use crate::chat_stream::parse_sse;
use crate::chat_support::Chat;
use crate::common::TestApp;
use crate::llm_server::{LlmServer, Script};
use crate::processes::{api_only_server, free_port, terminate};

/// An open SSE response read event by event.
pub(crate) struct Events {
    body: futures::stream::BoxStream<'static, reqwest::Result<axum::body::Bytes>>,
    buffer: String,
}

impl Events {
    pub(crate) fn new(resp: reqwest::Response) -> Events {
        assert_eq!(resp.status(), 200);
        assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
        Events { body: resp.bytes_stream().boxed(), buffer: String::new() }
    }

    /// The next event (name, data), waiting at most `secs`; `None` when none comes in time.
    pub(crate) async fn next(&mut self, secs: u64) -> Option<(String, Value)> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                // Keep-alive comments parse to nothing.
                if let Some((event, _, data)) = parse_sse(&block).pop() {
                    return Some((event, serde_json::from_str(&data).unwrap()));
                }
                continue;
            }
            let chunk = tokio::time::timeout_at(deadline, self.body.next()).await.ok()??.unwrap();
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// Events until one named `last` (included), at most `secs` in all.
    pub(crate) async fn until(&mut self, last: &str, secs: u64) -> Vec<(String, Value)> {
        let mut seen = Vec::new();
        while let Some(e) = self.next(secs).await {
            let done = e.0 == last;
            seen.push(e);
            if done {
                return seen;
            }
        }
        panic!("no `{last}` within {secs} s; saw {seen:?}");
    }
}

#[tokio::test]
async fn the_event_stream_tells_each_client_of_the_replies_it_may_see_and_is_capped() {
    let app = TestApp::builder().env("MINICLAW_EVENT_STREAMS_PER_AGENT", "3").spawn().await;
    let c = Chat::new(app).await;
    let key = |end_user: &'static str| {
        let c = &c;
        async move {
            let body = json!({ "name": end_user, "scopes": ["chat:read", "chat:write"], "end_user": end_user });
            let r = c.app.send(c.post("/api-keys").json(&body)).await;
            assert_eq!(r.status, 201, "{}", r.text);
            r.json()["key"].as_str().unwrap().to_string()
        }
    };
    let (ada, bob) = (key("ada").await, key("bob").await);
    let open = |token: &str| c.app.as_bearer(token, Method::GET, &c.path("/events")).send();
    let mut owner = Events::new(open(&c.owner.token).await.unwrap());
    let mut ada_events = Events::new(open(&ada).await.unwrap());
    let mut bob_events = Events::new(open(&bob).await.unwrap());
    for stream in [&mut owner, &mut ada_events, &mut bob_events] {
        let (event, data) = stream.next(10).await.unwrap();
        assert_eq!((event.as_str(), data["agent_id"].as_str()), ("ready", Some(c.id.as_str())));
    }
    let crowded = c.app.send(c.app.as_bearer(&ada, Method::GET, &c.path("/events"))).await;
    assert_eq!((crowded.status.as_u16(), crowded.error_code().as_str()), (429, "rate_limited"), "{}", crowded.text);

    // Ada talks: her stream and the owner's hear of the reply, from start to end; Bob's does not.
    let r =
        c.app.send(c.app.as_bearer(&ada, Method::POST, &c.path("/chat")).json(&json!({ "message": "Hello!" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let reply = r.json();
    for stream in [&mut owner, &mut ada_events] {
        let seen = stream.until("reply", 10).await;
        let (_, started) = seen.last().unwrap();
        assert_eq!(started["status"], "streaming");
        assert_eq!(started["message_id"], reply["message_id"]);
        assert_eq!(started["conversation_id"], reply["conversation_id"]);
        assert_eq!(started["reply_to"], reply["user_message_id"]);
        let (_, ended) = stream.until("reply", 10).await.pop().unwrap();
        assert_eq!(
            (ended["message_id"].clone(), ended["status"].as_str()),
            (reply["message_id"].clone(), Some("complete"))
        );
    }
    assert_eq!(bob_events.next(1).await, None, "another end user's conversation stays unseen");

    // A stream given back makes room for another.
    drop(ada_events);
    let mut again = None;
    for _ in 0..50 {
        let r = open(&ada).await.unwrap();
        if r.status() == 200 {
            again = Some(Events::new(r));
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(again.expect("room again").next(10).await.unwrap().0, "ready");

    let no_scope = {
        let body = json!({ "name": "reader", "scopes": ["memories:read"] });
        let r = c.app.send(c.post("/api-keys").json(&body)).await;
        r.json()["key"].as_str().unwrap().to_string()
    };
    assert_eq!(c.app.send(c.app.as_bearer(&no_scope, Method::GET, &c.path("/events"))).await.status, 403);
}

/// A reply streaming in one server is followed from another through that server's relay: the
/// follower gets the text as it is produced (progress notices, not a poll every few seconds),
/// exactly once, then `done`; the other server's event stream hears of the reply too.
#[tokio::test]
async fn a_reply_streaming_in_one_process_is_followed_live_from_another() {
    let llm = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &llm.base_url()).spawn().await;
    let c = Chat::new(app).await;
    let port = free_port();
    let mut other = api_only_server(&c.app.db, port).await;
    let other_url = |rest: &str| format!("http://127.0.0.1:{port}{}", c.path(rest));
    let http = reqwest::Client::new();
    let mut events = Events::new(http.get(other_url("/events")).bearer_auth(&c.owner.token).send().await.unwrap());
    assert_eq!(events.next(10).await.unwrap().0, "ready");

    // 150 pieces, 20 ms apart: three seconds of streaming in this process (progress notices
    // every 200 ms; without them the other process would read the row every 5 s).
    let pieces: Vec<String> = (0..150).map(|i| format!("p{i} ")).collect();
    let full = pieces.concat();
    llm.push(Script::Stream { pieces, usage: Some((40, 150)), complete: true });
    let mut here = Events::new(c.stream("Tell me a long story").await);
    let (_, start) = here.until("start", 10).await.pop().unwrap();
    let reply_id = start["message_id"].as_str().unwrap().to_string();

    let (_, started) = events.until("reply", 10).await.pop().unwrap();
    assert_eq!(
        (started["message_id"].as_str(), started["status"].as_str()),
        (Some(reply_id.as_str()), Some("streaming"))
    );
    let follower = http
        .get(other_url(&format!("/chat/replies/{reply_id}/stream")))
        .bearer_auth(&c.owner.token)
        .send()
        .await
        .unwrap();
    let seen = Events::new(follower).until("done", 30).await;
    let tokens: Vec<&Value> = seen.iter().filter(|(e, _)| e == "token").map(|(_, d)| d).collect();
    let text: String = tokens.iter().map(|d| d["text"].as_str().unwrap()).collect();
    assert_eq!(text, full, "the whole reply, exactly once");
    assert!(tokens.len() >= 4, "the text came as it was produced, not at the end: {} pieces", tokens.len());
    let (_, ended) = events.until("reply", 10).await.pop().unwrap();
    assert_eq!((ended["message_id"].as_str(), ended["status"].as_str()), (Some(reply_id.as_str()), Some("complete")));
    here.until("done", 10).await;
    assert!(terminate(&mut other).success());
}
