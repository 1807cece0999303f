//! Operator routes (SPEC A5): `Authorization: Bearer $ADMIN_PASSWORD`, compared in constant
//! time; with `ADMIN_PASSWORD` unset every route here is 403 (fail closed).

use axum::extract::{FromRequestParts, State};
use axum::http::header;
use axum::http::request::Parts;
use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_platform::jobs::registry::CycleInfo;
use miniclaw_platform::jobs::worker::{RunCycleError, run_cycle_now};
use miniclaw_platform::jobs::{Job, NewJob, queue};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(run_agent_cycle))
        .routes(routes!(run_platform_cycle))
        .routes(routes!(list_cycles))
        .routes(routes!(list_jobs, enqueue_job))
        .routes(routes!(retry_job))
        .routes(routes!(grant_credits))
        .routes(routes!(suspend_tenant, resume_tenant))
        .routes(routes!(credit_books))
}

/// Proof that the request carries the admin bearer.
pub struct Admin;

impl FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let Some(expected) = &state.config().admin_password else {
            return Err(ApiError(Error::Refused {
                code: "admin_disabled",
                message: "admin routes are disabled because ADMIN_PASSWORD is not set".into(),
            }));
        };
        let given = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(|| Error::Unauthenticated("missing `Authorization: Bearer <admin password>`".into()))?;
        // Hash both sides first so the comparison takes the same time whatever the lengths.
        let a = Sha256::digest(given.trim().as_bytes());
        let b = Sha256::digest(expected.expose().as_bytes());
        if bool::from(a.ct_eq(&b)) {
            Ok(Admin)
        } else {
            Err(ApiError(Error::Unauthenticated("invalid admin credentials".into())))
        }
    }
}

impl From<RunCycleError> for ApiError {
    fn from(e: RunCycleError) -> Self {
        match e {
            RunCycleError::Unknown { .. } => ApiError(Error::NotFound(e.to_string())),
            RunCycleError::NeedsAgent { .. } | RunCycleError::PlatformWide { .. } => {
                ApiError(Error::Unprocessable { code: "wrong_cycle_scope", message: e.to_string(), details: None })
            }
            RunCycleError::Db(e) => e.into(),
        }
    }
}

/// Runs one per-agent background cycle now and returns the finished job (result or error).
#[utoipa::path(post, path = "/v1/admin/agents/{id}/run/{cycle}", tag = "admin",
    params(("id" = Uuid, Path, description = "Agent id"), ("cycle" = String, Path, description = "Cycle name, see GET /v1/admin/cycles")),
    security(("admin_bearer" = [])),
    responses(
        (status = 200, body = Job, description = "The job ran; `status` is `done` or `dead` with `last_error`"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "Unknown agent or cycle"),
        (status = 422, body = ErrorBody, description = "The cycle is platform-wide"),
    ))]
async fn run_agent_cycle(
    _: Admin,
    State(state): State<AppState>,
    Path((id, cycle)): Path<(AgentId, String)>,
) -> ApiResult<Json<Job>> {
    if miniclaw_domain::tenancy::agents::tenant_of(state.pool(), id).await?.is_none() {
        return Err(ApiError::not_found("agent"));
    }
    Ok(Json(run_cycle_now(state.pool(), state.registry(), &cycle, Some(id)).await?))
}

/// Runs one platform-wide background cycle now and returns the finished job.
#[utoipa::path(post, path = "/v1/admin/run/{cycle}", tag = "admin",
    params(("cycle" = String, Path, description = "Cycle name, see GET /v1/admin/cycles")),
    security(("admin_bearer" = [])),
    responses(
        (status = 200, body = Job), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody, description = "The cycle runs per agent"),
    ))]
async fn run_platform_cycle(
    _: Admin,
    State(state): State<AppState>,
    Path(cycle): Path<String>,
) -> ApiResult<Json<Job>> {
    Ok(Json(run_cycle_now(state.pool(), state.registry(), &cycle, None).await?))
}

/// The background cycles this instance knows, with scope and interval.
#[utoipa::path(get, path = "/v1/admin/cycles", tag = "admin", security(("admin_bearer" = [])),
    responses((status = 200, body = Vec<CycleInfo>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_cycles(_: Admin, State(state): State<AppState>) -> Json<Vec<CycleInfo>> {
    Json(state.registry().describe())
}

#[derive(Debug, Deserialize, IntoParams, ToSchema)]
#[into_params(parameter_in = Query)]
pub struct JobFilter {
    /// `queued`, `running`, `done` or `dead`.
    pub status: Option<String>,
    pub kind: Option<String>,
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The cursor of the page: the `X-Next-Before` of the previous one.
    pub before: Option<Uuid>,
}

/// Jobs, newest first; `?status=dead` lists the dead letters with their verbatim errors.
/// `X-Next-Before` names the next page.
#[utoipa::path(get, path = "/v1/admin/jobs", tag = "admin", params(JobFilter), security(("admin_bearer" = [])),
    responses((status = 200, body = Vec<Job>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_jobs(_: Admin, State(state): State<AppState>, Query(f): Query<JobFilter>) -> ApiResult<Paged<Job>> {
    if let Some(s) = &f.status
        && !["queued", "running", "done", "dead"].contains(&s.as_str())
    {
        return Err(ApiError::validation("status", "status must be one of queued, running, done, dead"));
    }
    let page = Page { limit: f.limit, before: f.before };
    let rows = queue::list(state.pool(), f.status.as_deref(), f.kind.as_deref(), page.fetch()?, f.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |j| j.id))
}

/// Puts a dead-lettered job back in the queue with fresh attempts.
#[utoipa::path(post, path = "/v1/admin/jobs/{id}/retry", tag = "admin",
    params(("id" = Uuid, Path, description = "Job id")), security(("admin_bearer" = [])),
    responses((status = 200, body = Job), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "The job is not dead")))]
async fn retry_job(_: Admin, State(state): State<AppState>, Path(id): Path<Uuid>) -> ApiResult<Json<Job>> {
    if let Some(job) = queue::retry_dead(state.pool(), id).await? {
        return Ok(Json(job));
    }
    match queue::get(state.pool(), id).await? {
        None => Err(ApiError::not_found("job")),
        Some(j) => Err(ApiError(Error::Conflict(format!("job is {}, only dead jobs can be retried", j.status)))),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EnqueueJob {
    /// A cycle name from GET /v1/admin/cycles.
    pub kind: String,
    /// Required for per-agent cycles, refused for platform-wide ones.
    pub agent_id: Option<AgentId>,
    #[schema(value_type = Option<Object>)]
    pub payload: Option<serde_json::Value>,
    /// When to run; default now.
    pub run_at: Option<chrono::DateTime<chrono::Utc>>,
    /// A second enqueue with the same key returns the first job instead of adding one.
    pub idempotency_key: Option<String>,
    /// 1–20, default 5.
    pub max_attempts: Option<i32>,
}

/// Enqueues a cycle to run at a given time (or now) on the workers.
#[utoipa::path(post, path = "/v1/admin/jobs", tag = "admin", request_body = EnqueueJob, security(("admin_bearer" = [])),
    responses((status = 201, body = Job, description = "Enqueued"), (status = 200, body = Job, description = "Already enqueued under this idempotency key"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "Unknown cycle"), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn enqueue_job(
    _: Admin,
    State(state): State<AppState>,
    Json(body): Json<EnqueueJob>,
) -> ApiResult<(axum::http::StatusCode, Json<Job>)> {
    let Some(cycle) = state.registry().get(&body.kind) else {
        return Err(ApiError(Error::NotFound(format!("unknown cycle `{}`; see GET /v1/admin/cycles", body.kind))));
    };
    match (cycle.scope, body.agent_id) {
        (miniclaw_platform::jobs::CycleScope::Agent, None) => {
            return Err(ApiError::validation(
                "agent_id",
                format!("cycle `{}` runs per agent; agent_id is required", body.kind),
            ));
        }
        (miniclaw_platform::jobs::CycleScope::Platform, Some(_)) => {
            return Err(ApiError::validation(
                "agent_id",
                format!("cycle `{}` is platform-wide; omit agent_id", body.kind),
            ));
        }
        _ => {}
    }
    let max_attempts = body.max_attempts.unwrap_or(cycle.max_attempts);
    if !(1..=20).contains(&max_attempts) {
        return Err(ApiError::validation("max_attempts", "max_attempts must be between 1 and 20"));
    }
    if let Some(k) = &body.idempotency_key {
        if k.is_empty() {
            return Err(ApiError::validation("idempotency_key", "idempotency_key must be 1–200 characters"));
        }
        ApiError::check_length("idempotency_key", k, 200)?;
    }
    let mut job = NewJob::new(body.kind)
        .max_attempts(max_attempts)
        .payload(body.payload.unwrap_or_else(|| serde_json::json!({})));
    job.agent_id = body.agent_id;
    job.run_at = body.run_at;
    job.idempotency_key = body.idempotency_key;
    let enqueued = queue::enqueue(state.pool(), job).await?;
    let job = queue::get(state.pool(), enqueued.id).await?.ok_or_else(|| ApiError::not_found("job"))?;
    let status = if enqueued.created { axum::http::StatusCode::CREATED } else { axum::http::StatusCode::OK };
    Ok((status, Json(job)))
}

/// A grant of platform credits to a tenant.
#[derive(Debug, Clone, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Grant {
    pub tenant_id: Uuid,
    /// 1 to 1,000,000,000 credits.
    pub amount: i64,
    /// The same key grants once: a retry returns the first grant (`replayed: true`).
    pub idempotency_key: String,
    pub memo: Option<String>,
}

/// Grants credits from the platform's issuance account to a tenant (404 for an unknown tenant).
#[utoipa::path(post, path = "/v1/admin/credits/grants", tag = "admin", request_body = Grant, security(("admin_bearer" = [])),
    responses((status = 201, body = miniclaw_domain::onchain::credits::Transfer), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn grant_credits(
    _: Admin,
    State(state): State<AppState>,
    Json(g): Json<Grant>,
) -> ApiResult<(axum::http::StatusCode, Json<miniclaw_domain::onchain::credits::Transfer>)> {
    if !(1..=1_000_000_000).contains(&g.amount) {
        return Err(ApiError::validation("amount", "amount is 1 to 1,000,000,000 credits"));
    }
    if g.idempotency_key.trim().is_empty() {
        return Err(ApiError::validation("idempotency_key", "idempotency_key must be 1–200 characters"));
    }
    ApiError::check_length("idempotency_key", &g.idempotency_key, 200)?;
    if let Some(m) = &g.memo {
        ApiError::check_length("memo", m, 500)?;
    }
    let mut tx = state.pool().begin().await?;
    let tenant = miniclaw_core::ids::TenantId(g.tenant_id);
    let t = miniclaw_domain::onchain::credits::grant(&mut tx, tenant, g.amount, g.idempotency_key, g.memo).await?;
    tx.commit().await?;
    Ok((axum::http::StatusCode::CREATED, Json(t)))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Suspension {
    /// Why (1–500 characters): shown to the account's model calls' refusals and kept in its log.
    pub reason: String,
}

/// Suspends a tenant: its owners' sessions end and they cannot sign in, its keys are refused
/// (403 `account_suspended`), its model calls stop (the tenant's kill switch, with the reason),
/// its jobs (mail, webhook deliveries, cycles) stay queued. Nothing is deleted. 404 for an
/// unknown tenant.
#[utoipa::path(put, path = "/v1/admin/tenants/{tenant}/suspension", tag = "admin",
    params(("tenant" = Uuid, Path, description = "Tenant id")), request_body = Suspension, security(("admin_bearer" = [])),
    responses((status = 204, description = "Suspended"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn suspend_tenant(
    _: Admin,
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Path(tenant): Path<Uuid>,
    Json(s): Json<Suspension>,
) -> ApiResult<axum::http::StatusCode> {
    let origin = miniclaw_platform::activity::Origin::new(
        miniclaw_core::actor::Actor::Admin,
        super::extract::request_id(&headers),
    );
    miniclaw_domain::tenancy::suspension::suspend(state.pool(), tenant.into(), &origin, &s.reason).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// Resumes a suspended tenant: its keys work again, its owners may sign in (their ended
/// sessions stay ended), its queued jobs run. 404 for an unknown tenant or one not suspended.
#[utoipa::path(delete, path = "/v1/admin/tenants/{tenant}/suspension", tag = "admin",
    params(("tenant" = Uuid, Path, description = "Tenant id")), security(("admin_bearer" = [])),
    responses((status = 204, description = "Resumed"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn resume_tenant(
    _: Admin,
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Path(tenant): Path<Uuid>,
) -> ApiResult<axum::http::StatusCode> {
    let origin = miniclaw_platform::activity::Origin::new(
        miniclaw_core::actor::Actor::Admin,
        super::extract::request_id(&headers),
    );
    if !miniclaw_domain::tenancy::suspension::resume(state.pool(), tenant.into(), &origin).await? {
        return Err(ApiError(Error::not_found("suspension")));
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// The state of the credit books: the sums of all balances and of all entries (both always 0),
/// transfers without two entries summing to zero (always 0), and the credits in circulation.
#[utoipa::path(get, path = "/v1/admin/credits/books", tag = "admin", security(("admin_bearer" = [])),
    responses((status = 200, body = miniclaw_domain::onchain::credits::Books), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn credit_books(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<miniclaw_domain::onchain::credits::Books>> {
    let mut conn = state.pool().acquire().await?;
    Ok(Json(miniclaw_domain::onchain::credits::books(&mut conn).await?))
}
