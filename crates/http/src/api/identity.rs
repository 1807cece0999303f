//! ERC-8004 identity (SPEC I1): the agent's registration status, the request to register it,
//! its registration-file profile, and the public registration files.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use miniclaw_core::Error;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::Admin;
use super::extract::{Json, Path};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::onchain::identity::{self, Identity, Profile, file};
use miniclaw_domain::tenancy::auth::{AgentScope, Scope};

const READ: Scope = Scope("identity:read");
const WRITE: Scope = Scope("identity:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_identity, update_profile))
        .routes(routes!(register))
        .routes(routes!(prove_domain))
        .routes(routes!(registration_file))
        .routes(routes!(well_known_registration))
        .routes(routes!(sponsor_wallet))
}

/// The agent's ERC-8004 identity: `none`, `pending`, `registered` (with its agentId, registry
/// and transaction) or `failed` with the reason. Key scope: `identity:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/identity", tag = "identity", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["identity:read"])),
    responses((status = 200, body = Identity), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_identity(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Identity>> {
    scope.require(READ)?;
    Ok(Json(identity::get(state.pool(), &state.public_url(), scope.agent_id).await?))
}

/// Registers the agent on the configured chain's IdentityRegistry: creates the agent's wallet
/// if it has none, marks the identity `pending` and queues the registration job (202). The
/// wallet pays the gas: fund it first, or the registration ends `failed` with the node's
/// reason. A pending registration that is `stalled` (its job gave up retrying an unreachable
/// node) is resumed without a second registration. 409 when registered already or pending with
/// its job at work; 422 `chain_not_configured` without a chain,
/// `master_key_required` without a configured master key. Key scope: `identity:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/identity/register", tag = "identity", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["identity:write"])),
    responses((status = 202, body = Identity), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn register(State(state): State<AppState>, scope: AgentScope) -> ApiResult<(StatusCode, Json<Identity>)> {
    scope.require(WRITE)?;
    let identity =
        identity::request_registration(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin()).await?;
    Ok((StatusCode::ACCEPTED, Json(identity)))
}

/// Sets the registration file's profile: `domain`, `image`, `description`, `email` (absent
/// fields stay, an empty string clears one). A new domain is unproven (`domain_proof` names the
/// TXT record to add) until `POST …/identity/domain/verify` finds it. A registered agent's
/// registry entry is refreshed with `setAgentURI` shortly after. Key scope: `identity:write`;
/// `domain` is the owner's alone to set (403 `owner_only` for a key: the registry entry would
/// point where the key's holder says).
#[utoipa::path(patch, path = "/v1/hosted-agents/{id}/identity", tag = "identity", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = Profile, security(("owner_session" = []), ("api_key" = ["identity:write"])),
    responses((status = 200, body = Identity), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "Another agent uses the domain"),
        (status = 422, body = ErrorBody, description = "A field over its length limit (`too_long`)")))]
async fn update_profile(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(patch): Json<Profile>,
) -> ApiResult<Json<Identity>> {
    scope.require(WRITE)?;
    if patch.domain.is_some() {
        miniclaw_domain::chat::policy::owner_setting(&scope.actor, "domain")?;
    }
    let identity =
        identity::update_profile(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin(), patch).await?;
    Ok(Json(identity))
}

/// Proves the agent's domain: looks up the TXT record `domain_proof` names (`_miniclaw.<domain>`
/// saying `miniclaw-verify=<token>`). Found, the domain serves the agent's registration file
/// and the registry entry points at it. 404 without a domain, 409 when another agent proved it
/// first, 422 `domain_unproven` (with the record to add) when the record is missing or the DNS
/// server does not answer (`details.lookup_error`). Key scope: `identity:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/identity/domain/verify", tag = "identity",
    params(("id" = Uuid, Path, description = "Agent id")), security(("owner_session" = []), ("api_key" = ["identity:write"])),
    responses((status = 200, body = Identity), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn prove_domain(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Identity>> {
    scope.require(WRITE)?;
    Ok(Json(identity::prove_domain(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin()).await?))
}

/// The JSON answer of a public registration file: anyone may read it, from any origin.
async fn serve_file(state: &AppState, agent: AgentId) -> ApiResult<Response> {
    let body = file::current(state.pool(), &state.public_url(), state.config(), agent)
        .await?
        .ok_or_else(|| ApiError::not_found("registration file"))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
            (header::CACHE_CONTROL, "public, max-age=60"),
        ],
        serde_json::to_string_pretty(&body).map_err(anyhow::Error::from)?,
    )
        .into_response())
}

/// The agent's ERC-8004 registration file (public, no authentication). 404 until the owner
/// asks for a registration.
#[utoipa::path(get, path = "/agents/{id}/registration.json", tag = "identity", params(("id" = Uuid, Path, description = "Agent id")),
    responses((status = 200, description = "The registration file (type https://eips.ethereum.org/EIPS/eip-8004#registration-v1)", content_type = "application/json"),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn registration_file(State(state): State<AppState>, Path(id): Path<AgentId>) -> ApiResult<Response> {
    serve_file(&state, id).await
}

/// The registration file of the agent whose identity lists the request's host (`Host`) as
/// its domain (public). 404 for any other host.
#[utoipa::path(get, path = "/.well-known/agent-registration.json", tag = "identity",
    responses((status = 200, description = "The registration file of the host's agent", content_type = "application/json"),
        (status = 404, body = ErrorBody)))]
async fn well_known_registration(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    let agent = agent_of_host(&state, &headers).await?.ok_or_else(|| ApiError::not_found("registration file"))?;
    serve_file(&state, agent).await
}

/// The agent whose identity lists the request's host (`Host`, without a port) as its domain.
pub(crate) async fn agent_of_host(state: &AppState, headers: &HeaderMap) -> Result<Option<AgentId>, Error> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(|h| {
            h.rsplit_once(':').filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit())).map_or(h, |(name, _)| name)
        })
        .map(|h| h.trim_end_matches('.').to_ascii_lowercase())
        .filter(|h| !h.is_empty());
    match host {
        Some(host) => Ok(file::agent_of_domain(state.pool(), &host).await?),
        None => Ok(None),
    }
}

/// The platform's sponsor wallet.
#[derive(Debug, Serialize, ToSchema)]
pub struct SponsorWallet {
    /// Lower-case 0x address: fund it to pay for registrations.
    pub address: String,
    pub chain_id: u64,
    /// Native balance in wei; `null` when the node did not answer.
    pub balance_wei: Option<String>,
    /// Whether registrations are sent from it (`MINICLAW_IDENTITY_SIGNER=sponsor`).
    pub in_use: bool,
}

/// The sponsor wallet that sends registrations when `MINICLAW_IDENTITY_SIGNER=sponsor` (made
/// on first use, sealed under the master key): its address, to fund it, and balance.
/// 422 without a chain or without a configured master key.
#[utoipa::path(get, path = "/v1/admin/identity/sponsor", tag = "admin", security(("admin_bearer" = [])),
    responses((status = 200, body = SponsorWallet), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn sponsor_wallet(State(state): State<AppState>, _: Admin) -> ApiResult<Json<SponsorWallet>> {
    let deps = state.deps();
    let chain = deps.chain.as_deref().ok_or_else(|| Error::Unprocessable {
        code: "chain_not_configured",
        message: "no chain is configured: set EVM_RPC_URL and EVM_CHAIN_ID".into(),
        details: None,
    })?;
    miniclaw_domain::onchain::wallets::require_master_key(&deps.vault)?;
    let signer = miniclaw_domain::onchain::wallets::sponsor_signer(&deps.pool, &deps.vault).await?;
    let balance_wei = chain.balance(signer.address()).await.ok().map(|b| b.to_string());
    Ok(Json(SponsorWallet {
        address: format!("{:#x}", signer.address()),
        chain_id: chain.chain_id,
        balance_wei,
        in_use: chain.settings.sponsor,
    }))
}
