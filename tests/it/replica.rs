//! A streaming read replica (docs/SCALING.md): a private primary and a standby made from it with
//! `pg_basebackup -R`, on loopback ports of their own, and `miniclaw serve` with
//! `DATABASE_READ_URL` pointing at the standby. Lists are read from the replica while it keeps
//! up; a writer reads its own writes; a replica whose replay is paused is read only until it
//! trails past the bound; a stopped replica costs no request; a restarted one is read again.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::db_restart::PrivateCluster;
use crate::faults::{Server, owner_and_agent};

const MAX_LAG_MS: u64 = 3000;

/// Reads the server's count of reads that went to `target`.
async fn reads(http: &reqwest::Client, base: &str, target: &str) -> u64 {
    let text = http.get(format!("{base}/metrics")).send().await.unwrap().text().await.unwrap();
    let prefix = format!("db_reads_total{{target=\"{target}\"}} ");
    text.lines().find_map(|l| l.strip_prefix(&prefix)).map(|v| v.trim().parse::<f64>().unwrap() as u64).unwrap_or(0)
}

/// The memory texts a list by `credential` returns (with the extra headers), and where it was
/// read, told by the counters moving.
async fn list(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    credential: &str,
    headers: &[(&str, &str)],
) -> (Vec<String>, &'static str) {
    let before = reads(http, base, "replica").await;
    let mut req = http.get(format!("{base}{path}/memories")).bearer_auth(credential);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = req.send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let body: Vec<Value> = resp.json().await.unwrap();
    let texts = body.iter().map(|m| m["content"].as_str().unwrap().to_string()).collect();
    let from = if reads(http, base, "replica").await > before { "replica" } else { "primary" };
    (texts, from)
}

/// Lists by `credential` until one is read from `want`, within `within`.
async fn until_read_from(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    credential: &str,
    want: &str,
    within: Duration,
) -> Vec<String> {
    let deadline = Instant::now() + within;
    loop {
        let (texts, from) = list(http, base, path, credential, &[]).await;
        if from == want {
            return texts;
        }
        assert!(Instant::now() < deadline, "no list was read from the {want} within {within:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_read_a_streaming_replica_that_keeps_up_and_the_primary_otherwise() {
    let primary = PrivateCluster::create();
    primary.start();
    primary.execute("postgres", "CREATE DATABASE miniclaw").await;
    let standby = PrivateCluster::standby_of(&primary);
    standby.start();
    let (primary_url, standby_url) = (primary.url("miniclaw"), standby.url("miniclaw"));
    let max_lag = MAX_LAG_MS.to_string();
    let env = [
        ("DATABASE_URL", primary_url.as_str()),
        ("DATABASE_READ_URL", standby_url.as_str()),
        ("MINICLAW_READ_MAX_LAG_MS", max_lag.as_str()),
        ("MINICLAW_RATE_LIMIT_IP", "0"),
        ("MINICLAW_RATE_LIMIT_KEY", "0"),
    ];
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(&data, &env).await;
    let base = server.base.clone();
    let http = reqwest::Client::new();

    let (owner, agent) = owner_and_agent(&http, &base).await;
    let path = format!("/v1/hosted-agents/{agent}");
    // A miniapp's key: another credential of the same account, which did not write.
    let made = http
        .post(format!("{base}{path}/api-keys"))
        .bearer_auth(&owner)
        .json(&json!({ "name": "app", "scopes": ["memories:read"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), StatusCode::CREATED);
    let made: Value = made.json().await.unwrap();
    let key = made["key"].as_str().unwrap().to_string();
    let remember = |text: &'static str| {
        let req = http
            .post(format!("{base}{path}/memories"))
            .bearer_auth(&owner)
            .json(&json!({ "content": text, "category": "context" }));
        async move {
            let resp = req.send().await.unwrap();
            assert_eq!(resp.status(), StatusCode::CREATED);
            resp.headers()["miniclaw-wrote-at"].to_str().unwrap().to_string()
        }
    };
    remember("Ada waters the fern on Sundays.").await;

    // The replica catches up and is read: the key's list has what the owner wrote.
    let texts = until_read_from(&http, &base, &path, &key, "replica", Duration::from_secs(20)).await;
    assert_eq!(texts, ["Ada waters the fern on Sundays."]);

    // Lag it: replay paused, the replica keeps what it has and trails more with every write.
    standby.execute("miniclaw", "SELECT pg_wal_replay_pause()").await;
    let paused = Instant::now();
    let wrote_at = remember("Ada's fern is a maidenhair.").await;
    // The writer reads its own write at once: from the primary.
    let (texts, from) = list(&http, &base, &path, &owner, &[]).await;
    assert_eq!(from, "primary");
    assert!(texts.iter().any(|t| t == "Ada's fern is a maidenhair."), "{texts:?}");
    // So does a caller that hands back the write's time, whichever process it reaches.
    let (texts, from) = list(&http, &base, &path, &key, &[("Miniclaw-Wrote-At", &wrote_at)]).await;
    assert_eq!(from, "primary");
    assert!(texts.iter().any(|t| t == "Ada's fern is a maidenhair."), "{texts:?}");
    // Another credential may read the replica while it trails by less than the bound: what it
    // gets is the replica's (stale) view.
    let (texts, from) = list(&http, &base, &path, &key, &[]).await;
    if paused.elapsed() < Duration::from_millis(MAX_LAG_MS / 2) {
        assert_eq!(from, "replica", "the replica trails by less than the bound");
    }
    if from == "replica" {
        assert_eq!(texts, ["Ada waters the fern on Sundays."], "the paused replica has not replayed the write");
    }
    // Past the bound every read goes to the primary, and sees everything.
    tokio::time::sleep(Duration::from_millis(MAX_LAG_MS + 500)).await;
    for _ in 0..3 {
        let (texts, from) = list(&http, &base, &path, &key, &[]).await;
        assert_eq!(from, "primary", "a replica trailing past the bound is not read");
        assert_eq!(texts.len(), 2, "{texts:?}");
    }

    // Replay resumes: the replica is read again and has both.
    standby.execute("miniclaw", "SELECT pg_wal_replay_resume()").await;
    let texts = until_read_from(&http, &base, &path, &key, "replica", Duration::from_secs(20)).await;
    assert_eq!(texts.len(), 2, "{texts:?}");

    // The replica fails outright: no read is lost, each is answered from the primary.
    standby.crash();
    for _ in 0..20 {
        let (texts, _) = list(&http, &base, &path, &key, &[]).await;
        assert_eq!(texts.len(), 2, "{texts:?}");
    }
    let (_, from) = list(&http, &base, &path, &key, &[]).await;
    assert_eq!(from, "primary");
    // Back up, it is found and read again.
    standby.start();
    let texts = until_read_from(&http, &base, &path, &key, "replica", Duration::from_secs(30)).await;
    assert_eq!(texts.len(), 2, "{texts:?}");
    drop(server);
}
