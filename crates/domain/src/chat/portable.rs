//! An agent's conversations as they travel in an agent bundle (`crate::bundle`, only when the
//! owner asks for them): each conversation that is not deleted, with the messages that were
//! said (complete ones; a reply that failed or was replaced by a regeneration stays behind).
//! Restoring numbers the messages anew in the order they came and keeps their dates.

use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// One conversation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortableConversation {
    pub title: String,
    /// web, api, openai, telegram, email, mcp or a2a.
    pub channel: String,
    /// The miniapp's end user it was with, if any.
    #[serde(default)]
    pub end_user: Option<String>,
    /// Only the owner sees it.
    #[serde(default)]
    pub owner_private: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub messages: Vec<PortableMessage>,
}

/// One message, in conversation order.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortableMessage {
    /// `user` or `assistant`.
    pub role: String,
    pub content: String,
    /// The channel it came by (default: the conversation's).
    #[serde(default)]
    pub channel: Option<String>,
    pub created_at: DateTime<Utc>,
}

pub const CHANNELS: [&str; 7] = ["web", "api", "openai", "telegram", "email", "mcp", "a2a"];
/// Longest message a bundle may carry, in characters.
pub const MESSAGE_MAX: usize = 100_000;

/// The agent's conversations, oldest first, each with its complete messages in order.
pub async fn export(pool: &PgPool, agent: AgentId) -> sqlx::Result<Vec<PortableConversation>> {
    let conversations =
        sqlx::query_as::<_, (Uuid, String, String, Option<String>, bool, DateTime<Utc>, DateTime<Utc>)>(
            "SELECT id, title, channel, end_user, owner_private, created_at, updated_at FROM conversations
          WHERE agent_id = $1 AND deleted_at IS NULL ORDER BY created_at, id",
        )
        .bind(agent)
        .fetch_all(pool)
        .await?;
    let messages = sqlx::query_as::<_, (Uuid, String, String, String, DateTime<Utc>)>(
        "SELECT m.conversation_id, m.role, m.content, m.channel, m.created_at
           FROM chat_messages m JOIN conversations c ON c.agent_id = m.agent_id AND c.id = m.conversation_id
          WHERE m.agent_id = $1 AND c.deleted_at IS NULL AND m.status = 'complete'
          ORDER BY m.conversation_id, m.position",
    )
    .bind(agent)
    .fetch_all(pool)
    .await?;
    let mut by_conversation: std::collections::HashMap<Uuid, Vec<PortableMessage>> = Default::default();
    for (conversation, role, content, channel, created_at) in messages {
        by_conversation.entry(conversation).or_default().push(PortableMessage {
            role,
            content,
            channel: Some(channel),
            created_at,
        });
    }
    Ok(conversations
        .into_iter()
        .map(|(id, title, channel, end_user, owner_private, created_at, updated_at)| PortableConversation {
            messages: by_conversation.remove(&id).unwrap_or_default(),
            title,
            channel,
            end_user,
            owner_private,
            created_at,
            updated_at,
        })
        .collect())
}

/// Checks conversations before anything is stored; the error names the first bad field.
pub fn validate(conversations: &[PortableConversation]) -> Result<(), Error> {
    for (i, c) in conversations.iter().enumerate() {
        let at = |e: Error| e.within(&format!("conversations[{i}]"));
        Error::check_length("title", &c.title, 200).map_err(at)?;
        if !CHANNELS.contains(&c.channel.as_str()) {
            return Err(at(Error::validation("channel", format!("channel must be one of {}", CHANNELS.join(", ")))));
        }
        if let Some(u) = &c.end_user {
            Error::check_length("end_user", u, 128).map_err(at)?;
        }
        for (j, m) in c.messages.iter().enumerate() {
            let at = |e: Error| e.within(&format!("conversations[{i}].messages[{j}]"));
            if m.role != "user" && m.role != "assistant" {
                return Err(at(Error::validation("role", "role must be user or assistant")));
            }
            if m.content.trim().is_empty() {
                return Err(at(Error::validation("content", "content must not be empty")));
            }
            Error::check_length("content", &m.content, MESSAGE_MAX).map_err(at)?;
            if let Some(ch) = &m.channel
                && !CHANNELS.contains(&ch.as_str())
            {
                return Err(at(Error::validation(
                    "channel",
                    format!("channel must be one of {}", CHANNELS.join(", ")),
                )));
            }
        }
    }
    Ok(())
}

/// Stores validated conversations under `agent`, in the caller's transaction; returns how
/// many messages were stored.
pub async fn restore(
    conn: &mut PgConnection,
    agent: AgentId,
    conversations: &[PortableConversation],
) -> sqlx::Result<usize> {
    let mut stored = 0;
    for c in conversations {
        let id = Uuid::now_v7();
        sqlx::query(
            "INSERT INTO conversations (id, agent_id, title, channel, message_count, end_user, owner_private, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(id)
        .bind(agent)
        .bind(&c.title)
        .bind(&c.channel)
        .bind(c.messages.len() as i32)
        .bind(&c.end_user)
        .bind(c.owner_private)
        .bind(c.created_at)
        .bind(c.updated_at)
        .execute(&mut *conn)
        .await?;
        let n = c.messages.len();
        let roles: Vec<&str> = c.messages.iter().map(|m| m.role.as_str()).collect();
        let contents: Vec<&str> = c.messages.iter().map(|m| m.content.as_str()).collect();
        let channels: Vec<&str> = c.messages.iter().map(|m| m.channel.as_deref().unwrap_or(&c.channel)).collect();
        let times: Vec<DateTime<Utc>> = c.messages.iter().map(|m| m.created_at).collect();
        let ids: Vec<Uuid> = (0..n).map(|_| Uuid::now_v7()).collect();
        sqlx::query(
            "INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, created_at, updated_at)
             SELECT x.id, $2, $3, x.n::int - 1, x.role, x.content, 'complete', x.channel, x.at, x.at
               FROM unnest($1::uuid[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
                    WITH ORDINALITY AS x(id, role, content, channel, at, n)",
        )
        .bind(&ids)
        .bind(id)
        .bind(agent)
        .bind(&roles)
        .bind(&contents)
        .bind(&channels)
        .bind(&times)
        .execute(&mut *conn)
        .await?;
        stored += n;
    }
    Ok(stored)
}
