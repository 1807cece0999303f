//! SPEC T3 with the real worker: no tenant holds more than its share of the worker's slots,
//! deliveries to receivers the platform does not control run in a lane of their own (one at a
//! time per endpoint, a 3 s connect timeout, a breaker after failures in a row), and manual
//! sends to an endpoint are limited: a tenant whose endpoint is a tarpit leaves every other
//! tenant's work alone.

use std::time::Duration;

use chrono::{DateTime, Utc};
use miniclaw::ids::AgentId;
use miniclaw::jobs::queue::{self, NewJob};
use miniclaw::jobs::registry::{Cycle, CycleScope};
use reqwest::Method;
use serde_json::json;

use crate::common::{Session, TestApp};

fn slow_cycle() -> Cycle {
    Cycle::new("slow_work", CycleScope::Agent, "sleeps", |_| async {
        // Long enough that Bob's job, leased at once, ends first even on a busy machine.
        tokio::time::sleep(Duration::from_millis(3000)).await;
        Ok(json!({}))
    })
}

fn quick_cycle() -> Cycle {
    Cycle::new("quick_work", CycleScope::Agent, "returns at once", |_| async { Ok(json!({})) })
}

async fn owner_with_agent(app: &TestApp, email: &str) -> (Session, AgentId) {
    let owner = app.signup(email).await;
    let id = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().parse().unwrap();
    (owner, AgentId(id))
}

/// Waits (bounded) until the jobs of `kind` are all done; their finishing times.
async fn finished(app: &TestApp, kind: &str, n: i64) -> Vec<DateTime<Utc>> {
    for _ in 0..600 {
        let done: Vec<DateTime<Utc>> =
            sqlx::query_scalar("SELECT finished_at FROM jobs WHERE kind = $1 AND status = 'done' ORDER BY finished_at")
                .bind(kind)
                .fetch_all(app.pool())
                .await
                .unwrap();
        if done.len() as i64 >= n {
            return done;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the {kind} jobs were not done within 60 s");
}

#[tokio::test]
async fn one_tenants_backlog_leaves_another_tenant_a_slot() {
    let app = TestApp::builder()
        .with_worker()
        .env("MINICLAW_WORKER_CONCURRENCY", "4")
        .cycle(slow_cycle())
        .cycle(quick_cycle())
        .spawn()
        .await;
    let (_, adas) = owner_with_agent(&app, "ada@example.com").await;
    let (_, bobs) = owner_with_agent(&app, "bob@example.com").await;
    for _ in 0..8 {
        queue::enqueue(app.pool(), NewJob::new("slow_work").agent(adas)).await.unwrap();
    }
    queue::enqueue(app.pool(), NewJob::new("quick_work").agent(bobs)).await.unwrap();
    let bob = finished(&app, "quick_work", 1).await[0];
    let ada = finished(&app, "slow_work", 8).await;
    // Ada's backlog holds at most half the slots: Bob's job ran at once, before any of hers
    // ended, however many of hers were queued first.
    assert!(bob < ada[0], "Bob's job ended at {bob}, Ada's first at {}", ada[0]);
    // The most of hers running at once: at each start, how many had started and not ended.
    let most: i64 = sqlx::query_scalar(
        "SELECT max((SELECT count(*) FROM jobs b WHERE b.kind = 'slow_work'
                        AND b.started_at <= a.started_at AND b.finished_at > a.started_at))
           FROM jobs a WHERE a.kind = 'slow_work'",
    )
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert!(most <= 2, "at most 2 of Ada's jobs ran at once, saw {most}");
}

/// A receiver that accepts connections and never answers, holding them open.
async fn tarpit() -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    (url, task)
}

#[tokio::test]
async fn a_tarpit_endpoint_leaves_other_tenants_work_alone() {
    let app = TestApp::builder()
        .with_worker()
        .env("MINICLAW_WORKER_CONCURRENCY", "4")
        .env("MINICLAW_URL_ALLOWLIST", "127.0.0.1")
        .cycle(quick_cycle())
        .spawn()
        .await;
    let (url, _tarpit) = tarpit().await;
    let (mallory, _) = owner_with_agent(&app, "mallory@example.com").await;
    let (_, bobs) = owner_with_agent(&app, "bob@example.com").await;
    let r = app
        .send(
            app.as_bearer(&mallory.token, Method::POST, "/v1/webhooks")
                .json(&json!({ "url": url, "events": ["webhook.test"] })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let mut statuses = Vec::new();
    for _ in 0..12 {
        let r = app.send(app.as_bearer(&mallory.token, Method::POST, &format!("/v1/webhooks/{id}/test"))).await;
        statuses.push(r.status.as_u16());
        if r.status == 429 {
            assert!(r.headers.contains_key("retry-after") && r.text.contains("5 test or replayed"), "{}", r.text);
        }
    }
    assert_eq!(statuses.iter().filter(|s| **s == 202).count(), 5, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 7, "{statuses:?}");

    // The worker is sending into the tarpit (one delivery at a time for the endpoint); Bob's
    // work runs meanwhile, long before any delivery gives up after its 10 s.
    tokio::time::sleep(Duration::from_millis(500)).await;
    queue::enqueue(app.pool(), NewJob::new("quick_work").agent(bobs)).await.unwrap();
    let bob = finished(&app, "quick_work", 1).await[0];
    let delivered: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM jobs WHERE kind = 'webhook_deliver' AND status <> 'running' AND finished_at < $1",
    )
    .bind(bob)
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert_eq!(delivered, 0, "Bob's job ended before any delivery attempt did");
    let running: i64 =
        sqlx::query_scalar("SELECT count(*) FROM jobs WHERE kind = 'webhook_deliver' AND status = 'running'")
            .fetch_one(app.pool())
            .await
            .unwrap();
    assert_eq!(running, 1, "one delivery at a time for the endpoint");
}

#[tokio::test]
async fn a_receiver_failing_in_a_row_trips_its_breaker() {
    let app = TestApp::builder().env("MINICLAW_URL_ALLOWLIST", "127.0.0.1").spawn().await;
    let owner = app.signup("ada@example.com").await;
    // A port nobody listens on: each attempt fails at once.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let r = app
        .send(app.as_bearer(&owner.token, Method::POST, "/v1/webhooks").json(&json!({
            "url": format!("http://127.0.0.1:{port}/hook"), "events": ["webhook.test"]
        })))
        .await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    app.send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/webhooks/{id}/test"))).await;
    for _ in 0..4 {
        sqlx::query("UPDATE jobs SET run_at = now() WHERE kind = 'webhook_deliver' AND status = 'queued'")
            .execute(app.pool())
            .await
            .unwrap();
        app.run_jobs().await;
    }
    let deliveries =
        app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/webhooks/{id}/deliveries"))).await.json();
    let log = deliveries[0]["log"].as_array().unwrap().clone();
    assert_eq!(log.len(), 4, "{deliveries}");
    for attempt in &log[..3] {
        assert!(!attempt["error"].as_str().unwrap().starts_with("not tried"), "{attempt}");
    }
    assert!(log[3]["error"].as_str().unwrap().starts_with("not tried: the endpoint's last attempts failed"), "{log:?}");
    let (failures, open): (i32, bool) = sqlx::query_as(
        "SELECT consecutive_failures, breaker_open_until > now() FROM webhook_endpoints WHERE id = $1::uuid",
    )
    .bind(&id)
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert_eq!((failures, open), (3, true));
}

#[tokio::test]
async fn an_operator_suspends_a_tenant_and_resumes_it_with_nothing_lost() {
    let app = TestApp::builder().admin_password("pw").cycle(quick_cycle()).spawn().await;
    let (mallory, agent) = owner_with_agent(&app, "mallory@example.com").await;
    let (_, key) = app.create_key(&mallory, &agent.to_string(), &["chat:write", "memories:read"]).await;
    let (bob, bobs) = owner_with_agent(&app, "bob@example.com").await;
    let memories = format!("/v1/hosted-agents/{agent}/memories");
    assert_eq!(app.send(app.as_bearer(&key, Method::GET, &memories)).await.status, 200);
    queue::enqueue(app.pool(), NewJob::new("quick_work").agent(agent)).await.unwrap();

    let suspension = format!("/v1/admin/tenants/{}/suspension", mallory.tenant_id);
    let r = app.send(app.admin(Method::PUT, &suspension).json(&json!({ "reason": "" }))).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = app.send(app.admin(Method::PUT, &suspension).json(&json!({ "reason": "card fraud" }))).await;
    assert_eq!(r.status, 204, "{}", r.text);
    let unknown = format!("/v1/admin/tenants/{}/suspension", uuid::Uuid::now_v7());
    assert_eq!(app.send(app.admin(Method::PUT, &unknown).json(&json!({ "reason": "x" }))).await.status, 404);

    // The key (cached a moment ago) and the session stop; signing in is refused.
    let r = app.send(app.as_bearer(&key, Method::GET, &memories)).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "account_suspended"), "{}", r.text);
    let r = app.send(app.as_bearer(&mallory.token, Method::GET, "/v1/me")).await;
    assert_eq!(r.status, 401, "the session ended: {}", r.text);
    let login = json!({ "email": "mallory@example.com", "password": "correct horse battery" });
    let r = app.send(app.request(Method::POST, "/v1/auth/login").json(&login)).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "account_suspended"), "{}", r.text);
    // Its jobs stay queued; another tenant's run.
    queue::enqueue(app.pool(), NewJob::new("quick_work").agent(bobs)).await.unwrap();
    let leased = miniclaw::jobs::fair::lease_fair(
        app.pool(),
        app.registry.domain(),
        "w",
        &["quick_work".to_string()],
        10,
        Duration::from_secs(60),
        10,
    )
    .await
    .unwrap();
    assert_eq!(leased.iter().map(|j| j.agent_id).collect::<Vec<_>>(), vec![Some(bobs.0)], "only Bob's job");
    let bob_me = app.send(app.as_bearer(&bob.token, Method::GET, "/v1/me")).await;
    assert_eq!(bob_me.status, 200);

    // Resumed: the same key works, the owner signs in, the job is still there to run.
    assert_eq!(app.send(app.admin(Method::DELETE, &suspension)).await.status, 204);
    assert_eq!(app.send(app.admin(Method::DELETE, &suspension)).await.status, 404, "not suspended any more");
    assert_eq!(app.send(app.as_bearer(&key, Method::GET, &memories)).await.status, 200);
    let r = app.send(app.request(Method::POST, "/v1/auth/login").json(&login)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let queued: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM jobs WHERE kind = 'quick_work' AND agent_id = $1 AND status = 'queued'",
    )
    .bind(agent.0)
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert_eq!(queued, 1, "the suspended tenant's job waited, untouched");
    let switches: i64 =
        sqlx::query_scalar("SELECT count(*) FROM llm_kill_switches").fetch_one(app.pool()).await.unwrap();
    assert_eq!(switches, 0, "its model calls resume");
}
