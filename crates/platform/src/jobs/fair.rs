//! Fair leases (SPEC T3): which due jobs a worker may take so that no tenant (or outbound
//! endpoint) holds more than its share of the slots, across every worker process.

use std::time::Duration;

use sqlx::PgPool;

use super::queue::Job;

/// The owner a job is counted against for fairness (an SQL expression over `j`): its payload's
/// `fair_key` when it names one (a webhook endpoint), else its agent's tenant, else its agent;
/// NULL for the platform's own work.
fn owner_sql(domain: &crate::domain_sql::DomainSql) -> String {
    format!("coalesce(j.payload->>'fair_key', ({})::text, j.agent_id::text)", (domain.tenant)("j.agent_id"))
}

/// Whether job `j`'s tenant (its payload's `tenant`, else its agent's) is suspended (an SQL
/// expression, NULL when the job has none).
fn suspended_sql(domain: &crate::domain_sql::DomainSql) -> String {
    let tenant = format!("coalesce((j.payload->>'tenant')::uuid, {})", (domain.tenant)("j.agent_id"));
    (domain.suspended)(&tenant)
}

/// `lease`, fairly (SPEC T3): no owner (`owner_sql`: a tenant, or an outbound job's endpoint)
/// has more than `share` jobs of `kinds` running at once, across every worker. A saturated
/// owner's due jobs are passed over, so one tenant's backlog never holds the slots another
/// tenant's work is waiting for; the platform's own work is not limited. A suspended tenant's
/// jobs stay queued.
pub async fn lease_fair(
    pool: &PgPool,
    domain: &crate::domain_sql::DomainSql,
    worker: &str,
    kinds: &[String],
    limit: i64,
    lease: Duration,
    share: i64,
) -> sqlx::Result<Vec<Job>> {
    let (owner, suspended) = (owner_sql(domain), suspended_sql(domain));
    // Workers lease one at a time (a short statement), so each counts the jobs every other
    // worker leased before it: the shares hold across processes, not only within one.
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(LEASE_LOCK).execute(&mut *tx).await?;
    // Built at run time: it reads the agent's tenant through `domain`.
    let leased = sqlx::query_as(&format!(
        "WITH busy AS (
            SELECT {owner} AS owner, count(*) AS n FROM jobs j
             WHERE j.status = 'running' AND j.kind = ANY($3) GROUP BY 1
         ), candidates AS (
            SELECT j.id, j.run_at, {owner} AS owner FROM jobs j
             WHERE j.status = 'queued' AND j.run_at <= now() AND j.kind = ANY($3)
               AND NOT coalesce({owner} IN (SELECT owner FROM busy WHERE n >= $5), false)
               AND NOT coalesce({suspended}, false)
             ORDER BY j.run_at
             LIMIT $4 * 8
             FOR UPDATE SKIP LOCKED
         ), chosen AS (
            SELECT c.id FROM (
                SELECT c.*, row_number() OVER (PARTITION BY c.owner ORDER BY c.run_at) AS nth FROM candidates c
            ) c LEFT JOIN busy b ON b.owner = c.owner
             WHERE c.owner IS NULL OR coalesce(b.n, 0) + c.nth <= $5
             ORDER BY c.run_at
             LIMIT $4
         )
         UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1,
                locked_until = now() + make_interval(secs => $2), started_at = now()
          WHERE id IN (SELECT id FROM chosen)
         RETURNING *"
    ))
    .bind(worker)
    .bind(lease.as_secs_f64())
    .bind(kinds)
    .bind(limit)
    .bind(share)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(leased)
}

/// The advisory lock fair leases take turns on.
const LEASE_LOCK: i64 = 0x6c65_6173_6566; // "leasef"
