//! SPEC A5 operator routes and on-demand cycles.

use miniclaw::jobs::{Cycle, CycleScope};
use reqwest::Method;
use serde_json::json;

use crate::common::TestApp;

fn agent_cycle() -> Cycle {
    // Records which agent it ran for, so the test can see the agent id reached the handler.
    Cycle::new("echo_agent", CycleScope::Agent, "test cycle", |ctx| async move {
        Ok(json!({ "agent": ctx.job.agent_id, "kind": ctx.job.kind }))
    })
}

#[tokio::test]
async fn admin_routes_are_403_when_no_password_is_configured() {
    let app = TestApp::spawn().await;
    for (method, path) in [
        (Method::GET, "/v1/admin/cycles"),
        (Method::GET, "/v1/admin/jobs"),
        (Method::POST, "/v1/admin/run/pipeline_health"),
        (Method::POST, "/v1/admin/agents/7f0c3a70-3b0a-4d59-a9b5-0c1f0f9f6a11/run/pipeline_health"),
    ] {
        let r = app.send(app.request(method.clone(), path).bearer_auth("anything")).await;
        assert_eq!(r.status, 403, "{method} {path}");
        assert_eq!(r.error_code(), "admin_disabled");
    }
}

#[tokio::test]
async fn admin_routes_need_the_exact_password() {
    let app = TestApp::builder().admin_password("correct horse").spawn().await;
    let r = app.get("/v1/admin/cycles").await;
    assert_eq!(r.status, 401);
    let r = app.send(app.request(Method::GET, "/v1/admin/cycles").bearer_auth("correct hors")).await;
    assert_eq!(r.status, 401);
    assert!(!r.text.contains("correct horse"));
    let r = app.send(app.admin(Method::GET, "/v1/admin/cycles")).await;
    assert_eq!(r.status, 200);
    let names: Vec<String> =
        r.json().as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_string()).collect();
    assert!(names.contains(&"job_retention".to_string()));
}

#[tokio::test]
async fn run_a_platform_cycle_now() {
    let app = TestApp::builder().admin_password("pw").spawn().await;
    // An hour's work: two memories (one deleted) and a chat turn whose learning runs.
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let memories = format!("/v1/hosted-agents/{agent}/memories");
    for content in ["The user lives in Lisbon", "The user plays chess"] {
        let body = json!({ "content": content, "category": "identity" });
        app.send(app.as_bearer(&owner.token, Method::POST, &memories).json(&body)).await;
    }
    let listed = app.send(app.as_bearer(&owner.token, Method::GET, &memories)).await.json();
    let gone = listed[0]["id"].as_str().unwrap();
    app.send(app.as_bearer(&owner.token, Method::DELETE, &format!("{memories}/{gone}"))).await;
    let r = app.send(app.admin(Method::POST, "/v1/admin/run/pipeline_health")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let job = r.json();
    assert_eq!(job["status"], "done");
    assert_eq!(job["attempts"], 1);
    let result = &job["result"];
    assert!(result["queue"].is_object());
    assert_eq!(result["memories"], json!({ "created": 2, "replaced": 0, "forgotten": 1 }), "{result}");
    assert_eq!(result["failures"]["replies"], 0);
    assert!(result["extractions"]["done"].is_i64() && result["reflections"]["dead"].is_i64(), "{result}");
    // The hours are kept: the admin's job list shows them.
    let hours = app.send(app.admin(Method::GET, "/v1/admin/jobs?kind=pipeline_health&status=done")).await.json();
    assert_eq!(hours[0]["result"]["memories"]["created"], 2);
}

#[tokio::test]
async fn run_an_agent_cycle_now() {
    let app = TestApp::builder().admin_password("pw").cycle(agent_cycle()).spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent =
        app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().parse::<uuid::Uuid>().unwrap();
    let r =
        app.send(app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/echo_agent", uuid::Uuid::new_v4()))).await;
    assert_eq!(r.status, 404, "unknown agent");
    let r = app.send(app.admin(Method::POST, &format!("/v1/admin/agents/{agent}/run/echo_agent"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["result"]["agent"], agent.to_string());
    assert_eq!(r.json()["agent_id"], agent.to_string());

    // Scope mismatches and unknown cycles are clear 4xx answers.
    let r = app.send(app.admin(Method::POST, &format!("/v1/admin/agents/{agent}/run/pipeline_health"))).await;
    assert_eq!(r.status, 422);
    let r = app.send(app.admin(Method::POST, "/v1/admin/run/echo_agent")).await;
    assert_eq!(r.status, 422);
    let r = app.send(app.admin(Method::POST, &format!("/v1/admin/agents/{agent}/run/teleport"))).await;
    assert_eq!(r.status, 404);
    assert!(
        r.json()["error"]["message"].as_str().unwrap().contains("echo_agent"),
        "lists the known cycles: {}",
        r.text
    );
}

#[tokio::test]
async fn a_failed_on_demand_run_is_dead_lettered_and_can_be_retried() {
    let failing = Cycle::new("flaky", CycleScope::Platform, "test", |_| async {
        anyhow::bail!("disk full on /var/spool (errno 28)")
    });
    let app = TestApp::builder().admin_password("pw").cycle(failing).spawn().await;
    let r = app.send(app.admin(Method::POST, "/v1/admin/run/flaky")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"], "dead");
    assert_eq!(r.json()["last_error"], "disk full on /var/spool (errno 28)");
    let id = r.json()["id"].as_str().unwrap().to_string();

    let dead = app.send(app.admin(Method::GET, "/v1/admin/jobs?status=dead")).await.json();
    assert_eq!(dead.as_array().unwrap().len(), 1);
    assert_eq!(dead[0]["id"], id);

    let r = app.send(app.admin(Method::POST, &format!("/v1/admin/jobs/{id}/retry"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["status"], "queued");
    let r = app.send(app.admin(Method::POST, &format!("/v1/admin/jobs/{id}/retry"))).await;
    assert_eq!(r.status, 409, "only dead jobs can be retried");
    let r = app.send(app.admin(Method::POST, &format!("/v1/admin/jobs/{}/retry", uuid::Uuid::new_v4()))).await;
    assert_eq!(r.status, 404);
}

#[tokio::test]
async fn enqueue_through_the_api_is_idempotent_and_validated() {
    let app = TestApp::builder().admin_password("pw").cycle(agent_cycle()).spawn().await;
    let body = json!({ "kind": "pipeline_health", "idempotency_key": "nightly-2026-11-22" });
    let first = app.send(app.admin(Method::POST, "/v1/admin/jobs").json(&body)).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let again = app.send(app.admin(Method::POST, "/v1/admin/jobs").json(&body)).await;
    assert_eq!(again.status, 200);
    assert_eq!(first.json()["id"], again.json()["id"]);
    assert_eq!(app.run_jobs().await, 1);

    let r = app.send(app.admin(Method::POST, "/v1/admin/jobs").json(&json!({ "kind": "echo_agent" }))).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"]["details"]["field"], "agent_id");
    let r = app.send(app.admin(Method::POST, "/v1/admin/jobs").json(&json!({ "kind": "nope" }))).await;
    assert_eq!(r.status, 404);
    let r = app
        .send(app.admin(Method::POST, "/v1/admin/jobs").json(&json!({ "kind": "pipeline_health", "max_attempts": 0 })))
        .await;
    assert_eq!(r.status, 400);
    // The largest floats come back from the database as they went in (PostgreSQL prints them
    // in full, 309 digits): the job and the list both read them.
    let payload = json!({ "big": f64::MAX, "small": -f64::MAX, "tiny": f64::MIN_POSITIVE, "x": 1.401298464324817e-45 });
    let r = app
        .send(app.admin(Method::POST, "/v1/admin/jobs").json(&json!({ "kind": "pipeline_health", "payload": payload })))
        .await;
    assert_eq!((r.status.as_u16(), &r.json()["payload"]), (201, &payload), "{}", r.text);
    let listed = app.send(app.admin(Method::GET, "/v1/admin/jobs")).await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    assert!(listed.json().as_array().unwrap().iter().any(|j| j["payload"] == payload), "{}", listed.text);
}

#[tokio::test]
async fn serve_runs_the_worker_in_process() {
    let app = TestApp::builder().admin_password("pw").with_worker().spawn().await;
    let r = app.send(app.admin(Method::POST, "/v1/admin/jobs").json(&json!({ "kind": "pipeline_health" }))).await;
    assert_eq!(r.status, 201);
    let id = r.json()["id"].as_str().unwrap().parse::<uuid::Uuid>().unwrap();
    for _ in 0..100 {
        let job = miniclaw::jobs::queue::get(app.pool(), id).await.unwrap().unwrap();
        if job.status == "done" {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the in-process worker did not run the job within 5 s");
}
