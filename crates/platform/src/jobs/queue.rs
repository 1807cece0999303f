//! Job rows: enqueue, lease, finish, retry, inspect.

use miniclaw_core::ids::AgentId;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{Acquire, PgPool, Postgres};
use utoipa::ToSchema;
use uuid::Uuid;

use super::NOTIFY_CHANNEL;

/// A job as stored. `last_error` keeps the failure text verbatim.
#[derive(Debug, Clone, sqlx::FromRow, Serialize, ToSchema)]
pub struct Job {
    pub id: Uuid,
    pub kind: String,
    pub agent_id: Option<Uuid>,
    #[schema(value_type = Object)]
    pub payload: serde_json::Value,
    /// `queued`, `running`, `done` or `dead`.
    pub status: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub run_at: DateTime<Utc>,
    /// The worker holding the lease, or the last one that ran the job.
    pub locked_by: Option<String>,
    pub locked_until: Option<DateTime<Utc>>,
    pub idempotency_key: Option<String>,
    pub last_error: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub result: Option<serde_json::Value>,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// What to enqueue. `idempotency_key` makes a second enqueue of the same work a no-op.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub kind: String,
    pub agent_id: Option<AgentId>,
    pub payload: serde_json::Value,
    pub run_at: Option<DateTime<Utc>>,
    pub idempotency_key: Option<String>,
    pub max_attempts: i32,
}

impl NewJob {
    pub fn new(kind: impl Into<String>) -> Self {
        NewJob {
            kind: kind.into(),
            agent_id: None,
            payload: serde_json::json!({}),
            run_at: None,
            idempotency_key: None,
            max_attempts: 5,
        }
    }
    pub fn agent(mut self, agent_id: AgentId) -> Self {
        self.agent_id = Some(agent_id);
        self
    }
    pub fn payload(mut self, payload: serde_json::Value) -> Self {
        self.payload = payload;
        self
    }
    pub fn run_at(mut self, at: DateTime<Utc>) -> Self {
        self.run_at = Some(at);
        self
    }
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
    pub fn max_attempts(mut self, n: i32) -> Self {
        self.max_attempts = n.max(1);
        self
    }
}

/// Result of an enqueue: the job's id, and whether this call created it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enqueued {
    pub id: Uuid,
    pub created: bool,
}

/// Enqueues the jobs `select` gives (a SELECT of `id, kind, agent_id, payload,
/// idempotency_key, max_attempts`), each at most once per idempotency key, returning the kinds
/// created: for statements that queue work in the write that causes it. The caller wakes the
/// workers (`NOTIFY_CHANNEL`).
pub fn enqueue_once_sql(select: &str) -> String {
    format!(
        "INSERT INTO jobs (id, kind, agent_id, payload, idempotency_key, max_attempts) {select}
         ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING kind"
    )
}

/// How many jobs have one of `statuses` (quoted SQL strings, comma-separated) and pass `keep`
/// (a condition over the job `j`), as a bigint SQL expression.
pub fn count_sql(statuses: &str, keep: &str) -> String {
    format!("(SELECT count(*) FROM jobs j WHERE j.status IN ({statuses}) AND {keep})")
}

/// Enqueues a job. Pass a transaction to make the job part of the write that causes it: it is
/// visible (and workers are notified) only if that transaction commits.
pub async fn enqueue<'c, A>(conn: A, job: NewJob) -> sqlx::Result<Enqueued>
where
    A: Acquire<'c, Database = Postgres>,
{
    let mut conn = conn.acquire().await?;
    enqueue_in(&mut conn, job).await
}

/// `enqueue` on a connection (or a transaction's): the same, without the generic `Acquire`
/// whose future is not `Send` inside handlers.
pub async fn enqueue_in(conn: &mut sqlx::PgConnection, job: NewJob) -> sqlx::Result<Enqueued> {
    let inserted = sqlx::query_scalar!(
        "INSERT INTO jobs (id, kind, agent_id, payload, run_at, idempotency_key, max_attempts)
         VALUES ($1, $2, $3, $4, coalesce($5, now()), $6, $7)
         ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id",
        Uuid::now_v7(),
        job.kind,
        job.agent_id as _,
        job.payload,
        job.run_at,
        job.idempotency_key,
        job.max_attempts
    )
    .fetch_optional(&mut *conn)
    .await?;
    match inserted {
        Some(id) => {
            sqlx::query!("SELECT pg_notify($1, $2)", NOTIFY_CHANNEL, job.kind).execute(&mut *conn).await?;
            Ok(Enqueued { id, created: true })
        }
        None => {
            let id = sqlx::query_scalar!("SELECT id FROM jobs WHERE idempotency_key = $1", job.idempotency_key)
                .fetch_one(&mut *conn)
                .await?;
            Ok(Enqueued { id, created: false })
        }
    }
}

/// Leases up to `limit` due jobs of the given kinds for `worker`. Concurrent callers never get
/// the same job: rows locked by one are skipped by the others.
pub async fn lease(
    pool: &PgPool,
    worker: &str,
    kinds: &[String],
    limit: i64,
    lease: Duration,
) -> sqlx::Result<Vec<Job>> {
    sqlx::query_as!(
        Job,
        "UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1,
                locked_until = now() + make_interval(secs => $2), started_at = now()
         WHERE id IN (
             SELECT id FROM jobs
             WHERE status = 'queued' AND run_at <= now() AND kind = ANY($3)
             ORDER BY run_at
             LIMIT $4
             FOR UPDATE SKIP LOCKED)
         RETURNING *",
        worker,
        lease.as_secs_f64(),
        kinds,
        limit
    )
    .fetch_all(pool)
    .await
}

/// Extends a running job's lease; false if the job is no longer ours.
pub async fn extend_lease(pool: &PgPool, id: Uuid, worker: &str, lease: Duration) -> sqlx::Result<bool> {
    let r = sqlx::query!(
        "UPDATE jobs SET locked_until = now() + make_interval(secs => $3)
         WHERE id = $1 AND locked_by = $2 AND status = 'running'",
        id,
        worker,
        lease.as_secs_f64()
    )
    .execute(pool)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Marks a job done; false if the lease was lost meanwhile (another worker may own it now).
pub async fn complete(pool: &PgPool, id: Uuid, worker: &str, result: &serde_json::Value) -> sqlx::Result<bool> {
    let r = sqlx::query!(
        "UPDATE jobs SET status = 'done', finished_at = now(), result = $3, locked_until = NULL
         WHERE id = $1 AND locked_by = $2 AND status = 'running'",
        id,
        worker,
        result
    )
    .execute(pool)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Records a failure: the job is retried after `delay`, or dead-lettered once it has used all
/// its attempts. The error text is stored verbatim. Returns the new status.
pub async fn fail(pool: &PgPool, id: Uuid, worker: &str, error: &str, delay: Duration) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "UPDATE jobs SET
            status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
            run_at = CASE WHEN attempts >= max_attempts THEN run_at
                          ELSE now() + make_interval(secs => $4) END,
            finished_at = CASE WHEN attempts >= max_attempts THEN now() END,
            last_error = $3, locked_until = NULL
         WHERE id = $1 AND locked_by = $2 AND status = 'running'
         RETURNING status",
        id,
        worker,
        error,
        delay.as_secs_f64()
    )
    .fetch_optional(pool)
    .await
}

/// Delay before retry number `attempt` (1-based): 5 s doubling per attempt, capped at one
/// hour, scaled by `jitter` in [0.5, 1.5) so failed jobs do not retry in lock-step.
pub fn retry_delay(attempt: i32, jitter: f64) -> Duration {
    let base = 5.0 * 2f64.powi(attempt.clamp(1, 20) - 1);
    Duration::from_secs_f64(base.min(3600.0) * jitter.clamp(0.5, 1.5))
}

/// Queues a debounced job for each of `agent_ids` (one statement however many): at most one
/// pending job of `kind` per agent, due `debounce_secs` from now, pushed back by every further
/// call but never beyond `max_wait_secs` after the first. Inside the caller's transaction when
/// given one.
pub async fn enqueue_debounced(
    conn: &mut sqlx::PgConnection,
    kind: &str,
    agent_ids: &[AgentId],
    debounce_secs: i64,
    max_wait_secs: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        r#"WITH queued AS (
            INSERT INTO jobs (id, kind, agent_id, run_at, idempotency_key, payload)
            SELECT gen_random_uuid(), $1, a, now() + make_interval(secs => $3), $1 || ':' || a::text || ':pending',
                   '{"debounced": true}'
              FROM (SELECT DISTINCT a FROM unnest($2::uuid[]) AS a) agents
            ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO UPDATE
               SET run_at = least(now() + make_interval(secs => $3), jobs.created_at + make_interval(secs => $4))
             WHERE jobs.status = 'queued'
            RETURNING kind)
         SELECT pg_notify($5, kind) FROM queued"#,
        kind,
        agent_ids as _,
        debounce_secs as f64,
        max_wait_secs as f64,
        NOTIFY_CHANNEL
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Moves the queued job with `idempotency_key` to run no sooner than `delay` from now (a retry
/// that should wait for its cause to pass).
pub async fn postpone(conn: &mut sqlx::PgConnection, idempotency_key: &str, delay: Duration) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE jobs SET run_at = now() + make_interval(secs => $2) WHERE idempotency_key = $1 AND status = 'queued'",
        idempotency_key,
        delay.as_secs_f64()
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Frees the `…:pending` idempotency key of a job that has started, so that work arriving from
/// now on queues a job of its own instead of being folded into this one (debounced and
/// one-pending-at-a-time jobs: the dossier, extraction batches, summaries).
pub async fn release_pending(pool: &PgPool, job_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("UPDATE jobs SET idempotency_key = NULL WHERE id = $1 AND idempotency_key LIKE '%:pending'", job_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Returns jobs whose worker vanished (lease expired) to the queue, or to the dead letters
/// when they have no attempts left.
pub async fn reclaim_expired(pool: &PgPool) -> sqlx::Result<u64> {
    let r = sqlx::query!(
        "UPDATE jobs SET
            status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
            finished_at = CASE WHEN attempts >= max_attempts THEN now() END,
            last_error = 'lease expired: worker ' || coalesce(locked_by, '?') || ' stopped or stalled',
            locked_by = NULL, locked_until = NULL, run_at = now()
         WHERE status = 'running' AND locked_until < now()"
    )
    .execute(pool)
    .await?;
    Ok(r.rows_affected())
}

pub async fn get(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<Job>> {
    sqlx::query_as!(Job, "SELECT * FROM jobs WHERE id = $1", id).fetch_optional(pool).await
}

/// Newest first, optionally filtered: `limit` of them, created before job `before` if given.
pub async fn list(
    pool: &PgPool,
    status: Option<&str>,
    kind: Option<&str>,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<Job>> {
    sqlx::query_as!(
        Job,
        "SELECT * FROM jobs
         WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR kind = $2)
           AND ($4::uuid IS NULL OR (created_at, id) < (SELECT p.created_at, p.id FROM jobs p WHERE p.id = $4))
         ORDER BY created_at DESC, id DESC
         LIMIT $3",
        status,
        kind,
        limit,
        before
    )
    .fetch_all(pool)
    .await
}

/// Puts a dead job back in the queue with fresh attempts. `None` if it is not dead.
pub async fn retry_dead(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<Job>> {
    let job = sqlx::query_as!(
        Job,
        "UPDATE jobs SET status = 'queued', attempts = 0, run_at = now(), finished_at = NULL
         WHERE id = $1 AND status = 'dead'
         RETURNING *",
        id
    )
    .fetch_optional(pool)
    .await?;
    if let Some(j) = &job {
        sqlx::query!("SELECT pg_notify($1, $2)", NOTIFY_CHANNEL, j.kind).execute(pool).await?;
    }
    Ok(job)
}

/// Queue depth by state and the lag of the oldest due job, for `/metrics` and `doctor`.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct QueueStats {
    /// Queued and due now.
    pub due: i64,
    /// Queued for later (scheduled or backing off).
    pub scheduled: i64,
    pub running: i64,
    pub dead: i64,
    /// Seconds the oldest due job has been waiting.
    pub oldest_due_lag_secs: f64,
    /// Jobs the idle gate avoided (X10): slots of gated schedules that made no job because
    /// their agent had no new activity.
    pub idle_skips: i64,
}

pub async fn stats(pool: &PgPool) -> sqlx::Result<QueueStats> {
    let row = sqlx::query!(
        r#"SELECT
            count(*) FILTER (WHERE status = 'queued' AND run_at <= now()) AS "due!",
            count(*) FILTER (WHERE status = 'queued' AND run_at > now()) AS "scheduled!",
            count(*) FILTER (WHERE status = 'running') AS "running!",
            count(*) FILTER (WHERE status = 'dead') AS "dead!",
            extract(epoch FROM now() - min(run_at) FILTER (WHERE status = 'queued' AND run_at <= now()))::float8 AS lag,
            (SELECT coalesce(sum(idle_skips), 0)::bigint FROM job_schedules) AS "idle_skips!"
         FROM jobs WHERE status IN ('queued', 'running', 'dead')"#
    )
    .fetch_one(pool)
    .await?;
    Ok(QueueStats {
        due: row.due,
        scheduled: row.scheduled,
        running: row.running,
        dead: row.dead,
        oldest_due_lag_secs: row.lag.unwrap_or(0.0),
        idle_skips: row.idle_skips,
    })
}

/// An agent is deleted: its recurring slots go and its queued jobs with them (a running one
/// finishes or fails on the missing agent), in the caller's transaction.
pub async fn forget_agent(conn: &mut sqlx::PgConnection, agent: AgentId) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM job_schedules WHERE agent_id = $1", agent as _).execute(&mut *conn).await?;
    sqlx::query!("DELETE FROM jobs WHERE agent_id = $1 AND status = 'queued'", agent as _).execute(&mut *conn).await?;
    Ok(())
}

/// An agent is purged: every job of it that is not running goes, in the caller's transaction.
pub async fn purge_agent(conn: &mut sqlx::PgConnection, agent: AgentId) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM jobs WHERE agent_id = $1 AND status <> 'running'", agent.0).execute(&mut *conn).await?;
    Ok(())
}

/// Deletes finished jobs older than 7 days and dead-lettered ones older than 30: (done, dead).
pub async fn prune_finished(pool: &PgPool) -> sqlx::Result<(u64, u64)> {
    let done = sqlx::query!("DELETE FROM jobs WHERE status = 'done' AND finished_at < now() - interval '7 days'")
        .execute(pool)
        .await?
        .rows_affected();
    let dead = sqlx::query!("DELETE FROM jobs WHERE status = 'dead' AND finished_at < now() - interval '30 days'")
        .execute(pool)
        .await?
        .rows_affected();
    Ok((done, dead))
}

/// Whether a job of `kind` for the agent is queued or running.
pub async fn alive<'c>(conn: impl sqlx::PgExecutor<'c>, agent: AgentId, kind: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM jobs WHERE agent_id = $1 AND kind = $2 AND status IN ('queued', 'running')) AS "alive!""#,
        agent as _,
        kind
    )
    .fetch_one(conn)
    .await
}

/// Jobs finished in the last hour.
pub async fn finished_last_hour(pool: &PgPool) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT count(*) AS "finished!" FROM jobs WHERE status = 'done' AND finished_at > now() - interval '1 hour'"#
    )
    .fetch_one(pool)
    .await
}

/// Jobs that ended in the last hour, by kind: `(kind, done, dead)`, most first.
pub async fn ended_last_hour_by_kind(pool: &PgPool) -> sqlx::Result<Vec<(String, i64, i64)>> {
    sqlx::query_as(
        "SELECT kind, count(*) FILTER (WHERE status = 'done'), count(*) FILTER (WHERE status = 'dead')
           FROM jobs WHERE status IN ('done', 'dead') AND finished_at > now() - interval '1 hour'
          GROUP BY kind ORDER BY count(*) DESC, kind",
    )
    .fetch_all(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_delay_doubles_and_caps() {
        assert_eq!(retry_delay(1, 1.0), Duration::from_secs(5));
        assert_eq!(retry_delay(2, 1.0), Duration::from_secs(10));
        assert_eq!(retry_delay(4, 1.0), Duration::from_secs(40));
        assert_eq!(retry_delay(30, 1.0), Duration::from_secs(3600));
        assert_eq!(retry_delay(1, 0.5), Duration::from_millis(2500));
        assert_eq!(retry_delay(1, 9.0), Duration::from_millis(7500), "jitter is clamped");
    }
}
