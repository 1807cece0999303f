//! Application state and the `serve` / `worker` entry points.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use metrics_exporter_prometheus::PrometheusHandle;
use sqlx::PgPool;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::jobs::Registry;
use crate::jobs::worker::Worker;

/// Shared state of the HTTP app: cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

struct Inner {
    pool: PgPool,
    config: Arc<Config>,
    registry: Arc<Registry>,
    metrics: PrometheusHandle,
}

impl AppState {
    pub fn new(pool: PgPool, config: Arc<Config>, registry: Arc<Registry>) -> Self {
        AppState(Arc::new(Inner { pool, config, registry, metrics: crate::telemetry::metrics_handle() }))
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
