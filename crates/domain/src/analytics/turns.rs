//! The per-turn analytics row (P9): written by the chat turn's finishing statement through
//! these pieces of SQL, and marked by the extraction that used the turn's message.

use miniclaw_core::ids::AgentId;
use sqlx::PgConnection;
use uuid::Uuid;

/// The columns `record_sql`'s select gives, in order.
pub const COLUMNS: &str = "message_id, agent_id, tenant_id, conversation_id, reply_id, channel, intent, response_style, \
     save_worthy, triage_skipped, skip_reason, triage_error, triage_ms, response_ms, triage_model, chat_model, engine, \
     prompt_tokens, completion_tokens, cost_usd, memory_queries, memories_used, context_tokens, used_dossier, \
     finish_reason, extraction_triggered, batch_size, batch_threshold, context_ms, generation_ms";

/// Stores the analytics of a turn from `select` (a SELECT of `COLUMNS`, in order); a turn
/// recorded before (a retried finish) is brought up to date, keeping what its extraction noted.
pub fn record_sql(select: &str) -> String {
    format!(
        "INSERT INTO chat_analytics ({COLUMNS})
         {select}
         ON CONFLICT (agent_id, message_id) DO UPDATE SET reply_id = excluded.reply_id, intent = excluded.intent,
            response_style = excluded.response_style, save_worthy = excluded.save_worthy,
            triage_skipped = excluded.triage_skipped, skip_reason = excluded.skip_reason,
            triage_error = excluded.triage_error, triage_ms = excluded.triage_ms, response_ms = excluded.response_ms,
            context_ms = excluded.context_ms, generation_ms = excluded.generation_ms,
            triage_model = excluded.triage_model, chat_model = excluded.chat_model, engine = excluded.engine,
            prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
            cost_usd = excluded.cost_usd, memory_queries = excluded.memory_queries,
            memories_used = excluded.memories_used, context_tokens = excluded.context_tokens,
            used_dossier = excluded.used_dossier, finish_reason = excluded.finish_reason,
            extraction_triggered = chat_analytics.extraction_triggered OR excluded.extraction_triggered,
            batch_size = coalesce(excluded.batch_size, chat_analytics.batch_size),
            batch_threshold = coalesce(excluded.batch_threshold, chat_analytics.batch_threshold)"
    )
}

/// Whether the agent's turns before message `message` were save-worthy, newest first, at most
/// `limit` (a query of one boolean column `save_worthy`; SQL arguments).
pub fn recent_save_worthy_sql(agent: &str, message: &str, limit: &str) -> String {
    format!(
        "SELECT save_worthy FROM chat_analytics WHERE agent_id = {agent} AND message_id <> {message}
          ORDER BY created_at DESC LIMIT {limit}"
    )
}

/// Marks the turns of messages `ids` as extracted; the one of `last` (the message that
/// completed the batch) also gets the batch's results.
pub async fn mark_extracted(
    conn: &mut PgConnection,
    agent_id: AgentId,
    ids: &[Uuid],
    last: Uuid,
    facts: i32,
    dedup: serde_json::Value,
    batch_size: i32,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE chat_analytics SET extraction_triggered = true,
                facts_extracted = CASE WHEN message_id = $3 THEN $4 ELSE facts_extracted END,
                dedup = CASE WHEN message_id = $3 THEN $5 ELSE dedup END,
                batch_size = CASE WHEN message_id = $3 THEN $6 ELSE batch_size END
          WHERE agent_id = $1 AND message_id = ANY($2)",
        agent_id as _,
        ids,
        last,
        facts,
        dedup,
        batch_size
    )
    .execute(conn)
    .await?;
    Ok(())
}
