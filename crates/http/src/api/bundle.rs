//! Agent export and import: an agent as a `miniclaw.agent` bundle or a Letta Agent File, and
//! an agent made from either. Owner only: a bundle is everything the agent knows.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Query, from_bytes};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_domain::bundle::{self, Bundle, ExportOptions, Imported};
use miniclaw_domain::tenancy::auth::{AgentScope, Owner};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(export_agent)).routes(routes!(import_agent))
}

#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// The `miniclaw.agent` bundle (version 1).
    #[default]
    Miniclaw,
    /// A Letta Agent File (`.af`).
    Letta,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `miniclaw` (default) or `letta`.
    #[serde(default)]
    #[param(inline)]
    pub format: ExportFormat,
    /// Include the conversations (default false).
    #[serde(default)]
    pub conversations: bool,
}

/// The file name a download is offered under: the agent's name in safe characters.
pub fn file_name(name: &str, format: ExportFormat) -> String {
    let stem: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).take(64).collect();
    let stem = if stem.trim_matches('_').is_empty() { "agent".to_string() } else { stem };
    match format {
        ExportFormat::Miniclaw => format!("{stem}.miniclaw.json"),
        ExportFormat::Letta => format!("{stem}.af"),
    }
}

/// The bundle as a download.
pub async fn export_response(
    state: &AppState,
    tenant: TenantId,
    agent: AgentId,
    format: ExportFormat,
    conversations: bool,
) -> ApiResult<Response> {
    let b = bundle::export(state.runtime(), tenant, agent, ExportOptions { conversations }).await?;
    let body = match format {
        ExportFormat::Miniclaw => serde_json::to_vec_pretty(&b),
        ExportFormat::Letta => serde_json::to_vec_pretty(&bundle::letta::write(&b)),
    }
    .map_err(|e| ApiError(miniclaw_core::Error::Internal(e.into())))?;
    let disposition = format!("attachment; filename=\"{}\"", file_name(&b.agent.name, format));
    Ok(([(header::CONTENT_TYPE, "application/json".to_string()), (header::CONTENT_DISPOSITION, disposition)], body)
        .into_response())
}

/// Exports the agent: its settings, soul with every version, memories with history and
/// relations, knowledge, dossier, tasks, installed skills and (`conversations=true`) its
/// conversations, as a `miniclaw.agent` bundle (see the README's "Export and import") or, with
/// `format=letta`, as a Letta Agent File. No secrets: no keys, wallets, webhook or bot secrets,
/// no vectors. Owner only.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/export", tag = "agents",
    params(("id" = Uuid, Path, description = "Agent id"), ExportQuery), security(("owner_session" = [])),
    responses((status = 200, body = Bundle, description = "The bundle (or, with `format=letta`, a Letta Agent File), offered as a download"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn export_agent(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<ExportQuery>,
) -> ApiResult<Response> {
    scope.require_owner()?;
    export_response(&state, scope.tenant_id, scope.agent_id, q.format, q.conversations).await
}

/// Creates an agent from a `miniclaw.agent` bundle or a Letta Agent File (`.af`, either
/// generation of the format), told apart by their content. The whole document is checked
/// first (400 naming the first bad field, nothing stored) and stored in one transaction. The
/// same bytes sent again return the agent they made (200, `created: false`). Skills are
/// installed again from this market where they are free and usable here; what did not come
/// along is listed in `notes`. Bigger bundles need a bigger `MINICLAW_BODY_LIMIT`.
#[utoipa::path(post, path = "/v1/hosted-agents/import", tag = "agents", request_body(content = Bundle, content_type = "application/json"),
    security(("owner_session" = [])),
    responses((status = 201, body = Imported), (status = 200, body = Imported, description = "Imported before: the agent those bytes made"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn import_agent(
    State(state): State<AppState>,
    owner: Owner,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<(StatusCode, axum::Json<Imported>)> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return Err(ApiError(miniclaw_core::Error::Unsupported("expected Content-Type: application/json".into())));
    }
    let imported = import_bytes(&state, &owner, &body).await?;
    let status = if imported.created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, axum::Json(imported)))
}

/// An import of uploaded bytes (the API and the dashboard's upload share it).
pub async fn import_bytes(state: &AppState, owner: &Owner, body: &[u8]) -> ApiResult<Imported> {
    let doc: serde_json::Value = from_bytes(body)?;
    let max = state.config().agents_per_tenant;
    Ok(bundle::import(state.runtime(), state.registry(), owner.tenant_id, &owner.origin(), body, doc, max).await?)
}
