//! The records of what was said (conversations, their messages and summaries, the
//! calibration profile reflection writes for the prompt), read and written for the areas
//! below the pipeline: cognition and PoC use these, never the pipeline itself.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::AgentId;
use sqlx::PgPool;

/// How many conversations the agent has had (deleted ones included until they are purged).
pub async fn count(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<i64> {
    sqlx::query_scalar!(r#"SELECT count(*) AS "n!" FROM conversations WHERE agent_id = $1"#, agent_id as _)
        .fetch_one(pool)
        .await
}

/// The agent's conversation summaries of the last `days` days, newest first (at most `k`).
pub async fn recent_summaries(pool: &PgPool, agent_id: AgentId, days: i32, k: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "SELECT content FROM conversation_summaries WHERE agent_id = $1 AND created_at > now() - make_interval(days => $2)
          ORDER BY created_at DESC LIMIT $3",
        agent_id as _,
        days,
        k
    )
    .fetch_all(pool)
    .await
}

/// Sets the agent's calibration profile (what deep reflection learned about how to talk to
/// the owner; read into every chat prompt), in the caller's transaction.
pub async fn set_calibration(
    conn: &mut sqlx::PgConnection,
    agent_id: AgentId,
    profile: &serde_json::Value,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO agent_calibration (agent_id, profile, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (agent_id) DO UPDATE SET profile = excluded.profile, updated_at = now()",
        agent_id as _,
        profile
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// On how many of the last `days` days someone wrote to the agent.
pub async fn active_days(conn: &mut sqlx::PgConnection, agent_id: AgentId, days: i32) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT count(DISTINCT floor(extract(epoch FROM now() - created_at) / 86400)) AS "days!" FROM chat_messages
            WHERE agent_id = $1 AND role = 'user' AND created_at > now() - make_interval(days => $2)"#,
        agent_id as _,
        days
    )
    .fetch_one(conn)
    .await
}

/// When someone wrote to the agent for the `n`-th time, for each `n` of `nths` it has reached.
pub async fn nth_user_message_at(
    pool: &PgPool,
    agent_id: AgentId,
    nths: &[i32],
) -> sqlx::Result<Vec<(i32, DateTime<Utc>)>> {
    let rows = sqlx::query!(
        r#"SELECT n AS "n!", (SELECT created_at FROM chat_messages WHERE agent_id = $1 AND role = 'user'
                              ORDER BY created_at OFFSET n - 1 LIMIT 1) AS at
             FROM unnest($2::int[]) AS n"#,
        agent_id as _,
        nths
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().filter_map(|r| Some((r.n, r.at?))).collect())
}
