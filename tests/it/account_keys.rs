//! SPEC H4 over HTTP: keys of the account, for some of its agents or all of them; a key's own
//! rate; a key's daily spend cap held under a burst; usage attributed to the key.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Reply, Session, TestApp};
use crate::llm_server::{LlmServer, Script};

async fn issue(app: &TestApp, owner: &Session, body: Value) -> Reply {
    app.send(app.as_bearer(&owner.token, Method::POST, "/v1/api-keys").json(&body)).await
}

async fn agent(app: &TestApp, owner: &Session, name: &str) -> String {
    app.create_agent(owner, json!({ "name": name })).await["id"].as_str().unwrap().to_string()
}

/// What key `key` gets reading agent `agent`'s memories.
async fn reads(app: &TestApp, key: &str, agent: &str) -> u16 {
    app.send(app.as_bearer(key, Method::GET, &format!("/v1/hosted-agents/{agent}/memories"))).await.status.as_u16()
}

async fn models(app: &TestApp, key: &str) -> Vec<String> {
    let r = app.send(app.as_bearer(key, Method::GET, "/v1/models")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mut ids: Vec<String> =
        r.json()["data"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap().to_string()).collect();
    ids.sort();
    ids
}

#[tokio::test]
async fn an_account_key_reaches_the_agents_it_names_or_all_and_no_one_elses() {
    let app = TestApp::spawn().await;
    let alice = app.signup("alice@example.com").await;
    let mallory = app.signup("mallory@example.com").await;
    let (a1, a2, a3) =
        (agent(&app, &alice, "One").await, agent(&app, &alice, "Two").await, agent(&app, &alice, "Three").await);
    let m1 = agent(&app, &mallory, "Mallory's").await;

    // Some agents: exactly those, with the scopes asked for.
    let r =
        issue(&app, &alice, json!({ "name": "two agents", "scopes": ["memories:read"], "agents": [a1, a2, a1] })).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let issued = r.json();
    let some = issued["key"].as_str().unwrap().to_string();
    assert!(some.starts_with("mck_"));
    assert_eq!(issued["agents"].as_array().unwrap().len(), 2, "repeats are dropped: {issued}");
    assert_eq!((reads(&app, &some, &a1).await, reads(&app, &some, &a2).await), (200, 200));
    assert_eq!(reads(&app, &some, &a3).await, 404, "an agent it does not name");
    assert_eq!(reads(&app, &some, &m1).await, 404, "another account's agent");
    let mut want = vec![a1.clone(), a2.clone()];
    want.sort();
    assert_eq!(models(&app, &some).await, want);
    // Scopes hold on every agent it reaches.
    let r = app
        .send(
            app.as_bearer(&some, Method::POST, &format!("/v1/hosted-agents/{a1}/memories"))
                .json(&json!({ "content": "x", "category": "identity" })),
        )
        .await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "missing_scope"), "{}", r.text);
    // It is not an agent key: MCP and webhooks say so.
    let r = app
        .send(app.request(Method::POST, "/mcp").bearer_auth(&some).header("accept", "application/json, text/event-stream").json(
            &json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "raw", "version": "1" } } }),
        ))
        .await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "agent_key_required"), "{}", r.text);
    let r = app.send(app.as_bearer(&some, Method::GET, "/v1/webhooks")).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "agent_key_required"), "{}", r.text);

    // Another account's agent, an empty list, a bad limit: refused, nothing issued.
    for (body, field) in [
        (json!({ "name": "k", "scopes": ["*"], "agents": [m1] }), "agents"),
        (json!({ "name": "k", "scopes": ["*"], "agents": [] }), "agents"),
        (json!({ "name": "k", "scopes": ["*"], "rate_per_minute": 0 }), "rate_per_minute"),
        (json!({ "name": "k", "scopes": ["*"], "daily_usd_cap": -1.0 }), "daily_usd_cap"),
        (json!({ "name": "k", "scopes": ["no:such"] }), "scopes"),
    ] {
        let r = issue(&app, &alice, body.clone()).await;
        assert!(matches!(r.status.as_u16(), 400 | 422), "{body}: {} {}", r.status, r.text);
        assert_eq!(r.json()["error"]["details"]["field"], field, "{body}: {}", r.text);
    }

    // Every agent: those of today, one made later, none deleted, none of Mallory's.
    let all = issue(&app, &alice, json!({ "name": "all agents", "scopes": ["*"] })).await.json();
    assert!(all["agents"].is_null(), "{all}");
    let all = all["key"].as_str().unwrap().to_string();
    let a4 = agent(&app, &alice, "Four").await;
    for a in [&a1, &a2, &a3, &a4] {
        assert_eq!(reads(&app, &all, a).await, 200);
    }
    assert_eq!(reads(&app, &all, &m1).await, 404);
    let r = app.send(app.as_bearer(&alice.token, Method::DELETE, &format!("/v1/hosted-agents/{a3}"))).await;
    assert!(r.status.is_success(), "{}", r.text);
    assert_eq!(reads(&app, &all, &a3).await, 404, "a deleted agent");
    assert_eq!(models(&app, &all).await.len(), 3);
    // It chats through the OpenAI-compatible route with any agent it reaches.
    let r = app
        .send(app.as_bearer(&all, Method::POST, "/v1/chat/completions").json(&json!({
            "model": a4, "messages": [{ "role": "user", "content": "hello" }] })))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = app
        .send(app.as_bearer(&all, Method::POST, "/v1/chat/completions").json(&json!({
            "model": m1, "messages": [{ "role": "user", "content": "hello" }] })))
        .await;
    assert_eq!(r.status, 404, "{}", r.text);

    // Listed (no secrets), one by one, and never to another account.
    let r = app.send(app.as_bearer(&alice.token, Method::GET, "/v1/api-keys")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json().as_array().unwrap().len(), 2);
    assert!(!r.text.contains(&some[40..]) && !r.text.contains("secret_hash"), "{}", r.text);
    let id = issued["id"].as_str().unwrap();
    let r = app.send(app.as_bearer(&mallory.token, Method::GET, &format!("/v1/api-keys/{id}"))).await;
    assert_eq!(r.status, 404);
    let r = app.send(app.as_bearer(&mallory.token, Method::DELETE, &format!("/v1/api-keys/{id}"))).await;
    assert_eq!(r.status, 404);
    assert_eq!(reads(&app, &some, &a1).await, 200, "Mallory revoked nothing");
    // A key cannot issue keys.
    let r = app
        .send(app.as_bearer(&all, Method::POST, "/v1/api-keys").json(&json!({ "name": "k", "scopes": ["*"] })))
        .await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "owner_session_required"));

    // Revoked: it stops at once, and the account's activity says who issued and revoked it.
    let r = app.send(app.as_bearer(&alice.token, Method::DELETE, &format!("/v1/api-keys/{id}"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json()["revoked_at"].is_string());
    assert_eq!(reads(&app, &some, &a1).await, 401);
    let r = app.send(app.as_bearer(&alice.token, Method::GET, "/v1/activity")).await;
    for action in ["account_key.issued", "account_key.revoked"] {
        assert!(r.text.contains(action), "{action}: {}", r.text);
    }
}

#[tokio::test]
async fn a_key_with_a_rate_of_its_own_is_held_to_it() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let a = agent(&app, &owner, "Ada").await;
    let r = app
        .send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{a}/api-keys")).json(&json!({
            "name": "slow", "scopes": ["*"], "rate_per_minute": 4 })))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json()["rate_per_minute"], 4);
    let slow = r.json()["key"].as_str().unwrap().to_string();
    let account = issue(&app, &owner, json!({ "name": "slow too", "scopes": ["*"], "rate_per_minute": 4 })).await;
    let account = account.json()["key"].as_str().unwrap().to_string();
    let (_, fast) = app.create_key(&owner, &a, &["*"]).await;
    for key in [&slow, &account] {
        // 4 a minute: one request and a burst of one, then 429 with the time to wait.
        let statuses: Vec<u16> = {
            let mut s = Vec::new();
            for _ in 0..4 {
                s.push(reads(&app, key, &a).await);
            }
            s
        };
        assert_eq!(statuses, [200, 200, 429, 429]);
        let r = app.send(app.as_bearer(key, Method::GET, &format!("/v1/hosted-agents/{a}/memories"))).await;
        assert_eq!(r.error_code(), "rate_limited", "{}", r.text);
        assert!(r.text.contains("4 requests a minute"), "{}", r.text);
        assert!(r.headers.contains_key("retry-after"));
    }
    // Another key of the same agent has only the platform's rate.
    for _ in 0..10 {
        assert_eq!(reads(&app, &fast, &a).await, 200);
    }
}

#[tokio::test]
async fn a_keys_daily_cap_holds_under_a_burst_and_its_usage_is_its_own() {
    let server = LlmServer::start().await;
    let app = TestApp::builder()
        .env("OPENAI_BASE_URL", &server.base_url())
        // Only the key's cap binds here.
        .env("MINICLAW_NEW_ACCOUNT_DAILY_USD", "off")
        .env("MINICLAW_NEW_ACCOUNT_TURNS", "off")
        .env("MINICLAW_GLOBAL_DAILY_USD", "1000")
        .spawn()
        .await;
    for _ in 0..80 {
        server.push(Script::Stream { pieces: vec!["Hi!".into()], usage: Some((1_000, 100)), complete: true });
    }
    let owner = app.signup("ada@example.com").await;
    let agents = [agent(&app, &owner, "A").await, agent(&app, &owner, "B").await, agent(&app, &owner, "C").await];
    // A turn of the scripted model costs $0.00042; the cap pays for two of them.
    let r = issue(&app, &owner, json!({ "name": "capped", "scopes": ["chat:write"], "daily_usd_cap": 0.001 })).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let capped_id = r.json()["id"].as_str().unwrap().to_string();
    let capped = r.json()["key"].as_str().unwrap().to_string();
    let (_, other) = app.create_key(&owner, &agents[0], &["chat:write"]).await;
    let turn = |key: &str, agent: &str| {
        let body = json!({ "model": agent, "messages": [{ "role": "user", "content": "hello" }] });
        app.send(app.as_bearer(key, Method::POST, "/v1/chat/completions").json(&body))
    };

    let replies = futures::future::join_all((0..30).map(|i| turn(&capped, &agents[i % 3]))).await;
    let mut answered = replies.iter().filter(|r| r.status == 200).count();
    for r in replies.iter().filter(|r| r.status != 200) {
        assert_eq!((r.status.as_u16(), r.error_code().as_str()), (429, "key_spend_cap"), "{}", r.text);
    }
    assert!((1..=3).contains(&answered), "{answered} of 30 answered at once");
    let last = loop {
        let r = turn(&capped, &agents[1]).await;
        if r.status != 200 {
            break r;
        }
        answered += 1;
        assert!(answered <= 4, "a $0.001 cap pays for three turns of $0.00042 at most");
    };
    assert_eq!((last.status.as_u16(), last.error_code().as_str()), (429, "key_spend_cap"), "{}", last.text);
    assert!(last.headers.contains_key("retry-after"));

    // What the key spent is its own: the log attributes the calls to it, within cap + one turn.
    let (logged, calls): (f64, i64) = sqlx::query_as(
        "SELECT coalesce(sum(cost_usd), 0)::float8, count(*) FROM llm_usage_logs WHERE key_id = $1::uuid",
    )
    .bind(&capped_id)
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert!(logged > 0.0 && logged <= 0.001 + 0.00042 + 1e-9, "spent ${logged} against a $0.001 cap");
    let r = app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/api-keys/{capped_id}/usage?days=7"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let usage = r.json();
    assert!((usage["today_spent_usd"].as_f64().unwrap() - logged).abs() < 1e-12, "{usage}");
    assert_eq!(usage["today_held_usd"], 0.0, "every hold was settled: {usage}");
    assert_eq!(usage["days"][0]["calls"], calls, "{usage}");
    assert!((usage["days"][0]["cost_usd"].as_f64().unwrap() - logged).abs() < 1e-12, "{usage}");
    let r =
        app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/api-keys/{capped_id}/usage?days=31"))).await;
    assert_eq!(r.status, 400, "{}", r.text);

    // Another key of the account is not held by this one's cap, and its usage is apart.
    let r = turn(&other, &agents[0]).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let keys =
        app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/hosted-agents/{}/api-keys", agents[0]))).await;
    let other_id = keys.json()[0]["id"].as_str().unwrap().to_string();
    let r = app
        .send(app.as_bearer(
            &owner.token,
            Method::GET,
            &format!("/v1/hosted-agents/{}/api-keys/{other_id}/usage", agents[0]),
        ))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json()["days"][0]["calls"].as_i64().unwrap() >= 1, "{}", r.text);
    assert!(r.json()["today_spent_usd"].as_f64().unwrap() < 0.001, "{}", r.text);
}
