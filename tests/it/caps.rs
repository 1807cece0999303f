//! Hardening, finding 10: nothing an agent holds grows without bound. Keys, memories and
//! conversations per agent have caps (409 beyond, configurable), soul versions beyond the kept
//! number are pruned, free-text fields have length limits (422 `too_long` naming the field and
//! the limit), and every list is paged (`limit`, `before`, `X-Next-Before`).

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent, TestApp};

async fn agent_with(var: &str, value: &str) -> OwnedAgent {
    OwnedAgent::new(TestApp::builder().env(var, value).spawn().await).await
}

#[tokio::test]
async fn keys_beyond_the_cap_are_refused_until_one_is_revoked() {
    let a = agent_with("MINICLAW_KEYS_PER_AGENT", "2").await;
    let issue = || a.call(Method::POST, "/api-keys", Some(json!({ "name": "k", "scopes": ["chat:read"] })));
    let first = issue().await.json()["id"].as_str().unwrap().to_string();
    assert_eq!(issue().await.status, 201);
    let r = issue().await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("MINICLAW_KEYS_PER_AGENT"), "{}", r.text);
    assert_eq!(a.call(Method::DELETE, &format!("/api-keys/{first}"), None).await.status, 200);
    assert_eq!(issue().await.status, 201, "a revoked key leaves room");

    // The list is paged: the newest first, the next page's cursor in `X-Next-Before`.
    let page = a.call(Method::GET, "/api-keys?limit=2", None).await;
    assert_eq!(page.json().as_array().unwrap().len(), 2);
    let before = page.headers["x-next-before"].to_str().unwrap().to_string();
    let rest = a.call(Method::GET, &format!("/api-keys?limit=2&before={before}"), None).await;
    let ids: Vec<String> = rest.json().as_array().unwrap().iter().map(|k| k["id"].as_str().unwrap().into()).collect();
    assert_eq!(ids, [first], "the oldest key, revoked, on the last page");
    assert!(rest.headers.get("x-next-before").is_none());
}

#[tokio::test]
async fn memories_beyond_the_cap_are_refused_and_a_bulk_upload_past_it_stores_nothing() {
    let a = agent_with("MINICLAW_MEMORIES_PER_AGENT", "3").await;
    a.remember("The user lives in Vienna", "identity").await;
    a.remember("The user likes chess", "interest").await;
    let bulk = json!({ "memories": [{ "content": "The user has a cat", "category": "context" },
                                    { "content": "The user plays the cello", "category": "interest" }] });
    let r = a.call(Method::POST, "/memories/bulk", Some(bulk)).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("MINICLAW_MEMORIES_PER_AGENT"), "{}", r.text);
    a.remember("The user has a cat", "context").await;
    let r =
        a.call(Method::POST, "/memories", Some(json!({ "content": "The user is tall", "category": "identity" }))).await;
    assert_eq!(r.status, 409, "{}", r.text);
    let r = a.call(Method::POST, "/knowledge", Some(json!({ "text": "Vienna is the capital of Austria." }))).await;
    assert_eq!(r.status, 409, "{}", r.text);
    let held: i64 = sqlx::query_scalar("SELECT count(*) FROM agent_memories").fetch_one(a.app.pool()).await.unwrap();
    assert_eq!(held, 3);
}

#[tokio::test]
async fn conversations_beyond_the_cap_are_refused_until_one_is_deleted() {
    let a = agent_with("MINICLAW_CONVERSATIONS_PER_AGENT", "2").await;
    let say = |conversation: Option<&str>| {
        a.call(Method::POST, "/chat", Some(json!({ "message": "Hello there", "conversation_id": conversation })))
    };
    let first = say(None).await.json()["conversation_id"].as_str().unwrap().to_string();
    assert_eq!(say(None).await.status, 200);
    let r = say(None).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("MINICLAW_CONVERSATIONS_PER_AGENT"), "{}", r.text);
    assert_eq!(say(Some(&first)).await.status, 200, "an existing conversation goes on");
    // The OpenAI format's seeded history starts a conversation too.
    let messages = json!([{ "role": "user", "content": "a" }, { "role": "assistant", "content": "b" },
                          { "role": "user", "content": "c" }]);
    let body = json!({ "model": a.id, "messages": messages });
    let r = a.app.send(a.app.as_bearer(&a.owner.token, Method::POST, "/v1/chat/completions").json(&body)).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(a.call(Method::DELETE, &format!("/conversations/{first}"), None).await.status, 204);
    assert_eq!(say(None).await.status, 200, "a deleted conversation leaves room");
}

#[tokio::test]
async fn only_the_newest_soul_versions_are_kept() {
    let a = agent_with("MINICLAW_SOUL_VERSIONS_KEPT", "3").await;
    for n in 1..=5 {
        let r = a.call(Method::PUT, "/soul", Some(json!({ "content": format!("I am Ada, version {n}.") }))).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let versions = a.call(Method::GET, "/soul/versions", None).await.json();
    let kept: Vec<i64> = versions.as_array().unwrap().iter().map(|v| v["version"].as_i64().unwrap()).collect();
    assert_eq!(kept, [5, 4, 3]);
    assert_eq!(a.call(Method::GET, "/soul", None).await.json()["version"], 5);
    let page = a.call(Method::GET, "/soul/versions?limit=2", None).await;
    assert_eq!(page.headers["x-next-before"], "4");
    let rest = a.call(Method::GET, "/soul/versions?limit=2&before=4", None).await.json();
    assert_eq!(rest.as_array().unwrap().iter().map(|v| v["version"].as_i64().unwrap()).collect::<Vec<_>>(), [3]);
}

#[tokio::test]
async fn free_text_over_its_limit_is_refused_naming_the_field_and_the_limit() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let x = |n: usize| "x".repeat(n);
    let memory = a.remember("The user lives in Vienna", "identity").await["id"].as_str().unwrap().to_string();
    let agent = a.path("");
    let cases: Vec<(Method, String, Value, &str, usize)> = vec![
        (Method::PATCH, agent.clone(), json!({ "name": x(65) }), "name", 64),
        (Method::PATCH, agent.clone(), json!({ "persona": x(4001) }), "persona", 4000),
        (Method::POST, "/v1/hosted-agents".into(), json!({ "name": "Ok", "emoji": x(9) }), "emoji", 8),
        (Method::POST, a.path("/memories"), json!({ "content": x(5001), "category": "goal" }), "content", 5000),
        (Method::PATCH, a.path(&format!("/memories/{memory}")), json!({ "reason": x(501) }), "reason", 500),
        (Method::POST, a.path("/memories/search"), json!({ "query": x(2001) }), "query", 2000),
        (Method::POST, a.path("/knowledge"), json!({ "text": "Some text.", "title": x(201) }), "title", 200),
        (Method::POST, a.path("/chat"), json!({ "message": x(2001) }), "message", 2000),
        (Method::PUT, a.path("/soul"), json!({ "content": x(8001) }), "content", 8000),
        (Method::PUT, a.path("/soul"), json!({ "content": "I am Ada.", "reason": x(501) }), "reason", 500),
        (Method::POST, a.path("/api-keys"), json!({ "name": x(65), "scopes": ["chat:read"] }), "name", 64),
        (
            Method::POST,
            a.path("/api-keys"),
            json!({ "name": "k", "scopes": ["chat:read"], "end_user": x(129) }),
            "end_user",
            128,
        ),
        (
            Method::POST,
            "/v1/chat/completions".into(),
            json!({ "model": a.id, "user": x(129), "messages": [{ "role": "user", "content": "hi" }] }),
            "user",
            128,
        ),
    ];
    for (method, path, body, field, limit) in cases {
        let r = a.app.send(a.app.as_bearer(&a.owner.token, method.clone(), &path).json(&body)).await;
        assert_eq!(
            (r.status.as_u16(), r.error_code().as_str()),
            (422, "too_long"),
            "{method} {path} {field}: {}",
            r.text
        );
        let details = &r.json()["error"]["details"];
        assert_eq!((details["field"].as_str(), details["limit"].as_u64()), (Some(field), Some(limit as u64)), "{path}");
        assert!(r.json()["error"]["message"].as_str().unwrap().contains(&limit.to_string()), "{}", r.text);
    }
    let signup = json!({ "email": "bob@example.com", "password": "correct horse battery", "tenant_name": x(101) });
    let r = a.app.send(a.app.request(Method::POST, "/v1/auth/signup").json(&signup)).await;
    assert_eq!((r.status.as_u16(), r.json()["error"]["details"]["field"].as_str()), (422, Some("tenant_name")));
}

/// Every route that answers a list takes `limit` and `before` (read from the OpenAPI document,
/// so a new list is covered without anyone remembering to), except the operator's list of
/// cycles (the fixed registry), of kill switches (at most one per tenant) and the catalogue of
/// webhook event types (fixed in the code).
#[test]
fn every_list_route_is_paged() {
    let doc: Value = serde_json::from_str(&miniclaw::api::openapi_json()).unwrap();
    let mut lists = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        let Some(get) = item.get("get") else { continue };
        let schema = &get["responses"]["200"]["content"]["application/json"]["schema"];
        if schema["type"] != "array"
            || ["/v1/admin/cycles", "/v1/admin/llm/kill-switch", "/v1/webhooks/events"].contains(&path.as_str())
        {
            continue;
        }
        let params: Vec<&str> = get["parameters"]
            .as_array()
            .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
            .unwrap_or_default();
        assert!(params.contains(&"limit") && params.contains(&"before"), "GET {path} is a list without paging");
        lists += 1;
    }
    assert!(lists >= 12, "only {lists} lists found");
}
