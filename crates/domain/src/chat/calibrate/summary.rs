//! Conversation summaries (SPEC P7).

use miniclaw_core::ids::{AgentId, ConversationId, TenantId};
use uuid::Uuid;

use crate::memory::vector;
use miniclaw_platform::deps::Deps;
use miniclaw_platform::llm::roles::{Summarization, Turn};
use miniclaw_platform::llm::{CallContext, ChatRequest};

use super::*;

/// Summarises a conversation past 14 messages (P7): everything before the last 14 that no
/// summary covers yet, once at least 6 such messages exist, into 2–4 sentences (each message
/// cut to 200 characters), embedded, with the message range. Returns whether it wrote one.
pub async fn summarize(
    deps: &Deps,
    agent_id: AgentId,
    tenant_id: TenantId,
    conversation_id: ConversationId,
) -> anyhow::Result<bool> {
    let (pool, llm, embedder) = (&deps.pool, deps.llm.as_ref(), deps.embedder());
    // Everything but the last 14 completed messages that no summary covers yet.
    let rows: Vec<(Uuid, i32, String, String)> = sqlx::query!(
        r#"SELECT id AS "id!", position AS "position!", role AS "role!", content AS "content!" FROM (
            SELECT id, position, role, content, row_number() OVER (ORDER BY position DESC) AS from_end
              FROM chat_messages WHERE agent_id = $1 AND conversation_id = $2 AND status = 'complete') m
          WHERE from_end > $3
            AND position > (SELECT coalesce(max(last_position), -1) FROM conversation_summaries
                             WHERE agent_id = $1 AND conversation_id = $2)
          ORDER BY position"#,
        agent_id as _,
        conversation_id as _,
        SUMMARY_KEEP
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| (r.id, r.position, r.role, r.content))
    .collect();
    if (rows.len() as i64) < SUMMARY_MIN_NEW {
        return Ok(false);
    }
    let messages =
        rows.iter().map(|(_, _, r, c)| Turn { role: r.clone(), content: c.chars().take(200).collect() }).collect();
    let req = ChatRequest::from_input(Summarization { messages });
    let ctx = CallContext::job(agent_id, Some(tenant_id));
    let summary = llm.complete(&ctx, req).await?.content.trim().to_string();
    if summary.is_empty() {
        return Ok(false);
    }
    let vector = embedder.embed(std::slice::from_ref(&summary)).await.ok().and_then(|mut v| v.pop());
    let (first, last) = (&rows[0], &rows[rows.len() - 1]);
    // Two passes over one conversation (turns finishing together) would summarise the same
    // range: under the conversation's lock, a range that another pass covered meanwhile is
    // left alone. The insert runs after the lock is held, so it sees that pass's row.
    let mut tx = pool.begin().await?;
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtextextended('summary:' || $1::uuid::text, 0))",
        conversation_id as _
    )
    .execute(&mut *tx)
    .await?;
    let written = sqlx::query!(
        "INSERT INTO conversation_summaries (id, conversation_id, agent_id, content, first_message_id, last_message_id,
            first_position, last_position, message_count, embedding, embedding_model)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10::vector, $11
          WHERE NOT EXISTS (SELECT 1 FROM conversation_summaries WHERE conversation_id = $2 AND last_position >= $7)",
        Uuid::now_v7(),
        conversation_id as _,
        agent_id as _,
        summary,
        first.0,
        last.0,
        first.1,
        last.1,
        rows.len() as i32,
        vector.as_deref().map(vector::param) as _,
        vector.as_ref().map(|_| embedder.model())
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(written == 1)
}
