//! An agent's token (SPEC I5) and the gas subsidy of its wallet: deploy, evaluate, holders,
//! transfers. Key scopes `economy:*` for the token, `wallet:*` for the subsidy.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::economy::{READ, WRITE};
use super::extract::{Json, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::onchain::economy::gas::{self, Subsidy, TopupResult};
use miniclaw_domain::onchain::economy::token::{
    self, Evaluation, Holder, Token, TokenInput, TokenTransfer, TransferInput,
};
use miniclaw_domain::onchain::wallets::transactions::WalletTransaction;
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(evaluate, deploy))
        .routes(routes!(holders))
        .routes(routes!(transfers, transfer))
        .routes(routes!(gas_status, gas_top_up))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HolderPage {
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The `X-Next-Before` of the previous page (a holder's address).
    pub before: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TransferPage {
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The `X-Next-Before` of the previous page (`<block>:<log index>`).
    pub before: Option<String>,
}

fn page(limit: Option<i64>) -> Page {
    Page { limit, before: None }
}

/// The agent's token and what the chain says about it: supply (read now), holders, transfers,
/// age and concentration from the indexed events; never a price. 404 when it has none. Key
/// scope: `economy:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/token", tag = "economy", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["economy:read"])),
    responses((status = 200, body = Evaluation), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn evaluate(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Evaluation>> {
    scope.require(READ)?;
    Ok(Json(token::evaluate(state.pool(), state.deps().chain.as_deref(), scope.agent_id).await?))
}

/// Deploys the agent's ERC-20 from its wallet (the whole supply minted to it): 202 with the
/// token `deploying`; the deployment's job brings it to `deployed` or `failed`. 409 when the
/// agent has a token; 422 without a chain or a wallet. Key scope: `economy:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/token", tag = "economy", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = TokenInput, security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 202, body = Token), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn deploy(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<TokenInput>,
) -> ApiResult<(StatusCode, Json<Token>)> {
    scope.require(WRITE)?;
    let t = token::deploy(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), input).await?;
    Ok((StatusCode::ACCEPTED, Json(t)))
}

/// The token's holders by balance, largest first (from the indexed events; `X-Next-Before`
/// pages). Key scope: `economy:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/token/holders", tag = "economy", params(("id" = Uuid, Path, description = "Agent id"), HolderPage),
    security(("owner_session" = []), ("api_key" = ["economy:read"])),
    responses((status = 200, body = Vec<Holder>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn holders(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<HolderPage>,
) -> ApiResult<Paged<Holder>> {
    scope.require(READ)?;
    let p = page(q.limit);
    let rows = token::holders(state.pool(), scope.agent_id, p.fetch()?, q.before.as_deref()).await?;
    Ok(Paged::newest_first(rows, p.limit()?, |h| h.address.clone()))
}

/// The token's transfers, newest first (from the indexed events; `X-Next-Before` pages). Key
/// scope: `economy:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/token/transfers", tag = "economy", params(("id" = Uuid, Path, description = "Agent id"), TransferPage),
    security(("owner_session" = []), ("api_key" = ["economy:read"])),
    responses((status = 200, body = Vec<TokenTransfer>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn transfers(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<TransferPage>,
) -> ApiResult<Paged<TokenTransfer>> {
    scope.require(READ)?;
    let p = page(q.limit);
    let before = match q.before.as_deref() {
        None => None,
        Some(c) => Some(
            c.split_once(':')
                .and_then(|(b, l)| Some((b.parse::<i64>().ok()?, l.parse::<i64>().ok()?)))
                .ok_or_else(|| ApiError::validation("before", "before is `<block>:<log index>`, an X-Next-Before"))?,
        ),
    };
    let rows = token::transfers(state.pool(), scope.agent_id, p.fetch()?, before).await?;
    Ok(Paged::newest_first(rows, p.limit()?, |t| t.cursor.clone()))
}

/// Sends some of the agent's token from its wallet: 202 with the wallet transaction, `queued`
/// when the owner asks, `awaiting_confirmation` when a key does (the owner confirms or cancels it
/// with `POST …/wallet/transactions/{tid}/confirm` or `/cancel`; nothing moves before). 409 while
/// the token is not deployed. Key scope: `economy:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/token/transfers", tag = "economy", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = TransferInput, security(("owner_session" = []), ("api_key" = ["economy:write"])),
    responses((status = 202, body = WalletTransaction), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn transfer(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(input): Json<TransferInput>,
) -> ApiResult<(StatusCode, Json<WalletTransaction>)> {
    scope.require(WRITE)?;
    let tx = token::transfer(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), input).await?;
    Ok((StatusCode::ACCEPTED, Json(tx)))
}

/// The gas subsidy: the floor the platform tops wallets up to, its daily budget, what was given
/// today, and this wallet's top-ups. Key scope: `wallet:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/wallet/gas", tag = "wallets", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["wallet:read"])),
    responses((status = 200, body = Subsidy), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn gas_status(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Subsidy>> {
    scope.require(Scope("wallet:read"))?;
    Ok(Json(gas::status(state.deps(), scope.agent_id).await?))
}

/// Asks the platform's sponsor wallet to top this wallet up to the floor: `topped_up` with the
/// top-up on its way, or why not (at or above the floor, one already on its way). 422
/// `gas_subsidy_off` or `gas_budget_exhausted`. Key scope: `wallet:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/wallet/gas", tag = "wallets", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["wallet:write"])),
    responses((status = 200, body = TopupResult), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn gas_top_up(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<TopupResult>> {
    scope.require(Scope("wallet:write"))?;
    Ok(Json(gas::top_up(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin()).await?))
}
