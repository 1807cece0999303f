//! `mck_` API keys of an agent (SPEC A3): issued and revoked by the owner.

use axum::extract::State;
use axum::http::{HeaderName, StatusCode};
use chrono::{DateTime, Utc};
use miniclaw_core::ids::{AgentId, KeyId};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_domain::tenancy::auth::keys::{self, ApiKey, Limits, NewKey};
use miniclaw_domain::tenancy::auth::{AgentScope, end_user};
use miniclaw_platform::llm::key_usage::{self, KeyUsage};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_key, list_keys))
        .routes(routes!(revoke_key))
        .routes(routes!(agent_key_usage))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateKeyRequest {
    /// A label, 1–64 characters.
    pub name: String,
    /// e.g. `["chat:write", "memories:read"]`; `*` for everything.
    pub scopes: Vec<String>,
    pub expires_at: Option<DateTime<Utc>>,
    /// Bind the key to one end user of a miniapp (1–128 characters): it then sees and continues
    /// only that user's conversations, and a request naming another user (`X-Miniclaw-User`,
    /// the OpenAI `user`) is 403. For keys that ship to a user's device.
    pub end_user: Option<String>,
    /// The key's own requests per minute (1–100000), within the platform's rate for every key.
    pub rate_per_minute: Option<u32>,
    /// The most the key's work may cost a UTC day, in dollars: past it, its chat turns and
    /// other paid work are refused (429 `key_spend_cap`) until midnight UTC.
    pub daily_usd_cap: Option<f64>,
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
    pub end_user: Option<String>,
    pub rate_per_minute: Option<i32>,
    pub daily_usd_cap: Option<f64>,
}

impl IssuedKey {
    pub fn new(k: ApiKey, token: miniclaw_platform::config::Secret) -> Self {
        IssuedKey {
            id: k.id,
            agent_id: k.agent_id,
            key: token.expose().to_string(),
            name: k.name,
            scopes: k.scopes,
            expires_at: k.expires_at,
            end_user: k.end_user,
            rate_per_minute: k.rate_per_minute,
            daily_usd_cap: k.daily_usd_cap,
        }
    }
}

/// Issues a key for the agent. Owner only. 409 when the agent already has
/// `MINICLAW_KEYS_PER_AGENT` live keys issued by its owner.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/api-keys", tag = "keys", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = CreateKeyRequest, security(("owner_session" = [])),
    responses((status = 201, body = IssuedKey), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_key(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(req): Json<CreateKeyRequest>,
) -> ApiResult<(StatusCode, [(HeaderName, &'static str); 1], Json<IssuedKey>)> {
    let owner_id = scope.require_owner()?;
    let (name, scopes) = keys::validate_request(&req.name, &req.scopes, req.expires_at)?;
    let end_user = req.end_user.as_deref().map(|u| end_user::parse("end_user", u)).transpose()?;
    let limits = Limits::new(req.rate_per_minute, req.daily_usd_cap)?;
    let new = NewKey {
        tenant_id: scope.tenant_id,
        agent_id: scope.agent_id,
        name: &name,
        scopes: &scopes,
        expires_at: req.expires_at,
        created_by: format!("owner:{owner_id}"),
        event: "key.issued",
        end_user: end_user.as_deref(),
        limits,
    };
    let mut tx = state.pool().begin().await?;
    keys::check_room(&mut tx, scope.agent_id, state.config().caps.keys_per_agent).await?;
    let (key, token) = keys::create(&mut tx, new, &scope.origin()).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, [super::auth::NO_STORE], Json(IssuedKey::new(key, token))))
}

/// The agent's keys (never their secrets), newest first, revoked ones included;
/// `X-Next-Before` names the next page. Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/api-keys", tag = "keys", params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = [])),
    responses((status = 200, body = Vec<ApiKey>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_keys(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<ApiKey>> {
    scope.require_owner()?;
    let rows = keys::list(state.pool(), scope.agent_id, page.fetch()?, page.before.map(KeyId)).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |k| k.id))
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

/// What one of the agent's keys used: its model calls day by day (calls, tokens, dollars) and
/// today's dollars spent and held, as its daily cap counts them. Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/api-keys/{kid}/usage", tag = "keys",
    params(("id" = Uuid, Path, description = "Agent id"), ("kid" = Uuid, Path, description = "Key id"),
        super::account_keys::UsageWindow),
    security(("owner_session" = [])),
    responses((status = 200, body = KeyUsage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn agent_key_usage(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, KeyId)>,
    Query(window): Query<super::account_keys::UsageWindow>,
) -> ApiResult<Json<KeyUsage>> {
    scope.require_owner()?;
    let mut conn = state.pool().acquire().await?;
    keys::name_of(&mut conn, scope.agent_id, ids.1.0).await?.ok_or_else(|| ApiError::not_found("API key"))?;
    drop(conn);
    let days = window.days()?;
    Ok(Json(key_usage::of_key(state.pool(), ids.1, days).await?))
}
