//! SPEC I1 idempotency with real processes: a `miniclaw worker` killed between broadcasting the
//! registration and its receipt, and a fresh worker that finishes it: exactly one registration
//! on chain. The wallet key never shows in the workers' logs or in any API answer.

use std::process::{Child, Command};
use std::time::{Duration, Instant};

use alloy::primitives::U256;
use alloy::providers::Provider;
use alloy::rpc::types::Filter;
use alloy::sol_types::SolEvent;
use miniclaw::chain::registry::IdentityRegistry;
use reqwest::Method;
use serde_json::Value;

use crate::chain_support::{Anvil, MASTER_KEY};
use crate::common::{OwnedAgent, TestApp};

const BIN: &str = env!("CARGO_BIN_EXE_miniclaw");

fn worker(env: &[(&str, &str)], log: &std::path::Path) -> Child {
    let out = std::fs::File::create(log).unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("worker")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("RUST_LOG", "miniclaw=debug")
        .stdout(out.try_clone().unwrap())
        .stderr(out);
    if let Ok(home) = std::env::var("HOME") {
        cmd.env("HOME", home);
    }
    cmd.envs(env.iter().copied()).spawn().unwrap()
}

/// Waits for `done`, at most `secs`; on failure the panic shows the workers' logs in `dir`.
async fn wait_for(what: &str, secs: u64, dir: &std::path::Path, mut done: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done().await {
        if Instant::now() > deadline {
            let logs: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .flatten()
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .collect();
            panic!("{what} did not happen within {secs} s; worker logs:\n{}", logs.join("\n---\n"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_worker_killed_between_broadcast_and_receipt_leaves_exactly_one_registration() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let registry_s = registry.to_string();
    let app = TestApp::builder()
        .env("EVM_RPC_URL", &anvil.url)
        .env("EVM_CHAIN_ID", "31337")
        .env("ERC8004_REGISTRY_ADDRESS", &registry_s)
        .env("MINICLAW_MASTER_KEY", MASTER_KEY)
        .spawn()
        .await;
    let agent = OwnedAgent::new(app).await;
    let mut answers = Vec::new();
    let r = agent.call(Method::POST, "/identity/register", None).await;
    assert_eq!(r.status, 202, "{}", r.text);
    answers.push(r.text);
    let w = agent.call(Method::GET, "/wallet", None).await;
    let wallet = w.json()["address"].as_str().unwrap().to_string();
    answers.push(w.text);
    anvil.set_balance(&wallet, U256::from(10u128.pow(18))).await;

    // Blocks are mined only when the test says so: the receipt waits.
    anvil.rpc("evm_setAutomine", serde_json::json!([false])).await;
    let dir = tempfile::tempdir().unwrap();
    let env = [
        ("DATABASE_URL", agent.app.db.url.as_str()),
        ("MINICLAW_EMBEDDER", "hash"),
        ("MINICLAW_WORKER_POLL_MS", "50"),
        ("EVM_RPC_URL", anvil.url.as_str()),
        ("EVM_CHAIN_ID", "31337"),
        ("ERC8004_REGISTRY_ADDRESS", registry_s.as_str()),
        ("MINICLAW_MASTER_KEY", MASTER_KEY),
        ("MINICLAW_CHAIN_RECEIPT_WAIT_SECS", "120"),
    ];
    let mut first = worker(&env, &dir.path().join("first.log"));
    let pool = agent.app.pool().clone();
    let agent_uuid: uuid::Uuid = agent.id.parse().unwrap();
    let recorded = || {
        let pool = pool.clone();
        async move {
            sqlx::query_scalar::<_, Option<String>>("SELECT tx_hash FROM agent_identities WHERE agent_id = $1")
                .bind(agent_uuid)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    // The hash is recorded, then the transaction reaches the node's pool.
    wait_for("the signed transaction's record", 60, dir.path(), async || recorded().await.is_some()).await;
    let hash = recorded().await.unwrap();
    wait_for("the broadcast", 60, dir.path(), async || {
        !anvil.rpc("eth_getTransactionByHash", serde_json::json!([hash])).await.is_null()
    })
    .await;
    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(agent.call(Method::GET, "/identity", None).await.json()["status"], "pending");

    // The block comes after the worker is gone; its lease runs out; a new worker takes over.
    anvil.rpc("evm_mine", serde_json::json!([])).await;
    anvil.rpc("evm_setAutomine", serde_json::json!([true])).await;
    sqlx::query("UPDATE jobs SET locked_until = now() - interval '1 second' WHERE kind = 'identity_register'")
        .execute(&pool)
        .await
        .unwrap();
    let mut second = worker(&env, &dir.path().join("second.log"));
    let mut identity = Value::Null;
    wait_for("the registration", 60, dir.path(), async || {
        let r = agent.call(Method::GET, "/identity", None).await;
        identity = r.json();
        answers.push(r.text);
        identity["status"] == "registered"
    })
    .await;
    // The worker logs "job finished" after the job's commit: wait for the line, not only the row.
    let logged = dir.path().join("second.log");
    wait_for("the worker's log of the finished job", 30, dir.path(), async || {
        let log = std::fs::read_to_string(&logged).unwrap_or_default();
        log.lines().any(|l| l.contains("job finished") && l.contains("identity_register"))
    })
    .await;
    second.kill().unwrap();
    second.wait().unwrap();
    assert_eq!(identity["tx_hash"], hash.as_str(), "the recorded transaction, not a second one");
    assert_eq!(identity["erc8004_agent_id"], 0);

    // Exactly one registration on chain, one transaction in the wallet's history.
    let filter =
        Filter::new().address(registry).event_signature(IdentityRegistry::Registered::SIGNATURE_HASH).from_block(0);
    let logs = anvil.provider.get_logs(&filter).await.unwrap();
    assert_eq!(logs.len(), 1, "exactly one Registered event");
    let history = agent.call(Method::GET, "/wallet/transactions", None).await;
    let rows = history.json();
    assert_eq!(rows.as_array().unwrap().len(), 1, "{rows}");
    answers.push(history.text);

    // The key: in neither worker's log, in no answer.
    let sealed: Vec<u8> = sqlx::query_scalar("SELECT sealed_key FROM agent_wallets WHERE agent_id = $1")
        .bind(agent_uuid)
        .fetch_one(&pool)
        .await
        .unwrap();
    let master: [u8; 32] = hex::decode(MASTER_KEY).unwrap().try_into().unwrap();
    let key = miniclaw::secrets::Vault::with_keys(&master, &[]).open(&format!("wallet:{}", agent.id), &sealed).unwrap();
    let key_hex = hex::encode(&key.plain);
    assert_eq!(key_hex.len(), 64);
    let logs = std::fs::read_to_string(dir.path().join("first.log")).unwrap()
        + &std::fs::read_to_string(dir.path().join("second.log")).unwrap();
    assert!(logs.contains("identity_register"), "the logs are captured: {logs}");
    for text in std::iter::once(&logs).chain(answers.iter()) {
        assert!(!text.to_lowercase().contains(&key_hex), "the wallet key leaked");
    }
}
