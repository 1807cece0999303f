//! SPEC §13: PostgreSQL stopped and started under a chat and memory write load. The shared test
//! server on 5432 is never touched: the test runs a private cluster (the system's `initdb` and
//! `pg_ctl`) on a free port and `miniclaw serve` against it. During the outage every answer is
//! a 503 with `Retry-After` within a bound (never a 500, never a hang); afterwards the same
//! process serves again by itself; every write that was acknowledged is in the database.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::Mutex;

use crate::faults::Server;
use crate::processes::free_port;

const PG_BIN: &str = "/usr/lib/postgresql/15/bin";

/// A PostgreSQL cluster of this test's own, in a temporary directory, on a free TCP port.
pub struct PrivateCluster {
    dir: tempfile::TempDir,
    pub port: u16,
}

impl PrivateCluster {
    pub fn create() -> PrivateCluster {
        let cluster = PrivateCluster::empty();
        let out = cluster
            .command("initdb")
            .arg("-D")
            .arg(cluster.pgdata())
            .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"])
            .output()
            .unwrap();
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        cluster
    }

    /// A streaming standby of the running `primary` (`pg_basebackup -R`, after an immediate
    /// checkpoint rather than a spread one, which takes minutes: it follows the
    /// primary's WAL as soon as it starts), on a port of its own.
    pub fn standby_of(primary: &PrivateCluster) -> PrivateCluster {
        let cluster = PrivateCluster::empty();
        let port = primary.port.to_string();
        let out = cluster
            .command("pg_basebackup")
            .args(["-h", "127.0.0.1", "-p", &port, "-U", "postgres", "-X", "stream", "-R", "-c", "fast", "-D"])
            .arg(cluster.pgdata())
            .output()
            .unwrap();
        assert!(out.status.success(), "pg_basebackup: {}", String::from_utf8_lossy(&out.stderr));
        cluster
    }

    fn empty() -> PrivateCluster {
        let dir = tempfile::tempdir().unwrap();
        // Run as root, the cluster runs as `postgres`, which must reach and own its directories.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let cluster = PrivateCluster { dir, port: free_port() };
        for sub in ["pg", "run"] {
            let path = cluster.dir.path().join(sub);
            std::fs::create_dir(&path).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o700)).unwrap();
            if let Some((uid, gid)) = service_user() {
                nix::unistd::chown(&path, Some(uid.into()), Some(gid.into())).unwrap();
            }
        }
        cluster
    }

    fn pgdata(&self) -> PathBuf {
        self.dir.path().join("pg")
    }

    fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(Path::new(PG_BIN).join(program));
        cmd.stdin(Stdio::null());
        if let Some((uid, gid)) = service_user() {
            cmd.uid(uid).gid(gid);
        }
        cmd
    }

    fn pg_ctl(&self, args: &[&str]) -> std::process::Output {
        self.command("pg_ctl").arg("-D").arg(self.pgdata()).args(args).output().unwrap()
    }

    pub fn start(&self) {
        let options = format!(
            "-c listen_addresses=127.0.0.1 -c port={} -c unix_socket_directories={} -c fsync=off",
            self.port,
            self.dir.path().join("run").display()
        );
        let log = self.pgdata().join("server.log");
        let log = log.to_str().unwrap();
        let out = self.pg_ctl(&["-w", "-t", "60", "-l", log, "-o", &options, "start"]);
        assert!(out.status.success(), "pg_ctl start: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Fast shutdown: sessions are ended at once, as an operator's restart does.
    pub fn stop(&self) {
        let out = self.pg_ctl(&["-w", "-t", "60", "-m", "fast", "stop"]);
        assert!(out.status.success(), "pg_ctl stop: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Immediate shutdown: the server is gone at once, as when its host fails.
    pub fn crash(&self) {
        let out = self.pg_ctl(&["-w", "-t", "60", "-m", "immediate", "stop"]);
        assert!(out.status.success(), "pg_ctl stop: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Runs one statement in `database`, on a connection of its own.
    pub async fn execute(&self, database: &str, statement: &str) {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(&self.url(database)).await.unwrap();
        sqlx::query(statement).execute(&mut c).await.unwrap();
        c.close().await.unwrap();
    }

    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }
}

impl Drop for PrivateCluster {
    fn drop(&mut self) {
        let _ = self.pg_ctl(&["-w", "-m", "immediate", "stop"]);
    }
}

/// The `postgres` user's ids when running as root (PostgreSQL refuses to run as root).
fn service_user() -> Option<(u32, u32)> {
    if !nix::unistd::geteuid().is_root() {
        return None;
    }
    let user =
        nix::unistd::User::from_name("postgres").unwrap().expect("a `postgres` user (the PostgreSQL package makes it)");
    Some((user.uid.as_raw(), user.gid.as_raw()))
}

/// One answer the load got: in which phase it was sent, its status (0: no answer in time or a
/// transport error), how long it took, whether it carried `Retry-After`.
#[derive(Debug, Clone)]
struct Outcome {
    phase: u8,
    what: &'static str,
    status: u16,
    took: Duration,
    retry_after: bool,
    /// The error code of a refusal (`budget_exhausted`, `db_unavailable`, …).
    code: Option<String>,
}

const BEFORE: u8 = 0;
const OUTAGE: u8 = 1;
const AFTER: u8 = 2;
/// Longest any request may take, outage or not.
const BOUND: Duration = Duration::from_secs(15);

#[derive(Default)]
struct Acked {
    memories: Vec<String>,
    messages: Vec<String>,
}

async fn send(req: reqwest::RequestBuilder) -> (u16, bool, Option<Value>) {
    match req.timeout(BOUND + Duration::from_secs(5)).send().await {
        Err(_) => (0, false, None),
        Ok(r) => {
            let status = r.status().as_u16();
            let retry_after = r.headers().contains_key("retry-after");
            (status, retry_after, r.json().await.ok())
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarted_under_load_gives_503s_then_recovers_without_losing_acknowledged_writes() {
    let cluster = PrivateCluster::create();
    cluster.start();
    cluster.execute("postgres", "CREATE DATABASE miniclaw").await;
    let url = cluster.url("miniclaw");
    // Four clients of one fresh account at once: more turns in progress than a new account has.
    let env = [
        ("DATABASE_URL", url.as_str()),
        ("MINICLAW_RATE_LIMIT_IP", "0"),
        ("MINICLAW_WORKER_POLL_MS", "200"),
        ("MINICLAW_NEW_ACCOUNT_TURNS", "off"),
    ];
    let data = tempfile::tempdir().unwrap();
    let mut server = Server::start(&data, &env).await;
    let base = server.base.clone();
    let http = reqwest::Client::new();
    let signup: Value = http
        .post(format!("{base}/v1/auth/signup"))
        .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = signup["session_token"].as_str().unwrap().to_string();
    let agent: Value = http
        .post(format!("{base}/v1/hosted-agents"))
        .bearer_auth(&token)
        // The largest daily budget: four clients as fast as answers come spend the default
        // 100,000 tokens within seconds on a fast machine, and the test is about the database.
        .json(&json!({ "name": "Ada", "daily_token_budget": 100_000_000 }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let agent_path = format!("{base}/v1/hosted-agents/{}", agent["id"].as_str().unwrap());

    // Four clients, each alternating a memory write and a chat turn, as fast as answers come.
    let phase = Arc::new(AtomicU8::new(BEFORE));
    let stop = Arc::new(AtomicBool::new(false));
    let outcomes = Arc::new(Mutex::new(Vec::<Outcome>::new()));
    let acked = Arc::new(Mutex::new(Acked::default()));
    let mut clients = Vec::new();
    for client in 0..4 {
        let (http, token, agent_path) = (http.clone(), token.clone(), agent_path.clone());
        let (phase, stop, outcomes, acked) = (phase.clone(), stop.clone(), outcomes.clone(), acked.clone());
        clients.push(tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::SeqCst) && n < 10_000 {
                n += 1;
                let sent_in = phase.load(Ordering::SeqCst);
                let started = Instant::now();
                let (what, req) = if n % 2 == 0 {
                    let content = format!("Fact {n} from client {client}: the user likes restarts");
                    (
                        "memory",
                        http.post(format!("{agent_path}/memories"))
                            .json(&json!({ "content": content, "category": "context" })),
                    )
                } else {
                    (
                        "chat",
                        http.post(format!("{agent_path}/chat"))
                            .json(&json!({ "message": format!("Note {n} from client {client}") })),
                    )
                };
                let (status, retry_after, body) = send(req.bearer_auth(&token)).await;
                let took = started.elapsed();
                let code = body.as_ref().and_then(|b| b["error"]["code"].as_str()).map(str::to_string);
                if (200..300).contains(&status) {
                    let body = body.unwrap_or_default();
                    let mut acked = acked.lock().await;
                    match what {
                        "memory" => acked.memories.push(body["id"].as_str().unwrap().to_string()),
                        _ => {
                            acked.messages.push(body["user_message_id"].as_str().unwrap().to_string());
                            acked.messages.push(body["message_id"].as_str().unwrap().to_string());
                        }
                    }
                }
                outcomes.lock().await.push(Outcome { phase: sent_in, what, status, took, retry_after, code });
                if status == 503 {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }));
    }

    tokio::time::sleep(Duration::from_secs(2)).await;
    cluster.stop();
    phase.store(OUTAGE, Ordering::SeqCst);
    // Liveness stays fast; readiness says not ready, within the bound.
    let started = Instant::now();
    let live = http.get(format!("{base}/healthz")).timeout(Duration::from_secs(2)).send().await.unwrap();
    assert_eq!(live.status(), 200, "/healthz answers during the outage");
    assert!(started.elapsed() < Duration::from_secs(2), "/healthz took {:?}", started.elapsed());
    let started = Instant::now();
    let ready = http.get(format!("{base}/readyz")).timeout(BOUND).send().await.unwrap();
    assert_eq!(ready.status(), 503, "/readyz during the outage");
    assert!(started.elapsed() < Duration::from_secs(8), "/readyz took {:?}", started.elapsed());
    // Longer than the pool's 5 s acquire timeout: requests waiting for a connection give up.
    tokio::time::sleep(Duration::from_secs(6)).await;

    cluster.start();
    let back = Instant::now();
    phase.store(AFTER, Ordering::SeqCst);
    // The same process serves again by itself.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let ready = http.get(format!("{base}/readyz")).timeout(BOUND).send().await;
        if ready.is_ok_and(|r| r.status() == 200) {
            break;
        }
        assert!(Instant::now() < deadline, "not ready again within 30 s of the database's return");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let recovered = Instant::now();
    let ready_after = recovered - back;
    let deadline = recovered + Duration::from_secs(20);
    loop {
        let ok_after = outcomes.lock().await.iter().filter(|o| o.phase == AFTER && o.status / 100 == 2).count();
        if ok_after >= 8 {
            break;
        }
        assert!(Instant::now() < deadline, "the load did not succeed again within 20 s of readiness");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop.store(true, Ordering::SeqCst);
    for c in clients {
        c.await.unwrap();
    }
    assert!(server.child.try_wait().unwrap().is_none(), "the server was not restarted");

    let outcomes = outcomes.lock().await.clone();
    let summary = |p: u8| {
        let mut by: std::collections::BTreeMap<u16, usize> = Default::default();
        outcomes.iter().filter(|o| o.phase == p).for_each(|o| *by.entry(o.status).or_default() += 1);
        by
    };
    let slowest_503 = outcomes.iter().filter(|o| o.status == 503).map(|o| o.took).max().unwrap_or_default();
    eprintln!(
        "answers by status: before {:?}, outage {:?}, after {:?}; slowest 503 {slowest_503:?}; ready {ready_after:?} after the restart",
        summary(BEFORE),
        summary(OUTAGE),
        summary(AFTER)
    );
    for o in &outcomes {
        assert!(o.took <= BOUND, "a request took {:?}: {o:?}", o.took);
        assert!(o.status / 100 == 2 || o.status == 503, "only successes and 503s, not {:?}: {o:?}", o.code);
        assert!(o.status != 503 || o.retry_after, "a 503 without Retry-After: {o:?}");
    }
    assert!(outcomes.iter().any(|o| o.phase == BEFORE && o.status / 100 == 2), "the load ran before the outage");
    assert!(outcomes.iter().any(|o| o.phase == OUTAGE && o.status == 503), "the outage was seen");
    for what in ["memory", "chat"] {
        assert!(outcomes.iter().any(|o| o.phase == AFTER && o.what == what && o.status / 100 == 2), "{what} recovered");
    }

    // Every acknowledged write is there.
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    let acked = acked.lock().await;
    let ids = |v: &[String]| v.iter().map(|s| s.parse::<uuid::Uuid>().unwrap()).collect::<Vec<_>>();
    let memories: i64 = sqlx::query_scalar("SELECT count(*) FROM agent_memories WHERE id = ANY($1)")
        .bind(ids(&acked.memories))
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(memories as usize, acked.memories.len(), "acknowledged memories");
    let messages: i64 =
        sqlx::query_scalar("SELECT count(*) FROM chat_messages WHERE id = ANY($1) AND status = 'complete'")
            .bind(ids(&acked.messages))
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(messages as usize, acked.messages.len(), "acknowledged chat turns");
    pool.close().await;
    assert!(crate::processes::terminate(&mut server.child).success());
}
