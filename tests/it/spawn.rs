//! SPEC S6: an agent drafted from a brief, created only when its owner confirms the draft.

use reqwest::Method;
use serde_json::json;

use crate::common::TestApp;

#[tokio::test]
async fn a_drafted_agent_exists_only_once_its_owner_confirms_it() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let post =
        |path: &str, body: serde_json::Value| app.send(app.as_bearer(&owner.token, Method::POST, path).json(&body));

    let r =
        post("/v1/agents/spawn", json!({ "brief": "A gardening helper who tracks what I planted and when to water." }))
            .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let draft = r.json();
    assert_eq!((draft["status"].as_str(), draft["engine"].as_str()), (Some("pending"), Some("offline")));
    for field in ["name", "persona", "soul"] {
        assert!(!draft[field].as_str().unwrap().is_empty(), "{field}: {draft}");
    }
    let agents = app.send(app.as_bearer(&owner.token, Method::GET, "/v1/hosted-agents")).await.json();
    assert_eq!(agents.as_array().unwrap().len(), 0, "nothing is created by a draft");

    let id = draft["id"].as_str().unwrap();
    let r = post(&format!("/v1/agents/spawn/{id}/confirm"), json!({ "name": "Fern" })).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let agent = r.json();
    assert_eq!((agent["name"].as_str(), agent["persona"].as_str()), (Some("Fern"), draft["persona"].as_str()));
    let soul = app
        .send(app.as_bearer(
            &owner.token,
            Method::GET,
            &format!("/v1/hosted-agents/{}/soul", agent["id"].as_str().unwrap()),
        ))
        .await
        .json();
    assert_eq!(soul["content"], draft["soul"], "{soul}");
    let r = post(&format!("/v1/agents/spawn/{id}/confirm"), json!({})).await;
    assert_eq!(r.status, 409, "a draft is confirmed once: {}", r.text);
    let got = app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/agents/spawn/{id}"))).await.json();
    assert_eq!((got["status"].as_str(), got["agent_id"].as_str()), (Some("confirmed"), agent["id"].as_str()));

    // Bad input, other tenants, keys.
    assert_eq!(post("/v1/agents/spawn", json!({ "brief": "  " })).await.status, 400);
    assert_eq!(post("/v1/agents/spawn", json!({ "brief": "x".repeat(2001) })).await.status, 422);
    let r = post("/v1/agents/spawn", json!({ "brief": "Another", "colour": "red" })).await;
    assert!(r.status.is_client_error(), "{}", r.text);
    let mallory = app.signup("mallory@example.com").await;
    let r = app.send(app.as_bearer(&mallory.token, Method::GET, &format!("/v1/agents/spawn/{id}"))).await;
    assert_eq!(r.status, 404);
    let theirs = app.create_agent(&mallory, json!({ "name": "Mal" })).await;
    let (_, key) = app.create_key(&mallory, theirs["id"].as_str().unwrap(), &["*"]).await;
    let r = app.send(app.as_bearer(&key, Method::POST, "/v1/agents/spawn").json(&json!({ "brief": "A helper" }))).await;
    assert_eq!(r.status, 403, "spawning is the owner's: {}", r.text);
}
