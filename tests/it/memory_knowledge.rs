//! Knowledge ingestion through the API: texts and URLs chunked into knowledge memories, with SSRF
//! protection (also across redirects) and a per-agent cap.

use axum::response::{Html, Redirect};
use axum::routing::get;
use reqwest::Method;
use serde_json::json;

use crate::common::{OwnedAgent as Agent, TestApp};

/// A local web server with a page, a redirect to it and a redirect to the cloud metadata
/// address; returns its base URL.
async fn page_server() -> String {
    let app = axum::Router::new()
        .route("/page", get(|| async { Html("<html><head><title>Jazz in Vienna</title><script>x()</script></head><body><h1>Clubs</h1><p>Porgy &amp; Bess opened in 1993.</p></body></html>") }))
        .route("/to-metadata", get(|| async { Redirect::temporary("http://169.254.169.254/latest/meta-data/") }))
        .route("/to-page", get(|| async { Redirect::temporary("/page") }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

#[tokio::test]
async fn knowledge_from_text_and_urls_with_ssrf_protection_and_a_cap() {
    let base = page_server().await;
    let plain = Agent::new(TestApp::spawn().await).await;
    for url in [
        format!("{base}/page"),
        "http://169.254.169.254/latest/meta-data/".into(),
        "http://[::1]:80/".into(),
        "file:///etc/passwd".into(),
    ] {
        let r = plain.call(Method::POST, "/knowledge/url", Some(json!({ "url": url }))).await;
        assert_eq!(r.status, 422, "{url}: {}", r.text);
        assert_eq!(r.json()["error"]["code"], "url_refused");
    }

    let app =
        TestApp::builder().env("MINICLAW_URL_ALLOWLIST", "127.0.0.1").env("MINICLAW_KNOWLEDGE_CAP", "3").spawn().await;
    let a = Agent::new(app).await;
    let r = a.call(Method::POST, "/knowledge/url", Some(json!({ "url": format!("{base}/to-page") }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let k = r.json();
    assert_eq!(k["title"], "Jazz in Vienna");
    assert_eq!(k["chunks"][0]["content"], "Clubs Porgy & Bess opened in 1993.");
    assert_eq!((k["chunks"][0]["source"].as_str(), k["chunks"][0]["confidence"].as_f64()), (Some("url"), Some(1.0)));
    // Allowed host, but its redirect leads to the metadata address: refused.
    let r = a.call(Method::POST, "/knowledge/url", Some(json!({ "url": format!("{base}/to-metadata") }))).await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert!(r.text.contains("169.254.169.254"));

    let text = "Vienna has about two million inhabitants. ".repeat(30);
    let r = a.call(Method::POST, "/knowledge", Some(json!({ "text": text, "title": "Vienna facts" }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let chunks = r.json()["chunks"].as_array().unwrap().clone();
    assert!(chunks.len() >= 3 && chunks.iter().all(|c| c["content"].as_str().unwrap().chars().count() <= 400));
    assert_eq!(r.json()["entries"], 2);
    assert_eq!(a.call(Method::POST, "/knowledge", Some(json!({ "text": "Third entry." }))).await.status, 201);
    let r = a.call(Method::POST, "/knowledge", Some(json!({ "text": "Fourth entry." }))).await;
    assert_eq!(r.status, 409);
    assert!(r.text.contains("cap is 3"), "{}", r.text);
    assert_eq!(a.call(Method::POST, "/knowledge", Some(json!({ "text": " " }))).await.status, 400);
}
