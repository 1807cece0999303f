//! Model-gateway overhead per call (issue: model gateway benchmarks).
//!
//!     cargo bench --bench gateway               # prints one JSON line
//!     cargo bench --bench gateway -- tokens     # token counting per prompt, cached and not
//!
//! A loopback OpenAI-compatible server answers every chat completion at once with a fixed
//! reply. The same request is sent (a) straight to it with a bare HTTP client, (b) through
//! `Gateway::complete` for an agent: budget check, routing, the provider client, response
//! parsing, pricing and the `llm_usage_logs` insert. Calls alternate a/b so machine noise hits
//! both alike; the overhead is (b) − (a) at p50 and p99. Needs PostgreSQL (`DATABASE_URL`, or
//! 127.0.0.1:5432 as `postgres`); works in a scratch database it drops at the end.

use miniclaw::ids::{AgentId, TenantId};
use std::collections::HashMap;
use std::time::Instant;

use axum::routing::post;
use miniclaw::config::Config;
use miniclaw::llm::{CallContext, ChatRequest, Message, Role, budget};
use serde_json::{Value, json};
use sqlx::postgres::PgPoolOptions;
use sqlx::{Connection, PgConnection};

const CALLS: usize = 2000;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

async fn completion(axum::Json(req): axum::Json<Value>) -> axum::Json<Value> {
    axum::Json(json!({
        "id": "chatcmpl-bench", "object": "chat.completion", "created": 0, "model": req["model"],
        "choices": [{ "index": 0, "finish_reason": "stop",
            "message": { "role": "assistant", "content": "You live in Vienna, as you told me on Monday." } }],
        "usage": { "prompt_tokens": 120, "completion_tokens": 12, "total_tokens": 132 },
    }))
}

/// Token counting as a turn does it, shaped like a conversation's turns: the 16 memory
/// candidates context packing weighs (drawn from the agent's 200, so they recur across turns),
/// then the prompt: a soul and per-turn context in the system message (different every turn),
/// the last six messages of a conversation that moves on by one message a turn, and the new
/// message. Counted text by text without the cache (`count_uncached`) and with it
/// (`count_tokens`): microseconds per turn, medians of 1,000 turns.
fn tokens() {
    use miniclaw::llm::usage::{count_tokens, count_uncached};
    let soul = "I am Ada, a patient companion who remembers what matters to you. ".repeat(18);
    let lines: Vec<String> = (0..1_006)
        .map(|i| format!("Message {i}: a sentence or two of ordinary conversation about the week, plans and people."))
        .collect();
    let memories: Vec<String> =
        (0..200).map(|i| format!("The user mentioned detail number {i} about their family, work or plans.")).collect();
    let mut timings = [Vec::new(), Vec::new()];
    for turn in 0..1_000 {
        let system = format!("{soul}\nWhat you know for certain: fact {turn} about the owner, and a few more notes.");
        let prompt: Vec<&str> = (0..16)
            .map(|j| memories[(turn * 5 + j * 11) % 200].as_str())
            .chain(std::iter::once(system.as_str()))
            .chain(lines[turn..turn + 6].iter().map(String::as_str))
            .collect();
        for (slot, count) in [count_uncached as fn(&str) -> u32, count_tokens].into_iter().enumerate() {
            let t = Instant::now();
            let n: u32 = prompt.iter().map(|m| count(m)).sum();
            timings[slot].push(t.elapsed().as_secs_f64() * 1e6);
            assert!(n > 0);
        }
    }
    for t in &mut timings {
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    }
    println!(
        "{{\"turn_count_us_uncached_p50\":{:.1},\"turn_count_us_cached_p50\":{:.1}}}",
        percentile(&timings[0], 0.5),
        percentile(&timings[1], 0.5)
    );
}

fn main() {
    if std::env::args().any(|a| a == "tokens") {
        return tokens();
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let admin_url =
            std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
        let db = format!("miniclaw_bench_gateway_{}", std::process::id());
        let mut admin = PgConnection::connect(&admin_url).await.expect("PostgreSQL reachable");
        sqlx::query(&format!("CREATE DATABASE {db}")).execute(&mut admin).await.unwrap();
        let mut url: url::Url = admin_url.parse().unwrap();
        url.set_path(&db);
        let pool = PgPoolOptions::new().max_connections(4).connect(url.as_str()).await.unwrap();
        // run in a task so that a failure still drops the scratch database
        let outcome = tokio::spawn(measure(pool.clone())).await;
        pool.close().await;
        sqlx::query(&format!("DROP DATABASE {db} WITH (FORCE)")).execute(&mut admin).await.unwrap();
        if let Err(e) = outcome {
            std::panic::resume_unwind(e.into_panic());
        }
    });
}

async fn measure(pool: sqlx::PgPool) {
    {
        miniclaw::db::migrate(&pool).await.unwrap();

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(listener, axum::Router::new().route("/v1/chat/completions", post(completion))).await.unwrap();
        });

        let tenant = TenantId::new();
        let agent = AgentId::new();
        sqlx::query("INSERT INTO tenants (id, name) VALUES ($1, 'bench')").bind(tenant).execute(&pool).await.unwrap();
        sqlx::query(
            "INSERT INTO agents (id, tenant_id, name, daily_token_budget) VALUES ($1, $2, 'bench', 2000000000)",
        )
        .bind(agent)
        .bind(tenant)
        .execute(&pool)
        .await
        .unwrap();
        let env: HashMap<String, String> =
            [("OPENAI_BASE_URL".to_string(), format!("http://{addr}/v1"))].into_iter().collect();
        let config = Config::from_map(&env).unwrap();
        let gateway = miniclaw::gateway(pool.clone(), &config).unwrap();
        let ctx = CallContext { agent_id: Some(agent), tenant_id: Some(tenant), ..CallContext::default() };
        let messages = vec![
            Message::system("You are Ada. What you know:\n- The user lives in Vienna\n- The user likes jazz"),
            Message::user("Where do I live?"),
        ];
        let http = reqwest::Client::new();
        let direct_body = json!({ "model": "gpt-5-mini", "messages": [
            { "role": "system", "content": messages[0].content }, { "role": "user", "content": messages[1].content }],
            "max_completion_tokens": 800 });

        let mut direct = Vec::with_capacity(CALLS);
        let mut gated = Vec::with_capacity(CALLS);
        for i in 0..CALLS + 100 {
            let t = Instant::now();
            let r: Value = http
                .post(format!("http://{addr}/v1/chat/completions"))
                .json(&direct_body)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            assert!(r["choices"][0]["message"]["content"].is_string());
            let d = t.elapsed().as_secs_f64() * 1000.0;
            let t = Instant::now();
            let reply = gateway.complete(&ctx, ChatRequest::new(Role::Chat, messages.clone())).await.unwrap();
            assert_eq!(reply.provider, "openai");
            let g = t.elapsed().as_secs_f64() * 1000.0;
            if i >= 100 {
                // the first 100 rounds warm connections and caches
                direct.push(d);
                gated.push(g);
            }
        }
        // The two database steps on their own, for the breakdown.
        let mut check = Vec::with_capacity(CALLS);
        for _ in 0..CALLS {
            let t = Instant::now();
            budget::check(&pool, &miniclaw::runtime::SQL, Some(agent), Some(tenant), gateway.caps())
                .await
                .unwrap()
                .unwrap();
            check.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        check.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let logged: i64 = sqlx::query_scalar("SELECT count(*) FROM llm_usage_logs WHERE agent_id = $1")
            .bind(agent)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(logged as usize, CALLS + 100, "every gateway call is logged");
        direct.sort_by(|a, b| a.partial_cmp(b).unwrap());
        gated.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let (d50, d99, g50, g99) =
            (percentile(&direct, 0.5), percentile(&direct, 0.99), percentile(&gated, 0.5), percentile(&gated, 0.99));
        println!(
            "{{\"calls\":{CALLS},\"direct_p50_ms\":{d50:.3},\"direct_p99_ms\":{d99:.3},\"gateway_p50_ms\":{g50:.3},\"gateway_p99_ms\":{g99:.3},\"overhead_p50_ms\":{:.3},\"overhead_p99_ms\":{:.3},\"budget_check_p50_ms\":{:.3}}}",
            g50 - d50,
            g99 - d99,
            percentile(&check, 0.5)
        );
    }
}
