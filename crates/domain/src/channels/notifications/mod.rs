//! Notifications (SPEC O4, seed 001 §10.4): what an agent tells its owner, by email (through
//! the outbox) and Telegram (the owner's linked chat), batched by the agent's
//! `notification_mode` (`batching`). `notify` stores one in the caller's transaction and
//! queues the agent's `notification_dispatch` job; `dispatch` sends what may go now. The
//! notification centre lists them with their read state.

pub mod batching;
mod dispatch;

pub use dispatch::{DISPATCH_JOB, cycles};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use miniclaw_platform::jobs::{NewJob, queue};

/// What happened. Urgent kinds go out at once (unless the owner chose `digest_only`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A reply to outreach arrived (and was answered by the agent).
    OutreachReply,
    /// A reply needs the owner (with a suggested answer).
    Escalation,
    /// The agent's daily token budget is used up.
    BudgetExhausted,
    /// The ERC-8004 registration failed.
    RegistrationFailed,
    /// An email could not be sent.
    EmailFailed,
    /// An outreach email went out.
    OutreachSent,
    /// The agent checked in, or suggested a task, on its own (X7).
    CheckIn,
    /// An urgent proactive reminder: a deadline within a day, or a reminder the owner asked for.
    Reminder,
    /// The pinned memories grew heavy: the owner is asked to review them (X11).
    MemoryReview,
    /// A webhook endpoint failed for days and was disabled.
    WebhookDisabled,
    /// The agent proposed an outreach email on its own; it waits for the owner's approval.
    OutreachProposed,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::OutreachReply => "outreach_reply",
            Kind::Escalation => "escalation",
            Kind::BudgetExhausted => "budget_exhausted",
            Kind::RegistrationFailed => "registration_failed",
            Kind::EmailFailed => "email_failed",
            Kind::OutreachSent => "outreach_sent",
            Kind::CheckIn => "check_in",
            Kind::Reminder => "reminder",
            Kind::MemoryReview => "memory_review",
            Kind::WebhookDisabled => "webhook_disabled",
            Kind::OutreachProposed => "outreach_proposed",
        }
    }

    /// The webhook event a notification of this kind is (`webhooks::EVENTS`), if any.
    pub fn event(self) -> Option<&'static str> {
        match self {
            Kind::OutreachReply => Some("outreach.reply"),
            Kind::Escalation => Some("outreach.escalation"),
            Kind::BudgetExhausted => Some("budget.exhausted"),
            Kind::RegistrationFailed => Some("identity.failed"),
            Kind::EmailFailed => Some("email.failed"),
            Kind::OutreachSent => Some("outreach.sent"),
            Kind::CheckIn => Some("proactive.check_in"),
            Kind::Reminder => Some("proactive.reminder"),
            Kind::MemoryReview | Kind::WebhookDisabled | Kind::OutreachProposed => None,
        }
    }

    pub fn urgent(self) -> bool {
        !matches!(self, Kind::OutreachSent | Kind::CheckIn | Kind::MemoryReview | Kind::OutreachProposed)
    }
}

/// One notification as the owner sees it.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Notification {
    pub id: Uuid,
    pub kind: String,
    pub urgent: bool,
    pub title: String,
    pub body: String,
    /// `queued` (waiting for its delivery or the next digest) or `sent`.
    pub status: String,
    /// The digest that carried it, when it went out in one.
    pub digest_id: Option<Uuid>,
    /// How each channel took it (`email`, `telegram`).
    #[schema(value_type = Object)]
    pub channels: serde_json::Value,
    pub read_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
}

/// Stores a notification (in the caller's transaction) and queues its dispatch. `dedup_key`
/// makes a second one for the same event a no-op. Returns its id when it was stored.
pub async fn notify(
    conn: &mut PgConnection,
    agent: AgentId,
    kind: Kind,
    title: &str,
    body: &str,
    dedup_key: Option<&str>,
) -> sqlx::Result<Option<Uuid>> {
    let id = sqlx::query_scalar!(
        "INSERT INTO notifications (agent_id, id, kind, urgent, title, body, dedup_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (agent_id, dedup_key) WHERE dedup_key IS NOT NULL DO NOTHING RETURNING id",
        agent as _,
        Uuid::now_v7(),
        kind.as_str(),
        kind.urgent(),
        title.chars().take(200).collect::<String>(),
        body.chars().take(4000).collect::<String>(),
        dedup_key
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = id {
        queue_dispatch(conn, agent).await?;
        if let Some(event) = kind.event() {
            let data = json!({ "notification_id": id, "kind": kind.as_str() });
            crate::channels::webhooks::emit(conn, agent, event, data).await?;
        }
    }
    Ok(id)
}

/// Records how the Telegram send of notifications `ids` ended (`channels.telegram`).
pub(crate) async fn telegram_outcome(
    pool: &sqlx::PgPool,
    agent: AgentId,
    ids: &[Uuid],
    status: &serde_json::Value,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE notifications SET channels = jsonb_set(channels, '{telegram}', $3) WHERE agent_id = $1 AND id = ANY($2)",
        agent as _,
        ids,
        status
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Queues the agent's dispatch (one pending at a time).
pub(crate) async fn queue_dispatch(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<()> {
    queue::enqueue_in(
        conn,
        NewJob::new(DISPATCH_JOB)
            .agent(agent)
            .payload(json!({}))
            .idempotency_key(format!("{DISPATCH_JOB}:{agent}:pending"))
            .max_attempts(10),
    )
    .await?;
    Ok(())
}

/// The agent's notifications, newest first; `unread` keeps only those not read yet.
pub async fn list(
    pool: &PgPool,
    agent: AgentId,
    unread: bool,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<Notification>> {
    sqlx::query_as!(
        Notification,
        "SELECT id, kind, urgent, title, body, status, digest_id, channels, read_at, created_at, sent_at
           FROM notifications
          WHERE agent_id = $1 AND (NOT $2 OR read_at IS NULL) AND ($3::uuid IS NULL OR id < $3)
          ORDER BY id DESC LIMIT $4",
        agent as _,
        unread,
        before,
        limit
    )
    .fetch_all(pool)
    .await
}

/// Marks one notification read (404 when the agent has no such notification).
pub async fn mark_read(pool: &PgPool, agent: AgentId, id: Uuid) -> Result<Notification, Error> {
    sqlx::query_as!(
        Notification,
        "UPDATE notifications SET read_at = coalesce(read_at, now()) WHERE agent_id = $1 AND id = $2
         RETURNING id, kind, urgent, title, body, status, digest_id, channels, read_at, created_at, sent_at",
        agent as _,
        id
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("notification"))
}

/// Marks every notification of the agent read; returns how many were unread.
pub async fn mark_all_read(pool: &PgPool, agent: AgentId) -> sqlx::Result<u64> {
    let done =
        sqlx::query!("UPDATE notifications SET read_at = now() WHERE agent_id = $1 AND read_at IS NULL", agent as _)
            .execute(pool)
            .await?;
    Ok(done.rows_affected())
}

/// How many of the agent's notifications are unread.
pub async fn unread(pool: &PgPool, agent: AgentId) -> sqlx::Result<i64> {
    let n =
        sqlx::query_scalar!("SELECT count(*) FROM notifications WHERE agent_id = $1 AND read_at IS NULL", agent as _)
            .fetch_one(pool)
            .await?;
    Ok(n.unwrap_or(0))
}
