//! What happens to memories after they are written: hits (retrievals and chat mentions, folded
//! into the rows by a job), expiry, and the `memory_forgotten` event when memories are lost.

use miniclaw_core::ids::{AgentId, MemoryId};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::*;
use miniclaw_platform::activity::Origin;

/// The job that agents' lost memories publish (deletion, expiry), debounced per agent:
/// whatever was compiled from memories (the dossier) subscribes to it and rebuilds.
pub const FORGOTTEN_JOB: &str = "memory_forgotten";
/// The job waits this long after the last deletion, and at most `FORGOTTEN_MAX_WAIT_SECS`.
pub const FORGOTTEN_DEBOUNCE_SECS: i64 = 60;
pub const FORGOTTEN_MAX_WAIT_SECS: i64 = 300;

/// A deleted memory must not live on in text compiled from it: the time it was forgotten is
/// kept with the agent's corpus statistics (readers of compiled text compare against it), and
/// the `memory_forgotten` job is queued for the agent.
pub(super) async fn forget(conn: &mut PgConnection, agents: &[AgentId]) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO memory_corpus_stats AS s (agent_id, forgotten_at) SELECT unnest($1::uuid[]), now()
         ON CONFLICT (agent_id) DO UPDATE SET forgotten_at = excluded.forgotten_at",
        agents as _
    )
    .execute(&mut *conn)
    .await?;
    miniclaw_platform::jobs::queue::enqueue_debounced(
        conn,
        FORGOTTEN_JOB,
        agents,
        FORGOTTEN_DEBOUNCE_SECS,
        FORGOTTEN_MAX_WAIT_SECS,
    )
    .await
}

/// Records that memories were retrieved by a search or mentioned in a chat turn (`kind`:
/// `retrieval` or `mention`). Folded into the memories by `fold_hits`.
pub async fn record_hits(pool: &PgPool, agent_id: AgentId, ids: &[MemoryId], kind: &str) -> sqlx::Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    sqlx::query!(
        "INSERT INTO memory_hits (agent_id, memory_id, kind) SELECT $1, unnest($2::uuid[]), $3",
        agent_id as _,
        ids as _,
        kind
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Records a search (X11): its access event — the query, what it returned and their scores,
/// also when nothing was found (a gap) — and the retrieval hits folded into the memories, in
/// one statement.
pub async fn record_search(
    pool: &PgPool,
    agent_id: AgentId,
    query: &str,
    found: &[(MemoryId, f64)],
    traversal: Option<&super::graph::Trace>,
) -> sqlx::Result<()> {
    let ids: Vec<MemoryId> = found.iter().map(|(id, _)| *id).collect();
    let scores: Vec<f32> = found.iter().map(|(_, s)| *s as f32).collect();
    let query: String = query.chars().take(500).collect();
    // A traversal ticks the agent's query clock (edges decay by it) and the health counters.
    let (fired, chars) = traversal.map_or((0, 0), |t| (t.reached.len() as i64, t.chars as i64));
    // The edges it followed are refreshed: their decay counts from now.
    let (from, to): (Vec<MemoryId>, Vec<MemoryId>) =
        traversal.map(|t| t.steps.iter().map(|s| (s.from, s.to)).unzip()).unwrap_or_default();
    sqlx::query!(
        "WITH event AS (
            INSERT INTO memory_access_events (agent_id, id, source, query, memory_ids, scores)
            VALUES ($1, $2, 'search', $3, $4, $5)
         ), clock AS (
            UPDATE memory_graphs SET queries = queries + 1, fired_total = fired_total + $7, fired_chars = fired_chars + $8
             WHERE agent_id = $1 AND $6
         ), touched AS (
            UPDATE memory_edges e SET weight = memory_edge_weight(e.weight, e.prior, g.queries - e.stamp, $11), stamp = g.queries
              FROM memory_graphs g, unnest($9::uuid[], $10::uuid[]) AS s(source_id, target_id)
             WHERE g.agent_id = $1 AND e.agent_id = $1 AND e.source_id = s.source_id AND e.target_id = s.target_id)
         INSERT INTO memory_hits (agent_id, memory_id, kind) SELECT $1, unnest($4::uuid[]), 'retrieval'",
        agent_id as _,
        Uuid::now_v7(),
        query,
        &ids as _,
        &scores,
        traversal.is_some(),
        fired,
        chars,
        &from as _,
        &to as _,
        super::graph::HALF_LIFE_QUERIES as f32
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Folds the recorded hits into the memories: mentions add to `mention_count` and set
/// `last_mentioned_at`, retrievals set `last_retrieved_at`, and both count as accesses (X2). Returns
/// the memories touched.
pub async fn fold_hits(pool: &PgPool) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "WITH gone AS (DELETE FROM memory_hits RETURNING agent_id, memory_id, kind, at),
              agg AS (SELECT agent_id, memory_id,
                             count(*) FILTER (WHERE kind = 'mention') AS mentions,
                             max(at) FILTER (WHERE kind = 'mention') AS mentioned,
                             max(at) FILTER (WHERE kind = 'retrieval') AS retrieved,
                             count(*) AS accesses
                        FROM gone GROUP BY agent_id, memory_id)
         UPDATE agent_memories a
            SET mention_count = a.mention_count + agg.mentions,
                access_count = least(a.access_count::bigint + agg.accesses, 2147483647)::int,
                last_mentioned_at = coalesce(greatest(a.last_mentioned_at, agg.mentioned), a.last_mentioned_at, agg.mentioned),
                last_retrieved_at = coalesce(greatest(a.last_retrieved_at, agg.retrieved), a.last_retrieved_at, agg.retrieved)
           FROM agg WHERE a.agent_id = agg.agent_id AND a.id = agg.memory_id"
    )
    .execute(pool)
    .await?
    .rows_affected())
}

/// Deletes expired memories (R5), keeping a `delete` version for each. Returns how many.
pub async fn delete_expired(pool: &PgPool) -> sqlx::Result<u64> {
    let mut tx = pool.begin().await?;
    let expired = query_memories!(
        "SELECT",
        "FROM agent_memories WHERE expires_at < now() ORDER BY expires_at LIMIT 10000 FOR UPDATE SKIP LOCKED"
    )
    .fetch_all(&mut *tx)
    .await?;
    let n = delete_all(&mut tx, &expired, "memory_expiry", "expired").await?;
    tx.commit().await?;
    Ok(n)
}

/// Deletes memories the caller locked, for job `job`: a `delete` version with `reason` for each,
/// their postings, their rows (their relations go with them) and the `memory_forgotten` event.
pub(super) async fn delete_all(conn: &mut PgConnection, rows: &[Memory], job: &str, reason: &str) -> sqlx::Result<u64> {
    let origin = Origin::new(crate::tenancy::auth::Actor::Job(job.into()), None);
    for m in rows {
        record_version(conn, m, "delete", &origin, Some(reason)).await?;
        terms::remove(conn, m).await?;
    }
    let ids: Vec<Uuid> = rows.iter().map(|m| m.id.uuid()).collect();
    let owners: Vec<Uuid> = rows.iter().map(|m| m.agent_id.uuid()).collect();
    sqlx::query!(
        "DELETE FROM agent_memories m USING unnest($1::uuid[], $2::uuid[]) AS x(agent_id, id)
          WHERE m.agent_id = x.agent_id AND m.id = x.id",
        &owners,
        &ids
    )
    .execute(&mut *conn)
    .await?;
    let mut agents: Vec<AgentId> = rows.iter().map(|m| m.agent_id).collect();
    agents.sort_unstable();
    agents.dedup();
    if !agents.is_empty() {
        forget(conn, &agents).await?;
    }
    Ok(ids.len() as u64)
}
