//! The notification centre (SPEC O4): what an agent told its owner, with the read state. The
//! delivery mode and quiet hours are agent settings (`notification_mode`, `quiet_hours`,
//! `timezone`). Owner only: notifications are the owner's.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::channels::notifications::{self, Notification};
use miniclaw_domain::tenancy::auth::AgentScope;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_notifications))
        .routes(routes!(read_notification))
        .routes(routes!(read_all))
}

#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NotificationQuery {
    /// Only the unread ones.
    pub unread: Option<bool>,
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The `X-Next-Before` of the previous page.
    pub before: Option<Uuid>,
}

/// The agent's notifications, newest first, with their delivery and read state; paged
/// (`X-Next-Before`). Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/notifications", tag = "notifications",
    params(("id" = Uuid, Path, description = "Agent id"), NotificationQuery), security(("owner_session" = [])),
    responses((status = 200, body = Vec<Notification>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_notifications(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<NotificationQuery>,
) -> ApiResult<Paged<Notification>> {
    scope.require_owner()?;
    let page = Page { limit: q.limit, before: q.before };
    let rows = notifications::list(state.pool(), scope.agent_id, q.unread.unwrap_or(false), page.fetch()?, page.before)
        .await?;
    Ok(Paged::newest_first(rows, page.limit()?, |n| n.id))
}

/// Marks one notification read. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/notifications/{nid}/read", tag = "notifications",
    params(("id" = Uuid, Path, description = "Agent id"), ("nid" = Uuid, Path, description = "Notification id")),
    security(("owner_session" = [])),
    responses((status = 200, body = Notification), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn read_notification(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<Notification>> {
    scope.require_owner()?;
    Ok(Json(notifications::mark_read(state.pool(), scope.agent_id, ids.1).await?))
}

/// How many notifications a call marked read.
#[derive(Debug, Serialize, ToSchema)]
pub struct MarkedRead {
    pub marked: u64,
}

/// Marks every notification of the agent read. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/notifications/read-all", tag = "notifications",
    params(("id" = Uuid, Path, description = "Agent id")), security(("owner_session" = [])),
    responses((status = 200, body = MarkedRead), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn read_all(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<MarkedRead>> {
    scope.require_owner()?;
    Ok(Json(MarkedRead { marked: notifications::mark_all_read(state.pool(), scope.agent_id).await? }))
}
