//! SPEC §13: no 5xx for any input. Schemathesis (PyPI) generates requests from the committed
//! OpenAPI document against a running app, as an owner, as a key and as the operator.

use std::time::Duration;

use serde_json::json;

use crate::common::TestApp;

async fn schemathesis(app: &TestApp, header: &str, filter: &[&str], seconds: u32) {
    let st = std::env::var("MINICLAW_TEST_PYTHON")
        .map(|p| std::path::PathBuf::from(p).with_file_name("schemathesis"))
        .unwrap_or_else(|_| miniclaw::config::default_cache_dir().join("venv/bin/schemathesis"));
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let out = tokio::time::timeout(
        Duration::from_secs(seconds as u64 + 120),
        tokio::process::Command::new(&st)
            .args(["run", schema, "--url", &format!("http://{}", app.addr)])
            .args(["--checks", "not_a_server_error", "--workers", "1", "--max-time", &seconds.to_string()])
            .args(["--header", header])
            .args(["--exclude-path", "/v1/auth/logout", "--suppress-health-check", "all", "--no-color"])
            .args(filter)
            .current_dir(std::env::temp_dir())
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("schemathesis finished in time")
    .unwrap_or_else(|e| panic!("cannot run {} (scripts/setup.sh --test installs it): {e}", st.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "schemathesis found failures:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("passed"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_input_makes_the_server_fail() {
    let app = TestApp::builder()
        .admin_password("fuzz-admin")
        .env("MINICLAW_RATE_LIMIT_IP", "0")
        .env("MINICLAW_RATE_LIMIT_KEY", "0")
        .spawn()
        .await;
    let owner = app.signup("fuzz@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Fuzzed" })).await["id"].as_str().unwrap().to_string();
    let (_, key) = app.create_key(&owner, &agent, &["*"]).await;

    schemathesis(&app, &format!("Authorization: Bearer {}", owner.token), &[], 40).await;
    schemathesis(&app, &format!("Authorization: Bearer {key}"), &["--include-path-regex", "^/v1/hosted-agents/"], 15)
        .await;
    // The MCP endpoint with a key: whatever the body, a JSON-RPC or HTTP refusal, never a 5xx.
    schemathesis(&app, &format!("Authorization: Bearer {key}"), &["--include-path-regex", "^/mcp$"], 10).await;
    schemathesis(&app, "Authorization: Bearer fuzz-admin", &["--include-path-regex", "^/v1/admin/"], 15).await;
}
