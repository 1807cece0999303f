//! Outbound webhooks against a real receiver on loopback that verifies every delivery with the
//! `svix` library: signed events from memory, chat and tasks, retries when the receiver is down
//! and then back, a slow receiver bounded, replay with the same id, a rotated secret signing
//! beside the old one, an endpoint disabled after days of failure, and every refusal.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::TestApp;

/// The receiver process (`tests/support/webhook_receiver.py`), killed when dropped.
struct Receiver {
    base: String,
    _child: tokio::process::Child,
}

impl Receiver {
    async fn start(port: Option<u16>) -> Receiver {
        let port_arg = port.map(|p| p.to_string());
        let args: Vec<&str> = port_arg.iter().map(String::as_str).collect();
        let (child, port) = crate::email_support::python_server("webhook_receiver.py", &args).await;
        Receiver { base: format!("http://127.0.0.1:{}", port["port"]), _child: child }
    }

    async fn trust(&self, secrets: &[&str]) {
        let r = reqwest::Client::new().post(format!("{}/_secrets", self.base)).json(&secrets).send().await.unwrap();
        assert_eq!(r.status(), 204);
    }

    async fn received(&self) -> Vec<Value> {
        reqwest::get(format!("{}/_received", self.base)).await.unwrap().json::<Vec<Value>>().await.unwrap()
    }
}

/// Makes every queued delivery due and runs the queue.
async fn deliver(app: &TestApp) {
    sqlx::query("UPDATE jobs SET run_at = now() WHERE kind = 'webhook_deliver' AND status = 'queued'")
        .execute(app.pool())
        .await
        .unwrap();
    app.run_jobs().await;
}

#[tokio::test]
async fn deliveries_are_signed_retried_replayed_and_verified_by_a_real_receiver() {
    let app = TestApp::builder().env("MINICLAW_URL_ALLOWLIST", "127.0.0.1").spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let receiver = Receiver::start(None).await;
    let post = |token: &str, body: Value| app.send(app.as_bearer(token, Method::POST, "/v1/webhooks").json(&body));

    // Refusals: a key without the scope, an unknown event, no events, a private address, another
    // tenant's agent; nothing is stored.
    let (_, chat_key) = app.create_key(&owner, &agent, &["chat:write"]).await;
    let url = format!("{}/ok", receiver.base);
    let r = post(&chat_key, json!({ "url": url, "events": ["*"] })).await;
    assert_eq!(r.status, 403, "{}", r.text);
    for (body, status, field) in [
        (json!({ "url": url, "events": ["memory.eaten"] }), 400, "events[0]"),
        (json!({ "url": url, "events": [] }), 400, "events"),
        (json!({ "url": "http://10.1.2.3/hook", "events": ["*"] }), 422, ""),
        (json!({ "url": "ftp://127.0.0.1/hook", "events": ["*"] }), 422, ""),
        (json!({ "url": url, "events": ["*"], "agent_id": uuid::Uuid::now_v7() }), 404, ""),
    ] {
        let r = post(&owner.token, body.clone()).await;
        assert_eq!(r.status.as_u16(), status, "{body}: {}", r.text);
        if !field.is_empty() {
            assert_eq!(r.json()["error"]["details"]["field"], field, "{}", r.text);
        }
    }
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM webhook_endpoints").fetch_one(app.pool()).await.unwrap();
    assert_eq!(n, 0);

    // A key with `webhooks:write` registers one for its own agent.
    let (_, hook_key) = app.create_key(&owner, &agent, &["webhooks:write", "memories:write", "tasks:write"]).await;
    let r = post(
        &hook_key,
        json!({ "url": url, "events": ["memory.created", "reply.completed", "task.created", "webhook.test"] }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let endpoint = r.json();
    let (id, secret) = (endpoint["id"].as_str().unwrap().to_string(), endpoint["secret"].as_str().unwrap().to_string());
    assert!(secret.starts_with("whsec_"));
    assert_eq!(endpoint["agent_id"], agent.as_str());
    let listed = app.send(app.as_bearer(&hook_key, Method::GET, "/v1/webhooks")).await;
    assert!(!listed.text.contains(&secret), "the secret is shown once");
    receiver.trust(&[&secret]).await;

    // A memory, a task and a chat reply: three signed deliveries the receiver verifies.
    let memory = app
        .send(
            app.as_bearer(&hook_key, Method::POST, &format!("/v1/hosted-agents/{agent}/memories"))
                .json(&json!({ "content": "Ada lives in Lisbon", "category": "identity" })),
        )
        .await
        .json();
    let task = app
        .send(
            app.as_bearer(&hook_key, Method::POST, &format!("/v1/hosted-agents/{agent}/tasks"))
                .json(&json!({ "title": "Book the flight" })),
        )
        .await;
    assert_eq!(task.status, 201, "{}", task.text);
    let chat = app
        .send(
            app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{agent}/chat"))
                .json(&json!({ "message": "hello there" })),
        )
        .await
        .json();
    deliver(&app).await;
    let got = receiver.received().await;
    let kinds: Vec<&str> = got.iter().map(|d| d["type"].as_str().unwrap()).collect();
    assert!(
        kinds.contains(&"memory.created") && kinds.contains(&"task.created") && kinds.contains(&"reply.completed"),
        "{got:?}"
    );
    assert!(got.iter().all(|d| d["verified"] == json!([0])), "every delivery verifies with the secret: {got:?}");
    let mem = got.iter().find(|d| d["type"] == "memory.created").unwrap();
    assert_eq!(mem["data"]["memory_id"], memory["id"]);
    assert_eq!(mem["agent_id"], agent.as_str());
    let reply = got.iter().find(|d| d["type"] == "reply.completed").unwrap();
    assert_eq!(reply["data"]["conversation_id"], chat["conversation_id"]);
    assert!(!reply.to_string().contains("hello there"), "ids, not text: {reply}");

    // Each delivery is listed with its attempt; a replay sends it again with the same id.
    let list = app.send(app.as_bearer(&hook_key, Method::GET, &format!("/v1/webhooks/{id}/deliveries"))).await.json();
    let first = list.as_array().unwrap().iter().find(|d| d["event"] == "memory.created").unwrap().clone();
    assert_eq!((first["status"].as_str(), first["attempts"].as_i64()), (Some("delivered"), Some(1)), "{first}");
    assert_eq!(first["log"][0]["status"], 204);
    let replay = format!("/v1/webhooks/{id}/deliveries/{}/replay", first["id"].as_str().unwrap());
    let r = app.send(app.as_bearer(&hook_key, Method::POST, &replay)).await;
    assert_eq!(r.status, 202, "{}", r.text);
    deliver(&app).await;
    let got = receiver.received().await;
    let ids: Vec<&Value> = got.iter().filter(|d| d["type"] == "memory.created").map(|d| &d["id"]).collect();
    assert_eq!(ids.len(), 2);
    assert_eq!(ids[0], ids[1], "a replay keeps the webhook-id the receiver deduplicates on");
    assert_eq!(ids[0], &json!(format!("msg_{}", first["id"].as_str().unwrap().replace('-', ""))));

    // A rotated secret: for a day both sign, so the receiver verifies with either.
    let rotated = app.send(app.as_bearer(&hook_key, Method::POST, &format!("/v1/webhooks/{id}/rotate-secret"))).await;
    assert_eq!(rotated.status, 200, "{}", rotated.text);
    let new_secret = rotated.json()["secret"].as_str().unwrap().to_string();
    assert_ne!(new_secret, secret);
    receiver.trust(&[&secret, &new_secret]).await;
    let r = app.send(app.as_bearer(&hook_key, Method::POST, &format!("/v1/webhooks/{id}/test"))).await;
    assert_eq!(r.status, 202, "{}", r.text);
    deliver(&app).await;
    let test = receiver.received().await.into_iter().find(|d| d["type"] == "webhook.test").unwrap();
    assert_eq!(test["verified"], json!([0, 1]), "{test}");

    // A receiver that is down, then back: the delivery waits and arrives once, with two attempts.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let down = post(&owner.token, json!({ "url": format!("http://127.0.0.1:{port}/ok"), "events": ["webhook.test"] }))
        .await
        .json();
    let down_id = down["id"].as_str().unwrap().to_string();
    app.send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/webhooks/{down_id}/test"))).await;
    deliver(&app).await;
    let pending =
        app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/webhooks/{down_id}/deliveries"))).await.json();
    assert_eq!(
        (pending[0]["status"].as_str(), pending[0]["attempts"].as_i64()),
        (Some("pending"), Some(1)),
        "{pending}"
    );
    assert!(pending[0]["log"][0]["error"].is_string(), "{pending}");
    let back = Receiver::start(Some(port)).await;
    back.trust(&[down["secret"].as_str().unwrap()]).await;
    deliver(&app).await;
    let arrived = back.received().await;
    assert_eq!(arrived.len(), 1, "{arrived:?}");
    assert_eq!(arrived[0]["verified"], json!([0]));
    let done =
        app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/webhooks/{down_id}/deliveries"))).await.json();
    assert_eq!((done[0]["status"].as_str(), done[0]["attempts"].as_i64()), (Some("delivered"), Some(2)), "{done}");
    let endpoint = app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/webhooks/{down_id}"))).await.json();
    assert_eq!(endpoint["failing_since"], Value::Null, "a success ends the failure clock");

    // A slow receiver is cut off after 10 s and the attempt recorded as failed.
    let slow = post(&owner.token, json!({ "url": format!("{}/slow", receiver.base), "events": ["webhook.test"] }))
        .await
        .json();
    let slow_id = slow["id"].as_str().unwrap().to_string();
    app.send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/webhooks/{slow_id}/test"))).await;
    deliver(&app).await;
    let slowed =
        app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/webhooks/{slow_id}/deliveries"))).await.json();
    assert_eq!(slowed[0]["status"], "pending", "{slowed}");
    assert!(slowed[0]["log"][0]["error"].as_str().unwrap().contains("no answer within 10 s"), "{slowed}");

    // An endpoint failing for days is disabled, and its owner told; no new deliveries are made.
    let failing =
        post(&owner.token, json!({ "url": format!("{}/fail", receiver.base), "events": ["*"], "agent_id": agent }))
            .await
            .json();
    let failing_id = failing["id"].as_str().unwrap().to_string();
    sqlx::query("UPDATE webhook_endpoints SET failing_since = now() - interval '4 days' WHERE id = $1::uuid")
        .bind(&failing_id)
        .execute(app.pool())
        .await
        .unwrap();
    app.send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/webhooks/{failing_id}/test"))).await;
    deliver(&app).await;
    let state = app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/webhooks/{failing_id}"))).await.json();
    assert_eq!(state["enabled"], false, "{state}");
    assert!(state["disabled_reason"].as_str().unwrap().contains("3 days"), "{state}");
    let notes: Vec<String> = sqlx::query_scalar("SELECT kind FROM notifications WHERE kind = 'webhook_disabled'")
        .fetch_all(app.pool())
        .await
        .unwrap();
    assert_eq!(notes.len(), 1);
    let before: i64 = sqlx::query_scalar("SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1::uuid")
        .bind(&failing_id)
        .fetch_one(app.pool())
        .await
        .unwrap();
    app.send(
        app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{agent}/memories"))
            .json(&json!({ "content": "Ada likes tea", "category": "preference" })),
    )
    .await;
    let after: i64 = sqlx::query_scalar("SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1::uuid")
        .bind(&failing_id)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(after, before, "a disabled endpoint gets no deliveries");

    // Another account sees none of it.
    let mallory = app.signup("mallory@example.com").await;
    let theirs = app.send(app.as_bearer(&mallory.token, Method::GET, "/v1/webhooks")).await.json();
    assert_eq!(theirs, json!([]));
    let r = app.send(app.as_bearer(&mallory.token, Method::GET, &format!("/v1/webhooks/{id}"))).await;
    assert_eq!(r.status, 404);
}

#[tokio::test]
async fn the_owner_registers_tests_and_replays_on_the_webhooks_tab() {
    let app = TestApp::builder().env("MINICLAW_URL_ALLOWLIST", "127.0.0.1").spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let receiver = Receiver::start(None).await;
    let tab = format!("/agents/{agent}/webhooks");
    let page = || async { app.send(app.as_bearer(&owner.token, Method::GET, &tab)).await };
    let first = page().await;
    assert_eq!(first.status, 200, "{}", first.text);
    let csrf = crate::dashboard::csrf_in(&first.text);
    let form = |fields: &[(&str, &str)]| crate::dashboard::form_body(&csrf, fields);

    // A private address is refused on the page; a good endpoint shows its secret once.
    let r = crate::dashboard::post(&app, &owner, &tab, &form(&[("url", "http://10.9.9.9/x"), ("events", "*")])).await;
    assert!(r.text.contains("role=\"alert\""), "{}", r.text);
    let url = format!("{}/ok", receiver.base);
    let r = crate::dashboard::post(
        &app,
        &owner,
        &tab,
        &form(&[("url", &url), ("events", "webhook.test"), ("scope", "agent")]),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let (_, after) = r.text.split_once(r#"data-testid="webhook-secret""#).expect("the secret is shown once");
    let secret = after.split("<code>").nth(2).unwrap().split('<').next().unwrap().to_string();
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert!(!page().await.text.contains(&secret), "and only once");
    receiver.trust(&[&secret]).await;

    // "Send a test" delivers a verified webhook.test, listed with its answer; it can be sent again.
    let endpoint: String =
        sqlx::query_scalar("SELECT id::text FROM webhook_endpoints").fetch_one(app.pool()).await.unwrap();
    let r = crate::dashboard::post(&app, &owner, &format!("{tab}/{endpoint}"), &form(&[("action", "test")])).await;
    assert_eq!(r.status, 303, "{}", r.text);
    deliver(&app).await;
    let listed = page().await.text;
    assert!(listed.contains("webhook.test") && listed.contains("HTTP 204") && listed.contains("delivered"), "{listed}");
    let delivery: String =
        sqlx::query_scalar("SELECT id::text FROM webhook_deliveries").fetch_one(app.pool()).await.unwrap();
    let r = crate::dashboard::post(&app, &owner, &format!("{tab}/{endpoint}/deliveries/{delivery}"), &form(&[])).await;
    assert_eq!(r.status, 303, "{}", r.text);
    deliver(&app).await;
    let got = receiver.received().await;
    assert_eq!(got.len(), 2);
    assert!(got.iter().all(|d| d["verified"] == json!([0]) && d["id"] == got[0]["id"]), "{got:?}");

    // Turned off, it is shown off; removed, it is gone.
    crate::dashboard::post(&app, &owner, &format!("{tab}/{endpoint}"), &form(&[("action", "disable")])).await;
    assert!(page().await.text.contains(r#"value="enable""#));
    crate::dashboard::post(&app, &owner, &format!("{tab}/{endpoint}"), &form(&[("action", "remove")])).await;
    assert!(!page().await.text.contains(r#"data-testid="webhook-endpoint""#));
}
