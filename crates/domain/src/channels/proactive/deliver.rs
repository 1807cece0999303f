//! Delivery and outcomes (seed 000 §5.4.3–§5.4.4). Due items go out within the owner's daily
//! cap: a check-in as a new message in the owner's conversation (its `meta.proactive` says why)
//! and a notification; a task suggestion as a task pending approval. The owner's first answer
//! to a check-in, or the task's fate, decides the outcome and moves trust; "stop" or "not now"
//! also drops the dial to conservative, and the agent says so.

use chrono::{DateTime, Duration, Utc};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::rules::{self, Answer};
use super::scan;
use crate::channels::notifications::{Kind, notify};
use crate::cognition::tasks::{self, Mover, TaskInput};
use crate::tenancy::auth::Actor;
use miniclaw_core::ids::AgentId;
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
    // Built at run time: the agent's state (`agents::sql`) and the owner's messages
    // (`chat::records`) are read through their areas' expressions.
    let due: Vec<(Uuid, Uuid)> = sqlx::query_as(&format!(
        "SELECT i.agent_id, i.id FROM proactive_items i
          WHERE i.status = 'scheduled' AND coalesce({}, false)
            AND (i.deliver_at <= $1 OR (i.deliver_at IS NULL AND {}))
          ORDER BY i.deliver_at NULLS LAST, i.id LIMIT 500",
        crate::tenancy::agents::sql::active("i.agent_id"),
        crate::chat::records::owner_spoke_sql("i.agent_id", "i.created_at", "$1")
    ))
    .bind(now)
    .fetch_all(pool)
    .await?;
    for (agent, id) in due {
        let agent = AgentId(agent);
        match deliver(deps, agent, id, now).await {
            Ok(Delivered::Sent) => report.delivered += 1,
            Ok(Delivered::Postponed) => report.postponed += 1,
            Ok(Delivered::Gone) => {}
            // One item that cannot go out (its task refused, say) must not hold up the rest:
            // it is set aside with the reason, and the sweep goes on.
            Err(e) => {
                tracing::warn!(agent.id = %agent, item.id = %id, error = %e, "a proactive item could not be delivered");
                sqlx::query!(
                    "UPDATE proactive_items SET status = 'suppressed', status_reason = $3
                      WHERE agent_id = $1 AND id = $2 AND status = 'scheduled'",
                    agent as _,
                    id,
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
            Some(c) if crate::chat::records::owner_conversation_open(&mut tx, agent, c).await? => c,
            _ => crate::chat::records::owner_conversation(&mut tx, agent, now).await?,
        };
        let meta = json!({ "proactive": { "item_id": id, "signal": item.signal, "gap": item.gap, "rule": item.rule,
            "timing": item.timing, "why": why } });
        let message =
            crate::chat::records::append_agent_message(&mut tx, agent, conversation, &item.message, meta, now).await?;
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

#[derive(sqlx::FromRow)]
struct Sent {
    agent_id: Uuid,
    id: Uuid,
    kind: String,
    sent_at: DateTime<Utc>,
    answer: Option<String>,
    task_status: Option<String>,
}

/// Settles what was sent: a check-in's first answer from the owner (or its absence for a day),
/// a task suggestion's approval or rejection (or nothing for three days). Returns how many.
async fn settle(pool: &PgPool, now: DateTime<Utc>) -> anyhow::Result<usize> {
    // Built at run time: the owner's answer (`chat::records`) and the task's status
    // (`cognition::tasks`) are read through their areas' expressions.
    let sent: Vec<Sent> = sqlx::query_as(&format!(
        "SELECT i.agent_id, i.id, i.kind, i.sent_at, {} AS answer, {} AS task_status
           FROM proactive_items i WHERE i.status = 'sent' AND i.sent_at <= $1 LIMIT 1000",
        crate::chat::records::first_owner_answer_sql("i.agent_id", "i.conversation_id", "i.sent_at", "$1"),
        crate::cognition::tasks::status_sql("i.agent_id", "i.task_id")
    ))
    .bind(now)
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
    let tenant = crate::tenancy::agents::tenant_of(&mut *tx, agent)
        .await?
        .ok_or_else(|| anyhow::anyhow!("agent {agent} is gone"))?;
    let mut details = json!({ "item_id": id, "outcome": status, "trust_delta": delta, "trust": trust });
    if outcome == Outcome::Stop {
        // One "stop" may answer several check-ins: the dial turns, and the agent says so, once.
        let turned = crate::tenancy::agents::set_conservative(&mut tx, agent).await?;
        details["dial"] = json!("conservative");
        if turned && let Some(c) = conversation {
            let text = "Understood. From now on I will only reach out on my own for urgent things: deadlines and \
                        reminders you ask for. You can change this in my settings (proactiveness).";
            crate::chat::records::append_agent_message(
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
    activity::record_agent(&mut tx, tenant, agent, origin, "proactive_outcome", details).await?;
    tx.commit().await?;
    Ok(Some(status.to_string()))
}
