//! Application state and the `serve` / `worker` entry points.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use metrics_exporter_prometheus::PrometheusHandle;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::ratelimit::RateLimiter;
use miniclaw_domain::runtime::Runtime;
use miniclaw_domain::tenancy::auth::session::SessionKeys;
use miniclaw_platform::config::Config;
use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::Registry;
use miniclaw_platform::jobs::worker::Worker;

/// Shared state of the HTTP app: cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

struct Inner {
    runtime: Runtime,
    config: Arc<Config>,
    registry: Arc<Registry>,
    metrics: PrometheusHandle,
    session_keys: SessionKeys,
    ip_limiter: Option<RateLimiter>,
    key_limiter: Option<RateLimiter>,
    /// Keys with a rate of their own (`RateLimiter::check_rate`).
    own_key_limiter: RateLimiter,
}

/// The domain's part of the state (the services and the streams of replies) is the
/// `Runtime`: a handler passes `&state` where a domain function asks for `&Runtime`.
impl std::ops::Deref for AppState {
    type Target = Runtime;
    fn deref(&self) -> &Runtime {
        &self.0.runtime
    }
}

impl AppState {
    /// The state over the process's services (`deps`: the registry's, when it was given some
    /// already, so the background cycles and the handlers share one gateway, embedder, vault and
    /// chain). Loads (or creates, on first start) the session signing key from the database,
    /// sealed under the master key.
    pub async fn new(deps: Deps, config: Arc<Config>, registry: Arc<Registry>) -> anyhow::Result<Self> {
        let deps = match registry.deps() {
            Some(d) => d.clone(),
            None => {
                registry.provide(deps.clone());
                deps
            }
        };
        let pool = deps.pool.clone();
        let session_keys = SessionKeys::load(&pool, &deps.vault)
            .await
            .context("loading the session signing key")?
            .with_ttl(chrono::Duration::seconds(i64::from(config.session_secs)));
        miniclaw_domain::memory::vector::ensure_index(&pool, deps.embedder.model(), deps.embedder.dimensions())
            .await
            .context("creating the vector index for the embedding model")?;
        let cache = miniclaw_domain::tenancy::auth::cache::cache();
        cache.set_enabled(config.caps.auth_cache);
        // LISTEN needs a session of its own (a direct connection behind a transaction pooler).
        cache.listen(deps.session_pool.clone());
        // Serve with the cache on from the first request when the database lets us.
        if !cache.listening(std::time::Duration::from_secs(5)).await {
            tracing::warn!("the auth cache's listener has not connected yet: the cache stays off until it does");
        }
        if let Some(replica) = &deps.replica {
            replica.clone().watch(deps.pool.clone());
        }
        let chat_streams = miniclaw_domain::chat::stream::Hub::default();
        chat_streams.listen(deps.session_pool.clone());
        Ok(AppState(Arc::new(Inner {
            ip_limiter: RateLimiter::per_minute(config.rate_limit_ip),
            key_limiter: RateLimiter::per_minute(config.rate_limit_key),
            own_key_limiter: RateLimiter::per_minute(60).expect("a non-zero rate"),
            runtime: Runtime::new(deps, chat_streams),
            config,
            registry,
            metrics: miniclaw_platform::telemetry::metrics_handle(),
            session_keys,
        })))
    }
    /// The domain's part of the state.
    pub fn runtime(&self) -> &Runtime {
        &self.0.runtime
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
    pub fn own_key_limiter(&self) -> &RateLimiter {
        &self.0.own_key_limiter
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
        )
        .with_listen_pool(state.deps().session_pool.clone())
        .with_lease(state.config().job_lease)
        .with_tenant_share(state.config().worker_tenant_share);
        tokio::spawn(w.run(cancel.clone()))
    });
    let streams = state.clone();
    let app = crate::api::router(state).into_make_service_with_connect_info::<SocketAddr>();
    let shutdown = cancel.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.cancelled().await;
            // Event streams last as long as their clients: end them, or the shutdown waits.
            streams.chat_streams().shut_down();
        })
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
