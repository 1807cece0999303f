//! A2A: the official Python SDK (`a2a-sdk`) as another agent, resolving the Agent Card and
//! sending messages, streamed and not, reading tasks back, cancelling one mid-reply; raw
//! JSON-RPC for what the SDK would not send; the card's publication rule.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::chat_support::Chat;
use crate::common::TestApp;
use crate::llm_server::{LlmServer, Script};

async fn a2a_client(c: &Chat, key: &str, scenario: &str) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/a2a_client.py");
    let base = c.app.url(&format!("/agents/{}", c.id));
    let out = tokio::time::timeout(
        Duration::from_secs(120),
        tokio::process::Command::new(crate::email_support::python())
            .args([script, &base, key, scenario])
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the A2A client finished within 120 s")
    .unwrap_or_else(|e| panic!("cannot run the A2A client (run scripts/setup.sh --test): {e}"));
    assert!(out.status.success(), "a2a_client.py {scenario} failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn text(parts: &Value) -> String {
    parts.as_array().unwrap().iter().filter_map(|p| p["text"].as_str()).collect()
}

#[tokio::test]
async fn another_agent_talks_to_ours_through_the_a2a_sdk() {
    let c = Chat::new(TestApp::spawn().await).await;
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    let v = a2a_client(&c, &key, "plain").await;

    let card = &v["card"];
    assert_eq!(card["name"], "Ada");
    assert_eq!(
        card["supportedInterfaces"][0],
        json!({ "url": c.app.url(&format!("/v1/hosted-agents/{}/a2a", c.id)), "protocolBinding": "JSONRPC", "protocolVersion": "1.0" })
    );
    assert_eq!(card["capabilities"]["streaming"], true);

    let first = &v["first"][0]["task"];
    assert_eq!(first["status"]["state"], "TASK_STATE_COMPLETED", "{first}");
    let reply = text(&first["artifacts"][0]["parts"]);
    assert!(reply.starts_with("[offline engine"), "{reply}");
    assert_eq!(text(&first["status"]["message"]["parts"]), reply);
    assert_eq!(text(&first["history"][0]["parts"]), "Hi, I am Bea and I keep bees on my roof.");
    // The second message continued the same conversation (the A2A context).
    let second = &v["second"][0]["task"];
    assert_eq!(second["contextId"], first["contextId"]);
    assert_ne!(second["id"], first["id"]);
    assert_eq!(v["got"]["id"], first["id"]);
    assert_eq!(v["got"]["status"]["state"], "TASK_STATE_COMPLETED");

    assert_eq!(v["unknown_task"], "TaskNotFoundError", "{v}");
    assert_eq!(v["cancel_ended"], "TaskNotCancelableError");
    assert_eq!(v["not_text"], "ContentTypeNotSupportedError");
    assert_eq!(v["bad_context"], "InvalidParamsError");

    // Both turns are in one conversation of the `a2a` channel; nothing else was stored.
    let rows: Vec<(String, i64)> = sqlx::query_as("SELECT channel, count(*) FROM chat_messages GROUP BY channel")
        .fetch_all(c.app.pool())
        .await
        .unwrap();
    assert_eq!(rows, vec![("a2a".to_string(), 4)]);
    let conversations: i64 =
        sqlx::query_scalar("SELECT count(*) FROM conversations").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(conversations, 1);
}

#[tokio::test]
async fn a_streamed_task_arrives_in_chunks_and_a_cancelled_one_stops() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;

    let pieces: Vec<String> = (0..6).map(|i| format!("part{i} ")).collect();
    server.push(Script::Stream { pieces: pieces.clone(), usage: Some((20, 12)), complete: true });
    let v = a2a_client(&c, &key, "stream").await;
    let events = v["events"].as_array().unwrap();
    assert_eq!(events[0]["task"]["status"]["state"], "TASK_STATE_WORKING", "{v}");
    let chunks: String =
        events.iter().filter_map(|e| e.get("artifactUpdate")).map(|u| text(&u["artifact"]["parts"])).collect();
    assert_eq!(chunks, pieces.concat());
    assert!(events.iter().filter(|e| e.get("artifactUpdate").is_some()).count() >= 2, "{v}");
    let last = &events.last().unwrap()["statusUpdate"];
    assert_eq!(last["status"]["state"], "TASK_STATE_COMPLETED", "{v}");
    assert_eq!(text(&last["status"]["message"]["parts"]), pieces.concat());

    // A reply that would never end: cancelled after its first chunk, from another client.
    server.push(Script::Drip { piece: "drip ".into(), every: Duration::from_millis(100) });
    let v = a2a_client(&c, &key, "cancel").await;
    assert_eq!(v["cancelled"]["status"]["state"], "TASK_STATE_CANCELED", "{v}");
    assert_eq!(v["got"]["status"]["state"], "TASK_STATE_CANCELED");
    let last = &v["events"].as_array().unwrap().last().unwrap()["statusUpdate"];
    assert_eq!(last["status"]["state"], "TASK_STATE_CANCELED", "{v}");
    // The text written before the cancel stays on the stored reply, marked as stopped.
    let (status, content): (String, String) = sqlx::query_as(
        "SELECT status, content FROM chat_messages WHERE role = 'assistant' ORDER BY created_at DESC LIMIT 1",
    )
    .fetch_one(c.app.pool())
    .await
    .unwrap();
    assert_eq!(status, "error");
    assert!(content.starts_with("drip"), "{content}");
}

/// Raw JSON-RPC: what the SDK would not send is refused with A2A's errors, and nothing is
/// stored; scopes and other tenants as on every route.
#[tokio::test]
async fn the_a2a_endpoint_refuses_what_is_not_a_task_it_can_run() {
    let c = Chat::new(TestApp::spawn().await).await;
    let (_, reader) = c.app.create_key(&c.owner, &c.id, &["chat:read"]).await;
    let (_, writer) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    let path = c.path("/a2a");
    let call = |key: &str, body: String| {
        c.app.send(
            c.app
                .as_bearer(key, Method::POST, &path)
                .header("content-type", "application/json")
                .header("a2a-version", "1.0")
                .body(body),
        )
    };
    let send = |text: &str| {
        json!({ "jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": { "message": {
            "messageId": "m1", "role": "ROLE_USER", "parts": [{ "text": text }] } } })
        .to_string()
    };
    let code = |r: &crate::common::Reply| r.json()["error"]["code"].as_i64();

    assert_eq!(code(&call(&writer, "{ nope".into()).await), Some(-32700));
    assert_eq!(code(&call(&writer, json!({ "method": "SendMessage" }).to_string()).await), Some(-32600));
    let unknown = json!({ "jsonrpc": "2.0", "id": 2, "method": "DropTables", "params": {} }).to_string();
    assert_eq!(code(&call(&writer, unknown).await), Some(-32601));
    let push = json!({ "jsonrpc": "2.0", "id": 3, "method": "CreateTaskPushNotificationConfig", "params": {} });
    assert_eq!(code(&call(&writer, push.to_string()).await), Some(-32003));
    let r = call(&reader, send("hello")).await;
    assert_eq!(
        (code(&r), r.json()["error"]["data"]["code"].as_str()),
        (Some(-32600), Some("missing_scope")),
        "{}",
        r.text
    );
    let r = call(&writer, send(&"x".repeat(2001))).await;
    assert_eq!((code(&r), r.json()["error"]["data"]["code"].as_str()), (Some(-32602), Some("too_long")), "{}", r.text);
    let old = c
        .app
        .send(c.app.as_bearer(&writer, Method::POST, &path).header("a2a-version", "0.3").body(send("hello")))
        .await;
    assert_eq!(code(&old), Some(-32009), "{}", old.text);
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM chat_messages").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(stored, 0);

    // A task is read with `chat:read`; one that is not this agent's (or not an A2A turn) is not found.
    let done = call(&writer, send("hello there")).await.json();
    let task = done["result"]["task"]["id"].as_str().unwrap().to_string();
    let get = |id: &str| json!({ "jsonrpc": "2.0", "id": 4, "method": "GetTask", "params": { "id": id } }).to_string();
    assert_eq!(call(&reader, get(&task)).await.json()["result"]["id"], task.as_str());
    let web = c.say("a turn on another channel", None).await;
    assert_eq!(code(&call(&reader, get(web["message_id"].as_str().unwrap())).await), Some(-32001));
    let stranger = c.app.signup("eve@example.com").await;
    let theirs = c.app.create_agent(&stranger, json!({ "name": "Eve's" })).await["id"].as_str().unwrap().to_string();
    let (_, eve) = c.app.create_key(&stranger, &theirs, &["*"]).await;
    assert_eq!(call(&eve, get(&task)).await.status, 404, "another agent's key does not reach this endpoint");
    let own =
        c.app.send(c.app.as_bearer(&eve, Method::POST, &format!("/v1/hosted-agents/{theirs}/a2a")).body(get(&task)));
    assert_eq!(code(&own.await), Some(-32001), "nor this agent's tasks through its own");
}

#[tokio::test]
async fn the_agent_card_is_public_once_the_agent_is_published() {
    let c = Chat::new(TestApp::spawn().await).await;
    let card = format!("/agents/{}/.well-known/agent-card.json", c.id);
    assert_eq!(c.app.get(&card).await.status, 401, "not public before the owner publishes the agent");
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:read"]).await;
    let r = c.app.send(c.app.as_bearer(&key, Method::GET, &card)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["name"], "Ada");

    // Published (a domain in its identity profile, and a registration asked for, as
    // `POST …/identity/register` does with a chain): public, also at the domain's well-known path.
    let r = c
        .app
        .send(
            c.app
                .as_bearer(&c.owner.token, Method::PATCH, &c.path("/identity"))
                .json(&json!({ "domain": "ada.example" })),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    // The domain proven (as its TXT record would) and a registration asked for.
    sqlx::query(
        "UPDATE agent_identities SET status = 'pending', requested_at = now(), domain_verified_at = now()
          WHERE agent_id = $1::uuid",
    )
    .bind(&c.id)
    .execute(c.app.pool())
    .await
    .unwrap();
    let public = c.app.get(&card).await;
    assert_eq!(public.status, 200, "{}", public.text);
    let by_host =
        c.app.send(c.app.request(Method::GET, "/.well-known/agent-card.json").header("host", "ada.example")).await;
    assert_eq!(by_host.status, 200, "{}", by_host.text);
    assert_eq!(by_host.json()["name"], "Ada");
    // Its registration file points other agents at the card.
    let file = c.app.get(&format!("/agents/{}/registration.json", c.id)).await.json();
    let a2a = file["services"].as_array().unwrap().iter().find(|s| s["name"] == "A2A").unwrap().clone();
    assert_eq!((a2a["endpoint"].as_str(), a2a["version"].as_str()), (Some(c.app.url(&card).as_str()), Some("1.0")));
}
