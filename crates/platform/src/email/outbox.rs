//! The outbox: every email waits in `email_outbox` until the transport has it. A row is written
//! in the transaction of the change that causes it (an approval, a reply, a notification)
//! together with its `email_send` job, so the email exists exactly when the change does; the
//! job retries with the queue's backoff while the transport is down and marks the row `sent`
//! once the transport accepted it. The job runs under a lease, so one email is handed to the
//! transport by one worker at a time.

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::PgConnection;
use uuid::Uuid;

use super::Outgoing;
use crate::config::EmailSettings;
use crate::jobs::{NewJob, queue};
use miniclaw_core::ids::{AgentId, TenantId};

/// The job that sends one outbox row.
pub const SEND_JOB: &str = "email_send";
/// With the queue's backoff (5 s doubling, capped at an hour) a day and a half of retries
/// before the job is dead-lettered (the row stays `queued`; an operator's retry resumes it).
pub const MAX_ATTEMPTS: i32 = 40;

/// What an outbox row is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Outreach,
    Notification,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Outreach => "outreach",
            Kind::Notification => "notification",
        }
    }
}

/// A daily send cap is reached: the account's (`MINICLAW_EMAIL_ACCOUNT_DAILY`) or the
/// platform's (`MINICLAW_EMAIL_PLATFORM_DAILY`). Nothing was queued or counted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CapReached {
    #[error("the account sent its {0} emails of today; sending resumes at midnight UTC")]
    Account(i32),
    #[error("the platform sent its {0} emails of today; sending resumes at midnight UTC")]
    Platform(i32),
}

impl From<CapReached> for miniclaw_core::Error {
    fn from(cap: CapReached) -> Self {
        let now = chrono::Utc::now();
        let reset_at = crate::llm::budget::next_utc_midnight(now);
        let limit = match cap {
            CapReached::Account(_) => miniclaw_core::error::Limit::Caller,
            CapReached::Platform(_) => miniclaw_core::error::Limit::Operator,
        };
        miniclaw_core::Error::Exhausted {
            limit,
            code: "email_daily_cap",
            message: cap.to_string(),
            retry_after_secs: Some((reset_at - now).num_seconds().max(1) as u64),
            reset_at: Some(reset_at),
        }
    }
}

/// What an email is, for the daily send caps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sending {
    /// No owner of the account proved their address yet (nor did the operator vouch for it):
    /// the account's cap is `unproven_daily`.
    pub unproven: bool,
    /// A link proving an address: it counts on the account's cap only, never the platform's, so
    /// signups cannot use up the platform's day and block everyone's links.
    pub link: bool,
}

/// Counts one email of `tenant` today against the daily send caps, in the caller's transaction
/// (so a change rolled back sends and counts nothing); `Err` when a cap is reached, counting
/// nothing. The account's and the platform's rows of the day are locked in one order (the
/// platform's, the nil uuid, first), so concurrent senders queue on them.
pub async fn count_send(
    conn: &mut PgConnection,
    settings: &EmailSettings,
    tenant: TenantId,
    sending: Sending,
) -> sqlx::Result<Result<(), CapReached>> {
    let counts = sqlx::query!(
        r#"WITH made AS (
             INSERT INTO email_daily_counts (day, tenant_id)
             VALUES ((now() AT TIME ZONE 'UTC')::date, $1), ((now() AT TIME ZONE 'UTC')::date, '00000000-0000-0000-0000-000000000000')
             ON CONFLICT (day, tenant_id) DO NOTHING
           )
           SELECT tenant_id, sent FROM email_daily_counts
            WHERE day = (now() AT TIME ZONE 'UTC')::date AND tenant_id IN ($1, '00000000-0000-0000-0000-000000000000')
            ORDER BY tenant_id FOR UPDATE"#,
        tenant as _
    )
    .fetch_all(&mut *conn)
    .await?;
    // A row made by this statement is not seen by its own SELECT: it starts at 0.
    let sent = |t: Uuid| counts.iter().find(|c| c.tenant_id == t).map_or(0, |c| c.sent);
    if !sending.link && sent(Uuid::nil()) >= settings.platform_daily {
        return Ok(Err(CapReached::Platform(settings.platform_daily)));
    }
    let cap =
        if sending.unproven { settings.unproven_daily.min(settings.account_daily) } else { settings.account_daily };
    if sent(tenant.0) >= cap {
        return Ok(Err(CapReached::Account(cap)));
    }
    sqlx::query!(
        "UPDATE email_daily_counts SET sent = sent + 1
          WHERE day = (now() AT TIME ZONE 'UTC')::date
            AND (tenant_id = $1 OR (tenant_id = '00000000-0000-0000-0000-000000000000' AND NOT $2))",
        tenant as _,
        sending.link
    )
    .execute(&mut *conn)
    .await?;
    Ok(Ok(()))
}

/// Why an email was not queued.
#[derive(Debug, thiserror::Error)]
pub enum NotQueued {
    #[error(transparent)]
    Cap(#[from] CapReached),
    #[error("refusing to queue an email: {0}")]
    Invalid(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Queues an email of `tenant`'s agent and its send job in the caller's transaction; returns
/// the row's id. The email's fields are checked first (no line break in any header field), and
/// it is counted against the daily send caps (`count_send`; `unproven`: no owner of the account
/// proved their address yet).
pub async fn enqueue(
    conn: &mut PgConnection,
    settings: &EmailSettings,
    (tenant, agent, unproven): (TenantId, AgentId, bool),
    kind: Kind,
    outreach_message_id: Option<Uuid>,
    email: &Outgoing,
) -> Result<Uuid, NotQueued> {
    email.check().map_err(NotQueued::Invalid)?;
    count_send(&mut *conn, settings, tenant, Sending { unproven, link: false }).await??;
    let id = Uuid::now_v7();
    sqlx::query!(
        r#"INSERT INTO email_outbox (agent_id, id, kind, outreach_message_id, from_name, from_address, to_address,
                subject, body, message_id, in_reply_to, "references", reply_to)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"#,
        agent as _,
        id,
        kind.as_str(),
        outreach_message_id,
        email.from_name,
        email.from_address,
        email.to_address,
        email.subject,
        email.body,
        email.message_id,
        email.in_reply_to,
        &email.references,
        email.reply_to
    )
    .execute(&mut *conn)
    .await?;
    queue::enqueue_in(
        conn,
        NewJob::new(SEND_JOB)
            .agent(agent)
            .payload(json!({ "outbox_id": id }))
            .idempotency_key(format!("{SEND_JOB}:{id}"))
            .max_attempts(MAX_ATTEMPTS),
    )
    .await?;
    Ok(id)
}

/// When the agent's emails of `kind` were queued since `since` (failed ones do not count), oldest
/// first.
pub async fn queued_since(
    conn: &mut PgConnection,
    agent: AgentId,
    kind: &str,
    since: DateTime<Utc>,
) -> sqlx::Result<Vec<DateTime<Utc>>> {
    sqlx::query_scalar!(
        "SELECT created_at FROM email_outbox
          WHERE agent_id = $1 AND kind = $2 AND status <> 'failed' AND created_at > $3 ORDER BY created_at",
        agent as _,
        kind,
        since
    )
    .fetch_all(conn)
    .await
}

/// The agent's emails of `kind` to `to` queued since `since` (failed ones do not count): the
/// outreach message each carries, and when it was queued.
pub async fn queued_to(
    conn: &mut PgConnection,
    agent: AgentId,
    kind: &str,
    to: &str,
    since: DateTime<Utc>,
) -> sqlx::Result<Vec<(Option<Uuid>, DateTime<Utc>)>> {
    let rows = sqlx::query!(
        "SELECT outreach_message_id, created_at FROM email_outbox
          WHERE agent_id = $1 AND kind = $2 AND status <> 'failed' AND to_address = $3 AND created_at > $4",
        agent as _,
        kind,
        to,
        since
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.outreach_message_id, r.created_at)).collect())
}

/// A queued row, read for sending.
pub struct Queued {
    pub kind: String,
    pub outreach_message_id: Option<Uuid>,
    pub email: Outgoing,
}

/// The row if it is still queued.
pub async fn queued(conn: &mut PgConnection, agent: AgentId, id: Uuid) -> sqlx::Result<Option<Queued>> {
    let row = sqlx::query!(
        r#"SELECT kind, outreach_message_id, from_name, from_address, to_address, subject, body, message_id, in_reply_to,
                  "references" AS "references!", reply_to
             FROM email_outbox WHERE agent_id = $1 AND id = $2 AND status = 'queued' FOR UPDATE"#,
        agent as _,
        id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| Queued {
        kind: r.kind,
        outreach_message_id: r.outreach_message_id,
        email: Outgoing {
            from_name: r.from_name,
            from_address: r.from_address,
            to_address: r.to_address,
            reply_to: r.reply_to,
            subject: r.subject,
            body: r.body,
            message_id: r.message_id,
            in_reply_to: r.in_reply_to,
            references: r.references,
            idempotency_key: id.to_string(),
        },
    }))
}

/// Marks a row sent by `transport`.
pub async fn mark_sent(
    conn: &mut PgConnection,
    agent: AgentId,
    id: Uuid,
    transport: &str,
    provider_id: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE email_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1, transport = $3,
                provider_id = $4, last_error = NULL
          WHERE agent_id = $1 AND id = $2",
        agent as _,
        id,
        transport,
        provider_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Records a failed attempt; `failed` when it will not be retried.
pub async fn mark_attempt(
    conn: &mut PgConnection,
    agent: AgentId,
    id: Uuid,
    error: &str,
    failed: bool,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE email_outbox SET attempts = attempts + 1, last_error = $3,
                status = CASE WHEN $4 THEN 'failed' ELSE status END
          WHERE agent_id = $1 AND id = $2",
        agent as _,
        id,
        error,
        failed
    )
    .execute(conn)
    .await?;
    Ok(())
}
