//! SPEC B5: 10,000 agents' recurring jobs, without bursts.
//!
//!     cargo bench --bench queue_scale
//!
//! Works in a scratch database (`miniclaw_bench_b5`, recreated each run). Three figures:
//! 1. Spread: the platform's real per-agent cycles (reflection 12 h, consolidation 6 h, lint
//!    24 h) scheduled for 10,000 agents; the busiest minute of the next 24 hours against the
//!    mean (a burst would show as a peak far above the mean).
//! 2. Steady state: a no-op per-agent cycle every 60 s for 10,000 agents (167 jobs/s, two
//!    hundred times the real cycles' rate) run by one worker (the default 4 slots) for 150 s;
//!    queue lag (start − due) p50/p99 over the jobs due after the first 30 s.
//! 3. Peak: 20,000 jobs due at once; how many jobs per second the worker drains.
//! 4. The proactive idle gate (X7): every agent has an owner conversation of 20 messages from
//!    three days ago, already scanned and thought about; 1% wrote two minutes ago. How many
//!    scans the sweep queues (against one per agent without the gate) and how long its gate
//!    query takes (`B5_ONLY=idle_gate` runs only this figure).

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use miniclaw::jobs::{Cycle, CycleScope, JobContext, Registry, schedule};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

const DB: &str = "miniclaw_bench_b5";
const AGENTS: usize = 10_000;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn noop_registry(interval: Option<Duration>) -> Registry {
    let mut r = Registry::new(miniclaw::runtime::SQL);
    let mut c = Cycle::new("bench_noop", CycleScope::Agent, "does nothing", |_ctx: JobContext| async { Ok(json!({})) });
    if let Some(i) = interval {
        c = c.every(i);
    }
    r.register(c);
    r
}

async fn run_worker(pool: &PgPool, registry: Registry, for_secs: u64) -> anyhow::Result<()> {
    let cancel = tokio_util::sync::CancellationToken::new();
    let worker = miniclaw::jobs::worker::Worker::new(pool.clone(), Arc::new(registry), 4, Duration::from_millis(200));
    let task = tokio::spawn(worker.run(cancel.clone()));
    tokio::time::sleep(Duration::from_secs(for_secs)).await;
    cancel.cancel();
    task.await??;
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async {
        let url = support::fresh_database(DB).await?;
        let pool = sqlx::postgres::PgPoolOptions::new().max_connections(16).connect(url.as_str()).await?;
        miniclaw::db::migrate(&pool).await?;
        let tenant = Uuid::now_v7();
        sqlx::query("INSERT INTO tenants (id, name) VALUES ($1, 'bench')").bind(tenant).execute(&pool).await?;
        let ids: Vec<Uuid> = (0..AGENTS).map(|_| Uuid::now_v7()).collect();
        sqlx::query("INSERT INTO agents (id, tenant_id, name) SELECT a, $2, 'bench' FROM unnest($1::uuid[]) a")
            .bind(&ids)
            .bind(tenant)
            .execute(&pool)
            .await?;

        let only_gate = std::env::var("B5_ONLY").as_deref() == Ok("idle_gate");
        if !only_gate {
        // 1. The real cycles' spread.
        let t = Instant::now();
        let added = schedule::ensure_all_agents(&pool, &miniclaw::cycles::builtin()).await?;
        let scheduling_s = t.elapsed().as_secs_f64();
        let per_minute: Vec<i64> = sqlx::query_scalar(
            "SELECT count(*) FROM job_schedules WHERE agent_id IS NOT NULL AND next_run_at < now() + interval '24 hours'
              GROUP BY date_trunc('minute', next_run_at) ORDER BY 1 DESC",
        )
        .fetch_all(&pool)
        .await?;
        let total: i64 = per_minute.iter().sum();
        // Each cycle's first run falls once within its interval; the mean is over 24 h.
        let busiest = per_minute.first().copied().unwrap_or(0);
        println!(
            "{{\"agents\":{AGENTS},\"schedules\":{added},\"scheduling_s\":{scheduling_s:.1},\"first_runs_in_24h\":{total},\"mean_per_minute\":{:.1},\"busiest_minute\":{busiest}}}",
            total as f64 / 1440.0
        );
        sqlx::query("DELETE FROM job_schedules").execute(&pool).await?;

        // 2. Steady state with a 60 s no-op cycle.
        let registry = noop_registry(Some(Duration::from_secs(60)));
        schedule::ensure_all_agents(&pool, &registry).await?;
        let started = Utc::now();
        run_worker(&pool, noop_registry(Some(Duration::from_secs(60))), 150).await?;
        let lags: Vec<f64> = sqlx::query_scalar(
            "SELECT extract(epoch FROM started_at - run_at)::float8 FROM jobs
              WHERE kind = 'bench_noop' AND status = 'done' AND run_at > $1 + interval '30 seconds'",
        )
        .bind(started)
        .fetch_all(&pool)
        .await?;
        let mut lags = lags;
        lags.sort_by(f64::total_cmp);
        let due_after_warmup: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM jobs WHERE kind = 'bench_noop' AND run_at > $1 + interval '30 seconds' AND run_at < now()",
        )
        .bind(started)
        .fetch_one(&pool)
        .await?;
        let busiest_second: i64 = sqlx::query_scalar(
            "SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM jobs WHERE kind = 'bench_noop'
              GROUP BY date_trunc('second', run_at)) s",
        )
        .fetch_one(&pool)
        .await?;
        println!(
            "{{\"steady_jobs_per_s_due\":{:.0},\"done_after_warmup\":{},\"due_after_warmup\":{due_after_warmup},\"lag_p50_s\":{:.3},\"lag_p99_s\":{:.3},\"busiest_second_due\":{busiest_second}}}",
            AGENTS as f64 / 60.0,
            lags.len(),
            percentile(&lags, 0.5),
            percentile(&lags, 0.99)
        );
        sqlx::query("DELETE FROM job_schedules").execute(&pool).await?;
        sqlx::query("DELETE FROM jobs").execute(&pool).await?;

        // 3. Peak drain rate: 20,000 jobs due now.
        sqlx::query(
            "INSERT INTO jobs (id, kind, agent_id, run_at) SELECT gen_random_uuid(), 'bench_noop', a, now()
               FROM unnest($1::uuid[]) a, generate_series(1, 2)",
        )
        .bind(&ids)
        .execute(&pool)
        .await?;
        let t = Instant::now();
        let cancel = tokio_util::sync::CancellationToken::new();
        let worker =
            miniclaw::jobs::worker::Worker::new(pool.clone(), Arc::new(noop_registry(None)), 4, Duration::from_millis(200));
        let task = tokio::spawn(worker.run(cancel.clone()));
        loop {
            let left: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs WHERE status <> 'done'").fetch_one(&pool).await?;
            if left == 0 || t.elapsed() > Duration::from_secs(600) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let secs = t.elapsed().as_secs_f64();
        cancel.cancel();
        task.await??;
        println!("{{\"peak_jobs\":{},\"drain_s\":{secs:.1},\"peak_jobs_per_s\":{:.0}}}", AGENTS * 2, (AGENTS * 2) as f64 / secs);
        }

        // 4. The proactive idle gate.
        sqlx::query("DELETE FROM jobs").execute(&pool).await?;
        sqlx::query(
            "INSERT INTO conversations (id, agent_id, title, channel, message_count, owner_private)
             SELECT gen_random_uuid(), a, 'bench', 'web', 20, true FROM unnest($1::uuid[]) a",
        )
        .bind(&ids)
        .execute(&pool)
        .await?;
        sqlx::query(
            "INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, created_at)
             SELECT gen_random_uuid(), c.id, c.agent_id, g, 'user', 'an old message', 'complete', 'web',
                    now() - interval '3 days' + g * interval '1 minute'
               FROM conversations c, generate_series(0, 19) g",
        )
        .execute(&pool)
        .await?;
        sqlx::query(
            "INSERT INTO agent_proactive (agent_id, scanned_through, last_thought_at)
             SELECT a, now() - interval '3 days' + interval '19 minutes', now() - interval '2 days' FROM unnest($1::uuid[]) a",
        )
        .bind(&ids)
        .execute(&pool)
        .await?;
        let active = &ids[..AGENTS / 100];
        sqlx::query(
            "INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, created_at)
             SELECT gen_random_uuid(), c.id, c.agent_id, 20, 'user', 'a new message', 'complete', 'web', now() - interval '2 minutes'
               FROM conversations c WHERE c.agent_id = ANY($1)",
        )
        .bind(active)
        .execute(&pool)
        .await?;
        sqlx::query("ANALYZE").execute(&pool).await?;
        let mut times = Vec::new();
        let mut queued = 0;
        for _ in 0..7 {
            let t = Instant::now();
            queued = miniclaw::channels::proactive::agents_to_scan(&pool, Utc::now()).await?.len();
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{{\"idle_gate_agents\":{AGENTS},\"wrote_recently\":{},\"scans_queued\":{queued},\"without_gate\":{AGENTS},\"gate_ms_p50\":{:.1},\"gate_ms_max\":{:.1}}}",
            active.len(),
            percentile(&times, 0.5),
            times.last().copied().unwrap_or(f64::NAN)
        );
        Ok(())
    })
}
