//! Tokens held by chat turns in progress (hardening 7). A budget checked before work and paid
//! after it lets parallel work overshoot: 50 turns admitted at once against a nearly spent
//! budget would all run. So a turn reserves its expected maximum on the agent's usage row of
//! the day when it is admitted — in the statement that stores it, only while the tokens used
//! and held are below the budget, judged on the locked row — and gives the reservation back
//! when it ends (completed, failed, superseded). Its calls count what they really used on the
//! reservation's row (`used`: `CallContext::held_by`), and giving it back moves that to the
//! agent's `tokens` in the statement that frees `reserved`: the agent's usage row is written
//! twice a turn, not once per call too. A turn whose process died gives it back through the
//! `chat_stream_sweep` cycle, once its reply is swept. The agent's total then stays within its
//! budget plus one turn.
//!
//! Lock order: a statement that reserves locks the agent's usage row before the conversation
//! (and its messages); giving back is a statement of its own, holding no other row.

use sqlx::PgPool;

use crate::domain_sql::DomainSql;

use miniclaw_core::ids::{AgentId, MessageId};

/// CTEs `reserved` (the agent's usage row of the day, holding `tokens` more: one row when
/// granted, none when the tokens used and held already reach the agent's budget or `gate` is
/// false) and `held` (the reservation's own row, by reply). Arguments are SQL expressions:
/// the agent and reply ids, the tokens (bigint) and a boolean gate (the other checks of the
/// statement). Follow with more CTEs or the main query.
pub fn reserve_sql(domain: &DomainSql, agent: &str, reply: &str, tokens: &str, gate: &str) -> String {
    let budget = (domain.daily_token_budget)(agent);
    format!(
        "reserved AS (
            INSERT INTO llm_agent_daily_usage AS u (agent_id, day, tokens, reserved)
            SELECT {agent}, (now() AT TIME ZONE 'UTC')::date, 0, {tokens}::bigint WHERE {gate}
            ON CONFLICT (agent_id, day) DO UPDATE SET reserved = u.reserved + excluded.reserved
             -- Judged on the locked row as it is now, not on the statement's snapshot: parallel
             -- admissions queue here and each sees the reservations granted before it.
             WHERE u.tokens + u.reserved < coalesce({budget}, 0)
            RETURNING day
         ), held AS (
            INSERT INTO llm_turn_reservations (agent_id, reply_id, day, tokens)
            SELECT {agent}, {reply}, day, {tokens}::bigint FROM reserved
            RETURNING 1
         )"
    )
}

/// Gives back the reservation of reply `reply_id` of agent `agent_id`, adding what its calls
/// used to the agent's day. Nothing happens when there is none (given back already), so giving
/// back twice is harmless.
pub async fn release(pool: &PgPool, agent_id: AgentId, reply_id: MessageId) -> sqlx::Result<()> {
    // Committed without waiting for the disk: the agent's usage row is locked until the commit,
    // and every turn of the agent locks it twice, so a wait for the disk here is a wait for all
    // of them. Should the database stop before this commit reaches the disk, the reservation is
    // still there after recovery and the sweep gives it back (`release_orphans`), with what its
    // calls used.
    let mut tx = pool.begin().await?;
    sqlx::query!("SET LOCAL synchronous_commit = off").execute(&mut *tx).await?;
    sqlx::query!(
        "WITH released AS (
            DELETE FROM llm_turn_reservations WHERE agent_id = $1 AND reply_id = $2
            RETURNING agent_id, day, tokens, used
         )
         UPDATE llm_agent_daily_usage u SET reserved = greatest(u.reserved - r.tokens, 0), tokens = u.tokens + r.used
           FROM released r WHERE u.agent_id = r.agent_id AND u.day = r.day",
        agent_id as _,
        reply_id as _
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// Gives back the reservations of turns that are no longer running: their reply is not
/// `streaming` any more (or is gone) but the turn did not give them back, because its process
/// died (or is about to). Run by the `chat_stream_sweep` cycle after it ends the replies of dead
/// processes. Returns how many were given back.
pub async fn release_orphans(pool: &PgPool, domain: &DomainSql) -> sqlx::Result<u64> {
    let streaming = (domain.streaming)("r.agent_id", "r.reply_id");
    let n: i64 = sqlx::query_scalar(&format!(
        "WITH released AS (
            DELETE FROM llm_turn_reservations r WHERE NOT coalesce({streaming}, false)
            RETURNING agent_id, day, tokens, used
         ), totals AS (
            SELECT agent_id, day, sum(tokens)::bigint AS tokens, sum(used)::bigint AS used FROM released GROUP BY agent_id, day
         ), unreserved AS (
            UPDATE llm_agent_daily_usage u SET reserved = greatest(u.reserved - t.tokens, 0), tokens = u.tokens + t.used
              FROM totals t WHERE u.agent_id = t.agent_id AND u.day = t.day
         )
         SELECT count(*) FROM released"
    ))
    .fetch_one(pool)
    .await?;
    Ok(n as u64)
}
