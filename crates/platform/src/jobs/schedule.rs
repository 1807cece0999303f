//! Recurring schedules. Each (agent, cycle) pair gets a fixed offset inside its interval,
//! derived from a hash of the pair, so 10,000 agents' 12-hour reflections are spread evenly
//! over the 12 hours instead of firing together. A tick turns due slots into jobs; the
//! idempotency key `cycle:agent:slot` makes a slot enqueue at most once, even when several
//! workers tick at the same moment.

use miniclaw_core::ids::AgentId;
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};

use super::{NOTIFY_CHANNEL, Registry};
use crate::domain_sql::DomainSql;
use crate::jobs::CycleScope;

/// Offset in seconds of `key`'s slot within an interval of `interval_secs`.
pub fn offset_secs(key: &str, interval_secs: i64) -> i64 {
    let digest = Sha256::digest(key.as_bytes());
    let n = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    (n % interval_secs.max(1) as u64) as i64
}

/// The first slot strictly after `now` for `key`: slots are `k * interval + offset(key)`.
pub fn next_slot(now: DateTime<Utc>, interval_secs: i64, key: &str) -> DateTime<Utc> {
    let interval = interval_secs.max(1);
    let offset = offset_secs(key, interval);
    let t = now.timestamp();
    let mut slot = (t - offset).div_euclid(interval) * interval + offset;
    if slot <= t {
        slot += interval;
    }
    Utc.timestamp_opt(slot, 0).single().unwrap_or(now)
}

fn schedule_key(cycle: &str, agent_id: Option<AgentId>) -> String {
    match agent_id {
        Some(a) => format!("{cycle}:{a}"),
        None => cycle.to_string(),
    }
}

/// Creates (or re-times, if the interval changed) the schedule of one cycle, with its idle gate.
pub async fn ensure(
    conn: &mut PgConnection,
    cycle: &str,
    agent_id: Option<AgentId>,
    interval: Duration,
    idle_gated: bool,
) -> sqlx::Result<()> {
    let secs = interval.as_secs().max(1) as i64;
    let first = next_slot(Utc::now(), secs, &schedule_key(cycle, agent_id));
    sqlx::query!(
        "INSERT INTO job_schedules (agent_id, cycle, interval_secs, next_run_at, idle_gated)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (agent_id, cycle) DO UPDATE
            SET interval_secs = EXCLUDED.interval_secs, idle_gated = EXCLUDED.idle_gated,
                next_run_at = CASE WHEN job_schedules.interval_secs = EXCLUDED.interval_secs
                                   THEN job_schedules.next_run_at ELSE EXCLUDED.next_run_at END",
        agent_id as _,
        cycle,
        secs as i32,
        first,
        idle_gated
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Schedules every recurring platform-wide cycle of the registry.
pub async fn ensure_platform(pool: &PgPool, registry: &Registry) -> sqlx::Result<()> {
    let mut conn = pool.acquire().await?;
    for c in registry.cycles().filter(|c| c.scope == CycleScope::Platform) {
        if let Some(interval) = c.interval {
            ensure(&mut conn, c.name, None, interval, false).await?;
        }
    }
    Ok(())
}

/// Schedules the recurring per-agent cycles for every agent that lacks one (agents created
/// before a cycle existed), in batches. Returns how many schedules were added.
pub async fn ensure_all_agents(pool: &PgPool, registry: &Registry) -> sqlx::Result<u64> {
    let mut added = 0;
    for c in registry.cycles().filter(|c| c.scope == CycleScope::Agent) {
        let Some(interval) = c.interval else { continue };
        let secs = interval.as_secs().max(1) as i64;
        loop {
            let missing: Vec<uuid::Uuid> = sqlx::query_scalar(&format!(
                "SELECT a.id FROM ({}) a
                  WHERE NOT EXISTS (SELECT 1 FROM job_schedules s WHERE s.agent_id = a.id AND s.cycle = $1)
                  LIMIT 1000",
                (registry.domain().live_agents)()
            ))
            .bind(c.name)
            .fetch_all(pool)
            .await?;
            if missing.is_empty() {
                break;
            }
            let now = Utc::now();
            let slots: Vec<DateTime<Utc>> =
                missing.iter().map(|a| next_slot(now, secs, &schedule_key(c.name, Some(AgentId(*a))))).collect();
            added += sqlx::query!(
                "INSERT INTO job_schedules (agent_id, cycle, interval_secs, next_run_at, idle_gated)
                 SELECT a, $1, $2, t, $5 FROM unnest($3::uuid[], $4::timestamptz[]) AS x(a, t)
                 ON CONFLICT (agent_id, cycle) DO NOTHING",
                c.name,
                secs as i32,
                &missing,
                &slots,
                c.idle_gated
            )
            .execute(pool)
            .await?
            .rows_affected();
        }
    }
    Ok(added)
}

/// Schedules every recurring per-agent cycle for one agent (call it in the transaction that
/// creates the agent).
pub async fn ensure_agent(conn: &mut PgConnection, registry: &Registry, agent_id: AgentId) -> sqlx::Result<()> {
    for c in registry.cycles().filter(|c| c.scope == CycleScope::Agent) {
        if let Some(interval) = c.interval {
            ensure(conn, c.name, Some(agent_id), interval, c.idle_gated).await?;
        }
    }
    Ok(())
}

/// Turns up to `batch` due schedule slots into jobs and advances each schedule to its next
/// future slot (missed slots are not replayed). An idle-gated slot (X10) makes a job only when
/// its agent had activity since the schedule last made one: a chat message, or an agent event
/// by anyone but a job (a job's own writes do not wake the agent). Returns how many jobs were
/// created.
pub async fn tick(pool: &PgPool, domain: &DomainSql, batch: i64) -> sqlx::Result<u64> {
    let mut tx = pool.begin().await?;
    let spoken_to = (domain.spoken_to_since)("due.agent_id", "due.last_enqueued_at");
    let acted = crate::activity::acted_since_sql("due.agent_id", "due.last_enqueued_at");
    let created: i64 = sqlx::query_scalar(&format!(
        "WITH due AS (
             SELECT id, agent_id, cycle, interval_secs, next_run_at, idle_gated, last_enqueued_at
             FROM job_schedules
             WHERE enabled AND next_run_at <= now()
             ORDER BY next_run_at
             LIMIT $1
             FOR UPDATE SKIP LOCKED
         ), awake AS (
             SELECT due.*, NOT due.idle_gated OR due.agent_id IS NULL OR due.last_enqueued_at IS NULL
                    OR coalesce({spoken_to}, false) OR {acted} AS runs
               FROM due
         ), created AS (
             INSERT INTO jobs (id, kind, agent_id, run_at, idempotency_key)
             SELECT gen_random_uuid(), cycle, agent_id, next_run_at,
                    cycle || ':' || coalesce(agent_id::text, '-') || ':' || extract(epoch FROM next_run_at)::bigint
             FROM awake WHERE runs
             ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
             RETURNING 1
         ), advanced AS (
             UPDATE job_schedules s
             SET next_run_at = awake.next_run_at + make_interval(secs => awake.interval_secs *
                     (floor(extract(epoch FROM now() - awake.next_run_at) / awake.interval_secs) + 1)),
                 last_enqueued_at = CASE WHEN awake.runs THEN now() ELSE s.last_enqueued_at END,
                 idle_skips = s.idle_skips + CASE WHEN awake.runs THEN 0 ELSE 1 END
             FROM awake WHERE s.id = awake.id
             RETURNING 1
         )
         -- Data-modifying CTEs always run to completion, read or not.
         SELECT count(*) FROM created"
    ))
    .bind(batch)
    .fetch_one(&mut *tx)
    .await?;
    if created > 0 {
        sqlx::query!("SELECT pg_notify($1, 'schedule')", NOTIFY_CHANNEL).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(created as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_slot_is_in_the_future_and_on_the_grid() {
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 7, 0, 0).unwrap();
        let interval = 12 * 3600;
        for i in 0..50 {
            let key = format!("reflection:{i}");
            let slot = next_slot(now, interval, &key);
            assert!(slot > now && slot <= now + chrono::Duration::seconds(interval));
            assert_eq!((slot.timestamp() - offset_secs(&key, interval)).rem_euclid(interval), 0);
        }
    }

    #[test]
    fn many_agents_spread_evenly_over_the_interval() {
        // 10,000 agents on a 12 h cycle: each of 12 hourly buckets should get ~833.
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 0, 0, 0).unwrap();
        let interval = 12 * 3600;
        let mut buckets = [0u32; 12];
        for i in 0..10_000 {
            let slot = next_slot(now, interval, &format!("reflection:{}", uuid::Uuid::from_u128(i)));
            buckets[((slot - now).num_seconds() / 3600).min(11) as usize] += 1;
        }
        for b in buckets {
            assert!((700..=970).contains(&b), "uneven spread: {buckets:?}");
        }
    }
}
