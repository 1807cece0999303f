//! The access events of retrievals (X11): written by the chat turn and the search, read back
//! here as access patterns over a window of days (the mirror's view), pruned past retention.

use miniclaw_core::ids::{AgentId, MemoryId};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use utoipa::ToSchema;

/// The access events of one agent in the last `days` days.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub agent_id: AgentId,
    pub days: i32,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, sqlx::FromRow)]
pub struct Hot {
    pub memory_id: MemoryId,
    pub content: String,
    pub energy: f64,
    pub accesses: i64,
    pub conversations: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, sqlx::FromRow)]
pub struct Asked {
    /// The query, normalised (lower case, spaces collapsed).
    pub query: String,
    pub times: i64,
    /// The best score any of them got (0 when nothing was returned).
    pub best_score: f32,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, sqlx::FromRow)]
pub struct Resonance {
    pub a: MemoryId,
    pub b: MemoryId,
    pub conversations: i64,
}

/// Each access of the window as a row: `(event, conversation_id, at, id, score)`; `$1` the
/// agent, `$2` the window in days.
const HITS: &str = "WITH hits AS (
    SELECT e.id AS event, e.conversation_id, e.at, x.id, x.score FROM memory_access_events e,
           unnest(e.memory_ids, e.scores) AS x(id, score)
     WHERE e.agent_id = $1 AND e.at > now() - make_interval(days => $2))";

/// How many retrievals the window holds.
pub async fn events(pool: &PgPool, w: Window) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT count(*) FROM memory_access_events WHERE agent_id = $1 AND at > now() - make_interval(days => $2)",
    )
    .bind(w.agent_id)
    .bind(w.days)
    .fetch_one(pool)
    .await
}

/// The live memories by access energy, `Σ 0.5^(hours since the access / half_life_hours)`,
/// highest first, at most `limit`.
pub async fn hot(pool: &PgPool, w: Window, half_life_hours: f64, limit: i64) -> sqlx::Result<Vec<Hot>> {
    sqlx::query_as(&format!(
        "{HITS} SELECT h.id AS memory_id, m.content,
                sum(power(0.5, extract(epoch FROM now() - h.at) / 3600.0 / $3))::float8 AS energy,
                count(*) AS accesses, count(DISTINCT h.conversation_id) AS conversations
           FROM hits h JOIN agent_memories m ON m.agent_id = $1 AND m.id = h.id
          WHERE m.status IN ('active', 'dormant') AND m.invalid_at IS NULL
          GROUP BY h.id, m.content ORDER BY energy DESC, h.id LIMIT $4"
    ))
    .bind(w.agent_id)
    .bind(w.days)
    .bind(half_life_hours)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// The queries (normalised: lower case, spaces collapsed) grouped, those that pass `having`
/// (over `$3`), most asked first, at most `$4`.
fn asked_sql(having: &str) -> String {
    format!(
        "SELECT lower(regexp_replace(trim(query), '\\s+', ' ', 'g')) AS query, count(*) AS times,
                coalesce(max((SELECT max(s) FROM unnest(scores) s)), 0)::real AS best_score
           FROM memory_access_events WHERE agent_id = $1 AND at > now() - make_interval(days => $2)
          GROUP BY 1 HAVING {having} ORDER BY times DESC, query LIMIT $4"
    )
}

/// Queries whose best result scored below `score`: nothing useful was found.
pub async fn gaps(pool: &PgPool, w: Window, score: f32, limit: i64) -> sqlx::Result<Vec<Asked>> {
    sqlx::query_as(&asked_sql("coalesce(max((SELECT max(s) FROM unnest(scores) s)), 0) < $3"))
        .bind(w.agent_id)
        .bind(w.days)
        .bind(score)
        .bind(limit)
        .fetch_all(pool)
        .await
}

/// Queries asked at least `times` times.
pub async fn asked_again(pool: &PgPool, w: Window, times: i64, limit: i64) -> sqlx::Result<Vec<Asked>> {
    sqlx::query_as(&asked_sql("count(*) >= $3"))
        .bind(w.agent_id)
        .bind(w.days)
        .bind(times)
        .bind(limit)
        .fetch_all(pool)
        .await
}

/// Pairs of memories retrieved together in at least two conversations, most first.
pub async fn resonance(pool: &PgPool, w: Window, limit: i64) -> sqlx::Result<Vec<Resonance>> {
    sqlx::query_as(&format!(
        "{HITS} SELECT x.id AS a, y.id AS b, count(DISTINCT x.conversation_id) AS conversations
           FROM hits x JOIN hits y ON y.event = x.event AND x.id < y.id
          WHERE x.conversation_id IS NOT NULL
          GROUP BY x.id, y.id HAVING count(DISTINCT x.conversation_id) >= 2
          ORDER BY conversations DESC, a, b LIMIT $3"
    ))
    .bind(w.agent_id)
    .bind(w.days)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Live, unpinned memories retrieved at least `accesses` times across at least `conversations`
/// conversations, most used first, at most `limit`.
pub async fn often_used(
    pool: &PgPool,
    w: Window,
    accesses: i64,
    conversations: i64,
    limit: i64,
) -> sqlx::Result<Vec<MemoryId>> {
    sqlx::query_scalar(&format!(
        "{HITS} SELECT h.id FROM hits h JOIN agent_memories m ON m.agent_id = $1 AND m.id = h.id
          WHERE m.status IN ('active', 'dormant') AND m.invalid_at IS NULL AND NOT m.pinned
          GROUP BY h.id HAVING count(*) >= $3 AND count(DISTINCT h.conversation_id) >= $4
          ORDER BY count(*) DESC, h.id LIMIT $5"
    ))
    .bind(w.agent_id)
    .bind(w.days)
    .bind(accesses)
    .bind(conversations)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Deletes access events older than `days` days. Returns how many.
pub async fn prune(pool: &PgPool, days: i32) -> sqlx::Result<u64> {
    Ok(sqlx::query!("DELETE FROM memory_access_events WHERE at < now() - make_interval(days => $1)", days)
        .execute(pool)
        .await?
        .rows_affected())
}
