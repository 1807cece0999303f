//! SPEC I5, I6 and I8 against a real EVM node (anvil): an agent token deployed from the agent's
//! wallet and read by an independent client (ethers), indexed without double counting; a tip in
//! native value that survives the node going down; escrowed orders settled and refunded through
//! the ServiceEscrow contract, a reverted release included; an x402 call paid on chain by an
//! independent wallet, its proof refused on replay; the gas subsidy within its daily budget.

use alloy::primitives::{Address, U256};
use reqwest::Method;
use serde_json::{Value, json};

use crate::chain_support::{Anvil, DEV_KEY, LaggingNode, Proxy, chain_client, chain_env};
use crate::common::{Reply, Session, TestApp, TestAppBuilder};

const ETH: u128 = 1_000_000_000_000_000_000;
const MILLI: u128 = ETH / 1000;

async fn call(app: &TestApp, who: &Session, method: Method, path: &str, body: Option<Value>) -> Reply {
    let req = app.as_bearer(&who.token, method, path);
    app.send(match body {
        Some(b) => req.json(&b),
        None => req,
    })
    .await
}

/// An agent with a funded wallet and generous send limits; returns (id, address).
async fn funded_agent(app: &TestApp, anvil: &Anvil, who: &Session, name: &str, wei: u128) -> (String, String) {
    let id = app.create_agent(who, json!({ "name": name })).await["id"].as_str().unwrap().to_string();
    let r = call(app, who, Method::POST, &format!("/v1/hosted-agents/{id}/wallet"), None).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let address = r.json()["address"].as_str().unwrap().to_string();
    if wei > 0 {
        anvil.set_balance(&address, U256::from(wei)).await;
    }
    let limits = json!({ "max_per_tx_wei": (ETH).to_string(), "max_per_day_wei": (10 * ETH).to_string() });
    let r = call(app, who, Method::PUT, &format!("/v1/hosted-agents/{id}/wallet/limits"), Some(limits)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    (id, address)
}

/// Runs every queued job until none is due (jobs retried after a backoff are made due at once).
async fn settle_jobs(app: &TestApp) {
    for _ in 0..5 {
        sqlx::query("UPDATE jobs SET run_at = now() WHERE status = 'queued'").execute(app.pool()).await.unwrap();
        if app.run_jobs().await == 0 {
            break;
        }
    }
}

fn chain_app(anvil_url: &str, registry: Address) -> TestAppBuilder {
    // Anvil mines a block per transaction only: the indexer reads up to the head here.
    chain_env(TestApp::builder().admin_password("admin-pw-123"), anvil_url, registry)
        .env("MINICLAW_CHAIN_CONFIRMATIONS", "0")
}

#[tokio::test]
async fn an_agent_token_is_deployed_read_by_an_independent_client_and_indexed_once() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let app = chain_app(&anvil.url, registry).spawn().await;
    let alice = app.signup("alice@example.com").await;
    let (ada, wallet) = funded_agent(&app, &anvil, &alice, "Ada", ETH).await;
    let token = format!("/v1/hosted-agents/{ada}/token");

    let bad = json!({ "name": "Ada Coin", "symbol": "ada", "supply": "1000" });
    assert_eq!(call(&app, &alice, Method::POST, &token, Some(bad)).await.status, 400);
    let input = json!({ "name": "Ada Coin", "symbol": "ADA", "decimals": 6, "supply": "1000000" });
    let r = call(&app, &alice, Method::POST, &token, Some(input.clone())).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (202, Some("deploying")), "{}", r.text);
    assert_eq!(call(&app, &alice, Method::POST, &token, Some(input)).await.status, 409, "one token per agent");
    settle_jobs(&app).await;
    let e = call(&app, &alice, Method::GET, &token, None).await.json();
    assert_eq!(e["token"]["status"], "deployed", "{e}");
    let address = e["token"]["address"].as_str().unwrap().to_string();
    let supply = "1000000000000"; // 1,000,000 × 10^6
    assert_eq!(e["total_supply"], supply, "{e}");

    // An independent client (ethers) sees the supply, all of it in the agent's wallet.
    let seen = chain_client(&["token", &anvil.url, &address, &wallet], None).await;
    assert_eq!((seen["symbol"].as_str(), seen["decimals"].as_i64()), (Some("ADA"), Some(6)), "{seen}");
    assert_eq!(seen["totalSupply"], supply);
    assert_eq!(seen["balances"][&wallet], supply);

    // A transfer from the wallet; the indexer finds both events, holders and all.
    let bob = "0x70997970c51812dc3a010c7d01b93b7d6ce1e8f0";
    let r = call(
        &app,
        &alice,
        Method::POST,
        &format!("{token}/transfers"),
        Some(json!({ "to": bob, "amount": "250000000000" })),
    )
    .await;
    assert_eq!(r.status, 202, "{}", r.text);
    settle_jobs(&app).await;
    let index = || async {
        sqlx::query("INSERT INTO jobs (id, kind, payload) VALUES ($1, 'token_index', '{}')")
            .bind(uuid::Uuid::now_v7())
            .execute(app.pool())
            .await
            .unwrap();
        app.run_jobs().await;
    };
    index().await;
    let e = call(&app, &alice, Method::GET, &token, None).await.json();
    assert_eq!((e["holders"].as_i64(), e["transfers"].as_i64()), (Some(2), Some(2)), "{e}");
    assert!((e["top_holder_share"].as_f64().unwrap() - 0.75).abs() < 1e-9, "{e}");
    assert!((e["concentration_hhi"].as_f64().unwrap() - 0.625).abs() < 1e-9, "0.75² + 0.25²: {e}");
    assert_eq!(e["no_price"], true);

    // The PoC reads the wallet's balance from the chain (1 ETH less the gas spent: the full 20),
    // counts the deployed token, and leaves the token market's three signals out of the weighting.
    let poc = call(&app, &alice, Method::GET, &format!("/v1/hosted-agents/{ada}/poc"), None).await.json();
    let economy = &poc["dimensions"][2];
    let signal = |key: &str| economy["signals"].as_array().unwrap().iter().find(|s| s["key"] == key).unwrap().clone();
    let funding = signal("wallet_funding");
    assert_eq!((funding["status"].as_str(), funding["points"].as_u64()), (Some("measured"), Some(20)), "{funding}");
    assert!((0.9..1.0).contains(&funding["value"].as_f64().unwrap()), "{funding}");
    assert_eq!(signal("token_deployment")["points"], 20);
    assert_eq!(signal("live_pricing")["status"], "not available");
    // 40 of the 65 measurable points: round(100 × 40 / 65) = 62.
    assert_eq!((economy["available"].as_u64(), economy["score"].as_u64()), (Some(65), Some(62)), "{economy}");
    let holders = call(&app, &alice, Method::GET, &format!("{token}/holders"), None).await.json();
    assert_eq!(holders[1], json!({ "address": bob, "balance": "250000000000" }), "{holders}");
    let seen = chain_client(&["token", &anvil.url, &address, &wallet, bob], None).await;
    assert_eq!(seen["balances"][bob], "250000000000");
    assert_eq!(seen["transfers"].as_array().unwrap().len(), 2, "the chain has the two events the index has");

    // A key only asks: its transfer waits for the owner, and nothing moves until confirmed.
    let (_, key) = app.create_key(&alice, &ada, &["economy:write"]).await;
    let move_all = json!({ "to": bob, "amount": "750000000000" });
    let r = app.send(app.as_bearer(&key, Method::POST, &format!("{token}/transfers")).json(&move_all)).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (202, Some("awaiting_confirmation")), "{}", r.text);
    // What the owner confirms is named: who asked, who receives and how much, not only the
    // token's contract and 0 ETH.
    assert_eq!(
        (r.json()["recipient"].as_str(), r.json()["token_amount"].as_str(), r.json()["requested_by"].as_str()),
        (Some(bob), Some("750000000000"), Some("api_key")),
        "{}",
        r.text
    );
    let held = r.json()["id"].as_str().unwrap().to_string();
    settle_jobs(&app).await;
    let seen = chain_client(&["token", &anvil.url, &address, &wallet, bob], None).await;
    assert_eq!(seen["balances"][bob], "250000000000", "nothing moved while it waits: {seen}");
    let decide = |what: &str| format!("/v1/hosted-agents/{ada}/wallet/transactions/{held}/{what}");
    let r = app.send(app.as_bearer(&key, Method::POST, &decide("confirm"))).await;
    assert_eq!(r.status, 403, "a key does not confirm its own request: {}", r.text);
    let r = call(&app, &alice, Method::POST, &decide("cancel"), None).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("cancelled")), "{}", r.text);
    settle_jobs(&app).await;
    let seen = chain_client(&["token", &anvil.url, &address, &wallet, bob], None).await;
    assert_eq!(seen["balances"][bob], "250000000000", "cancelled: {seen}");

    // A restart that reads the same blocks again counts nothing twice.
    sqlx::query("UPDATE agent_tokens SET indexed_block = deployed_block - 1").execute(app.pool()).await.unwrap();
    index().await;
    index().await;
    let again = call(&app, &alice, Method::GET, &format!("{token}/holders"), None).await.json();
    assert_eq!(again, holders);
    let e = call(&app, &alice, Method::GET, &token, None).await.json();
    assert_eq!(e["transfers"], 2, "{e}");

    // A tip in the token to another agent's wallet follows its transaction to `completed`.
    let (bea, bea_wallet) = funded_agent(&app, &anvil, &alice, "Bea", 0).await;
    let tip =
        json!({ "from": "agent", "to_agent_id": bea, "rail": "token", "amount": "5000000", "idempotency_key": "tk-1" });
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{ada}/tips"), Some(tip)).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (201, Some("pending")), "{}", r.text);
    settle_jobs(&app).await;
    let tips = call(&app, &alice, Method::GET, &format!("/v1/hosted-agents/{ada}/tips"), None).await.json();
    assert_eq!((tips[0]["rail"].as_str(), tips[0]["status"].as_str()), (Some("token"), Some("completed")), "{tips}");
    let seen = chain_client(&["token", &anvil.url, &address, &bea_wallet], None).await;
    assert_eq!(seen["balances"][&bea_wallet], "5000000");
    let no_token =
        json!({ "from": "agent", "to_agent_id": ada, "rail": "token", "amount": "1", "idempotency_key": "tk-2" });
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{bea}/tips"), Some(no_token)).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (422, "no_token".into()), "{}", r.text);
    index().await;
    assert_eq!(call(&app, &alice, Method::GET, &token, None).await.json()["holders"], 3);

    // Ada stakes 100 of her tokens behind Bea: pending until the custodian (the sponsor wallet)
    // holds them; a slash sends them to the burn address, a withdrawal back to Ada's wallet.
    let sponsor = app.send(app.admin(Method::GET, "/v1/admin/identity/sponsor")).await.json();
    let custodian = sponsor["address"].as_str().unwrap().to_lowercase();
    anvil.set_balance(&custodian, U256::from(ETH)).await;
    let stakes = format!("/v1/hosted-agents/{ada}/stakes");
    let stake = |amount: i64, key: &str| json!({ "from": "agent", "target": "agent", "agent_id": bea, "topic": "research", "amount": amount, "asset": "token", "idempotency_key": key });
    let r = call(&app, &alice, Method::POST, &stakes, Some(stake(100, "ts-1"))).await;
    assert_eq!(
        (r.status.as_u16(), r.json()["status"].as_str(), r.json()["units"].as_str()),
        (201, Some("pending"), Some("100000000")),
        "{}",
        r.text
    );
    let slashed = r.json()["id"].as_str().unwrap().to_string();
    let r = call(&app, &alice, Method::POST, &stakes, Some(stake(50, "ts-2"))).await;
    let withdrawn = r.json()["id"].as_str().unwrap().to_string();
    settle_jobs(&app).await;
    let listed = call(&app, &alice, Method::GET, &stakes, None).await.json();
    assert!(
        listed.as_array().unwrap().iter().filter(|s| s["asset"] == "token").all(|s| s["status"] == "active"),
        "{listed}"
    );
    let seen = chain_client(&["token", &anvil.url, &address, &custodian], None).await;
    assert_eq!(seen["balances"][&custodian], "150000000", "the custodian holds both stakes");
    let pools = call(&app, &alice, Method::GET, "/v1/signals?topic=research", None).await.json();
    assert_eq!((pools[0]["symbol"].as_str(), pools[0]["staked"].as_i64()), (Some("ADA"), Some(150)), "{pools}");
    assert_eq!(pools[0]["asset"], format!("token:{address}"));
    let r = call(&app, &alice, Method::POST, &format!("{stakes}/{withdrawn}/withdraw"), None).await;
    assert_eq!(r.json()["status"], "withdrawn", "{}", r.text);
    settle_jobs(&app).await;
    // A slash whose payout fails stays slashed (the staker cannot take it back) and is sent again.
    let token_address: alloy::primitives::Address = address.parse().unwrap();
    let token_code = anvil.code(token_address).await;
    anvil.make_revert(token_address, "token paused").await;
    let slash = json!({ "stake_id": slashed, "outcome": "slashed", "note": "the claim was false" });
    let r = app.send(app.admin(Method::POST, "/v1/admin/stakes/resolutions").json(&slash)).await;
    assert_eq!(r.json()[0]["status"], "slashed", "{}", r.text);
    let stake_row = || async {
        sqlx::query_as::<_, (String, i32, Option<String>)>(
            "SELECT status, payout_attempts, outcome FROM stakes WHERE id = $1::uuid",
        )
        .bind(&slashed)
        .fetch_one(app.pool())
        .await
        .unwrap()
    };
    // Until the payout has failed once; the payout sent again waits 5 minutes.
    for _ in 0..10 {
        sqlx::query("UPDATE jobs SET run_at = now() WHERE status = 'queued'").execute(app.pool()).await.unwrap();
        app.run_jobs().await;
        if stake_row().await.1 > 0 {
            break;
        }
    }
    let (status, attempts, outcome) = stake_row().await;
    assert_eq!((status.as_str(), attempts), ("slashed", 1), "{outcome:?}");
    let waiting: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM jobs WHERE status = 'queued' AND run_at > now() + interval '4 minutes'",
    )
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert_eq!(waiting, 1, "the payout sent again waits");
    assert!(outcome.as_deref().unwrap_or_default().contains("sent again"), "{outcome:?}");
    let r = call(&app, &alice, Method::POST, &format!("{stakes}/{slashed}/withdraw"), None).await;
    assert_eq!(r.status, 409, "a slashed stake is not the staker's: {}", r.text);
    anvil.set_code(token_address, &token_code).await;
    settle_jobs(&app).await;
    let burn = "0x000000000000000000000000000000000000dead";
    let seen = chain_client(&["token", &anvil.url, &address, &custodian, burn], None).await;
    assert_eq!(
        (seen["balances"][&custodian].as_str(), seen["balances"][burn].as_str()),
        (Some("0"), Some("100000000")),
        "{seen}"
    );
    let listed = call(&app, &alice, Method::GET, &stakes, None).await.json();
    let payouts: Vec<&str> = listed.as_array().unwrap().iter().filter_map(|s| s["payout"].as_str()).collect();
    assert_eq!(payouts, ["confirmed", "confirmed"], "{listed}");
    let r = call(&app, &alice, Method::POST, &stakes, Some(json!({ "from": "owner", "target": "agent", "topic": "x", "amount": 1, "asset": "token", "idempotency_key": "ts-3" }))).await;
    assert_eq!(r.status, 400, "an owner has no token to stake: {}", r.text);
    let log = call(&app, &alice, Method::GET, &format!("/v1/hosted-agents/{ada}/activity"), None).await.json();
    assert!(log.as_array().unwrap().iter().any(|a| a["action"] == "economy.token_deploy_requested"));
    let poc = call(&app, &alice, Method::GET, &format!("/v1/hosted-agents/{ada}/poc"), None).await.json();
    let token = poc["dimensions"][2]["signals"][0].clone();
    assert_eq!((token["key"].as_str(), token["points"].as_i64()), (Some("token_deployment"), Some(20)), "{token}");
}

#[tokio::test]
async fn a_native_tip_survives_the_node_going_down_and_is_paid_once() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let proxy = Proxy::start(&anvil.url).await;
    let app = chain_app(&proxy.url, registry).spawn().await;
    let alice = app.signup("alice@example.com").await;
    let bob = app.signup("bob@example.com").await;
    let (ada, _) = funded_agent(&app, &anvil, &alice, "Ada", ETH).await;
    let (bea, bea_wallet) = funded_agent(&app, &anvil, &bob, "Bea", 0).await;

    proxy.set_up(false);
    let tip = json!({ "from": "agent", "to_agent_id": bea, "rail": "native", "amount": (10 * MILLI).to_string(), "idempotency_key": "n-1" });
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{ada}/tips"), Some(tip.clone())).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (201, Some("pending")), "{}", r.text);
    let id = r.json()["id"].as_str().unwrap().to_string();
    app.run_jobs().await;
    let list = call(&app, &alice, Method::GET, &format!("/v1/hosted-agents/{ada}/tips"), None).await.json();
    assert_eq!(list[0]["status"], "pending", "still pending while the node is down: {list}");
    // The same request again is the same tip.
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{ada}/tips"), Some(tip)).await;
    assert_eq!((r.status.as_u16(), r.json()["id"].as_str()), (200, Some(id.as_str())));

    proxy.set_up(true);
    settle_jobs(&app).await;
    let list = call(&app, &bob, Method::GET, &format!("/v1/hosted-agents/{bea}/tips"), None).await.json();
    assert_eq!(list[0]["status"], "completed", "{list}");
    assert!(list[0]["tx_hash"].is_string());
    assert_eq!(anvil.balance(&bea_wallet).await, U256::from(10 * MILLI), "paid exactly once");
    let sent: i64 =
        sqlx::query_scalar("SELECT count(*) FROM wallet_transactions WHERE purpose = 'send' AND tx_hash IS NOT NULL")
            .fetch_one(app.pool())
            .await
            .unwrap();
    assert_eq!(sent, 1);
}

#[tokio::test]
async fn a_send_the_node_mined_but_cannot_show_yet_is_never_signed_again() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let node = LaggingNode::start(&anvil.url).await;
    let app = chain_app(&node.url, registry).spawn().await;
    let alice = app.signup("alice@example.com").await;
    let (ada, _) = funded_agent(&app, &anvil, &alice, "Ada", ETH).await;
    let to = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
    let before = anvil.balance(to).await;

    // The node mines the send at once but, like a load-balanced one, cannot show it for a while:
    // no receipt, and a second broadcast is "nonce too low".
    node.set_lagging(true);
    let send = json!({ "to": to, "value_wei": MILLI.to_string() });
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{ada}/wallet/send"), Some(send)).await;
    assert_eq!(r.status, 202, "{}", r.text);
    let id = uuid::Uuid::parse_str(r.json()["id"].as_str().unwrap()).unwrap();
    for _ in 0..4 {
        sqlx::query("UPDATE jobs SET run_at = now() WHERE status = 'queued'").execute(app.pool()).await.unwrap();
        app.run_jobs().await;
    }
    let (status, checks): (String, i16) =
        sqlx::query_as("SELECT status, superseded_checks FROM wallet_transactions WHERE id = $1")
            .bind(id)
            .fetch_one(app.pool())
            .await
            .unwrap();
    assert_eq!((status.as_str(), checks), ("signed", 3), "seen taken 3 times within seconds: not signed again");
    assert_eq!(anvil.balance(to).await, before + U256::from(MILLI), "mined once");
    // However long the node keeps saying "nonce too low" without showing a receipt, the send
    // is never signed again while the only transaction holding its nonce is its own.
    sqlx::query("UPDATE wallet_transactions SET superseded_since = now() - interval '1 hour' WHERE id = $1")
        .bind(id)
        .execute(app.pool())
        .await
        .unwrap();
    sqlx::query("UPDATE jobs SET run_at = now() WHERE status = 'queued'").execute(app.pool()).await.unwrap();
    app.run_jobs().await;
    let hashes: Vec<String> = sqlx::query_scalar("SELECT signed_hashes FROM wallet_transactions WHERE id = $1")
        .bind(id)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(hashes.len(), 1, "signed once: {hashes:?}");

    // The node catches up: the receipt is found, and the send is confirmed, paid once.
    node.set_lagging(false);
    settle_jobs(&app).await;
    let tx =
        call(&app, &alice, Method::GET, &format!("/v1/hosted-agents/{ada}/wallet/transactions"), None).await.json();
    let sends: Vec<&Value> = tx.as_array().unwrap().iter().filter(|t| t["purpose"] == "send").collect();
    assert_eq!(sends.len(), 1, "{tx}");
    assert_eq!(sends[0]["status"], "confirmed", "{tx}");
    assert_eq!(anvil.balance(to).await, before + U256::from(MILLI), "paid exactly once");
}

#[tokio::test]
async fn a_send_is_signed_again_only_once_another_is_found_holding_its_nonce_at_the_confirmed_depth() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let app = chain_app(&anvil.url, registry)
        .env("MINICLAW_CHAIN_CONFIRMATIONS", "2")
        .env("MINICLAW_CHAIN_RECEIPT_WAIT_SECS", "1")
        .spawn()
        .await;
    let alice = app.signup("alice@example.com").await;
    let (ada, wallet) = funded_agent(&app, &anvil, &alice, "Ada", ETH).await;
    let to = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
    let other = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
    let before = anvil.balance(to).await;
    let row = |id: uuid::Uuid| {
        let pool = app.pool().clone();
        async move {
            let r: (String, Vec<String>, Option<i64>) =
                sqlx::query_as("SELECT status, signed_hashes, nonce FROM wallet_transactions WHERE id = $1")
                    .bind(id)
                    .fetch_one(&pool)
                    .await
                    .unwrap();
            r
        }
    };

    // The send is signed and broadcast, but not mined (blocks are mined by hand here).
    anvil.rpc("evm_setAutomine", json!([false])).await;
    let send = json!({ "to": to, "value_wei": MILLI.to_string() });
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{ada}/wallet/send"), Some(send)).await;
    assert_eq!(r.status, 202, "{}", r.text);
    let id = uuid::Uuid::parse_str(r.json()["id"].as_str().unwrap()).unwrap();
    app.run_jobs().await;
    let (status, hashes, nonce) = row(id).await;
    assert_eq!((status.as_str(), hashes.len()), ("signed", 1), "{hashes:?}");
    let first = hashes[0].clone();

    // The pool loses it, and another transaction of the wallet takes its nonce and is mined.
    anvil.rpc("anvil_dropTransaction", json!([first])).await;
    anvil.rpc("anvil_impersonateAccount", json!([wallet])).await;
    let taken = anvil
        .rpc(
            "eth_sendTransaction",
            json!([{ "from": wallet, "to": other, "value": "0x1", "nonce": format!("{:#x}", nonce.unwrap()) }]),
        )
        .await;
    anvil.rpc("evm_mine", json!([])).await;

    // "Nonce too low" now, but the replacing transaction is not yet at the confirmed depth: the
    // send waits, signed under its one hash.
    settle_jobs(&app).await;
    let (status, hashes, _) = row(id).await;
    assert_eq!((status.as_str(), hashes.len()), ("signed", 1), "not signed again before the proof is deep enough");
    assert_eq!(anvil.balance(to).await, before);

    // Two blocks on, the holder is found in its block: the send is signed again with the next
    // nonce, mined, and paid once; both hashes are kept.
    anvil.rpc("anvil_mine", json!(["0x2"])).await;
    anvil.rpc("evm_setAutomine", json!([true])).await;
    settle_jobs(&app).await;
    settle_jobs(&app).await;
    let (status, hashes, _) = row(id).await;
    let jobs: Vec<(String, String, Option<String>)> =
        sqlx::query_as("SELECT kind, status, last_error FROM jobs WHERE kind LIKE '%send%' OR kind LIKE 'wallet%'")
            .fetch_all(app.pool())
            .await
            .unwrap();
    assert_eq!(status, "confirmed", "{hashes:?} {jobs:?}");
    assert_eq!(hashes.len(), 2, "{hashes:?}");
    assert_eq!(hashes[0], first);
    assert_ne!(Some(hashes[1].as_str()), taken.as_str(), "the replacing transaction is not ours");
    assert_eq!(anvil.balance(to).await, before + U256::from(MILLI), "paid exactly once");
    let tx =
        call(&app, &alice, Method::GET, &format!("/v1/hosted-agents/{ada}/wallet/transactions"), None).await.json();
    let send = tx.as_array().unwrap().iter().find(|t| t["purpose"] == "send").unwrap();
    assert_eq!(send["signed_hashes"].as_array().map(Vec::len), Some(2), "{send}");
    assert_eq!(send["tx_hash"].as_str(), Some(hashes[1].as_str()), "{send}");
}

#[tokio::test]
async fn escrowed_orders_settle_refund_and_survive_a_reverted_release() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let escrow = anvil.deploy_escrow().await;
    let app = chain_app(&anvil.url, registry).env("MINICLAW_ESCROW_ADDRESS", &escrow.to_string()).spawn().await;
    let sponsor = app.send(app.admin(Method::GET, "/v1/admin/identity/sponsor")).await.json();
    anvil.set_balance(sponsor["address"].as_str().unwrap(), U256::from(ETH)).await;
    let alice = app.signup("alice@example.com").await;
    let bob = app.signup("bob@example.com").await;
    let (ada, ada_wallet) = funded_agent(&app, &anvil, &alice, "Ada", ETH).await;
    let (bea, bea_wallet) = funded_agent(&app, &anvil, &bob, "Bea", ETH).await;
    let price = 50 * MILLI;
    let service = json!({ "title": "Audit", "price": 5, "price_wei": price.to_string() });
    let r = call(&app, &bob, Method::PUT, &format!("/v1/hosted-agents/{bea}/services/audit"), Some(service)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let order =
        |key: &str| json!({ "seller_agent_id": bea, "service": "audit", "rail": "escrow", "idempotency_key": key });
    let step = |who: Session, agent: String, id: String, body: Value| {
        let app = &app;
        async move {
            call(app, &who, Method::POST, &format!("/v1/hosted-agents/{agent}/orders/{id}/steps"), Some(body)).await
        }
    };
    let get = |id: String| {
        let (app, alice, ada) = (&app, alice.clone(), ada.clone());
        async move { call(app, &alice, Method::GET, &format!("/v1/hosted-agents/{ada}/orders/{id}"), None).await.json() }
    };

    // Placed: funding; the seller cannot accept before the escrow holds the price.
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{ada}/orders"), Some(order("e-1"))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let one = r.json()["id"].as_str().unwrap().to_string();
    assert_eq!((r.json()["rail"].as_str(), r.json()["escrow_state"].as_str()), (Some("escrow"), Some("funding")));
    let early = step(bob.clone(), bea.clone(), one.clone(), json!({ "action": "accept" })).await;
    assert_eq!(early.status, 409, "{}", early.text);
    settle_jobs(&app).await;
    assert_eq!(get(one.clone()).await["escrow_state"], "funded");
    assert_eq!(anvil.balance(&escrow.to_string()).await, U256::from(price), "the contract holds the price");
    let bea_before = anvil.balance(&bea_wallet).await;
    step(bob.clone(), bea.clone(), one.clone(), json!({ "action": "accept" })).await;
    step(bob.clone(), bea.clone(), one.clone(), json!({ "action": "deliver", "delivery": "no findings" })).await;
    let r = step(alice.clone(), ada.clone(), one.clone(), json!({ "action": "settle", "rating": 4 })).await;
    assert_eq!(
        (r.json()["status"].as_str(), r.json()["escrow_state"].as_str()),
        (Some("delivered"), Some("releasing")),
        "{}",
        r.text
    );
    settle_jobs(&app).await;
    let o = get(one.clone()).await;
    assert_eq!((o["status"].as_str(), o["escrow_state"].as_str()), (Some("settled"), Some("released")), "{o}");
    assert_eq!(anvil.balance(&bea_wallet).await - bea_before, U256::from(price), "the seller was paid the price");

    // A disputed order: the operator refunds it through the arbiter.
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{ada}/orders"), Some(order("e-2"))).await;
    let two = r.json()["id"].as_str().unwrap().to_string();
    settle_jobs(&app).await;
    step(bob.clone(), bea.clone(), two.clone(), json!({ "action": "accept" })).await;
    step(bob.clone(), bea.clone(), two.clone(), json!({ "action": "deliver", "delivery": "done" })).await;
    step(alice.clone(), ada.clone(), two.clone(), json!({ "action": "dispute", "reason": "not done" })).await;
    let ada_before = anvil.balance(&ada_wallet).await;
    let r = app
        .send(
            app.admin(Method::POST, &format!("/v1/admin/orders/{two}/resolution"))
                .json(&json!({ "ruling": "refund", "note": "no audit" })),
        )
        .await;
    assert_eq!(r.json()["escrow_state"], "refunding", "{}", r.text);
    settle_jobs(&app).await;
    let o = get(two.clone()).await;
    assert_eq!((o["status"].as_str(), o["escrow_state"].as_str()), (Some("refunded"), Some("refunded")), "{o}");
    assert_eq!(
        anvil.balance(&ada_wallet).await - ada_before,
        U256::from(price),
        "the arbiter paid for the refund's gas"
    );

    // A release that reverts leaves the order delivered with the reason; settling again pays.
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{ada}/orders"), Some(order("e-3"))).await;
    let three = r.json()["id"].as_str().unwrap().to_string();
    settle_jobs(&app).await;
    step(bob.clone(), bea.clone(), three.clone(), json!({ "action": "accept" })).await;
    step(bob.clone(), bea.clone(), three.clone(), json!({ "action": "deliver", "delivery": "ok" })).await;
    let code = anvil.code(escrow).await;
    anvil.make_revert(escrow, "escrow paused").await;
    step(alice.clone(), ada.clone(), three.clone(), json!({ "action": "settle" })).await;
    settle_jobs(&app).await;
    let o = get(three.clone()).await;
    assert_eq!((o["status"].as_str(), o["escrow_state"].as_str()), (Some("delivered"), Some("release_failed")), "{o}");
    assert!(o["escrow_error"].as_str().unwrap().contains("escrow paused"), "{o}");
    anvil.set_code(escrow, &code).await;
    let r = step(alice.clone(), ada.clone(), three.clone(), json!({ "action": "settle" })).await;
    assert_eq!(r.json()["escrow_state"], "releasing", "{}", r.text);
    settle_jobs(&app).await;
    assert_eq!(get(three).await["status"], "settled");
    let log = call(&app, &bob, Method::GET, &format!("/v1/hosted-agents/{bea}/activity"), None).await.json();
    let actions: Vec<&str> = log.as_array().unwrap().iter().filter_map(|e| e["action"].as_str()).collect();
    for a in
        ["economy.escrow_funded", "economy.escrow_released", "economy.escrow_refunded", "economy.escrow_release_failed"]
    {
        assert!(actions.contains(&a), "{a} missing from {actions:?}");
    }
}

#[tokio::test]
async fn a_paid_call_is_paid_on_chain_by_another_wallet_and_a_replay_is_refused() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let app = chain_app(&anvil.url, registry).spawn().await;
    let bob = app.signup("bob@example.com").await;
    let (bea, bea_wallet) = funded_agent(&app, &anvil, &bob, "Bea", 0).await;
    let price = 3 * MILLI;
    let service = json!({ "title": "Haiku", "price": 7, "price_wei": price.to_string() });
    call(&app, &bob, Method::PUT, &format!("/v1/hosted-agents/{bea}/services/haiku"), Some(service)).await;
    let url = format!("/v1/commerce/{bea}/services/haiku/call");
    let input = json!({ "input": "winter sea" });

    let r = app.send(app.request(Method::POST, &url).json(&input)).await;
    assert_eq!(r.status, 402);
    let native = r.json()["accepts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["network"] == "eip155:31337")
        .cloned()
        .expect("a native option");
    assert_eq!(
        (native["amount"].as_str(), native["payTo"].as_str()),
        (Some(price.to_string().as_str()), Some(bea_wallet.as_str()))
    );
    let nonce = native["extra"]["nonce"].as_str().unwrap().to_string();
    let data = native["extra"]["data"].as_str().unwrap().to_string();
    assert_eq!(data, format!("0x{nonce}"), "the payment carries the nonce as its data");

    // A payment without the nonce in its data pays no requirement: anyone's transfer to the
    // seller could be claimed otherwise.
    let bare = chain_client(&["pay", &anvil.url, DEV_KEY, &bea_wallet, &price.to_string()], None).await;
    let proof_of = |hash: &str, nonce: &str| {
        use base64::Engine as _;
        let p = json!({ "x402Version": 2, "scheme": "exact", "network": "eip155:31337", "payload": { "nonce": nonce, "txHash": hash } });
        base64::engine::general_purpose::STANDARD.encode(p.to_string())
    };
    let r = app
        .send(
            app.request(Method::POST, &url)
                .header("PAYMENT-SIGNATURE", proof_of(bare["hash"].as_str().unwrap(), &nonce))
                .json(&input),
        )
        .await;
    assert_eq!(r.status, 402);
    assert!(r.json()["error"].as_str().unwrap().contains("data"), "{}", r.text);

    // An independent wallet (ethers, anvil's first account) pays with the nonce as data.
    let paid = chain_client(&["pay", &anvil.url, DEV_KEY, &bea_wallet, &price.to_string(), &data], None).await;
    assert_eq!(paid["status"], 1, "{paid}");
    let proof = proof_of;
    let hash = paid["hash"].as_str().unwrap();
    let r =
        app.send(app.request(Method::POST, &url).header("PAYMENT-SIGNATURE", proof(hash, &nonce)).json(&input)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["payment"]["payer"], paid["from"]);
    // The same proof again is a replay; the same transaction for a fresh requirement pays nothing.
    let r =
        app.send(app.request(Method::POST, &url).header("PAYMENT-SIGNATURE", proof(hash, &nonce)).json(&input)).await;
    assert_eq!(r.status, 402, "{}", r.text);
    assert!(r.json()["error"].as_str().unwrap().contains("already used"), "{}", r.text);
    let again = app.send(app.request(Method::POST, &url).json(&input)).await.json();
    let fresh = again["accepts"][0]["extra"]["nonce"].as_str().unwrap().to_string();
    let r =
        app.send(app.request(Method::POST, &url).header("PAYMENT-SIGNATURE", proof(hash, &fresh)).json(&input)).await;
    assert_eq!(r.status, 402, "{}", r.text);
    // Too little does not pay.
    let fresh_data = format!("0x{fresh}");
    let short = chain_client(&["pay", &anvil.url, DEV_KEY, &bea_wallet, "1", &fresh_data], None).await;
    let r = app
        .send(
            app.request(Method::POST, &url)
                .header("PAYMENT-SIGNATURE", proof(short["hash"].as_str().unwrap(), &fresh))
                .json(&input),
        )
        .await;
    assert_eq!(r.status, 402);
    assert!(r.json()["error"].as_str().unwrap().contains("payee or amount"), "{}", r.text);
    // A requirement gets a few checks on chain (each costs the node calls), then no more: a
    // caller cannot make the node answer for it without end. Two of its five are spent above.
    let bogus = format!("0x{}", "ab".repeat(32));
    for n in 3..=6 {
        let r = app
            .send(app.request(Method::POST, &url).header("PAYMENT-SIGNATURE", proof(&bogus, &fresh)).json(&input))
            .await;
        assert_eq!(r.status, 402, "{}", r.text);
        let error = r.json()["error"].as_str().unwrap().to_string();
        match n {
            6 => assert!(error.contains("checked on chain 5 times"), "check {n}: {error}"),
            _ => assert!(error.contains("not mined"), "check {n}: {error}"),
        }
    }
}

/// A chain with the gas subsidy on (the floor, the platform's and an account's daily wei) and
/// its sponsor funded.
async fn subsidised(floor: u128, daily: u128, tenant_daily: u128) -> (Anvil, TestApp) {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let app = chain_app(&anvil.url, registry)
        .env("MINICLAW_GAS_FLOOR_WEI", &floor.to_string())
        .env("MINICLAW_GAS_DAILY_BUDGET_WEI", &daily.to_string())
        .env("MINICLAW_GAS_TENANT_DAILY_WEI", &tenant_daily.to_string())
        .spawn()
        .await;
    let sponsor = app.send(app.admin(Method::GET, "/v1/admin/identity/sponsor")).await.json();
    anvil.set_balance(sponsor["address"].as_str().unwrap(), U256::from(ETH)).await;
    (anvil, app)
}

#[tokio::test]
async fn the_gas_subsidy_tops_wallets_up_within_the_daily_budget() {
    let floor = 10 * MILLI;
    let (anvil, app) = subsidised(floor, 15 * MILLI, 9 * MILLI).await;
    let alice = app.signup("alice@example.com").await;
    let (ada, ada_wallet) = funded_agent(&app, &anvil, &alice, "Ada", 2 * MILLI).await;
    let (ann, _) = funded_agent(&app, &anvil, &alice, "Ann", 0).await;
    let gas = |agent: &str| format!("/v1/hosted-agents/{agent}/wallet/gas");

    // A new account gets nothing (a week by default): throwaway accounts cannot drain the budget.
    let r = call(&app, &alice, Method::POST, &gas(&ada), None).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (403, "gas_account_too_new".into()), "{}", r.text);
    let age = |who: &str| {
        let app = &app;
        let who = who.to_string();
        async move {
            sqlx::query(
                "UPDATE tenants SET created_at = now() - interval '8 days'
                  WHERE id = (SELECT tenant_id FROM owners WHERE email = $1)",
            )
            .bind(who)
            .execute(app.pool())
            .await
            .unwrap();
        }
    };
    age("alice@example.com").await;

    let r = call(&app, &alice, Method::POST, &gas(&ada), None).await;
    assert_eq!((r.status.as_u16(), r.json()["topped_up"].as_bool()), (200, Some(true)), "{}", r.text);
    assert_eq!(r.json()["topup"]["amount_wei"], (8 * MILLI).to_string(), "up to the floor");
    let r = call(&app, &alice, Method::POST, &gas(&ada), None).await;
    assert_eq!(r.json()["topped_up"], false, "one on its way already: {}", r.text);
    settle_jobs(&app).await;
    assert_eq!(anvil.balance(&ada_wallet).await, U256::from(floor));
    let r = call(&app, &alice, Method::POST, &gas(&ada), None).await;
    assert_eq!(r.json()["topped_up"], false, "at the floor: {}", r.text);
    anvil.set_balance(&ada_wallet, U256::ZERO).await;
    let r = call(&app, &alice, Method::POST, &gas(&ada), None).await;
    assert!(
        r.json()["reason"].as_str().unwrap().contains("one top-up per agent a day"),
        "emptied on purpose: {}",
        r.text
    );
    // The subsidy pays gas, not transfers: the topped-up wallet sends no native value today.
    let send = json!({ "to": "0x70997970c51812dc3a010c7d01b93b7d6ce1e8f0", "value_wei": "1000" });
    let r = call(&app, &alice, Method::POST, &format!("/v1/hosted-agents/{ada}/wallet/send"), Some(send)).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("gas top-up"), "{}", r.text);
    // Ann needs 10 milli-ETH: Alice's account already got 8 of its 9 today.
    let r = call(&app, &alice, Method::POST, &gas(&ann), None).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (422, "gas_account_cap".into()), "{}", r.text);
    // Another account's agent needs 8 (within its account's 9): 8 of the platform's 15 are spent today.
    let bob = app.signup("bob@example.com").await;
    age("bob@example.com").await;
    let (bea, _) = funded_agent(&app, &anvil, &bob, "Bea", 2 * MILLI).await;
    let r = call(&app, &bob, Method::POST, &gas(&bea), None).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (422, "gas_budget_exhausted".into()), "{}", r.text);
    let s = call(&app, &alice, Method::GET, &gas(&ada), None).await.json();
    assert_eq!(
        (s["spent_today_wei"].as_str(), s["topups"][0]["status"].as_str()),
        (Some((8 * MILLI).to_string().as_str()), Some("confirmed")),
        "{s}"
    );
}

#[tokio::test]
async fn a_send_waiting_for_confirmation_never_carries_the_subsidy_away() {
    let (anvil, app) = subsidised(10 * MILLI, 15 * MILLI, 15 * MILLI).await;
    let alice = app.signup("alice@example.com").await;
    sqlx::query("UPDATE tenants SET created_at = now() - interval '8 days' WHERE id = $1::uuid")
        .bind(&alice.tenant_id)
        .execute(app.pool())
        .await
        .unwrap();
    let (ada, _) = funded_agent(&app, &anvil, &alice, "Ada", 2 * MILLI).await;
    let path = |rest: &str| format!("/v1/hosted-agents/{ada}{rest}");
    let limits = json!({ "max_per_tx_wei": ETH.to_string(), "max_per_day_wei": (10 * ETH).to_string(),
                         "confirm_above_wei": "100" });
    assert_eq!(call(&app, &alice, Method::PUT, &path("/wallet/limits"), Some(limits)).await.status, 200);

    // A send that waits for the owner: while it waits, the subsidy tops nothing up.
    let send = json!({ "to": "0x000000000000000000000000000000000000dEaD", "value_wei": (5 * MILLI).to_string() });
    let r = call(&app, &alice, Method::POST, &path("/wallet/send"), Some(send)).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (202, Some("awaiting_confirmation")), "{}", r.text);
    let waiting = r.json()["id"].as_str().unwrap().to_string();
    let r = call(&app, &alice, Method::POST, &path("/wallet/gas"), None).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("a native send of this wallet is waiting"), "{}", r.text);

    // Had a top-up landed meanwhile (here: given while the send was set aside), confirming
    // the send is judged again and refused: the sponsor's wei never reaches 0x…dEaD.
    let set = |status: &str| {
        sqlx::query("UPDATE wallet_transactions SET status = $2 WHERE id = $1::uuid")
            .bind(waiting.clone())
            .bind(status.to_string())
            .execute(app.pool())
    };
    set("cancelled").await.unwrap();
    let r = call(&app, &alice, Method::POST, &path("/wallet/gas"), None).await;
    assert_eq!((r.status.as_u16(), r.json()["topped_up"].as_bool()), (200, Some(true)), "{}", r.text);
    settle_jobs(&app).await;
    set("awaiting_confirmation").await.unwrap();
    let r = call(&app, &alice, Method::POST, &path(&format!("/wallet/transactions/{waiting}/confirm")), None).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("gas top-up from the platform since the send was asked"), "{}", r.text);
    settle_jobs(&app).await;
    assert_eq!(anvil.balance("0x000000000000000000000000000000000000dEaD").await, U256::ZERO);
    let status: String = sqlx::query_scalar("SELECT status FROM wallet_transactions WHERE id = $1::uuid")
        .bind(&waiting)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(status, "awaiting_confirmation", "still the owner's to cancel");
}
