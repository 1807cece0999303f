//! Delivery and outcomes (seed 000 §5.4.3–§5.4.4). Due items go out within the owner's daily
//! cap: a check-in as a new message in the owner's conversation (its `meta.proactive` says why)
//! and a notification; a task suggestion as a task pending approval. The owner's first answer
//! to a check-in, or the task's fate, decides the outcome and moves trust; "stop" or "not now"
//! also drops the dial to conservative, and the agent says so.

use chrono::{DateTime, Duration, Utc};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::rules::{self, Answer};
use super::scan;
use crate::auth::Actor;
use crate::cognition::tasks::{self, Mover, TaskInput};
use crate::notifications::{Kind, notify};
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;

/// A task suggestion nobody approved or rejected in this long was ignored.
const TASK_WINDOW_DAYS: i64 = 3;

fn origin() -> Origin {
    Origin::new(Actor::Job(super::SWEEP.into()), None)
}

/// What one sweep did.
#[derive(Debug, Default, serde::Serialize)]
pub struct SweepReport {
    pub delivered: usize,
    pub postponed: usize,
    pub resolved: usize,
    pub scans_queued: usize,
}

/// Delivers what is due at `now` and settles the outcomes of what was sent.
pub async fn deliver_and_settle(deps: &Deps, now: DateTime<Utc>) -> anyhow::Result<SweepReport> {
    let pool = &deps.pool;
    let mut report = SweepReport::default();
    // Scheduled items whose time came, and `next_active` ones once the owner wrote again.
    let due = sqlx::query!(
        r#"SELECT i.agent_id, i.id FROM proactive_items i
            WHERE i.status = 'scheduled'
              AND EXISTS (SELECT 1 FROM agents a WHERE a.id = i.agent_id AND a.active AND a.deleted_at IS NULL)
              AND (i.deliver_at <= $1
                   OR (i.deliver_at IS NULL AND EXISTS (
                       SELECT 1 FROM chat_messages m JOIN conversations c ON c.agent_id = m.agent_id AND c.id = m.conversation_id
                        WHERE m.agent_id = i.agent_id AND m.role = 'user' AND c.end_user IS NULL
                          AND m.created_at > i.created_at AND m.created_at <= $1)))
            ORDER BY i.deliver_at NULLS LAST, i.id LIMIT 500"#,
        now
    )
    .fetch_all(pool)
    .await?;
    for d in due {
        let agent = AgentId(d.agent_id);
        match deliver(deps, agent, d.id, now).await {
            Ok(Delivered::Sent) => report.delivered += 1,
            Ok(Delivered::Postponed) => report.postponed += 1,
            Ok(Delivered::Gone) => {}
            // One item that cannot go out (its task refused, say) must not hold up the rest:
            // it is set aside with the reason, and the sweep goes on.
            Err(e) => {
                tracing::warn!(agent.id = %agent, item.id = %d.id, error = %e, "a proactive item could not be delivered");
                sqlx::query!(
                    "UPDATE proactive_items SET status = 'suppressed', status_reason = $3
                      WHERE agent_id = $1 AND id = $2 AND status = 'scheduled'",
                    agent as _,
                    d.id,
                    format!("could not be delivered: {}", e.to_string().chars().take(300).collect::<String>())
                )
                .execute(pool)
                .await?;
            }
        }
    }
    report.resolved = settle(pool, now).await?;
    Ok(report)
}

enum Delivered {
    Sent,
    Postponed,
    Gone,
}

async fn deliver(deps: &Deps, agent: AgentId, id: Uuid, now: DateTime<Utc>) -> anyhow::Result<Delivered> {
    let pool = &deps.pool;
    let mut tx = pool.begin().await?;
    let Some(item) = sqlx::query!(
        "SELECT kind, signal, gap, level, rule, message, timing, conversation_id, urgency
           FROM proactive_items WHERE agent_id = $1 AND id = $2 AND status = 'scheduled' FOR UPDATE SKIP LOCKED",
        agent as _,
        id
    )
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(Delivered::Gone);
    };
    let Some(a) = scan::agent_row(&mut tx, agent).await? else { return Ok(Delivered::Gone) };
    // The daily cap holds everything, urgent included: the next slot opens when the oldest
    // of the last 24 hours leaves the window.
    let cap = sqlx::query!(
        r#"SELECT p.daily_max, (SELECT count(*) FROM proactive_items s WHERE s.agent_id = p.agent_id AND s.sent_at > $2::timestamptz - interval '24 hours') AS "sent!",
                  (SELECT min(s.sent_at) FROM proactive_items s WHERE s.agent_id = p.agent_id AND s.sent_at > $2::timestamptz - interval '24 hours') AS oldest
             FROM agent_proactive p WHERE p.agent_id = $1"#,
        agent as _,
        now
    )
    .fetch_one(&mut *tx)
    .await?;
    let urgent = item.level == "urgent";
    let day = scan::owner_day(&mut tx, agent, &a, now).await?;
    let later = if cap.sent >= i64::from(cap.daily_max) {
        let next = cap.oldest.map(|o| o + Duration::hours(24)).unwrap_or(now + Duration::hours(24));
        Some((next + Duration::minutes(1), format!("the daily limit of {} is reached", cap.daily_max)))
    } else if !urgent && day.is_quiet(now) {
        Some((day.outside_quiet(now), "quiet hours".to_string()))
    } else {
        None
    };
    if let Some((at, why)) = later {
        sqlx::query!(
            "UPDATE proactive_items SET deliver_at = $3, status_reason = $4 WHERE agent_id = $1 AND id = $2",
            agent as _,
            id,
            at,
            format!("postponed: {why}")
        )
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        return Ok(Delivered::Postponed);
    }
    let why = format!("{} ({}): {}; timing {}", item.signal.replace('_', " "), item.gap, item.rule, item.timing);
    let (conversation, message, task) = if item.kind == "task" {
        tx.commit().await?;
        let input = TaskInput {
            title: Some(item.gap.clone()),
            detail: Some(format!("Suggested by the agent: {why}").chars().take(1_900).collect()),
            due_at: None,
        };
        let task = tasks::create(pool, a.tenant, agent, &origin(), Mover::Agent, input).await?;
        tx = pool.begin().await?;
        (None, None, Some(task.id))
    } else {
        let conversation = match item.conversation_id {
            Some(c) if conversation_open(&mut tx, agent, c).await? => c,
            _ => owner_conversation(&mut tx, agent, now).await?,
        };
        let meta = json!({ "proactive": { "item_id": id, "signal": item.signal, "gap": item.gap, "rule": item.rule,
            "timing": item.timing, "why": why } });
        let message = append(&mut tx, agent, conversation, &item.message, meta, now).await?;
        (Some(conversation), Some(message), None)
    };
    sqlx::query!(
        "UPDATE proactive_items SET status = 'sent', sent_at = $3, conversation_id = coalesce($4, conversation_id),
                message_id = $5, task_id = $6, status_reason = NULL
          WHERE agent_id = $1 AND id = $2",
        agent as _,
        id,
        now,
        conversation,
        message,
        task
    )
    .execute(&mut *tx)
    .await?;
    let (kind, title) = match (item.kind.as_str(), urgent) {
        ("task", _) => (Kind::CheckIn, format!("Suggested task: {}", item.gap)),
        (_, true) => (Kind::Reminder, "A reminder from your agent".to_string()),
        _ => (Kind::CheckIn, "Your agent checked in".to_string()),
    };
    notify(&mut tx, agent, kind, &title, &format!("{}\n\nWhy: {why}", item.message), Some(&format!("proactive:{id}")))
        .await?;
    activity::record_agent(
        &mut tx,
        a.tenant,
        agent,
        &origin(),
        "proactive_sent",
        json!({ "item_id": id, "kind": item.kind, "signal": item.signal, "level": item.level, "timing": item.timing }),
    )
    .await?;
    tx.commit().await?;
    Ok(Delivered::Sent)
}

async fn conversation_open(conn: &mut PgConnection, agent: AgentId, id: Uuid) -> sqlx::Result<bool> {
    let n = sqlx::query_scalar!(
        "SELECT count(*) FROM conversations WHERE agent_id = $1 AND id = $2 AND end_user IS NULL AND deleted_at IS NULL",
        agent as _,
        id
    )
    .fetch_one(conn)
    .await?;
    Ok(n.unwrap_or(0) > 0)
}

/// The owner's most recent conversation, or a new "Check-ins" one.
async fn owner_conversation(conn: &mut PgConnection, agent: AgentId, now: DateTime<Utc>) -> sqlx::Result<Uuid> {
    let found = sqlx::query_scalar!(
        "SELECT id FROM conversations WHERE agent_id = $1 AND end_user IS NULL AND deleted_at IS NULL AND channel = 'web'
          ORDER BY updated_at DESC LIMIT 1",
        agent as _
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = found {
        return Ok(id);
    }
    let id = Uuid::now_v7();
    sqlx::query!(
        "INSERT INTO conversations (id, agent_id, title, channel, message_count, owner_private, created_at, updated_at)
         VALUES ($1, $2, 'Check-ins', 'web', 0, true, $3, $3)",
        id,
        agent as _,
        now
    )
    .execute(conn)
    .await?;
    Ok(id)
}

/// Appends an assistant message the agent wrote on its own; returns its id.
async fn append(
    conn: &mut PgConnection,
    agent: AgentId,
    conversation: Uuid,
    content: &str,
    meta: serde_json::Value,
    now: DateTime<Utc>,
) -> sqlx::Result<Uuid> {
    let position = sqlx::query_scalar!(
        "UPDATE conversations SET message_count = message_count + 1, updated_at = greatest(updated_at, $3)
          WHERE agent_id = $1 AND id = $2
         RETURNING (SELECT coalesce(max(position) + 1, 0) FROM chat_messages WHERE agent_id = $1 AND conversation_id = $2)",
        agent as _,
        conversation,
        now
    )
    .fetch_one(&mut *conn)
    .await?
    .unwrap_or(0);
    let id = Uuid::now_v7();
    sqlx::query!(
        "INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, meta, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'assistant', $5, 'complete', 'web', $6, $7, $7)",
        id,
        conversation,
        agent as _,
        position,
        content,
        meta,
        now
    )
    .execute(conn)
    .await?;
    Ok(id)
}

/// Settles what was sent: a check-in's first answer from the owner (or its absence for a day),
/// a task suggestion's approval or rejection (or nothing for three days). Returns how many.
async fn settle(pool: &PgPool, now: DateTime<Utc>) -> anyhow::Result<usize> {
    let sent = sqlx::query!(
        r#"SELECT i.agent_id, i.id, i.kind, i.sent_at AS "sent_at!", i.conversation_id, i.task_id,
                  (SELECT m.content FROM chat_messages m
                    WHERE m.agent_id = i.agent_id AND m.conversation_id = i.conversation_id AND m.role = 'user'
                      AND m.created_at > i.sent_at AND m.created_at <= $1
                    ORDER BY m.created_at LIMIT 1) AS answer,
                  (SELECT t.status FROM agent_tasks t WHERE t.agent_id = i.agent_id AND t.id = i.task_id) AS task_status
             FROM proactive_items i WHERE i.status = 'sent' AND i.sent_at <= $1 LIMIT 1000"#,
        now
    )
    .fetch_all(pool)
    .await?;
    let mut settled = 0;
    for s in sent {
        let agent = AgentId(s.agent_id);
        let outcome = if s.kind == "task" {
            match s.task_status.as_deref() {
                Some("approved" | "in_progress" | "done") => Some(Outcome::Accepted),
                Some("rejected") | None => Some(Outcome::Dismissed),
                _ if s.sent_at < now - Duration::days(TASK_WINDOW_DAYS) => Some(Outcome::Ignored),
                _ => None,
            }
        } else {
            match s.answer.as_deref().map(rules::answer_of) {
                Some(Answer::Stop) => Some(Outcome::Stop),
                Some(Answer::Accepted) => Some(Outcome::Accepted),
                None if s.sent_at < now - Duration::hours(rules::ANSWER_WINDOW_HOURS) => Some(Outcome::Ignored),
                None => None,
            }
        };
        if let Some(o) = outcome
            && resolve(pool, agent, s.id, o, &origin(), now).await?.is_some()
        {
            settled += 1;
        }
    }
    Ok(settled)
}

/// How a sent item ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Accepted,
    Ignored,
    Dismissed,
    /// Dismissed with "stop" or "not now": the dial drops to conservative too.
    Stop,
}

/// Records an outcome of a `sent` item and moves trust; `None` when it is not `sent` (any
/// more). "stop" also sets the dial to conservative and tells the owner in the conversation.
pub(super) async fn resolve(
    pool: &PgPool,
    agent: AgentId,
    id: Uuid,
    outcome: Outcome,
    origin: &Origin,
    now: DateTime<Utc>,
) -> anyhow::Result<Option<String>> {
    let (status, delta) = match outcome {
        Outcome::Accepted => ("accepted", rules::ACCEPTED),
        Outcome::Ignored => ("ignored", rules::IGNORED),
        Outcome::Dismissed | Outcome::Stop => ("dismissed", rules::DISMISSED),
    };
    let mut tx = pool.begin().await?;
    let Some(conversation) = sqlx::query_scalar!(
        "UPDATE proactive_items SET status = $3, resolved_at = $4 WHERE agent_id = $1 AND id = $2 AND status = 'sent'
         RETURNING conversation_id",
        agent as _,
        id,
        status,
        now
    )
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(None);
    };
    let trust = sqlx::query_scalar!(
        "UPDATE agent_proactive SET trust = least(1, greatest(0, trust + $2)), updated_at = now() WHERE agent_id = $1
         RETURNING trust",
        agent as _,
        delta
    )
    .fetch_one(&mut *tx)
    .await?;
    let tenant =
        sqlx::query_scalar!("SELECT tenant_id FROM agents WHERE id = $1", agent as _).fetch_one(&mut *tx).await?;
    let mut details = json!({ "item_id": id, "outcome": status, "trust_delta": delta, "trust": trust });
    if outcome == Outcome::Stop {
        // One "stop" may answer several check-ins: the dial turns, and the agent says so, once.
        let turned = sqlx::query!(
            "UPDATE agents SET proactiveness = 'conservative', updated_at = now()
              WHERE id = $1 AND proactiveness <> 'conservative'",
            agent as _
        )
        .execute(&mut *tx)
        .await?
        .rows_affected()
            > 0;
        crate::auth::cache::cache().forget_agent_row(agent);
        details["dial"] = json!("conservative");
        if turned && let Some(c) = conversation {
            let text = "Understood. From now on I will only reach out on my own for urgent things: deadlines and \
                        reminders you ask for. You can change this in my settings (proactiveness).";
            append(
                &mut tx,
                agent,
                c,
                text,
                json!({ "proactive": { "item_id": id, "why": "the owner asked me to stop" } }),
                now,
            )
            .await?;
        }
    }
    activity::record_agent(&mut tx, TenantId(tenant), agent, origin, "proactive_outcome", details).await?;
    tx.commit().await?;
    Ok(Some(status.to_string()))
}
