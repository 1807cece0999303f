//! PgBouncer in transaction pooling in front of PostgreSQL (docs/SCALING.md): a server and a
//! second API process run every statement through PgBouncer 1.24 (built from Debian's source
//! package by `scripts/setup.sh --test`), with `DATABASE_DIRECT_URL` for what needs a session of
//! its own.
//! The worker is woken only by LISTEN (its polling is set to a minute), a revoked key is refused
//! at once by the other process (its cache hears the NOTIFY), reflections take and release
//! their session lock, and the pooler's own counters show the traffic went through it. Then two
//! API processes and two workers through it, one worker and one server killed outright.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::common::TestDb;
use crate::processes::{ada_and_agent, free_port, miniclaw, post, terminate};

/// A PgBouncer on a free loopback port, pooling transactions to the test server; stopped when
/// dropped.
struct Bouncer {
    port: u16,
    dir: tempfile::TempDir,
    child: Child,
}

impl Bouncer {
    fn start() -> Bouncer {
        let dir = tempfile::tempdir().unwrap();
        // PgBouncer refuses to run as root; the test server's `postgres` user runs it then, and
        // must be able to read its configuration and write its log.
        std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
        let port = free_port();
        let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
        let server = url::Url::parse(&crate::common::server_url()).unwrap();
        let ini = format!(
            "[databases]\n* = host={} port={} user={}\n\n[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {port}\n\
             unix_socket_dir =\nauth_type = any\npool_mode = transaction\nmax_client_conn = 400\n\
             default_pool_size = 20\nmax_prepared_statements = 200\n\
             ignore_startup_parameters = extra_float_digits,options\n\
             admin_users = {}\nlogfile = {}\npidfile = {}\n",
            server.host_str().unwrap_or("127.0.0.1"),
            server.port().unwrap_or(5432),
            server.username(),
            server.username(),
            path("pgbouncer.log"),
            path("pgbouncer.pid"),
        );
        std::fs::write(path("pgbouncer.ini"), ini).unwrap();
        let bin = std::env::var("MINICLAW_PGBOUNCER").unwrap_or_else(|_| {
            miniclaw::config::default_cache_dir().join("pgbouncer/bin/pgbouncer").to_string_lossy().into_owned()
        });
        assert!(std::path::Path::new(&bin).exists(), "no {bin}: scripts/setup.sh --test builds it");
        let root = nix::unistd::Uid::effective().is_root();
        // Run as `postgres`, it may not reach into root's cache: it runs from the scratch folder.
        let bin = if root {
            std::fs::copy(&bin, path("pgbouncer")).unwrap();
            path("pgbouncer")
        } else {
            bin
        };
        let bin = bin.as_str();
        let mut cmd = if root { Command::new("runuser") } else { Command::new(bin) };
        if root {
            cmd.args(["-u", "postgres", "--", bin]);
        }
        let child =
            cmd.arg(path("pgbouncer.ini")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("pgbouncer runs");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            let log = std::fs::read_to_string(path("pgbouncer.log")).unwrap_or_default();
            assert!(Instant::now() < deadline, "pgbouncer did not listen within 20 s: {log}");
            std::thread::sleep(Duration::from_millis(50));
        }
        Bouncer { port, dir, child }
    }

    /// `url` (a database on the test server) through the pooler.
    fn url(&self, url: &str) -> String {
        let mut u = url::Url::parse(url).unwrap();
        u.set_host(Some("127.0.0.1")).unwrap();
        u.set_port(Some(self.port)).unwrap();
        u.to_string()
    }

    /// A number from the pooler's `SHOW STATS` for `database` (its admin console).
    fn stat(&self, database: &str, column: &str) -> i64 {
        let out = Command::new("psql")
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "postgres", "-d", "pgbouncer", "-AF", "\t"])
            .args(["-c", "SHOW STATS"])
            .output()
            .expect("psql runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
        let at = header.iter().position(|h| *h == column).unwrap_or_else(|| panic!("no {column} in {header:?}"));
        lines
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .find(|row| row.first() == Some(&database))
            .and_then(|row| row.get(at).and_then(|v| v.parse().ok()))
            .unwrap_or(0)
    }
}

impl Drop for Bouncer {
    fn drop(&mut self) {
        // Under runuser the pooler is a grandchild: stop it by its pid file, at once (SIGQUIT;
        // since 1.23 SIGTERM waits for every client to leave, and a failed test leaves some).
        if let Ok(pid) = std::fs::read_to_string(self.dir.path().join("pgbouncer.pid"))
            && let Ok(pid) = pid.trim().parse::<i32>()
        {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGQUIT);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits for the server on `port`, with its log in the panic when it exits instead.
async fn ready(bouncer: &Bouncer, port: u16, child: &mut Child) {
    for _ in 0..600 {
        if let Some(status) = child.try_wait().unwrap() {
            let log =
                std::fs::read_to_string(bouncer.dir.path().join(format!("miniclaw-{port}.log"))).unwrap_or_default();
            let pooler = std::fs::read_to_string(bouncer.dir.path().join("pgbouncer.log")).unwrap_or_default();
            panic!("server exited early ({status}):\n{log}\npgbouncer:\n{pooler}");
        }
        if reqwest::get(format!("http://127.0.0.1:{port}/readyz")).await.is_ok_and(|r| r.status() == 200) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("server not ready within 60 s");
}

fn server(db: &TestDb, bouncer: &Bouncer, port: u16, worker: bool) -> Child {
    process(db, bouncer, "serve", port, worker)
}

/// `miniclaw serve` on `port` (with its worker or not) or `miniclaw worker` (`port` names its
/// log), through the pooler, with a 3 s job lease (a killed worker's job is taken up soon).
fn process(db: &TestDb, bouncer: &Bouncer, command: &str, port: u16, worker: bool) -> Child {
    let (pooled, addr) = (bouncer.url(&db.url), format!("127.0.0.1:{port}"));
    let env = [
        ("DATABASE_URL", pooled.as_str()),
        ("DATABASE_DIRECT_URL", db.url.as_str()),
        ("MINICLAW_ADDR", addr.as_str()),
        ("MINICLAW_EMBEDDER", "hash"),
        ("MINICLAW_WORKER", if worker { "true" } else { "false" }),
        // Only a NOTIFY wakes a worker in time: polling alone would take a minute. (The second
        // scenario's workers poll too: a dead worker's expired lease sends no notification.)
        ("MINICLAW_WORKER_POLL_MS", if command == "worker" { "300" } else { "60000" }),
        ("MINICLAW_JOB_LEASE_SECS", "3"),
        ("MINICLAW_RATE_LIMIT_IP", "0"),
    ];
    let log: PathBuf = bouncer.dir.path().join(format!("miniclaw-{port}.log"));
    let out = std::fs::File::create(&log).unwrap();
    miniclaw(&[command], &env).stdout(Stdio::null()).stderr(out).spawn().unwrap()
}

/// A key made through `issuer` is served by `other` (so `other` has it cached), then revoked
/// through `issuer`: `other` must refuse it within 2 s, told by the NOTIFY its cache listens for.
async fn revoked_in_one_refused_by_the_other(
    http: &reqwest::Client,
    issuer: &str,
    other: &str,
    token: &str,
    agent_path: &str,
) {
    let made = post(
        http,
        format!("{issuer}{agent_path}/api-keys"),
        Some(token),
        json!({ "name": "k", "scopes": ["agent:read"] }),
    )
    .await;
    let (kid, key) = (made["id"].as_str().unwrap(), made["key"].as_str().unwrap());
    let status = || {
        let req = http.get(format!("{other}{agent_path}")).bearer_auth(key).send();
        async move { req.await.unwrap().status() }
    };
    assert_eq!(status().await, StatusCode::OK);
    let r = http.delete(format!("{issuer}{agent_path}/api-keys/{kid}")).bearer_auth(token).send().await.unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    let deadline = Instant::now() + Duration::from_secs(2);
    while status().await != StatusCode::UNAUTHORIZED {
        assert!(Instant::now() < deadline, "{other} still served a key revoked through {issuer} after 2 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_platform_runs_through_pgbouncer_in_transaction_pooling() {
    let db = TestDb::new().await;
    let bouncer = Bouncer::start();
    let database = db.url.rsplit('/').next().unwrap().to_string();
    let (pa, pb) = (free_port(), free_port());
    let mut a_proc = server(&db, &bouncer, pa, true);
    ready(&bouncer, pa, &mut a_proc).await;
    let mut b_proc = server(&db, &bouncer, pb, false);
    ready(&bouncer, pb, &mut b_proc).await;
    let (a, b) = (format!("http://127.0.0.1:{pa}"), format!("http://127.0.0.1:{pb}"));
    let http = reqwest::Client::new();

    // Accounts, agents, keys and chat turns, every statement through the pooler.
    let (token, _, agent) = ada_and_agent(&http, &a).await;
    let key = post(
        &http,
        format!("{a}/v1/hosted-agents/{agent}/api-keys"),
        Some(&token),
        json!({ "name": "app", "scopes": ["agent:read", "chat:write", "memories:read"] }),
    )
    .await["key"]
        .as_str()
        .unwrap()
        .to_string();
    let mut conversation: Option<String> = None;
    for message in [
        "My name is Alice and I live in Vienna.",
        "I really enjoy playing chess with my friends on weekends.",
        "My sister Marta works as a nurse in Graz.",
    ] {
        let chat = json!({ "message": message, "conversation_id": conversation });
        let reply = post(&http, format!("{a}/v1/hosted-agents/{agent}/chat"), Some(&key), chat).await;
        conversation = reply["conversation_id"].as_str().map(str::to_string);
    }

    // The worker hears the extraction job through LISTEN on its direct connection: the
    // memories are there long before its one-minute poll.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let r = http.get(format!("{b}/v1/hosted-agents/{agent}/memories")).bearer_auth(&key).send().await.unwrap();
        let memories: serde_json::Value = r.json().await.unwrap();
        if memories.as_array().is_some_and(|m| m.iter().any(|x| x["content"] == "The user's name is Alice")) {
            break;
        }
        assert!(Instant::now() < deadline, "no extraction within 30 s (LISTEN did not wake the worker): {memories}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let found = post(
        &http,
        format!("{b}/v1/hosted-agents/{agent}/memories/search"),
        Some(&key),
        json!({ "query": "where does the user live" }),
    )
    .await;
    assert!(found["results"].to_string().contains("Vienna"), "{found}");

    // A key B has served (it is in B's cache) and A revokes is refused by B at once, by the
    // NOTIFY B's cache listens for on its direct connection.
    let agent_path = format!("/v1/hosted-agents/{agent}");
    revoked_in_one_refused_by_the_other(&http, &a, &b, &token, &agent_path).await;

    // Enough to reflect on (10 memories, 5 conversations), stored through the pooler too.
    let facts: Vec<serde_json::Value> = (0..10)
        .map(|i| json!({ "content": format!("The garden's bed number {i} grows tomatoes."), "category": "context" }))
        .collect();
    post(&http, format!("{a}{agent_path}/memories/bulk"), Some(&token), json!({ "memories": facts })).await;
    for i in 0..4 {
        let chat = json!({ "message": format!("Another short note, number {i}.") });
        post(&http, format!("{b}{agent_path}/chat"), Some(&token), chat).await;
    }

    // A reflection holds its session lock on a direct connection: two asked at once, one runs
    // (201) and the other is refused while it holds the lock (409), or runs after it; then no
    // advisory lock is left held.
    let reflect = || {
        let req = http.post(format!("{a}{agent_path}/reflection")).bearer_auth(&token).send();
        async move { req.await.unwrap().status() }
    };
    let (first, second) = tokio::join!(reflect(), reflect());
    let mut statuses = [first, second];
    statuses.sort();
    assert!(
        statuses == [StatusCode::CREATED, StatusCode::CREATED]
            || statuses == [StatusCode::CREATED, StatusCode::CONFLICT],
        "{statuses:?}"
    );
    // (pg_locks is the whole server's: only this database's lock of this agent's reflections.)
    let held: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND objsubid = 1
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND ((classid::bigint << 32) | objid::bigint) = hashtextextended('reflection:' || $1, 0)",
    )
    .bind(&agent)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(held, 0, "the session lock was released");

    // The traffic went through the pooler, in transactions on its shared server connections.
    let transactions = bouncer.stat(&database, "total_xact_count");
    assert!(transactions > 50, "{transactions} transactions through PgBouncer");

    assert!(terminate(&mut a_proc).success());
    assert!(terminate(&mut b_proc).success());
    let log = std::fs::read_to_string(bouncer.dir.path().join(format!("miniclaw-{pa}.log"))).unwrap_or_default();
    assert!(!log.contains("prepared statement"), "no prepared-statement clashes: {log}");
}

/// Two API processes and two workers on one database, all through PgBouncer: a reply made in
/// one process reaches the other's event stream, every accepted message is kept and every
/// extraction runs once although a worker and then a server are killed outright (SIGKILL)
/// mid-way, and a key revoked in one process is refused by the other.
#[tokio::test]
async fn two_servers_and_two_workers_lose_nothing_when_any_one_is_killed() {
    let db = TestDb::new().await;
    let bouncer = Bouncer::start();
    let (pa, pb, pw1, pw2) = (free_port(), free_port(), free_port(), free_port());
    let mut a_proc = process(&db, &bouncer, "serve", pa, false);
    ready(&bouncer, pa, &mut a_proc).await;
    let mut b_proc = process(&db, &bouncer, "serve", pb, false);
    ready(&bouncer, pb, &mut b_proc).await;
    let mut w1 = process(&db, &bouncer, "worker", pw1, false);
    let mut w2 = process(&db, &bouncer, "worker", pw2, false);
    let (a, b) = (format!("http://127.0.0.1:{pa}"), format!("http://127.0.0.1:{pb}"));
    let http = reqwest::Client::new();
    let (token, _, agent) = ada_and_agent(&http, &a).await;
    let agent_path = format!("/v1/hosted-agents/{agent}");

    // B's event stream hears of the replies A makes.
    let mut events = crate::events::Events::new(
        http.get(format!("{b}{agent_path}/events")).bearer_auth(&token).send().await.unwrap(),
    );
    assert_eq!(events.next(10).await.unwrap().0, "ready");

    let people =
        [("Nora", "Oslo"), ("Ivan", "Kyiv"), ("Lena", "Riga"), ("Omar", "Cairo"), ("Pia", "Turin"), ("Jon", "Bergen")];
    let mut replies_on_a = Vec::new();
    let say = |i: usize| {
        let (name, city) = people[i];
        let base = if i.is_multiple_of(2) { a.clone() } else { b.clone() };
        let chat = json!({ "message": format!("My friend {name} lives in {city} and loves long walks by the water.") });
        let (http, token, path) = (http.clone(), token.clone(), agent_path.clone());
        async move { post(&http, format!("{base}{path}/chat"), Some(&token), chat).await }
    };
    for i in 0..people.len() {
        let reply = say(i).await;
        if i.is_multiple_of(2) {
            replies_on_a.push(reply["message_id"].as_str().unwrap().to_string());
        }
        if i == 1 {
            // A worker dies outright while the first extractions are queued or running.
            let _ =
                nix::sys::signal::kill(nix::unistd::Pid::from_raw(w1.id() as i32), nix::sys::signal::Signal::SIGKILL);
        }
    }
    w1.wait().unwrap();
    let mut heard = Vec::new();
    while !replies_on_a.iter().all(|r| heard.contains(r)) {
        let (event, data) = events.next(10).await.expect("B's stream hears of A's replies");
        if event == "reply" && data["status"] == "complete" {
            heard.push(data["message_id"].as_str().unwrap().to_string());
        }
    }
    assert!(replies_on_a.iter().all(|r| heard.contains(r)), "{replies_on_a:?} in {heard:?}");
    // A server dies outright right after its replies.
    a_proc.kill().unwrap();
    a_proc.wait().unwrap();

    // The one worker left takes every extraction job up, the dead worker's too once its lease
    // ran out; each runs to the end once.
    let count = |sql: &'static str| {
        let pool = db.pool.clone();
        async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&pool).await.unwrap() }
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while count("SELECT count(*) FROM jobs WHERE kind = 'chat_extract' AND status <> 'done'").await > 0 {
        if Instant::now() > deadline {
            let jobs: Vec<(String, i32)> =
                sqlx::query_as("SELECT status, attempts FROM jobs WHERE kind = 'chat_extract' ORDER BY created_at")
                    .fetch_all(&db.pool)
                    .await
                    .unwrap();
            panic!("extraction jobs not done within 30 s: {jobs:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(count("SELECT count(*) FROM jobs WHERE kind = 'chat_extract'").await >= 1);
    // Every accepted message is kept, every reply complete.
    assert_eq!(count("SELECT count(*) FROM chat_messages WHERE role = 'user'").await, people.len() as i64);
    assert_eq!(count("SELECT count(*) FROM chat_messages WHERE role = 'assistant' AND status = 'complete'").await, 6);
    // Each fact was learned once, or its message still waits for the next batch: none lost,
    // none learned twice.
    let memories: Vec<String> =
        sqlx::query_scalar("SELECT content FROM agent_memories").fetch_all(&db.pool).await.unwrap();
    let waiting: Vec<String> = sqlx::query_scalar(
        "SELECT m.content FROM extraction_queue q JOIN chat_messages m ON m.agent_id = q.agent_id AND m.id = q.message_id",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert!(memories.len() >= 2, "the batches that were full were learned: {memories:?}");
    for (name, city) in people {
        let learned = memories.iter().filter(|m| m.contains(name) && m.contains(city)).count();
        let pending = waiting.iter().filter(|m| m.contains(name)).count();
        assert_eq!(learned + pending, 1, "{name}: learned {learned}, waiting {pending}: {memories:?} / {waiting:?}");
    }

    // A key revoked through B is refused by a new A at once (its cache listens too).
    let mut a2 = process(&db, &bouncer, "serve", pa, false);
    ready(&bouncer, pa, &mut a2).await;
    revoked_in_one_refused_by_the_other(&http, &b, &a, &token, &agent_path).await;
    for child in [&mut a2, &mut b_proc, &mut w2] {
        assert!(terminate(child).success());
    }
}
