//! Test harness: each test gets its own database on the shared PostgreSQL server and, when it
//! needs one, a running app on a free loopback port.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use miniclaw::app::{self, AppState};
use miniclaw::config::Config;
use miniclaw::jobs::{Cycle, Registry, worker};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// The server tests create their databases on (`MINICLAW_TEST_DATABASE_URL`, default the
/// machine's PostgreSQL on 127.0.0.1:5432).
pub fn server_url() -> String {
    std::env::var("MINICLAW_TEST_DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// A fresh, migrated database, dropped when this value is dropped.
pub struct TestDb {
    pub name: String,
    pub url: String,
    pub pool: PgPool,
}

impl TestDb {
    pub async fn new() -> Self {
        Self::create(true).await
    }

    /// A database without migrations applied (for tests of `migrate` itself).
    pub async fn empty() -> Self {
        Self::create(false).await
    }

    async fn create(migrate: bool) -> Self {
        let server = server_url();
        let name = format!("mc_test_{}", Uuid::new_v4().simple());
        let mut admin =
            PgConnection::connect(&server).await.expect("connect to the test PostgreSQL server (is it running?)");
        sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.expect("create test database");
        admin.close().await.ok();
        let mut url = url::Url::parse(&server).expect("server url");
        url.set_path(&format!("/{name}"));
        let url = url.to_string();
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(10)
            .connect(&url)
            .await
            .expect("connect to test database");
        if migrate {
            miniclaw::db::migrate(&pool).await.expect("migrations apply");
        }
        TestDb { name, url, pool }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let name = self.name.clone();
        let server = server_url();
        // Dropping runs outside any async context we could rely on; use a private runtime.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
            rt.block_on(async {
                let mut c = PgConnection::connect(&server).await.ok()?;
                sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await.ok()?;
                c.close().await.ok()
            })
        })
        .join();
    }
}

pub struct TestAppBuilder {
    env: HashMap<String, String>,
    cycles: Vec<Cycle>,
}

impl TestAppBuilder {
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.insert(key.into(), value.into());
        self
    }

    pub fn admin_password(self, password: &str) -> Self {
        self.env("ADMIN_PASSWORD", password)
    }

    /// Runs the background worker inside the app (off by default: tests drain the queue
    /// themselves with `run_jobs`, at a known point).
    pub fn with_worker(self) -> Self {
        self.env("MINICLAW_WORKER", "true")
    }

    /// Adds a cycle to the app's registry, on top of the built-in ones.
    pub fn cycle(mut self, cycle: Cycle) -> Self {
        self.cycles.push(cycle);
        self
    }

    pub async fn spawn(self) -> TestApp {
        let db = TestDb::new().await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let mut env = self.env;
        env.insert("DATABASE_URL".into(), db.url.clone());
        // The address the app really listens on, so the URLs it builds (public_url) reach it.
        env.insert("MINICLAW_ADDR".into(), addr.to_string());
        env.entry("MINICLAW_WORKER".into()).or_insert_with(|| "false".into());
        env.entry("MINICLAW_EMBEDDER".into()).or_insert_with(|| "hash".into());
        let config = Arc::new(Config::from_map(&env).expect("test config is valid"));

        let mut registry = miniclaw::cycles::builtin();
        for c in self.cycles {
            registry.register(c);
        }
        let registry = Arc::new(registry);

        let state = AppState::new(
            miniclaw::services(db.pool.clone(), &config).await.expect("services"),
            config.clone(),
            registry.clone(),
        )
        .await
        .expect("app state");
        let cancel = CancellationToken::new();
        let server = tokio::spawn(app::serve(listener, state, cancel.clone()));
        TestApp { addr, client: reqwest::Client::new(), db, registry, config, cancel, server: Some(server) }
    }
}

pub struct TestApp {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    pub db: TestDb,
    pub registry: Arc<Registry>,
    pub config: Arc<Config>,
    cancel: CancellationToken,
    server: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

/// A response with its body already read.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    /// Asserts the JSON error shape and returns its code.
    pub fn error_code(&self) -> String {
        let v = self.json();
        let err = v.get("error").unwrap_or_else(|| panic!("no error object: {}", self.text));
        assert!(err["message"].is_string(), "error without message: {}", self.text);
        err["code"].as_str().unwrap_or_else(|| panic!("error without code: {}", self.text)).to_string()
    }
}

impl TestApp {
    pub fn builder() -> TestAppBuilder {
        TestAppBuilder { env: HashMap::new(), cycles: Vec::new() }
    }

    pub async fn spawn() -> TestApp {
        Self::builder().spawn().await
    }

    pub fn pool(&self) -> &PgPool {
        &self.db.pool
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn send(&self, req: reqwest::RequestBuilder) -> Reply {
        let resp = req.send().await.expect("request reaches the app");
        let status = resp.status();
        let headers = resp.headers().clone();
        let text = resp.text().await.expect("body");
        Reply { status, headers, text }
    }

    pub fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.client.request(method, self.url(path))
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(self.request(Method::GET, path)).await
    }

    /// A request carrying the admin bearer.
    pub fn admin(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        let pw = self.config.admin_password.as_ref().expect("app spawned with an admin password");
        self.request(method, path).bearer_auth(pw.expose())
    }

    /// Runs every due job (including due schedule slots) to completion, now.
    pub async fn run_jobs(&self) -> usize {
        worker::drain(self.pool(), &self.registry).await.expect("drain the job queue")
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.cancel.cancel();
        if let Some(s) = self.server.take() {
            s.abort();
        }
    }
}

/// An owner signed in through the API.
#[derive(Debug, Clone)]
pub struct Session {
    pub token: String,
    pub owner_id: String,
    pub tenant_id: String,
}

impl TestApp {
    pub async fn signup(&self, email: &str) -> Session {
        let r = self
            .send(
                self.request(Method::POST, "/v1/auth/signup")
                    .json(&serde_json::json!({ "email": email, "password": "correct horse battery" })),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
        let v = r.json();
        Session {
            token: v["session_token"].as_str().unwrap().to_string(),
            owner_id: v["owner"]["id"].as_str().unwrap().to_string(),
            tenant_id: v["tenant"]["id"].as_str().unwrap().to_string(),
        }
    }

    /// A request authenticated with a bearer token (session or `mck_` key).
    pub fn as_bearer(&self, token: &str, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.request(method, path).bearer_auth(token)
    }

    pub async fn create_agent(&self, owner: &Session, body: Value) -> Value {
        let r = self.send(self.as_bearer(&owner.token, Method::POST, "/v1/hosted-agents").json(&body)).await;
        assert_eq!(r.status, 201, "{}", r.text);
        r.json()
    }

    /// Issues a key; returns (key id, token).
    pub async fn create_key(&self, owner: &Session, agent_id: &str, scopes: &[&str]) -> (String, String) {
        let r = self
            .send(
                self.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{agent_id}/api-keys"))
                    .json(&serde_json::json!({ "name": "test key", "scopes": scopes })),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
        let v = r.json();
        (v["id"].as_str().unwrap().to_string(), v["key"].as_str().unwrap().to_string())
    }
}

/// Runs `tests/support/sign.py` with the test virtualenv's Python (set up by scripts/setup.sh).
pub fn external_sign(args: &[&str], stdin: &str) -> String {
    use std::io::Write;
    let python = std::env::var("MINICLAW_TEST_PYTHON").unwrap_or_else(|_| {
        miniclaw::config::default_cache_dir().join("venv/bin/python").to_string_lossy().into_owned()
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/sign.py");
    let mut child = std::process::Command::new(&python)
        .arg(script)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python} (run scripts/setup.sh --test): {e}"));
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "sign.py failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// An app with the real MiniLM embedder (the harness default is the hashing one).
pub async fn minilm() -> TestApp {
    TestApp::builder().env("MINICLAW_EMBEDDER", "minilm").spawn().await
}

/// An owner and one agent of theirs ("Ada"), with the agent's API paths at hand.
pub struct OwnedAgent {
    pub app: TestApp,
    pub owner: Session,
    pub id: String,
}

impl OwnedAgent {
    pub async fn new(app: TestApp) -> OwnedAgent {
        let owner = app.signup("ada@example.com").await;
        let id = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
        OwnedAgent { app, owner, id }
    }

    /// `/v1/hosted-agents/{id}` followed by `rest`.
    pub fn path(&self, rest: &str) -> String {
        format!("/v1/hosted-agents/{}{rest}", self.id)
    }

    /// Calls one of the agent's routes as its owner.
    pub async fn call(&self, method: Method, rest: &str, body: Option<Value>) -> Reply {
        let req = self.app.as_bearer(&self.owner.token, method, &self.path(rest));
        self.app
            .send(match body {
                Some(b) => req.json(&b),
                None => req,
            })
            .await
    }

    /// Adds a memory (asserting 201) and returns it.
    pub async fn remember(&self, content: &str, category: &str) -> Value {
        let r = self.call(Method::POST, "/memories", Some(json!({ "content": content, "category": category }))).await;
        assert_eq!(r.status, 201, "{}", r.text);
        r.json()
    }

    /// Searches the agent's memories (asserting 200) and returns the answer.
    pub async fn search(&self, body: Value) -> Value {
        let r = self.call(Method::POST, "/memories/search", Some(body)).await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()
    }
}
