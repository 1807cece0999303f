//! The records of what was said (conversations, their messages and summaries, the
//! calibration profile reflection writes for the prompt), read and written for the areas
//! below the pipeline: cognition and PoC use these, never the pipeline itself.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::AgentId;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

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

/// A message the owner wrote to the agent. The owner's own words are those of the owner's
/// private conversations (the dashboard, the owner's session, the owner's Telegram chat), never
/// a key's conversations (acting for an end user or for no one) nor an email thread, where the
/// words are a third party's: what the proactive scans, affect and timing read as the owner.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OwnerMessage {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub content: String,
    pub created_at: DateTime<Utc>,
}

/// The owner's messages after `after` (none: from the first) up to `until`, oldest first, at
/// most `limit`.
pub async fn owner_messages(
    conn: &mut PgConnection,
    agent: AgentId,
    after: Option<DateTime<Utc>>,
    until: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<OwnerMessage>> {
    sqlx::query_as!(
        OwnerMessage,
        "SELECT m.id, m.conversation_id, m.content, m.created_at
           FROM chat_messages m JOIN conversations c ON c.agent_id = m.agent_id AND c.id = m.conversation_id
          WHERE m.agent_id = $1 AND m.role = 'user' AND c.owner_private AND c.channel <> 'email'
            AND m.created_at > coalesce($2, '-infinity'::timestamptz) AND m.created_at <= $3
          ORDER BY m.created_at LIMIT $4",
        agent as _,
        after,
        until,
        limit
    )
    .fetch_all(conn)
    .await
}

/// How many messages the owner wrote in each local hour (0–23, in timezone `timezone`)
/// between `since` and `until`; hours without any are left out.
pub async fn owner_hours(
    conn: &mut PgConnection,
    agent: AgentId,
    timezone: &str,
    since: DateTime<Utc>,
    until: DateTime<Utc>,
) -> sqlx::Result<Vec<(i32, i64)>> {
    let rows = sqlx::query!(
        r#"SELECT extract(hour FROM m.created_at AT TIME ZONE $2)::int AS "hour!", count(*) AS "n!"
             FROM chat_messages m JOIN conversations c ON c.agent_id = m.agent_id AND c.id = m.conversation_id
            WHERE m.agent_id = $1 AND m.role = 'user' AND c.owner_private AND c.channel <> 'email'
              AND m.created_at > $3 AND m.created_at <= $4
            GROUP BY 1"#,
        agent as _,
        timezone,
        since,
        until
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.hour, r.n)).collect())
}

/// When the owner last wrote to the agent, up to `until`.
pub async fn newest_owner_message(
    conn: &mut PgConnection,
    agent: AgentId,
    until: DateTime<Utc>,
) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar!(
        "SELECT max(m.created_at) FROM chat_messages m JOIN conversations c ON c.agent_id = m.agent_id AND c.id = m.conversation_id
          WHERE m.agent_id = $1 AND m.role = 'user' AND c.owner_private AND c.channel <> 'email' AND m.created_at <= $2",
        agent as _,
        until
    )
    .fetch_one(conn)
    .await
}

/// The owner's questions (messages with a `?`) of conversations still open, between `since`
/// and `until`, whose complete reply matches `unanswered` (a case-blind regular expression:
/// the agent did not know), newest first, at most `limit`.
pub async fn unanswered_questions(
    conn: &mut PgConnection,
    agent: AgentId,
    since: DateTime<Utc>,
    until: DateTime<Utc>,
    unanswered: &str,
    limit: i64,
) -> sqlx::Result<Vec<OwnerMessage>> {
    sqlx::query_as!(
        OwnerMessage,
        "SELECT q.id, q.conversation_id, q.content, q.created_at
           FROM chat_messages q
           JOIN conversations c ON c.agent_id = q.agent_id AND c.id = q.conversation_id
           JOIN chat_messages r ON r.agent_id = q.agent_id AND r.reply_to = q.id AND r.status = 'complete'
          WHERE q.agent_id = $1 AND q.role = 'user' AND c.owner_private AND c.channel <> 'email' AND c.deleted_at IS NULL
            AND q.content LIKE '%?%' AND r.content ~* $4
            AND q.created_at > $2 AND q.created_at <= $3
          ORDER BY q.created_at DESC LIMIT $5",
        agent as _,
        since,
        until,
        unanswered,
        limit
    )
    .fetch_all(conn)
    .await
}

/// Whether `id` is one of the owner's own conversations with the agent, not deleted.
pub async fn owner_conversation_open(conn: &mut PgConnection, agent: AgentId, id: Uuid) -> sqlx::Result<bool> {
    let n = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM conversations WHERE agent_id = $1 AND id = $2 AND end_user IS NULL AND deleted_at IS NULL"#,
        agent as _,
        id
    )
    .fetch_one(conn)
    .await?;
    Ok(n > 0)
}

/// The owner's most recent web conversation with the agent, or a new private "Check-ins" one.
pub async fn owner_conversation(conn: &mut PgConnection, agent: AgentId, now: DateTime<Utc>) -> sqlx::Result<Uuid> {
    let found = sqlx::query_scalar!(
        "SELECT id FROM conversations WHERE agent_id = $1 AND end_user IS NULL AND deleted_at IS NULL AND channel = 'web'
          ORDER BY updated_at DESC LIMIT 1",
        agent as _
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = found {
        return Ok(id);
    }
    let id = Uuid::now_v7();
    sqlx::query!(
        "INSERT INTO conversations (id, agent_id, title, channel, message_count, owner_private, created_at, updated_at)
         VALUES ($1, $2, 'Check-ins', 'web', 0, true, $3, $3)",
        id,
        agent as _,
        now
    )
    .execute(conn)
    .await?;
    Ok(id)
}

/// Appends a complete assistant message the agent wrote on its own (no turn asked for it) to
/// `conversation`; returns its id.
pub async fn append_agent_message(
    conn: &mut PgConnection,
    agent: AgentId,
    conversation: Uuid,
    content: &str,
    meta: serde_json::Value,
    now: DateTime<Utc>,
) -> sqlx::Result<Uuid> {
    let position = sqlx::query_scalar!(
        "UPDATE conversations SET message_count = message_count + 1, updated_at = greatest(updated_at, $3)
          WHERE agent_id = $1 AND id = $2
         RETURNING (SELECT coalesce(max(position) + 1, 0) FROM chat_messages WHERE agent_id = $1 AND conversation_id = $2)",
        agent as _,
        conversation,
        now
    )
    .fetch_one(&mut *conn)
    .await?
    .unwrap_or(0);
    let id = Uuid::now_v7();
    sqlx::query!(
        "INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, meta, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'assistant', $5, 'complete', 'web', $6, $7, $7)",
        id,
        conversation,
        agent as _,
        position,
        content,
        meta,
        now
    )
    .execute(conn)
    .await?;
    Ok(id)
}

/// A complete message of a conversation, for the session ledger.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Said {
    pub conversation_id: Uuid,
    pub role: String,
    pub content: String,
    pub created_at: DateTime<Utc>,
}

/// The agent's complete messages after `after` (none: from the first), in the order they were
/// said, at most `limit`.
pub async fn said_after(
    pool: &PgPool,
    agent: AgentId,
    after: Option<DateTime<Utc>>,
    limit: i64,
) -> sqlx::Result<Vec<Said>> {
    sqlx::query_as!(
        Said,
        "SELECT conversation_id, role, content, created_at FROM chat_messages
          WHERE agent_id = $1 AND status = 'complete' AND created_at > coalesce($2, '-infinity'::timestamptz)
          ORDER BY created_at, position LIMIT $3",
        agent as _,
        after,
        limit
    )
    .fetch_all(pool)
    .await
}

// SQL expressions for other areas' statements (arguments are SQL expressions too).

/// Whether agent `agent` received a chat message after `since` (boolean).
pub fn spoken_to_since_sql(agent: &str, since: &str) -> String {
    format!("EXISTS (SELECT 1 FROM chat_messages m WHERE m.agent_id = {agent} AND m.created_at > {since})")
}

/// Whether reply `reply` of agent `agent` is still being written (boolean).
pub fn streaming_sql(agent: &str, reply: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM chat_messages m WHERE m.agent_id = {agent} AND m.id = {reply} AND m.status = 'streaming')"
    )
}

/// Whether the owner (not an end user) wrote to agent `agent` after `after` and no later than
/// `until` (boolean).
pub fn owner_spoke_sql(agent: &str, after: &str, until: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM chat_messages m JOIN conversations c ON c.agent_id = m.agent_id AND c.id = m.conversation_id
                  WHERE m.agent_id = {agent} AND m.role = 'user' AND c.owner_private AND c.channel <> 'email'
                    AND m.created_at > {after} AND m.created_at <= {until})"
    )
}

/// When agent `agent` last received or sent a message (timestamptz; NULL: never).
pub fn newest_message_at_sql(agent: &str) -> String {
    format!("(SELECT max(created_at) FROM chat_messages WHERE agent_id = {agent})")
}

/// The owner's first message in conversation `conversation` of agent `agent` after `after`, no
/// later than `until` (text; NULL: none).
pub fn first_owner_answer_sql(agent: &str, conversation: &str, after: &str, until: &str) -> String {
    format!(
        "(SELECT m.content FROM chat_messages m
           WHERE m.agent_id = {agent} AND m.conversation_id = {conversation} AND m.role = 'user'
             AND m.created_at > {after} AND m.created_at <= {until}
           ORDER BY m.created_at LIMIT 1)"
    )
}

/// Whether conversation `conversation` has a message before position `position` written after
/// `since` (boolean).
pub fn said_before_sql(conversation: &str, position: &str, since: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM chat_messages WHERE conversation_id = {conversation} AND position < {position}
                  AND created_at > {since})"
    )
}

/// The last complete message of a user to agent `agent` (json: `conversation_id`, `message_id`,
/// `said` cut to `chars` characters, `at`; NULL: none).
pub fn last_user_message_sql(agent: &str, chars: usize) -> String {
    format!(
        "(SELECT json_build_object('conversation_id', conversation_id, 'message_id', id, 'said', left(content, {chars}),
                                   'at', created_at)
            FROM chat_messages WHERE agent_id = {agent} AND role = 'user' AND status = 'complete'
           ORDER BY created_at DESC LIMIT 1)"
    )
}

/// How many conversations the agents `agents` (a query of ids) have (bigint).
pub fn conversations_count_sql(agents: &str) -> String {
    format!("(SELECT count(*) FROM conversations WHERE agent_id IN ({agents}))")
}

/// How many messages the agents `agents` (a query of ids) have (bigint).
pub fn messages_count_sql(agents: &str) -> String {
    format!("(SELECT count(*) FROM chat_messages WHERE agent_id IN ({agents}))")
}

/// The agents' failed replies per agent and hour (`agent_id`, `hour`, `n`) among the messages
/// `m` that pass `keep` (a condition over `m`).
pub fn failed_replies_by_hour_sql(keep: &str) -> String {
    format!(
        "SELECT m.agent_id, date_trunc('hour', m.created_at) AS hour, count(*) AS n FROM chat_messages m
          WHERE m.role = 'assistant' AND m.status = 'error' AND {keep} GROUP BY 1, 2"
    )
}

/// A query of message `id` of agent `agent`: its `content`, `meta` and `status` (one row or none).
pub fn message_sql(agent: &str, id: &str) -> String {
    format!("SELECT content, meta, status FROM chat_messages WHERE agent_id = {agent} AND id = {id}")
}

/// Replies that failed since `since` (a time-ordered id of that moment), platform-wide.
pub async fn failed_replies_since(pool: &PgPool, since: uuid::Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM chat_messages WHERE id > $1 AND role = 'assistant' AND status = 'error'")
        .bind(since)
        .fetch_one(pool)
        .await
}
