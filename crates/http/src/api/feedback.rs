//! Learned traversal (SPEC X5) over the API: feedback on replies, which teaches the agent's
//! traversal graph, and the graph's health.

use miniclaw_core::ids::{AgentId, ConversationId, MessageId};

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::chat::{WRITE, caller};
use super::extract::{Json, Path};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::chat::feedback::{self, Feedback, FeedbackInput};
use miniclaw_domain::memory::graph::{self, Health};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(give_feedback, get_feedback)).routes(routes!(graph_health))
}

/// Rates a reply of the agent, `good` or `bad`, or corrects it. A rating teaches the agent's
/// traversal graph with the REINFORCE update over the path the reply's retrieval took (every
/// outgoing edge of every node on it moves toward, or away from, the edge chosen). A correction
/// (a `bad` rating with the text the reply should have said) is stored as a memory, reached
/// from the question's starting memories by strong edges, and vetoes the memory it corrects
/// (`memory_ids`, or the used memory most similar to it) wherever it fires: the wrong memory
/// stops being retrieved that way. One rating per reply; a `bad` one may later get its
/// correction (409 otherwise). Key scope: `chat:write`, and `memories:write` for a correction.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/conversations/{cid}/messages/{mid}/feedback", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("cid" = Uuid, Path, description = "Conversation id"), ("mid" = Uuid, Path, description = "The reply's message id"), ("X-Miniclaw-User" = Option<String>, Header, description = "The miniapp end user the request acts for (1–128 characters); a key bound to one refuses another (403)")),
    request_body = FeedbackInput, security(("owner_session" = []), ("api_key" = ["chat:write"])),
    responses((status = 200, body = Feedback), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn give_feedback(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, ConversationId, MessageId)>,
    Json(input): Json<FeedbackInput>,
) -> ApiResult<Json<Feedback>> {
    scope.require(WRITE)?;
    let may_correct = scope.require(Scope("memories:write")).is_ok();
    Ok(Json(feedback::give(&state, &caller(&scope), ids.1, ids.2, input, may_correct).await?))
}

/// The feedback a reply has (404 when it has none). Key scope: `chat:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/conversations/{cid}/messages/{mid}/feedback", tag = "chat",
    params(("id" = Uuid, Path, description = "Agent id"), ("cid" = Uuid, Path, description = "Conversation id"), ("mid" = Uuid, Path, description = "The reply's message id"), ("X-Miniclaw-User" = Option<String>, Header, description = "The miniapp end user the request acts for (1–128 characters); a key bound to one refuses another (403)")),
    security(("owner_session" = []), ("api_key" = ["chat:read"])),
    responses((status = 200, body = Feedback), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_feedback(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, ConversationId, MessageId)>,
) -> ApiResult<Json<Feedback>> {
    scope.require(super::chat::READ)?;
    feedback::get(&state, &caller(&scope), ids.1, ids.2).await?.map(Json).ok_or_else(|| ApiError::not_found("feedback"))
}

/// The health of the agent's traversal graph (SPEC X5, seed 002 §5.1): nodes (live memories
/// and knowledge chunks), edges by kind and tier, the queries and feedback it learned from, and
/// each metric of 002 with its target range and whether it is in it. The graph grows within a
/// minute of memory changes. Key scope: `memories:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/memory-graph", tag = "memories", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["memories:read"])),
    responses((status = 200, body = Health), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn graph_health(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Health>> {
    scope.require(Scope("memories:read"))?;
    Ok(Json(graph::health(state.pool(), scope.agent_id).await?))
}
