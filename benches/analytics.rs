//! SPEC D1's target: a 90-day analytics range of an agent with 10,000 messages a day answers in
//! at most 200 ms p95, because it reads hourly rollups instead of the raw rows.
//!
//!     cargo bench --bench analytics
//!
//! Works in a scratch database (`miniclaw_bench_d1`, recreated each run): 900,000 turns (90
//! days × 10,000, spread evenly up to now) and as many model calls, then the first rollup (the
//! backfill) is timed, then 30 requests of each kind: the 90-day range by day, a 31-day range by
//! hour, and the week-over-week comparison. The baseline in the same run: the same 90 days
//! aggregated from the raw rows (what every request would cost without the rollups).
//! `D1_DAYS` and `D1_PER_DAY` change the volume.

mod support;

use std::time::{Duration, Instant};

use chrono::Utc;
use miniclaw::analytics::{self, Granularity, Scope, compare, rollup};
use miniclaw::ids::AgentId;
use uuid::Uuid;

const DB: &str = "miniclaw_bench_d1";

fn env(name: &str, default: i64) -> i64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn summary(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| ms[((ms.len() as f64 - 1.0) * p).round() as usize];
    format!("p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms ({} runs)", at(0.5), at(0.95), at(1.0), ms.len())
}

fn main() -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async {
        let (days, per_day) = (env("D1_DAYS", 90), env("D1_PER_DAY", 10_000));
        let url = support::fresh_database(DB).await?;
        let pool = sqlx::postgres::PgPoolOptions::new().max_connections(8).connect(url.as_str()).await?;
        miniclaw::db::migrate(&pool).await?;
        let (tenant, agent) = (Uuid::now_v7(), Uuid::now_v7());
        sqlx::query("INSERT INTO tenants (id, name) VALUES ($1, 'bench')").bind(tenant).execute(&pool).await?;
        sqlx::query("INSERT INTO agents (id, tenant_id, name) VALUES ($1, $2, 'bench')")
            .bind(agent)
            .bind(tenant)
            .execute(&pool)
            .await?;

        let t = Instant::now();
        let total = days * per_day;
        let chunk = per_day * 10;
        let mut from = 0;
        while from < total {
            let to = (from + chunk).min(total);
            // Turn i happens (total − i) × (days / total) days before now.
            sqlx::query(
                "INSERT INTO chat_analytics (message_id, agent_id, tenant_id, conversation_id, channel, intent,
                        response_style, save_worthy, triage_skipped, skip_reason, triage_ms, response_ms, chat_model,
                        engine, prompt_tokens, completion_tokens, cost_usd, context_tokens, memories_used, used_dossier,
                        finish_reason, extraction_triggered, facts_extracted, dedup, batch_size, batch_threshold,
                        context_ms, generation_ms, created_at)
                 SELECT gen_random_uuid(), $1, $2, gen_random_uuid(), (ARRAY['web', 'api', 'email'])[1 + i % 3],
                        (ARRAY['question', 'smalltalk', 'task', 'feedback'])[1 + i % 4], 'concise', i % 3 = 0, i % 4 = 1,
                        CASE WHEN i % 4 = 1 THEN 'greeting' END, 30 + i % 70, 200 + (i * 7919) % 3000, 'gpt-4o-mini',
                        'model', 400 + i % 300, 80 + i % 90, 0.0004 + (i % 10) * 0.00005, 300, i % 5, i % 7 = 0, 'stop',
                        i % 3 = 0, CASE WHEN i % 9 = 0 THEN 2 ELSE 0 END,
                        CASE WHEN i % 9 = 0 THEN '{\"exact_match\":0,\"llm_new\":2,\"llm_update\":0,\"llm_duplicate\":0,\"no_existing\":1}'::jsonb
                             ELSE '{}'::jsonb END,
                        CASE WHEN i % 9 = 0 THEN 3 END, 3, 20 + i % 40, 150 + (i * 31) % 2500,
                        now() - ($3 - i) * ($4::float8 / $3) * interval '1 day'
                   FROM generate_series($5::bigint, $6::bigint - 1) AS i",
            )
            .bind(agent)
            .bind(tenant)
            .bind(total)
            .bind(days as f64)
            .bind(from)
            .bind(to)
            .execute(&pool)
            .await?;
            sqlx::query(
                "INSERT INTO llm_usage_logs (id, agent_id, tenant_id, role, background, provider, model, prompt_tokens,
                        completion_tokens, latency_ms, finish_reason, cost_usd, created_at)
                 SELECT gen_random_uuid(), $1, $2, (ARRAY['chat', 'triage', 'extraction'])[1 + i % 3], i % 3 <> 0,
                        'openai', 'gpt-4o-mini', 400, 80, 300 + i % 900, 'stop', 0.0004,
                        now() - ($3 - i) * ($4::float8 / $3) * interval '1 day'
                   FROM generate_series($5::bigint, $6::bigint - 1) AS i",
            )
            .bind(agent)
            .bind(tenant)
            .bind(total)
            .bind(days as f64)
            .bind(from)
            .bind(to)
            .execute(&pool)
            .await?;
            from = to;
        }
        sqlx::query("ANALYZE chat_analytics").execute(&pool).await?;
        sqlx::query("ANALYZE llm_usage_logs").execute(&pool).await?;
        println!("seeded {total} turns and {total} model calls over {days} days in {:.1} s", t.elapsed().as_secs_f64());

        let t = Instant::now();
        let hours = rollup::run(&pool, Utc::now()).await?;
        println!("first rollup (backfill): {hours} agent-hours in {:.1} s", t.elapsed().as_secs_f64());
        let t = Instant::now();
        rollup::run(&pool, Utc::now()).await?;
        println!("a later rollup (the last {} hours again): {:.2} s", rollup::RECOMPUTE_HOURS, t.elapsed().as_secs_f64());

        let agent = AgentId(agent);
        let now = Utc::now();
        let from = now - chrono::Duration::days(days);
        let mut timings = Vec::new();
        let mut bytes = 0;
        for _ in 0..30 {
            let t = Instant::now();
            let a = analytics::analytics(&pool, Scope::Agent(agent), from, now, Granularity::Day).await?;
            bytes = serde_json::to_vec(&a)?.len();
            timings.push(t.elapsed().as_secs_f64() * 1000.0);
            assert!(a.totals.messages >= total - per_day, "the range holds the seeded turns");
        }
        println!("D1 {days} days by day (with JSON encoding, {bytes} bytes): {}", summary(timings));

        let mut timings = Vec::new();
        for _ in 0..30 {
            let t = Instant::now();
            let a = analytics::analytics(&pool, Scope::Agent(agent), now - chrono::Duration::days(31), now, Granularity::Hour)
                .await?;
            serde_json::to_vec(&a)?;
            timings.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        println!("D1 31 days by hour: {}", summary(timings));

        let mut timings = Vec::new();
        for _ in 0..30 {
            let t = Instant::now();
            compare::comparison(&pool, agent, 7, now).await?;
            timings.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        println!("D4 comparison, 7 days against 7: {}", summary(timings));

        // Baseline: the same range aggregated from the raw rows (the rollup statement as a read).
        let mut timings = Vec::new();
        for _ in 0..3 {
            let t = Instant::now();
            let rows: Vec<analytics::HourRow> = sqlx::query_as(&rollup::HOURLY_SELECT)
                .bind(from)
                .bind(now)
                .bind(Some(vec![agent.0]))
                .bind(None::<Uuid>)
                .fetch_all(&pool)
                .await?;
            assert!(!rows.is_empty());
            timings.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        println!("baseline, the same {days} days from the raw rows: {}", summary(timings));
        tokio::time::sleep(Duration::from_millis(10)).await;
        Ok(())
    })
}
