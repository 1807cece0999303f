//! Keys of the account (SPEC H4): one `mck_` key for some or all of the account's agents,
//! issued and revoked by admins and owners, and what each key's work used.

use axum::extract::State;
use axum::http::{HeaderName, StatusCode};
use chrono::{DateTime, Utc};
use miniclaw_core::ids::{AgentId, KeyId};
use miniclaw_platform::llm::key_usage::{self, KeyUsage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::Error;
use miniclaw_domain::tenancy::auth::Owner;
use miniclaw_domain::tenancy::auth::account_keys::{self, AccountKey, NewAccountKey};
use miniclaw_domain::tenancy::auth::keys::{self, Limits};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_account_key, list_account_keys))
        .routes(routes!(get_account_key, revoke_account_key))
        .routes(routes!(account_key_usage))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateAccountKeyRequest {
    /// A label, 1–64 characters.
    pub name: String,
    /// e.g. `["chat:write", "memories:read"]`; `*` for everything. The same scopes as an
    /// agent's key, held on every agent the key reaches.
    pub scopes: Vec<String>,
    /// The agents the key reaches (1–1000 of the account's); leave out for every agent of the
    /// account, now and later.
    pub agents: Option<Vec<AgentId>>,
    pub expires_at: Option<DateTime<Utc>>,
    /// The key's own requests per minute (1–100000), within the platform's rate for every key.
    pub rate_per_minute: Option<u32>,
    /// The most the key's work may cost a UTC day, in dollars: past it, its chat turns and
    /// other paid work are refused (429 `key_spend_cap`) until midnight UTC.
    pub daily_usd_cap: Option<f64>,
}

/// A newly issued account key. `key` is shown this once; only its hash is stored.
#[derive(Serialize, ToSchema)]
pub struct IssuedAccountKey {
    #[serde(flatten)]
    pub account_key: AccountKey,
    pub key: String,
}

/// Issues a key of the account, for the agents it names or every agent. Admins and owners.
/// 409 when the account already has `MINICLAW_KEYS_PER_AGENT` live keys of its own.
#[utoipa::path(post, path = "/v1/api-keys", tag = "keys", request_body = CreateAccountKeyRequest,
    security(("owner_session" = [])),
    responses((status = 201, body = IssuedAccountKey), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_account_key(
    State(state): State<AppState>,
    owner: Owner,
    Json(req): Json<CreateAccountKeyRequest>,
) -> ApiResult<(StatusCode, [(HeaderName, &'static str); 1], Json<IssuedAccountKey>)> {
    let (name, scopes) = keys::validate_request(&req.name, &req.scopes, req.expires_at)?;
    let limits = Limits::new(req.rate_per_minute, req.daily_usd_cap)?;
    let new = NewAccountKey {
        tenant_id: owner.tenant_id,
        name: &name,
        scopes: &scopes,
        agents: req.agents,
        expires_at: req.expires_at,
        limits,
        created_by: format!("owner:{}", owner.owner_id),
    };
    let mut tx = state.pool().begin().await?;
    let (key, token) = account_keys::create(&mut tx, new, state.config().caps.keys_per_agent, &owner.origin()).await?;
    tx.commit().await?;
    let issued = IssuedAccountKey { account_key: key, key: token.expose().to_string() };
    Ok((StatusCode::CREATED, [super::auth::NO_STORE], Json(issued)))
}

/// The account's keys (never their secrets), newest first, revoked ones included;
/// `X-Next-Before` names the next page.
#[utoipa::path(get, path = "/v1/api-keys", tag = "keys", params(Page), security(("owner_session" = [])),
    responses((status = 200, body = Vec<AccountKey>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_account_keys(
    State(state): State<AppState>,
    owner: Owner,
    Query(page): Query<Page>,
) -> ApiResult<Paged<AccountKey>> {
    let rows = account_keys::list(state.pool(), owner.tenant_id, page.fetch()?, page.before.map(KeyId)).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |k| k.id))
}

/// One of the account's keys (never its secret).
#[utoipa::path(get, path = "/v1/api-keys/{account_key}", tag = "keys",
    params(("account_key" = Uuid, Path, description = "Account key id")), security(("owner_session" = [])),
    responses((status = 200, body = AccountKey), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn get_account_key(
    State(state): State<AppState>,
    owner: Owner,
    Path(id): Path<KeyId>,
) -> ApiResult<Json<AccountKey>> {
    let key = account_keys::get(state.pool(), owner.tenant_id, id).await?;
    key.map(Json).ok_or_else(|| ApiError::not_found("API key"))
}

/// Revokes one of the account's keys; it stops working at once. Admins and owners.
#[utoipa::path(delete, path = "/v1/api-keys/{account_key}", tag = "keys",
    params(("account_key" = Uuid, Path, description = "Account key id")), security(("owner_session" = [])),
    responses((status = 200, body = AccountKey, description = "Revoked"), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn revoke_account_key(
    State(state): State<AppState>,
    owner: Owner,
    Path(id): Path<KeyId>,
) -> ApiResult<Json<AccountKey>> {
    let mut tx = state.pool().begin().await?;
    let key = account_keys::revoke(&mut tx, owner.tenant_id, id, &owner.origin())
        .await?
        .ok_or_else(|| ApiError::not_found("API key"))?;
    tx.commit().await?;
    Ok(Json(key))
}

#[derive(Debug, Deserialize, ToSchema, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct UsageWindow {
    /// UTC days back, today included (1–30, as long as calls are logged; 30 when left out).
    pub days: Option<u32>,
}

impl UsageWindow {
    pub fn days(&self) -> Result<u32, Error> {
        match self.days {
            None => Ok(30),
            Some(d @ 1..=30) => Ok(d),
            Some(_) => Err(Error::validation("days", "days must be 1–30 (calls are logged for 30 days)")),
        }
    }
}

/// What one of the account's keys used: its model calls day by day (calls, tokens, dollars)
/// and today's dollars spent and held, as its daily cap counts them.
#[utoipa::path(get, path = "/v1/api-keys/{account_key}/usage", tag = "keys",
    params(("account_key" = Uuid, Path, description = "Account key id"), UsageWindow), security(("owner_session" = [])),
    responses((status = 200, body = KeyUsage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn account_key_usage(
    State(state): State<AppState>,
    owner: Owner,
    Path(id): Path<KeyId>,
    Query(window): Query<UsageWindow>,
) -> ApiResult<Json<KeyUsage>> {
    account_keys::get(state.pool(), owner.tenant_id, id).await?.ok_or_else(|| ApiError::not_found("API key"))?;
    let days = window.days()?;
    Ok(Json(key_usage::of_key(state.pool(), id, days).await?))
}
