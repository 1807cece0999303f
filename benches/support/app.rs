//! The app in-process on a scratch database, as `serve` runs it (worker inside, 20 connections),
//! with an owner signed in: what the benches that go through the HTTP API share.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};

/// A running app and a signed-in owner's client.
pub struct App {
    pub client: Client,
    pub state: miniclaw::app::AppState,
    pub pool: sqlx::PgPool,
    pub cancel: tokio_util::sync::CancellationToken,
}

pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub token: String,
}

impl Client {
    pub async fn post(&self, path: &str, body: Value) -> anyhow::Result<Value> {
        let r = self.http.post(format!("{}{path}", self.base)).bearer_auth(&self.token).json(&body).send().await?;
        let status = r.status();
        let v: Value = r.json().await?;
        anyhow::ensure!(status.is_success(), "{path}: {status} {v}");
        Ok(v)
    }

    /// A new agent with a budget no bench reaches; returns its id.
    pub async fn agent(&self, name: &str) -> anyhow::Result<String> {
        let a =
            self.post("/v1/hosted-agents", json!({ "name": name, "persona": "A warm, practical assistant." })).await?;
        let id = a["id"].as_str().unwrap().to_string();
        let r = self
            .http
            .patch(format!("{}/v1/hosted-agents/{id}", self.base))
            .bearer_auth(&self.token)
            .json(&json!({ "daily_token_budget": 100_000_000 }))
            .send()
            .await?;
        anyhow::ensure!(r.status().is_success(), "raising the budget: {}", r.text().await?);
        Ok(id)
    }
}

/// Starts the app on database `db` (recreated) with `MINICLAW_EMBEDDER=embedder` and `extra`
/// settings, and signs an owner up.
pub async fn start(db: &str, embedder: &str, extra: &[(String, String)]) -> anyhow::Result<App> {
    let url = super::support::fresh_database(db).await?;
    let env: HashMap<String, String> = [
        ("DATABASE_URL", url.as_str()),
        ("MINICLAW_ADDR", "127.0.0.1:0"),
        ("MINICLAW_WORKER", "true"),
        ("MINICLAW_EMBEDDER", embedder),
        ("MINICLAW_RATE_LIMIT_IP", "0"),
        ("MINICLAW_RATE_LIMIT_KEY", "0"),
        // The bench's clients are one fresh account's, more at once than a new account may have.
        ("MINICLAW_NEW_ACCOUNT_TURNS", "off"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .chain(extra.iter().cloned())
    .collect();
    let config = Arc::new(miniclaw::config::Config::from_map(&env)?);
    let pool = miniclaw::db::connect(url.as_str().parse()?, 20).await?;
    miniclaw::db::migrate(&pool).await?;
    let registry = Arc::new(miniclaw::cycles::builtin());
    let state =
        miniclaw::app::AppState::new(miniclaw::services(pool.clone(), &config).await?, config, registry).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let cancel = tokio_util::sync::CancellationToken::new();
    tokio::spawn(miniclaw::app::serve(listener, state.clone(), cancel.clone()));
    let http = reqwest::Client::new();
    let signup: Value = http
        .post(format!("{base}/v1/auth/signup"))
        .json(&json!({ "email": "bench@example.com", "password": "correct horse battery" }))
        .send()
        .await?
        .json()
        .await?;
    let client = Client { http, base, token: signup["session_token"].as_str().unwrap().to_string() };
    Ok(App { client, state, pool, cancel })
}
