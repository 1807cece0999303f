//! Liveness, readiness, Prometheus metrics and the gateway health report (SPEC F8).

use crate::error::ErrorResponse as _;
use miniclaw_core::Error;
use std::time::Instant;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::Json;
use crate::app::AppState;
use miniclaw_platform::{db, jobs};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
        .routes(routes!(metrics))
        .routes(routes!(gateway_health))
}

#[derive(Serialize, ToSchema)]
pub struct Liveness {
    /// Always `ok` while the process serves requests.
    pub status: &'static str,
}

/// Liveness: the process is up and serving.
#[utoipa::path(get, path = "/healthz", tag = "health", responses((status = 200, body = Liveness)))]
async fn healthz() -> Json<Liveness> {
    Json(Liveness { status: "ok" })
}

#[derive(Serialize, ToSchema)]
pub struct Readiness {
    /// `ready` or `not_ready`.
    pub status: &'static str,
    pub database: bool,
    pub migrations_applied: usize,
    pub migrations_pending: usize,
    /// Why the instance is not ready, when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Readiness: the database answers and every migration is applied. 503 otherwise.
#[utoipa::path(get, path = "/readyz", tag = "health",
    responses((status = 200, body = Readiness), (status = 503, body = Readiness)))]
async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    match db::migration_status(state.pool()).await {
        Ok(m) if m.pending == 0 => (
            StatusCode::OK,
            Json(Readiness {
                status: "ready",
                database: true,
                migrations_applied: m.applied,
                migrations_pending: 0,
                reason: None,
            }),
        ),
        Ok(m) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(Readiness {
                status: "not_ready",
                database: true,
                migrations_applied: m.applied,
                migrations_pending: m.pending,
                reason: Some(format!("{} migration(s) pending; run `miniclaw migrate`", m.pending)),
            }),
        ),
        Err(e) => {
            tracing::warn!(error = %e, "readiness: database check failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(Readiness {
                    status: "not_ready",
                    database: false,
                    migrations_applied: 0,
                    migrations_pending: 0,
                    reason: Some("database unreachable".into()),
                }),
            )
        }
    }
}

/// Prometheus metrics: request latency by route, job queue depth and lag, job durations. With
/// `MINICLAW_METRICS_TOKEN` set it needs that bearer token; without, only direct requests from
/// this machine get it (403 otherwise).
#[utoipa::path(get, path = "/metrics", tag = "health",
    responses((status = 200, description = "Prometheus text exposition format", content_type = "text/plain"),
        (status = 403, body = crate::error::ErrorBody)))]
async fn metrics(State(state): State<AppState>, req: axum::extract::Request) -> axum::response::Response {
    let allowed = match &state.config().metrics_token {
        Some(token) => req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|given| {
                use subtle::ConstantTimeEq;
                given.as_bytes().ct_eq(token.expose().as_bytes()).into()
            }),
        None => {
            let peer = req.extensions().get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip());
            peer.is_some_and(|ip| ip.is_loopback()) && !req.headers().contains_key("x-forwarded-for")
        }
    };
    if !allowed {
        return Error::Refused {
            code: "metrics_forbidden",
            message: "metrics need MINICLAW_METRICS_TOKEN as a bearer token (or a direct request from this machine)"
                .into(),
        }
        .into_response();
    }
    // Queue gauges are read from the database at scrape time, so every process reports the
    // shared queue, whichever worker is running.
    if let Ok(s) = jobs::queue::stats(state.pool()).await {
        metrics::gauge!("miniclaw_job_queue_depth", "state" => "due").set(s.due as f64);
        metrics::gauge!("miniclaw_job_queue_depth", "state" => "scheduled").set(s.scheduled as f64);
        metrics::gauge!("miniclaw_job_queue_depth", "state" => "running").set(s.running as f64);
        metrics::gauge!("miniclaw_job_queue_depth", "state" => "dead").set(s.dead as f64);
        metrics::gauge!("miniclaw_job_queue_lag_seconds").set(s.oldest_due_lag_secs);
        metrics::gauge!("miniclaw_jobs_idle_skipped").set(s.idle_skips as f64);
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], state.metrics().render()).into_response()
}

#[derive(Serialize, ToSchema)]
pub struct GatewayHealth {
    /// `ok`, or `unavailable` when the database does not answer.
    pub status: &'static str,
    /// Round trip of a trivial query, in milliseconds; null when the database is down.
    pub db_latency_ms: Option<f64>,
    /// What this instance runs on, each with its state as of this request.
    pub modules: Vec<Module>,
}

#[derive(Serialize, ToSchema)]
pub struct Module {
    /// `database`, `queue`, `models`, `embeddings`, `chain`, `email`, `telegram`, `webhooks`, `admin`.
    pub name: &'static str,
    /// Whether this instance is configured to serve it.
    pub enabled: bool,
    /// `ok`; `degraded` (serving, with the problem in `detail`); `down`; `off` (not configured).
    pub status: &'static str,
    /// What it runs on, or what is wrong (never a secret or an address).
    pub detail: String,
    pub description: &'static str,
}

/// Jobs due this long without a worker taking them make the queue `degraded`.
const QUEUE_LAG_DEGRADED_SECS: f64 = 300.0;

/// Gateway health for miniapps: the database's latency and the state of every module this
/// instance runs on, read from its configuration and, for the database and the queue, measured.
#[utoipa::path(get, path = "/v1/gateway/health", tag = "health",
    responses((status = 200, body = GatewayHealth), (status = 503, body = GatewayHealth)))]
async fn gateway_health(State(state): State<AppState>) -> (StatusCode, Json<GatewayHealth>) {
    let start = Instant::now();
    let db_ok = sqlx::query_scalar!("SELECT 1").fetch_one(state.pool()).await.is_ok();
    let latency = (start.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    let queue = if db_ok { jobs::queue::stats(state.pool()).await.ok() } else { None };
    let modules = modules(&state, db_ok.then_some(latency), queue);
    if db_ok {
        (StatusCode::OK, Json(GatewayHealth { status: "ok", db_latency_ms: Some(latency), modules }))
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, Json(GatewayHealth { status: "unavailable", db_latency_ms: None, modules }))
    }
}

fn module(
    name: &'static str,
    enabled: bool,
    status: &'static str,
    detail: String,
    description: &'static str,
) -> Module {
    Module { name, enabled, status, detail, description }
}

/// The modules and their state, from the configuration and the two measurements.
fn modules(state: &AppState, db_latency: Option<f64>, queue: Option<jobs::queue::QueueStats>) -> Vec<Module> {
    use miniclaw_platform::llm::Role;
    let deps = state.deps();
    let database = match db_latency {
        Some(ms) => {
            module("database", true, "ok", format!("PostgreSQL, {ms} ms"), "tenants, agents, memories, conversations")
        }
        None => module(
            "database",
            true,
            "down",
            "the database does not answer".into(),
            "tenants, agents, memories, conversations",
        ),
    };
    let queue = match queue {
        Some(q) => {
            // Anyone may ask: its state, never its internals (depths and dead letters are the
            // operator's, on `/metrics` and the admin routes).
            let (status, detail) = if q.oldest_due_lag_secs > QUEUE_LAG_DEGRADED_SECS {
                ("degraded", "background work is running late".to_string())
            } else {
                ("ok", "background work is on time".to_string())
            };
            module("queue", true, status, detail, "durable jobs and recurring cycles (learning, delivery, retries)")
        }
        None => module(
            "queue",
            true,
            "down",
            "its state could not be read".into(),
            "durable jobs and recurring cycles (learning, delivery, retries)",
        ),
    };
    let chat = state.llm().routes().route(Role::Chat).targets.first().map(|t| t.provider.clone()).unwrap_or_default();
    let models = if state.llm().paid(Role::Chat) {
        module("models", true, "ok", format!("chat on {chat}"), "the model gateway")
    } else {
        module("models", true, "ok", "the offline engine (no model provider configured)".into(), "the model gateway")
    };
    let chain = match &deps.chain {
        Some(c) => module(
            "chain",
            true,
            "ok",
            format!("chain id {}", c.chain_id),
            "ERC-8004 identities, wallets, tokens, escrow",
        ),
        None => module(
            "chain",
            false,
            "off",
            "EVM_RPC_URL is not set".into(),
            "ERC-8004 identities, wallets, tokens, escrow",
        ),
    };
    let email = match deps.mailer.name() {
        "none" => module(
            "email",
            false,
            "off",
            "no email transport is configured".into(),
            "outreach and notifications by email",
        ),
        transport => module("email", true, "ok", transport.to_string(), "outreach and notifications by email"),
    };
    vec![
        database,
        queue,
        models,
        module("embeddings", true, "ok", state.embedder().model().to_string(), "memory vectors, in process"),
        chain,
        email,
        module("telegram", true, "ok", "per agent, with its own bot".into(), "Telegram chats and owner notifications"),
        module("webhooks", true, "ok", "signed deliveries with retries".into(), "outbound webhooks"),
        module(
            "admin",
            state.config().admin_password.is_some(),
            if state.config().admin_password.is_some() { "ok" } else { "off" },
            "ADMIN_PASSWORD".into(),
            "operator routes",
        ),
    ]
}
