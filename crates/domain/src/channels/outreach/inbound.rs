//! Inbound replies (SPEC O3). The webhook verified the delivery and turned it into an
//! `InboundEmail`; here it is matched to its thread — by the Message-IDs it quotes
//! (`In-Reply-To`, `References`), else by sender and normalised subject — and stored in the
//! thread together with the `outreach_answer` job, in one transaction. The job runs the reply
//! through the agent's chat pipeline (channel `email`) and then either answers it (the reply's
//! confidence reaches the owner's `outreach_auto_reply_confidence`: sent through the outbox,
//! threaded) or escalates it to the owner with the suggested reply. So a webhook returns once the
//! reply is durable, and a process that dies after that leaves the answer to any worker. A
//! redelivery (same `svix-id`) and a reply that matches no thread never reach an agent.

use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::payload::{InboundEmail, without_quote};
use super::thread::{self, ReplyTo};
use super::{Event, Thread};
use crate::channels::notifications::{Kind, notify};
use crate::chat::stream::Hub;
use crate::chat::{self, Caller, Channel};
use crate::runtime::Runtime;
use crate::tenancy::auth::Actor;
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, ConversationId, TenantId};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::email::headers;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext, NewJob, queue};
use miniclaw_platform::llm::roles::QualityEval;
use miniclaw_platform::llm::{CallContext, ChatRequest};

/// The most of an inbound body that is stored (longer ones are cut and marked `truncated`).
pub const STORED_BODY_MAX: usize = 100_000;

/// The job that answers a stored reply.
pub const ANSWER_JOB: &str = "outreach_answer";
/// With the queue's backoff this retries for about an hour before the job is dead-lettered.
const ANSWER_ATTEMPTS: i32 = 10;

/// The `outreach_answer` job.
pub fn cycle() -> Cycle {
    Cycle::new(
        ANSWER_JOB,
        CycleScope::Agent,
        "Answers an inbound outreach reply through the chat pipeline: sent automatically above the owner's confidence threshold, else escalated (queued by the inbound email webhook).",
        answer_job,
    )
    .max_attempts(ANSWER_ATTEMPTS)
}

/// What became of a delivery.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Outcome {
    /// `duplicate` (this `svix-id` was handled before: nothing done), `unmatched` (no thread),
    /// `ignored` (the thread takes no replies), `received` (stored; the agent answers it or
    /// escalates it in the background), and, from the job, `auto_replied` or `escalated`.
    pub status: String,
    pub outreach_id: Option<Uuid>,
    /// The reply's confidence, when the agent answered.
    pub confidence: Option<f32>,
}

impl Outcome {
    fn of(status: &str, outreach_id: Option<Uuid>) -> Outcome {
        Outcome { status: status.into(), outreach_id, confidence: None }
    }
}

/// The thread an email answers: by the Message-IDs it quotes, else by the sender's address,
/// the normalised subject and the address it was sent to.
async fn find_thread(pool: &sqlx::PgPool, email: &InboundEmail, sender: &str) -> sqlx::Result<Option<(AgentId, Uuid)>> {
    let mut ids: Vec<String> = email.in_reply_to.as_deref().map(headers::ids_of).unwrap_or_default();
    ids.extend(email.references.as_deref().map(headers::ids_of).unwrap_or_default());
    if !ids.is_empty() {
        let hit = sqlx::query!(
            r#"SELECT agent_id, thread_id FROM outreach_messages
                WHERE message_id = ANY($1) AND direction = 'outbound' ORDER BY created_at DESC LIMIT 1"#,
            &ids
        )
        .fetch_optional(pool)
        .await?;
        if let Some(h) = hit {
            return Ok(Some((AgentId(h.agent_id), h.thread_id)));
        }
    }
    let subject = headers::normalise_subject(&email.subject);
    let recipients: Vec<String> = email.to.iter().filter_map(|t| headers::address_of(t)).collect();
    let candidates = sqlx::query!(
        r#"SELECT t.agent_id, t.id, t.subject, array_agg(DISTINCT m.from_address) AS "senders!"
             FROM outreach_threads t
             JOIN outreach_messages m ON m.agent_id = t.agent_id AND m.thread_id = t.id AND m.direction = 'outbound'
            WHERE t.target_email = $1 AND t.status IN ('sent', 'replied', 'escalated')
            GROUP BY t.agent_id, t.id ORDER BY max(m.created_at) DESC LIMIT 50"#,
        sender
    )
    .fetch_all(pool)
    .await?;
    Ok(candidates
        .into_iter()
        .find(|c| {
            headers::normalise_subject(&c.subject).eq_ignore_ascii_case(&subject)
                && c.senders.iter().any(|s| recipients.contains(s))
        })
        .map(|c| (AgentId(c.agent_id), c.id)))
}

/// Handles one verified delivery: stores the reply in its thread and queues the job that
/// answers it, in one transaction. `svix_id` deduplicates: a second delivery with it does
/// nothing.
pub async fn receive(
    pool: &sqlx::PgPool,
    svix_id: &str,
    email: InboundEmail,
    request_id: Option<String>,
) -> Result<Outcome, Error> {
    let sender = headers::address_of(&email.from).ok_or_else(|| Error::validation("from", "no sender address"))?;
    let found = find_thread(pool, &email, &sender).await?;
    let mut tx = pool.begin().await?;
    let (outcome_label, agent, thread_id) = match found {
        None => ("unmatched", None, None),
        Some((a, t)) => ("matched", Some(a), Some(t)),
    };
    let fresh = sqlx::query_scalar!(
        "INSERT INTO inbound_email_deliveries (svix_id, outcome, agent_id, thread_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (svix_id) DO NOTHING RETURNING svix_id",
        svix_id,
        outcome_label,
        agent.map(|a| a.0),
        thread_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .is_some();
    if !fresh {
        return Ok(Outcome::of("duplicate", None));
    }
    let (Some(agent), Some(thread_id)) = (agent, thread_id) else {
        tx.commit().await?;
        tracing::warn!(svix.id = svix_id, "inbound email matches no outreach thread; not given to any agent");
        return Ok(Outcome::of("unmatched", None));
    };
    let tenant = crate::tenancy::agents::tenant_of(pool, agent).await?.ok_or_else(|| Error::not_found("agent"))?;
    let origin = Origin::new(Actor::System, request_id.clone());
    let (stored_body, truncated) = match email.text.char_indices().nth(STORED_BODY_MAX) {
        Some((cut, _)) => (email.text[..cut].to_string(), true),
        None => (email.text.clone(), false),
    };
    let message_id = email.message_id.as_deref().map(headers::bare_id).filter(|m| !m.is_empty());
    let message_id = message_id.unwrap_or_else(|| format!("inbound-{}@miniclaw.invalid", Uuid::now_v7().simple()));
    let in_reply_to = email.in_reply_to.as_deref().and_then(|h| headers::ids_of(h).into_iter().next());
    let references = email.references.as_deref().map(headers::ids_of).unwrap_or_default();
    let locked = super::lock(&mut tx, agent, thread_id, Event::Reply).await;
    let status = if locked.is_ok() { "received" } else { "ignored" };
    let message = Uuid::now_v7();
    let inserted = sqlx::query_scalar!(
        r#"INSERT INTO outreach_messages (agent_id, id, thread_id, direction, message_id, in_reply_to, "references",
                from_address, to_address, subject, body, truncated, headers, status, author)
         VALUES ($1, $2, $3, 'inbound', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'sender')
         ON CONFLICT (message_id) DO NOTHING RETURNING id"#,
        agent as _,
        message,
        thread_id,
        message_id,
        in_reply_to,
        &references,
        sender,
        email.to.join(", "),
        email.subject,
        stored_body,
        truncated,
        json!({ "From": email.from, "Subject": email.subject, "Message-ID": message_id }),
        status
    )
    .fetch_optional(&mut *tx)
    .await?;
    if inserted.is_none() {
        // The same email again under another delivery id.
        tx.commit().await?;
        return Ok(Outcome::of("duplicate", Some(thread_id)));
    }
    let Ok((thread, to)) = locked else {
        tx.commit().await?;
        tracing::warn!(outreach.id = %thread_id, "inbound reply to an outreach that takes no replies; stored, not answered");
        return Ok(Outcome::of("ignored", Some(thread_id)));
    };
    super::record(
        &mut tx,
        tenant,
        agent,
        &origin,
        &thread,
        to,
        "outreach_reply_received",
        json!({ "from": sender, "truncated": truncated }),
    )
    .await?;
    let job = NewJob::new(ANSWER_JOB)
        .agent(agent)
        .payload(json!({ "thread_id": thread_id, "message": message, "request_id": request_id }))
        .idempotency_key(format!("{ANSWER_JOB}:{message}"))
        .max_attempts(ANSWER_ATTEMPTS);
    queue::enqueue_in(&mut tx, job).await?;
    tx.commit().await?;
    Ok(Outcome::of("received", Some(thread.id)))
}

/// Answers one stored reply (the `outreach_answer` job). A reply that is no longer waiting
/// (answered or escalated by an earlier run) is left alone, so a run after a crash does not
/// answer twice.
async fn answer_job(ctx: JobContext) -> anyhow::Result<serde_json::Value> {
    let agent = ctx.job.agent_id.map(AgentId).ok_or_else(|| anyhow::anyhow!("`{ANSWER_JOB}` needs an agent"))?;
    let payload = &ctx.job.payload;
    let thread_id: Uuid = serde_json::from_value(payload["thread_id"].clone())
        .map_err(|_| anyhow::anyhow!("`{ANSWER_JOB}` needs a thread_id"))?;
    let message: Uuid = serde_json::from_value(payload["message"].clone())
        .map_err(|_| anyhow::anyhow!("`{ANSWER_JOB}` needs a message"))?;
    let request_id = payload["request_id"].as_str().map(str::to_string);
    let Some(tenant) = crate::tenancy::agents::tenant_of(&ctx.pool, agent).await? else {
        return Ok(json!({ "skipped": true, "reason": "the agent no longer exists" }));
    };
    let Some(detail) = super::get(&ctx.pool, agent, thread_id, None).await? else {
        return Ok(json!({ "skipped": true, "reason": "the thread no longer exists" }));
    };
    let Some(reply) = detail.messages.iter().find(|m| m.id == message) else {
        return Ok(json!({ "skipped": true, "reason": "the reply no longer exists" }));
    };
    if reply.status != "received" {
        return Ok(json!({ "skipped": true, "reason": format!("the reply is {} already", reply.status) }));
    }
    let runtime = Runtime::new(ctx.deps()?.clone(), Hub::default());
    let origin = Origin::new(Actor::System, request_id);
    let a = Answering { state: &runtime, tenant, agent, origin: &origin };
    let outcome = answer(&a, detail.thread, &reply.from_address, &reply.subject, &without_quote(&reply.body))
        .await
        .map_err(anyhow::Error::from)?;
    Ok(json!({ "status": outcome.status, "outreach_id": outcome.outreach_id, "confidence": outcome.confidence }))
}

/// Whose reply is being answered, and for what.
struct Answering<'a> {
    state: &'a Runtime,
    tenant: TenantId,
    agent: AgentId,
    origin: &'a Origin,
}

/// Runs the reply through the agent's chat pipeline and sends the answer or escalates.
async fn answer(a: &Answering<'_>, thread: Thread, sender: &str, subject: &str, text: &str) -> Result<Outcome, Error> {
    let Answering { state, tenant, agent, origin } = *a;
    let mut prompt = format!("Email reply from {sender} (subject: {subject}):\n\n{text}");
    if prompt.chars().count() > chat::MESSAGE_MAX_CHARS {
        prompt = prompt.chars().take(chat::MESSAGE_MAX_CHARS - 1).collect::<String>() + "…";
    }
    let caller = Caller { tenant_id: tenant, agent_id: agent, origin: origin.clone(), end_user: None };
    let conversation = thread.conversation_id.map(ConversationId);
    let generated = match chat::start(state, caller, prompt.clone(), conversation, Channel::Email).await {
        Ok(started) => {
            if conversation.is_none() {
                sqlx::query!(
                    "UPDATE outreach_threads SET conversation_id = $3 WHERE agent_id = $1 AND id = $2",
                    agent as _,
                    thread.id,
                    started.conversation_id.0
                )
                .execute(state.pool())
                .await?;
            }
            match started.done.await {
                Ok(Ok(finished)) => Ok(finished),
                Ok(Err(e)) => Err(e.public_message()),
                Err(e) => Err(format!("the reply's generation stopped: {e}")),
            }
        }
        Err(e) => Err(e.public_message()),
    };
    let finished = match generated {
        Ok(f) => f,
        Err(reason) => return escalate(a, thread.id, None, None, &reason).await,
    };
    let confidence = match confidence(state, tenant, agent, origin, &prompt, &finished).await {
        Ok(c) => c,
        Err(reason) => {
            return escalate(a, thread.id, Some(&finished.reply), None, &reason).await;
        }
    };
    let threshold = crate::tenancy::agents::by_id(state.pool(), agent)
        .await?
        .ok_or_else(|| Error::not_found("agent"))?
        .outreach_auto_reply_confidence;
    if confidence < threshold {
        let reason = format!("confidence {confidence:.2} is below the owner's threshold {threshold:.2}");
        return escalate(a, thread.id, Some(&finished.reply), Some(confidence), &reason).await;
    }
    if let Err(e) = thread::transport_configured(&state.deps().email) {
        let reason = format!("not sent automatically: {}", e.public_message());
        return escalate(a, thread.id, Some(&finished.reply), Some(confidence), &reason).await;
    }
    let mut tx = state.pool().begin().await?;
    let (thread, to) = super::lock(&mut tx, agent, thread.id, Event::Respond).await?;
    if let Err(limit) = super::limits::claim(&mut tx, agent, None, chrono::Utc::now()).await {
        drop(tx);
        let why = match limit {
            Error::Limited { message: Some(m), .. } => m,
            other => other.public_message(),
        };
        let reason = format!("not sent automatically: {why}");
        return escalate(a, thread.id, Some(&finished.reply), Some(confidence), &reason).await;
    }
    let reply_to: Option<ReplyTo> = thread::last_inbound(&mut tx, agent, thread.id).await?;
    let subject = headers::reply_subject(&thread.subject);
    let message =
        thread::queue_email(&mut tx, &state.deps().email, agent, &thread, &subject, &finished.reply, reply_to, "agent")
            .await?;
    sqlx::query!(
        "UPDATE outreach_messages SET status = 'auto_replied' WHERE agent_id = $1 AND thread_id = $2
            AND direction = 'inbound' AND status = 'received'",
        agent as _,
        thread.id
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "UPDATE outreach_threads SET confidence = $3, suggested_reply = NULL, escalation_reason = NULL
          WHERE agent_id = $1 AND id = $2",
        agent as _,
        thread.id,
        confidence
    )
    .execute(&mut *tx)
    .await?;
    let details = json!({ "message_id": message, "by": "agent", "confidence": confidence, "threshold": threshold });
    super::record(&mut tx, tenant, agent, origin, &thread, to, "outreach_auto_replied", details).await?;
    let title = format!("{} replied; answered automatically", thread.target_email);
    let body =
        format!("Their reply:\n{}\n\nThe answer (confidence {confidence:.2}):\n{}", excerpt(text), finished.reply);
    notify(&mut tx, agent, Kind::OutreachReply, &title, &body, None).await?;
    tx.commit().await?;
    Ok(Outcome { status: "auto_replied".into(), outreach_id: Some(thread.id), confidence: Some(confidence) })
}

/// The reply's confidence in [0, 1]: the `quality_eval` role's overall score of the exchange
/// (the reply judged against the email, the soul and the memories it drew on), divided by 10.
async fn confidence(
    state: &Runtime,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    prompt: &str,
    finished: &chat::Finished,
) -> Result<f32, String> {
    let soul =
        crate::cognition::soul::current(state.pool(), agent).await.map_err(|e| e.to_string())?.map(|s| s.content);
    let input = QualityEval {
        user: prompt.to_string(),
        assistant: finished.reply.clone(),
        soul,
        context: finished.meta.memories_used.iter().map(|m| m.content.clone()).collect(),
    };
    let ctx = CallContext::for_agent(tenant, agent, origin);
    let answer = state.llm().complete(&ctx, ChatRequest::from_input(input)).await.map_err(|e| e.to_string())?;
    let v: serde_json::Value =
        serde_json::from_str(answer.content.trim()).map_err(|e| format!("the quality evaluation was not JSON: {e}"))?;
    let overall = v["overall"].as_f64().ok_or("the quality evaluation has no overall score")?;
    Ok((overall / 10.0).clamp(0.0, 1.0) as f32)
}

/// Hands the thread to the owner: `escalated`, with the suggested reply (if there is one), its
/// confidence and the reason.
async fn escalate(
    a: &Answering<'_>,
    thread_id: Uuid,
    suggested: Option<&str>,
    confidence: Option<f32>,
    reason: &str,
) -> Result<Outcome, Error> {
    let Answering { state, tenant, agent, origin } = *a;
    let mut tx = state.pool().begin().await?;
    let (thread, to) = super::lock(&mut tx, agent, thread_id, Event::Escalate).await?;
    sqlx::query!(
        "UPDATE outreach_threads SET suggested_reply = $3, confidence = $4, escalation_reason = $5
          WHERE agent_id = $1 AND id = $2",
        agent as _,
        thread_id,
        suggested,
        confidence,
        reason
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "UPDATE outreach_messages SET status = 'escalated' WHERE agent_id = $1 AND thread_id = $2
            AND direction = 'inbound' AND status = 'received'",
        agent as _,
        thread_id
    )
    .execute(&mut *tx)
    .await?;
    let details = json!({ "confidence": confidence, "reason": reason, "suggested": suggested.is_some() });
    super::record(&mut tx, tenant, agent, origin, &thread, to, "outreach_escalated", details).await?;
    let title = format!("{} replied; your answer is needed", thread.target_email);
    let body = match suggested {
        Some(s) => format!("{reason}.\n\nSuggested reply:\n{s}"),
        None => format!("{reason}."),
    };
    notify(&mut tx, agent, Kind::Escalation, &title, &body, None).await?;
    tx.commit().await?;
    Ok(Outcome { status: "escalated".into(), outreach_id: Some(thread_id), confidence })
}

/// The first 500 characters of a text, for a notification.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(500) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}
