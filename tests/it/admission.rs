//! SPEC T1 over HTTP: one admission for every cost. Only models the operator priced can be
//! chosen; a burst of turns from a new account holds each turn's most expensive outcome
//! against its allowance before any model is asked, so the account spends at most its
//! allowance plus one turn, however many requests arrive at once, and an established account
//! still has the platform's day; a new account's turns in progress are bounded.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::common::{Reply, Session, TestApp};
use crate::llm_server::{LlmServer, Script};

#[tokio::test]
async fn only_a_model_the_operator_priced_can_be_chosen() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let create = |body: serde_json::Value| app.as_bearer(&owner.token, Method::POST, "/v1/hosted-agents").json(&body);
    let r = app.send(create(json!({ "name": "Ada", "tier": "premium", "premium_model": "mystery-model-9" }))).await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert_eq!(r.json()["error"]["details"]["field"], "premium_model", "{}", r.text);
    assert!(r.text.contains("gpt-5.4"), "the refusal lists the models to choose from: {}", r.text);
    let r = app.send(create(json!({ "name": "Ada", "tier": "premium", "premium_model": "offline" }))).await;
    assert_eq!(r.status, 422, "{}", r.text);

    let r = app.send(create(json!({ "name": "Ada", "tier": "premium", "premium_model": "gpt-5.4" }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let patch = |body: serde_json::Value| {
        app.as_bearer(&owner.token, Method::PATCH, &format!("/v1/hosted-agents/{id}")).json(&body)
    };
    let r = app.send(patch(json!({ "premium_model": "not-on-the-list" }))).await;
    assert_eq!((r.status.as_u16(), r.json()["error"]["details"]["field"].as_str()), (422, Some("premium_model")));
    assert_eq!(app.send(patch(json!({ "premium_model": "claude-sonnet-4-5" }))).await.status, 200);
    // An agent that kept a model from before the list was enforced may still change others.
    sqlx::query("UPDATE agents SET premium_model = 'legacy-model' WHERE id = $1::uuid")
        .bind(&id)
        .execute(app.pool())
        .await
        .unwrap();
    assert_eq!(app.send(patch(json!({ "name": "Ada Two" }))).await.status, 200);
}

async fn books(app: &TestApp, tenant: &str) -> (f64, f64, f64, i64) {
    sqlx::query_as(
        "SELECT (SELECT coalesce(sum(cost_usd), 0) FROM llm_usage_logs WHERE tenant_id = $1::uuid),
                (SELECT coalesce(sum(cost_usd), 0) FROM llm_tenant_daily_usage WHERE tenant_id = $1::uuid),
                (SELECT coalesce(sum(reserved_usd), 0) + (SELECT coalesce(sum(reserved_usd), 0) FROM llm_platform_spend)
                   FROM llm_tenant_daily_usage WHERE tenant_id = $1::uuid),
                (SELECT count(*) FROM llm_turn_reservations)",
    )
    .bind(tenant)
    .fetch_one(app.pool())
    .await
    .unwrap()
}

/// `n` OpenAI-compatible requests at once, spread over `agents` with their keys.
async fn burst(app: &TestApp, agents: &[(String, String)], n: usize) -> Vec<Reply> {
    let requests = (0..n).map(|i| {
        let (agent, key) = &agents[i % agents.len()];
        let body = json!({ "model": agent, "messages": [{ "role": "user", "content": "hello" }] });
        app.send(app.as_bearer(key, Method::POST, "/v1/chat/completions").json(&body))
    });
    futures::future::join_all(requests).await
}

async fn agents_with_keys(app: &TestApp, owner: &Session, n: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for i in 0..n {
        let id = app.create_agent(owner, json!({ "name": format!("A{i}") })).await["id"].as_str().unwrap().to_string();
        let (_, key) = app.create_key(owner, &id, &["chat:write"]).await;
        out.push((id, key));
    }
    out
}

#[tokio::test]
async fn a_burst_from_a_new_account_spends_its_allowance_plus_one_turn_at_most() {
    let server = LlmServer::start().await;
    // A turn of the scripted model (gpt-5-mini, 1,000 + 100 tokens) costs $0.00042; what one
    // may cost at most (its prompt and longest answer) is held while it runs, far above the
    // new account's allowance here.
    let app = TestApp::builder()
        .env("OPENAI_BASE_URL", &server.base_url())
        .env("MINICLAW_NEW_ACCOUNT_DAILY_USD", "0.001")
        .env("MINICLAW_GLOBAL_DAILY_USD", "1")
        .spawn()
        .await;
    for _ in 0..80 {
        server.push(Script::Stream { pieces: vec!["Hi!".into()], usage: Some((1_000, 100)), complete: true });
    }
    let mallory = app.signup("mallory@example.com").await;
    let agents = agents_with_keys(&app, &mallory, 5).await;
    let replies = burst(&app, &agents, 60).await;
    let mut answered = replies.iter().filter(|r| r.status == 200).count();
    for r in replies.iter().filter(|r| r.status != 200) {
        assert_eq!((r.status.as_u16(), r.error_code().as_str()), (429, "new_account_allowance"), "{}", r.text);
    }
    let (logged, counted, held, holds) = books(&app, &mallory.tenant_id).await;
    assert!((1..=3).contains(&answered), "{answered} of 60 answered at once");
    assert!((logged - counted).abs() < 1e-12, "the allowance's books hold what was logged: {counted} vs {logged}");
    assert_eq!((held, holds), (0.0, 0), "every hold was settled");
    // One after another, turns run until what was spent reaches the allowance; then the next
    // is refused outright until midnight.
    let last = loop {
        let r = burst(&app, &agents, 1).await.remove(0);
        if r.status != 200 {
            break r;
        }
        answered += 1;
        assert!(answered <= 3, "a $0.001 allowance pays for three turns of $0.00042 at most");
    };
    assert_eq!((last.status.as_u16(), last.error_code().as_str()), (429, "new_account_allowance"), "{}", last.text);
    assert!(last.headers.contains_key("retry-after"));
    let (logged, _, _, _) = books(&app, &mallory.tenant_id).await;
    assert!(logged <= 0.001 + 0.00042 + 1e-9, "spent ${logged} against a $0.001 allowance");

    // An established account still has the platform's day.
    let carol = app.signup("carol@example.com").await;
    sqlx::query("UPDATE owners SET email_verified_at = now() WHERE id = $1::uuid")
        .bind(&carol.owner_id)
        .execute(app.pool())
        .await
        .unwrap();
    sqlx::query("UPDATE tenants SET created_at = now() - interval '30 days' WHERE id = $1::uuid")
        .bind(&carol.tenant_id)
        .execute(app.pool())
        .await
        .unwrap();
    let carols = agents_with_keys(&app, &carol, 1).await;
    server.push(Script::Stream { pieces: vec!["Hi!".into()], usage: Some((1_000, 100)), complete: true });
    let r = &burst(&app, &carols, 1).await[0];
    assert_eq!(r.status, 200, "{}", r.text);
}

#[tokio::test]
async fn a_new_account_has_a_few_replies_in_progress_at_once() {
    let server = LlmServer::start().await;
    let app = TestApp::builder()
        .env("OPENAI_BASE_URL", &server.base_url())
        .env("MINICLAW_NEW_ACCOUNT_DAILY_USD", "off")
        .env("MINICLAW_NEW_ACCOUNT_TURNS", "2")
        .spawn()
        .await;
    for _ in 0..12 {
        let slow = Script::Stream { pieces: vec!["Hi!".into()], usage: Some((10, 5)), complete: true };
        server.push(Script::Delay(Duration::from_millis(800), Box::new(slow)));
    }
    let owner = app.signup("ada@example.com").await;
    let agents = agents_with_keys(&app, &owner, 2).await;
    let replies = burst(&app, &agents, 8).await;
    let answered = replies.iter().filter(|r| r.status == 200).count();
    let busy: Vec<&Reply> = replies.iter().filter(|r| r.status == 429).collect();
    assert_eq!(answered + busy.len(), 8);
    assert!((1..=2).contains(&answered), "{answered} answered at once");
    assert!(busy[0].text.contains("replies in progress at once"), "{}", busy[0].text);
    assert_eq!(busy[0].error_code(), "new_account_allowance");
    // Once they ended, the next one runs.
    assert_eq!(burst(&app, &agents, 1).await[0].status, 200);
}

/// The tenant's day and the platform's day as the books have them: spent by the tenant, spent
/// by the platform, and what is still held anywhere.
async fn days(app: &TestApp, tenant: &str) -> (f64, f64, f64) {
    sqlx::query_as(
        "SELECT (SELECT coalesce(sum(cost_usd), 0) FROM llm_tenant_daily_usage WHERE tenant_id = $1::uuid),
                (SELECT coalesce(sum(cost_usd), 0) FROM llm_platform_spend),
                (SELECT coalesce(sum(usd), 0) FROM llm_turn_reservations)",
    )
    .bind(tenant)
    .fetch_one(app.pool())
    .await
    .unwrap()
}

#[tokio::test]
async fn paid_embeddings_are_held_against_the_allowance_under_a_burst() {
    // Embeddings priced at 10 cents a token: one memory's embedding holds its bytes' worth
    // (a token per byte at most) and books the tokens the API counted.
    let server = LlmServer::start().await;
    let app = TestApp::builder()
        .env("OPENAI_BASE_URL", &server.base_url())
        .env("MINICLAW_EMBEDDER", "openai")
        .env("MINICLAW_LLM_PRICES", r#"{"text-embedding-3-small": {"input": 100000, "output": 0}}"#)
        .env("MINICLAW_NEW_ACCOUNT_DAILY_USD", "0.5")
        .spawn()
        .await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let write = |i: usize| {
        let body = json!({ "content": format!("I like green tea, note {i:02}"), "category": "preference" });
        app.send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{agent}/memories")).json(&body))
    };
    let replies = futures::future::join_all((0..12).map(write)).await;
    assert!(
        replies.iter().all(|r| r.status == 201),
        "every memory is kept: {:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );

    // Each embedding is 26 characters: 7 tokens booked ($0.70), 26 bytes held ($2.60). The
    // first is admitted; after it the allowance is spent (or held), so the rest are stored
    // without a vector (search still finds them by their words), and nothing is lost.
    let calls = server.requests().iter().filter(|r| r["input"].is_array()).count();
    let (tenant_day, platform_day, held) = days(&app, &owner.tenant_id).await;
    assert!(calls >= 1, "the first embedding is admitted");
    assert!((tenant_day - 0.7 * calls as f64).abs() < 1e-6, "{tenant_day} booked for {calls} calls");
    assert!(tenant_day <= 0.5 + 2.6, "within the allowance plus one embedding's most: {tenant_day}");
    assert!((platform_day - tenant_day).abs() < 1e-9 && held == 0.0, "{platform_day} {held}");
    let (stored, embedded): (i64, i64) = sqlx::query_as(
        "SELECT count(*), count(embedding) FROM agent_memories WHERE agent_id = $1::uuid AND content LIKE 'I like green tea%'",
    )
    .bind(&agent)
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert_eq!((stored, embedded), (12, calls as i64), "one vector per admitted call");
}

#[tokio::test]
async fn priced_email_waits_for_room_in_the_spending_limits() {
    // Mail at 60 cents: one account's link fits new accounts' share of the platform's $1 day
    // (25 cents, judged before it is spent); the next account's waits in the queue.
    let smtp = crate::email_support::SmtpServer::start();
    let app = TestApp::builder()
        .env("SMTP_URL", &smtp.url())
        .env("MINICLAW_EMAIL_FROM", "agents@claw.example")
        .env("MINICLAW_EMAIL_USD", "0.6")
        .env("MINICLAW_GLOBAL_DAILY_USD", "1")
        .spawn()
        .await;
    let ada = app.signup("ada@example.com").await;
    app.run_jobs().await;
    crate::email_support::eventually("Ada's link", || smtp.messages().len() == 1).await;
    let bob = app.signup("bob@example.com").await;
    app.run_jobs().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(smtp.messages().len(), 1, "Bob's link waits");
    let (waiting, error): (String, Option<String>) = sqlx::query_as(
        "SELECT status, last_error FROM jobs WHERE kind = 'verification_email' ORDER BY created_at DESC LIMIT 1",
    )
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert_eq!(waiting, "queued", "retried later, not dropped");
    assert!(error.unwrap_or_default().contains("share of the platform's daily spending limit"));
    assert_eq!(days(&app, &ada.tenant_id).await, (0.6, 0.6, 0.0), "Ada's link is booked to Ada");
    assert_eq!(days(&app, &bob.tenant_id).await.0, 0.0);
}
