//! SPEC B1 and B4: a replay workload through the HTTP API with the offline engine.
//!
//!     cargo bench --bench chat_replay                     # MiniLM embeddings (the default)
//!     B1_EMBEDDER=hash cargo bench --bench chat_replay    # pipeline cost without the model
//!     MINICLAW_EMBED_BATCH=1 MINICLAW_EMBED_CACHE=0 cargo bench --bench chat_replay   # B8: the model unbatched, uncached
//!     OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 cargo bench --bench chat_replay  # with traces exported
//!
//! Starts the app in-process on a scratch database (`miniclaw_bench_b1`, recreated each run),
//! creates agents, seeds one with 10,000 memories (bulk API, embedded like any upload), then
//! plays a mixed, realistic message script: greetings and thanks, brief questions, personal
//! facts, longer questions that need the triage model, tool/economy requests, emotional
//! messages, across several conversations. Settings: `B1_CLIENTS` (8), `B1_CONCURRENT_TURNS`
//! (400), `B1_BIG=1` (the throughput clients all talk to the 10,000-memory agent), `B1_GRAPH=1`
//! (the 10,000-memory agent gets a traversal graph of 5 edges per memory). Reports, as
//! JSON lines:
//! - B1: latency of a whole turn seen by a loopback client (an upper bound on server-side
//!   time) p50/p99 over sequential turns at 10,000 memories, the server-side `response_ms` of
//!   the analytics rows, and turns/s with 8 concurrent clients;
//! - B4: average prompt tokens per chat call, triage skip rate, LLM calls per message,
//!   extraction calls per message. With `B4_SKILLS=1` every agent has three skills installed
//!   whose triggers (running, workshops, portfolios) occur in the script, each with about 1,100
//!   characters of instructions: the prompt cost of triggered skills (SPEC S5).

#[path = "support/app.rs"]
mod app;
mod support;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};

use app::Client;

const DB: &str = "miniclaw_bench_b1";
const SEED_MEMORIES: usize = 10_000;
const SEQUENTIAL_TURNS: usize = 300;
/// A setting of the throughput phase from the environment, or its default.
fn setting(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The message script: (kind, text). Kinds only label the mix; the pipeline decides for itself.
const SCRIPT: &[(&str, &str)] = &[
    ("greeting", "hi"),
    ("fact", "My name is Alice and I live in Vienna."),
    ("fact", "I work as a product designer at a small studio that builds apps for museums."),
    ("brief", "What is my name?"),
    ("ack", "thanks!"),
    (
        "question",
        "Could you help me think through how to structure a portfolio that shows both my research and the final interfaces I designed?",
    ),
    ("fact", "I want to run a half marathon in October."),
    ("brief", "Any tips for my first long run?"),
    ("economy", "What's my wallet balance right now?"),
    (
        "emotional",
        "I feel a bit overwhelmed with work this week and I am not sleeping well, it is starting to affect my mood.",
    ),
    ("ack", "ok cool"),
    ("fact", "I prefer short answers without bullet points."),
    (
        "question",
        "Which of the ideas we talked about earlier would be the easiest to prototype in a weekend with only paper and a phone camera?",
    ),
    ("brief", "Where do I live?"),
    ("fact", "I really enjoy playing chess with my friends on weekends."),
    ("greeting", "good morning"),
    (
        "question",
        "Explain the difference between a design system and a style guide in a way I could share with a new client who is not technical.",
    ),
    ("brief", "Remind me what my goal is?"),
    ("economy", "Can you send 5 tokens to my friend for the coffee?"),
    ("ack", "sounds good"),
    ("fact", "Next week I have a workshop with the museum team on Tuesday."),
    (
        "question",
        "How should I prepare for a workshop where half the people are curators and half are engineers, so that both groups feel heard?",
    ),
    (
        "emotional",
        "Honestly I am worried the project will fail and it will be my fault, I keep thinking about it in the evenings.",
    ),
    ("brief", "What do you know about me?"),
    ("ack", "lol"),
];

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

async fn new_agent(c: &Client, name: &str) -> anyhow::Result<String> {
    let id = c.agent(name).await?;
    if std::env::var("B4_SKILLS").is_ok_and(|v| v == "1") {
        install_skills(c, &id).await?;
    }
    Ok(id)
}

/// Three skills whose triggers the script names, published once (by the first agent) and
/// installed on every agent.
async fn install_skills(c: &Client, agent: &str) -> anyhow::Result<()> {
    let skills = [
        ("running_coach", "run, marathon, long run", "Coach the owner's running"),
        ("workshop_facilitator", "workshop", "Prepare and run workshops"),
        ("portfolio_review", "portfolio", "Review a design portfolio"),
    ];
    for (name, triggers, description) in skills {
        let body = format!(
            "# {description}\n\n{}",
            "When this applies, first restate the goal in one sentence, then give at most three concrete steps \
             the owner can take this week, each with why it matters and how to tell it worked. Prefer what the \
             owner already told you over general advice; ask one clarifying question only when the answer would \
             change the steps. Keep safety first: suggest a professional when health, money or law is at stake. "
                .repeat(3)
        );
        let md = format!("---\nname: {name}\ndescription: {description}\ntriggers: [{triggers}]\n---\n{body}\n");
        let r = c
            .http
            .post(format!("{}/v1/hosted-agents/{agent}/skills/publish", c.base))
            .bearer_auth(&c.token)
            .json(&json!({ "skill_md": md }))
            .send()
            .await?;
        // 409: published by an earlier agent already.
        anyhow::ensure!(r.status().is_success() || r.status() == 409, "publishing {name}: {}", r.text().await?);
        c.post(&format!("/v1/hosted-agents/{agent}/skills"), json!({ "slug": name })).await?;
    }
    Ok(())
}

/// Plays `turns` messages of the script for one agent, a new conversation every 8 turns.
/// Returns the client-observed latency of each turn in ms.
async fn play(c: &Client, agent: &str, turns: usize, offset: usize) -> anyhow::Result<Vec<f64>> {
    let mut conversation: Option<String> = None;
    let mut ms = Vec::with_capacity(turns);
    for i in 0..turns {
        if i % 8 == 0 {
            conversation = None;
        }
        let (_, text) = SCRIPT[(i + offset) % SCRIPT.len()];
        let t = Instant::now();
        let r = c
            .post(
                &format!("/v1/hosted-agents/{agent}/chat"),
                json!({ "message": text, "conversation_id": conversation }),
            )
            .await?;
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
        conversation = r["conversation_id"].as_str().map(str::to_string);
    }
    Ok(ms)
}

fn main() -> anyhow::Result<()> {
    // As the server does (`RAYON_NUM_THREADS=2` in the environment gives the old setting).
    miniclaw::embed::minilm::one_thread_per_pass();
    // The subscriber `serve` installs: logs as `RUST_LOG` says (`off` measures the pipeline
    // alone) and, with `OTEL_EXPORTER_OTLP_ENDPOINT` set, traces exported over OTLP (B1 with
    // tracing on).
    miniclaw::telemetry::init_tracing(miniclaw::config::LogFormat::Text).map_err(anyhow::Error::msg)?;
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async {
        let embedder = std::env::var("B1_EMBEDDER").unwrap_or_else(|_| "minilm".into());
        // How the model is served (B8), as the environment says.
        let served: Vec<(String, String)> = ["MINICLAW_EMBED_CACHE", "MINICLAW_EMBED_BATCH", "MINICLAW_EMBED_BATCH_WINDOW_MS"]
            .into_iter()
            .filter_map(|var| Some((var.to_string(), std::env::var(var).ok()?)))
            .collect();
        // As `serve` runs by default: the worker inside learns from the turns (extraction and
        // summary jobs queued by each finished turn).
        let app::App { client: c, state, pool, cancel } = app::start(DB, &embedder, &served).await?;

        // One agent with 10,000 memories (B1's setting).
        let big = new_agent(&c, "Big").await?;
        let t = Instant::now();
        let categories = ["identity", "goal", "preference", "interest", "context"];
        let topics = ["chess", "running", "museums", "design", "Vienna", "coffee", "travel", "music", "books", "cooking"];
        for batch in 0..SEED_MEMORIES / 500 {
            let memories: Vec<Value> = (0..500)
                .map(|i| {
                    let n = batch * 500 + i;
                    json!({
                        "content": format!("The user mentioned {} detail number {n} about {} and {}", categories[n % 5], topics[n % 10], topics[(n / 10) % 10]),
                        "category": categories[n % 5],
                    })
                })
                .collect();
            c.post(&format!("/v1/hosted-agents/{big}/memories/bulk"), json!({ "memories": memories })).await?;
        }
        println!("{{\"seeded_memories\":{SEED_MEMORIES},\"seed_s\":{:.0},\"embedder\":\"{embedder}\"}}", t.elapsed().as_secs_f64());
        // `B1_GRAPH=1`: the agent has a traversal graph (X5), 5 edges per memory with weights
        // across the habitual and reflex tiers, so every turn that searches memory traverses it.
        if std::env::var("B1_GRAPH").is_ok_and(|v| v == "1") {
            let edges = sqlx::query(
                "WITH m AS (SELECT a.agent_id, a.id, row_number() OVER (ORDER BY a.id) AS n, count(*) OVER () AS total
                              FROM agent_memories a JOIN agents g ON g.id = a.agent_id WHERE g.name = 'Big')
                 INSERT INTO memory_edges (agent_id, source_id, target_id, kind, weight, prior)
                 SELECT s.agent_id, s.id, t.id, 'mention', x.w, x.w
                   FROM m s CROSS JOIN generate_series(1, 5) k
                   JOIN m t ON t.n = (s.n * 7919 + k * 104729) % s.total + 1
                  CROSS JOIN LATERAL (SELECT (0.2 + 0.7 * ((s.n * k) % 100) / 100.0)::real AS w) x
                  WHERE t.id <> s.id
                 ON CONFLICT DO NOTHING",
            )
            .execute(&pool)
            .await?
            .rows_affected();
            sqlx::query(
                "INSERT INTO memory_graphs (agent_id) SELECT id FROM agents WHERE name = 'Big' ON CONFLICT DO NOTHING",
            )
            .execute(&pool)
            .await?;
            println!("{{\"b1_graph_edges\":{edges}}}");
        }
        // Steady state has planner statistics. The server of the standard machine runs with
        // autovacuum off, so nothing would ever collect them: do what autovacuum would have done.
        sqlx::query("ANALYZE").execute(&pool).await?;

        // Warm-up, then sequential turns for latency.
        play(&c, &big, 25, 0).await?;
        let mut seq = play(&c, &big, SEQUENTIAL_TURNS, 3).await?;
        seq.sort_by(f64::total_cmp);
        let server: Vec<i32> = sqlx::query_scalar(
            "SELECT response_ms FROM chat_analytics a JOIN agents g ON g.id = a.agent_id WHERE g.name = 'Big'
              ORDER BY a.created_at OFFSET 25",
        )
        .fetch_all(&pool)
        .await?;
        let mut server: Vec<f64> = server.into_iter().map(f64::from).collect();
        server.sort_by(f64::total_cmp);
        println!(
            "{{\"b1_turns\":{},\"client_p50_ms\":{:.2},\"client_p99_ms\":{:.2},\"server_response_p50_ms\":{:.0},\"server_response_p99_ms\":{:.0}}}",
            seq.len(),
            percentile(&seq, 0.5),
            percentile(&seq, 0.99),
            percentile(&server, 0.5),
            percentile(&server, 0.99)
        );

        // Where the server-side time goes (medians over the same turns).
        let phases: Vec<(f64, f64, f64, f64, f64)> = sqlx::query_as(
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY (m.meta->'timings'->>'setup_ms')::float8),
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY (m.meta->'timings'->>'triage_ms')::float8),
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY (m.meta->'timings'->>'embed_ms')::float8),
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY (m.meta->'timings'->>'context_ms')::float8),
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY (m.meta->'timings'->>'generation_ms')::float8)
               FROM chat_messages m JOIN agents g ON g.id = m.agent_id
              WHERE g.name = 'Big' AND m.role = 'assistant' AND m.status = 'complete'",
        )
        .fetch_all(&pool)
        .await?;
        let traversed: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM chat_messages m JOIN agents g ON g.id = m.agent_id
              WHERE g.name = 'Big' AND m.role = 'assistant' AND m.meta ? 'traversal'",
        )
        .fetch_one(&pool)
        .await?;
        println!("{{\"replies_that_traversed\":{traversed}}}");
        if let Some((setup, triage, embed, context, generation)) = phases.first() {
            println!(
                "{{\"median_setup_ms\":{setup:.2},\"median_triage_ms\":{triage:.2},\"median_embed_ms\":{embed:.2},\"median_context_ms\":{context:.2},\"median_generation_ms\":{generation:.2}}}"
            );
        }

        // Throughput: 8 clients at once, each with its own new agent, or with `B1_BIG=1` all
        // with the 10,000-memory agent (each in its own conversations).
        let mut agents = Vec::new();
        let clients = setting("B1_CLIENTS", 8);
        let big_only = setting("B1_BIG", 0) == 1;
        for i in 0..clients {
            agents.push(if big_only { big.clone() } else { new_agent(&c, &format!("Load {i}")).await? });
        }
        let c = Arc::new(c);
        let concurrent = setting("B1_CONCURRENT_TURNS", 400);
        let t = Instant::now();
        let mut tasks = Vec::new();
        for (i, agent) in agents.into_iter().enumerate() {
            let c = c.clone();
            tasks.push(tokio::spawn(async move { play(&c, &agent, concurrent / clients, i * 3).await }));
        }
        for task in tasks {
            task.await??;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{{\"b1_concurrent_clients\":{clients},\"big_agent\":{big_only},\"turns\":{concurrent},\"turns_per_s\":{:.1}}}",
            concurrent as f64 / secs
        );

        // Let the learning jobs the turns queued finish (the in-process worker and this drain
        // share them; a busy retry waits a second), bounded, then B4 over every message played.
        let settle = std::time::Instant::now();
        loop {
            miniclaw::jobs::worker::drain(&pool, state.registry()).await?;
            let open: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM jobs WHERE kind IN ('chat_extract', 'chat_summary') AND status IN ('queued', 'running')",
            )
            .fetch_one(&pool)
            .await?;
            if open == 0 || settle.elapsed() > std::time::Duration::from_secs(180) {
                println!("{{\"learning_jobs_settled_s\":{:.1},\"still_open\":{open}}}", settle.elapsed().as_secs_f64());
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        let (messages, skipped, avg_prompt): (i64, i64, f64) = sqlx::query_as(
            "SELECT count(*), count(*) FILTER (WHERE triage_skipped),
                    coalesce(avg(prompt_tokens) FILTER (WHERE engine IS NOT NULL), 0)::float8 FROM chat_analytics",
        )
        .fetch_one(&pool)
        .await?;
        let (chat_calls, chat_prompt, all_calls, extraction_calls): (i64, f64, i64, i64) = sqlx::query_as(
            "SELECT count(*) FILTER (WHERE role IN ('chat', 'chat_premium')),
                    coalesce(avg(prompt_tokens) FILTER (WHERE role IN ('chat', 'chat_premium')), 0)::float8,
                    count(*), count(*) FILTER (WHERE role = 'extraction')
               FROM llm_usage_logs",
        )
        .fetch_one(&pool)
        .await?;
        let reasons: Vec<(Option<String>, i64)> =
            sqlx::query_as("SELECT skip_reason, count(*) FROM chat_analytics GROUP BY 1 ORDER BY 2 DESC")
                .fetch_all(&pool)
                .await?;
        println!(
            "{{\"b4_messages\":{messages},\"avg_prompt_tokens_per_chat_call\":{chat_prompt:.0},\"chat_calls\":{chat_calls},\"avg_prompt_tokens_analytics\":{avg_prompt:.0},\"triage_skip_rate\":{:.3},\"skip_reasons\":{},\"llm_calls_per_message\":{:.2},\"extraction_calls_per_message\":{:.3}}}",
            skipped as f64 / messages as f64,
            json!(reasons.into_iter().map(|(r, n)| (r.unwrap_or_else(|| "not skipped".into()), n)).collect::<HashMap<_, _>>()),
            all_calls as f64 / messages as f64,
            extraction_calls as f64 / messages as f64
        );
        // Cost per message at the seed's prices and model split (001 §9.3): chat on
        // grok-4-1-fast (premium chat on grok-4.20), the mentor and spawning on grok-4.20
        // reasoning, every background role on gpt-5-mini.
        // Prompt tokens are counted on the prompts the pipeline built; output tokens on the
        // offline engine's answers, which are shorter than a model's, so the cost is also given
        // with every chat reply at `B4_REPLY_TOKENS` (300) output tokens.
        let by_role: Vec<(String, i64, i64, i64)> = sqlx::query_as(
            "SELECT role, count(*), coalesce(sum(prompt_tokens), 0)::int8, coalesce(sum(completion_tokens), 0)::int8
               FROM llm_usage_logs GROUP BY role ORDER BY role",
        )
        .fetch_all(&pool)
        .await?;
        let reply_tokens = setting("B4_REPLY_TOKENS", 300) as f64;
        let prices = miniclaw::llm::pricing::PriceTable::defaults();
        let (mut cost, mut cost_long_replies) = (0.0, 0.0);
        let mut roles = serde_json::Map::new();
        for (role, calls, prompt, completion) in &by_role {
            let model = match role.as_str() {
                "chat" | "skill" => "grok-4-1-fast",
                "chat_premium" => "grok-4.20-0309-non-reasoning",
                "mentor" | "spawn" => "grok-4.20-0309-reasoning",
                _ => "gpt-5-mini",
            };
            let price = prices.get(model).expect("the seed's models are priced");
            let input = price.input * *prompt as f64 / 1e6;
            let here = input + price.output * *completion as f64 / 1e6;
            cost += here;
            cost_long_replies += if role.starts_with("chat") {
                input + price.output * reply_tokens * *calls as f64 / 1e6
            } else {
                here
            };
            roles.insert(
                role.clone(),
                json!({ "model": model, "calls": calls, "prompt_tokens": prompt, "completion_tokens": completion, "usd": here }),
            );
        }
        println!(
            "{{\"cost_per_message_usd\":{:.6},\"cost_per_message_usd_with_{}_token_replies\":{:.6},\"seed_usd\":0.0042,\"by_role\":{}}}",
            cost / messages as f64,
            reply_tokens,
            cost_long_replies / messages as f64,
            Value::Object(roles)
        );
        cancel.cancel();
        Ok::<_, anyhow::Error>(())
    })?;
    miniclaw::telemetry::shutdown_tracing();
    Ok(())
}
