//! Analytics (SPEC D1, D2, D4): an agent's or the whole tenant's metrics over a date range, the
//! daily snapshots, batch efficiency and the period-over-period comparison.

use axum::extract::State;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use miniclaw_core::Error;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::Admin;
use super::extract::{Json, Path, Query};
use super::page::{LIMIT_MAX, Page, Paged};
use super::poc::DayPage;
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::reads::Reads;
use miniclaw_domain::analytics::brain::{self, BrainGraph};
use miniclaw_domain::analytics::compare::{self, BatchEfficiency, Comparison};
use miniclaw_domain::analytics::quality::{self, Evaluation};
use miniclaw_domain::analytics::snapshots::{self, Snapshot};
use miniclaw_domain::analytics::verticals::{self, Vertical};
use miniclaw_domain::analytics::{self, Analytics, Granularity, MAX_DAYS};
use miniclaw_domain::tenancy::auth::{AgentScope, Owner, Scope};

const READ: Scope = Scope("analytics:read");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(agent_analytics))
        .routes(routes!(tenant_analytics))
        .routes(routes!(list_snapshots))
        .routes(routes!(list_evaluations))
        .routes(routes!(batch_efficiency))
        .routes(routes!(pipeline_comparison))
        .routes(routes!(brain_graph))
        .routes(routes!(tenant_vertical))
        .routes(routes!(platform_vertical))
}

/// A date range.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RangeQuery {
    /// Start: `YYYY-MM-DD` (UTC midnight) or an RFC 3339 time; default 30 days before `to`.
    pub from: Option<String>,
    /// End (exclusive): `YYYY-MM-DD` or an RFC 3339 time; default now.
    pub to: Option<String>,
    /// `hour` or `day` (default): the series' points. A range is widened to whole hours or days.
    pub granularity: Option<String>,
}

fn time(field: &str, text: &str) -> Result<DateTime<Utc>, ApiError> {
    let t = text.trim();
    if let Ok(d) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        return Ok(d.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc());
    }
    DateTime::parse_from_rfc3339(t)
        .map(|d| d.with_timezone(&Utc))
        .map_err(|_| ApiError::validation(field, format!("{field} must be YYYY-MM-DD or an RFC 3339 time")))
}

impl RangeQuery {
    fn parse(&self) -> Result<(DateTime<Utc>, DateTime<Utc>, Granularity), ApiError> {
        let to = self.to.as_deref().map(|t| time("to", t)).transpose()?.unwrap_or_else(Utc::now);
        let from = self.from.as_deref().map(|t| time("from", t)).transpose()?.unwrap_or(to - Duration::days(30));
        if from >= to {
            return Err(ApiError::validation("from", "from must be before to"));
        }
        if to - from > Duration::days(MAX_DAYS) {
            return Err(ApiError::validation("from", format!("a range is at most {MAX_DAYS} days")));
        }
        let granularity = match self.granularity.as_deref().unwrap_or("day") {
            "day" => Granularity::Day,
            "hour" if to - from <= Duration::days(31) => Granularity::Hour,
            "hour" => return Err(ApiError::validation("granularity", "hourly points cover at most 31 days")),
            _ => return Err(ApiError::validation("granularity", "granularity must be hour or day")),
        };
        Ok((from, to, granularity))
    }
}

/// The agent's analytics over a range: messages, cost per message, latency p50/p95 (whole turn
/// and per stage), triage skip rate and reasons, extraction rate, facts per extraction, dedup
/// outcomes, intents, response styles, finish reasons, channels, models, error rate; every model
/// call by model and call type; the memory categories now; and a point per hour or day. Read
/// from hourly rollups (percentiles within 5 %). Key scope: `analytics:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/analytics", tag = "analytics",
    params(("id" = Uuid, Path, description = "Agent id"), RangeQuery),
    security(("owner_session" = []), ("api_key" = ["analytics:read"])),
    responses((status = 200, body = Analytics), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn agent_analytics(scope: AgentScope, reads: Reads, Query(q): Query<RangeQuery>) -> ApiResult<Json<Analytics>> {
    scope.require(READ)?;
    let (from, to, g) = q.parse()?;
    let of = analytics::Scope::Agent(scope.agent_id);
    Ok(Json(crate::read!(reads, db => analytics::analytics(db, of, from, to, g).await)?))
}

/// The same over every agent of the signed-in owner's tenant. Owner only.
#[utoipa::path(get, path = "/v1/analytics", tag = "analytics", params(RangeQuery), security(("owner_session" = [])),
    responses((status = 200, body = Analytics), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn tenant_analytics(owner: Owner, reads: Reads, Query(q): Query<RangeQuery>) -> ApiResult<Json<Analytics>> {
    let (from, to, g) = q.parse()?;
    let of = analytics::Scope::Tenant(owner.tenant_id);
    Ok(Json(crate::read!(reads, db => analytics::analytics(db, of, from, to, g).await)?))
}

/// The agent's daily pipeline snapshots (23 metrics per UTC day, written by the daily
/// `pipeline_snapshot` cycle, which backfills 30 days on its first run), newest first;
/// `X-Next-Before` names the next page. Key scope: `analytics:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/analytics/snapshots", tag = "analytics",
    params(("id" = Uuid, Path, description = "Agent id"), DayPage),
    security(("owner_session" = []), ("api_key" = ["analytics:read"])),
    responses((status = 200, body = Vec<Snapshot>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_snapshots(scope: AgentScope, reads: Reads, Query(q): Query<DayPage>) -> ApiResult<Paged<Snapshot>> {
    scope.require(READ)?;
    let limit = q.limit.unwrap_or(30);
    if !(1..=LIMIT_MAX).contains(&limit) {
        return Err(ApiError::validation("limit", format!("limit must be between 1 and {LIMIT_MAX}")));
    }
    let rows = crate::read!(reads, db => snapshots::list(db, scope.agent_id, limit + 1, q.before).await)?;
    Ok(Paged::newest_first(rows, limit, |s| s.day))
}

/// The agent's quality evaluations (the daily `quality_eval` cycle: up to ten exchanges a day,
/// relevance 30 %, coherence 25 %, personality 25 %, context use 20 %, 1–10 each, with the
/// reasoning; `judge` says `model` or `heuristic`), newest first; paged (`X-Next-Before`). Key
/// scope: `analytics:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/analytics/quality", tag = "analytics",
    params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["analytics:read"])),
    responses((status = 200, body = Vec<Evaluation>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_evaluations(scope: AgentScope, reads: Reads, Query(page): Query<Page>) -> ApiResult<Paged<Evaluation>> {
    scope.require(READ)?;
    let fetch = page.fetch()?;
    let rows = crate::read!(reads, db => quality::list(db, scope.agent_id, fetch, page.before).await)?;
    Ok(Paged::newest_first(rows, page.limit()?, |e| e.message_id))
}

/// A number of days.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DaysQuery {
    /// 1–180, default 7 (comparison) or 30 (batch efficiency).
    pub period: Option<i64>,
}

fn days(q: &DaysQuery, default: i64) -> Result<i64, ApiError> {
    let d = q.period.unwrap_or(default);
    if !(1..=180).contains(&d) {
        return Err(ApiError::validation("period", "period must be between 1 and 180 days"));
    }
    Ok(d)
}

/// Extraction batching over the last `period` days (default 30): calls made, calls a
/// per-message extraction would have made on top, efficiency, an estimate of the tokens saved,
/// and the daily batch size, threshold and facts per extraction. Key scope: `analytics:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/batch-efficiency", tag = "analytics",
    params(("id" = Uuid, Path, description = "Agent id"), DaysQuery),
    security(("owner_session" = []), ("api_key" = ["analytics:read"])),
    responses((status = 200, body = BatchEfficiency), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn batch_efficiency(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<DaysQuery>,
) -> ApiResult<Json<BatchEfficiency>> {
    scope.require(READ)?;
    let d = days(&q, 30)?;
    Ok(Json(compare::batch_efficiency(state.pool(), scope.agent_id, d, Utc::now()).await?))
}

/// The last `period` days (default 7) against the `period` days before, over 14 metrics (cost,
/// latency, extraction, dedup, quality, volume): each value, the delta, the change in percent,
/// and whether it is an improvement for that metric. Key scope: `analytics:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/pipeline-comparison", tag = "analytics",
    params(("id" = Uuid, Path, description = "Agent id"), DaysQuery),
    security(("owner_session" = []), ("api_key" = ["analytics:read"])),
    responses((status = 200, body = Comparison), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn pipeline_comparison(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<DaysQuery>,
) -> ApiResult<Json<Comparison>> {
    scope.require(READ)?;
    let d = days(&q, 7)?;
    Ok(Json(compare::comparison(state.pool(), scope.agent_id, d, Utc::now()).await?))
}

/// Options of the brain graph.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BrainQuery {
    /// How many memories (the most important first): 1–1,000, default 300.
    pub limit: Option<i64>,
    /// The seed of PCA's start vectors and K-Means' start: the same seed gives the same graph
    /// (default 42).
    pub seed: Option<u64>,
}

/// The agent's brain graph: its most important live memories placed in 3-D by PCA of their
/// embeddings (power iteration, 50 iterations, with deflation), clustered by K-Means on the
/// normalised embeddings (k = round(√(n/2)), 1–12, at most 30 iterations), joined where their
/// cosine similarity is above 0.5 (each keeping its 5 nearest), clusters named by their most
/// frequent words. Key scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/brain-graph", tag = "analytics",
    params(("id" = Uuid, Path, description = "Agent id"), BrainQuery),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = BrainGraph), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn brain_graph(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<BrainQuery>,
) -> ApiResult<Json<BrainGraph>> {
    scope.require(Scope("memories:read"))?;
    let limit = q.limit.unwrap_or(300);
    if !(1..=1000).contains(&limit) {
        return Err(ApiError::validation("limit", "limit must be between 1 and 1000"));
    }
    let model = state.embedder().model().to_string();
    let graph = brain::graph(state.pool(), scope.agent_id, &model, limit, q.seed.unwrap_or(42)).await?;
    Ok(Json(graph))
}

fn unknown_vertical(name: &str) -> ApiError {
    ApiError(Error::NotFound(format!("no vertical {name:?}: one of {}", verticals::VERTICALS.join(", "))))
}

/// One of the five verticals (`trust`, `economy`, `runtime`, `reputation`, `social`) over the
/// signed-in owner's agents; kept 60 s in the server (`cached`). Metrics the platform has no
/// data for yet are listed in `not_available` with the reason. Owner only.
#[utoipa::path(get, path = "/v1/vertical-metrics/{vertical}", tag = "analytics",
    params(("vertical" = String, Path, description = "trust, economy, runtime, reputation or social")),
    security(("owner_session" = [])),
    responses((status = 200, body = Vertical), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn tenant_vertical(
    State(state): State<AppState>,
    owner: Owner,
    Path(name): Path<String>,
) -> ApiResult<Json<Vertical>> {
    verticals::get(state.pool(), &name, Some(owner.tenant_id)).await?.map(Json).ok_or_else(|| unknown_vertical(&name))
}

/// The same vertical over the whole platform: the operator's view.
#[utoipa::path(get, path = "/v1/admin/vertical-metrics/{vertical}", tag = "admin",
    params(("vertical" = String, Path, description = "trust, economy, runtime, reputation or social")),
    security(("admin_bearer" = [])),
    responses((status = 200, body = Vertical), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn platform_vertical(
    State(state): State<AppState>,
    _: Admin,
    Path(name): Path<String>,
) -> ApiResult<Json<Vertical>> {
    verticals::get(state.pool(), &name, None).await?.map(Json).ok_or_else(|| unknown_vertical(&name))
}
