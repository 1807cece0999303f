//! Conversations and their messages: listing, reading, deleting, resuming a reply's stream,
//! and seeding a conversation with history a client sent along.

use crate::ids::{AgentId, ConversationId, MessageId};
use sqlx::PgPool;
use uuid::Uuid;

use super::turn::title_of;
use super::*;
use crate::error::ApiError;

/// A conversation of the agent, or 404.
pub async fn conversation(pool: &PgPool, agent_id: AgentId, id: ConversationId) -> Result<Conversation, ApiError> {
    sqlx::query_as!(
        Conversation,
        "SELECT id, agent_id, title, channel, message_count, created_at, updated_at FROM conversations
          WHERE agent_id = $1 AND id = $2",
        agent_id as _,
        id as _
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| ApiError::not_found("conversation"))
}

/// The agent's conversations, most recently active first.
pub async fn conversations(pool: &PgPool, agent_id: AgentId, limit: i64) -> sqlx::Result<Vec<Conversation>> {
    sqlx::query_as!(
        Conversation,
        "SELECT id, agent_id, title, channel, message_count, created_at, updated_at FROM conversations
          WHERE agent_id = $1 ORDER BY updated_at DESC LIMIT $2",
        agent_id as _,
        limit
    )
    .fetch_all(pool)
    .await
}

/// A conversation's messages in order; superseded replies only when asked for.
pub async fn messages(
    pool: &PgPool,
    agent_id: AgentId,
    conversation_id: ConversationId,
    include_superseded: bool,
) -> Result<Vec<ChatMessage>, ApiError> {
    conversation(pool, agent_id, conversation_id).await?;
    // A reply comes right after the message it answers, also when it was regenerated later and
    // so holds a position at the end of the conversation.
    Ok(sqlx::query_as!(
        ChatMessage,
        "SELECT id, conversation_id, position, role, content, status, error, channel, reply_to, meta, created_at, updated_at
           FROM chat_messages m
          WHERE conversation_id = $1 AND ($2 OR status <> 'superseded')
          ORDER BY coalesce((SELECT q.position FROM chat_messages q WHERE q.id = m.reply_to), position), position",
        conversation_id as _,
        include_superseded
    )
    .fetch_all(pool)
    .await?)
}

/// Deletes a conversation with its messages and summaries (memories learned from it stay).
pub async fn delete_conversation(pool: &PgPool, agent_id: AgentId, id: ConversationId) -> Result<(), ApiError> {
    let gone = sqlx::query!("DELETE FROM conversations WHERE agent_id = $1 AND id = $2", agent_id as _, id as _)
        .execute(pool)
        .await?
        .rows_affected();
    if gone == 0 {
        return Err(ApiError::not_found("conversation"));
    }
    Ok(())
}

/// A reply of the agent, for resuming its stream: its content length so far.
pub async fn reply_progress(pool: &PgPool, agent_id: AgentId, reply_id: MessageId) -> Result<(Uuid, String), ApiError> {
    sqlx::query!(
        "SELECT conversation_id, content FROM chat_messages WHERE agent_id = $1 AND id = $2 AND role = 'assistant'",
        agent_id as _,
        reply_id as _
    )
    .fetch_optional(pool)
    .await?
    .map(|r| (r.conversation_id, r.content))
    .ok_or_else(|| ApiError::not_found("message"))
}

/// Starts a conversation holding earlier messages a client sent along (the OpenAI format
/// sends the whole history with each call); they are stored as complete, not extracted.
pub async fn seed_conversation(
    pool: &PgPool,
    agent_id: AgentId,
    channel: Channel,
    earlier: &[(String, String)],
) -> Result<ConversationId, ApiError> {
    let id = ConversationId::new();
    let title = earlier.iter().find(|(r, _)| r == "user").map_or_else(|| "Conversation".into(), |(_, c)| title_of(c));
    let mut tx = pool.begin().await?;
    sqlx::query!(
        "INSERT INTO conversations (id, agent_id, title, channel, message_count) VALUES ($1, $2, $3, $4, $5)",
        id as _,
        agent_id as _,
        title,
        channel.as_str(),
        earlier.len() as i32
    )
    .execute(&mut *tx)
    .await?;
    let (roles, contents): (Vec<String>, Vec<String>) =
        earlier.iter().map(|(r, c)| (r.clone(), c.chars().take(MESSAGE_MAX_CHARS * 4).collect())).unzip();
    let ids: Vec<Uuid> = earlier.iter().map(|_| Uuid::now_v7()).collect();
    sqlx::query!(
        "INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel)
         SELECT m, $1, $2, (n - 1)::int, r, c, 'complete', $5
           FROM unnest($6::uuid[], $3::text[], $4::text[]) WITH ORDINALITY AS x(m, r, c, n)",
        id as _,
        agent_id as _,
        &roles,
        &contents,
        channel.as_str(),
        &ids
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(id)
}
