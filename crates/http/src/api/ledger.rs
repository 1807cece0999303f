//! Live state and the session ledger (SPEC X9). They span every user's conversations with the
//! agent, so they are the owner's: an API key gets a 403.

use miniclaw_core::ids::AgentId;

use axum::extract::State;
use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::cognition::ledger::{self, LiveState, Period};
use miniclaw_domain::cognition::recovery::Session;
use miniclaw_domain::tenancy::auth::AgentScope;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(live_state)).routes(routes!(months)).routes(routes!(month)).routes(routes!(day))
}

/// The agent's coordinates (current task, what is on the user's mind, rapport, mood, next
/// steps, where to resume), how much they can still be trusted (1.0 when saved, 0 two days
/// later) and the recovery door a conversation resumed now would take: 3 under 2 hours, 2 up
/// to 24 hours, 1 after that or when nothing was saved; `recovery` is the block it would start
/// with. Saved when a session ends (no message for 30 minutes). Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/live-state", tag = "chat", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = [])),
    responses((status = 200, body = LiveState), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn live_state(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<LiveState>> {
    scope.require_owner()?;
    Ok(Json(ledger::live_state(state.pool(), scope.agent_id, state.deps().clock.now()).await?))
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Months {
    /// Newest first, with their sessions and messages.
    pub months: Vec<Period>,
}

/// The session ledger's months. Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/ledger", tag = "chat", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = [])),
    responses((status = 200, body = Months), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn months(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Months>> {
    scope.require_owner()?;
    Ok(Json(Months { months: ledger::periods(state.pool(), scope.agent_id, None).await? }))
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Month {
    /// `YYYY-MM`.
    pub month: String,
    /// Newest first.
    pub days: Vec<Period>,
}

/// The days of one month of the ledger (`YYYY-MM`, UTC). Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/ledger/months/{month}", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("month" = String, Path, description = "YYYY-MM")),
    security(("owner_session" = [])),
    responses((status = 200, body = Month), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn month(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, String)>,
) -> ApiResult<Json<Month>> {
    scope.require_owner()?;
    let month = ids.1;
    if NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d").is_err() || month.len() != 7 {
        return Err(ApiError::validation("month", "month must be YYYY-MM"));
    }
    let days = ledger::periods(state.pool(), scope.agent_id, Some(&month)).await?;
    Ok(Json(Month { month, days }))
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Day {
    /// `YYYY-MM-DD`.
    pub day: NaiveDate,
    /// Newest first, at most 200, each with its summary.
    pub sessions: Vec<Session>,
}

/// The sessions of one day (`YYYY-MM-DD`, UTC) with their summaries. Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/ledger/days/{day}", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("day" = String, Path, description = "YYYY-MM-DD")),
    security(("owner_session" = [])),
    responses((status = 200, body = Day), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn day(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, String)>,
) -> ApiResult<Json<Day>> {
    scope.require_owner()?;
    let day = NaiveDate::parse_from_str(&ids.1, "%Y-%m-%d")
        .map_err(|_| ApiError::validation("day", "day must be YYYY-MM-DD"))?;
    let sessions = ledger::sessions(state.pool(), scope.agent_id, Some(day), ledger::DAY_SESSIONS_MAX).await?;
    Ok(Json(Day { day, sessions }))
}
