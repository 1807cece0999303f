//! History a client sends along (the OpenAI format sends the whole conversation with every
//! call): matched against the conversations already stored, so that each message is stored
//! once. A call whose earlier messages are exactly a stored conversation of the caller's
//! audience continues it; otherwise they start a new conversation, stored as complete and not
//! extracted.

use miniclaw_core::ids::{AgentId, ConversationId, MessageId};
use sqlx::PgPool;
use uuid::Uuid;

use super::turn::title_of;
use super::*;
use miniclaw_core::Error;

/// How much of an earlier message is stored (and compared).
const EARLIER_MAX_CHARS: usize = MESSAGE_MAX_CHARS * 4;

/// One earlier message as it is stored and compared: without surrounding blanks and line
/// breaks (what `btrim(content, E' \t\r\n')` removes), and bounded.
fn stored_form(content: &str) -> String {
    content.trim_matches([' ', '\t', '\r', '\n']).chars().take(EARLIER_MAX_CHARS).collect()
}

/// The most recently active conversation started for the same audience (the same end user; the
/// owner's own for an owner naming none) whose messages (in conversation order, superseded
/// replies left out) are exactly `earlier` (`(role, content)`, oldest first).
pub async fn continued(
    pool: &PgPool,
    agent_id: AgentId,
    audience: &Audience,
    earlier: &[(String, String)],
) -> Result<Option<ConversationId>, Error> {
    let Some((_, first)) = earlier.iter().find(|(r, _)| r == "user") else { return Ok(None) };
    let (roles, contents): (Vec<String>, Vec<String>) =
        earlier.iter().map(|(r, c)| (r.clone(), stored_form(c))).unzip();
    // The title (the first user message's) narrows the candidates to a few before their
    // messages are compared.
    let found: Option<Uuid> = sqlx::query_scalar(
        "SELECT c.id FROM conversations c
          WHERE c.agent_id = $1 AND c.deleted_at IS NULL
            AND c.owner_private = $2 AND (($3::text IS NULL AND c.end_user IS NULL) OR c.end_user = $3)
            AND c.title = $4 AND c.message_count >= $5
            AND ($6::text[], $7::text[]) = (
                SELECT coalesce(array_agg(m.role ORDER BY m.turn, m.position), '{}'),
                       coalesce(array_agg(left(btrim(m.content, E' \t\r\n'), $8) ORDER BY m.turn, m.position), '{}')
                  FROM (SELECT m.role, m.content, m.position,
                               coalesce((SELECT q.position FROM chat_messages q
                                          WHERE q.agent_id = m.agent_id AND q.id = m.reply_to), m.position) AS turn
                          FROM chat_messages m
                         WHERE m.agent_id = c.agent_id AND m.conversation_id = c.id AND m.status <> 'superseded') m)
          ORDER BY c.updated_at DESC LIMIT 1",
    )
    .bind(agent_id)
    .bind(audience.sees_all())
    .bind(audience.end_user.as_deref())
    .bind(title_of(first))
    .bind(earlier.len() as i32)
    .bind(&roles)
    .bind(&contents)
    .bind(EARLIER_MAX_CHARS as i32)
    .fetch_optional(pool)
    .await?;
    Ok(found.map(ConversationId))
}

/// Starts a conversation for the audience holding earlier messages a client sent along; they
/// are stored as complete, not extracted.
pub async fn seed_conversation(
    pool: &PgPool,
    agent_id: AgentId,
    audience: &Audience,
    channel: Channel,
    earlier: &[(String, String)],
) -> Result<ConversationId, Error> {
    let id = ConversationId::new();
    let title = earlier.iter().find(|(r, _)| r == "user").map_or_else(|| "Conversation".into(), |(_, c)| title_of(c));
    let mut tx = pool.begin().await?;
    sqlx::query!(
        "INSERT INTO conversations (id, agent_id, title, channel, message_count, end_user, owner_private)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        id as _,
        agent_id as _,
        title,
        channel.as_str(),
        earlier.len() as i32,
        audience.end_user.as_deref(),
        audience.sees_all()
    )
    .execute(&mut *tx)
    .await?;
    let (roles, contents): (Vec<String>, Vec<String>) =
        earlier.iter().map(|(r, c)| (r.clone(), stored_form(c))).unzip();
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

/// The turn whose reply made the function call `call_id` (`ReplyMeta::tool_calls`), in a
/// conversation the audience may see: its conversation and user message, so that the client's
/// results continue that turn (`regenerate_with`) instead of starting it again. `None` when no
/// reply of this agent made that call (a client that built the history itself).
pub async fn tool_turn(
    pool: &PgPool,
    agent_id: AgentId,
    audience: &Audience,
    call_id: &str,
) -> Result<Option<(ConversationId, MessageId)>, Error> {
    let found = sqlx::query!(
        r#"SELECT m.conversation_id, m.reply_to AS "reply_to!"
             FROM chat_messages m JOIN conversations c ON c.id = m.conversation_id AND c.agent_id = m.agent_id
            WHERE m.agent_id = $1 AND m.role = 'assistant' AND m.status = 'complete' AND m.reply_to IS NOT NULL
              AND m.meta ? 'tool_calls' AND m.meta -> 'tool_calls' @> jsonb_build_array(jsonb_build_object('id', $2::text))
              AND c.deleted_at IS NULL AND ($3 OR (NOT c.owner_private AND c.end_user IS NOT DISTINCT FROM $4))
            ORDER BY m.created_at DESC LIMIT 1"#,
        agent_id as _,
        call_id,
        audience.sees_all(),
        audience.end_user.as_deref()
    )
    .fetch_optional(pool)
    .await?;
    Ok(found.map(|r| (ConversationId(r.conversation_id), MessageId(r.reply_to))))
}
