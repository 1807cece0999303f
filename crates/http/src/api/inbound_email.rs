//! The inbound email webhook (SPEC O3, §15): Svix-signed deliveries from Resend (or any
//! provider signing the same way) of replies to outreach. Unverified requests are 401 and never
//! reach an agent; a redelivery (same `svix-id`) is 200 and changes nothing.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use chrono::Utc;
use miniclaw_core::Error;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::Json;
use crate::app::AppState;
use crate::error::{ApiResult, ErrorBody};
use miniclaw_domain::channels::outreach::inbound::{self, Outcome};
use miniclaw_domain::channels::outreach::payload::{self, InboundEmail, Payload};
use miniclaw_platform::email::resend::Resend;
use miniclaw_platform::email::svix::{self, ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(inbound_email))
}

/// Receives an email (a reply to outreach). Signed the Svix way with `RESEND_WEBHOOK_SECRET`
/// (`whsec_…`): `svix-signature` holds `v1,<base64 HMAC-SHA256 of "{svix-id}.{svix-timestamp}.{body}">`
/// entries (any may match), and the timestamp must be within 5 minutes. The body is a Resend
/// `email.received` event (its email is fetched from Resend's receiving API, which needs
/// `RESEND_API_KEY`; 502 when Resend fails, so the event is delivered again) or the plain form
/// `{from, to, subject, text, message_id, in_reply_to, references}`. The reply is matched to its
/// thread and stored with the job that answers it (200 `received`); the job runs it through
/// the agent's chat pipeline and auto-replies or escalates, in the background, so nothing is
/// lost if the process stops after this answer. A reply matching no thread, or another Resend
/// event, is 202 and reaches no agent; a redelivery is 200 with `duplicate`. 401 when the signature is missing, wrong or stale; 404
/// while the secret is not configured.
#[utoipa::path(post, path = "/webhooks/inbound-email", tag = "outreach", request_body = InboundEmail,
    params(
        ("svix-id" = String, Header, description = "The delivery's id; redeliveries repeat it"),
        ("svix-timestamp" = String, Header, description = "Unix seconds, part of the signed content"),
        ("svix-signature" = String, Header, description = "Space-separated `v1,<base64>` signatures"),
    ),
    responses((status = 200, body = Outcome, description = "Stored and queued for the agent's answer, or a redelivery"),
        (status = 202, body = Outcome, description = "Accepted but given to no agent (no matching thread, another event)"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody, description = "Missing, wrong or stale signature"),
        (status = 404, body = ErrorBody, description = "The webhook is not configured"),
        (status = 413, body = ErrorBody), (status = 502, body = ErrorBody, description = "Resend failed to return the email"),
        (status = 503, body = ErrorBody, description = "RESEND_API_KEY is needed to fetch the email")))]
async fn inbound_email(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<(StatusCode, Json<Outcome>)> {
    let settings = &state.config().email;
    let key = settings.resend_webhook_secret.as_ref().and_then(|s| svix::key_of(s.expose())).ok_or_else(|| {
        Error::NotFound("the inbound email webhook is not configured (RESEND_WEBHOOK_SECRET is unset)".into())
    })?;
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let id = header(ID_HEADER);
    svix::verify(&key, id, header(TIMESTAMP_HEADER), header(SIGNATURE_HEADER), &body, Utc::now().timestamp()).map_err(
        |r| {
            tracing::warn!(reason = %r, "inbound email webhook refused");
            Error::Unauthenticated(r.to_string())
        },
    )?;
    let svix_id = id.unwrap_or_default().trim().to_string();
    let value: serde_json::Value = super::extract::from_bytes(&body)?;
    let email = match payload::parse(&value)? {
        Payload::Plain(email) => email,
        Payload::OtherEvent(kind) => {
            tracing::info!(event = %kind, "inbound email webhook: event ignored");
            return Ok((
                StatusCode::ACCEPTED,
                Json(Outcome { status: "ignored_event".into(), outreach_id: None, confidence: None }),
            ));
        }
        Payload::ResendReceived { email_id } => {
            let key = settings.resend_api_key.as_ref().ok_or_else(|| {
                Error::Unavailable("RESEND_API_KEY is needed to fetch a received email from Resend".into())
            })?;
            let resend = Resend::new(&settings.resend_base_url, key.expose())?;
            let received = resend.received(&email_id).await.map_err(|reason| {
                tracing::warn!(%reason, "inbound email webhook: Resend did not return the email");
                Error::Upstream(reason)
            })?;
            payload::from_resend(received)
        }
    };
    let request_id = headers.get(crate::api::REQUEST_ID).and_then(|v| v.to_str().ok()).map(str::to_string);
    let outcome = inbound::receive(state.pool(), &svix_id, email, request_id).await?;
    let status = match outcome.status.as_str() {
        "unmatched" | "ignored" => StatusCode::ACCEPTED,
        _ => StatusCode::OK,
    };
    Ok((status, Json(outcome)))
}
