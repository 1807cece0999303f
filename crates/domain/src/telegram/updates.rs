//! One update from Telegram: checked against the webhook's secret token (constant-time, on the
//! stored SHA-256), deduplicated by `update_id` (Telegram delivers again until it gets a 2xx),
//! then either the owner's `/start <link code>` or a message that runs through the chat
//! pipeline (channel `telegram`) and is answered with `sendMessage`.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use utoipa::ToSchema;

use crate::auth::Actor;
use crate::chat::{self, Caller, Channel};
use crate::runtime::Runtime;
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, ConversationId};
use miniclaw_platform::activity::Origin;

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
    /// `answered`, `linked` (the owner's chat), `duplicate` or `ignored` (no text).
    pub status: String,
}

fn handled(status: &str) -> Handled {
    Handled { status: status.into() }
}

/// Handles an update for `agent`. 404 when the agent has no bot, 401 when the secret token is
/// missing or wrong (nothing reaches the agent).
pub async fn handle(state: &Runtime, agent: AgentId, secret: Option<&str>, update: Update) -> Result<Handled, Error> {
    let pool = state.pool();
    let row = sqlx::query!(
        "SELECT b.secret_hash, b.link_code, a.tenant_id, a.name FROM agent_telegram_bots b JOIN agents a ON a.id = b.agent_id
          WHERE b.agent_id = $1 AND a.deleted_at IS NULL",
        agent as _
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("telegram bot"))?;
    let presented = Sha256::digest(secret.unwrap_or("").as_bytes());
    if secret.is_none() || !bool::from(presented.as_slice().ct_eq(&row.secret_hash)) {
        tracing::warn!(agent.id = %agent, "telegram webhook refused: wrong or missing secret token");
        return Err(Error::Unauthenticated("missing or wrong X-Telegram-Bot-Api-Secret-Token".into()));
    }
    let fresh = sqlx::query_scalar!(
        "INSERT INTO telegram_updates (agent_id, update_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING update_id",
        agent as _,
        update.update_id
    )
    .fetch_optional(pool)
    .await?;
    if fresh.is_none() {
        return Ok(handled("duplicate"));
    }
    let message = update.message.unwrap_or_default();
    let (Some(chat_id), Some(text)) = (message["chat"]["id"].as_i64(), message["text"].as_str()) else {
        return Ok(handled("ignored"));
    };
    let deps = state.deps();
    let Some((api, _)) = super::bot(deps, agent).await? else {
        return Err(Error::not_found("telegram bot"));
    };
    let text = text.trim();
    if let Some(code) = text.strip_prefix("/start") {
        let code = code.trim();
        if !code.is_empty() && bool::from(code.as_bytes().ct_eq(row.link_code.as_bytes())) {
            sqlx::query!(
                "UPDATE agent_telegram_bots SET owner_chat_id = $2, updated_at = now() WHERE agent_id = $1",
                agent as _,
                chat_id
            )
            .execute(pool)
            .await?;
            api.send_message(chat_id, &format!("Linked: {}'s notifications will come here.", row.name)).await?;
            return Ok(handled("linked"));
        }
        if text == "/start" || !code.is_empty() {
            api.send_message(chat_id, &format!("Hello! I am {}. Write to me any time.", row.name)).await?;
            return Ok(handled("answered"));
        }
    }
    let conversation = sqlx::query_scalar!(
        "SELECT conversation_id FROM telegram_chats WHERE agent_id = $1 AND chat_id = $2",
        agent as _,
        chat_id
    )
    .fetch_optional(pool)
    .await?
    .map(ConversationId);
    let mut message: String = text.chars().take(chat::MESSAGE_MAX_CHARS).collect();
    if message.is_empty() {
        message = "(empty message)".into();
    }
    let caller = Caller {
        tenant_id: miniclaw_core::ids::TenantId(row.tenant_id),
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
    api.send_message(chat_id, &reply).await?;
    tracing::info!(agent.id = %agent, update.id = update.update_id, "telegram message answered");
    Ok(handled("answered"))
}
