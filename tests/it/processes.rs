//! Tests that run the real `miniclaw` binary: configuration errors, the embedded cluster, and
//! two worker processes sharing one queue.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use miniclaw::jobs::{NewJob, queue};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use sqlx::postgres::PgConnectOptions;

use crate::common::TestDb;

const BIN: &str = env!("CARGO_BIN_EXE_miniclaw");

pub(crate) fn miniclaw(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args).env_clear().env("PATH", std::env::var("PATH").unwrap_or_default()).env("RUST_LOG", "miniclaw=info");
    if let Ok(home) = std::env::var("HOME") {
        cmd.env("HOME", home);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Stops a child with SIGTERM and waits (bounded) for it to exit.
pub(crate) fn terminate(child: &mut Child) -> std::process::ExitStatus {
    let _ = kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM);
    let deadline = Instant::now() + Duration::from_secs(40);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("process did not stop within 40 s of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub(crate) async fn wait_ready(port: u16, child: &mut Child) {
    let client = reqwest::Client::new();
    for _ in 0..600 {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("server exited early: {status}");
        }
        if let Ok(r) = client.get(format!("http://127.0.0.1:{port}/readyz")).send().await
            && r.status() == 200
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("server not ready within 60 s");
}

fn postmaster_running(pgdata: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(pgdata.join("postmaster.pid")) else { return false };
    let pid: i32 = text.lines().next().unwrap_or("0").trim().parse().unwrap_or(0);
    pid > 0 && kill(Pid::from_raw(pid), None).is_ok()
}

#[test]
fn invalid_config_exits_non_zero_naming_the_variable() {
    for (var, value) in [("MINICLAW_ADDR", "nowhere"), ("DATABASE_URL", "mysql://db"), ("MINICLAW_EMBEDDER", "bert")] {
        let out = miniclaw(&["serve"], &[(var, value)]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{var}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(var), "{var}: {stderr}");
    }
}

#[tokio::test]
async fn serve_without_database_url_runs_its_own_cluster_and_keeps_data_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    // When tests run as root the cluster runs as `postgres`, which must reach the data dir.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let data = dir.path().join("data");
    let data_s = data.to_str().unwrap();
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let env = [("MINICLAW_DATA_DIR", data_s), ("MINICLAW_ADDR", addr.as_str()), ("MINICLAW_EMBEDDER", "hash")];

    let mut server = miniclaw(&["serve"], &env).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    wait_ready(port, &mut server).await;
    let pgdata = data.join("pg");

    // The first start prints a first owner login that works.
    let creds = std::fs::read_to_string(data.join("first-login.txt")).expect("first login saved");
    let field = |name: &str| creds.lines().find_map(|l| l.strip_prefix(name)).unwrap().trim().to_string();
    let (email, password) = (field("email:"), field("password:"));
    let login = reqwest::Client::new()
        .post(format!("http://{addr}/v1/auth/login"))
        .json(&serde_json::json!({ "email": email, "password": password }))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200);
    let mut banner = String::new();
    {
        // The banner, up to its first-login line (bounded: it is a few lines long).
        use std::io::BufRead;
        let mut stdout = std::io::BufReader::new(server.stdout.take().unwrap());
        for _ in 0..40 {
            let mut line = String::new();
            if stdout.read_line(&mut line).unwrap() == 0 {
                break;
            }
            banner.push_str(&line);
            if line.contains("first login") {
                break;
            }
        }
    }
    assert!(banner.contains(&format!("http://{addr}")) && banner.contains("first-login.txt"), "{banner}");
    assert!(!banner.contains(&password), "the password is not printed: {banner}");
    assert!(pgdata.join("PG_VERSION").exists(), "cluster created under MINICLAW_DATA_DIR");
    assert!(postmaster_running(&pgdata));

    // Write something through the cluster's socket.
    let socket = std::fs::read_dir(&data).unwrap().flatten().any(|e| e.file_name() == "run");
    assert!(socket, "socket dir inside the data dir");
    let opts = PgConnectOptions::new().socket(data.join("run")).port(5432).username("postgres").database("miniclaw");
    let pool = sqlx::PgPool::connect_with(opts.clone()).await.unwrap();
    let vector: String = sqlx::query_scalar("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(!vector.is_empty());
    queue::enqueue(
        &pool,
        NewJob::new("pipeline_health")
            .idempotency_key("survives-restart")
            .run_at(chrono::Utc::now() + chrono::Duration::days(30)),
    )
    .await
    .unwrap();
    pool.close().await;

    let status = terminate(&mut server);
    assert!(status.success(), "clean exit on SIGTERM: {status}");
    assert!(!postmaster_running(&pgdata), "no cluster left running after SIGTERM");

    // Second start: same data, no new initdb.
    let mut server = miniclaw(&["serve"], &env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    wait_ready(port, &mut server).await;
    let pool = sqlx::PgPool::connect_with(opts).await.unwrap();
    let kept: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs WHERE idempotency_key = 'survives-restart'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(kept, 1, "data survives a restart");
    pool.close().await;

    // Killed outright, the server still takes its cluster down (parent-death signal).
    server.kill().unwrap();
    server.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while postmaster_running(&pgdata) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!postmaster_running(&pgdata), "no cluster left running after SIGKILL");
}

#[tokio::test]
async fn serve_with_database_url_never_starts_a_cluster() {
    let db = TestDb::empty().await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let env = [
        ("DATABASE_URL", db.url.as_str()),
        ("MINICLAW_DATA_DIR", data.to_str().unwrap()),
        ("MINICLAW_ADDR", addr.as_str()),
        ("MINICLAW_EMBEDDER", "hash"),
    ];
    let mut server = miniclaw(&["serve"], &env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    wait_ready(port, &mut server).await;
    assert!(!data.join("pg").exists(), "no embedded cluster with DATABASE_URL");
    let applied: i64 = sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations").fetch_one(&db.pool).await.unwrap();
    assert!(applied >= 1, "serve applied the migrations");
    assert!(terminate(&mut server).success());
}

#[tokio::test]
async fn migrate_and_doctor_against_database_url() {
    let db = TestDb::empty().await;
    let dir = tempfile::tempdir().unwrap();
    let env = [("DATABASE_URL", db.url.as_str()), ("MINICLAW_EMBEDDER", "hash")];
    let out = miniclaw(&["migrate"], &env).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 pending"));

    let out = miniclaw(&["doctor"], &env).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for check in ["database", "pgvector", "migrations", "model files", "providers", "job queue"] {
        assert!(stdout.contains(check), "doctor reports {check}: {stdout}");
    }

    // A missing model is a problem with a fix, and a non-zero exit.
    let model_dir = dir.path().join("no-model");
    let env = [
        ("DATABASE_URL", db.url.as_str()),
        ("MINICLAW_EMBEDDER", "minilm"),
        ("MINICLAW_MODEL_DIR", model_dir.to_str().unwrap()),
    ];
    let out = miniclaw(&["doctor"], &env).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("PROBLEM") && stdout.contains("scripts/setup.sh"), "{stdout}");

    // An unreachable database too.
    let env = [("DATABASE_URL", "postgres://postgres@127.0.0.1:1/none"), ("MINICLAW_EMBEDDER", "hash")];
    let out = miniclaw(&["doctor"], &env).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("PROBLEM  database"));
}

#[tokio::test]
async fn run_cycle_from_the_cli() {
    let db = TestDb::new().await;
    let env = [("DATABASE_URL", db.url.as_str()), ("MINICLAW_EMBEDDER", "hash")];
    let out = miniclaw(&["run-cycle", "pipeline_health"], &env).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let job: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(job["status"], "done");

    let out = miniclaw(&["run-cycle", "warp_drive"], &env).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown cycle"));
}

#[tokio::test]
async fn two_worker_processes_never_run_the_same_job_twice() {
    let db = TestDb::new().await;
    const JOBS: usize = 1500;
    let mut tx = db.pool.begin().await.unwrap();
    let mut ids = Vec::with_capacity(JOBS);
    for _ in 0..JOBS {
        ids.push(queue::enqueue(&mut *tx, NewJob::new("pipeline_health")).await.unwrap().id);
    }
    tx.commit().await.unwrap();
    // Only these jobs are counted: the workers' own schedule may add a run of the cycle.

    let env = [
        ("DATABASE_URL", db.url.as_str()),
        ("MINICLAW_EMBEDDER", "hash"),
        ("MINICLAW_WORKER_POLL_MS", "50"),
        ("MINICLAW_WORKER_CONCURRENCY", "4"),
    ];
    let mut a = miniclaw(&["worker"], &env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let mut b = miniclaw(&["worker"], &env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();

    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let done: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs WHERE id = ANY($1) AND status = 'done'")
            .bind(&ids)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        if done as usize >= JOBS {
            break;
        }
        assert!(Instant::now() < deadline, "only {done}/{JOBS} jobs done after 120 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(terminate(&mut a).success());
    assert!(terminate(&mut b).success());

    // Every job ran exactly once (a second lease would have raised `attempts`), and both
    // processes took part.
    let rows: Vec<(i32, Option<String>)> = sqlx::query_as("SELECT attempts, locked_by FROM jobs WHERE id = ANY($1)")
        .bind(&ids)
        .fetch_all(&db.pool)
        .await
        .unwrap();
    assert_eq!(rows.len(), JOBS);
    assert!(rows.iter().all(|(attempts, _)| *attempts == 1), "a job was leased twice");
    let mut workers: Vec<String> =
        rows.iter().filter_map(|(_, w)| w.as_ref().map(|w| w.split(':').nth(1).unwrap_or("").to_string())).collect();
    workers.sort();
    workers.dedup();
    assert_eq!(workers.len(), 2, "both worker processes ran jobs: {workers:?}");
}

#[tokio::test]
async fn keys_create_from_the_cli() {
    let app = crate::common::TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent =
        app.create_agent(&owner, serde_json::json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let env = [("DATABASE_URL", app.db.url.as_str()), ("MINICLAW_EMBEDDER", "hash")];
    let out =
        miniclaw(&["keys", "create", "--agent", &agent, "--scopes", "agent:read,chat:write"], &env).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let key = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let r = app.send(app.as_bearer(&key, reqwest::Method::GET, &format!("/v1/hosted-agents/{agent}"))).await;
    assert_eq!(r.status, 200);
    let out = miniclaw(&["keys", "create", "--agent", &agent, "--scopes", "root"], &env).output().unwrap();
    assert!(!out.status.success());
}

/// `serve` on `port` against `db` with the hashing embedder and no worker, ready.
pub(crate) async fn api_only_server(db: &TestDb, port: u16) -> Child {
    let addr = format!("127.0.0.1:{port}");
    let env = [
        ("DATABASE_URL", db.url.as_str()),
        ("MINICLAW_ADDR", addr.as_str()),
        ("MINICLAW_EMBEDDER", "hash"),
        ("MINICLAW_WORKER", "false"),
    ];
    let mut server = miniclaw(&["serve"], &env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    wait_ready(port, &mut server).await;
    server
}

/// Signs Ada up on a running server and creates her agent: (session token, tenant id, agent id).
pub(crate) async fn ada_and_agent(http: &reqwest::Client, base: &str) -> (String, String, String) {
    let body = serde_json::json!({ "email": "ada@example.com", "password": "correct horse battery" });
    let signup = post(http, format!("{base}/v1/auth/signup"), None, body).await;
    let token = signup["session_token"].as_str().unwrap().to_string();
    let tenant = signup["tenant"]["id"].as_str().unwrap().to_string();
    let agent =
        post(http, format!("{base}/v1/hosted-agents"), Some(&token), serde_json::json!({ "name": "Ada" })).await;
    (token, tenant, agent["id"].as_str().unwrap().to_string())
}

/// A JSON POST that must succeed; its JSON answer.
pub(crate) async fn post(
    http: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: serde_json::Value,
) -> serde_json::Value {
    let mut req = http.post(url).json(&body);
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    let r = req.send().await.unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    r.json().await.unwrap()
}

/// Post-turn learning is durable (the statement that finishes a turn queues it): a server killed
/// outright right after its reply loses nothing, and a fresh process extracts the memories.
#[tokio::test]
async fn a_server_killed_right_after_a_reply_loses_nothing_and_a_fresh_worker_extracts_the_memory() {
    use serde_json::json;
    let db = TestDb::new().await;
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    // An API-only process: whatever learning it does not finish before dying must survive it.
    let mut server = api_only_server(&db, port).await;
    let http = reqwest::Client::new();
    let (token, _, agent) = ada_and_agent(&http, &base).await;
    let mut conversation: Option<String> = None;
    for message in
        ["My name is Alice and I live in Vienna.", "I really enjoy playing chess with my friends on weekends."]
    {
        let chat = json!({ "message": message, "conversation_id": conversation });
        let reply = post(&http, format!("{base}/v1/hosted-agents/{agent}/chat"), Some(&token), chat).await;
        conversation = reply["conversation_id"].as_str().map(str::to_string);
    }
    // SIGKILL right after the second reply: no shutdown, nothing in the process survives.
    server.kill().unwrap();
    server.wait().unwrap();
    let count = |sql: &'static str| {
        let pool = db.pool.clone();
        async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&pool).await.unwrap() }
    };
    assert_eq!(count("SELECT count(*) FROM agent_memories").await, 0);
    assert_eq!(count("SELECT count(*) FROM extraction_queue").await, 2, "both messages wait in the batch");
    assert_eq!(count("SELECT count(*) FROM jobs WHERE kind = 'chat_extract' AND status = 'queued'").await, 1);

    // Any worker process takes the work up.
    let worker_env =
        [("DATABASE_URL", db.url.as_str()), ("MINICLAW_EMBEDDER", "hash"), ("MINICLAW_WORKER_POLL_MS", "50")];
    let mut worker = miniclaw(&["worker"], &worker_env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while count("SELECT count(*) FROM jobs WHERE kind = 'chat_extract' AND status = 'done'").await == 0 {
        assert!(Instant::now() < deadline, "the fresh worker did not run the extraction within 60 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(terminate(&mut worker).success());
    let memories: Vec<String> =
        sqlx::query_scalar("SELECT content FROM agent_memories ORDER BY content").fetch_all(&db.pool).await.unwrap();
    assert!(memories.iter().any(|m| m == "The user's name is Alice"), "{memories:?}");
    assert!(memories.len() >= 3, "name, city and chess: {memories:?}");
    assert_eq!(count("SELECT count(*) FROM extraction_queue").await, 0);
}
