//! Human-verification records (SPEC I3): the operator records one (admin bearer), a provider
//! posts one to the signed webhook, the owner (or a key with `agent:read`) lists them.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::Admin;
use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_core::vocabulary::{VerificationProvider, VerificationStatus};
use miniclaw_domain::onchain::verification::signature::{self, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use miniclaw_domain::onchain::verification::{self as records, RecordedBy, VerificationInput, VerificationRecord};
use miniclaw_domain::tenancy::auth::{Actor, AgentScope, Scope};
use miniclaw_platform::activity::Origin;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(record_verification))
        .routes(routes!(list_verifications))
        .routes(routes!(verification_webhook))
}

/// Records a human-verification result for an agent (operator). The latest record per provider
/// is the agent's standing with it; a `verified` result needs `evidence_url` or `evidence_hash`.
#[utoipa::path(post, path = "/v1/admin/agents/{id}/verifications", tag = "admin",
    params(("id" = Uuid, Path, description = "Agent id")), request_body = VerificationInput,
    security(("admin_bearer" = [])),
    responses((status = 201, body = VerificationRecord), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn record_verification(
    _: Admin,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<AgentId>,
    Json(input): Json<VerificationInput>,
) -> ApiResult<(StatusCode, Json<VerificationRecord>)> {
    let tenant = miniclaw_domain::tenancy::agents::tenant_of(state.pool(), id)
        .await?
        .ok_or_else(|| ApiError::not_found("agent"))?;
    let origin = Origin::new(Actor::Admin, super::extract::request_id(&headers));
    let mut tx = state.pool().begin().await?;
    let (rec, _) = records::record(&mut tx, tenant, id, &origin, RecordedBy::Operator, None, input).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(rec)))
}

/// The agent's human-verification records, most recently recorded first; `X-Next-Before` names
/// the next page. Key scope: `agent:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/verifications", tag = "identity",
    params(("id" = Uuid, Path, description = "Agent id"), Page),
    security(("owner_session" = []), ("api_key" = ["agent:read"])),
    responses((status = 200, body = Vec<VerificationRecord>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_verifications(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(page): Query<Page>,
) -> ApiResult<Paged<VerificationRecord>> {
    scope.require(Scope::AGENT_READ)?;
    let rows = records::list(state.pool(), scope.agent_id, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |r| r.id))
}

/// A provider's delivery to the verification webhook.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookDelivery {
    pub agent_id: AgentId,
    pub provider: VerificationProvider,
    pub status: VerificationStatus,
    pub evidence_url: Option<String>,
    pub evidence_hash: Option<String>,
    pub score: Option<f64>,
    pub note: Option<String>,
    pub checked_at: Option<DateTime<Utc>>,
}

impl WebhookDelivery {
    fn into_parts(self) -> (AgentId, VerificationInput) {
        let input = VerificationInput {
            provider: self.provider,
            status: self.status,
            evidence_url: self.evidence_url,
            evidence_hash: self.evidence_hash,
            score: self.score,
            note: self.note,
            checked_at: self.checked_at,
        };
        (self.agent_id, input)
    }
}

/// A provider reports a verification result. Signed with HMAC-SHA256 under
/// `MINICLAW_VERIFICATION_WEBHOOK_SECRET` over `"{X-Miniclaw-Timestamp}.{raw body}"`, sent as
/// `X-Miniclaw-Signature: sha256=<hex>`; deliveries more than 5 minutes from the server's clock
/// are refused (401). The same delivery sent again returns its record (200) instead of recording
/// it twice. 404 while the secret is not configured.
#[utoipa::path(post, path = "/webhooks/verification", tag = "identity", request_body = WebhookDelivery,
    params(
        ("X-Miniclaw-Timestamp" = String, Header, description = "Unix seconds, part of the signed content"),
        ("X-Miniclaw-Signature" = String, Header, description = "`sha256=` and the hex HMAC-SHA256 of `{timestamp}.{body}`"),
    ),
    responses((status = 201, body = VerificationRecord, description = "Recorded"),
        (status = 200, body = VerificationRecord, description = "This delivery was recorded before"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody, description = "Missing, wrong or stale signature"),
        (status = 404, body = ErrorBody, description = "Unknown agent, or the webhook is not configured")))]
async fn verification_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<(StatusCode, Json<VerificationRecord>)> {
    let Some(secret) = &state.config().verification_webhook_secret else {
        return Err(ApiError(Error::NotFound(
            "the verification webhook is not configured (MINICLAW_VERIFICATION_WEBHOOK_SECRET is unset)".into(),
        )));
    };
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let (timestamp, sig) = (header(TIMESTAMP_HEADER), header(SIGNATURE_HEADER));
    signature::verify(secret.expose().as_bytes(), timestamp, sig, &body, Utc::now().timestamp())
        .map_err(|r| Error::Unauthenticated(r.to_string()))?;
    let delivery: WebhookDelivery = super::extract::from_bytes(&body)?;
    let (agent_id, input) = delivery.into_parts();
    let tenant = miniclaw_domain::tenancy::agents::tenant_of(state.pool(), agent_id)
        .await?
        .ok_or_else(|| ApiError::not_found("agent"))?;
    let origin = Origin::new(Actor::System, super::extract::request_id(&headers));
    let mut tx = state.pool().begin().await?;
    // The signature names the delivery: the same one again finds its record.
    let delivery = sig.map(|s| s.trim().to_ascii_lowercase());
    let (rec, created) =
        records::record(&mut tx, tenant, agent_id, &origin, RecordedBy::Webhook, delivery.as_deref(), input).await?;
    tx.commit().await?;
    Ok((if created { StatusCode::CREATED } else { StatusCode::OK }, Json(rec)))
}
