//! Self-service connect (SPEC A4): a miniapp proves control of the agent's wallet or Ed25519
//! key by signing a single-use challenge, and receives a scoped `mck_` key.

use axum::extract::State;
use axum::http::StatusCode;
use miniclaw_core::ids::AgentId;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::Json;
use super::keys::IssuedKey;
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::tenancy::auth::challenge::{self, Challenge, KeyType, Purpose};
use miniclaw_domain::tenancy::auth::connect::{self, Connect};
use miniclaw_domain::tenancy::auth::signature;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(connect_challenge)).routes(routes!(connect))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectChallengeRequest {
    pub agent_id: AgentId,
    /// The wallet to sign with (EIP-191). Give this or `ed25519_public_key`.
    pub address: Option<String>,
    /// The Ed25519 public key to sign with: 32 bytes as hex (64 digits) or base64 (44 chars).
    pub ed25519_public_key: Option<String>,
    /// The scopes the key will hold: within what the owner allows for connects
    /// (`connect_scopes` of the agent), else 403 `scope_not_allowed`.
    pub scopes: Vec<String>,
    /// Label for the key; default `connect`.
    pub name: Option<String>,
    /// Lifetime of the key in days: at most, and by default, `MINICLAW_CONNECT_KEY_DAYS` (30).
    pub expires_in_days: Option<u32>,
}

/// Issues a single-use nonce and the exact message to sign (valid 5 minutes). The message
/// names the key that a connect with it will issue (agent, name, scopes, expiry), so a
/// signature authorises that key and nothing more.
#[utoipa::path(post, path = "/v1/gateway/challenge", tag = "gateway", request_body = ConnectChallengeRequest,
    responses((status = 200, body = Challenge), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "A scope beyond what the owner allows for connects"), (status = 404, body = ErrorBody)))]
async fn connect_challenge(
    State(state): State<AppState>,
    Json(req): Json<ConnectChallengeRequest>,
) -> ApiResult<Json<Challenge>> {
    let (key_type, identity) = match (req.address, req.ed25519_public_key) {
        (Some(a), None) => (
            KeyType::Evm,
            signature::normalize_evm_address(a.trim())
                .ok_or_else(|| ApiError::validation("address", "address must be a 0x-prefixed 20-byte hex address"))?,
        ),
        (None, Some(k)) => (
            KeyType::Ed25519,
            signature::normalize_ed25519_key(&k).map_err(|e| ApiError::validation("ed25519_public_key", e))?,
        ),
        _ => return Err(ApiError::validation("address", "give exactly one of `address` and `ed25519_public_key`")),
    };
    let max_days = state.config().connect_key_days;
    let days = req.expires_in_days.unwrap_or(max_days);
    if days == 0 || days > max_days {
        return Err(ApiError::validation(
            "expires_in_days",
            format!("expires_in_days must be between 1 and {max_days}"),
        ));
    }
    let expires_at = chrono::Utc::now() + chrono::Duration::days(i64::from(days));
    let (name, scopes) = miniclaw_domain::tenancy::auth::keys::validate_request(
        req.name.as_deref().unwrap_or("connect"),
        &req.scopes,
        Some(expires_at),
    )?;
    connect::check_ceiling(state.pool(), req.agent_id, &scopes).await?;
    let grant = challenge::ConnectGrant { agent_id: req.agent_id, name, scopes, expires_at };
    Ok(Json(
        challenge::create(state.pool(), Purpose::AgentConnect, key_type, &identity, Some(&grant), &state.public_url())
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectRequest {
    pub agent_id: AgentId,
    pub nonce: String,
    /// EIP-191: 65 bytes as 0x-hex. Ed25519: 64 bytes as hex (128 digits) or base64 (88 chars).
    pub signature: String,
    /// Optional: when given, must be the scopes of the challenge (the key gets those).
    pub scopes: Option<Vec<String>>,
    /// Optional: when given, must be the key name of the challenge.
    pub name: Option<String>,
}

/// Verifies the signed challenge and issues the key its message named (scopes, name, expiry).
/// The nonce is spent by this call whatever its outcome. 409 when the
/// agent already has `MINICLAW_CONNECT_KEYS_PER_AGENT` live connect keys.
#[utoipa::path(post, path = "/v1/gateway/connect", tag = "gateway", request_body = ConnectRequest,
    responses((status = 201, body = IssuedKey), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody, description = "Unknown, used or expired nonce, or a bad signature"),
        (status = 403, body = ErrorBody, description = "The signer may not connect to this agent, or a scope is no longer allowed"),
        (status = 409, body = ErrorBody, description = "The agent has as many connect keys as allowed")))]
async fn connect(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Json(req): Json<ConnectRequest>,
) -> ApiResult<(StatusCode, [(axum::http::HeaderName, &'static str); 1], Json<IssuedKey>)> {
    let request_id = headers.get(super::REQUEST_ID).and_then(|v| v.to_str().ok());
    let connect = Connect {
        agent_id: req.agent_id,
        nonce: req.nonce.trim(),
        signature: req.signature.trim(),
        name: req.name.as_deref(),
        scopes: req.scopes.as_deref(),
        max_keys: state.config().connect_keys_per_agent,
    };
    let (key, token) = connect::connect(state.pool(), connect, request_id).await?;
    Ok((StatusCode::CREATED, [super::auth::NO_STORE], Json(IssuedKey::new(key, token))))
}
