//! The `notification_dispatch` job (per agent, queued by `notify` and every 10 minutes by
//! `notification_flush` while anything waits): sends each queued notification that may go on
//! its own now, and flushes the rest as one digest when the batching rules say so. A digest's
//! text is written by the `digest` role in the agent's name (the offline engine fills its
//! template when no model is configured). Email goes through the outbox to the owner's
//! address; Telegram to the owner's linked chat.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use super::batching::{self, Mode};
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::email::outbox::{self, Kind};
use miniclaw_platform::email::{Outgoing, headers};
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};
use miniclaw_platform::llm::roles::{Digest, DigestItem, Wisdom};
use miniclaw_platform::llm::{CallContext, ChatRequest};

pub const DISPATCH_JOB: &str = "notification_dispatch";
pub const FLUSH_CYCLE: &str = "notification_flush";

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            DISPATCH_JOB,
            CycleScope::Agent,
            "Sends an agent's queued notifications that may go now and flushes the rest as a digest when due (O4).",
            dispatch,
        )
        .max_attempts(10),
        Cycle::new(
            FLUSH_CYCLE,
            CycleScope::Platform,
            "Queues the dispatch of every agent with waiting notifications, so digests flush on time (every 4 h, at 2 items, or at 8 h).",
            |ctx: JobContext| async move {
                let agents = sqlx::query_scalar!("SELECT DISTINCT agent_id FROM notifications WHERE status = 'queued'")
                    .fetch_all(&ctx.pool)
                    .await?;
                let mut conn = ctx.pool.acquire().await?;
                for a in &agents {
                    super::queue_dispatch(&mut conn, AgentId(*a)).await?;
                }
                Ok(json!({ "agents": agents.len() }))
            },
        )
        .every(Duration::from_secs(600)),
    ]
}

struct Waiting {
    id: Uuid,
    kind: String,
    urgent: bool,
    title: String,
    body: String,
    created_at: DateTime<Utc>,
}

/// The agent as a notification presents it.
struct Sender {
    tenant: TenantId,
    name: String,
    emoji: String,
}

async fn dispatch(ctx: JobContext) -> anyhow::Result<Value> {
    miniclaw_platform::jobs::queue::release_pending(&ctx.pool, ctx.job.id).await?;
    let agent = ctx.job.agent_id.map(AgentId).ok_or_else(|| anyhow::anyhow!("`{DISPATCH_JOB}` needs an agent"))?;
    let deps = ctx.deps()?;
    let pool = &ctx.pool;
    let (Some(tenant), Some(a)) =
        (crate::tenancy::agents::tenant_of(pool, agent).await?, crate::tenancy::agents::by_id(pool, agent).await?)
    else {
        return Ok(json!({ "skipped": true, "reason": "the agent is gone" }));
    };
    let now = deps.clock.now();
    let quiet = a.quiet_hours.as_ref().is_some_and(|q| batching::quiet(now, &a.timezone, &q.start, &q.end));
    let mode = Mode::parse(&a.notification_mode);
    let sender = Sender { tenant, name: a.name, emoji: a.emoji };
    let waiting = sqlx::query_as!(
        Waiting,
        "SELECT id, kind, urgent, title, body, created_at FROM notifications
          WHERE agent_id = $1 AND status = 'queued' ORDER BY created_at, id",
        agent as _
    )
    .fetch_all(pool)
    .await?;
    let (alone, rest): (Vec<Waiting>, Vec<Waiting>) =
        waiting.into_iter().partition(|n| batching::goes_alone(mode, n.urgent, quiet));
    for n in &alone {
        let prefix = if n.urgent { "Urgent: " } else { "" };
        let mut tx = pool.begin().await?;
        let channels =
            deliver(&mut tx, deps, agent, &sender, (&format!("{prefix}{}", n.title), &n.body), &[n.id]).await?;
        sqlx::query!(
            "UPDATE notifications SET status = 'sent', sent_at = now(), channels = $3 WHERE agent_id = $1 AND id = $2",
            agent as _,
            n.id,
            channels
        )
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
    }
    let last_flush =
        sqlx::query_scalar!("SELECT last_flush_at FROM notification_flushes WHERE agent_id = $1", agent as _)
            .fetch_optional(pool)
            .await?;
    let times: Vec<DateTime<Utc>> = rest.iter().map(|n| n.created_at).collect();
    let mut digested = 0;
    if batching::flush_due(now, &times, last_flush, quiet) {
        digested = rest.len();
        flush(deps, agent, &sender, &rest).await?;
    }
    Ok(json!({ "sent": alone.len(), "digested": digested, "waiting": rest.len() - digested, "quiet": quiet }))
}

/// The teaching a digest closes with (SPEC O4, S2), chosen for the agent's moment.
async fn closing_wisdom(deps: &Deps, agent: AgentId) -> sqlx::Result<Option<Wisdom>> {
    let moment = crate::social::wisdom::context::of_agent(&deps.pool, agent, deps.clock.now()).await?;
    Ok(moment.and_then(|m| crate::social::wisdom::one_for(&m)).map(|t| Wisdom { quote: t.text, mentor: t.author }))
}

/// Sends the queued items as one digest and records the flush.
async fn flush(deps: &Deps, agent: AgentId, sender: &Sender, items: &[Waiting]) -> anyhow::Result<()> {
    let input = Digest {
        agent_name: sender.name.clone(),
        items: items
            .iter()
            .map(|n| DigestItem {
                kind: Some(n.kind.clone()), text: format!("{} — {}", n.title, first_line(&n.body))
            })
            .collect(),
        wisdom: closing_wisdom(deps, agent).await?,
    };
    let text =
        match deps.llm.complete(&CallContext::job(agent, Some(sender.tenant)), ChatRequest::from_input(input)).await {
            Ok(answer) if !answer.content.trim().is_empty() => answer.content.trim().to_string(),
            // A refused or failed model call still lets the owner know: the items, one a line.
            _ => items.iter().map(|n| format!("- {}", n.title)).collect::<Vec<_>>().join("\n"),
        };
    let title = format!("Digest: {} update{}", items.len(), if items.len() == 1 { "" } else { "s" });
    let digest = Uuid::now_v7();
    let ids: Vec<Uuid> = items.iter().map(|n| n.id).collect();
    let mut tx = deps.pool.begin().await?;
    let channels = deliver(&mut tx, deps, agent, sender, (&title, &text), &ids).await?;
    sqlx::query!(
        "UPDATE notifications SET status = 'sent', sent_at = now(), digest_id = $3, channels = $4
          WHERE agent_id = $1 AND id = ANY($2)",
        agent as _,
        &ids,
        digest,
        channels
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "INSERT INTO notification_flushes (agent_id, last_flush_at) VALUES ($1, now())
         ON CONFLICT (agent_id) DO UPDATE SET last_flush_at = now()",
        agent as _
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

fn first_line(s: &str) -> &str {
    s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

/// Queues one message to the owner, for the notifications `ids`, on every channel they have:
/// email (the outbox) and Telegram (its send job), both in `tx`, so that they exist exactly when
/// the notifications are marked sent. Returns how each channel took it.
async fn deliver(
    tx: &mut sqlx::PgConnection,
    deps: &Deps,
    agent: AgentId,
    sender: &Sender,
    (title, body): (&str, &str),
    ids: &[Uuid],
) -> anyhow::Result<Value> {
    let pool: &PgPool = &deps.pool;
    let owner_email = crate::tenancy::accounts::owner_email(pool, sender.tenant).await?;
    let email = match owner_email.as_deref().map(headers::address) {
        Some(Ok(to)) if deps.mailer.name() != "none" => {
            let from =
                miniclaw_platform::email::sender::sender(&mut *tx, &deps.email, sender.tenant, &sender.name).await?;
            let subject: String = format!("[{} {}] {}", sender.emoji, sender.name, title)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .take(headers::SUBJECT_MAX)
                .collect();
            let email = Outgoing {
                message_id: headers::message_id(&from.address),
                from_name: from.name,
                from_address: from.address,
                to_address: to,
                reply_to: from.reply_to,
                subject,
                body: format!("{body}\n\n— {} {}\n", sender.emoji, sender.name),
                in_reply_to: None,
                references: Vec::new(),
                idempotency_key: String::new(),
            };
            // A notification goes to a proven address: the account is proven (its cap the usual).
            let unproven = !crate::tenancy::accounts::proven(&mut *tx, sender.tenant).await?;
            let who = (sender.tenant, agent, unproven);
            match outbox::enqueue(&mut *tx, &deps.email, who, Kind::Notification, None, &email).await {
                Ok(id) => json!({ "status": "queued", "outbox_id": id }),
                // Past a daily send cap the owner still has the notification in the dashboard.
                Err(outbox::NotQueued::Cap(cap)) => json!({ "status": "skipped", "reason": cap.to_string() }),
                Err(e) => return Err(e.into()),
            }
        }
        Some(Ok(_)) => json!({ "status": "skipped", "reason": "no email transport is configured" }),
        _ => json!({ "status": "skipped", "reason": "the owner has no verified email address" }),
    };
    let text = format!("{} {}: {title}\n\n{body}", sender.emoji, sender.name);
    let telegram = match crate::channels::telegram::queue_to_owner(&mut *tx, agent, &text, ids).await? {
        Some(job) => json!({ "status": "queued", "job_id": job }),
        None => json!({ "status": "skipped", "reason": "no Telegram chat is linked" }),
    };
    Ok(json!({ "email": email, "telegram": telegram }))
}
