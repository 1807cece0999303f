//! SPEC A4: a miniapp gets a key by signing a challenge with a wallet or an Ed25519 key,
//! signed here by external libraries (eth-account, PyNaCl).

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{TestApp, external_sign};

const WALLET_KEY: &str = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
const ED_SEED: &str = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

async fn challenge(app: &TestApp, body: Value) -> Value {
    let r = app.send(app.request(Method::POST, "/v1/gateway/challenge").json(&body)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

async fn connect(app: &TestApp, agent: &str, nonce: &Value, signature: &str, scopes: Value) -> crate::common::Reply {
    app.send(
        app.request(Method::POST, "/v1/gateway/connect")
            .json(&json!({ "agent_id": agent, "nonce": nonce, "signature": signature, "scopes": scopes })),
    )
    .await
}

#[tokio::test]
async fn a_wallet_connects_and_a_replay_is_refused() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let address = external_sign(&["evm-address", WALLET_KEY], "");
    let agent = app.create_agent(&owner, json!({ "name": "Ada", "evm_address": address })).await;
    let id = agent["id"].as_str().unwrap();

    let ch = challenge(&app, json!({ "agent_id": id, "address": address })).await;
    let message = ch["message"].as_str().unwrap();
    assert!(message.contains(id) && message.contains("Nonce: "));
    let signature = external_sign(&["evm-sign", WALLET_KEY], message);
    let r = connect(&app, id, &ch["nonce"], &signature, json!(["agent:read"])).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let key = r.json()["key"].as_str().unwrap().to_string();
    let got = app.send(app.as_bearer(&key, Method::GET, &format!("/v1/hosted-agents/{id}"))).await;
    assert_eq!(got.status, 200);

    let replay = connect(&app, id, &ch["nonce"], &signature, json!(["agent:read"])).await;
    assert_eq!(replay.status, 401, "replayed nonce");

    let activity =
        app.send(app.as_bearer(&owner.token, Method::GET, &format!("/v1/hosted-agents/{id}/activity"))).await.json();
    assert_eq!(activity[0]["action"], "agent.connected");
}

#[tokio::test]
async fn an_ed25519_key_connects_in_hex_and_base64() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let public = external_sign(&["ed25519-public", ED_SEED], "");
    let id = app.create_agent(&owner, json!({ "name": "Ada", "ed25519_public_key": public })).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for encoding in ["hex", "base64"] {
        let ch = challenge(&app, json!({ "agent_id": id, "ed25519_public_key": public })).await;
        let signature = external_sign(&["ed25519-sign", ED_SEED, encoding], ch["message"].as_str().unwrap());
        let r = connect(&app, &id, &ch["nonce"], &signature, json!(["memories:read", "chat:write"])).await;
        assert_eq!(r.status, 201, "{encoding}: {}", r.text);
        assert_eq!(r.json()["scopes"], json!(["chat:write", "memories:read"]));
    }
}

#[tokio::test]
async fn foreign_expired_and_wrong_signatures_are_refused() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let address = external_sign(&["evm-address", WALLET_KEY], "");
    let a = app.create_agent(&owner, json!({ "name": "A", "evm_address": address })).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let b = app.create_agent(&owner, json!({ "name": "B" })).await["id"].as_str().unwrap().to_string();

    // A nonce issued for agent A cannot connect to agent B.
    let ch = challenge(&app, json!({ "agent_id": a, "address": address })).await;
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    assert_eq!(connect(&app, &b, &ch["nonce"], &sig, json!(["*"])).await.status, 401);

    // A wallet not registered on B (and not the owner's login wallet) may not connect to it.
    let ch = challenge(&app, json!({ "agent_id": b, "address": address })).await;
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    let r = connect(&app, &b, &ch["nonce"], &sig, json!(["*"])).await;
    assert_eq!(r.status, 403, "{}", r.text);

    // An expired nonce.
    let ch = challenge(&app, json!({ "agent_id": a, "address": address })).await;
    sqlx::query("UPDATE auth_challenges SET expires_at = now() - interval '1 second' WHERE nonce = $1")
        .bind(ch["nonce"].as_str().unwrap())
        .execute(app.pool())
        .await
        .unwrap();
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    assert_eq!(connect(&app, &a, &ch["nonce"], &sig, json!(["*"])).await.status, 401);

    // A signature over different text, and an ed25519 signature by another key.
    let ch = challenge(&app, json!({ "agent_id": a, "address": address })).await;
    let sig = external_sign(&["evm-sign", WALLET_KEY], "something else");
    assert_eq!(connect(&app, &a, &ch["nonce"], &sig, json!(["*"])).await.status, 401);
    let public = external_sign(&["ed25519-public", ED_SEED], "");
    let ch = challenge(&app, json!({ "agent_id": a, "ed25519_public_key": public })).await;
    let other = external_sign(&["ed25519-sign", &"11".repeat(32)], ch["message"].as_str().unwrap());
    assert_eq!(connect(&app, &a, &ch["nonce"], &other, json!(["*"])).await.status, 401);

    // Unknown agent and malformed requests.
    let r = app
        .send(
            app.request(Method::POST, "/v1/gateway/challenge")
                .json(&json!({ "agent_id": uuid::Uuid::new_v4(), "address": address })),
        )
        .await;
    assert_eq!(r.status, 404);
    let r = app.send(app.request(Method::POST, "/v1/gateway/challenge").json(&json!({ "agent_id": a }))).await;
    assert_eq!(r.status, 400);
    let ch = challenge(&app, json!({ "agent_id": a, "address": address })).await;
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    assert_eq!(connect(&app, &a, &ch["nonce"], &sig, json!(["root"])).await.status, 400);
}

#[tokio::test]
async fn the_owners_login_wallet_may_connect_too() {
    let app = TestApp::spawn().await;
    let address = external_sign(&["evm-address", WALLET_KEY], "");
    let ch = app
        .send(app.request(Method::POST, "/v1/auth/wallet/challenge").json(&json!({ "address": address })))
        .await
        .json();
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    let login = app
        .send(
            app.request(Method::POST, "/v1/auth/wallet/login").json(&json!({ "nonce": ch["nonce"], "signature": sig })),
        )
        .await
        .json();
    let session = crate::common::Session {
        token: login["session_token"].as_str().unwrap().into(),
        owner_id: login["owner"]["id"].as_str().unwrap().into(),
        tenant_id: login["tenant"]["id"].as_str().unwrap().into(),
    };
    let id = app.create_agent(&session, json!({ "name": "Mine" })).await["id"].as_str().unwrap().to_string();
    let ch = challenge(&app, json!({ "agent_id": id, "address": address })).await;
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    assert_eq!(connect(&app, &id, &ch["nonce"], &sig, json!(["agent:read"])).await.status, 201);
}
