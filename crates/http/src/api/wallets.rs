//! Wallets (SPEC I2): the agent's server-managed wallet (create, address and balance, the
//! owner's limits, sends with confirmation above a threshold, transactions) and its owner-held
//! wallets by address. No route ever returns a key.

use axum::extract::State;
use axum::http::StatusCode;
use miniclaw_core::Error;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::onchain::wallets::external::{self, ExternalInput, ExternalWallet};
use miniclaw_domain::onchain::wallets::send::{self, LimitsInput, SendRequest};
use miniclaw_domain::onchain::wallets::transactions::{self, WalletTransaction};
use miniclaw_domain::onchain::wallets::{self, Wallet};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};
use uuid::Uuid;

const READ: Scope = Scope("wallet:read");
const WRITE: Scope = Scope("wallet:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_wallet, create_wallet))
        .routes(routes!(set_limits))
        .routes(routes!(send_value))
        .routes(routes!(list_transactions))
        .routes(routes!(confirm_send))
        .routes(routes!(cancel_send))
        .routes(routes!(list_external, add_external))
        .routes(routes!(remove_external))
}

/// The wallet with its balance on the configured chain.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WalletView {
    #[serde(flatten)]
    pub wallet: Wallet,
    /// The configured chain, if any.
    pub chain_id: Option<u64>,
    /// Native balance in wei (decimal string); `null` without a chain or when the node did not answer.
    pub balance_wei: Option<String>,
    /// Why there is no balance.
    pub balance_error: Option<String>,
}

/// The agent's server-managed wallet: address, limits and balance. 404 when it has none.
/// Key scope: `wallet:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/wallet", tag = "wallets", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["wallet:read"])),
    responses((status = 200, body = WalletView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_wallet(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<WalletView>> {
    scope.require(READ)?;
    let wallet = wallets::get(state.pool(), scope.agent_id).await?.ok_or_else(|| ApiError::not_found("wallet"))?;
    let chain = state.deps().chain.as_deref();
    let (balance_wei, balance_error) = match wallets::balance(chain, &wallet.address).await {
        Ok(b) => (Some(b), None),
        Err(e) => (None, Some(e)),
    };
    Ok(Json(WalletView { wallet, chain_id: chain.map(|c| c.chain_id), balance_wei, balance_error }))
}

/// Generates the agent's wallet: a secp256k1 key made on the server, sealed under the master
/// key and never shown (the answer is the address). 409 when the agent has one; 422
/// `master_key_required` when no master key is configured. Key scope: `wallet:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/wallet", tag = "wallets", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["wallet:write"])),
    responses((status = 201, body = Wallet), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_wallet(State(state): State<AppState>, scope: AgentScope) -> ApiResult<(StatusCode, Json<Wallet>)> {
    scope.require(WRITE)?;
    let mut tx = state.pool().begin().await?;
    let created =
        wallets::create(&mut tx, &state.deps().vault, scope.tenant_id, scope.agent_id, &scope.origin()).await?;
    tx.commit().await?;
    let wallet = created.ok_or_else(|| Error::Conflict("the agent already has a wallet".into()))?;
    Ok((StatusCode::CREATED, Json(wallet)))
}

/// The wallet's transactions (registrations, URI updates, sends), newest first, with their
/// status and, once mined, block and gas; paged (`X-Next-Before`). Key scope: `wallet:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/wallet/transactions", tag = "wallets",
    params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["wallet:read"])),
    responses((status = 200, body = Vec<WalletTransaction>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_transactions(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<WalletTransaction>> {
    scope.require(READ)?;
    let rows = transactions::list(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |t| t.id))
}

/// Sets the send limits: `max_per_tx_wei`, `max_per_day_wei` (any 24 hours) and
/// `confirm_above_wei` (sends above it wait for the owner); `null` clears one (no per-transaction
/// or per-day limit means nothing can be sent). Owner only: a key cannot raise its own limits.
#[utoipa::path(put, path = "/v1/hosted-agents/{id}/wallet/limits", tag = "wallets", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = LimitsInput, security(("owner_session" = [])),
    responses((status = 200, body = Wallet), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn set_limits(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<LimitsInput>,
) -> ApiResult<Json<Wallet>> {
    scope.require_owner()?;
    Ok(Json(send::set_limits(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), input).await?))
}

/// Sends native value from the agent's wallet (202): queued at once, or
/// `awaiting_confirmation` when above the owner's threshold. 422 `wallet_limit` when above the
/// per-transaction or the 24-hour limit (or none is set), with the limit in `details`.
/// Key scope: `wallet:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/wallet/send", tag = "wallets", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = SendRequest, security(("owner_session" = []), ("api_key" = ["wallet:write"])),
    responses((status = 202, body = WalletTransaction), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn send_value(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<SendRequest>,
) -> ApiResult<(StatusCode, Json<WalletTransaction>)> {
    scope.require(WRITE)?;
    let tx = send::request(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), input).await?;
    Ok((StatusCode::ACCEPTED, Json(tx)))
}

/// Confirms a send waiting for the owner: it is queued. 409 when it is not waiting. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/wallet/transactions/{tid}/confirm", tag = "wallets",
    params(("id" = Uuid, Path, description = "Agent id"), ("tid" = Uuid, Path, description = "Transaction id")),
    security(("owner_session" = [])),
    responses((status = 200, body = WalletTransaction), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn confirm_send(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<WalletTransaction>> {
    scope.require_owner()?;
    Ok(Json(send::decide(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1, true).await?))
}

/// Declines a send waiting for the owner: it is cancelled. 409 when it is not waiting. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/wallet/transactions/{tid}/cancel", tag = "wallets",
    params(("id" = Uuid, Path, description = "Agent id"), ("tid" = Uuid, Path, description = "Transaction id")),
    security(("owner_session" = [])),
    responses((status = 200, body = WalletTransaction), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn cancel_send(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<Json<WalletTransaction>> {
    scope.require_owner()?;
    Ok(Json(send::decide(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1, false).await?))
}

/// The agent's owner-held wallets, newest first, with their balances; paged (`X-Next-Before`).
/// Key scope: `wallet:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/wallet/external", tag = "wallets",
    params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["wallet:read"])),
    responses((status = 200, body = Vec<ExternalWallet>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_external(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<ExternalWallet>> {
    scope.require(READ)?;
    let chain = state.deps().chain.as_deref();
    let rows = external::list(state.pool(), chain, scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |w| w.id))
}

/// Adds an owner-held wallet by address (read-only: its balance is shown, nothing is signed).
/// 409 when listed already or at the limit of 20. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/wallet/external", tag = "wallets", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = ExternalInput, security(("owner_session" = [])),
    responses((status = 201, body = ExternalWallet), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "A label over its length limit (`too_long`)")))]
async fn add_external(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<ExternalInput>,
) -> ApiResult<(StatusCode, Json<ExternalWallet>)> {
    scope.require_owner()?;
    let chain = state.deps().chain.as_deref();
    let created = external::add(state.pool(), chain, scope.tenant_id, scope.agent_id, &scope.origin(), input).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Removes an owner-held wallet from the agent. Owner only.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/wallet/external/{eid}", tag = "wallets",
    params(("id" = Uuid, Path, description = "Agent id"), ("eid" = Uuid, Path, description = "Owner-held wallet id")),
    security(("owner_session" = [])),
    responses((status = 204, description = "Removed"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn remove_external(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<StatusCode> {
    scope.require_owner()?;
    if external::remove(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), ids.1).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("owner-held wallet"))
    }
}
