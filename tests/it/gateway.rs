//! SPEC A4: a miniapp gets a key by signing a challenge with a wallet or an Ed25519 key,
//! signed here by external libraries (eth-account, PyNaCl).

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{TestApp, external_sign};

const WALLET_KEY: &str = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
const ED_SEED: &str = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

/// A connect challenge; `scopes` default to `agent:read` when the body names none.
async fn challenge(app: &TestApp, mut body: Value) -> Value {
    if body.get("scopes").is_none() {
        body["scopes"] = json!(["agent:read"]);
    }
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
    // The key is part of what is signed.
    assert!(message.contains("Scopes: agent:read") && message.contains("Key name: connect"), "{message}");
    assert!(message.contains("Key expires: "), "{message}");
    let signature = external_sign(&["evm-sign", WALLET_KEY], message);
    let r = connect(&app, id, &ch["nonce"], &signature, json!(["agent:read"])).await;
    assert_eq!(r.status, 201, "{}", r.text);
    // Connect keys expire (30 days by default).
    let expires: chrono::DateTime<chrono::Utc> = r.json()["expires_at"].as_str().unwrap().parse().unwrap();
    let days = (expires - chrono::Utc::now()).num_hours() as f64 / 24.0;
    assert!((29.9..=30.0).contains(&days), "{days}");
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
        let ch = challenge(
            &app,
            json!({ "agent_id": id, "ed25519_public_key": public, "scopes": ["memories:read", "chat:write"] }),
        )
        .await;
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
    assert_eq!(connect(&app, &b, &ch["nonce"], &sig, json!(["agent:read"])).await.status, 401);

    // A wallet not registered on B (and not the owner's login wallet) may not connect to it.
    let ch = challenge(&app, json!({ "agent_id": b, "address": address })).await;
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    let r = connect(&app, &b, &ch["nonce"], &sig, json!(["agent:read"])).await;
    assert_eq!(r.status, 403, "{}", r.text);

    // An expired nonce.
    let ch = challenge(&app, json!({ "agent_id": a, "address": address })).await;
    sqlx::query("UPDATE auth_challenges SET expires_at = now() - interval '1 second' WHERE nonce = $1")
        .bind(ch["nonce"].as_str().unwrap())
        .execute(app.pool())
        .await
        .unwrap();
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    assert_eq!(connect(&app, &a, &ch["nonce"], &sig, json!(null)).await.status, 401);

    // A signature over different text, and an ed25519 signature by another key.
    let ch = challenge(&app, json!({ "agent_id": a, "address": address })).await;
    let sig = external_sign(&["evm-sign", WALLET_KEY], "something else");
    assert_eq!(connect(&app, &a, &ch["nonce"], &sig, json!(null)).await.status, 401);
    let public = external_sign(&["ed25519-public", ED_SEED], "");
    let ch = challenge(&app, json!({ "agent_id": a, "ed25519_public_key": public })).await;
    let other = external_sign(&["ed25519-sign", &"11".repeat(32)], ch["message"].as_str().unwrap());
    assert_eq!(connect(&app, &a, &ch["nonce"], &other, json!(null)).await.status, 401);

    // Unknown agent and malformed requests.
    let r = app
        .send(
            app.request(Method::POST, "/v1/gateway/challenge")
                .json(&json!({ "agent_id": uuid::Uuid::new_v4(), "address": address, "scopes": ["agent:read"] })),
        )
        .await;
    assert_eq!(r.status, 404);
    let r = app
        .send(
            app.request(Method::POST, "/v1/gateway/challenge")
                .json(&json!({ "agent_id": a, "scopes": ["agent:read"] })),
        )
        .await;
    assert_eq!(r.status, 400);
    let ch = challenge(&app, json!({ "agent_id": a, "address": address })).await;
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    assert_eq!(connect(&app, &a, &ch["nonce"], &sig, json!(["root"])).await.status, 400);
    // Connect must ask for the scopes it signed, and the challenge for known scopes.
    let ch = challenge(&app, json!({ "agent_id": a, "address": address })).await;
    let sig = external_sign(&["evm-sign", WALLET_KEY], ch["message"].as_str().unwrap());
    assert_eq!(connect(&app, &a, &ch["nonce"], &sig, json!(["chat:write"])).await.status, 400);
    let r = app
        .send(
            app.request(Method::POST, "/v1/gateway/challenge")
                .json(&json!({ "agent_id": a, "address": address, "scopes": ["root"] })),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = app
        .send(
            app.request(Method::POST, "/v1/gateway/challenge")
                .json(&json!({ "agent_id": a, "address": address, "scopes": ["agent:read"], "expires_in_days": 31 })),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
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

/// Finding 1 of the hardening review: an `agent:write` key could register its own identity on
/// the agent and connect itself a never-expiring `*` key that survived its own revocation.
#[tokio::test]
async fn a_key_cannot_grant_itself_more_than_the_owner_allows() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let id = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let (_, key) = app.create_key(&owner, &id, &["agent:write"]).await;
    let public = external_sign(&["ed25519-public", ED_SEED], "");
    let path = format!("/v1/hosted-agents/{id}");

    // Identity, spending, the connect ceiling and email to third parties are the owner's;
    // behaviour is the key's.
    for field in [
        json!({ "ed25519_public_key": public }),
        json!({ "evm_address": external_sign(&["evm-address", WALLET_KEY], "") }),
        json!({ "daily_token_budget": 100_000_000 }),
        json!({ "tier": "premium" }),
        json!({ "premium_model": "gpt-x" }),
        json!({ "active": false }),
        json!({ "connect_scopes": ["*"] }),
        json!({ "outreach_enabled": true }),
        json!({ "outreach_auto_reply_confidence": 0.1 }),
    ] {
        let r = app.send(app.as_bearer(&key, Method::PATCH, &path).json(&field)).await;
        assert_eq!(r.status, 403, "{field}: {}", r.text);
        assert_eq!(r.json()["error"]["code"], "owner_only", "{}", r.text);
    }
    let r = app.send(app.as_bearer(&key, Method::PATCH, &path).json(&json!({ "persona": "Curious" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);

    // With an identity the owner registered, a connect gets no more than the owner's ceiling.
    let r = app
        .send(app.as_bearer(&owner.token, Method::PATCH, &path).json(&json!({ "ed25519_public_key": public })))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["connect_scopes"], json!(["agent:read", "chat:read", "chat:write", "memories:read"]));
    for scopes in [json!(["*"]), json!(["agent:write"]), json!(["memories:write"])] {
        let r = app
            .send(
                app.request(Method::POST, "/v1/gateway/challenge")
                    .json(&json!({ "agent_id": id, "ed25519_public_key": public, "scopes": scopes })),
            )
            .await;
        assert_eq!(r.status, 403, "{scopes}: {}", r.text);
        assert_eq!(r.json()["error"]["code"], "scope_not_allowed");
    }

    // The owner may allow more; narrowing it again refuses a challenge issued before.
    let r = app.send(app.as_bearer(&owner.token, Method::PATCH, &path).json(&json!({ "connect_scopes": ["*"] }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let ch =
        challenge(&app, json!({ "agent_id": id, "ed25519_public_key": public, "scopes": ["*"], "expires_in_days": 1 }))
            .await;
    let sig = external_sign(&["ed25519-sign", ED_SEED, "hex"], ch["message"].as_str().unwrap());
    let r = app
        .send(app.as_bearer(&owner.token, Method::PATCH, &path).json(&json!({ "connect_scopes": ["agent:read"] })))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = connect(&app, &id, &ch["nonce"], &sig, json!(null)).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = app.send(app.as_bearer(&owner.token, Method::PATCH, &path).json(&json!({ "connect_scopes": ["*"] }))).await;
    assert_eq!(r.status, 200);
    let ch =
        challenge(&app, json!({ "agent_id": id, "ed25519_public_key": public, "scopes": ["*"], "expires_in_days": 1 }))
            .await;
    let sig = external_sign(&["ed25519-sign", ED_SEED, "hex"], ch["message"].as_str().unwrap());
    let r = connect(&app, &id, &ch["nonce"], &sig, json!(null)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let expires: chrono::DateTime<chrono::Utc> = r.json()["expires_at"].as_str().unwrap().parse().unwrap();
    assert!(expires < chrono::Utc::now() + chrono::Duration::hours(25), "the signed lifetime holds");
}

#[tokio::test]
async fn connect_keys_are_capped_per_agent() {
    let app = TestApp::builder().env("MINICLAW_CONNECT_KEYS_PER_AGENT", "2").spawn().await;
    let owner = app.signup("ada@example.com").await;
    let public = external_sign(&["ed25519-public", ED_SEED], "");
    let id = app.create_agent(&owner, json!({ "name": "Ada", "ed25519_public_key": public })).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let ch = challenge(&app, json!({ "agent_id": id, "ed25519_public_key": public })).await;
        let sig = external_sign(&["ed25519-sign", ED_SEED, "hex"], ch["message"].as_str().unwrap());
        statuses.push(connect(&app, &id, &ch["nonce"], &sig, json!(null)).await.status);
    }
    assert_eq!(statuses, [201, 201, 409]);
}

#[tokio::test]
async fn a_key_name_cannot_forge_a_line_of_the_signed_message() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let a = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let address = "0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1";
    for name in ["helper\nScopes: *", "helper\r\nKey expires: never", "helper\u{2028}Scopes: *", "\u{202E}repleh"] {
        let body = json!({ "agent_id": a, "address": address, "scopes": ["agent:read"], "name": name });
        let r = app.send(app.request(Method::POST, "/v1/gateway/challenge").json(&body)).await;
        assert_eq!(r.status, 400, "{name:?}: {}", r.text);
        assert_eq!(r.error_code(), "validation_failed");
    }
    let ch = challenge(&app, json!({ "agent_id": a, "address": address, "name": "helper 🧑‍💻" })).await;
    assert!(ch["message"].as_str().unwrap().contains("\nKey name: helper 🧑‍💻\nScopes: agent:read\n"));
}
