//! SPEC I1 against a real EVM node (anvil): an agent registered on the IdentityRegistry by the
//! durable job, read back by an independent client; the registration file and its schema; the
//! faults (node down, wrong chain, no registry, no funds, a revert).

use alloy::primitives::U256;
use reqwest::Method;
use serde_json::{Value, json};

use crate::chain_support::{Anvil, Proxy, chain_client, chain_env};
use crate::common::{OwnedAgent, TestApp};

const ETH: u128 = 1_000_000_000_000_000_000;

async fn identity(agent: &OwnedAgent) -> Value {
    let r = agent.call(Method::GET, "/identity", None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

/// Asks for the registration (202, pending) and returns the wallet address it made.
async fn request(agent: &OwnedAgent) -> String {
    let r = agent.call(Method::POST, "/identity/register", None).await;
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(r.json()["status"], "pending");
    let w = agent.call(Method::GET, "/wallet", None).await;
    assert_eq!(w.status, 200, "{}", w.text);
    w.json()["address"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn an_agent_is_registered_on_chain_and_an_independent_client_reads_it_back() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let app = chain_env(TestApp::builder(), &anvil.url, registry).spawn().await;
    let agent = OwnedAgent::new(app).await;
    assert_eq!(identity(&agent).await["status"], "none");
    let public = agent.app.get(&format!("/agents/{}/registration.json", agent.id)).await;
    assert_eq!(public.status, 404, "not published before the owner asks");

    let wallet = request(&agent).await;
    anvil.set_balance(&wallet, U256::from(ETH)).await;
    let again = agent.call(Method::POST, "/identity/register", None).await;
    assert_eq!((again.status.as_u16(), again.error_code().as_str()), (409, "conflict"));
    agent.app.run_jobs().await;

    let id = identity(&agent).await;
    assert_eq!(id["status"], "registered", "{id}");
    assert_eq!(id["erc8004_agent_id"], 0, "ids start at 0");
    assert_eq!(id["agent_registry"], format!("eip155:31337:{}", registry.to_checksum(None)));
    assert_eq!(id["owner"], wallet);
    let tx_hash = id["tx_hash"].as_str().unwrap();
    let registration_url = agent.app.url(&format!("/agents/{}/registration.json", agent.id));
    assert_eq!(id["registration_url"], registration_url);

    // An independent client (ethers + fetch + ajv) reads what miniclaw wrote.
    let read = chain_client(&["read", &anvil.url, &registry.to_string(), "0"], None).await;
    assert_eq!(read["uri"], registration_url);
    assert_eq!(read["owner"].as_str().unwrap().to_lowercase(), wallet);
    assert_eq!(read["version"], "2.0.0");
    assert_eq!(read["registered"].as_array().unwrap().len(), 1);
    assert_eq!(read["status"], 200);
    assert_eq!(read["valid"], true, "the file follows the schema: {}", read["errors"]);
    let file = &read["file"];
    assert_eq!(file["type"], "https://eips.ethereum.org/EIPS/eip-8004#registration-v1");
    assert_eq!(file["name"], "Ada");
    assert_eq!(file["registrations"], json!([{ "agentId": 0, "agentRegistry": id["agent_registry"] }]));
    assert_eq!(file["active"], true);

    // The wallet's history has the confirmed registration; the gas was paid from the wallet.
    let history = agent.call(Method::GET, "/wallet/transactions", None).await.json();
    assert_eq!(history.as_array().unwrap().len(), 1);
    assert_eq!(history[0]["purpose"], "register");
    assert_eq!(history[0]["status"], "confirmed");
    assert_eq!(history[0]["tx_hash"], tx_hash);
    assert!(anvil.balance(&wallet).await < U256::from(ETH));

    // A profile change is sent to the registry (setAgentURI, debounced) and shows in the file.
    let rename_and_update = |name: &'static str| {
        let agent = &agent;
        async move {
            let r = agent.call(Method::PATCH, "", Some(json!({ "name": name }))).await;
            assert_eq!(r.status, 200, "{}", r.text);
            sqlx::query("UPDATE jobs SET run_at = now() WHERE kind = 'identity_update'")
                .execute(agent.app.pool())
                .await
                .unwrap();
            agent.app.run_jobs().await;
        }
    };
    rename_and_update("Ada Lovelace").await;
    let history = agent.call(Method::GET, "/wallet/transactions", None).await.json();
    assert_eq!(
        (history[0]["purpose"].as_str(), history[0]["status"].as_str()),
        (Some("set_agent_uri"), Some("confirmed"))
    );
    let file = agent.app.get(&format!("/agents/{}/registration.json", agent.id)).await.json();
    assert_eq!(file["name"], "Ada Lovelace");
    // An edit that leaves the registration file as it was sends nothing (no one pays for it).
    rename_and_update("Ada Lovelace").await;
    let again = agent.call(Method::GET, "/wallet/transactions", None).await.json();
    assert_eq!(again.as_array().unwrap().len(), history.as_array().unwrap().len(), "{again}");
    // Paid services make the agent an x402 seller, and the file says so while one is on offer.
    assert_eq!(file["x402Support"], false);
    let file_now = || async { agent.app.get(&format!("/agents/{}/registration.json", agent.id)).await.json() };
    let service = |title: &str, active: bool| json!({ "title": title, "price": 20, "active": active });
    // The registry entry is refreshed when x402Support changes (the first service on sale, the
    // last one off), not on every edit of a service.
    let refreshes = || async {
        let n: i64 =
            sqlx::query_scalar("SELECT count(*) FROM jobs WHERE kind = 'identity_update' AND status = 'queued'")
                .fetch_one(agent.app.pool())
                .await
                .unwrap();
        sqlx::query("DELETE FROM jobs WHERE kind = 'identity_update' AND status = 'queued'")
            .execute(agent.app.pool())
            .await
            .unwrap();
        n
    };
    let r = agent.call(Method::PUT, "/services/review", Some(service("Code review", true))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(file_now().await["x402Support"], true);
    assert_eq!(refreshes().await, 1);
    let r = agent.call(Method::PUT, "/services/review", Some(service("Careful code review", true))).await;
    assert!(r.status.is_success(), "{}", r.text);
    assert_eq!(refreshes().await, 0);
    let r = agent.call(Method::PUT, "/services/review", Some(service("Careful code review", false))).await;
    assert!(r.status.is_success(), "{}", r.text);
    assert_eq!(file_now().await["x402Support"], false);
    assert_eq!(refreshes().await, 1);
    // The file lists where other agents and clients reach this one: MCP and OpenAI too.
    let services = file_now().await["services"].clone();
    let mcp = services.as_array().unwrap().iter().find(|s| s["name"] == "MCP").unwrap().clone();
    assert_eq!(mcp["endpoint"], agent.app.url("/mcp"));
    assert!(services.as_array().unwrap().iter().any(|s| s["name"] == "OpenAI" && s["version"] == "v1"));

    // What changes the file without an owner's edit (the platform's public URL, an endpoint a
    // new version serves) is found by the hourly drift check, which queues the refresh only for
    // an agent whose announced file differs.
    let drift = || async {
        sqlx::query("INSERT INTO jobs (id, kind, payload) VALUES (gen_random_uuid(), 'identity_drift', '{}')")
            .execute(agent.app.pool())
            .await
            .unwrap();
        agent.app.run_jobs().await;
        sqlx::query("UPDATE jobs SET run_at = now() WHERE kind = 'identity_update' AND status = 'queued'")
            .execute(agent.app.pool())
            .await
            .unwrap();
        agent.app.run_jobs().await;
    };
    refreshes().await;
    let before = agent.call(Method::GET, "/wallet/transactions", None).await.json().as_array().unwrap().len();
    sqlx::query("UPDATE agent_identities SET announced_sha256 = '\\x00'").execute(agent.app.pool()).await.unwrap();
    drift().await;
    let after = agent.call(Method::GET, "/wallet/transactions", None).await.json();
    assert_eq!(after.as_array().unwrap().len(), before + 1, "the changed file was announced: {after}");
    assert_eq!(after[0]["purpose"], "set_agent_uri");
    drift().await;
    let unchanged = agent.call(Method::GET, "/wallet/transactions", None).await.json();
    assert_eq!(unchanged.as_array().unwrap().len(), before + 1, "nothing to announce: {unchanged}");

    // A second agent gets the next id.
    let second =
        agent.app.create_agent(&agent.owner, json!({ "name": "Grace" })).await["id"].as_str().unwrap().to_string();
    let grace = OwnedAgent { app: agent.app, owner: agent.owner.clone(), id: second };
    let wallet2 = request(&grace).await;
    anvil.set_balance(&wallet2, U256::from(ETH)).await;
    grace.app.run_jobs().await;
    assert_eq!(identity(&grace).await["erc8004_agent_id"], 1);

    // A domain moves the registered URI there (setAgentURI, after the debounce) and the domain's
    // well-known path serves the file by Host.
    let r = grace
        .call(
            Method::PATCH,
            "/identity",
            Some(json!({ "domain": "Grace.Example", "image": "https://grace.example/a.png" })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Proven (as its TXT record would; `new_accounts` looks one up on a real DNS server).
    sqlx::query("UPDATE agent_identities SET domain_verified_at = now() WHERE agent_id = $1::uuid")
        .bind(&grace.id)
        .execute(grace.app.pool())
        .await
        .unwrap();
    sqlx::query("UPDATE jobs SET run_at = now() WHERE kind = 'identity_update'")
        .execute(grace.app.pool())
        .await
        .unwrap();
    grace.app.run_jobs().await;
    // (grace.example does not resolve here: the client fetches the file from the platform.)
    let served_at = grace.app.url(&format!("/agents/{}/registration.json", grace.id));
    let read = chain_client(&["read", &anvil.url, &registry.to_string(), "1", &served_at], None).await;
    assert_eq!(read["uri"], "https://grace.example/.well-known/agent-registration.json");
    assert_eq!(
        (read["valid"].as_bool(), read["file"]["image"].as_str()),
        (Some(true), Some("https://grace.example/a.png"))
    );
    assert_eq!(identity(&grace).await["agent_uri"], "https://grace.example/.well-known/agent-registration.json");
    let well_known = grace
        .app
        .send(
            grace.app.request(Method::GET, "/.well-known/agent-registration.json").header("host", "grace.example:443"),
        )
        .await;
    assert_eq!(well_known.status, 200, "{}", well_known.text);
    let file = well_known.json();
    assert_eq!((file["name"].as_str(), file["image"].as_str()), (Some("Grace"), Some("https://grace.example/a.png")));
    let checked = chain_client(&["validate"], Some(&well_known.text)).await;
    assert_eq!(checked["valid"], true, "{checked}");
    let other = grace.app.send(grace.app.request(Method::GET, "/.well-known/agent-registration.json")).await;
    assert_eq!(other.status, 404);
}

#[tokio::test]
async fn what_the_sponsor_pays_is_held_against_the_spending_limits_and_booked() {
    // The native coin at $3,000 and a platform day of 10 cents: a registration's gas is about
    // 50 cents. The first is admitted (nothing spent yet) and booked at what it really cost;
    // the next account's finds the day spent and is refused before anything is signed.
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let builder = chain_env(TestApp::builder(), &anvil.url, registry)
        .env("MINICLAW_IDENTITY_SIGNER", "sponsor")
        .env("MINICLAW_NATIVE_USD", "3000")
        .env("MINICLAW_GLOBAL_DAILY_USD", "0.1")
        .admin_password("operator");
    let ada = OwnedAgent::new(builder.spawn().await).await;
    let app = &ada.app;
    let sponsor = app.send(app.admin(Method::GET, "/v1/admin/identity/sponsor")).await.json();
    let address = sponsor["address"].as_str().unwrap().to_string();
    anvil.set_balance(&address, U256::from(ETH)).await;

    assert_eq!(ada.call(Method::POST, "/identity/register", None).await.status, 202);
    app.run_jobs().await;
    assert_eq!(identity(&ada).await["status"], "registered");
    let paid_wei = U256::from(ETH) - anvil.balance(&address).await;
    let paid_usd = paid_wei.to::<u128>() as f64 / 1e18 * 3000.0;
    let (platform_day, held): (f64, f64) = sqlx::query_as(
        "SELECT (SELECT coalesce(sum(cost_usd), 0) FROM llm_platform_spend),
                (SELECT coalesce(sum(usd), 0) FROM llm_turn_reservations)",
    )
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert!(paid_usd > 0.1, "one registration is past the day's cap: {paid_usd}");
    assert!((platform_day - paid_usd).abs() < 1e-9, "booked {platform_day}, paid {paid_usd}");
    assert_eq!(held, 0.0, "nothing is held once it is settled");

    let bob = app.signup("bob@example.com").await;
    let second = app.create_agent(&bob, json!({ "name": "Hopper" })).await["id"].as_str().unwrap().to_string();
    let register = app.as_bearer(&bob.token, Method::POST, &format!("/v1/hosted-agents/{second}/identity/register"));
    assert_eq!(app.send(register).await.status, 202);
    app.run_jobs().await;
    let r = app.send(app.as_bearer(&bob.token, Method::GET, &format!("/v1/hosted-agents/{second}/identity"))).await;
    let hopper = r.json();
    assert_eq!(hopper["status"], "failed", "{hopper}");
    assert!(hopper["reason"].as_str().unwrap_or_default().contains("spending limit"), "{hopper}");
    assert_eq!(U256::from(ETH) - anvil.balance(&address).await, paid_wei, "nothing more was paid");
    let signed: i64 =
        sqlx::query_scalar("SELECT count(*) FROM wallet_transactions").fetch_one(app.pool()).await.unwrap();
    assert_eq!(signed, 1, "nothing was signed for the refused registration");
}

#[tokio::test]
async fn with_the_sponsor_wallet_the_platform_registers_and_pays() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let builder = chain_env(TestApp::builder(), &anvil.url, registry)
        .env("MINICLAW_IDENTITY_SIGNER", "sponsor")
        .env("MINICLAW_SPONSOR_URI_UPDATES_PER_DAY", "1")
        .env("MINICLAW_SPONSOR_REGISTRATIONS_PER_DAY", "1")
        .admin_password("operator");
    let agent = OwnedAgent::new(builder.spawn().await).await;
    let sponsor = agent.app.send(agent.app.admin(Method::GET, "/v1/admin/identity/sponsor")).await;
    assert_eq!(sponsor.status, 200, "{}", sponsor.text);
    let sponsor = sponsor.json();
    assert_eq!((sponsor["in_use"].as_bool(), sponsor["balance_wei"].as_str()), (Some(true), Some("0")));
    let address = sponsor["address"].as_str().unwrap().to_string();
    anvil.set_balance(&address, U256::from(ETH)).await;

    let r = agent.call(Method::POST, "/identity/register", None).await;
    assert_eq!(r.status, 202, "{}", r.text);
    agent.app.run_jobs().await;
    let id = identity(&agent).await;
    assert_eq!((id["status"].as_str(), id["owner"].as_str()), (Some("registered"), Some(address.as_str())), "{id}");
    assert_eq!(agent.call(Method::GET, "/wallet", None).await.status, 404, "no agent wallet was needed");
    assert!(anvil.balance(&address).await < U256::from(ETH), "the sponsor paid the gas");
    let read = chain_client(&["read", &anvil.url, &registry.to_string(), "0"], None).await;
    assert_eq!(read["owner"].as_str().unwrap().to_lowercase(), address);
    // The sponsor pays for an account's registrations up to a daily count (1 here): another
    // agent of the account asks again tomorrow (429), and nothing is signed for it.
    let app = &agent.app;
    let second = app.create_agent(&agent.owner, json!({ "name": "Hopper" })).await["id"].as_str().unwrap().to_string();
    let r = app
        .send(app.as_bearer(&agent.owner.token, Method::POST, &format!("/v1/hosted-agents/{second}/identity/register")))
        .await;
    assert_eq!(r.status, 429, "{}", r.text);
    assert!(
        r.text.contains("MINICLAW_SPONSOR_REGISTRATIONS_PER_DAY") && r.headers.contains_key("retry-after"),
        "{}",
        r.text
    );

    // The sponsor pays for an account's registration updates up to a daily count (1 here): the
    // second edit of the day is announced tomorrow, not paid for now.
    let pool = agent.app.pool();
    for (n, description) in ["A careful agent", "A very careful agent"].into_iter().enumerate() {
        let r = agent.call(Method::PATCH, "/identity", Some(json!({ "description": description }))).await;
        assert!(r.status.is_success(), "{}", r.text);
        sqlx::query("UPDATE jobs SET run_at = now() WHERE kind = 'identity_update' AND status = 'queued'")
            .execute(pool)
            .await
            .unwrap();
        agent.app.run_jobs().await;
        let updates: i64 =
            sqlx::query_scalar("SELECT count(*) FROM wallet_transactions WHERE purpose = 'set_agent_uri'")
                .fetch_one(pool)
                .await
                .unwrap();
        assert_eq!(updates, 1, "after edit {n}");
    }
    let last: Value = sqlx::query_scalar(
        "SELECT result FROM jobs WHERE kind = 'identity_update' AND status = 'done' ORDER BY finished_at DESC LIMIT 1",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    assert!(last["reason"].as_str().unwrap().contains("MINICLAW_SPONSOR_URI_UPDATES_PER_DAY"), "{last}");
}

#[tokio::test]
async fn a_node_that_is_down_leaves_the_registration_pending_until_it_answers() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let proxy = Proxy::start(&anvil.url).await;
    let app = chain_env(TestApp::builder(), &proxy.url, registry).spawn().await;
    let agent = OwnedAgent::new(app).await;
    let wallet = request(&agent).await;
    anvil.set_balance(&wallet, U256::from(ETH)).await;

    proxy.set_up(false);
    agent.app.run_jobs().await;
    let id = identity(&agent).await;
    assert_eq!(id["status"], "pending", "{id}");
    assert!(id["reason"].as_str().unwrap().contains("unreachable"), "{id}");
    let (status, attempts, delay): (String, i32, f64) = sqlx::query_as(
        "SELECT status, attempts, extract(epoch FROM run_at - now())::float8 FROM jobs WHERE kind = 'identity_register'",
    )
    .fetch_one(agent.app.pool())
    .await
    .unwrap();
    assert_eq!((status.as_str(), attempts), ("queued", 1), "queued again, not lost");
    assert!(delay > 1.0, "retried after a backoff ({delay} s)");
    assert_eq!(id["stalled"], false, "its job is still at work");

    // The job uses up its attempts (a day of an unreachable node): the identity stays pending
    // and says it stalled; asking again resumes it with a fresh job, and nothing is sent twice.
    sqlx::query("UPDATE jobs SET status = 'dead', attempts = max_attempts WHERE kind = 'identity_register'")
        .execute(agent.app.pool())
        .await
        .unwrap();
    let id = identity(&agent).await;
    assert_eq!((id["status"].as_str(), id["stalled"].as_bool()), (Some("pending"), Some(true)), "{id}");
    proxy.set_up(true);
    let r = agent.call(Method::POST, "/identity/register", None).await;
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!((r.json()["status"].as_str(), r.json()["stalled"].as_bool()), (Some("pending"), Some(false)));
    let again = agent.call(Method::POST, "/identity/register", None).await;
    assert_eq!(again.status, 409, "one job at a time: {}", again.text);
    agent.app.run_jobs().await;
    let id = identity(&agent).await;
    assert_eq!(id["status"], "registered", "{id}");
    assert!(id["reason"].is_null());
    let sent: i64 = sqlx::query_scalar("SELECT count(*) FROM wallet_transactions WHERE purpose = 'register'")
        .fetch_one(agent.app.pool())
        .await
        .unwrap();
    assert_eq!(sent, 1, "one registration transaction");
    let resumed: i64 =
        sqlx::query_scalar("SELECT count(*) FROM agent_activity WHERE action = 'identity.registration_resumed'")
            .fetch_one(agent.app.pool())
            .await
            .unwrap();
    assert_eq!(resumed, 1);
}

#[tokio::test]
async fn an_unfunded_wallet_or_a_revert_fails_the_registration_with_the_reason() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let app = chain_env(TestApp::builder(), &anvil.url, registry).spawn().await;
    let agent = OwnedAgent::new(app).await;

    // No funds: the node refuses the transaction.
    request(&agent).await;
    agent.app.run_jobs().await;
    let id = identity(&agent).await;
    assert_eq!(id["status"], "failed", "{id}");
    assert!(id["reason"].as_str().unwrap().to_lowercase().contains("insufficient funds"), "{id}");

    // Funded, but the registry refuses: failed with the contract's reason. Asking again is allowed.
    let wallet = request(&agent).await;
    anvil.set_balance(&wallet, U256::from(ETH)).await;
    anvil.make_revert(registry, "registrations are closed").await;
    agent.app.run_jobs().await;
    let id = identity(&agent).await;
    assert_eq!(id["status"], "failed", "{id}");
    assert!(id["reason"].as_str().unwrap().contains("registrations are closed"), "{id}");
    let log = agent.call(Method::GET, "/activity", None).await.json();
    assert!(
        log.as_array()
            .unwrap()
            .iter()
            .any(|e| e["action"] == "identity.failed" && e["error"].as_str().unwrap().contains("closed"))
    );
}

#[tokio::test]
async fn a_node_on_another_chain_or_an_address_without_a_registry_is_refused_at_start() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let config = |chain: &str, address: &str| {
        let env: std::collections::HashMap<String, String> = [
            ("EVM_RPC_URL", anvil.url.as_str()),
            ("EVM_CHAIN_ID", chain),
            ("ERC8004_REGISTRY_ADDRESS", address),
            ("MINICLAW_EMBEDDER", "hash"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        miniclaw::config::Config::from_map(&env).unwrap()
    };
    let db = crate::common::TestDb::new().await;
    let start = async |c: miniclaw::config::Config| miniclaw::services(db.pool.clone(), &c).await;

    let wrong = format!("{:#}", start(config("8453", &registry.to_string())).await.err().expect("refused"));
    assert!(wrong.contains("serves chain 31337") && wrong.contains("EVM_CHAIN_ID is 8453"), "{wrong}");
    let nothing = "0x00000000000000000000000000000000000000aa";
    let empty = format!("{:#}", start(config("31337", nothing)).await.err().expect("refused"));
    assert!(empty.contains("not an ERC-8004 IdentityRegistry") && empty.contains("no contract"), "{empty}");
    assert!(start(config("31337", &registry.to_string())).await.is_ok());

    // doctor says the same.
    let checks = miniclaw::doctor::checks(&config("8453", &registry.to_string()), Err("skipped".into())).await;
    let chain = checks.iter().find(|c| c.name == "chain").unwrap();
    assert!(!chain.ok && chain.detail.contains("EVM_CHAIN_ID is 8453"), "{}", chain.detail);
    let checks = miniclaw::doctor::checks(&config("31337", &registry.to_string()), Err("skipped".into())).await;
    let chain = checks.iter().find(|c| c.name == "chain").unwrap();
    assert!(chain.ok && chain.detail.contains("version 2.0.0"), "{}", chain.detail);
}

#[tokio::test]
async fn without_a_configured_master_key_no_wallet_is_made() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let builder = TestApp::builder()
        .env("EVM_RPC_URL", &anvil.url)
        .env("EVM_CHAIN_ID", "31337")
        .env("ERC8004_REGISTRY_ADDRESS", &registry.to_string());
    let agent = OwnedAgent::new(builder.spawn().await).await;
    for (method, path) in [(Method::POST, "/wallet"), (Method::POST, "/identity/register")] {
        let r = agent.call(method, path, None).await;
        assert_eq!((r.status.as_u16(), r.error_code().as_str()), (422, "master_key_required"), "{path}");
        assert!(r.json()["error"]["message"].as_str().unwrap().contains("MINICLAW_MASTER_KEY"));
    }
    assert_eq!(identity(&agent).await["status"], "none");
    assert_eq!(agent.call(Method::GET, "/wallet", None).await.status, 404);
}

#[tokio::test]
async fn the_compiled_registry_matches_its_source() {
    let out = tokio::process::Command::new("node")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/contracts/build.mjs"))
        .arg("--check")
        .output()
        .await
        .expect("node runs");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

#[tokio::test]
async fn the_platforms_own_host_is_no_agents_domain() {
    let app = TestApp::builder().env("MINICLAW_PUBLIC_URL", "https://claw.example").spawn().await;
    let agent = OwnedAgent::new(app).await;
    for taken in ["claw.example", "CLAW.example.", "ada.claw.example"] {
        let r = agent.call(Method::PATCH, "/identity", Some(json!({ "domain": taken }))).await;
        assert_eq!((r.status.as_u16(), r.error_code().as_str()), (422, "domain_refused"), "{taken}: {}", r.text);
    }
    let r = agent.call(Method::PATCH, "/identity", Some(json!({ "domain": "ada.example" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
}
