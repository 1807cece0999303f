//! SPEC M1–M4, M6, M7: the model gateway against the loopback OpenAI-compatible server.

use miniclaw::ids::{AgentId, MessageId, TenantId};
use std::collections::HashMap;
use std::time::{Duration, Instant};

use miniclaw::config::Config;
use miniclaw::llm::budget::Refusal;
use miniclaw::llm::{CallContext, ChatRequest, Engine, FinishReason, LlmError, Message, Role};
use reqwest::Method;
use serde_json::json;

use crate::common::{TestApp, TestDb};
use crate::llm_server::{LlmServer, Script};

fn config(pairs: &[(&str, &str)]) -> Config {
    let env: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Config::from_map(&env).unwrap()
}

fn ask(role: Role, text: &str) -> ChatRequest {
    ChatRequest::new(role, vec![Message::system("You are a test."), Message::user(text)])
}

async fn usage_rows(db: &TestDb) -> Vec<(String, String, String, i32, i32, bool, String, f64, Option<String>)> {
    sqlx::query_as(
        "SELECT role, provider, model, prompt_tokens, completion_tokens, tokens_estimated, finish_reason, cost_usd, error
         FROM llm_usage_logs ORDER BY created_at, id",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap()
}

/// A tenant with one agent, inserted directly; returns (tenant, agent).
async fn agent_with_budget(db: &TestDb, daily_tokens: i32, monthly_usd: Option<f64>) -> (TenantId, AgentId) {
    let (tenant, agent) = (TenantId::new(), AgentId::new());
    sqlx::query("INSERT INTO tenants (id, name, monthly_budget_usd) VALUES ($1, 't', $2)")
        .bind(tenant)
        .bind(monthly_usd)
        .execute(&db.pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO agents (id, tenant_id, name, daily_token_budget) VALUES ($1, $2, 'a', $3)")
        .bind(agent)
        .bind(tenant)
        .bind(daily_tokens)
        .execute(&db.pool)
        .await
        .unwrap();
    (tenant, agent)
}

#[tokio::test]
async fn with_no_provider_the_offline_engine_answers_and_says_so() {
    let db = TestDb::new().await;
    let gw = miniclaw::gateway(db.pool.clone(), &config(&[])).unwrap();
    let r = gw.complete(&CallContext::default(), ask(Role::Triage, "hi")).await.unwrap();
    assert_eq!(r.engine, Engine::Offline);
    let triage: serde_json::Value = serde_json::from_str(&r.content).unwrap();
    assert_eq!(triage["intent"], "small_talk");
    let rows = usage_rows(&db).await;
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].1.as_str(), rows[0].7), ("offline", 0.0));
    assert!(rows[0].3 > 0, "prompt tokens counted locally");

    // Every role has an offline answer, each one logged.
    for role in Role::ALL {
        let r = gw.complete(&CallContext::default(), ask(role, "My name is Alice and I live in Vienna")).await.unwrap();
        assert_eq!((r.engine, r.provider.as_str()), (Engine::Offline, "offline"), "{role:?}");
        assert!(!r.content.trim().is_empty(), "{role:?}");
    }
    assert_eq!(usage_rows(&db).await.len(), 1 + Role::ALL.len());
    let r = gw.complete(&CallContext::default(), ask(Role::Extraction, "My name is Alice and I live in Vienna")).await;
    let facts: serde_json::Value = serde_json::from_str(&r.unwrap().content).unwrap();
    let contents: Vec<&str> =
        facts["facts"].as_array().unwrap().iter().map(|f| f["content"].as_str().unwrap()).collect();
    assert_eq!(contents, ["The user's name is Alice", "The user lives in Vienna"]);
}

#[tokio::test]
async fn with_a_base_url_every_role_goes_to_that_server_and_is_accounted() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let gw = miniclaw::gateway(
        db.pool.clone(),
        &config(&[("OPENAI_BASE_URL", &server.base_url()), ("OPENAI_API_KEY", "sk-test-123")]),
    )
    .unwrap();
    for role in Role::ALL {
        let r = gw.complete(&CallContext::default(), ask(role, "hello there")).await.unwrap();
        assert_eq!((r.engine, r.content.as_str(), r.provider.as_str()), (Engine::Model, "scripted answer", "openai"));
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 19);
    assert_eq!(server.authorization(0).as_deref(), Some("Bearer sk-test-123"));
    let models: Vec<&str> = requests.iter().map(|r| r["model"].as_str().unwrap()).collect();
    assert!(models.contains(&"gpt-5-mini") && models.contains(&"gpt-5.4") && models.contains(&"o3-mini"), "{models:?}");
    assert_eq!(requests[0]["max_completion_tokens"], 150, "triage is capped at 150 tokens");

    let rows = usage_rows(&db).await;
    assert_eq!(rows.len(), 19);
    let triage = rows.iter().find(|r| r.0 == "triage").unwrap();
    assert_eq!((triage.3, triage.4, triage.5), (12, 7, false), "provider-reported tokens");
    // gpt-5-mini: 12 * 0.30/1M + 7 * 1.20/1M.
    assert!((triage.7 - 0.0000120).abs() < 1e-12, "{}", triage.7);
}

#[tokio::test]
async fn json_mode_tool_calls_and_missing_usage() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let gw = miniclaw::gateway(db.pool.clone(), &config(&[("OPENAI_BASE_URL", &server.base_url())])).unwrap();
    server.push(Script::ToolCall { name: "wallet_balance".into(), arguments: "{}".into() });
    let tool = miniclaw::llm::Tool {
        name: "wallet_balance".into(),
        description: "balance".into(),
        parameters: json!({ "type": "object" }),
    };
    let r = gw.complete(&CallContext::default(), ask(Role::Chat, "balance?").json().tools(vec![tool])).await.unwrap();
    assert_eq!(r.finish_reason, FinishReason::ToolCalls);
    assert_eq!(r.tool_calls[0].name, "wallet_balance");
    assert_eq!(server.requests()[0]["response_format"]["type"], "json_object");
    assert_eq!(server.requests()[0]["tools"][0]["function"]["name"], "wallet_balance");

    server.push(Script::Reply { content: "no usage reported here".into(), usage: None });
    let r = gw.complete(&CallContext::default(), ask(Role::Chat, "count for me please")).await.unwrap();
    assert!(r.usage.prompt_tokens > 0 && r.usage.completion_tokens >= 4);
    assert!(usage_rows(&db).await[1].5, "tokens marked as estimated");
}

#[tokio::test]
async fn a_429_is_retried_after_its_retry_after() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let gw = miniclaw::gateway(db.pool.clone(), &config(&[("OPENAI_BASE_URL", &server.base_url())])).unwrap();
    server.push(Script::Status { code: 429, retry_after: Some(1) });
    let start = Instant::now();
    let r = gw.complete(&CallContext::default(), ask(Role::Chat, "hello")).await.unwrap();
    assert!(start.elapsed() >= Duration::from_secs(1), "waited for Retry-After");
    assert_eq!(r.content, "scripted answer");
    let rows = usage_rows(&db).await;
    assert_eq!(rows.len(), 2, "the failed attempt is logged too");
    assert_eq!(rows[0].6, "error");
    assert!(rows[0].8.as_deref().unwrap().contains("429"));
}

#[tokio::test]
async fn garbage_timeouts_and_5xx_fall_back_to_the_next_target() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let routes = r#"{"triage": {"timeout_ms": 400, "fallbacks": [{"provider": "offline", "model": "offline"}]},
                     "chat": {"fallbacks": [{"provider": "offline", "model": "offline"}]}}"#;
    let gw = miniclaw::gateway(
        db.pool.clone(),
        &config(&[("OPENAI_BASE_URL", &server.base_url()), ("MINICLAW_LLM_ROUTES", routes)]),
    )
    .unwrap();

    server.push(Script::Malformed("{\"choices\": \"nope\"".into()));
    let r = gw.complete(&CallContext::default(), ask(Role::Triage, "hi")).await.unwrap();
    assert_eq!(r.engine, Engine::Offline, "malformed answer → fallback");

    server.push(Script::Delay(Duration::from_secs(3), Box::new(Script::reply("too late"))));
    let start = Instant::now();
    let r = gw.complete(&CallContext::default(), ask(Role::Triage, "hi")).await.unwrap();
    assert_eq!(r.engine, Engine::Offline, "timeout → fallback");
    assert!(start.elapsed() < Duration::from_secs(2), "the 400 ms role timeout held: {:?}", start.elapsed());

    for _ in 0..3 {
        server.push(Script::Status { code: 503, retry_after: None });
    }
    let r = gw.complete(&CallContext::default(), ask(Role::Chat, "hello")).await.unwrap();
    assert_eq!(r.engine, Engine::Offline, "5xx after retries → fallback");
    let errors = usage_rows(&db).await.iter().filter(|r| r.6 == "error").count();
    assert_eq!(errors, 5, "malformed + timeout + three 503s");
}

#[tokio::test]
async fn a_rejected_request_fails_cleanly_and_a_failing_provider_trips_the_breaker() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let gw = miniclaw::gateway(db.pool.clone(), &config(&[("OPENAI_BASE_URL", &server.base_url())])).unwrap();
    server.push(Script::Status { code: 400, retry_after: None });
    let err = gw.complete(&CallContext::default(), ask(Role::Chat, "x")).await.unwrap_err();
    assert!(matches!(err, LlmError::AllFailed { .. }), "{err}");
    assert_eq!(server.requests().len(), 1, "a 400 is not retried");

    // Four more failures open the breaker (five in a row); then no request reaches the server.
    for _ in 0..4 {
        server.push(Script::Status { code: 500, retry_after: Some(0) });
    }
    let _ = gw.complete(&CallContext::default(), ask(Role::Chat, "x")).await;
    let _ = gw.complete(&CallContext::default(), ask(Role::Chat, "x")).await;
    let seen = server.requests().len();
    assert_eq!(seen, 5);
    let err = gw.complete(&CallContext::default(), ask(Role::Chat, "x")).await.unwrap_err();
    assert!(err.to_string().contains("circuit open"), "{err}");
    assert_eq!(server.requests().len(), seen, "the open breaker kept the call off the wire");
}

#[tokio::test]
async fn exhausted_budgets_stop_calls_before_they_are_made() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let gw = miniclaw::gateway(db.pool.clone(), &config(&[("OPENAI_BASE_URL", &server.base_url())])).unwrap();
    let (tenant, agent) = agent_with_budget(&db, 1_000, Some(0.50)).await;
    let ctx = CallContext { agent_id: Some(agent), tenant_id: Some(tenant), ..Default::default() };
    // The agent's usage row of today: (tokens used, tokens held by turns in progress).
    let day = |db: &TestDb| {
        let pool = db.pool.clone();
        async move {
            sqlx::query_as::<_, (i64, i64)>("SELECT tokens, reserved FROM llm_agent_daily_usage WHERE agent_id = $1")
                .bind(agent)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };

    server.push(Script::Reply { content: "big".into(), usage: Some((900, 150)) });
    gw.complete(&ctx, ask(Role::Chat, "first")).await.unwrap();
    assert_eq!(day(&db).await.0, 1_050, "the daily total is kept with the log row");
    let err = gw.complete(&ctx, ask(Role::Chat, "second")).await.unwrap_err();
    match err {
        LlmError::Refused(r @ Refusal::AgentDailyTokens { .. }) => {
            let reset = r.reset_at().unwrap();
            assert_eq!(reset, miniclaw::llm::budget::next_utc_midnight(chrono::Utc::now()));
        }
        other => panic!("expected the daily budget refusal, got {other}"),
    }
    assert_eq!(server.requests().len(), 1, "the refused call never reached the provider");
    // A call of work its caller already admitted (a chat turn, checked when it was stored) is
    // not checked again; it is still logged and counted.
    server.push(Script::Reply { content: "admitted".into(), usage: Some((10, 5)) });
    let admitted = CallContext { admitted: true, ..ctx.clone() };
    assert_eq!(gw.complete(&admitted, ask(Role::Chat, "within the turn")).await.unwrap().content, "admitted");
    assert_eq!(day(&db).await.0, 1_065);

    // A chat turn's call counts on the turn's reservation, which adds it to the day when it is
    // given back (the agent's usage row is not written once per call).
    let reply = MessageId::new();
    sqlx::query(
        "WITH held AS (INSERT INTO llm_turn_reservations (agent_id, reply_id, day, tokens, tenant_id)
                       VALUES ($1, $2, (now() AT TIME ZONE 'UTC')::date, 500, $3))
         UPDATE llm_agent_daily_usage SET reserved = 500 WHERE agent_id = $1",
    )
    .bind(agent)
    .bind(reply)
    .bind(tenant)
    .execute(&db.pool)
    .await
    .unwrap();
    let turn = admitted.clone().held_by(reply);
    server.push(Script::Reply { content: "in a turn".into(), usage: Some((10, 5)) });
    gw.complete(&turn, ask(Role::Chat, "within the turn")).await.unwrap();
    assert_eq!(day(&db).await, (1_065, 500), "the call is counted on the turn's reservation");
    let used: i64 = sqlx::query_scalar("SELECT used FROM llm_turn_reservations WHERE reply_id = $1")
        .bind(reply)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(used, 15);
    miniclaw::llm::reservations::release(&db.pool, agent, reply).await.unwrap();
    assert_eq!(day(&db).await, (1_080, 0), "giving the reservation back adds what the turn used");
    // A call of a turn whose reservation is gone counts on the day at once.
    server.push(Script::Reply { content: "late".into(), usage: Some((10, 5)) });
    gw.complete(&turn, ask(Role::Chat, "after the turn")).await.unwrap();
    assert_eq!(day(&db).await, (1_095, 0));

    // The tenant's monthly dollar budget.
    sqlx::query("UPDATE agents SET daily_token_budget = 100000000").execute(&db.pool).await.unwrap();
    let spent: f64 = sqlx::query_scalar("SELECT cost_usd FROM llm_tenant_monthly_usage WHERE tenant_id = $1")
        .bind(tenant)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let logged: f64 = sqlx::query_scalar("SELECT sum(cost_usd) FROM llm_usage_logs").fetch_one(&db.pool).await.unwrap();
    assert!(spent > 0.0 && (spent - logged).abs() < 1e-12, "{spent} vs {logged}");
    sqlx::query("UPDATE llm_tenant_monthly_usage SET cost_usd = 0.75").execute(&db.pool).await.unwrap();
    let err = gw.complete(&ctx, ask(Role::Chat, "third")).await.unwrap_err();
    assert!(matches!(err, LlmError::Refused(Refusal::TenantMonthlyDollars { .. })), "{err}");
}

#[tokio::test]
async fn the_kill_switch_pauses_every_model_call_of_its_scope() {
    let app = TestApp::builder().admin_password("pw").spawn().await;
    let gw = miniclaw::gateway(app.pool().clone(), &app.config).unwrap();
    let owner = app.signup("ada@example.com").await;
    let tenant: TenantId = owner.tenant_id.parse().unwrap();
    let background = CallContext { tenant_id: Some(tenant), background: true, ..Default::default() };
    let foreground = CallContext { tenant_id: Some(tenant), background: false, ..Default::default() };

    let r = app
        .send(
            app.admin(Method::PUT, "/v1/admin/llm/kill-switch")
                .json(&json!({ "tenant_id": tenant, "reason": "runaway costs" })),
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
    let err = gw.complete(&background, ask(Role::Triage, "hi")).await.unwrap_err();
    assert!(err.to_string().contains("runaway costs"), "{err}");
    let err = gw.complete(&foreground, ask(Role::Triage, "hi")).await.unwrap_err();
    assert!(err.to_string().contains("runaway costs"), "foreground calls too: {err}");
    let other_tenant = CallContext { tenant_id: Some(TenantId::new()), background: true, ..Default::default() };
    assert!(gw.complete(&other_tenant, ask(Role::Triage, "hi")).await.is_ok(), "other tenants unaffected");

    let list = app.send(app.admin(Method::GET, "/v1/admin/llm/kill-switch")).await.json();
    assert_eq!(list[0]["scope"], format!("tenant:{tenant}"));
    let r =
        app.send(app.admin(Method::DELETE, "/v1/admin/llm/kill-switch").json(&json!({ "tenant_id": tenant }))).await;
    assert_eq!(r.status, 204);
    assert!(gw.complete(&background, ask(Role::Triage, "hi")).await.is_ok());
    let r = app.send(app.admin(Method::DELETE, "/v1/admin/llm/kill-switch").json(&json!({}))).await;
    assert_eq!(r.status, 404, "the global switch was not on");

    let routes = app.send(app.admin(Method::GET, "/v1/admin/llm/routes")).await.json();
    assert_eq!(routes["routes"].as_array().unwrap().len(), 19);
    assert_eq!(routes["routes"][0]["targets"][0]["provider"], "offline");
}

async fn collect(rx: &mut tokio::sync::mpsc::Receiver<String>) -> Vec<String> {
    let mut out = Vec::new();
    while let Ok(Some(d)) = tokio::time::timeout(Duration::from_millis(200), rx.recv()).await {
        out.push(d);
    }
    out
}

#[tokio::test]
async fn streamed_answers_arrive_piece_by_piece_and_are_accounted() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let gw = miniclaw::gateway(db.pool.clone(), &config(&[("OPENAI_BASE_URL", &server.base_url())])).unwrap();
    server.push(Script::Stream {
        pieces: vec!["Hel".into(), "lo, ".into(), "Ada".into()],
        usage: Some((30, 3)),
        complete: true,
    });
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let r = gw.stream(&CallContext::default(), ask(Role::Chat, "greet me"), tx).await.unwrap();
    assert_eq!(collect(&mut rx).await, vec!["Hel", "lo, ", "Ada"]);
    assert_eq!((r.content.as_str(), r.usage.prompt_tokens, r.usage.completion_tokens), ("Hello, Ada", 30, 3));
    assert_eq!(server.requests()[0]["stream"], true);
    assert_eq!(usage_rows(&db).await[0].3, 30);
}

#[tokio::test]
async fn a_stream_that_breaks_before_any_text_falls_back_but_not_after() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let routes = r#"{"chat": {"fallbacks": [{"provider": "offline", "model": "offline"}]}}"#;
    let gw = miniclaw::gateway(
        db.pool.clone(),
        &config(&[("OPENAI_BASE_URL", &server.base_url()), ("MINICLAW_LLM_ROUTES", routes)]),
    )
    .unwrap();

    server.push(Script::Stream { pieces: vec![], usage: None, complete: false });
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let r = gw.stream(&CallContext::default(), ask(Role::Chat, "hello"), tx).await.unwrap();
    assert_eq!(r.engine, Engine::Offline);
    assert!(collect(&mut rx).await[0].starts_with("[offline engine"));

    server.push(Script::Stream { pieces: vec!["Partial ".into(), "answ".into()], usage: None, complete: false });
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let err = gw.stream(&CallContext::default(), ask(Role::Chat, "hello"), tx).await.unwrap_err();
    assert!(err.to_string().contains("without [DONE]"), "{err}");
    assert_eq!(collect(&mut rx).await, vec!["Partial ", "answ"], "no second model's text is spliced in");
}

#[tokio::test]
async fn a_caller_that_goes_away_abandons_the_stream() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let gw = miniclaw::gateway(db.pool.clone(), &config(&[("OPENAI_BASE_URL", &server.base_url())])).unwrap();
    let pieces: Vec<String> = (0..50).map(|i| format!("w{i} ")).collect();
    server.push(Script::Stream { pieces, usage: None, complete: true });
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    drop(rx);
    miniclaw::llm::usage::count_tokens("warm the tokenizer up so only the stream is timed");
    let start = Instant::now();
    let err = gw.stream(&CallContext::default(), ask(Role::Chat, "long story"), tx).await.unwrap_err();
    assert!(err.to_string().contains("went away"), "{err}");
    assert!(start.elapsed() < Duration::from_millis(500), "stopped early, not after all 50 pieces");
    assert!(usage_rows(&db).await[0].8.as_deref().unwrap().contains("went away"));
}

#[tokio::test]
async fn the_anthropic_messages_api_plain_and_streamed() {
    let db = TestDb::new().await;
    let server = LlmServer::start().await;
    let gw = miniclaw::gateway(
        db.pool.clone(),
        &config(&[("ANTHROPIC_API_KEY", "ak-test"), ("ANTHROPIC_BASE_URL", &server.base_url())]),
    )
    .unwrap();
    server.push(Script::Reply { content: "{\"intent\": \"casual_chat\"}".into(), usage: Some((50, 10)) });
    let r = gw
        .complete(&CallContext::default(), ask(Role::Triage, "how was your day, tell me everything").json())
        .await
        .unwrap();
    assert_eq!((r.provider.as_str(), r.model.as_str()), ("anthropic", "claude-haiku-4-5"));
    assert_eq!(r.content, "{\"intent\": \"casual_chat\"}");
    assert_eq!(server.header(0, "x-api-key").as_deref(), Some("ak-test"));
    assert_eq!(server.header(0, "anthropic-version").as_deref(), Some("2023-06-01"));
    let req = &server.requests()[0];
    assert_eq!(req["system"].as_str().unwrap().lines().next(), Some("You are a test."));
    assert!(req["system"].as_str().unwrap().contains("JSON object"), "JSON mode asked for in the system prompt");
    assert_eq!(req["messages"].as_array().unwrap().len(), 1);

    server.push(Script::Stream { pieces: vec!["Bon".into(), "jour".into()], usage: Some((33, 2)), complete: true });
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let r = gw.stream(&CallContext::default(), ask(Role::ChatPremium, "salut"), tx).await.unwrap();
    assert_eq!(collect(&mut rx).await, vec!["Bon", "jour"]);
    assert_eq!(
        (r.content.as_str(), r.model.as_str(), r.usage.prompt_tokens, r.usage.completion_tokens),
        ("Bonjour", "claude-sonnet-4-5", 33, 2)
    );

    // claude-haiku-4-5: 50 * $1/1M + 10 * $5/1M.
    let rows = usage_rows(&db).await;
    assert!((rows[0].7 - 0.0001).abs() < 1e-12, "{}", rows[0].7);
}

#[tokio::test]
async fn a_background_cycle_refused_by_the_kill_switch_is_skipped_and_recorded() {
    use miniclaw::jobs::registry::{Cycle, CycleScope};
    let thinking = Cycle::new("think", CycleScope::Agent, "calls a model in the background", |ctx| async move {
        let agent = AgentId(ctx.job.agent_id.expect("agent cycle"));
        let tenant: TenantId =
            sqlx::query_scalar("SELECT tenant_id FROM agents WHERE id = $1").bind(agent).fetch_one(&ctx.pool).await?;
        let gw = miniclaw::gateway(ctx.pool.clone(), &config(&[])).map_err(anyhow::Error::msg)?;
        let call = CallContext::job(agent, Some(tenant));
        let r = gw.complete(&call, ask(Role::Lint, "lint")).await?;
        Ok(json!({ "engine": r.engine }))
    });
    let app = TestApp::builder().admin_password("pw").cycle(thinking).spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();

    let run = format!("/v1/admin/agents/{agent}/run/think");
    let r = app.send(app.admin(Method::POST, &run)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["result"]["engine"], "offline");

    let switch = json!({ "reason": "maintenance" });
    assert_eq!(app.send(app.admin(Method::PUT, "/v1/admin/llm/kill-switch").json(&switch)).await.status, 204);
    let r = app.send(app.admin(Method::POST, &run)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let job = r.json();
    assert_eq!(job["status"], "done", "a refusal is not a failure to retry: {job}");
    assert_eq!(
        (job["result"]["skipped"].as_bool(), job["result"]["reason"].as_str()),
        (Some(true), Some("kill_switch"))
    );
    assert!(job["result"]["message"].as_str().unwrap().contains("maintenance"));

    let activity =
        app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/hosted-agents/{agent}/activity"))).await.json();
    let skipped: Vec<&serde_json::Value> =
        activity.as_array().unwrap().iter().filter(|e| e["action"] == "cycle.skipped").collect();
    assert_eq!(skipped.len(), 1, "{activity}");
    assert_eq!(
        (skipped[0]["details"]["cycle"].as_str(), skipped[0]["actor_type"].as_str()),
        (Some("think"), Some("job"))
    );
}
