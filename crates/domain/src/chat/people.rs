//! One end user's part of the chat area (SPEC H2): their conversations, every message in them,
//! for an export; and all of it erased — conversations with their messages, summaries, ledger
//! entries, feedback and queued extractions, the transcripts imported for them, and the keys
//! bound to them (revoked, their binding forgotten).

use chrono::{DateTime, Utc};
use miniclaw_core::ids::AgentId;
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// One of the end user's conversations with every message.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConversationOfPerson {
    pub id: Uuid,
    pub title: String,
    pub channel: String,
    pub created_at: DateTime<Utc>,
    /// Deleted by its owner (and waiting for the purge).
    pub deleted: bool,
    pub messages: Vec<MessageOut>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MessageOut {
    pub id: Uuid,
    pub role: String,
    pub content: String,
    pub created_at: DateTime<Utc>,
}

/// Every conversation of the agent with `end_user`, oldest first, with its messages in order.
pub async fn export(pool: &PgPool, agent: AgentId, end_user: &str) -> sqlx::Result<Vec<ConversationOfPerson>> {
    let conversations = sqlx::query!(
        r#"SELECT id, title, channel, created_at, deleted_at IS NOT NULL AS "deleted!" FROM conversations
            WHERE agent_id = $1 AND end_user = $2 ORDER BY created_at, id"#,
        agent as _,
        end_user
    )
    .fetch_all(pool)
    .await?;
    let ids: Vec<Uuid> = conversations.iter().map(|c| c.id).collect();
    let messages = sqlx::query!(
        "SELECT id, conversation_id, role, content, created_at FROM chat_messages
          WHERE agent_id = $1 AND conversation_id = ANY($2) ORDER BY conversation_id, position, created_at",
        agent as _,
        &ids
    )
    .fetch_all(pool)
    .await?;
    let mut out: Vec<ConversationOfPerson> = conversations
        .into_iter()
        .map(|c| ConversationOfPerson {
            id: c.id,
            title: c.title,
            channel: c.channel,
            created_at: c.created_at,
            deleted: c.deleted,
            messages: Vec::new(),
        })
        .collect();
    for m in messages {
        if let Some(c) = out.iter_mut().find(|c| c.id == m.conversation_id) {
            c.messages.push(MessageOut { id: m.id, role: m.role, content: m.content, created_at: m.created_at });
        }
    }
    Ok(out)
}

/// What erasing an end user took out of the chat area: the ids (for the other areas to erase
/// what they keep of them) and counts.
#[derive(Debug, Clone, Default)]
pub struct ChatErased {
    pub conversations: Vec<Uuid>,
    pub messages: Vec<Uuid>,
    pub imports: u64,
    pub keys_revoked: u64,
}

/// Erases the agent's conversations with `end_user` and everything hanging off them, inside
/// the caller's transaction.
pub async fn erase(conn: &mut PgConnection, agent: AgentId, end_user: &str) -> sqlx::Result<ChatErased> {
    let conversations: Vec<Uuid> = sqlx::query_scalar!(
        "SELECT id FROM conversations WHERE agent_id = $1 AND end_user = $2 FOR UPDATE",
        agent as _,
        end_user
    )
    .fetch_all(&mut *conn)
    .await?;
    let messages: Vec<Uuid> = sqlx::query_scalar!(
        "SELECT id FROM chat_messages WHERE agent_id = $1 AND conversation_id = ANY($2)",
        agent as _,
        &conversations
    )
    .fetch_all(&mut *conn)
    .await?;
    // Messages, summaries, ledger entries, feedback and queued extractions go with them.
    sqlx::query!("DELETE FROM conversations WHERE agent_id = $1 AND id = ANY($2)", agent as _, &conversations)
        .execute(&mut *conn)
        .await?;
    let imports =
        sqlx::query!("DELETE FROM memory_imports WHERE agent_id = $1 AND end_user = $2", agent as _, end_user)
            .execute(&mut *conn)
            .await?
            .rows_affected();
    let keys_revoked = crate::tenancy::auth::keys::forget_end_user(conn, agent, end_user).await?;
    Ok(ChatErased { conversations, messages, imports, keys_revoked })
}
