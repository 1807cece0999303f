//! The durable job queue (SPEC C6 mechanism), exercised against a real database.

use miniclaw::ids::AgentId;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use chrono::Utc;
use miniclaw::jobs::worker::{self, Worker};
use miniclaw::jobs::{Cycle, CycleScope, NewJob, Registry, queue, schedule};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::common::{TestApp, TestDb};

fn registry_with(cycles: Vec<Cycle>) -> Registry {
    let mut r = miniclaw::cycles::builtin();
    for c in cycles {
        r.register(c);
    }
    r
}

#[tokio::test]
async fn a_job_enqueued_in_a_rolled_back_transaction_never_exists() {
    let db = TestDb::new().await;
    let mut tx = db.pool.begin().await.unwrap();
    queue::enqueue(&mut *tx, NewJob::new("pipeline_health")).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(queue::stats(&db.pool).await.unwrap().due, 0);

    let mut tx = db.pool.begin().await.unwrap();
    queue::enqueue(&mut *tx, NewJob::new("pipeline_health")).await.unwrap();
    assert_eq!(queue::stats(&db.pool).await.unwrap().due, 0, "invisible before commit");
    tx.commit().await.unwrap();
    assert_eq!(queue::stats(&db.pool).await.unwrap().due, 1);
}

#[tokio::test]
async fn idempotency_keys_make_a_second_enqueue_a_no_op() {
    let db = TestDb::new().await;
    let a = queue::enqueue(&db.pool, NewJob::new("pipeline_health").idempotency_key("k1")).await.unwrap();
    let b = queue::enqueue(&db.pool, NewJob::new("pipeline_health").idempotency_key("k1")).await.unwrap();
    assert!(a.created && !b.created);
    assert_eq!(a.id, b.id);
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs").fetch_one(&db.pool).await.unwrap();
    assert_eq!(count, 1);
}

#[tokio::test]
async fn failures_retry_with_backoff_then_dead_letter_with_the_verbatim_error() {
    let db = TestDb::new().await;
    let registry = registry_with(vec![Cycle::new("always_fails", CycleScope::Platform, "test", |_| async {
        anyhow::bail!("upstream said: 502 Bad Gateway <html>…</html>")
    })]);
    let id = queue::enqueue(&db.pool, NewJob::new("always_fails").max_attempts(3)).await.unwrap().id;

    for attempt in 1..=3 {
        assert_eq!(worker::drain(&db.pool, &registry).await.unwrap(), 1, "attempt {attempt} runs");
        let job = queue::get(&db.pool, id).await.unwrap().unwrap();
        assert_eq!(job.attempts, attempt);
        if attempt < 3 {
            assert_eq!(job.status, "queued");
            let wait = (job.run_at - Utc::now()).num_milliseconds();
            let base = 5000 * 2i64.pow(attempt as u32 - 1);
            assert!(wait > base / 2 - 1000 && wait <= base * 3 / 2, "attempt {attempt}: backoff {wait} ms");
            // Nothing is due until the backoff has passed.
            assert_eq!(worker::drain(&db.pool, &registry).await.unwrap(), 0);
            sqlx::query("UPDATE jobs SET run_at = now() WHERE id = $1").bind(id).execute(&db.pool).await.unwrap();
        } else {
            assert_eq!(job.status, "dead");
            assert_eq!(job.last_error.as_deref(), Some("upstream said: 502 Bad Gateway <html>…</html>"));
            assert!(job.finished_at.is_some());
        }
    }
    assert_eq!(queue::stats(&db.pool).await.unwrap().dead, 1);
}

#[tokio::test]
async fn a_panicking_job_is_recorded_as_a_failure() {
    let db = TestDb::new().await;
    let registry = registry_with(vec![Cycle::new("panics", CycleScope::Platform, "test", |_| async {
        if Utc::now().timestamp() > 0 {
            panic!("index out of bounds");
        }
        Ok(json!({}))
    })]);
    let id = queue::enqueue(&db.pool, NewJob::new("panics").max_attempts(1)).await.unwrap().id;
    worker::drain(&db.pool, &registry).await.unwrap();
    let job = queue::get(&db.pool, id).await.unwrap().unwrap();
    assert_eq!(job.status, "dead");
    assert!(job.last_error.unwrap().contains("index out of bounds"));
}

#[tokio::test]
async fn concurrent_leases_never_hand_out_the_same_job() {
    let db = TestDb::new().await;
    for _ in 0..200 {
        queue::enqueue(&db.pool, NewJob::new("pipeline_health")).await.unwrap();
    }
    let kinds = vec!["pipeline_health".to_string()];
    let mut tasks = Vec::new();
    for w in 0..8 {
        let pool = db.pool.clone();
        let kinds = kinds.clone();
        tasks.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            loop {
                let got = queue::lease(&pool, &format!("w{w}"), &kinds, 7, Duration::from_secs(60)).await.unwrap();
                if got.is_empty() {
                    return mine;
                }
                mine.extend(got.into_iter().map(|j| j.id));
            }
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let total = all.len();
    all.sort();
    all.dedup();
    assert_eq!(total, 200, "every job leased");
    assert_eq!(all.len(), 200, "no job leased twice");
}

#[tokio::test]
async fn an_expired_lease_returns_the_job_to_the_queue() {
    let db = TestDb::new().await;
    let id = queue::enqueue(&db.pool, NewJob::new("pipeline_health")).await.unwrap().id;
    let leased = queue::lease(&db.pool, "crashed-worker", &["pipeline_health".into()], 1, Duration::from_millis(10))
        .await
        .unwrap();
    assert_eq!(leased.len(), 1);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(queue::reclaim_expired(&db.pool).await.unwrap(), 1);
    let job = queue::get(&db.pool, id).await.unwrap().unwrap();
    assert_eq!(job.status, "queued");
    assert!(job.last_error.unwrap().contains("crashed-worker"));
    // The crashed worker can no longer record an outcome for it.
    assert!(!queue::complete(&db.pool, id, "crashed-worker", &json!({})).await.unwrap());
    assert_eq!(worker::drain(&db.pool, &miniclaw::cycles::builtin()).await.unwrap(), 1);
    assert_eq!(queue::get(&db.pool, id).await.unwrap().unwrap().status, "done");
}

#[tokio::test]
async fn schedules_enqueue_each_slot_once_and_move_to_the_next() {
    let db = TestDb::new().await;
    let agent = AgentId::new();
    schedule::ensure(
        &mut db.pool.acquire().await.unwrap(),
        "reflection",
        Some(agent),
        Duration::from_secs(12 * 3600),
        false,
    )
    .await
    .unwrap();
    let next: chrono::DateTime<Utc> =
        sqlx::query_scalar("SELECT next_run_at FROM job_schedules").fetch_one(&db.pool).await.unwrap();
    assert!(next > Utc::now() && next <= Utc::now() + chrono::Duration::hours(12));
    assert_eq!(schedule::tick(&db.pool, &miniclaw::runtime::SQL, 100).await.unwrap(), 0, "not due yet");

    // Pretend the slot passed three and a half intervals ago: one job, no replay of missed slots.
    sqlx::query("UPDATE job_schedules SET next_run_at = now() - interval '42 hours'").execute(&db.pool).await.unwrap();
    let (a, b) = tokio::join!(
        schedule::tick(&db.pool, &miniclaw::runtime::SQL, 100),
        schedule::tick(&db.pool, &miniclaw::runtime::SQL, 100)
    );
    assert_eq!(a.unwrap() + b.unwrap(), 1);
    let next: chrono::DateTime<Utc> =
        sqlx::query_scalar("SELECT next_run_at FROM job_schedules").fetch_one(&db.pool).await.unwrap();
    assert!(next > Utc::now() && next <= Utc::now() + chrono::Duration::hours(12), "{next}");
    let job_agent: Option<AgentId> =
        sqlx::query_scalar("SELECT agent_id FROM jobs WHERE kind = 'reflection'").fetch_one(&db.pool).await.unwrap();
    assert_eq!(job_agent, Some(agent));
    assert_eq!(schedule::tick(&db.pool, &miniclaw::runtime::SQL, 100).await.unwrap(), 0);
}

#[tokio::test]
async fn an_idle_gated_slot_makes_a_job_only_after_activity_other_than_jobs() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent: uuid::Uuid =
        app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().parse().unwrap();
    let pool = app.pool();
    // The breath is gated (X10); its schedule exists from the agent's creation.
    let gated: bool =
        sqlx::query_scalar("SELECT idle_gated FROM job_schedules WHERE agent_id = $1 AND cycle = 'breath'")
            .bind(agent)
            .fetch_one(pool)
            .await
            .unwrap();
    assert!(gated);
    let due = || async {
        sqlx::query("UPDATE job_schedules SET next_run_at = now() - interval '1 minute' WHERE agent_id = $1")
            .bind(agent)
            .execute(pool)
            .await
            .unwrap();
        sqlx::query("DELETE FROM jobs").execute(pool).await.unwrap();
        schedule::tick(pool, &miniclaw::runtime::SQL, 100).await.unwrap();
        let kinds: Vec<String> = sqlx::query_scalar("SELECT kind FROM jobs WHERE agent_id = $1 ORDER BY kind")
            .bind(agent)
            .fetch_all(pool)
            .await
            .unwrap();
        kinds
    };
    let activity = |actor: &'static str| async move {
        sqlx::query(
            "INSERT INTO agent_activity (agent_id, id, tenant_id, action, actor_type)
             SELECT id, gen_random_uuid(), tenant_id, 'test', $2 FROM agents WHERE id = $1",
        )
        .bind(agent)
        .bind(actor)
        .execute(pool)
        .await
        .unwrap();
    };
    // The first slot runs; ungated cycles run every time.
    let first = due().await;
    assert!(first.contains(&"breath".to_string()) && first.contains(&"dreams".to_string()), "{first:?}");
    let idle = due().await;
    assert!(!idle.contains(&"breath".to_string()) && !idle.contains(&"dreams".to_string()), "{idle:?}");
    assert!(idle.contains(&"consolidation".to_string()), "ungated: {idle:?}");
    // A job's own writes do not wake the agent; an owner's do.
    activity("job").await;
    assert!(!due().await.contains(&"breath".to_string()));
    activity("owner").await;
    assert!(due().await.contains(&"breath".to_string()));
    assert!(!due().await.contains(&"breath".to_string()), "once per activity");
    // What the gate avoided is counted: breath, dreams, mirror, reflection and lint skipped
    // their slot in three ticks out of six (the first ran, one after the owner's event too).
    let skipped: i64 =
        sqlx::query_scalar("SELECT idle_skips FROM job_schedules WHERE agent_id = $1 AND cycle = 'breath'")
            .bind(agent)
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!(skipped, 3);
    let stats = miniclaw::jobs::queue::stats(pool).await.unwrap();
    assert_eq!(stats.idle_skips, 3 * 5, "five gated cycles: {stats:?}");
    assert_eq!(
        sqlx::query_scalar::<_, i64>(
            "SELECT idle_skips FROM job_schedules WHERE agent_id = $1 AND cycle = 'consolidation'"
        )
        .bind(agent)
        .fetch_one(pool)
        .await
        .unwrap(),
        0,
        "ungated cycles never skip"
    );
}

#[tokio::test]
async fn platform_cycles_are_scheduled_when_the_worker_starts() {
    let db = TestDb::new().await;
    let registry = Arc::new(miniclaw::cycles::builtin());
    let expected: Vec<String> = [
        "access_retention",
        "analytics_rollup",
        "chat_batch_flush",
        "chat_stream_sweep",
        "feed_digest_sweep",
        "idempotency_retention",
        "identity_drift",
        "job_retention",
        "ledger_sweep",
        "llm_usage_retention",
        "memory_expiry",
        "memory_graph",
        "memory_hits",
        "memory_index",
        "memory_prune",
        "notification_flush",
        "order_auto_settle",
        "payment_retention",
        "pipeline_health",
        "proactive_sweep",
        "token_index",
        "webhook_retention",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let cancel = CancellationToken::new();
    let w = tokio::spawn(Worker::new(db.pool.clone(), registry, 2, Duration::from_millis(50)).run(cancel.clone()));
    let mut cycles: Vec<String> = Vec::new();
    // Bounded wait: the worker writes the schedules one by one, so read until
    // every expected cycle is there (or the bound runs out and the assert says
    // which are missing).
    for _ in 0..100 {
        cycles =
            sqlx::query_scalar("SELECT cycle FROM job_schedules ORDER BY cycle").fetch_all(&db.pool).await.unwrap();
        if cycles.len() >= expected.len() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    cancel.cancel();
    w.await.unwrap().unwrap();
    assert_eq!(cycles, expected);
}

#[tokio::test]
async fn a_notification_wakes_the_worker_long_before_its_poll_interval() {
    let db = TestDb::new().await;
    let ran = Arc::new(AtomicUsize::new(0));
    let seen = ran.clone();
    let registry = Arc::new(registry_with(vec![Cycle::new("count", CycleScope::Platform, "test", move |_| {
        let seen = seen.clone();
        async move {
            seen.fetch_add(1, Ordering::SeqCst);
            Ok(json!({}))
        }
    })]));
    let cancel = CancellationToken::new();
    // A 60 s poll: only LISTEN/NOTIFY can make the job run within the bounded wait below.
    let w = tokio::spawn(Worker::new(db.pool.clone(), registry, 2, Duration::from_secs(60)).run(cancel.clone()));
    tokio::time::sleep(Duration::from_millis(500)).await; // let it subscribe and go idle
    queue::enqueue(&db.pool, NewJob::new("count")).await.unwrap();
    let mut waited = 0;
    while ran.load(Ordering::SeqCst) == 0 && waited < 100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += 1;
    }
    cancel.cancel();
    w.await.unwrap().unwrap();
    assert_eq!(ran.load(Ordering::SeqCst), 1, "job did not run within 5 s of its notification");
}

#[tokio::test]
async fn builtin_cycles_do_their_work() {
    let app = TestApp::spawn().await;
    // job_retention removes old finished jobs and keeps recent ones.
    let old = queue::enqueue(app.pool(), NewJob::new("pipeline_health")).await.unwrap().id;
    app.run_jobs().await;
    sqlx::query("UPDATE jobs SET finished_at = now() - interval '8 days' WHERE id = $1")
        .bind(old)
        .execute(app.pool())
        .await
        .unwrap();
    let recent = queue::enqueue(app.pool(), NewJob::new("pipeline_health")).await.unwrap().id;
    app.run_jobs().await;

    let job = worker::run_cycle_now(app.pool(), &app.registry, "job_retention", None).await.unwrap();
    assert_eq!(job.status, "done");
    assert_eq!(job.result.unwrap()["deleted_done"], 1);
    assert!(queue::get(app.pool(), old).await.unwrap().is_none());
    let kept = queue::get(app.pool(), recent).await.unwrap().unwrap();
    assert_eq!(kept.result.unwrap()["queue"]["dead"], 0, "pipeline_health reports queue figures");
}
