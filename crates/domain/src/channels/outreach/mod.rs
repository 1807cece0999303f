//! Outreach (SPEC O1–O3, seed 001 §10.2): an agent with outreach enabled proposes an email
//! (target, purpose, message — drafted by the `outreach` role from its soul and memories, or
//! written by its owner); the owner edits, approves or rejects it; an approved email goes
//! through the outbox within the sending limits; the replies that come back through the
//! inbound webhook land in the same thread and run through the agent's chat pipeline, which
//! answers on its own or escalates to the owner with a suggested reply.
//!
//! - `state`: the state machine (pure), `limits`: 5 a day, one first contact per target a week
//! - `draft`: proposals and the `outreach` role
//! - `thread`: the owner's actions on a thread and the emails they queue
//! - `payload`: what a delivery carries (Resend's event or the plain form), the reply without its quote
//! - `inbound`: a reply's matching, storing and the agent's answer
//! - `delivery`: the `email_send` job that drains the outbox
//! - `suggest`: the outreach the agent proposes on its own, daily

pub mod delivery;
pub mod draft;
pub mod inbound;
pub mod limits;
pub mod payload;
pub mod state;
pub mod suggest;
pub mod thread;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
pub use state::{Event, Status};

/// Longest purpose, and longest body, of an outreach email.
pub const PURPOSE_MAX: usize = 500;
pub const BODY_MAX: usize = 10_000;

/// An outreach and where its thread stands.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Thread {
    pub id: Uuid,
    pub agent_id: AgentId,
    /// `proposed`, `approved`, `sent`, `replied`, `escalated`, `closed` or `rejected`.
    pub status: String,
    pub target_email: String,
    pub target_name: Option<String>,
    pub purpose: String,
    pub subject: String,
    pub body: String,
    /// Who wrote the draft: `model` (the `outreach` role), `offline` (the offline engine's
    /// template, no model configured), `owner`, or `agent` (given whole through its key).
    pub drafted_by: String,
    /// While escalated: the reply the agent suggests, its confidence and why it did not send it.
    pub suggested_reply: Option<String>,
    pub confidence: Option<f32>,
    pub escalation_reason: Option<String>,
    /// The chat conversation (channel `email`) its replies run through.
    pub conversation_id: Option<Uuid>,
    pub reject_reason: Option<String>,
    /// What the agent proposed it from when it did so on its own: `memory:<id>` (someone the
    /// owner said they want to reach) or `follow_up:<thread id>` (an email that got no answer);
    /// `null` for proposals of the owner or a key.
    pub proposed_from: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// One email of a thread.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct ThreadMessage {
    pub id: Uuid,
    /// `outbound` or `inbound`.
    pub direction: String,
    /// The Message-ID, without angle brackets.
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub from_address: String,
    pub to_address: String,
    pub subject: String,
    pub body: String,
    /// The stored body was cut to its maximum.
    pub truncated: bool,
    #[schema(value_type = Object)]
    pub headers: serde_json::Value,
    /// outbound: `queued`, `sent`, `failed`; inbound: `received`, `auto_replied`, `escalated`, `ignored`.
    pub status: String,
    /// `owner`, `agent` or `sender`.
    pub author: String,
    pub created_at: DateTime<Utc>,
}

/// A thread with its emails, oldest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ThreadDetail {
    #[serde(flatten)]
    pub thread: Thread,
    pub messages: Vec<ThreadMessage>,
}

macro_rules! select_thread {
    ($tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Thread,
            r#"SELECT id, agent_id AS "agent_id: AgentId", status, target_email, target_name, purpose, subject, body,
                      drafted_by, suggested_reply, confidence, escalation_reason, conversation_id, reject_reason,
                      proposed_from, created_at, updated_at
                 FROM outreach_threads "# + $tail
            $(, $arg)*
        )
    };
}
pub(crate) use select_thread;

/// The agent's outreach, newest first, optionally of one status.
pub async fn list(
    pool: &PgPool,
    agent: AgentId,
    status: Option<Status>,
    active_since: Option<DateTime<Utc>>,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<Thread>> {
    // The window is one more condition on the same keyset (`id < before`, newest first), so a
    // page boundary never skips or repeats a thread.
    select_thread!(
        "WHERE agent_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::uuid IS NULL OR id < $3)
           AND ($5::timestamptz IS NULL OR updated_at >= $5)
         ORDER BY id DESC LIMIT $4",
        agent as _,
        status.map(Status::as_str),
        before,
        limit,
        active_since
    )
    .fetch_all(pool)
    .await
}

/// How long a thread stays readable by the owner's keys after its last activity. People wrote
/// to the owner, not to every miniapp holding a key: an old correspondence is the owner's to
/// read in the dashboard, and a key leaked today does not carry away years of it.
pub const KEY_READABLE_DAYS: i64 = 30;

/// One thread with its emails, when it was active since `active_since` (`None`: any time);
/// `None` when the agent has no such thread.
pub async fn get(
    pool: &PgPool,
    agent: AgentId,
    id: Uuid,
    active_since: Option<DateTime<Utc>>,
) -> sqlx::Result<Option<ThreadDetail>> {
    let Some(thread) = select_thread!(
        "WHERE agent_id = $1 AND id = $2 AND ($3::timestamptz IS NULL OR updated_at >= $3)",
        agent as _,
        id,
        active_since
    )
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    let messages = sqlx::query_as!(
        ThreadMessage,
        r#"SELECT id, direction, message_id, in_reply_to, "references" AS "references!", from_address, to_address,
                  subject, body, truncated, headers, status, author, created_at
             FROM outreach_messages WHERE agent_id = $1 AND thread_id = $2 ORDER BY created_at, id"#,
        agent as _,
        id
    )
    .fetch_all(pool)
    .await?;
    Ok(Some(ThreadDetail { thread, messages }))
}

/// Locks a thread for a change and checks that `event` is allowed: the new status, with the
/// thread as it was. 404 when the agent has no such thread, 409 naming its status when the
/// event is not allowed.
pub(crate) async fn lock(
    conn: &mut PgConnection,
    agent: AgentId,
    id: Uuid,
    event: Event,
) -> Result<(Thread, Status), Error> {
    let thread = select_thread!("WHERE agent_id = $1 AND id = $2 FOR UPDATE", agent as _, id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("outreach"))?;
    let from = Status::parse(&thread.status).ok_or_else(|| anyhow::anyhow!("unknown outreach status"))?;
    let to = state::next(from, event).map_err(|e| Error::Conflict(e.to_string()))?;
    Ok((thread, to))
}

/// Stores a thread's new status and records the transition in the activity log.
#[expect(clippy::too_many_arguments, reason = "who, which thread, to what, and the log entry")]
pub(crate) async fn record(
    conn: &mut PgConnection,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    thread: &Thread,
    to: Status,
    action: &str,
    mut details: serde_json::Value,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE outreach_threads SET status = $3, updated_at = now() WHERE agent_id = $1 AND id = $2",
        agent as _,
        thread.id,
        to.as_str()
    )
    .execute(&mut *conn)
    .await?;
    if let Some(map) = details.as_object_mut() {
        map.insert("outreach_id".into(), thread.id.to_string().into());
        map.insert("from".into(), thread.status.clone().into());
        map.insert("to".into(), to.as_str().into());
    }
    activity::record_agent(conn, tenant, agent, origin, action, details).await
}

/// The agent's sending quota now.
pub async fn quota(pool: &PgPool, agent: AgentId) -> sqlx::Result<limits::Quota> {
    let mut conn = pool.acquire().await?;
    limits::quota(&mut conn, agent, Utc::now()).await
}

/// Whether the agent ever wrote to someone (an outbound outreach message).
pub async fn any_outbound(pool: &PgPool, agent: AgentId) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM outreach_messages WHERE agent_id = $1 AND direction = 'outbound') AS "sent!""#,
        agent as _
    )
    .fetch_one(pool)
    .await
}
