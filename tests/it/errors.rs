//! SPEC F6: every failure has the JSON error shape and the right status; nothing leaks.

use reqwest::Method;
use serde_json::json;

use crate::common::TestApp;

async fn admin_app() -> TestApp {
    TestApp::builder().admin_password("s3cret-admin").spawn().await
}

#[tokio::test]
async fn unknown_route_is_a_json_404() {
    let app = TestApp::spawn().await;
    let r = app.get("/v1/does-not-exist").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.error_code(), "not_found");
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("/v1/does-not-exist"));
}

#[tokio::test]
async fn wrong_method_is_a_json_405() {
    let app = TestApp::spawn().await;
    let r = app.send(app.request(Method::DELETE, "/healthz")).await;
    assert_eq!(r.status, 405);
    assert_eq!(r.error_code(), "method_not_allowed");
}

#[tokio::test]
async fn malformed_json_is_a_400_naming_the_problem() {
    let app = admin_app().await;
    let r = app
        .send(app.admin(Method::POST, "/v1/admin/jobs").header("content-type", "application/json").body("{\"kind\": "))
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_code(), "invalid_json");
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("EOF"), "{}", r.text);
}

#[tokio::test]
async fn wrong_shape_is_a_400_naming_the_field() {
    let app = admin_app().await;
    let r = app.send(app.admin(Method::POST, "/v1/admin/jobs").json(&json!({ "kind": 42 }))).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_code(), "invalid_body");
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("kind"), "{}", r.text);

    let r = app
        .send(app.admin(Method::POST, "/v1/admin/jobs").json(&json!({ "kind": "pipeline_health", "surprise": 1 })))
        .await;
    assert_eq!(r.status, 400);
    assert!(r.text.contains("surprise"), "{}", r.text);
}

#[tokio::test]
async fn missing_content_type_is_a_415() {
    let app = admin_app().await;
    let r = app.send(app.admin(Method::POST, "/v1/admin/jobs").body("{}")).await;
    assert_eq!(r.status, 415);
    assert_eq!(r.error_code(), "unsupported_media_type");
}

#[tokio::test]
async fn body_over_the_limit_is_a_413() {
    let app = TestApp::builder().admin_password("pw").env("MINICLAW_BODY_LIMIT", "2048").spawn().await;
    let big = json!({ "kind": "pipeline_health", "payload": { "blob": "x".repeat(10_000) } });
    let r = app.send(app.admin(Method::POST, "/v1/admin/jobs").json(&big)).await;
    assert_eq!(r.status, 413);
    assert_eq!(r.error_code(), "payload_too_large");
}

#[tokio::test]
async fn bad_path_and_query_parameters_are_400s() {
    let app = admin_app().await;
    let r = app.send(app.admin(Method::POST, "/v1/admin/jobs/not-a-uuid/retry")).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_code(), "invalid_path");
    let r = app.send(app.admin(Method::GET, "/v1/admin/jobs?limit=lots")).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_code(), "invalid_query");
    let r = app.send(app.admin(Method::GET, "/v1/admin/jobs?limit=100000")).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"]["details"]["field"], "limit");
}

#[tokio::test]
async fn database_outage_is_a_503_without_internal_text() {
    let app = admin_app().await;
    app.db.pool.close().await;
    let r = app.send(app.admin(Method::GET, "/v1/admin/jobs")).await;
    assert_eq!(r.status, 503, "{}", r.text);
    assert_eq!(r.error_code(), "unavailable");
    assert!(!r.text.to_lowercase().contains("pool"), "{}", r.text);
}

#[tokio::test]
async fn nul_characters_are_refused_not_a_500() {
    let app = admin_app().await;
    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/wallet/login")
                .header("content-type", "application/json")
                .body(r#"{"signature": "x", "nonce": "a\u0000b"}"#),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.text.contains("NUL"));
    let r = app.send(app.admin(Method::GET, "/v1/admin/jobs?kind=a%00b")).await;
    assert_eq!(r.status, 400, "{}", r.text);
    // The literal text \u0000 (an escaped backslash) is ordinary content.
    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/login")
                .header("content-type", "application/json")
                .body(r#"{"email": "a@example.com", "password": "\\u0000 is fine"}"#),
        )
        .await;
    assert_eq!(r.status, 401, "{}", r.text);
}
