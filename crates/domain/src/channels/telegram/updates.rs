//! One update from Telegram: checked against the webhook's secret token (constant-time, on the
//! stored SHA-256), deduplicated by `update_id` (Telegram delivers again until it gets a 2xx),
//! then either the owner's `/start <link code>` or a message, recorded with the
//! `telegram_answer` job in one transaction. The job runs it through the chat pipeline (channel
//! `telegram`) and answers with `sendMessage`, so a process that stops after the webhook's 2xx
//! leaves the answer to any worker. The reply is recorded on the update when the turn has run
//! and the send when it went out: a job run again after its worker died sends the recorded
//! reply instead of running a second turn, and nothing once it was sent (a worker that dies
//! between the send and that record leaves the one case where Telegram gets the answer twice).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use utoipa::ToSchema;

use crate::chat::stream::Hub;
use crate::chat::{self, Caller, Channel};
use crate::runtime::Runtime;
use crate::tenancy::auth::Actor;
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, ConversationId, TenantId};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext, NewJob, queue};
use serde_json::json;

/// A Telegram update (the fields miniclaw reads).
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct Update {
    pub update_id: i64,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub message: Option<serde_json::Value>,
}

/// What became of an update.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Handled {
    /// `received` (a message: the agent answers it in the background), `answered` (a plain
    /// `/start`), `linked` (the owner's chat), `duplicate` or `ignored` (no text).
    pub status: String,
}

/// The job that answers a recorded message.
pub const ANSWER_JOB: &str = "telegram_answer";
/// With the queue's backoff this retries for about an hour before the job is dead-lettered.
const ANSWER_ATTEMPTS: i32 = 10;

/// The `telegram_answer` job.
pub fn cycle() -> Cycle {
    Cycle::new(
        ANSWER_JOB,
        CycleScope::Agent,
        "Answers a Telegram message through the chat pipeline with sendMessage (queued by the Telegram webhook).",
        answer_job,
    )
    .max_attempts(ANSWER_ATTEMPTS)
}

fn handled(status: &str) -> Handled {
    Handled { status: status.into() }
}

/// Handles an update for `agent`. 404 when the agent has no bot, 401 when the secret token is
/// missing or wrong (nothing reaches the agent).
pub async fn handle(deps: &Deps, agent: AgentId, secret: Option<&str>, update: Update) -> Result<Handled, Error> {
    let pool = &deps.pool;
    let row = sqlx::query!("SELECT secret_hash, link_code FROM agent_telegram_bots WHERE agent_id = $1", agent as _)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| Error::not_found("telegram bot"))?;
    let name = crate::tenancy::agents::by_id(pool, agent).await?.ok_or_else(|| Error::not_found("telegram bot"))?.name;
    let presented = Sha256::digest(secret.unwrap_or("").as_bytes());
    if secret.is_none() || !bool::from(presented.as_slice().ct_eq(&row.secret_hash)) {
        tracing::warn!(agent.id = %agent, "telegram webhook refused: wrong or missing secret token");
        return Err(Error::Unauthenticated("missing or wrong X-Telegram-Bot-Api-Secret-Token".into()));
    }
    let message = update.message.unwrap_or_default();
    let mut tx = pool.begin().await?;
    let fresh = sqlx::query_scalar!(
        "INSERT INTO telegram_updates (agent_id, update_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING update_id",
        agent as _,
        update.update_id
    )
    .fetch_optional(&mut *tx)
    .await?;
    if fresh.is_none() {
        return Ok(handled("duplicate"));
    }
    let (Some(chat_id), Some(text)) = (message["chat"]["id"].as_i64(), message["text"].as_str()) else {
        tx.commit().await?;
        return Ok(handled("ignored"));
    };
    let text = text.trim();
    if !text.starts_with("/start") {
        let mut message: String = text.chars().take(chat::MESSAGE_MAX_CHARS).collect();
        if message.is_empty() {
            message = "(empty message)".into();
        }
        let job = NewJob::new(ANSWER_JOB)
            .agent(agent)
            .payload(json!({ "chat_id": chat_id, "text": message, "update_id": update.update_id }))
            .idempotency_key(format!("{ANSWER_JOB}:{agent}:{}", update.update_id))
            .max_attempts(ANSWER_ATTEMPTS);
        queue::enqueue_in(&mut tx, job).await?;
        tx.commit().await?;
        return Ok(handled("received"));
    }
    tx.commit().await?;
    let Some((api, _)) = super::bot(deps, agent).await? else {
        return Err(Error::not_found("telegram bot"));
    };
    let code = text.strip_prefix("/start").unwrap_or_default().trim();
    if !code.is_empty() && bool::from(code.as_bytes().ct_eq(row.link_code.as_bytes())) {
        sqlx::query!(
            "UPDATE agent_telegram_bots SET owner_chat_id = $2, updated_at = now() WHERE agent_id = $1",
            agent as _,
            chat_id
        )
        .execute(pool)
        .await?;
        api.send_message(chat_id, &format!("Linked: {name}'s notifications will come here.")).await?;
        return Ok(handled("linked"));
    }
    api.send_message(chat_id, &format!("Hello! I am {name}. Write to me any time.")).await?;
    Ok(handled("answered"))
}

/// Answers one recorded message (the `telegram_answer` job): the chat pipeline in the chat's
/// conversation, then `sendMessage`.
async fn answer_job(ctx: JobContext) -> anyhow::Result<serde_json::Value> {
    let agent = ctx.job.agent_id.map(AgentId).ok_or_else(|| anyhow::anyhow!("`{ANSWER_JOB}` needs an agent"))?;
    let chat_id =
        ctx.job.payload["chat_id"].as_i64().ok_or_else(|| anyhow::anyhow!("`{ANSWER_JOB}` needs a chat_id"))?;
    let message = ctx.job.payload["text"].as_str().unwrap_or("(empty message)").to_string();
    let deps = ctx.deps()?;
    let Some(tenant) = crate::tenancy::agents::tenant_of(&ctx.pool, agent).await? else {
        return Ok(json!({ "skipped": true, "reason": "the agent no longer exists" }));
    };
    let Some((api, _)) = super::bot(deps, agent).await? else {
        return Ok(json!({ "skipped": true, "reason": "the agent has no bot any more" }));
    };
    let update_id =
        ctx.job.payload["update_id"].as_i64().ok_or_else(|| anyhow::anyhow!("`{ANSWER_JOB}` needs an update_id"))?;
    // A rerun (the last worker died mid-answer) goes on from what was recorded: a sent answer
    // is not sent again, a reply already made is sent without running a second turn.
    let recorded = sqlx::query!(
        "SELECT reply, answered_at IS NOT NULL AS \"sent!\" FROM telegram_updates WHERE agent_id = $1 AND update_id = $2",
        agent as _,
        update_id
    )
    .fetch_optional(&ctx.pool)
    .await?;
    if recorded.as_ref().is_some_and(|r| r.sent) {
        return Ok(json!({ "skipped": true, "reason": "already answered" }));
    }
    let reply = match recorded.and_then(|r| r.reply) {
        Some(reply) => reply,
        None => {
            let runtime = Runtime::new(deps.clone(), Hub::default());
            let reply = answer(&runtime, tenant, agent, chat_id, message).await?;
            sqlx::query!(
                "UPDATE telegram_updates SET reply = $3 WHERE agent_id = $1 AND update_id = $2",
                agent as _,
                update_id,
                reply
            )
            .execute(&ctx.pool)
            .await?;
            reply
        }
    };
    api.send_message(chat_id, &reply).await?;
    sqlx::query!(
        "UPDATE telegram_updates SET answered_at = now() WHERE agent_id = $1 AND update_id = $2",
        agent as _,
        update_id
    )
    .execute(&ctx.pool)
    .await?;
    tracing::info!(agent.id = %agent, telegram.chat = chat_id, "telegram message answered");
    Ok(json!({ "status": "answered" }))
}

/// The agent's reply to a message in `chat_id`'s conversation (started on its first message).
async fn answer(
    state: &Runtime,
    tenant: TenantId,
    agent: AgentId,
    chat_id: i64,
    message: String,
) -> anyhow::Result<String> {
    let pool = state.pool();
    let conversation = sqlx::query_scalar!(
        "SELECT conversation_id FROM telegram_chats WHERE agent_id = $1 AND chat_id = $2",
        agent as _,
        chat_id
    )
    .fetch_optional(pool)
    .await?
    .map(ConversationId);
    let caller = Caller {
        tenant_id: tenant,
        agent_id: agent,
        origin: Origin::new(Actor::System, None),
        end_user: Some(format!("telegram:{chat_id}")),
    };
    let reply = match chat::start(state, caller, message, conversation, Channel::Telegram).await {
        Ok(started) => {
            if conversation.is_none() {
                sqlx::query!(
                    "INSERT INTO telegram_chats (agent_id, chat_id, conversation_id) VALUES ($1, $2, $3)
                     ON CONFLICT (agent_id, chat_id) DO UPDATE SET conversation_id = $3",
                    agent as _,
                    chat_id,
                    started.conversation_id.0
                )
                .execute(pool)
                .await?;
            }
            match started.done.await {
                Ok(Ok(finished)) => finished.reply,
                Ok(Err(e)) => format!("Sorry, I could not answer that: {}", e.public_message()),
                Err(_) => "Sorry, I could not answer that.".to_string(),
            }
        }
        // Over budget, paused, ...: the sender is told why.
        Err(e) => format!("Sorry, I cannot answer right now: {}", e.public_message()),
    };
    Ok(reply)
}
