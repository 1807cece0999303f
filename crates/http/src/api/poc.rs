//! The Proof-of-Contribution score (SPEC I4) of an agent: now, with every sub-signal, and its
//! daily history. Readable by the owner and by keys with `agent:read` (the score is derived from
//! what `agent:read` already shows plus activity counts, so it needs no scope of its own).

use axum::extract::State;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Query};
use super::page::{LIMIT_MAX, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use chrono::NaiveDate;
use miniclaw_domain::onchain::poc::{self, Poc, PocDay};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_poc)).routes(routes!(poc_history))
}

/// The agent's PoC score now: five 0–100 dimensions (identity 15 %, social 20 %, economy 25 %,
/// skills 20 %, reputation 20 %), each its sub-signals' points out of the points they could earn
/// (`available`), times the backing multiplier, rounded and clamped to 0–100, with its grade.
/// Sub-signals with no source here (token prices and pools, badges, a wallet balance with no
/// chain) say `"status": "not available"` with the reason in `rule`, and are left out of their
/// dimension's weighting. Key scope: `agent:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/poc", tag = "identity", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["agent:read"])),
    responses((status = 200, body = Poc), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_poc(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Poc>> {
    scope.require(Scope::AGENT_READ)?;
    poc::compute(state.pool(), state.deps().chain.as_deref(), scope.tenant_id, scope.agent_id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found("agent"))
}

/// A page of days, newest first.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DayPage {
    /// 1–500, default 30.
    pub limit: Option<i64>,
    /// Days before this one (`YYYY-MM-DD`): the `X-Next-Before` of the previous page.
    pub before: Option<NaiveDate>,
}

/// The agent's stored daily scores (the `poc_score` cycle), newest day first; `X-Next-Before`
/// names the next page. Key scope: `agent:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/poc/history", tag = "identity",
    params(("id" = Uuid, Path, description = "Agent id"), DayPage),
    security(("owner_session" = []), ("api_key" = ["agent:read"])),
    responses((status = 200, body = Vec<PocDay>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn poc_history(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<DayPage>,
) -> ApiResult<Paged<PocDay>> {
    scope.require(Scope::AGENT_READ)?;
    let limit = q.limit.unwrap_or(30);
    if !(1..=LIMIT_MAX).contains(&limit) {
        return Err(ApiError::validation("limit", format!("limit must be between 1 and {LIMIT_MAX}")));
    }
    let rows = poc::history(state.pool(), scope.agent_id, limit + 1, q.before).await?;
    Ok(Paged::newest_first(rows, limit, |d| d.day))
}
