use crate::common::TestApp;
use reqwest::Method;

#[tokio::test]
async fn liveness_and_readiness() {
    let app = TestApp::spawn().await;
    let r = app.get("/healthz").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"], "ok");

    let r = app.get("/readyz").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["status"], "ready");
    assert_eq!(r.json()["migrations_pending"], 0);
}

#[tokio::test]
async fn readiness_fails_while_migrations_are_pending() {
    let app = TestApp::spawn().await;
    // Forget the newest migration: the instance must no longer claim to be ready.
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = (SELECT max(version) FROM _sqlx_migrations)")
        .execute(app.pool())
        .await
        .unwrap();
    let r = app.get("/readyz").await;
    assert_eq!(r.status, 503);
    assert_eq!(r.json()["migrations_pending"], 1);
    assert!(r.json()["reason"].as_str().unwrap().contains("miniclaw migrate"));
}

#[tokio::test]
async fn gateway_health_reports_db_latency_and_modules() {
    let app = TestApp::spawn().await;
    let r = app.get("/v1/gateway/health").await;
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["status"], "ok");
    assert!(v["db_latency_ms"].as_f64().unwrap() >= 0.0);
    let modules = v["modules"].as_array().unwrap();
    let of = |name: &str| modules.iter().find(|m| m["name"] == name).unwrap_or_else(|| panic!("{name}: {v}")).clone();
    assert_eq!(of("database")["status"], "ok");
    assert_eq!(of("queue")["detail"], "background work is on time", "{v}");
    assert!(!v.to_string().contains("dead"), "no queue internals for anyone who asks: {v}");
    assert_eq!(of("models")["detail"], "the offline engine (no model provider configured)");
    assert_eq!((of("chain")["enabled"].as_bool(), of("chain")["status"].as_str()), (Some(false), Some("off")));
    assert_eq!(of("embeddings")["status"], "ok");
    // A queue whose due work waits past five minutes is degraded.
    sqlx::query("INSERT INTO jobs (id, kind, payload, run_at) VALUES (gen_random_uuid(), 'pipeline_health', '{}', now() - interval '10 minutes')")
        .execute(app.pool())
        .await
        .unwrap();
    let v = app.get("/v1/gateway/health").await.json();
    let queue = v["modules"].as_array().unwrap().iter().find(|m| m["name"] == "queue").unwrap().clone();
    assert_eq!(
        (queue["status"].as_str(), queue["detail"].as_str()),
        (Some("degraded"), Some("background work is running late"))
    );
}

#[tokio::test]
async fn every_response_carries_a_request_id_and_echoes_a_given_one() {
    let app = TestApp::spawn().await;
    let r = app.get("/healthz").await;
    let id = r.headers.get("x-request-id").expect("generated request id");
    assert_eq!(id.len(), 36);
    let r = app.send(app.request(reqwest::Method::GET, "/nope").header("x-request-id", "abc-123")).await;
    assert_eq!(r.headers["x-request-id"], "abc-123");
}

#[tokio::test]
async fn metrics_expose_route_latency_and_queue_depth() {
    let app = TestApp::spawn().await;
    app.get("/healthz").await;
    miniclaw::jobs::queue::enqueue(app.pool(), miniclaw::jobs::NewJob::new("pipeline_health")).await.unwrap();
    let r = app.get("/metrics").await;
    assert_eq!(r.status, 200);
    assert!(r.headers["content-type"].to_str().unwrap().starts_with("text/plain"));
    assert!(r.text.contains("http_request_duration_seconds_bucket{method=\"GET\",route=\"/healthz\""), "{}", r.text);
    assert!(r.text.contains("miniclaw_job_queue_depth{state=\"due\"} 1"), "{}", r.text);
    assert!(r.text.contains("miniclaw_job_queue_lag_seconds"));
}

/// Hardening finding 15: `/metrics` was public. With a token it needs the token; without one it
/// answers only direct requests from this machine (not ones forwarded by a proxy).
#[tokio::test]
async fn metrics_need_the_token_or_a_direct_local_request() {
    let app = TestApp::spawn().await;
    assert_eq!(app.get("/metrics").await.status, 200, "loopback, direct");
    let r = app.send(app.request(Method::GET, "/metrics").header("x-forwarded-for", "203.0.113.7")).await;
    assert_eq!(r.status, 403, "forwarded by a proxy on this machine: {}", r.text);

    let app = TestApp::builder().env("MINICLAW_METRICS_TOKEN", "scrape-secret-123").spawn().await;
    assert_eq!(app.get("/metrics").await.status, 403);
    assert_eq!(app.send(app.as_bearer("wrong", Method::GET, "/metrics")).await.status, 403);
    assert_eq!(app.send(app.as_bearer("scrape-secret-123", Method::GET, "/metrics")).await.status, 200);
}
