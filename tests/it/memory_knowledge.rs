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

/// Finding 12: every special-purpose range is refused, including the IPv4-compatible form, the
/// local-use NAT64 prefix, Teredo, 192.0.0.0/24 and site-local; and the refusal does not say
/// what a name resolves to.
#[tokio::test]
async fn special_purpose_addresses_are_refused_without_naming_what_a_name_resolves_to() {
    let a = Agent::new(TestApp::spawn().await).await;
    for url in [
        "http://[::7f00:1]/",
        "http://[::a9fe:a9fe]/latest/meta-data/",
        "http://[64:ff9b:1::a00:1]/",
        "http://[2001::1]/",
        "http://192.0.0.170/",
        "http://[fec0::1]/",
        "http://[100::1]/",
        "http://localhost:9/",
    ] {
        let r = a.call(Method::POST, "/knowledge/url", Some(json!({ "url": url }))).await;
        assert_eq!(r.status, 422, "{url}: {}", r.text);
        assert_eq!(r.error_code(), "url_refused", "{url}");
        let message = r.json()["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains("is, or resolves to, an internal address"), "{url} is refused as such: {message}");
        if url.contains("localhost") {
            assert!(!message.contains("127.0.0.1") && !message.contains("::1"), "names the address: {message}");
        }
    }
}

/// A stand-in HTTP proxy: answers every request with a page and counts the requests.
async fn proxy_server() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let seen = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    let app = axum::Router::new().fallback(move || {
        let counter = counter.clone();
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            Html("<html><body><p>Served by the proxy.</p></body></html>")
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), seen)
}

/// Finding 12: the fetch never goes through a proxy from the environment (`HTTP_PROXY`), which
/// would connect on its own, around the address check. The target is an allowed address with
/// nothing listening: directly it cannot be fetched; through the proxy it would have been.
#[tokio::test]
async fn url_ingestion_ignores_proxy_environment_variables() {
    use std::sync::atomic::Ordering;
    let app = TestApp::builder().env("MINICLAW_URL_ALLOWLIST", "127.0.0.1,::1").spawn().await;
    let a = Agent::new(app).await;
    let (proxy, seen) = proxy_server().await;
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    // nextest runs each test in its own process; the test's own client talks to 127.0.0.1,
    // which NO_PROXY exempts, while the fetch below names `localhost`.
    // SAFETY: set before the request that reads them; no other thread reads the environment
    // concurrently in a way that matters here.
    unsafe {
        std::env::set_var("HTTP_PROXY", &proxy);
        std::env::set_var("http_proxy", &proxy);
        std::env::set_var("NO_PROXY", "127.0.0.1,::1");
    }
    let r =
        a.call(Method::POST, "/knowledge/url", Some(json!({ "url": format!("http://localhost:{closed}/page") }))).await;
    unsafe {
        std::env::remove_var("HTTP_PROXY");
        std::env::remove_var("http_proxy");
        std::env::remove_var("NO_PROXY");
    }
    assert_eq!(seen.load(Ordering::SeqCst), 0, "the proxy was used: {}", r.text);
    assert_eq!(r.status, 422, "{}", r.text);
    assert_eq!(r.error_code(), "url_refused");
}
