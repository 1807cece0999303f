//! The owner's actions on a thread — approve (the first email is queued within the limits),
//! reject, reply (the agent's suggested reply or the owner's own text) and close — and the
//! queuing of a thread's emails with their Message-ID, `In-Reply-To` and `References`, from the
//! tenant's sender identity.

use chrono::Utc;
use serde::Deserialize;
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{Event, Status, Thread, select_thread};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::config::EmailSettings;
use miniclaw_platform::email::outbox::{self, Kind};
use miniclaw_platform::email::{Outgoing, headers};

#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RejectInput {
    /// Why (at most 500 characters), kept with the proposal.
    pub reason: Option<String>,
}

/// The owner's reply to an escalated (or replied) thread: `body`, or the agent's suggested
/// reply when it is left out.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplyInput {
    pub body: Option<String>,
}

/// What one email of a thread answers: the Message-ID it replies to and the chain before it.
pub struct ReplyTo {
    pub in_reply_to: String,
    pub references: Vec<String>,
}

/// Stores an outbound email of the thread (`queued`) and puts it in the outbox; returns the
/// message's id.
#[expect(clippy::too_many_arguments, reason = "the parts of one email, used by three callers")]
pub(super) async fn queue_email(
    conn: &mut PgConnection,
    settings: &EmailSettings,
    agent: AgentId,
    thread: &Thread,
    subject: &str,
    body: &str,
    reply_to: Option<ReplyTo>,
    author: &str,
) -> Result<Uuid, Error> {
    let (tenant, name) =
        crate::tenancy::agents::tenant_and_name(&mut *conn, agent).await?.ok_or_else(|| Error::not_found("agent"))?;
    let from = miniclaw_platform::email::sender::sender(conn, settings, tenant, &name).await?;
    let (in_reply_to, references) = match reply_to {
        Some(r) => (Some(r.in_reply_to), r.references),
        None => (None, Vec::new()),
    };
    let email = Outgoing {
        message_id: headers::message_id(&from.address),
        from_name: from.name,
        from_address: from.address,
        to_address: thread.target_email.clone(),
        reply_to: from.reply_to,
        subject: subject.to_string(),
        body: body.to_string(),
        in_reply_to,
        references,
        idempotency_key: String::new(),
    };
    email.check().map_err(|m| Error::validation("email", m))?;
    let id = Uuid::now_v7();
    let mut headers = json!({
        "From": format!("{} <{}>", email.from_name, email.from_address),
        "To": email.to_address,
        "Subject": email.subject,
        "Message-ID": format!("<{}>", email.message_id),
    });
    if let Some(r) = &email.reply_to {
        headers["Reply-To"] = json!(r);
    }
    sqlx::query!(
        r#"INSERT INTO outreach_messages (agent_id, id, thread_id, direction, message_id, in_reply_to, "references",
                from_address, to_address, subject, body, headers, status, author)
         VALUES ($1, $2, $3, 'outbound', $4, $5, $6, $7, $8, $9, $10, $11, 'queued', $12)"#,
        agent as _,
        id,
        thread.id,
        email.message_id,
        email.in_reply_to,
        &email.references,
        email.from_address,
        email.to_address,
        email.subject,
        email.body,
        headers,
        author
    )
    .execute(&mut *conn)
    .await?;
    let unproven = !crate::tenancy::accounts::proven(&mut *conn, tenant).await?;
    match outbox::enqueue(conn, settings, (tenant, agent, unproven), Kind::Outreach, Some(id), &email).await {
        Ok(_) => Ok(id),
        Err(outbox::NotQueued::Cap(cap)) => Err(cap.into()),
        Err(outbox::NotQueued::Invalid(m)) => Err(Error::validation("email", m)),
        Err(outbox::NotQueued::Db(e)) => Err(e.into()),
    }
}

/// 503 while no transport is configured: an email approved now could not leave.
pub(super) fn transport_configured(settings: &EmailSettings) -> Result<(), Error> {
    if settings.configured() {
        Ok(())
    } else {
        Err(Error::Unavailable("no email transport is configured (set SMTP_URL or RESEND_API_KEY)".into()))
    }
}

async fn reload(conn: &mut PgConnection, agent: AgentId, id: Uuid) -> sqlx::Result<Thread> {
    select_thread!("WHERE agent_id = $1 AND id = $2", agent as _, id).fetch_one(conn).await
}

/// Approves a proposal and queues its email: 429 with the time when the agent's daily limit or
/// the target's weekly one is reached (the proposal stays `proposed`), 409 unless `proposed`,
/// 503 while no email transport is configured.
pub async fn approve(
    pool: &PgPool,
    settings: &EmailSettings,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    id: Uuid,
) -> Result<Thread, Error> {
    let mut tx = pool.begin().await?;
    let (thread, to) = super::lock(&mut tx, agent, id, Event::Approve).await?;
    transport_configured(settings)?;
    super::limits::claim(&mut tx, agent, Some(&thread.target_email), Utc::now()).await?;
    let message = queue_email(&mut tx, settings, agent, &thread, &thread.subject, &thread.body, None, "owner").await?;
    super::record(&mut tx, tenant, agent, origin, &thread, to, "outreach_approved", json!({ "message_id": message }))
        .await?;
    let thread = reload(&mut tx, agent, id).await?;
    tx.commit().await?;
    Ok(thread)
}

/// Rejects a proposal (409 unless `proposed`).
pub async fn reject(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    id: Uuid,
    input: RejectInput,
) -> Result<Thread, Error> {
    if let Some(r) = &input.reason {
        Error::check_length("reason", r, miniclaw_platform::activity::REASON_MAX)?;
    }
    let mut tx = pool.begin().await?;
    let (thread, to) = super::lock(&mut tx, agent, id, Event::Reject).await?;
    sqlx::query!(
        "UPDATE outreach_threads SET reject_reason = $3 WHERE agent_id = $1 AND id = $2",
        agent as _,
        id,
        input.reason
    )
    .execute(&mut *tx)
    .await?;
    super::record(&mut tx, tenant, agent, origin, &thread, to, "outreach_rejected", json!({ "reason": input.reason }))
        .await?;
    let thread = reload(&mut tx, agent, id).await?;
    tx.commit().await?;
    Ok(thread)
}

/// Closes a thread (409 when it is still a proposal, or already closed or rejected).
pub async fn close(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    id: Uuid,
) -> Result<Thread, Error> {
    let mut tx = pool.begin().await?;
    let (thread, to) = super::lock(&mut tx, agent, id, Event::Close).await?;
    super::record(&mut tx, tenant, agent, origin, &thread, to, "outreach_closed", json!({})).await?;
    let thread = reload(&mut tx, agent, id).await?;
    tx.commit().await?;
    Ok(thread)
}

/// The reply context of a thread's latest inbound email: it is what a reply answers.
pub(super) async fn last_inbound(
    conn: &mut PgConnection,
    agent: AgentId,
    thread: Uuid,
) -> sqlx::Result<Option<ReplyTo>> {
    let row = sqlx::query!(
        r#"SELECT message_id, in_reply_to, "references" AS "references!" FROM outreach_messages
            WHERE agent_id = $1 AND thread_id = $2 AND direction = 'inbound' ORDER BY created_at DESC, id DESC LIMIT 1"#,
        agent as _,
        thread
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| {
        // References: the parent's references (or what it replied to), then the parent itself.
        let mut references = r.references;
        if references.is_empty() {
            references.extend(r.in_reply_to);
        }
        references.push(r.message_id.clone());
        ReplyTo { in_reply_to: r.message_id, references }
    }))
}

/// The owner sends a reply in an escalated (or replied) thread: their text, or the agent's
/// suggested reply. Counts toward the agent's daily limit (429 with the time when reached).
pub async fn respond(
    pool: &PgPool,
    settings: &EmailSettings,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    id: Uuid,
    input: ReplyInput,
) -> Result<Thread, Error> {
    if let Some(b) = &input.body {
        super::draft::check_body(b)?;
    }
    let mut tx = pool.begin().await?;
    let (thread, to) = super::lock(&mut tx, agent, id, Event::Respond).await?;
    transport_configured(settings)?;
    let body = input
        .body
        .or_else(|| thread.suggested_reply.clone())
        .ok_or_else(|| Error::validation("body", "there is no suggested reply: write the body"))?;
    let reply_to = last_inbound(&mut tx, agent, id).await?;
    super::limits::claim(&mut tx, agent, None, Utc::now()).await?;
    let subject = headers::reply_subject(&thread.subject);
    let message = queue_email(&mut tx, settings, agent, &thread, &subject, &body, reply_to, "owner").await?;
    sqlx::query!(
        "UPDATE outreach_threads SET suggested_reply = NULL, escalation_reason = NULL WHERE agent_id = $1 AND id = $2",
        agent as _,
        id
    )
    .execute(&mut *tx)
    .await?;
    super::record(
        &mut tx,
        tenant,
        agent,
        origin,
        &thread,
        to,
        "outreach_replied",
        json!({ "message_id": message, "by": "owner" }),
    )
    .await?;
    let thread = reload(&mut tx, agent, id).await?;
    tx.commit().await?;
    Ok(thread)
}

/// Whether a status takes replies (the webhook ignores replies to other threads).
pub fn takes_replies(status: Status) -> bool {
    matches!(status, Status::Sent | Status::Replied | Status::Escalated)
}
