//! Application state and the `serve` / `worker` entry points.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use metrics_exporter_prometheus::PrometheusHandle;
use sqlx::PgPool;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::auth::ratelimit::RateLimiter;
use crate::auth::session::SessionKeys;
use crate::config::Config;
use crate::jobs::Registry;
use crate::jobs::worker::Worker;
use crate::llm::Gateway;

/// Shared state of the HTTP app: cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

struct Inner {
    pool: PgPool,
    config: Arc<Config>,
    registry: Arc<Registry>,
    metrics: PrometheusHandle,
    session_keys: SessionKeys,
    ip_limiter: Option<RateLimiter>,
    key_limiter: Option<RateLimiter>,
    llm: Arc<Gateway>,
    embedder: Arc<dyn crate::embed::Embedder>,
}

impl AppState {
    /// Loads (or creates, on first start) the session signing key from the database.
    pub async fn new(pool: PgPool, config: Arc<Config>, registry: Arc<Registry>) -> anyhow::Result<Self> {
        let session_keys = SessionKeys::load(&pool).await.context("loading the session signing key")?;
        let llm = Arc::new(Gateway::new(pool.clone(), &config).map_err(|e| anyhow::anyhow!("model gateway: {e}"))?);
        let embedder = crate::embed::from_config(&config).await.context("loading the embedding model")?;
        crate::memory::vector::ensure_index(&pool, embedder.model(), embedder.dimensions())
            .await
            .context("creating the vector index for the embedding model")?;
        Ok(AppState(Arc::new(Inner {
            llm,
            embedder,
            ip_limiter: RateLimiter::per_minute(config.rate_limit_ip),
            key_limiter: RateLimiter::per_minute(config.rate_limit_key),
            pool,
            config,
            registry,
            metrics: crate::telemetry::metrics_handle(),
            session_keys,
        })))
    }
    /// The embedder every stored and queried vector comes from.
    pub fn embedder(&self) -> &dyn crate::embed::Embedder {
        self.0.embedder.as_ref()
    }
    /// The model gateway: every LLM call goes through it.
    pub fn llm(&self) -> &Gateway {
        &self.0.llm
    }
    pub fn session_keys(&self) -> &SessionKeys {
        &self.0.session_keys
    }
    pub fn ip_limiter(&self) -> Option<&RateLimiter> {
        self.0.ip_limiter.as_ref()
    }
    pub fn key_limiter(&self) -> Option<&RateLimiter> {
        self.0.key_limiter.as_ref()
    }
    /// The externally visible base URL, without a trailing slash.
    pub fn public_url(&self) -> String {
        self.0.config.public_url.clone().unwrap_or_else(|| format!("http://{}", self.0.config.addr))
    }
    pub fn pool(&self) -> &PgPool {
        &self.0.pool
    }
    pub fn config(&self) -> &Config {
        &self.0.config
    }
    pub fn registry(&self) -> &Registry {
        &self.0.registry
    }
    pub fn metrics(&self) -> &PrometheusHandle {
        &self.0.metrics
    }
}

/// Serves the API on an already-bound listener until `cancel` fires; runs the worker in the
/// same process when the config says so.
pub async fn serve(listener: TcpListener, state: AppState, cancel: CancellationToken) -> anyhow::Result<()> {
    let worker = state.config().run_worker.then(|| {
        let w = Worker::new(
            state.pool().clone(),
            state.0.registry.clone(),
            state.config().worker_concurrency,
            state.config().worker_poll,
        );
        tokio::spawn(w.run(cancel.clone()))
    });
    let app = crate::api::router(state).into_make_service_with_connect_info::<SocketAddr>();
    let shutdown = cancel.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await
        .context("HTTP server failed")?;
    cancel.cancel();
    if let Some(w) = worker {
        w.await.context("worker task panicked")??;
    }
    Ok(())
}

/// Cancels `token` on SIGINT or SIGTERM.
pub fn cancel_on_signals(token: CancellationToken) {
    tokio::spawn(async move {
        let ctrl_c = tokio::signal::ctrl_c();
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for SIGTERM; only Ctrl-C stops the server");
                let _ = ctrl_c.await;
                token.cancel();
                return;
            }
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
        tracing::info!("shutting down");
        token.cancel();
    });
}
