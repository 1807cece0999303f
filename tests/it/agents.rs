//! SPEC A2 (agents), A3 (keys), A7 (activity) through the API.

use reqwest::Method;
use serde_json::json;

use crate::common::TestApp;

#[tokio::test]
async fn agent_crud_with_validation_and_activity() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "  Ada  ", "persona": "A careful analyst", "timezone": "Europe/Vienna", "quiet_hours": { "start": "22:00", "end": "07:00" } })).await;
    assert_eq!(agent["name"], "Ada");
    assert_eq!(agent["daily_token_budget"], 100_000);
    assert_eq!(agent["tier"], "free");
    let id = agent["id"].as_str().unwrap();

    let me = app.send(app.as_bearer(&owner.token, Method::GET, "/v1/me")).await.json();
    assert_eq!(me["tenant"]["id"], owner.tenant_id);
    let list = app.send(app.as_bearer(&owner.token, Method::GET, "/v1/hosted-agents")).await.json();
    assert_eq!(list.as_array().unwrap().len(), 1);

    let r = app
        .send(
            app.as_bearer(&owner.token, Method::PATCH, &format!("/v1/hosted-agents/{id}"))
                .json(&json!({ "tier": "premium", "quiet_hours": null })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["tier"], "premium");
    assert!(r.json()["quiet_hours"].is_null());
    assert_eq!(r.json()["persona"], "A careful analyst", "absent fields are kept");

    for (body, field) in [
        (json!({ "tier": "gold" }), "tier"),
        (json!({ "daily_token_budget": 5 }), "daily_token_budget"),
        (json!({ "timezone": "Atlantis/Capital" }), "timezone"),
        (json!({ "name": "" }), "name"),
    ] {
        let r =
            app.send(app.as_bearer(&owner.token, Method::PATCH, &format!("/v1/hosted-agents/{id}")).json(&body)).await;
        assert_eq!(r.status, 400, "{body}");
        assert_eq!(r.json()["error"]["details"]["field"], field);
    }
    let r = app
        .send(app.as_bearer(&owner.token, Method::POST, "/v1/hosted-agents").json(&json!({ "persona": "no name" })))
        .await;
    assert_eq!(r.status, 400);

    let activity =
        app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/hosted-agents/{id}/activity"))).await.json();
    let actions: Vec<&str> = activity.as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
    assert_eq!(actions, vec!["agent.updated", "agent.created"]);
    assert_eq!(activity[0]["actor_type"], "owner");
    assert_eq!(activity[0]["actor_id"], owner.owner_id);
    assert!(activity[0]["request_id"].as_str().unwrap().len() >= 8);
    assert_eq!(activity[0]["details"]["fields"], json!(["tier", "quiet_hours"]));

    let (_, key) = app.create_key(&owner, id, &["agent:write"]).await;
    // Deleting is the owner's: a key, even with `agent:write`, cannot (hardening finding 2).
    let r = app.send(app.as_bearer(&key, Method::DELETE, &format!("/v1/hosted-agents/{id}"))).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = app.send(app.as_bearer(&owner.token, Method::DELETE, &format!("/v1/hosted-agents/{id}"))).await;
    assert_eq!(r.status, 204);
    let get = |token: String| {
        let app = &app;
        async move { app.send(app.as_bearer(&token, Method::GET, &format!("/v1/hosted-agents/{id}"))).await.status }
    };
    assert_eq!(get(owner.token.clone()).await, 404);
    assert_eq!(get(key.clone()).await, 401, "a deleted agent's keys stop working");
    let listed = app.send(app.as_bearer(&owner.token, Method::GET, "/v1/hosted-agents")).await.json();
    assert_eq!(listed, json!([]));

    // Until it is purged, the owner can bring it back, keys and all.
    let r = app.send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{id}/restore"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(get(key.clone()).await, 200);
    let r = app.send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{id}/restore"))).await;
    assert_eq!(r.status, 404, "only a deleted agent can be restored");

    // Purged after the retention period: the data goes, the trail stays in the tenant's log.
    let r = app.send(app.as_bearer(&owner.token, Method::DELETE, &format!("/v1/hosted-agents/{id}"))).await;
    assert_eq!(r.status, 204);
    assert_eq!(
        miniclaw::tenancy::agents::purge_deleted(app.pool(), 1).await.unwrap(),
        0,
        "within the retention period"
    );
    assert_eq!(miniclaw::tenancy::agents::purge_deleted(app.pool(), 0).await.unwrap(), 1);
    let left: i64 =
        sqlx::query_scalar("SELECT (SELECT count(*) FROM agent_activity) + (SELECT count(*) FROM api_keys)")
            .fetch_one(app.pool())
            .await
            .unwrap();
    assert_eq!(left, 0, "purging the agent removes its data");
    let r = app.send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{id}/restore"))).await;
    assert_eq!(r.status, 404);
    let tenant_log = app.send(app.as_bearer(&owner.token, Method::GET, "/v1/activity?limit=100")).await.json();
    let actions: Vec<&str> = tenant_log.as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
    assert_eq!(actions[0], "agent.purged");
    for kept in ["agent.created", "agent.updated", "key.issued", "agent.restored", "agent.deleted"] {
        assert!(actions.contains(&kept), "{kept} outlives the agent: {actions:?}");
    }
}

#[tokio::test]
async fn keys_are_scoped_revocable_and_expire() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let id = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let (kid, key) = app.create_key(&owner, &id, &["agent:read"]).await;
    assert!(key.starts_with("mck_"));

    // The key reads the agent...
    let r = app.send(app.as_bearer(&key, Method::GET, &format!("/v1/hosted-agents/{id}"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // ...but cannot change it: 403 naming the scope.
    let r = app
        .send(app.as_bearer(&key, Method::PATCH, &format!("/v1/hosted-agents/{id}")).json(&json!({ "name": "Eve" })))
        .await;
    assert_eq!(r.status, 403);
    assert_eq!(r.json()["error"]["code"], "missing_scope");
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("agent:write"));
    // ...nor manage keys, which is for owners only.
    let r = app.send(app.as_bearer(&key, Method::GET, &format!("/v1/hosted-agents/{id}/api-keys"))).await;
    assert_eq!(r.status, 403);

    // Use is recorded (off the request path, so poll briefly).
    let mut last_used = serde_json::Value::Null;
    for _ in 0..50 {
        let list = app
            .send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/hosted-agents/{id}/api-keys")))
            .await
            .json();
        last_used = list[0]["last_used_at"].clone();
        if last_used.is_string() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(last_used.is_string(), "last_used_at recorded");

    // Listing never shows secrets.
    let list = app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/hosted-agents/{id}/api-keys"))).await;
    assert!(!list.text.contains(&key[37..]), "secret leaked in list");
    assert_eq!(list.json()[0]["scopes"], json!(["agent:read"]));

    // A write key implies read.
    let (_, writer) = app.create_key(&owner, &id, &["agent:write"]).await;
    let r = app
        .send(app.as_bearer(&writer, Method::PATCH, &format!("/v1/hosted-agents/{id}")).json(&json!({ "emoji": "🦀" })))
        .await;
    assert_eq!(r.status, 200);
    let activity =
        app.send(app.as_bearer(&writer, Method::GET, &format!("/v1/hosted-agents/{id}/activity"))).await.json();
    assert_eq!(activity[0]["actor_type"], "api_key");

    // Revoked: 401 at once.
    let r =
        app.send(app.as_bearer(&owner.token, Method::DELETE, &format!("/v1/hosted-agents/{id}/api-keys/{kid}"))).await;
    assert_eq!(r.status, 200);
    assert!(r.json()["revoked_at"].is_string());
    let r = app.send(app.as_bearer(&key, Method::GET, &format!("/v1/hosted-agents/{id}"))).await;
    assert_eq!(r.status, 401);
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("revoked"));

    // Expired: 401.
    let r = app
        .send(
            app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{id}/api-keys"))
                .json(&json!({ "name": "short", "scopes": ["*"], "expires_at": "2030-01-01T00:00:00Z" })),
        )
        .await;
    let short = r.json()["key"].as_str().unwrap().to_string();
    sqlx::query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE name = 'short'")
        .execute(app.pool())
        .await
        .unwrap();
    let r = app.send(app.as_bearer(&short, Method::GET, &format!("/v1/hosted-agents/{id}"))).await;
    assert_eq!(r.status, 401);
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("expired"));

    // Unknown and malformed keys: 401.
    let forged = format!("{}{}", &key[..37], "0".repeat(64));
    assert_eq!(app.send(app.as_bearer(&forged, Method::GET, &format!("/v1/hosted-agents/{id}"))).await.status, 401);
    assert_eq!(
        app.send(app.as_bearer("mck_nonsense", Method::GET, &format!("/v1/hosted-agents/{id}"))).await.status,
        401
    );

    // Bad key requests.
    for body in [
        json!({ "name": "x", "scopes": ["chat:fly"] }),
        json!({ "name": "x", "scopes": [] }),
        json!({ "name": "", "scopes": ["*"] }),
    ] {
        let r = app
            .send(app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{id}/api-keys")).json(&body))
            .await;
        assert_eq!(r.status, 400, "{body}");
    }
    let actions: Vec<String> =
        sqlx::query_scalar("SELECT action FROM agent_activity ORDER BY id").fetch_all(app.pool()).await.unwrap();
    assert!(actions.contains(&"key.issued".to_string()) && actions.contains(&"key.revoked".to_string()), "{actions:?}");
}

#[tokio::test]
async fn rate_limits_answer_429_with_retry_after() {
    let app = TestApp::builder().env("MINICLAW_RATE_LIMIT_KEY", "8").spawn().await;
    let owner = app.signup("ada@example.com").await;
    let id = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let (_, key) = app.create_key(&owner, &id, &["agent:read"]).await;
    let mut statuses = Vec::new();
    for _ in 0..6 {
        let r = app.send(app.as_bearer(&key, Method::GET, &format!("/v1/hosted-agents/{id}"))).await;
        if r.status == 429 {
            assert!(r.headers["retry-after"].to_str().unwrap().parse::<u64>().unwrap() >= 1);
            assert_eq!(r.json()["error"]["code"], "rate_limited");
        }
        statuses.push(r.status.as_u16());
    }
    assert_eq!(&statuses[..3], &[200, 200, 200], "burst allowed: {statuses:?}");
    assert!(statuses.contains(&429), "then limited: {statuses:?}");

    let app = TestApp::builder().env("MINICLAW_RATE_LIMIT_IP", "4").spawn().await;
    let mut limited = false;
    for _ in 0..5 {
        limited |= app.get("/v1/gateway/health").await.status == 429;
    }
    assert!(limited, "per-IP limit applies");
    assert_eq!(app.get("/healthz").await.status, 200, "health checks are exempt");
}
