//! The `email_send` job: hands one outbox row to the transport. The row stays locked while the
//! transport has it, and is marked `sent` in the same transaction, so a second run finds
//! nothing to send. A transport that is down (connection refused, timeout, 4xx SMTP reply,
//! Resend 5xx/429) fails the attempt: the row stays `queued` with the error and the job retries
//! with backoff. A permanent refusal (5xx SMTP reply, Resend 4xx) marks it `failed`. When an
//! outreach email goes out, its thread moves to `sent`.

use serde_json::{Value, json};
use uuid::Uuid;

use super::Event;
use crate::channels::notifications::{Kind, notify};
use crate::tenancy::auth::Actor;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::email::outbox::{self, MAX_ATTEMPTS, SEND_JOB};
use miniclaw_platform::email::{SendError, Sent};
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};
use miniclaw_platform::llm::spend::Payer;

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            SEND_JOB,
            CycleScope::Agent,
            "Sends one queued email from the outbox (SMTP or Resend), retrying with backoff while the transport is down.",
            send,
        )
        .max_attempts(MAX_ATTEMPTS),
    ]
}

async fn send(ctx: JobContext) -> anyhow::Result<Value> {
    let agent = ctx.job.agent_id.map(AgentId).ok_or_else(|| anyhow::anyhow!("`{SEND_JOB}` needs an agent"))?;
    let id: Uuid = serde_json::from_value(ctx.job.payload["outbox_id"].clone())
        .map_err(|_| anyhow::anyhow!("`{SEND_JOB}` needs an outbox_id"))?;
    let deps = ctx.deps()?;
    let mut tx = ctx.pool.begin().await?;
    let Some(row) = outbox::queued(&mut tx, agent, id).await? else {
        return Ok(json!({ "skipped": true, "reason": "not queued (sent or failed already)" }));
    };
    match deps.send_mail(Payer::agent(agent), &row.email).await? {
        Ok(Sent { transport, provider_id }) => {
            outbox::mark_sent(&mut tx, agent, id, transport, provider_id.as_deref()).await?;
            if let Some(message) = row.outreach_message_id {
                delivered(&mut tx, agent, message, &ctx.job.kind).await?;
            }
            tx.commit().await?;
            tracing::info!(agent.id = %agent, outbox.id = %id, transport, "email sent");
            Ok(json!({ "sent": true, "transport": transport }))
        }
        Err(SendError::Refused(reason)) => {
            outbox::mark_attempt(&mut tx, agent, id, &reason, true).await?;
            if let Some(message) = row.outreach_message_id {
                sqlx::query!(
                    "UPDATE outreach_messages SET status = 'failed' WHERE agent_id = $1 AND id = $2",
                    agent as _,
                    message
                )
                .execute(&mut *tx)
                .await?;
            }
            let title = format!("An email to {} could not be sent", row.email.to_address);
            let body = format!("\"{}\": {reason}", row.email.subject);
            if row.kind == "outreach" {
                notify(&mut tx, agent, Kind::EmailFailed, &title, &body, None).await?;
            }
            if let Some(tenant) = crate::tenancy::agents::tenant_of(&ctx.pool, agent).await? {
                let origin = Origin::new(Actor::Job(ctx.job.kind.clone()), None);
                activity::record_agent_error(
                    &mut tx,
                    tenant,
                    agent,
                    &origin,
                    "email_failed",
                    json!({ "outbox_id": id, "to": row.email.to_address, "kind": row.kind }),
                    &reason,
                )
                .await?;
            }
            tx.commit().await?;
            Ok(json!({ "sent": false, "failed": reason }))
        }
        Err(SendError::Transient(reason)) => {
            outbox::mark_attempt(&mut tx, agent, id, &reason, false).await?;
            tx.commit().await?;
            Err(anyhow::anyhow!("email not sent yet: {reason}"))
        }
    }
}

/// An outreach email went out: its message is `sent` and its thread moves to `sent`.
async fn delivered(conn: &mut sqlx::PgConnection, agent: AgentId, message: Uuid, job: &str) -> anyhow::Result<()> {
    let thread = sqlx::query_scalar!(
        "UPDATE outreach_messages SET status = 'sent' WHERE agent_id = $1 AND id = $2 RETURNING thread_id",
        agent as _,
        message
    )
    .fetch_one(&mut *conn)
    .await?;
    let tenant = sqlx::query_scalar!(
        "SELECT tenant_id FROM outreach_threads WHERE agent_id = $1 AND id = $2",
        agent as _,
        thread
    )
    .fetch_one(&mut *conn)
    .await?;
    let (row, to) = match super::lock(conn, agent, thread, Event::Delivered).await {
        Ok(locked) => locked,
        // A thread closed while its last email was queued stays closed.
        Err(miniclaw_core::Error::Conflict(_)) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let origin = Origin::new(Actor::Job(job.to_string()), None);
    let details = json!({ "message_id": message });
    super::record(conn, TenantId(tenant), agent, &origin, &row, to, "outreach_sent", details).await?;
    let title = format!("Email sent to {}", row.target_email);
    notify(conn, agent, Kind::OutreachSent, &title, &format!("\"{}\" ({})", row.subject, row.purpose), None).await?;
    Ok(())
}
