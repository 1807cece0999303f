//! Telegram (SPEC O6): the owner connects the agent's bot (the token is sealed and never
//! returned), and Telegram delivers the bot's updates to the webhook, which checks the secret
//! token registered with `setWebhook`.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path};
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::channels::telegram::{self, ConnectInput, Handled, SECRET_HEADER, TelegramStatus, Update};
use miniclaw_domain::tenancy::auth::AgentScope;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_telegram, connect_telegram, disconnect_telegram))
        .routes(routes!(telegram_webhook))
}

/// The agent's Telegram bot: connected or not, its username, the owner's link code and whether
/// the owner's chat is linked (never the token). Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/telegram", tag = "telegram",
    params(("id" = Uuid, Path, description = "Agent id")), security(("owner_session" = [])),
    responses((status = 200, body = TelegramStatus), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn get_telegram(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<TelegramStatus>> {
    scope.require_owner()?;
    Ok(Json(telegram::status(state.deps(), scope.agent_id).await?))
}

/// Connects the agent's bot: `getMe` checks the token, `setWebhook` points the bot at
/// `/webhooks/telegram/{id}` with a new secret token, and the token is sealed under the master
/// key. Send `/start <link_code>` to the bot to get notifications there. 400 for a token of the
/// wrong shape, 422 when Telegram refuses it, 502 when the Bot API cannot be reached. Owner only.
#[utoipa::path(put, path = "/v1/hosted-agents/{id}/telegram", tag = "telegram",
    params(("id" = Uuid, Path, description = "Agent id")), request_body = ConnectInput, security(("owner_session" = [])),
    responses((status = 200, body = TelegramStatus), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 502, body = ErrorBody)))]
async fn connect_telegram(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<ConnectInput>,
) -> ApiResult<Json<TelegramStatus>> {
    scope.require_owner()?;
    Ok(Json(telegram::connect(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), input).await?))
}

/// Disconnects the bot (`deleteWebhook`, then the token is forgotten). 404 when none is
/// connected. Owner only.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/telegram", tag = "telegram",
    params(("id" = Uuid, Path, description = "Agent id")), security(("owner_session" = [])),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn disconnect_telegram(State(state): State<AppState>, scope: AgentScope) -> ApiResult<StatusCode> {
    scope.require_owner()?;
    telegram::disconnect(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Telegram delivers the bot's updates here. The `X-Telegram-Bot-Api-Secret-Token` header must
/// be the secret registered with `setWebhook` (401 otherwise; nothing reaches the agent). A
/// message is recorded with the job that answers it (`received`): the job runs it through the
/// agent's chat pipeline (channel `telegram`) and sends the reply with `sendMessage`.
/// `/start <link code>` links the owner's chat for notifications. A redelivered update (same
/// `update_id`) changes nothing. 404 when the agent has no bot.
#[utoipa::path(post, path = "/webhooks/telegram/{id}", tag = "telegram", request_body = Update,
    params(("id" = Uuid, Path, description = "Agent id"),
        ("X-Telegram-Bot-Api-Secret-Token" = String, Header, description = "The secret token given to setWebhook")),
    responses((status = 200, body = Handled), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn telegram_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(agent): Path<AgentId>,
    Json(update): Json<Update>,
) -> ApiResult<Json<Handled>> {
    let secret = headers.get(SECRET_HEADER).and_then(|v| v.to_str().ok());
    Ok(Json(telegram::handle(state.deps(), agent, secret, update).await?))
}
