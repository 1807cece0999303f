//! The worker: leases due jobs, runs them with a lease heartbeat, records the outcome.
//! Woken by LISTEN/NOTIFY when a job is enqueued; polls as a fallback, so a lost
//! notification (or a listener that could not connect) only delays work, never loses it.

use miniclaw_core::ids::AgentId;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::FutureExt;
use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::sync::{Notify, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;
use uuid::Uuid;

use super::queue::{self, Job};
use super::registry::{CycleScope, JobContext, Registry};
use super::{NOTIFY_CHANNEL, NewJob, schedule};
use crate::domain_sql::DomainSql;

/// How long a lease lasts by default (`MINICLAW_JOB_LEASE_SECS`) before another worker may take
/// the job over. Running jobs renew it every third of this.
pub const LEASE: Duration = Duration::from_secs(60);
/// How many due schedule slots one tick turns into jobs.
const SCHEDULE_BATCH: i64 = 1000;
/// Slots of the outbound lane: deliveries to receivers the platform does not control, one at a
/// time per receiver.
const OUTBOUND_SLOTS: usize = 2;
/// How long shutdown waits for running jobs before leaving them to lease expiry.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

#[derive(Clone)]
pub struct Worker {
    pool: PgPool,
    /// Where the wake-up LISTEN connects: `pool`'s server, or a direct one behind a pooler.
    listen_pool: PgPool,
    registry: Arc<Registry>,
    id: String,
    concurrency: usize,
    /// How many general slots one tenant's jobs may hold at once (`tenant_share` by default).
    share: usize,
    /// Slots of the outbound lane (`Cycle::outbound`), besides `concurrency`.
    outbound: usize,
    poll: Duration,
    lease: Duration,
}

/// One lane of the worker: the kinds it leases, its slots, and how many of its jobs one owner
/// (a tenant; an outbound job's endpoint) may have running at once (`queue::lease_fair`).
struct Lane {
    kinds: Vec<String>,
    permits: Arc<Semaphore>,
    share: i64,
}

/// A tenant's share of the general lane: half the slots (at least one), so that another
/// tenant's work always finds one free.
pub fn tenant_share(concurrency: usize) -> usize {
    (concurrency / 2).max(1)
}

impl Worker {
    pub fn new(pool: PgPool, registry: Arc<Registry>, concurrency: usize, poll: Duration) -> Self {
        let host =
            std::fs::read_to_string("/etc/hostname").map(|h| h.trim().to_string()).unwrap_or_else(|_| "host".into());
        let id = format!("{host}:{}:{}", std::process::id(), &Uuid::new_v4().simple().to_string()[..8]);
        Worker {
            listen_pool: pool.clone(),
            pool,
            registry,
            id,
            concurrency: concurrency.max(1),
            share: tenant_share(concurrency.max(1)),
            outbound: OUTBOUND_SLOTS,
            poll,
            lease: LEASE,
        }
    }

    /// LISTEN on `pool` instead (direct connections when the main pool is a transaction
    /// pooler, where a LISTEN would not outlive its transaction).
    pub fn with_listen_pool(mut self, pool: PgPool) -> Self {
        self.listen_pool = pool;
        self
    }

    /// Another share of the slots for one tenant than half of them (`MINICLAW_WORKER_TENANT_SHARE`;
    /// between 1 and the concurrency).
    pub fn with_tenant_share(mut self, share: usize) -> Self {
        self.share = share.clamp(1, self.concurrency);
        self
    }

    /// Another lease length than `LEASE` (at least 3 s: it is renewed every third of it).
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease.max(Duration::from_secs(3));
        self
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// Runs until `cancel` fires, then waits (bounded) for running jobs to finish.
    pub async fn run(self, cancel: CancellationToken) -> anyhow::Result<()> {
        schedule::ensure_platform(&self.pool, &self.registry).await?;
        let added = schedule::ensure_all_agents(&self.pool, &self.registry).await?;
        if added > 0 {
            tracing::info!(schedules = added, "scheduled the recurring cycles of existing agents");
        }
        tracing::info!(worker.id = %self.id, concurrency = self.concurrency, outbound = self.outbound, "worker started");

        let wake = Arc::new(Notify::new());
        let listener_task = tokio::spawn(listen(self.listen_pool.clone(), wake.clone(), cancel.clone()));
        // The general lane (a tenant holds at most its share of it) and the outbound lane (one
        // delivery at a time per receiver), each with slots of its own.
        let lanes = [
            Lane {
                kinds: self.registry.lane_kinds(false),
                permits: Arc::new(Semaphore::new(self.concurrency)),
                share: self.share as i64,
            },
            Lane { kinds: self.registry.lane_kinds(true), permits: Arc::new(Semaphore::new(self.outbound)), share: 1 },
        ];
        let mut running = JoinSet::new();
        let mut last_maintenance = Instant::now() - Duration::from_secs(60);

        while !cancel.is_cancelled() {
            if last_maintenance.elapsed() >= Duration::from_secs(1) {
                last_maintenance = Instant::now();
                if let Err(e) = self.maintenance().await {
                    tracing::warn!(error = %e, "queue maintenance failed; retrying");
                }
            }
            while running.try_join_next().is_some() {}

            for lane in lanes.iter().filter(|l| !l.kinds.is_empty()) {
                let free = lane.permits.available_permits();
                if free == 0 {
                    continue;
                }
                let domain = self.registry.domain();
                let leased = match super::fair::lease_fair(
                    &self.pool,
                    domain,
                    &self.id,
                    &lane.kinds,
                    free as i64,
                    self.lease,
                    lane.share,
                )
                .await
                {
                    Ok(jobs) => jobs,
                    Err(e) => {
                        tracing::warn!(error = %e, "leasing jobs failed; retrying");
                        Vec::new()
                    }
                };
                for job in leased {
                    let permit = lane.permits.clone().acquire_owned().await?;
                    let this = self.clone();
                    let wake = wake.clone();
                    running.spawn(async move {
                        this.execute(job).await;
                        drop(permit);
                        // A freed slot may mean more due work can be leased right away.
                        wake.notify_one();
                    });
                }
            }
            tokio::select! {
                _ = cancel.cancelled() => break,
                _ = wake.notified() => {}
                _ = tokio::time::sleep(self.poll) => {}
            }
        }

        listener_task.abort();
        let drained =
            tokio::time::timeout(SHUTDOWN_GRACE, async { while running.join_next().await.is_some() {} }).await;
        if drained.is_err() {
            tracing::warn!(
                remaining = running.len(),
                "shutdown grace elapsed; unfinished jobs return to the queue when their lease expires"
            );
        }
        tracing::info!(worker.id = %self.id, "worker stopped");
        Ok(())
    }

    async fn maintenance(&self) -> anyhow::Result<()> {
        let reclaimed = queue::reclaim_expired(&self.pool).await?;
        if reclaimed > 0 {
            tracing::warn!(count = reclaimed, "reclaimed jobs with expired leases");
        }
        schedule::tick(&self.pool, self.registry.domain(), SCHEDULE_BATCH).await?;
        Ok(())
    }

    /// Runs one leased job to its recorded outcome.
    pub async fn execute(&self, job: Job) -> Job {
        run_leased(&self.pool, &self.registry, &self.id, self.lease, job).await
    }
}

/// A job whose model call was refused (budget used up, global cap reached, kill switch on) did
/// not fail: it is done, its result says it was skipped and why, the agent's activity log says
/// so too, and it is counted in `miniclaw_jobs_skipped_total`. Retrying would only be refused
/// again; the next scheduled run tries afresh.
async fn skipped(pool: &PgPool, domain: &DomainSql, job: &Job, error: &anyhow::Error) -> Option<serde_json::Value> {
    if error.chain().any(|e| e.is::<super::registry::AgentPaused>()) {
        metrics::counter!("miniclaw_jobs_skipped_total", "kind" => job.kind.clone(), "reason" => "agent_inactive")
            .increment(1);
        return Some(serde_json::json!({ "skipped": true, "reason": "agent_inactive", "message": error.to_string() }));
    }
    let refusal = error.chain().find_map(|e| match e.downcast_ref::<crate::llm::LlmError>() {
        Some(crate::llm::LlmError::Refused(r)) => Some(r.clone()),
        _ => e.downcast_ref::<crate::llm::budget::Refusal>().cloned(),
    })?;
    use crate::llm::budget::{HeldLimit, Refusal};
    let reason = match &refusal {
        Refusal::AgentDailyTokens { .. } | Refusal::AgentTokensHeld { .. } => "agent_daily_budget",
        Refusal::TenantMonthlyDollars { .. } | Refusal::DollarsHeld { limit: HeldLimit::TenantMonth, .. } => {
            "tenant_monthly_budget"
        }
        Refusal::NewAccountDaily { .. }
        | Refusal::NewAccountBusy { .. }
        | Refusal::DollarsHeld { limit: HeldLimit::NewAccount, .. } => "new_account_allowance",
        Refusal::GlobalDailyCap { .. }
        | Refusal::NewAccountsShare { .. }
        | Refusal::DollarsHeld { limit: HeldLimit::NewAccounts | HeldLimit::Global, .. } => "global_spend_cap",
        Refusal::KillSwitch { .. } => "kill_switch",
        Refusal::KeyDaily { .. } => "key_spend_cap",
    };
    metrics::counter!("miniclaw_jobs_skipped_total", "kind" => job.kind.clone(), "reason" => reason).increment(1);
    tracing::info!(job.id = %job.id, job.kind = %job.kind, reason, "job skipped: {refusal}");
    let result = serde_json::json!({ "skipped": true, "reason": reason, "message": refusal.to_string(),
        "resets_at": refusal.reset_at() });
    if let Some(agent) = job.agent_id {
        let recorded = async {
            let mut conn = pool.acquire().await?;
            let tenant: Option<uuid::Uuid> = sqlx::query_scalar(&format!("SELECT {}", (domain.tenant)("$1")))
                .bind(agent)
                .fetch_one(&mut *conn)
                .await?;
            if let Some(tenant) = tenant {
                let origin = crate::activity::Origin::new(miniclaw_core::actor::Actor::Job(job.kind.clone()), None);
                let details =
                    serde_json::json!({ "cycle": job.kind, "reason": reason, "message": refusal.to_string() });
                crate::activity::record_agent(
                    &mut conn,
                    tenant.into(),
                    agent.into(),
                    &origin,
                    "cycle.skipped",
                    details,
                )
                .await?;
            }
            Ok::<_, sqlx::Error>(())
        };
        if let Err(e) = recorded.await {
            tracing::warn!(job.id = %job.id, error = %e, "could not record the skip in the activity log");
        }
    }
    Some(result)
}

/// Runs a job leased for `LEASE` and records done / retry / dead. Panics count as failures.
pub async fn execute(pool: &PgPool, registry: &Registry, worker_id: &str, job: Job) -> Job {
    run_leased(pool, registry, worker_id, LEASE, job).await
}

/// Runs a job leased for `lease`, renewing it while it runs, and records its outcome.
async fn run_leased(pool: &PgPool, registry: &Registry, worker_id: &str, lease: Duration, job: Job) -> Job {
    let span = tracing::info_span!(
        "job",
        otel.name = %format_args!("job {}", job.kind),
        job.kind = %job.kind,
        job.id = %job.id,
        job.attempt = job.attempts,
        agent.id = %job.agent_id.map(|a| a.to_string()).unwrap_or_default(),
    );
    run_leased_now(pool, registry, worker_id, lease, job).instrument(span).await
}

async fn run_leased_now(pool: &PgPool, registry: &Registry, worker_id: &str, lease: Duration, job: Job) -> Job {
    let lag = (job.started_at.unwrap_or_else(chrono::Utc::now) - job.run_at).num_milliseconds().max(0) as f64 / 1000.0;
    metrics::histogram!("miniclaw_job_lag_seconds", "kind" => job.kind.clone()).record(lag);

    let started = Instant::now();
    let outcome = match registry.get(&job.kind) {
        None => Err(format!("no handler for job kind `{}` in this worker", job.kind)),
        Some(cycle) => {
            let ctx = JobContext {
                pool: pool.clone(),
                job: job.clone(),
                deps: registry.deps().cloned(),
                domain: *registry.domain(),
            };
            // Paid embeddings the job makes are its agent's to pay (`embed::paid_by`).
            let payer = crate::llm::spend::Payer { agent: job.agent_id.map(AgentId), tenant: None };
            let fut = std::panic::AssertUnwindSafe(crate::embed::paid_by(payer, (cycle.handler)(ctx))).catch_unwind();
            let heartbeat = heartbeat(pool.clone(), job.id, worker_id.to_string(), lease);
            tokio::pin!(fut, heartbeat);
            let result = tokio::select! {
                r = &mut fut => r,
                _ = &mut heartbeat => Ok(Err(anyhow::anyhow!("lease lost while running"))),
            };
            match result {
                Ok(Ok(value)) => Ok(value),
                Ok(Err(e)) => match skipped(pool, registry.domain(), &job, &e).await {
                    Some(value) => Ok(value),
                    None => Err(format!("{e:#}")),
                },
                Err(panic) => Err(format!("job panicked: {}", panic_message(&panic))),
            }
        }
    };
    let elapsed = started.elapsed().as_secs_f64();

    let outcome_label = match &outcome {
        Ok(value) => match queue::complete(pool, job.id, worker_id, value).await {
            Ok(true) => "done",
            Ok(false) => "lease_lost",
            Err(e) => {
                tracing::error!(job.id = %job.id, error = %e, "could not record job completion");
                "unrecorded"
            }
        },
        Err(error) => {
            let delay = queue::retry_delay(job.attempts, rand::random_range(0.5..1.5));
            match queue::fail(pool, job.id, worker_id, error, delay).await {
                Ok(Some(status)) if status == "dead" => {
                    tracing::error!(job.id = %job.id, job.kind = %job.kind, error = %error, "job dead-lettered");
                    "dead"
                }
                Ok(Some(_)) => {
                    tracing::warn!(job.id = %job.id, job.kind = %job.kind, error = %error, retry_in_secs = delay.as_secs(), "job failed; will retry");
                    "retry"
                }
                Ok(None) => "lease_lost",
                Err(e) => {
                    tracing::error!(job.id = %job.id, error = %e, "could not record job failure");
                    "unrecorded"
                }
            }
        }
    };
    metrics::histogram!("miniclaw_job_duration_seconds", "kind" => job.kind.clone(), "outcome" => outcome_label)
        .record(elapsed);
    tracing::debug!(job.id = %job.id, job.kind = %job.kind, outcome = outcome_label, duration_ms = (elapsed * 1000.0) as u64, "job finished");
    queue::get(pool, job.id).await.ok().flatten().unwrap_or(job)
}

/// Renews the lease every third of its length; resolves only if the lease was lost.
async fn heartbeat(pool: PgPool, id: Uuid, worker: String, lease: Duration) {
    let mut every = tokio::time::interval(lease / 3);
    every.tick().await;
    loop {
        every.tick().await;
        match queue::extend_lease(&pool, id, &worker, lease).await {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => tracing::warn!(job.id = %id, error = %e, "lease renewal failed; retrying"),
        }
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".into()
    }
}

/// Forwards NOTIFYs on the jobs channel to `wake`; reconnects with a pause on failure.
async fn listen(pool: PgPool, wake: Arc<Notify>, cancel: CancellationToken) {
    while !cancel.is_cancelled() {
        let result: anyhow::Result<()> = async {
            let mut listener = PgListener::connect_with(&pool).await?;
            listener.listen(NOTIFY_CHANNEL).await?;
            loop {
                tokio::select! {
                    _ = cancel.cancelled() => return Ok(()),
                    n = listener.recv() => { n?; wake.notify_one(); }
                }
            }
        }
        .await;
        if let Err(e) = result {
            tracing::debug!(error = %e, "job listener lost its connection; polling until it reconnects");
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = tokio::time::sleep(Duration::from_secs(2)) => {}
            }
        }
    }
}

/// Leases and runs every due job, one batch at a time, until none is left. For tests and
/// operators who want "now" rather than "soon". Returns how many jobs ran.
pub async fn drain(pool: &PgPool, registry: &Registry) -> anyhow::Result<usize> {
    let worker_id = format!("drain:{}", std::process::id());
    let kinds = registry.kinds();
    let mut ran = 0;
    loop {
        queue::reclaim_expired(pool).await?;
        schedule::tick(pool, registry.domain(), SCHEDULE_BATCH).await?;
        let jobs = queue::lease(pool, &worker_id, &kinds, 50, LEASE).await?;
        if jobs.is_empty() {
            return Ok(ran);
        }
        for job in jobs {
            execute(pool, registry, &worker_id, job).await;
            ran += 1;
        }
    }
}

/// Why a cycle could not be run on demand.
#[derive(Debug, thiserror::Error)]
pub enum RunCycleError {
    #[error("unknown cycle `{name}`; known {scope} cycles: {known}")]
    Unknown { name: String, scope: &'static str, known: String },
    #[error("cycle `{name}` runs per agent; give an agent id")]
    NeedsAgent { name: String },
    #[error("cycle `{name}` is platform-wide; run it without an agent id")]
    PlatformWide { name: String },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Runs one cycle right now in this process and returns the finished job row (which holds
/// the result or the verbatim error). The run is recorded like any other job, with a single
/// attempt so a failure is visible at once instead of being retried later.
pub async fn run_cycle_now(
    pool: &PgPool,
    registry: &Registry,
    name: &str,
    agent_id: Option<AgentId>,
) -> Result<Job, RunCycleError> {
    let Some(cycle) = registry.get(name) else {
        let scope = if agent_id.is_some() { CycleScope::Agent } else { CycleScope::Platform };
        return Err(RunCycleError::Unknown {
            name: name.to_string(),
            scope: if scope == CycleScope::Agent { "agent" } else { "platform" },
            known: registry.names(scope).join(", "),
        });
    };
    match (cycle.scope, agent_id) {
        (CycleScope::Agent, None) => return Err(RunCycleError::NeedsAgent { name: name.into() }),
        (CycleScope::Platform, Some(_)) => return Err(RunCycleError::PlatformWide { name: name.into() }),
        _ => {}
    }
    let worker_id = format!("run-cycle:{}", std::process::id());
    let mut job = NewJob::new(name).max_attempts(1).payload(serde_json::json!({ "on_demand": true }));
    if let Some(a) = agent_id {
        job = job.agent(a);
    }
    let id = Uuid::now_v7();
    let leased = sqlx::query_as!(
        Job,
        "INSERT INTO jobs (id, kind, agent_id, payload, max_attempts, status, attempts, locked_by, locked_until, started_at)
         VALUES ($1, $2, $3, $4, 1, 'running', 1, $5, now() + make_interval(secs => $6), now())
         RETURNING *",
        id,
        job.kind,
        job.agent_id as _,
        job.payload,
        worker_id,
        LEASE.as_secs_f64()
    )
    .fetch_one(pool)
    .await?;
    Ok(execute(pool, registry, &worker_id, leased).await)
}
