//! SPEC F7: the committed OpenAPI document is current, served, and rendered as a reference.

use crate::common::TestApp;

#[test]
fn committed_openapi_document_is_current() {
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json")).unwrap_or_default();
    let generated = miniclaw::api::openapi_json();
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: regenerate it with `make openapi` (cargo run -- openapi > openapi/openapi.json)"
    );
}

#[tokio::test]
async fn the_served_document_is_the_committed_one() {
    let app = TestApp::spawn().await;
    let r = app.get("/openapi.json").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text, miniclaw::api::openapi_json());
    let doc = r.json();
    assert_eq!(doc["openapi"].as_str().unwrap().split('.').next(), Some("3"));
    for path in ["/healthz", "/readyz", "/metrics", "/v1/gateway/health", "/v1/admin/agents/{id}/run/{cycle}"] {
        assert!(doc["paths"].get(path).is_some(), "{path} is not documented");
    }
}

#[tokio::test]
async fn the_reference_page_lists_every_operation_without_external_assets() {
    let app = TestApp::spawn().await;
    let r = app.get("/docs").await;
    assert_eq!(r.status, 200);
    assert!(r.headers["content-type"].to_str().unwrap().starts_with("text/html"));
    let doc = miniclaw::api::openapi();
    for path in doc.paths.paths.keys() {
        assert!(r.text.contains(path.as_str()), "{path} missing from /docs");
    }
    // Works offline: every stylesheet, script and image is served by the app itself.
    for attr in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
        assert!(!r.text.contains(attr), "external asset ({attr}) on /docs");
    }
    // Readable: the index is a table of contents (each area on a page of its own), links back to
    // the dashboard, and shows Markdown rendered (no literal backticks anywhere).
    assert!(r.text.len() < 150_000, "/docs is {} bytes", r.text.len());
    assert!(r.text.contains("href=\"/agents\""), "a way back to the dashboard");
    assert!(!r.text.contains('`'), "literal Markdown on /docs");
    let tags: std::collections::BTreeSet<String> = doc.paths.paths.values().flat_map(item_tags).collect();
    assert!(tags.len() >= 10, "{tags:?}");
    for tag in &tags {
        let page = app.get(&format!("/docs/{tag}")).await;
        assert_eq!(page.status, 200, "/docs/{tag}");
        assert!(!page.text.contains('`'), "literal Markdown on /docs/{tag}");
        assert!(page.text.len() < 400_000, "/docs/{tag} is {} bytes", page.text.len());
        assert!(
            page.text.contains("<th>Field</th>") || !page.text.contains("id=\"types\""),
            "/docs/{tag}: types as fields"
        );
    }
    assert_eq!(app.get("/docs/no-such-area").await.status, 404);
    let css = app.get("/static/app.css").await;
    assert_eq!(css.status, 200);
    assert!(css.headers["content-type"].to_str().unwrap().starts_with("text/css"));
}

/// Two types of one name would share one schema, and the document would describe one request
/// body with the other's fields: each request body of these routes has its own.
#[test]
fn request_bodies_are_described_by_their_own_types() {
    let doc: serde_json::Value = serde_json::from_str(&miniclaw::api::openapi_json()).unwrap();
    let body_fields = |path: &str| {
        let schema = &doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"];
        let name = schema.as_str().unwrap_or_else(|| panic!("{path}: no body schema")).rsplit('/').next().unwrap();
        let mut fields: Vec<String> =
            doc["components"]["schemas"][name]["properties"].as_object().unwrap().keys().cloned().collect();
        fields.sort();
        fields
    };
    assert_eq!(body_fields("/v1/hosted-agents/{id}/tips/{tip}/decision"), ["confirm"]);
    assert_eq!(body_fields("/v1/hosted-agents/{id}/mcp-calls/{call}/decision"), ["approve"]);
    assert_eq!(body_fields("/v1/hosted-agents/{id}/orders/{order}/steps"), ["action", "delivery", "rating", "reason"]);
}

/// The tags of a path's operations.
fn item_tags(item: &utoipa::openapi::PathItem) -> Vec<String> {
    [&item.get, &item.put, &item.post, &item.delete, &item.patch, &item.head, &item.options, &item.trace]
        .into_iter()
        .flatten()
        .flat_map(|op| op.tags.clone().unwrap_or_default())
        .collect()
}
