//! Server-managed wallets (SPEC I2): create the agent's wallet, read its address and balance,
//! list its transactions. No route ever returns the key.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::auth::Page;
use super::extract::{Json, Query};
use crate::app::AppState;
use crate::auth::{AgentScope, Scope};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::wallets::transactions::{self, WalletTransaction};
use crate::wallets::{self, Wallet};

const READ: Scope = Scope("wallet:read");
const WRITE: Scope = Scope("wallet:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_wallet, create_wallet)).routes(routes!(list_transactions))
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
    let (balance_wei, balance_error) = match chain {
        None => (None, Some("no chain is configured (EVM_RPC_URL)".to_string())),
        Some(c) => match wallet.address.parse() {
            Ok(address) => match c.balance(address).await {
                Ok(b) => (Some(b.to_string()), None),
                Err(e) => (None, Some(e.to_string())),
            },
            Err(_) => (None, Some("the stored address does not parse".to_string())),
        },
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
    let wallet = created.ok_or_else(|| ApiError::Conflict("the agent already has a wallet".into()))?;
    Ok((StatusCode::CREATED, Json(wallet)))
}

/// The wallet's transactions (registrations, URI updates, sends), newest first, with their
/// status and, once mined, block and gas. Key scope: `wallet:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/wallet/transactions", tag = "wallets",
    params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["wallet:read"])),
    responses((status = 200, body = Vec<WalletTransaction>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_transactions(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Json<Vec<WalletTransaction>>> {
    scope.require(READ)?;
    let limit = page.limit()?.min(transactions::LIST_MAX);
    Ok(Json(transactions::list(state.pool(), scope.agent_id, limit, page.before).await?))
}
