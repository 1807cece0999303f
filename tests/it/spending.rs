//! Hardening 6 and 7 over HTTP: the kill switch refuses chat turns on every route (503 with
//! the operator's reason, nothing stored), the global daily spending cap refuses every model
//! call once the platform reached it, and parallel turns against a nearly spent budget stay
//! within it plus one turn (each turn holds its expected tokens while it runs).

use std::time::Duration;

use miniclaw::ids::{AgentId, TenantId};
use miniclaw::jobs::registry::{Cycle, CycleScope};
use miniclaw::llm::{CallContext, ChatRequest, Message, Role};
use reqwest::Method;
use reqwest::header::CONTENT_TYPE;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::chat_support::Chat;
use crate::common::{Reply, TestApp};
use crate::llm_server::{LlmServer, Script};

async fn count(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

/// The agent's usage row of today: (tokens used, tokens held by turns in progress).
async fn usage_today(pool: &PgPool, agent: &str) -> (i64, i64) {
    sqlx::query_as(
        "SELECT tokens, reserved FROM llm_agent_daily_usage
          WHERE agent_id = $1::uuid AND day = (now() AT TIME ZONE 'UTC')::date",
    )
    .bind(agent)
    .fetch_optional(pool)
    .await
    .unwrap()
    .unwrap_or((0, 0))
}

/// Every way a client starts a turn, each answered `status` with `code`: the chat route (JSON
/// and SSE), the OpenAI-compatible route (plain, and seeding earlier messages), regenerating
/// `question` (a stored user message in `conversation`), and the dashboard's chat form (which
/// shows the refusal next to the form and keeps the draft).
async fn every_turn_is_refused(c: &Chat, key: &str, conversation: &str, question: &str, code: &str, says: &str) {
    let expect = |r: Reply, route: &str| {
        assert_eq!((r.status.as_u16(), r.error_code().as_str()), (503, code), "{route}: {}", r.text);
        assert!(r.json()["error"]["message"].as_str().unwrap().contains(says), "{route}: {}", r.text);
    };
    let body = json!({ "message": "hello", "conversation_id": conversation });
    expect(c.app.send(c.post("/chat").json(&body)).await, "chat");
    expect(c.app.send(c.post("/chat").header("accept", "text/event-stream").json(&body)).await, "chat (SSE)");
    for messages in [
        json!([{ "role": "user", "content": "hi" }]),
        json!([{ "role": "user", "content": "hi" }, { "role": "assistant", "content": "hello" },
               { "role": "user", "content": "again" }]),
    ] {
        let req = c.app.as_bearer(key, Method::POST, "/v1/chat/completions");
        expect(c.app.send(req.json(&json!({ "model": c.id, "messages": messages }))).await, "openai");
    }
    let regenerate = format!("/conversations/{conversation}/messages/{question}/regenerate");
    expect(c.app.send(c.post(&regenerate)).await, "regenerate");

    let page = c.app.send(c.app.as_bearer(&c.owner.token, Method::GET, "/agents")).await;
    let (_, rest) = page.text.split_once(r#"name="csrf" value=""#).expect("a form with a CSRF token");
    let csrf = rest.split('"').next().unwrap();
    let form = format!("csrf={csrf}&conversation_id={conversation}&message=keep+this+draft");
    let web = c
        .app
        .send(
            c.app
                .as_bearer(&c.owner.token, Method::POST, &format!("/agents/{}/chat", c.id))
                .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body(form),
        )
        .await;
    assert_eq!(web.status, 200, "the form page again, with the refusal: {}", web.text);
    assert!(web.text.contains(says) && web.text.contains("keep this draft"), "{}", web.text);
}

#[tokio::test]
async fn the_kill_switch_refuses_chat_turns_on_every_route_with_503_and_its_reason() {
    let c = Chat::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    let first = c.say("hello there", None).await;
    let conversation = first["conversation_id"].as_str().unwrap().to_string();
    let question = first["user_message_id"].as_str().unwrap().to_string();
    let pool = c.app.pool();
    let stored = count(pool, "SELECT count(*) FROM chat_messages").await;

    let switch = |body: Value| c.app.admin(Method::PUT, "/v1/admin/llm/kill-switch").json(&body);
    let tenant = json!({ "tenant_id": c.owner.tenant_id, "reason": "runaway costs" });
    assert_eq!(c.app.send(switch(tenant.clone())).await.status, 204);
    every_turn_is_refused(&c, &key, &conversation, &question, "kill_switch", "runaway costs").await;
    assert_eq!(count(pool, "SELECT count(*) FROM chat_messages").await, stored, "nothing of a refused turn is stored");
    assert_eq!(count(pool, "SELECT count(*) FROM conversations").await, 1, "no seeded conversation either");
    let r = c.app.send(c.post("/chat").json(&json!({ "message": "hello" }))).await;
    assert!(r.headers.get("retry-after").is_none(), "the operator decides when it ends");
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("for this account"), "{}", r.text);

    // Another tenant's agent is not paused; the global switch pauses everyone.
    let other = c.app.signup("bob@example.com").await;
    let bobs = c.app.create_agent(&other, json!({ "name": "Bo" })).await["id"].as_str().unwrap().to_string();
    let bob_chat = format!("/v1/hosted-agents/{bobs}/chat");
    let say = json!({ "message": "hello" });
    assert_eq!(c.app.send(c.app.as_bearer(&other.token, Method::POST, &bob_chat).json(&say)).await.status, 200);
    let clear = c.app.admin(Method::DELETE, "/v1/admin/llm/kill-switch").json(&tenant);
    assert_eq!(c.app.send(clear).await.status, 204);
    assert_eq!(c.app.send(switch(json!({ "reason": "provider incident" }))).await.status, 204);
    let r = c.app.send(c.app.as_bearer(&other.token, Method::POST, &bob_chat).json(&say)).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (503, "kill_switch"), "{}", r.text);
    assert!(r.text.contains("for the whole platform: provider incident"), "{}", r.text);
    every_turn_is_refused(&c, &key, &conversation, &question, "kill_switch", "provider incident").await;

    // Off again: the client sends the message it kept, and it is answered.
    let clear = c.app.admin(Method::DELETE, "/v1/admin/llm/kill-switch").json(&json!({}));
    assert_eq!(c.app.send(clear).await.status, 204);
    c.say("hello again", Some(&conversation)).await;
}

/// A background cycle that asks the app's own gateway (so the app's settings apply) for one
/// answer on behalf of its agent.
fn thinking_cycle() -> Cycle {
    Cycle::new("think", CycleScope::Agent, "calls a model in the background", |ctx| async move {
        let (agent, tenant): (AgentId, TenantId) = ctx.agent().await?;
        let call = CallContext::job(agent, Some(tenant));
        let req = ChatRequest::new(Role::Lint, vec![Message::user("lint")]);
        let r = ctx.deps()?.llm.complete(&call, req).await?;
        Ok(json!({ "model": r.model }))
    })
}

#[tokio::test]
async fn the_global_daily_cap_refuses_every_model_call_once_the_platform_reached_it() {
    let server = LlmServer::start().await;
    let app = TestApp::builder()
        .admin_password("pw")
        .env("OPENAI_BASE_URL", &server.base_url())
        // One turn of the scripted model (gpt-5-mini) costs more than this.
        .env("MINICLAW_GLOBAL_DAILY_USD", "0.00001")
        .cycle(thinking_cycle())
        .spawn()
        .await;
    let c = Chat::new(app).await;
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    server.push(Script::Stream { pieces: vec!["Hi!".into()], usage: Some((1_000, 100)), complete: true });
    let first = c.say("hello", None).await;
    assert_eq!(first["engine"], "model");
    let pool = c.app.pool();
    let (rollup, logged): (f64, f64) = sqlx::query_as(
        "SELECT (SELECT sum(cost_usd) FROM llm_platform_spend), (SELECT sum(cost_usd) FROM llm_usage_logs)",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    assert!(rollup > 0.00001 && (rollup - logged).abs() < 1e-12, "{rollup} vs {logged}");

    let conversation = first["conversation_id"].as_str().unwrap();
    let question = first["user_message_id"].as_str().unwrap();
    let stored = count(pool, "SELECT count(*) FROM chat_messages").await;
    every_turn_is_refused(&c, &key, conversation, question, "global_spend_cap", "daily spending limit").await;
    assert_eq!(count(pool, "SELECT count(*) FROM chat_messages").await, stored);
    let r = c.app.send(c.post("/chat").json(&json!({ "message": "hello" }))).await;
    let wait: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=86_400).contains(&wait), "until midnight UTC: {wait}");
    assert!(r.json()["error"]["details"]["reset_at"].is_string(), "{}", r.text);

    // Every tenant, and background work too: the job is skipped, not failed.
    let other = c.app.signup("bob@example.com").await;
    let bobs = c.app.create_agent(&other, json!({ "name": "Bo" })).await["id"].as_str().unwrap().to_string();
    let r = c
        .app
        .send(
            c.app
                .as_bearer(&other.token, Method::POST, &format!("/v1/hosted-agents/{bobs}/chat"))
                .json(&json!({ "message": "hello" })),
        )
        .await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (503, "global_spend_cap"), "{}", r.text);
    let job = c.app.send(c.app.admin(Method::POST, &format!("/v1/admin/agents/{bobs}/run/think"))).await.json();
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(
        (job["result"]["skipped"].as_bool(), job["result"]["reason"].as_str()),
        (Some(true), Some("global_spend_cap"))
    );
    assert_eq!(server.requests().len(), 1, "no model was asked after the cap was reached");
}

#[tokio::test]
async fn fifty_parallel_turns_at_a_nearly_spent_budget_stay_within_it_plus_one_turn() {
    let server = LlmServer::start().await;
    let app = TestApp::builder()
        .env("OPENAI_BASE_URL", &server.base_url())
        .env("MINICLAW_RATE_LIMIT_IP", "0")
        .env("MINICLAW_RATE_LIMIT_KEY", "0")
        .spawn()
        .await;
    let c = Chat::new(app).await;
    const BUDGET: i64 = 10_000;
    // What one turn uses: one streamed reply (small talk needs no triage model).
    const TURN: i64 = 700;
    let r = c
        .app
        .send(
            c.app.as_bearer(&c.owner.token, Method::PATCH, &c.path("")).json(&json!({ "daily_token_budget": BUDGET })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let pool = c.app.pool();
    sqlx::query("INSERT INTO llm_agent_daily_usage (agent_id, day, tokens) VALUES ($1::uuid, (now() AT TIME ZONE 'UTC')::date, $2)")
        .bind(&c.id)
        .bind(BUDGET - 100)
        .execute(pool)
        .await
        .unwrap();
    for _ in 0..50 {
        server.push(Script::Stream {
            pieces: vec!["Hel".into(), "lo!".into()],
            usage: Some((600, 100)),
            complete: true,
        });
    }

    let turns = (0..50).map(|_| c.app.send(c.post("/chat").json(&json!({ "message": "hello" }))));
    let replies = futures::future::join_all(turns).await;
    let answered = replies.iter().filter(|r| r.status == 200).count();
    assert!(answered >= 1, "the budget was not spent: a turn goes through");
    for r in replies.iter().filter(|r| r.status != 200) {
        assert_eq!((r.status.as_u16(), r.error_code().as_str()), (429, "budget_exhausted"), "{}", r.text);
        assert!(r.headers.contains_key("retry-after"), "{}", r.text);
    }

    let (used, held) = usage_today(pool, &c.id).await;
    assert!(used <= BUDGET + TURN, "{answered} turns went through: {used} tokens used of {BUDGET}");
    assert_eq!(used, BUDGET - 100 + TURN * answered as i64, "every answered turn is counted");
    assert_eq!(held, 0, "every turn gave its reservation back");
    assert_eq!(count(pool, "SELECT count(*) FROM llm_turn_reservations").await, 0);
    assert_eq!(
        count(pool, "SELECT count(*) FROM chat_messages").await,
        2 * answered as i64,
        "refused turns store nothing"
    );
}

#[tokio::test]
async fn a_failed_turn_and_a_turn_whose_process_died_give_their_tokens_back() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().admin_password("pw").env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    let pool = c.app.pool();
    // The model refuses (a 400 is not retried): the turn fails and holds nothing any more.
    server.push(Script::Status { code: 400, retry_after: None });
    let r = c.app.send(c.post("/chat").json(&json!({ "message": "hello" }))).await;
    assert_eq!(r.status, 502, "{}", r.text);
    assert_eq!(usage_today(pool, &c.id).await.1, 0);
    assert_eq!(count(pool, "SELECT count(*) FROM llm_turn_reservations").await, 0);

    // A turn admitted by a process that died: its reply stays `streaming` and its tokens held,
    // so the agent's budget looks spent, until the sweep ends the reply and gives them back.
    server.push(Script::Delay(Duration::from_secs(30), Box::new(Script::reply("too late"))));
    let sse = c.post("/chat").header("accept", "text/event-stream").json(&json!({ "message": "hello" })).send().await;
    assert_eq!(sse.unwrap().status(), 200, "the turn is stored and its stream begins (then the client goes)");
    let budget = usage_today(pool, &c.id).await;
    assert!(budget.1 > 0, "the turn in progress holds its tokens: {budget:?}");
    // As if its process had died 10 minutes ago.
    sqlx::query("UPDATE chat_messages SET updated_at = now() - interval '10 minutes' WHERE status = 'streaming'")
        .execute(pool)
        .await
        .unwrap();
    // What the turn's calls used before it died is on its reservation, and counts when the sweep
    // gives the reservation back.
    sqlx::query("UPDATE llm_turn_reservations SET used = 40").execute(pool).await.unwrap();
    sqlx::query("UPDATE agents SET daily_token_budget = $1").bind(budget.0 + budget.1).execute(pool).await.unwrap();
    let r = c.app.send(c.post("/chat").json(&json!({ "message": "hello" }))).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (429, "budget_exhausted"), "{}", r.text);
    assert!(r.text.contains("held by replies in progress"), "{}", r.text);

    let sweep = c.app.send(c.app.admin(Method::POST, "/v1/admin/run/chat_stream_sweep")).await.json();
    assert_eq!(
        (sweep["result"]["swept"].as_u64(), sweep["result"]["released"].as_u64()),
        (Some(1), Some(1)),
        "{sweep}"
    );
    assert_eq!(usage_today(pool, &c.id).await, (budget.0 + 40, 0));
    server.push(Script::Stream { pieces: vec!["Hi".into()], usage: Some((10, 2)), complete: true });
    assert_eq!(c.app.send(c.post("/chat").json(&json!({ "message": "hello" }))).await.status, 200);

    // Regenerating the reply that failed first holds tokens the same way, and gives them back.
    let (question, conversation): (uuid::Uuid, uuid::Uuid) =
        sqlx::query_as("SELECT id, conversation_id FROM chat_messages WHERE role = 'user' ORDER BY created_at LIMIT 1")
            .fetch_one(pool)
            .await
            .unwrap();
    server.push(Script::Stream { pieces: vec!["Hello!".into()], usage: Some((10, 2)), complete: true });
    let r = c.app.send(c.post(&format!("/conversations/{conversation}/messages/{question}/regenerate"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(usage_today(pool, &c.id).await, (budget.0 + 40 + 24, 0));
    assert_eq!(count(pool, "SELECT count(*) FROM llm_turn_reservations").await, 0);
}
