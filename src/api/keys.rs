//! `mck_` API keys of an agent (SPEC A3): issued and revoked by the owner.

use crate::ids::{AgentId, KeyId};
use axum::extract::State;
use axum::http::{HeaderName, StatusCode};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path};
use crate::app::AppState;
use crate::auth::AgentScope;
use crate::auth::keys::{self, ApiKey, NewKey};
use crate::error::{ApiError, ApiResult, ErrorBody};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create_key, list_keys)).routes(routes!(revoke_key))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateKeyRequest {
    /// A label, 1–64 characters.
    pub name: String,
    /// e.g. `["chat:write", "memories:read"]`; `*` for everything.
    pub scopes: Vec<String>,
    pub expires_at: Option<DateTime<Utc>>,
}

/// A newly issued key. `key` is shown this once; only its hash is stored.
#[derive(Serialize, ToSchema)]
pub struct IssuedKey {
    pub id: KeyId,
    pub agent_id: AgentId,
    pub key: String,
    pub name: String,
    pub scopes: Vec<String>,
    pub expires_at: Option<DateTime<Utc>>,
}

impl IssuedKey {
    pub fn new(k: ApiKey, token: crate::config::Secret) -> Self {
        IssuedKey {
            id: k.id,
            agent_id: k.agent_id,
            key: token.expose().to_string(),
            name: k.name,
            scopes: k.scopes,
            expires_at: k.expires_at,
        }
    }
}

/// Issues a key for the agent. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/api-keys", tag = "keys", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = CreateKeyRequest, security(("owner_session" = [])),
    responses((status = 201, body = IssuedKey), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn create_key(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(req): Json<CreateKeyRequest>,
) -> ApiResult<(StatusCode, [(HeaderName, &'static str); 1], Json<IssuedKey>)> {
    let owner_id = scope.require_owner()?;
    let (name, scopes) = keys::validate_request(&req.name, &req.scopes, req.expires_at)?;
    let new = NewKey {
        tenant_id: scope.tenant_id,
        agent_id: scope.agent_id,
        name: &name,
        scopes: &scopes,
        expires_at: req.expires_at,
        created_by: format!("owner:{owner_id}"),
        event: "key.issued",
    };
    let mut tx = state.pool().begin().await?;
    let (key, token) = keys::create(&mut tx, new, &scope.origin()).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, [super::auth::NO_STORE], Json(IssuedKey::new(key, token))))
}

/// The agent's keys (never their secrets). Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/api-keys", tag = "keys", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = [])),
    responses((status = 200, body = Vec<ApiKey>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_keys(State(state): State<AppState>, scope: AgentScope) -> ApiResult<Json<Vec<ApiKey>>> {
    scope.require_owner()?;
    Ok(Json(keys::list(state.pool(), scope.agent_id).await?))
}

/// Revokes a key; it stops working at once. Owner only.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/api-keys/{kid}", tag = "keys",
    params(("id" = Uuid, Path, description = "Agent id"), ("kid" = Uuid, Path, description = "Key id")),
    security(("owner_session" = [])),
    responses((status = 200, body = ApiKey, description = "Revoked"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn revoke_key(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, KeyId)>,
) -> ApiResult<Json<ApiKey>> {
    scope.require_owner()?;
    let kid = ids.1;
    let mut tx = state.pool().begin().await?;
    let key = keys::revoke(&mut tx, scope.tenant_id, scope.agent_id, kid, &scope.origin())
        .await?
        .ok_or_else(|| ApiError::not_found("API key"))?;
    tx.commit().await?;
    Ok(Json(key))
}
