//! SPEC I2 against anvil: a server-managed wallet sends native value within the owner's limits
//! (per transaction, per 24 hours, confirmation above a threshold) and is refused above them;
//! owner-held wallets are listed by address with their balance. The key is in no answer.

use alloy::primitives::U256;
use reqwest::Method;
use serde_json::{Value, json};

use crate::chain_support::{Anvil, MASTER_KEY};
use crate::common::{OwnedAgent, Reply, TestApp};

const MILLI: u128 = 1_000_000_000_000_000; // 0.001 ETH in wei
/// Anvil's second dev account, a recipient.
const RECIPIENT: &str = "0x70997970c51812dc3a010c7d01b93b7d6ce1e8f0";

async fn app(anvil: &Anvil) -> OwnedAgent {
    let registry = anvil.deploy_registry().await;
    let app = TestApp::builder()
        .env("EVM_RPC_URL", &anvil.url)
        .env("EVM_CHAIN_ID", "31337")
        .env("ERC8004_REGISTRY_ADDRESS", &registry.to_string())
        .env("MINICLAW_MASTER_KEY", MASTER_KEY)
        .env("MINICLAW_CHAIN_RECEIPT_WAIT_SECS", "5")
        .spawn()
        .await;
    OwnedAgent::new(app).await
}

fn wei(milli: u128) -> String {
    (milli * MILLI).to_string()
}

#[tokio::test]
async fn a_wallet_sends_within_its_limits_and_is_refused_above_them() {
    let anvil = Anvil::start().await;
    let agent = app(&anvil).await;
    let mut answers: Vec<String> = Vec::new();
    let mut keep = |r: Reply| {
        answers.push(r.text.clone());
        r
    };
    let created = keep(agent.call(Method::POST, "/wallet", None).await);
    assert_eq!(created.status, 201, "{}", created.text);
    let wallet = created.json()["address"].as_str().unwrap().to_string();
    assert_eq!(created.json()["server_managed"], true);
    assert_eq!(agent.call(Method::POST, "/wallet", None).await.status, 409, "one wallet per agent");
    anvil.set_balance(&wallet, U256::from(1000 * MILLI)).await;
    let before = anvil.balance(RECIPIENT).await;
    let (_, key) = agent.app.create_key(&agent.owner, &agent.id, &["wallet:write"]).await;
    let (_, reader) = agent.app.create_key(&agent.owner, &agent.id, &["wallet:read"]).await;
    let as_key = |token: &str, method: Method, rest: &str, body: Option<Value>| {
        let req = agent.app.as_bearer(token, method, &agent.path(rest));
        agent.app.send(match body {
            Some(b) => req.json(&b),
            None => req,
        })
    };
    let send = |milli: u128| json!({ "to": RECIPIENT, "value_wei": wei(milli) });

    // Nothing goes out before the owner sets limits; a key cannot set them.
    let r = keep(as_key(&key, Method::POST, "/wallet/send", Some(send(10))).await);
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (422, "wallet_limit"));
    let limits = json!({ "max_per_tx_wei": wei(100), "max_per_day_wei": wei(150), "confirm_above_wei": wei(50) });
    let r = as_key(&key, Method::PUT, "/wallet/limits", Some(limits.clone())).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "owner_session_required"));
    let r = keep(agent.call(Method::PUT, "/wallet/limits", Some(limits)).await);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["limits"]["max_per_day_wei"], wei(150));

    // Above the per-transaction limit: refused, naming it.
    let r = keep(as_key(&key, Method::POST, "/wallet/send", Some(send(200))).await);
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["details"]["limit"], "per_transaction");
    // A reader may look but not send.
    let r = as_key(&reader, Method::POST, "/wallet/send", Some(send(10))).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "missing_scope"));

    // Within the limits and below the threshold: sent.
    let r = keep(as_key(&key, Method::POST, "/wallet/send", Some(send(40))).await);
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (202, Some("queued")), "{}", r.text);
    agent.app.run_jobs().await;
    assert_eq!(anvil.balance(RECIPIENT).await - before, U256::from(40 * MILLI));

    // Above the threshold: it waits for the owner (a key cannot confirm), then goes.
    let r = keep(as_key(&key, Method::POST, "/wallet/send", Some(send(80))).await);
    assert_eq!(r.json()["status"], "awaiting_confirmation", "{}", r.text);
    let waiting = r.json()["id"].as_str().unwrap().to_string();
    agent.app.run_jobs().await;
    assert_eq!(anvil.balance(RECIPIENT).await - before, U256::from(40 * MILLI), "nothing sent before confirmation");
    let confirm = format!("/wallet/transactions/{waiting}/confirm");
    assert_eq!(as_key(&key, Method::POST, &confirm, None).await.status, 403);
    let r = keep(agent.call(Method::POST, &confirm, None).await);
    assert_eq!(r.json()["status"], "queued", "{}", r.text);
    assert_eq!(agent.call(Method::POST, &confirm, None).await.status, 409, "confirmed once");
    agent.app.run_jobs().await;
    assert_eq!(anvil.balance(RECIPIENT).await - before, U256::from(120 * MILLI));

    // 120 sent in 24 hours: 40 more would pass the daily 150.
    let r = keep(as_key(&key, Method::POST, "/wallet/send", Some(send(40))).await);
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["details"]["limit"], "per_day");
    // 30 more fits the day exactly.
    let r = keep(agent.call(Method::POST, "/wallet/send", Some(send(30))).await);
    assert_eq!(r.json()["status"], "queued");
    agent.app.run_jobs().await;
    assert_eq!(anvil.balance(RECIPIENT).await - before, U256::from(150 * MILLI));

    let history = keep(as_key(&reader, Method::GET, "/wallet/transactions", None).await).json();
    let statuses: Vec<&str> = history.as_array().unwrap().iter().map(|t| t["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["confirmed", "confirmed", "confirmed"], "{history}");
    assert!(history.as_array().unwrap().iter().all(|t| t["tx_hash"].as_str().is_some_and(|h| h.len() == 66)));
    let view = keep(as_key(&reader, Method::GET, "/wallet", None).await).json();
    assert_eq!(view["balance_wei"], anvil.balance(&wallet).await.to_string());

    // The key itself is in no answer.
    let sealed: Vec<u8> =
        sqlx::query_scalar("SELECT sealed_key FROM agent_wallets").fetch_one(agent.app.pool()).await.unwrap();
    let master: [u8; 32] = hex::decode(MASTER_KEY).unwrap().try_into().unwrap();
    let opened =
        miniclaw::secrets::Vault::with_keys(&master, &[]).open(&format!("wallet:{}", agent.id), &sealed).unwrap();
    let key_hex = hex::encode(opened.plain);
    assert!(answers.iter().all(|a| !a.to_lowercase().contains(&key_hex)));
    assert!(!sealed.windows(32).any(|w| hex::encode(w) == key_hex), "sealed at rest");
}

#[tokio::test]
async fn a_declined_send_is_cancelled_and_never_sent() {
    let anvil = Anvil::start().await;
    let agent = app(&anvil).await;
    let wallet = agent.call(Method::POST, "/wallet", None).await.json()["address"].as_str().unwrap().to_string();
    anvil.set_balance(&wallet, U256::from(1000 * MILLI)).await;
    let limits = json!({ "max_per_tx_wei": wei(100), "max_per_day_wei": wei(100), "confirm_above_wei": wei(10) });
    assert_eq!(agent.call(Method::PUT, "/wallet/limits", Some(limits)).await.status, 200);
    let before = anvil.balance(RECIPIENT).await;
    let r = agent.call(Method::POST, "/wallet/send", Some(json!({ "to": RECIPIENT, "value_wei": wei(60) }))).await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = agent.call(Method::POST, &format!("/wallet/transactions/{id}/cancel"), None).await;
    assert_eq!(r.json()["status"], "cancelled", "{}", r.text);
    agent.app.run_jobs().await;
    assert_eq!(anvil.balance(RECIPIENT).await, before);
    // The cancelled 60 leaves the whole day's 100 available.
    let r = agent.call(Method::POST, "/wallet/send", Some(json!({ "to": RECIPIENT, "value_wei": wei(100) }))).await;
    assert_eq!(r.json()["status"], "awaiting_confirmation", "{}", r.text);
}

#[tokio::test]
async fn owner_held_wallets_are_listed_by_address_with_their_balance() {
    let anvil = Anvil::start().await;
    let agent = app(&anvil).await;
    let r = agent.call(Method::POST, "/wallet/external", Some(json!({ "address": RECIPIENT, "label": "cold" }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let added = r.json();
    assert_eq!(added["address"], RECIPIENT);
    assert_eq!(added["server_managed"], false);
    assert_eq!(added["balance_wei"], anvil.balance(RECIPIENT).await.to_string());
    let again = agent
        .call(
            Method::POST,
            "/wallet/external",
            Some(json!({ "address": RECIPIENT.to_uppercase().replace("0X", "0x") })),
        )
        .await;
    assert_eq!(again.status, 409, "{}", again.text);
    let bad = agent.call(Method::POST, "/wallet/external", Some(json!({ "address": "0x1234" }))).await;
    assert_eq!(bad.status, 400);
    let (_, key) = agent.app.create_key(&agent.owner, &agent.id, &["wallet:write"]).await;
    let by_key = agent
        .app
        .send(
            agent
                .app
                .as_bearer(&key, Method::POST, &agent.path("/wallet/external"))
                .json(&json!({ "address": RECIPIENT })),
        )
        .await;
    assert_eq!(by_key.status, 403, "owner only");
    let read = agent.app.send(agent.app.as_bearer(&key, Method::GET, &agent.path("/wallet/external"))).await;
    assert_eq!(read.json().as_array().unwrap().len(), 1);
    let id = added["id"].as_str().unwrap();
    assert_eq!(agent.call(Method::DELETE, &format!("/wallet/external/{id}"), None).await.status, 204);
    assert_eq!(agent.call(Method::DELETE, &format!("/wallet/external/{id}"), None).await.status, 404);
    assert_eq!(agent.call(Method::GET, "/wallet/external", None).await.json(), json!([]));
}
