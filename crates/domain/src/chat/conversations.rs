//! Conversations and their messages: listing and reading them (each request sees only its
//! audience's, see `Audience`), deleting them (soft, logged, purged after the retention period),
//! resuming a reply's stream, and the cap on how many an agent may have.

use miniclaw_core::ids::{AgentId, ConversationId, MessageId, TenantId};
use sqlx::PgPool;
use uuid::Uuid;

use super::*;
use miniclaw_core::Error;
use miniclaw_platform::activity::{self, Origin};

/// The cycle that purges deleted conversations once their retention
/// (`MINICLAW_CONVERSATION_RETENTION_DAYS`) has passed. Registered with the agents' purge.
pub const PURGE_CYCLE: &str = "conversation_purge";
pub const PURGE_DESCRIPTION: &str =
    "Purges conversations deleted longer ago than the retention period, with their messages and summaries.";
/// Conversations purged per statement (a run goes on until none is due).
const PURGE_BATCH: i64 = 500;

/// The purge cycle, hourly, with the configured retention.
pub fn purge_cycle(retention_days: u32) -> miniclaw_platform::jobs::Cycle {
    miniclaw_platform::jobs::Cycle::purge(PURGE_CYCLE, PURGE_DESCRIPTION, retention_days, |pool, days| {
        Box::pin(purge_deleted(pool, days))
    })
}

/// A conversation of the agent that the audience may see, or 404 (also when it was deleted).
pub async fn conversation(
    pool: &PgPool,
    agent_id: AgentId,
    audience: &Audience,
    id: ConversationId,
) -> Result<Conversation, Error> {
    sqlx::query_as!(
        Conversation,
        "SELECT id, agent_id, title, channel, message_count, end_user, created_at, updated_at FROM conversations
          WHERE agent_id = $1 AND id = $2 AND deleted_at IS NULL
            AND ($3 OR (NOT owner_private AND end_user IS NOT DISTINCT FROM $4))",
        agent_id as _,
        id as _,
        audience.sees_all(),
        audience.end_user.as_deref()
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("conversation"))
}

/// The audience's conversations of the agent, most recently active first: `limit` of them,
/// after conversation `before` in that order if given.
pub async fn conversations(
    pool: &PgPool,
    agent_id: AgentId,
    audience: &Audience,
    limit: i64,
    before: Option<ConversationId>,
) -> sqlx::Result<Vec<Conversation>> {
    sqlx::query_as!(
        Conversation,
        "SELECT id, agent_id, title, channel, message_count, end_user, created_at, updated_at FROM conversations c
          WHERE agent_id = $1 AND deleted_at IS NULL
            AND ($2 OR (NOT owner_private AND (($3::text IS NULL AND end_user IS NULL) OR end_user = $3)))
            AND ($5::uuid IS NULL
                 OR (updated_at, id) < (SELECT p.updated_at, p.id FROM conversations p WHERE p.agent_id = $1 AND p.id = $5))
          ORDER BY updated_at DESC, id DESC LIMIT $4",
        agent_id as _,
        audience.sees_all(),
        audience.end_user.as_deref(),
        limit,
        before as _
    )
    .fetch_all(pool)
    .await
}

/// A page of a conversation's messages, newest first: `limit` of them, before message `before`
/// if given. Conversation order puts a reply right after the message it answers, also when it
/// was regenerated later and so holds a position at the end. Superseded replies only when asked.
pub async fn messages(
    pool: &PgPool,
    agent_id: AgentId,
    audience: &Audience,
    conversation_id: ConversationId,
    include_superseded: bool,
    limit: i64,
    before: Option<MessageId>,
) -> Result<Vec<ChatMessage>, Error> {
    conversation(pool, agent_id, audience, conversation_id).await?;
    Ok(sqlx::query_as::<_, ChatMessage>(
        "WITH m AS (
            SELECT m.*, coalesce((SELECT q.position FROM chat_messages q WHERE q.agent_id = m.agent_id AND q.id = m.reply_to),
                                 m.position) AS turn
              FROM chat_messages m WHERE m.agent_id = $1 AND m.conversation_id = $2)
         SELECT id, conversation_id, position, role, content, status, error, channel, reply_to, meta, created_at, updated_at
           FROM m
          WHERE ($3 OR status <> 'superseded')
            AND ($5::uuid IS NULL OR (turn, position) < (SELECT c.turn, c.position FROM m c WHERE c.id = $5))
          ORDER BY turn DESC, position DESC LIMIT $4",
    )
    .bind(agent_id)
    .bind(conversation_id)
    .bind(include_superseded)
    .bind(limit)
    .bind(before)
    .fetch_all(pool)
    .await?)
}

/// Deletes a conversation the audience may see: it is hidden at once (404 everywhere, its
/// replies no longer resumable) and purged with its messages and summaries after
/// `retention_days`; what the agent learned from it stays in memory. The deletion is in the
/// agent's activity log with who did it.
pub async fn delete_conversation(
    pool: &PgPool,
    tenant_id: TenantId,
    agent_id: AgentId,
    audience: &Audience,
    id: ConversationId,
    origin: &Origin,
    retention_days: u32,
) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    let gone = sqlx::query!(
        "UPDATE conversations SET deleted_at = now()
          WHERE agent_id = $1 AND id = $2 AND deleted_at IS NULL
            AND ($3 OR (NOT owner_private AND end_user IS NOT DISTINCT FROM $4))
         RETURNING title, end_user, message_count",
        agent_id as _,
        id as _,
        audience.sees_all(),
        audience.end_user.as_deref()
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::not_found("conversation"))?;
    let key_name = match &origin.actor {
        crate::tenancy::auth::Actor::ApiKey(k) => {
            crate::tenancy::auth::keys::name_of(&mut tx, agent_id, k.uuid()).await?
        }
        _ => None,
    };
    let purge_after = chrono::Utc::now() + chrono::Duration::days(i64::from(retention_days));
    // Who: the actor (owner or key id) is in the entry itself; a key's name is added here.
    let details = serde_json::json!({ "conversation_id": id, "title": gone.title, "end_user": gone.end_user,
                                      "messages": gone.message_count, "purge_after": purge_after,
                                      "key_name": key_name });
    activity::record_agent(&mut tx, tenant_id, agent_id, origin, "conversation.deleted", details).await?;
    tx.commit().await?;
    Ok(())
}

/// Purges conversations deleted more than `retention_days` ago (their messages and summaries
/// go with them), each noted in its agent's activity log. Returns how many were purged.
pub async fn purge_deleted(pool: &PgPool, retention_days: u32) -> sqlx::Result<u64> {
    let mut purged = 0;
    loop {
        let mut tx = pool.begin().await?;
        let gone = sqlx::query!(
            r#"WITH due AS (
                   SELECT agent_id, id FROM conversations WHERE deleted_at < now() - make_interval(days => $1)
                    ORDER BY deleted_at LIMIT $2 FOR UPDATE SKIP LOCKED)
               DELETE FROM conversations c USING due, agents a
                WHERE c.agent_id = due.agent_id AND c.id = due.id AND a.id = c.agent_id
               RETURNING c.agent_id, c.id, c.title, a.tenant_id"#,
            retention_days as i32,
            PURGE_BATCH
        )
        .fetch_all(&mut *tx)
        .await?;
        let origin = Origin::new(crate::tenancy::auth::Actor::System, None);
        for c in &gone {
            let details = serde_json::json!({ "conversation_id": c.id, "title": c.title });
            let (tenant, agent) = (TenantId(c.tenant_id), AgentId(c.agent_id));
            activity::record_agent(&mut tx, tenant, agent, &origin, "conversation.purged", details).await?;
        }
        tx.commit().await?;
        purged += gone.len() as u64;
        if (gone.len() as i64) < PURGE_BATCH {
            return Ok(purged);
        }
    }
}

/// 409 when the agent already has `max` live conversations (`MINICLAW_CONVERSATIONS_PER_AGENT`);
/// deleted ones do not count.
pub async fn check_room(pool: &PgPool, agent_id: AgentId, max: i64) -> Result<(), Error> {
    let live = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM (SELECT 1 FROM conversations WHERE agent_id = $1 AND deleted_at IS NULL LIMIT $2) c"#,
        agent_id as _,
        max
    )
    .fetch_one(pool)
    .await?;
    if live >= max {
        return Err(Error::Conflict(format!(
            "the agent already has {max} conversations, the most allowed (MINICLAW_CONVERSATIONS_PER_AGENT); \
             delete some to start new ones"
        )));
    }
    Ok(())
}

/// A reply the audience may see, for resuming its stream: its conversation and content so far.
pub async fn reply_progress(
    pool: &PgPool,
    agent_id: AgentId,
    audience: &Audience,
    reply_id: MessageId,
) -> Result<(Uuid, String), Error> {
    sqlx::query!(
        "SELECT m.conversation_id, m.content FROM chat_messages m
           JOIN conversations c ON c.agent_id = m.agent_id AND c.id = m.conversation_id
          WHERE m.agent_id = $1 AND m.id = $2 AND m.role = 'assistant' AND c.deleted_at IS NULL
            AND ($3 OR (NOT c.owner_private AND c.end_user IS NOT DISTINCT FROM $4))",
        agent_id as _,
        reply_id as _,
        audience.sees_all(),
        audience.end_user.as_deref()
    )
    .fetch_optional(pool)
    .await?
    .map(|r| (r.conversation_id, r.content))
    .ok_or_else(|| Error::not_found("message"))
}

/// One turn of a channel, as the audience may see it (an A2A task is one turn of `a2a`).
#[derive(Debug, Clone)]
pub struct TurnRecord {
    pub conversation_id: ConversationId,
    pub user_message_id: MessageId,
    /// What was asked.
    pub request: String,
    /// The reply's text so far.
    pub reply: String,
    /// The reply's status: streaming, complete, error or superseded.
    pub status: String,
    /// Why it failed (`CANCELED` when it was stopped).
    pub error: Option<String>,
    pub updated_at: chrono::DateTime<chrono::Utc>,
}

/// The turn whose reply is `reply_id`, made on `channel`, if the audience may see it.
pub async fn turn_record(
    pool: &PgPool,
    agent_id: AgentId,
    audience: &Audience,
    reply_id: MessageId,
    channel: Channel,
) -> Result<Option<TurnRecord>, Error> {
    let row = sqlx::query!(
        r#"SELECT m.conversation_id, m.content, m.status, m.error, m.updated_at,
                  u.id AS "user_id!", u.content AS "request!"
             FROM chat_messages m
             JOIN conversations c ON c.agent_id = m.agent_id AND c.id = m.conversation_id
             JOIN chat_messages u ON u.agent_id = m.agent_id AND u.id = m.reply_to
            WHERE m.agent_id = $1 AND m.id = $2 AND m.role = 'assistant' AND m.channel = $5
              AND c.deleted_at IS NULL
              AND ($3 OR (NOT c.owner_private AND c.end_user IS NOT DISTINCT FROM $4))"#,
        agent_id as _,
        reply_id as _,
        audience.sees_all(),
        audience.end_user.as_deref(),
        channel.as_str()
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|r| TurnRecord {
        conversation_id: ConversationId(r.conversation_id),
        user_message_id: MessageId(r.user_id),
        request: r.request,
        reply: r.content,
        status: r.status,
        error: r.error,
        updated_at: r.updated_at,
    }))
}
