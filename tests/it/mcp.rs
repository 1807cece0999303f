//! The MCP server (`/mcp`) driven by the official SDKs as real clients: every tool, the
//! resources, scopes refused as the REST routes refuse them, another tenant's ids unknown,
//! protocol errors for what is not a tool call, and nothing stored by a refused call.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::chat_support::Chat;
use crate::common::TestApp;

const TOOLS: [&str; 11] = [
    "add_memory",
    "chat",
    "economy_summary",
    "forget_memory",
    "list_tasks",
    "propose_task",
    "read_dossier",
    "read_soul",
    "recent_activity",
    "search_memories",
    "update_memory",
];

/// An agent with three keys: every scope, only `memories:read`, and another tenant's agent's.
struct Keys {
    full: String,
    narrow: String,
    other: String,
}

async fn agent_with_keys() -> (Chat, Keys) {
    let c = Chat::new(TestApp::spawn().await).await;
    let (_, full) = c.app.create_key(&c.owner, &c.id, &["*"]).await;
    let (_, narrow) = c.app.create_key(&c.owner, &c.id, &["memories:read"]).await;
    let stranger = c.app.signup("eve@example.com").await;
    let theirs =
        c.app.create_agent(&stranger, json!({ "name": "Eve's agent" })).await["id"].as_str().unwrap().to_string();
    let (_, other) = c.app.create_key(&stranger, &theirs, &["*"]).await;
    (c, Keys { full, narrow, other })
}

async fn python_client(c: &Chat, keys: &Keys, mode: &str) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/mcp_client.py");
    let args = [
        script.to_string(),
        c.app.url("/mcp"),
        mode.into(),
        keys.full.clone(),
        keys.narrow.clone(),
        keys.other.clone(),
    ];
    let out = tokio::time::timeout(
        Duration::from_secs(120),
        tokio::process::Command::new(crate::email_support::python()).args(&args).kill_on_drop(true).output(),
    )
    .await
    .expect("the MCP client finished within 120 s")
    .unwrap_or_else(|e| panic!("cannot run the MCP client (run scripts/setup.sh --test): {e}"));
    assert!(out.status.success(), "mcp_client.py failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn error_code(result: &Value) -> &str {
    assert_eq!(result["is_error"], true, "{result}");
    result["structured"]["error"]["code"].as_str().unwrap()
}

/// Everything the Python client did, checked against what it should have seen and stored.
async fn check_python_run(c: &Chat, v: &Value) {
    assert_eq!(v["tools"], json!(TOOLS), "{v}");
    assert_eq!(v["schemas"]["chat"]["required"], json!(["message"]));
    assert_eq!(v["schemas"]["add_memory"]["additionalProperties"], false);

    let added = &v["add"]["structured"];
    assert_eq!(v["add"]["is_error"], false, "{v}");
    assert_eq!(
        (added["content"].as_str(), added["pinned"].as_bool()),
        (Some("The user keeps bees on a roof in Lisbon."), Some(true))
    );
    assert_eq!(added["source"], "api");
    let id = added["id"].as_str().unwrap();
    assert_eq!(v["search"]["structured"]["results"][0]["memory"]["id"], id, "{}", v["search"]);
    assert_eq!(v["update"]["structured"]["importance"], 9.0);

    assert_eq!(
        v["resources"],
        json!(["miniclaw://agent/dossier", "miniclaw://agent/pinned-memories", "miniclaw://agent/profile"])
    );
    assert_eq!(v["pinned"]["memories"][0]["id"], id);
    assert_eq!(v["profile"]["name"], "Ada");
    // A resource that is not there: -32002 until 2025-11-25, invalid params (-32602) since.
    let missing = if v["protocol_version"] == "2026-07-28" { -32602 } else { -32002 };
    assert_eq!(v["dossier_resource"]["code"], missing, "{}", v["dossier_resource"]);
    assert_eq!(v["unknown_resource"]["code"], missing);

    // Chat runs the pipeline on the `mcp` channel; the reply's text came as progress first.
    let chat = &v["chat"]["structured"];
    assert_eq!(v["chat"]["is_error"], false, "{v}");
    assert!(chat["reply"].as_str().unwrap().starts_with("[offline engine"), "{chat}");
    let streamed: String = v["progress"].as_array().unwrap().iter().filter_map(|p| p["message"].as_str()).collect();
    assert_eq!(streamed, chat["reply"].as_str().unwrap(), "{}", v["progress"]);
    assert_eq!(v["chat_again"]["structured"]["conversation_id"], chat["conversation_id"]);

    assert_eq!(v["propose_task"]["structured"]["status"], "pending");
    assert_eq!(v["list_tasks"]["structured"]["tasks"][0]["title"], "Order a new bee suit");
    assert_eq!(v["read_soul"]["is_error"], false, "{}", v["read_soul"]);
    assert_eq!(error_code(&v["read_dossier"]), "not_found");
    assert!(v["recent_activity"]["structured"]["activity"].is_array(), "{}", v["recent_activity"]);
    assert!(v["economy_summary"]["structured"].is_object(), "{}", v["economy_summary"]);

    // Bad arguments are tool errors the model can read and fix; an unknown tool is the
    // protocol's invalid-params error.
    assert_eq!(error_code(&v["bad_arguments"]), "validation_failed");
    assert!(v["bad_arguments"]["structured"]["error"]["message"].as_str().unwrap().contains("query"));
    assert_eq!(error_code(&v["unknown_field"]), "validation_failed");
    assert_eq!(error_code(&v["too_long"]), "too_long");
    assert_eq!(v["unknown_tool"]["code"], -32602, "{}", v["unknown_tool"]);
    assert_eq!(v["forget"]["structured"]["deleted"], id);
    assert_eq!(error_code(&v["forget_again"]), "not_found");

    // A key gets what its scopes allow, as on the REST routes.
    assert_eq!(v["narrow_search"]["is_error"], false);
    assert_eq!(error_code(&v["narrow_add"]), "missing_scope");
    assert_eq!(error_code(&v["narrow_chat"]), "missing_scope");
    assert_eq!(v["narrow_profile"]["code"], -32600, "{}", v["narrow_profile"]);
    // Another tenant's key does not reach this agent's memories.
    assert_eq!(error_code(&v["other_update"]), "not_found");
    assert!(!v["other_search"]["structured"].to_string().contains(id));
    assert_ne!(v["anonymous"], "admitted");

    // Nothing a refused call carried was stored.
    let pool = c.app.pool();
    let (hated, mine): (i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE content LIKE '%hates bees%'), count(*) FILTER (WHERE content = 'Mine now.')
           FROM agent_memories",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!((hated, mine), (0, 0));
    let turns: Vec<(String, i64)> =
        sqlx::query_as("SELECT channel, count(*) FROM chat_messages GROUP BY channel ORDER BY channel")
            .fetch_all(pool)
            .await
            .unwrap();
    assert_eq!(turns, vec![("mcp".to_string(), 4)]);
}

#[tokio::test]
async fn the_mcp_python_sdk_uses_every_tool_in_a_session() {
    let (c, keys) = agent_with_keys().await;
    let v = python_client(&c, &keys, "legacy").await;
    assert_eq!(v["protocol_version"], "2025-11-25", "{v}");
    check_python_run(&c, &v).await;
}

#[tokio::test]
async fn the_mcp_python_sdk_uses_every_tool_statelessly_on_the_newest_revision() {
    let (c, keys) = agent_with_keys().await;
    let v = python_client(&c, &keys, "auto").await;
    assert_eq!(v["protocol_version"], "2026-07-28", "{v}");
    check_python_run(&c, &v).await;
}

/// A client that gives up on a call cancels it: the session goes on, the turn it started stays
/// in its conversation (the user's message is never lost).
#[tokio::test]
async fn a_cancelled_chat_call_leaves_the_session_usable_and_the_message_stored() {
    let llm = crate::llm_server::LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &llm.base_url()).spawn().await;
    let c = Chat::new(app).await;
    let (_, full) = c.app.create_key(&c.owner, &c.id, &["*"]).await;
    let keys = Keys { full: full.clone(), narrow: full.clone(), other: full };
    llm.push(crate::llm_server::Script::Drip { piece: "once ".into(), every: Duration::from_millis(200) });
    let v = python_client(&c, &keys, "cancel").await;
    assert!(v["gave_up"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    assert_eq!(v["after"]["is_error"], false, "{v}");
    let stored: Vec<(String, String)> =
        sqlx::query_as("SELECT role, content FROM chat_messages WHERE channel = 'mcp' ORDER BY position")
            .fetch_all(c.app.pool())
            .await
            .unwrap();
    assert_eq!(stored[0], ("user".to_string(), "Tell me a story".to_string()));
}

#[tokio::test]
async fn the_mcp_typescript_sdk_calls_tools_and_is_refused_what_its_key_lacks() {
    let (c, keys) = agent_with_keys().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/mcp_client.mjs");
    let out = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::process::Command::new("node")
            .args([script, &c.app.url("/mcp"), &keys.full, &keys.narrow])
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the Node client finished within 60 s")
    .unwrap_or_else(|e| panic!("cannot run node (run scripts/setup.sh --test): {e}"));
    assert!(out.status.success(), "mcp_client.mjs failed: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["server"]["name"], "miniclaw", "{v}");
    assert_eq!(v["tools"], json!(TOOLS));
    assert_eq!(v["add"]["is_error"], false, "{v}");
    let id = v["add"]["structured"]["id"].as_str().unwrap();
    assert_eq!(v["search"]["structured"]["results"][0]["memory"]["id"], id);
    assert_eq!(v["profile"]["name"], "Ada");
    assert_eq!(v["unknown_tool"]["code"], -32602, "{v}");
    assert_eq!(v["narrow_add"]["is_error"], true);
    assert_eq!(v["narrow_add"]["structured"]["error"]["code"], "missing_scope");
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM agent_memories").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(stored, 1);
}

/// Raw requests: what is not MCP, or not allowed, is refused before any tool runs.
#[tokio::test]
async fn the_mcp_endpoint_refuses_bad_requests_with_the_protocols_errors() {
    let (c, keys) = agent_with_keys().await;
    let post_as = |accept: &str, key: Option<&str>, body: String| {
        let mut r = c
            .app
            .request(Method::POST, "/mcp")
            .header("content-type", "application/json")
            .header("accept", accept)
            .body(body);
        if let Some(k) = key {
            r = r.bearer_auth(k);
        }
        r
    };
    let post = |key: Option<&str>, body: String| post_as("application/json, text/event-stream", key, body);
    let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "raw", "version": "1" } } });

    // No key, an owner session, a revoked key: 401 with the Bearer challenge.
    let anonymous = c.app.send(post(None, initialize.to_string())).await;
    assert_eq!(anonymous.status, 401);
    assert_eq!(anonymous.headers["www-authenticate"], "Bearer");
    let owner = c.app.send(post(Some(&c.owner.token), initialize.to_string())).await;
    assert_eq!(owner.status, 401, "{}", owner.text);
    assert!(owner.text.contains("agent key"), "{}", owner.text);
    let (key_id, doomed) = c.app.create_key(&c.owner, &c.id, &["*"]).await;
    let revoked =
        c.app.send(c.app.as_bearer(&c.owner.token, Method::DELETE, &c.path(&format!("/api-keys/{key_id}")))).await;
    assert!(revoked.status.is_success(), "{}", revoked.text);
    assert_eq!(c.app.send(post(Some(&doomed), initialize.to_string())).await.status, 401);

    // A body that is not JSON-RPC is the parse error; an unknown protocol version gets the
    // newest one the server speaks (the client then decides whether it can go on).
    let garbage = c.app.send(post(Some(&keys.full), "{ not json".into())).await;
    assert_eq!(garbage.status, 400, "{}", garbage.text);
    assert_eq!(garbage.json()["error"]["code"], -32700, "{}", garbage.text);
    let mut future = initialize.clone();
    future["params"]["protocolVersion"] = json!("1999-01-01");
    let negotiated = c.app.send(post(Some(&keys.full), future.to_string())).await;
    assert_eq!(negotiated.status, 200, "{}", negotiated.text);
    assert!(negotiated.text.contains(r#""protocolVersion":"2025-11-25""#), "{}", negotiated.text);
    // Without the MCP media types in `Accept`, or with a session that does not exist: the
    // transport's refusal, as a JSON-RPC error.
    let wrong_accept = c.app.send(post_as("text/html", Some(&keys.full), initialize.to_string())).await;
    assert_eq!(
        (wrong_accept.status.as_u16(), &wrong_accept.json()["error"]["code"]),
        (406, &json!(-32600)),
        "{}",
        wrong_accept.text
    );
    let list = json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list" });
    let stale = c.app.send(post(Some(&keys.full), list.to_string()).header("mcp-session-id", "no-such-session")).await;
    assert!(stale.status.is_client_error(), "{} {}", stale.status, stale.text);
    assert_eq!(stale.json()["error"]["code"], -32600, "{}", stale.text);

    // Arguments beyond the body limit never reach a tool.
    let huge = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "add_memory", "arguments": { "content": "x".repeat(2 * 1024 * 1024), "category": "context" } } });
    assert_eq!(c.app.send(post(Some(&keys.full), huge.to_string())).await.status, 413);
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM agent_memories").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(stored, 0);
}

/// A JSON-RPC message to `/mcp` with `key`, in `session` when given, as a raw client sends it.
fn raw_post(app: &TestApp, key: &str, session: Option<&str>, body: Value) -> reqwest::RequestBuilder {
    let r = app.request(Method::POST, "/mcp").bearer_auth(key).header("accept", "application/json, text/event-stream");
    match session {
        Some(s) => r.header("mcp-session-id", s).header("mcp-protocol-version", "2025-11-25"),
        None => r,
    }
    .json(&body)
}

/// One MCP tool call with `key` as a raw client would make it: `initialize`, the `initialized`
/// notification, then `tools/call` in that session. The JSON-RPC response to the call.
pub async fn raw_tool_call(app: &TestApp, key: &str, tool: &str, arguments: Value) -> Value {
    let post = |session: Option<&str>, body: Value| raw_post(app, key, session, body);
    let init = app
        .send(post(
            None,
            json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "raw", "version": "1" } } }),
        ))
        .await;
    assert_eq!(init.status, 200, "{}", init.text);
    let session = init.headers["mcp-session-id"].to_str().unwrap().to_string();
    let ready =
        app.send(post(Some(&session), json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))).await;
    assert!(ready.status.is_success(), "{}", ready.text);
    let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": tool, "arguments": arguments } });
    let r = app.send(post(Some(&session), call)).await;
    r.text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|m| m["id"] == 2)
        .unwrap_or_else(|| panic!("no response to the call: {} {}", r.status, r.text))
}

/// Issue 60: an MCP session belongs to the key that started it. Another key (of the same agent,
/// or any other) that names the session's id finds no such session; the starting key goes on.
#[tokio::test]
async fn a_session_belongs_to_the_key_that_started_it() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let (_, first) = app.create_key(&owner, &agent, &["*"]).await;
    let (_, second) = app.create_key(&owner, &agent, &["*"]).await;
    let post = |key: &str, session: Option<&str>, body: Value| raw_post(&app, key, session, body);
    let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "raw", "version": "1" } } });
    let r = app.send(post(&first, None, init)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let session = r.headers["mcp-session-id"].to_str().unwrap().to_string();
    let ready = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    assert!(app.send(post(&first, Some(&session), ready)).await.status.is_success());
    let list = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" });
    let theirs = app.send(post(&second, Some(&session), list.clone())).await;
    assert_eq!(theirs.status, 404, "{}", theirs.text);
    let ours = app.send(post(&first, Some(&session), list)).await;
    assert_eq!(ours.status, 200, "{}", ours.text);
    assert!(ours.text.contains("search_memories"), "{}", ours.text);
}
