//! SPEC D1, D2, D4: analytics over seeded rows with fixed timestamps, every metric checked
//! against a hand computation; the rollup and the live read agree; snapshots backfill and are
//! idempotent; the comparison's deltas and verdicts; scopes and tenant isolation.

use chrono::{TimeZone, Utc};
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent, TestApp};

/// Ten turns on 2026-10-01: five at 10:00–10:40 and five at 11:00–11:40; response times 100,
/// 200, … 1000 ms; 0.001 USD each; the first four skipped triage ("greeting", intent
/// smalltalk), the other six triaged in 50 ms (intent question); the last three went through
/// extraction, the last of them closing a batch of 3 with 4 facts.
async fn seed_day(a: &OwnedAgent, day: &str) {
    sqlx::query(
        "INSERT INTO chat_analytics (message_id, agent_id, tenant_id, conversation_id, channel, intent, response_style,
                save_worthy, triage_skipped, skip_reason, triage_ms, response_ms, chat_model, engine, prompt_tokens,
                completion_tokens, cost_usd, context_tokens, memories_used, used_dossier, finish_reason,
                extraction_triggered, facts_extracted, dedup, batch_size, batch_threshold, context_ms, generation_ms,
                created_at)
         SELECT gen_random_uuid(), a.id, a.tenant_id, gen_random_uuid(), 'api',
                CASE WHEN i <= 4 THEN 'smalltalk' ELSE 'question' END, 'concise', i > 4, i <= 4,
                CASE WHEN i <= 4 THEN 'greeting' END, CASE WHEN i <= 4 THEN 0 ELSE 50 END, i * 100, 'offline', 'offline',
                100, 20, 0.001, 40, i % 2, i = 10, 'stop', i >= 8, CASE WHEN i = 10 THEN 4 ELSE 0 END,
                CASE WHEN i = 10 THEN '{\"exact_match\":1,\"llm_new\":3,\"llm_update\":0,\"llm_duplicate\":0,\"no_existing\":0}'::jsonb
                     ELSE '{}'::jsonb END,
                CASE WHEN i = 10 THEN 3 END, 3, 10, i * 100 - 60,
                ($2::date + time '10:00') + ((i - 1) / 5) * interval '1 hour' + ((i - 1) % 5) * interval '10 minutes'
           FROM agents a, generate_series(1, 10) AS i WHERE a.id = $1",
    )
    .bind(uuid::Uuid::parse_str(&a.id).unwrap())
    .bind(chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap())
    .execute(a.app.pool())
    .await
    .unwrap();
    // One reply that failed, at 10:15.
    sqlx::query(
        "WITH c AS (INSERT INTO conversations (id, agent_id, title, channel, message_count)
                    VALUES (gen_random_uuid(), $1, 'Failed', 'api', 2) RETURNING id)
         INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, created_at)
         SELECT gen_random_uuid(), c.id, $1, 1, 'assistant', '', 'error', 'api', $2::date + time '10:15' FROM c",
    )
    .bind(uuid::Uuid::parse_str(&a.id).unwrap())
    .bind(chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap())
    .execute(a.app.pool())
    .await
    .unwrap();
    // Model calls: the chat calls, one extraction of 900 prompt tokens, two triage calls.
    sqlx::query(
        "INSERT INTO llm_usage_logs (id, agent_id, tenant_id, role, background, provider, model, prompt_tokens,
                completion_tokens, latency_ms, finish_reason, cost_usd, created_at)
         SELECT gen_random_uuid(), a.id, a.tenant_id, r.role, r.role <> 'chat', 'openai', r.model, r.p, r.c, r.ms, 'stop',
                r.cost, $2::date + time '10:30'
           FROM agents a, (VALUES ('chat', 'gpt-a', 100, 20, 400, 0.006), ('extraction', 'gpt-b', 900, 50, 800, 0.002),
                                  ('triage', 'gpt-b', 80, 5, 50, 0.0005), ('triage', 'gpt-b', 80, 5, 50, 0.0005))
                AS r(role, model, p, c, ms, cost)
          WHERE a.id = $1",
    )
    .bind(uuid::Uuid::parse_str(&a.id).unwrap())
    .bind(chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap())
    .execute(a.app.pool())
    .await
    .unwrap();
}

fn near(actual: &Value, exact: f64, tolerance: f64) -> bool {
    actual.as_f64().is_some_and(|v| (v / exact - 1.0).abs() <= tolerance)
}

fn assert_day(t: &Value) {
    assert_eq!(t["messages"], 10, "{t}");
    assert_eq!(t["failed_replies"], 1, "{t}");
    assert!(near(&t["error_rate"], 1.0 / 11.0, 0.01), "one failed reply beside ten answered: {t}");
    assert_eq!(t["chat_cost_usd"], 0.01);
    assert_eq!(t["cost_per_message"], 0.001);
    assert_eq!((t["prompt_tokens"].as_i64(), t["completion_tokens"].as_i64()), (Some(1000), Some(200)));
    // Percentiles from the 10 %-wide buckets: within 5 % of the exact 500 and 1000 ms.
    assert!(near(&t["latency_ms"]["p50"], 500.0, 0.05), "{}", t["latency_ms"]);
    assert!(near(&t["latency_ms"]["p95"], 1000.0, 0.05), "{}", t["latency_ms"]);
    assert_eq!(t["latency_ms"]["avg"], 550.0);
    assert_eq!(t["triage_ms"]["avg"], 50.0, "only the six triaged turns");
    assert!(near(&t["triage_ms"]["p50"], 50.0, 0.05));
    assert!(near(&t["context_ms"]["p50"], 10.0, 0.05));
    // Generation 40, 140, … 940: the 5th is 440.
    assert!(near(&t["generation_ms"]["p50"], 440.0, 0.05), "{}", t["generation_ms"]);
    assert_eq!(t["triage_skip_rate"], 0.4);
    assert_eq!(t["skip_reasons"], json!({ "greeting": 4 }));
    assert_eq!(t["extraction_rate"], 0.3);
    assert_eq!(t["facts_per_extraction"], 4.0);
    assert_eq!(t["avg_batch_size"], 3.0);
    assert_eq!(t["avg_batch_threshold"], 3.0);
    assert_eq!(
        t["dedup"],
        json!({ "exact_match": 1, "llm_new": 3, "llm_update": 0, "llm_duplicate": 0, "no_existing": 0 })
    );
    assert_eq!(t["intents"], json!({ "question": 6, "smalltalk": 4 }));
    assert_eq!(t["response_styles"], json!({ "concise": 10 }));
    assert_eq!(t["finish_reasons"], json!({ "stop": 10 }));
    assert_eq!(t["channels"], json!({ "api": 10 }));
    assert_eq!(t["chat_models"], json!({ "offline": 10 }));
    assert_eq!(t["avg_context_tokens"], 40.0);
    assert_eq!(t["avg_memories_used"], 0.5);
    assert_eq!(t["dossier_use_rate"], 0.1);
}

fn assert_llm(llm: &Value) {
    assert_eq!(llm["calls"], 4);
    assert_eq!(llm["total_cost_usd"], 0.009);
    let types = llm["by_call_type"].as_array().unwrap();
    let keys: Vec<&str> = types.iter().map(|l| l["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["chat", "extraction", "triage"], "most expensive first");
    assert_eq!((types[2]["calls"].as_i64(), types[2]["cost_usd"].as_f64()), (Some(2), Some(0.001)));
    assert_eq!(types[1]["prompt_tokens"], 900);
    let models: Vec<&str> = llm["by_model"].as_array().unwrap().iter().map(|l| l["key"].as_str().unwrap()).collect();
    assert_eq!(models, ["openai/gpt-a", "openai/gpt-b"]);
}

#[tokio::test]
async fn a_day_of_turns_adds_up_to_hand_computed_metrics_rolled_up_or_live() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    seed_day(&a, "2026-10-01").await;
    let m = a.remember("Ada keeps bees in the garden", "context").await;
    assert!(m["id"].is_string());
    let range = "/analytics?from=2026-10-01&to=2026-10-02&granularity=hour";

    // Nothing rolled up yet: everything is read live.
    let live = a.call(Method::GET, range, None).await;
    assert_eq!(live.status, 200, "{}", live.text);
    let live = live.json();
    assert_day(&live["totals"]);
    assert_llm(&live["llm"]);
    assert_eq!(live["memory_categories"], json!({ "context": 1 }));
    let series = live["series"].as_array().unwrap();
    assert_eq!(series.len(), 24, "every hour, empty ones included");
    let busy: Vec<(&str, i64)> = series
        .iter()
        .filter(|p| p["messages"].as_i64() > Some(0))
        .map(|p| (p["start"].as_str().unwrap(), p["messages"].as_i64().unwrap()))
        .collect();
    assert_eq!(busy, [("2026-10-01T10:00:00Z", 5), ("2026-10-01T11:00:00Z", 5)]);
    assert_eq!(series[10]["triage_skip_rate"], 0.8, "four of the first five skipped");

    // The 10:00 hour rolled up, 11:00 still live; then everything rolled up: the same answer.
    let pool = a.app.pool();
    miniclaw::analytics::rollup::run(pool, Utc.with_ymd_and_hms(2026, 10, 1, 11, 30, 0).unwrap()).await.unwrap();
    let half = a.call(Method::GET, range, None).await.json();
    assert_eq!(half["totals"], live["totals"]);
    assert_eq!(half["series"], live["series"]);
    let written =
        miniclaw::analytics::rollup::run(pool, Utc.with_ymd_and_hms(2026, 10, 2, 3, 0, 0).unwrap()).await.unwrap();
    assert_eq!(written, 2, "two agent-hours (the 10:00 one recomputed)");
    let rolled = a.call(Method::GET, range, None).await.json();
    assert_eq!(rolled["totals"], live["totals"]);
    assert_eq!(rolled["llm"], live["llm"]);
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM analytics_hourly").fetch_one(pool).await.unwrap();
    assert_eq!(rows, 2, "a rerun replaces hours, never duplicates them");

    // Daily points; the tenant's view of its only agent is the same.
    let daily = a.call(Method::GET, "/analytics?from=2026-09-25&to=2026-10-03", None).await.json();
    assert_eq!(daily["series"].as_array().unwrap().len(), 8);
    assert_eq!(daily["series"][6]["messages"], 10);
    let tenant =
        a.app.send(a.app.as_bearer(&a.owner.token, Method::GET, "/v1/analytics?from=2026-10-01&to=2026-10-02")).await;
    assert_eq!(tenant.status, 200, "{}", tenant.text);
    assert_eq!(tenant.json()["totals"], live["totals"]);
    assert_eq!(tenant.json()["scope"], "tenant");
}

#[tokio::test]
async fn ranges_are_validated_and_analytics_stay_in_their_tenant() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    seed_day(&a, "2026-10-01").await;
    for bad in [
        "/analytics?granularity=week",
        "/analytics?from=2026-10-02&to=2026-10-01",
        "/analytics?from=yesterday",
        "/analytics?from=2024-01-01&to=2026-01-01",
        "/analytics?from=2026-01-01&to=2026-03-01&granularity=hour",
        "/pipeline-comparison?period=0",
        "/batch-efficiency?period=181",
        "/analytics/snapshots?limit=0",
    ] {
        let r = a.call(Method::GET, bad, None).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.text);
    }
    let (_, reader) = a.app.create_key(&a.owner, &a.id, &["analytics:read"]).await;
    let (_, chatter) = a.app.create_key(&a.owner, &a.id, &["chat:write"]).await;
    for rest in ["/analytics", "/analytics/snapshots", "/batch-efficiency", "/pipeline-comparison"] {
        let r = a.app.send(a.app.as_bearer(&reader, Method::GET, &a.path(rest))).await;
        assert_eq!(r.status, 200, "{rest}: {}", r.text);
        let r = a.app.send(a.app.as_bearer(&chatter, Method::GET, &a.path(rest))).await;
        assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "missing_scope"), "{rest}");
    }
    let r = a.app.send(a.app.as_bearer(&reader, Method::GET, "/v1/analytics")).await;
    assert_eq!(
        (r.status.as_u16(), r.error_code().as_str()),
        (403, "owner_session_required"),
        "the tenant view is the owner's"
    );
    let mallory = a.app.signup("mallory@example.com").await;
    for rest in ["/analytics", "/analytics/snapshots", "/batch-efficiency", "/pipeline-comparison"] {
        let r = a.app.send(a.app.as_bearer(&mallory.token, Method::GET, &a.path(rest))).await;
        assert_eq!(r.status, 404, "{rest}: {}", r.text);
    }
    let theirs = a
        .app
        .send(a.app.as_bearer(&mallory.token, Method::GET, "/v1/analytics?from=2026-10-01&to=2026-10-02"))
        .await
        .json();
    assert_eq!(theirs["totals"]["messages"], 0, "another tenant's rows are not counted");
    assert_eq!(theirs["llm"]["calls"], 0);
}

pub(crate) async fn seed_days_ago(a: &OwnedAgent, days: i64, n: i64, cost: f64, response_ms: i64) {
    sqlx::query(
        "INSERT INTO chat_analytics (message_id, agent_id, tenant_id, conversation_id, channel, intent, response_style,
                save_worthy, triage_skipped, triage_ms, response_ms, cost_usd, extraction_triggered, facts_extracted,
                dedup, batch_size, batch_threshold, created_at)
         SELECT gen_random_uuid(), a.id, a.tenant_id, gen_random_uuid(), 'web', 'question', 'concise', true, false, 40,
                $4, $3, true, CASE WHEN i = $2 THEN 2 * $2 ELSE 0 END,
                CASE WHEN i = $2 THEN '{\"llm_new\":2}'::jsonb ELSE '{}'::jsonb END, CASE WHEN i = $2 THEN $2::int END, 3,
                now() - $5 * interval '1 day' + i * interval '1 second'
           FROM agents a, generate_series(1, $2) AS i WHERE a.id = $1",
    )
    .bind(uuid::Uuid::parse_str(&a.id).unwrap())
    .bind(n)
    .bind(cost)
    .bind(response_ms as i32)
    .bind(days as f64)
    .execute(a.app.pool())
    .await
    .unwrap();
}

#[tokio::test]
async fn snapshots_backfill_once_and_a_rerun_replaces_a_day() {
    let a = OwnedAgent::new(TestApp::builder().admin_password("pw").spawn().await).await;
    seed_days_ago(&a, 3, 4, 0.002, 300).await;
    seed_days_ago(&a, 2, 6, 0.001, 100).await;
    let run = || a.app.send(a.app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/pipeline_snapshot", a.id)));
    let job = run().await.json();
    assert_eq!(job["status"], "done", "{job}");
    let snaps = a.call(Method::GET, "/analytics/snapshots", None).await.json();
    let days = snaps.as_array().unwrap();
    assert_eq!(days.len(), 2, "the two days with data: {snaps}");
    assert_eq!((days[0]["messages"].as_i64(), days[1]["messages"].as_i64()), (Some(6), Some(4)));
    assert_eq!(days[1]["avg_cost_per_message"], 0.002);
    assert_eq!(days[1]["avg_latency_ms"], 300.0);
    assert_eq!(days[0]["dedup_llm_new_rate"], 1.0);
    assert_eq!(days[0]["avg_batch_size"], 6.0);
    assert_eq!(days[0]["avg_facts_per_extraction"], 12.0);
    assert!(days[0]["avg_quality_score"].is_null(), "no evaluations: no score, not an invented one");
    let fields = days[0].as_object().unwrap().keys().filter(|k| !["day", "computed_at"].contains(&k.as_str())).count();
    assert_eq!(fields, 23, "the 23 metrics of a snapshot");

    // A rerun writes no second row per day.
    let job = run().await.json();
    assert_eq!(job["status"], "done", "{job}");
    let rows: i64 =
        sqlx::query_scalar("SELECT count(*) FROM pipeline_snapshots").fetch_one(a.app.pool()).await.unwrap();
    assert_eq!(rows, 2);
}

#[tokio::test]
async fn the_comparison_says_what_improved_and_batching_what_it_saved() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    // The previous week: 4 turns at 0.002 USD and 300 ms; this week: 6 at 0.001 USD and 100 ms.
    seed_days_ago(&a, 10, 4, 0.002, 300).await;
    seed_days_ago(&a, 2, 6, 0.001, 100).await;
    let c = a.call(Method::GET, "/pipeline-comparison?period=7", None).await;
    assert_eq!(c.status, 200, "{}", c.text);
    let c = c.json();
    let metrics = c["metrics"].as_array().unwrap();
    assert_eq!(metrics.len(), 14);
    let m = |name: &str| metrics.iter().find(|x| x["metric"] == name).unwrap().clone();
    let cost = m("avg_cost_per_message");
    assert_eq!((cost["current"].as_f64(), cost["previous"].as_f64()), (Some(0.001), Some(0.002)));
    assert_eq!((cost["pct_change"].as_f64(), cost["verdict"].as_str()), (Some(-50.0), Some("improved")));
    let latency = m("avg_latency_ms");
    assert_eq!((latency["delta"].as_f64(), latency["verdict"].as_str()), (Some(-200.0), Some("improved")));
    let facts = m("avg_facts_per_extraction");
    assert_eq!(
        (facts["current"].as_f64(), facts["previous"].as_f64(), facts["verdict"].as_str()),
        (Some(12.0), Some(8.0), Some("improved"))
    );
    assert_eq!(m("total_messages")["verdict"], "changed");
    assert_eq!(m("avg_quality_score")["verdict"], "not_available");

    let b = a.call(Method::GET, "/batch-efficiency?period=30", None).await.json();
    // Two extraction calls (batches of 4 and 6) instead of ten: 8 calls saved, 8 / (8 + 2).
    assert_eq!((b["extraction_calls"].as_i64(), b["messages_extracted"].as_i64()), (Some(2), Some(10)));
    assert_eq!((b["calls_saved"].as_i64(), b["efficiency"].as_f64()), (Some(8), Some(0.8)));
    assert_eq!(b["days"].as_array().unwrap().len(), 2);
    assert!(b["tokens_saved_estimate"].is_null(), "no extraction call was logged: nothing to estimate from");
}

async fn two_turns(a: &OwnedAgent) {
    for message in ["Where should I run this weekend, near the river?", "What pace suits a long easy run?"] {
        let r = a.call(Method::POST, "/chat", Some(json!({ "message": message }))).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
}

#[tokio::test]
async fn without_a_model_a_labelled_heuristic_judges_and_snapshots_average_it() {
    let a = OwnedAgent::new(TestApp::builder().admin_password("pw").spawn().await).await;
    two_turns(&a).await;
    let run = |cycle: &str| a.app.send(a.app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/{cycle}", a.id)));
    let job = run("quality_eval").await.json();
    assert_eq!((job["status"].as_str(), job["result"]["judged"].as_i64()), (Some("done"), Some(2)), "{job}");
    let evals = a.call(Method::GET, "/analytics/quality", None).await.json();
    let evals = evals.as_array().unwrap();
    assert_eq!(evals.len(), 2);
    for e in evals {
        assert_eq!(e["judge"], "heuristic", "never presented as a model's opinion");
        let s: Vec<f64> = ["relevance", "coherence", "personality", "context_utilization"]
            .iter()
            .map(|k| e[k].as_f64().unwrap())
            .collect();
        assert!(s.iter().all(|x| (1.0..=10.0).contains(x)), "{e}");
        let weighted = ((s[0] * 0.30 + s[1] * 0.25 + s[2] * 0.25 + s[3] * 0.20) * 100.0).round() / 100.0;
        assert_eq!(e["overall"].as_f64(), Some(weighted));
        assert!(!e["reasoning"].as_str().unwrap().is_empty());
    }
    // A second run the same day finds nothing new to judge.
    let again = run("quality_eval").await.json();
    assert_eq!(again["result"]["judged"], 0, "{again}");

    let job = run("pipeline_snapshot").await.json();
    assert_eq!(job["status"], "done", "{job}");
    let snap = &a.call(Method::GET, "/analytics/snapshots", None).await.json()[0];
    let mean = (evals[0]["overall"].as_f64().unwrap() + evals[1]["overall"].as_f64().unwrap()) / 2.0;
    assert_eq!(snap["avg_quality_score"].as_f64(), Some((mean * 100.0).round() / 100.0));
    assert_eq!(snap["messages"], 2);
}

#[tokio::test]
async fn a_models_scores_are_clamped_weighted_here_and_unusable_answers_skipped() {
    let server = crate::llm_server::LlmServer::start().await;
    let app = TestApp::builder().admin_password("pw").env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let a = OwnedAgent::new(app).await;
    // Greetings skip triage (the pre-filter), so each turn is one streamed chat call.
    for message in ["Hi there!", "Thanks a lot!"] {
        server.push(crate::llm_server::Script::Stream {
            pieces: vec!["Glad to help.".into()],
            usage: None,
            complete: true,
        });
        let r = a.call(Method::POST, "/chat", Some(json!({ "message": message }))).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let before = server.requests().len();
    assert_eq!(before, 2, "one call per turn");
    // The newest exchange is judged first.
    server.push(crate::llm_server::Script::reply(
        r#"{"relevance": 9, "coherence": 8, "personality": 14, "context_utilization": 0, "overall": 10, "reasoning": "a warm reply"}"#,
    ));
    server.push(crate::llm_server::Script::reply("I would rather not say"));
    let job =
        a.app.send(a.app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/quality_eval", a.id))).await.json();
    assert_eq!(
        (job["result"]["judged"].as_i64(), job["result"]["unusable_answers"].as_i64()),
        (Some(1), Some(1)),
        "{job}"
    );
    let judge = &server.requests()[before];
    assert!(judge["messages"][0]["content"].as_str().unwrap().contains("relevance 0.30"), "{judge}");
    assert!(judge["messages"][1]["content"].as_str().unwrap().contains("User: Thanks a lot!"), "{judge}");
    let e = &a.call(Method::GET, "/analytics/quality", None).await.json()[0];
    assert_eq!(e["judge"], "model");
    assert_eq!((e["personality"].as_i64(), e["context_utilization"].as_i64()), (Some(10), Some(1)), "clamped to 1–10");
    // 9·0.30 + 8·0.25 + 10·0.25 + 1·0.20 = 7.4, not the judge's 10.
    assert_eq!(e["overall"], 7.4);
    let usage: i64 =
        sqlx::query_scalar("SELECT count(*) FROM llm_usage_logs WHERE role = 'quality_eval' AND background")
            .fetch_one(a.app.pool())
            .await
            .unwrap();
    assert_eq!(usage, 2, "judging is metered like every background call");
}

#[tokio::test]
async fn vertical_metrics_count_the_tenant_or_the_platform_and_say_what_is_not_available() {
    let a = OwnedAgent::new(TestApp::builder().admin_password("pw").spawn().await).await;
    two_turns(&a).await;
    let r = a
        .call(
            Method::POST,
            "/wallet/external",
            Some(json!({ "address": "0x00000000000000000000000000000000000000aa" })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let r = a
        .app
        .send(a.app.admin(Method::POST, &format!("/v1/admin/agents/{}/verifications", a.id)).json(&json!({
            "provider": "talent_protocol", "status": "verified", "evidence_hash": "0xabc", "score": 87
        })))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let job = a.app.send(a.app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/poc_score", a.id))).await.json();
    assert_eq!(job["status"], "done", "{job}");
    // A post on the tenant's feed, liked and commented on.
    let post = a.call(Method::POST, "/posts", Some(json!({ "body": "Finished the chess course today." }))).await;
    assert_eq!(post.status, 201, "{}", post.text);
    let post_id = post.json()["id"].as_str().unwrap().to_string();
    let r = a.call(Method::POST, &format!("/posts/{post_id}/like"), None).await;
    assert!(r.status.is_success(), "{}", r.text);
    let r = a.call(Method::POST, &format!("/posts/{post_id}/comments"), Some(json!({ "body": "Well done." }))).await;
    assert!(r.status.is_success(), "{}", r.text);
    // Another tenant with an agent of its own, counted by the platform only.
    let mallory = a.app.signup("mallory@example.com").await;
    a.app.create_agent(&mallory, json!({ "name": "Mal" })).await;

    let get = |who: &str, v: &str| {
        let path = format!("/v1/vertical-metrics/{v}");
        let req = if who == "admin" {
            a.app.admin(Method::GET, &format!("/v1/admin/vertical-metrics/{v}"))
        } else if who == "mallory" {
            a.app.as_bearer(&mallory.token, Method::GET, &path)
        } else {
            a.app.as_bearer(&a.owner.token, Method::GET, &path)
        };
        a.app.send(req)
    };
    let runtime = get("owner", "runtime").await.json();
    assert_eq!((runtime["scope"].as_str(), runtime["cached"].as_bool()), (Some("tenant"), Some(false)));
    let m = &runtime["metrics"];
    assert_eq!(
        (m["hosted_agents"].as_i64(), m["conversations"].as_i64(), m["messages"].as_i64()),
        (Some(1), Some(2), Some(4))
    );
    assert_eq!(m["turns_last_24h"], 2);
    let again = get("owner", "runtime").await.json();
    assert_eq!((again["cached"].as_bool(), &again["metrics"]), (Some(true), m), "served from the 60 s cache");
    let platform = get("admin", "runtime").await.json();
    assert_eq!(
        (platform["scope"].as_str(), platform["metrics"]["hosted_agents"].as_i64()),
        (Some("platform"), Some(2))
    );
    assert_eq!(
        get("mallory", "runtime").await.json()["metrics"]["messages"],
        0,
        "another tenant's turns are not counted"
    );

    let trust = get("owner", "trust").await.json();
    assert_eq!(trust["metrics"]["verified_agents"], 1);
    assert_eq!(trust["metrics"]["talent_score_distribution"], json!({ "75-100": 1 }));
    assert_eq!(trust["not_available"][0]["metric"], "unique_humans");
    let economy = get("owner", "economy").await.json();
    assert_eq!(
        (economy["metrics"]["owner_held_wallets"].as_i64(), economy["metrics"]["wallets_created"].as_i64()),
        (Some(1), Some(0))
    );
    assert_eq!(economy["metrics"]["tokens_deployed"], 0);
    assert_eq!(economy["not_available"], json!([]));
    let reputation = get("owner", "reputation").await.json();
    assert_eq!(reputation["metrics"]["agents_with_a_poc_score"], 1);
    assert_eq!(reputation["not_available"][0]["metric"], "badge_distribution");
    let social = get("owner", "social").await.json();
    let m = &social["metrics"];
    assert_eq!(m["posts_by_visibility"], json!({ "tenant": 1 }), "{social}");
    assert_eq!((m["likes"].as_i64(), m["comments"].as_i64()), (Some(1), Some(1)), "{social}");
    assert_eq!(social["not_available"], json!([]));
    let others = get("mallory", "social").await.json();
    assert_eq!(others["metrics"]["posts_by_visibility"], json!({}), "another tenant's posts are not counted");
    let economy = get("mallory", "economy").await.json();
    assert_eq!(economy["metrics"]["tips_by_status"], json!({}));
    let r = get("owner", "weather").await;
    assert_eq!(r.status, 404, "{}", r.text);
    let (_, key) = a.app.create_key(&a.owner, &a.id, &["*"]).await;
    let r = a.app.send(a.app.as_bearer(&key, Method::GET, "/v1/vertical-metrics/runtime")).await;
    assert_eq!(r.status, 403, "an agent's key does not read the tenant: {}", r.text);
}

#[tokio::test]
async fn metrics_expose_model_calls_stages_skips_and_extraction_batches() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    for message in [
        "Hi there!",
        "I moved to Lisbon last spring and I work as a nurse there.",
        "My sister Clara is visiting me in Lisbon next month.",
        "I have a dog called Pepper who loves the beach.",
        "I am training for a half marathon in October.",
        "I prefer short answers without emojis, please.",
    ] {
        let r = a.call(Method::POST, "/chat", Some(json!({ "message": message }))).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    a.app.run_jobs().await;
    let text = a.app.get("/metrics").await.text;
    for needle in [
        "llm_call_duration_seconds_bucket{role=\"chat\",provider=\"offline\"",
        "llm_tokens_total{role=\"chat\",provider=\"offline\"",
        "chat_stage_duration_seconds_bucket{stage=\"generation\"",
        "chat_stage_duration_seconds_bucket{stage=\"context\"",
        "chat_triage_skipped_total{reason=",
        "chat_extraction_batch_size_bucket",
        "chat_facts_extracted_total",
    ] {
        assert!(text.contains(needle), "/metrics lacks {needle}:\n{}", &text[..text.len().min(4000)]);
    }
}
