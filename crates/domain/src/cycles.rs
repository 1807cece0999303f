//! Every cycle the platform ships: each area's own (reflection, lint, dossier, ...) and the
//! platform-wide maintenance cycles, in `all()`; `builtin()` is the registry of them.

use std::time::Duration;

use serde_json::json;

use miniclaw_platform::jobs::queue;
use miniclaw_platform::jobs::registry::{Cycle, CycleScope, JobContext, Registry};

const HOUR: Duration = Duration::from_secs(3600);

/// A registry of every cycle the platform ships.
pub fn builtin() -> Registry {
    let mut r = Registry::new(crate::runtime::SQL);
    for c in all() {
        r.register(c);
    }
    r
}

pub fn all() -> Vec<Cycle> {
    let mut all = crate::cognition::cycles();
    all.extend(crate::chat::calibrate::cycles());
    all.push(crate::chat::import::cycle());
    all.extend(crate::onchain::identity::jobs::cycles());
    all.extend(crate::onchain::wallets::send::cycles());
    all.extend(crate::onchain::economy::onchain::cycles());
    all.extend(crate::onchain::poc::cycles());
    all.extend(crate::analytics::rollup::cycles());
    all.extend(crate::analytics::snapshots::cycles());
    all.extend(crate::analytics::quality::cycles());
    all.extend(crate::cognition::timeline::cycles());
    all.extend(crate::channels::outreach::delivery::cycles());
    all.push(crate::channels::outreach::inbound::cycle());
    all.push(crate::channels::outreach::suggest::cycle());
    all.push(crate::channels::telegram::answer_cycle());
    all.push(crate::channels::telegram::notify_cycle());
    all.extend(crate::channels::notifications::cycles());
    all.extend(crate::channels::proactive::cycles());
    all.extend(crate::channels::webhooks::deliver::cycles());
    all.extend(crate::social::feed::digest::cycles());
    all.push(crate::tenancy::verify::cycle());
    all.extend([
        crate::chat::stream::sweep_cycle(crate::chat::STALE_STREAM_SECS as u32),
        Cycle::new(
            "job_retention",
            CycleScope::Platform,
            "Deletes finished jobs older than 7 days and dead-lettered jobs older than 30 days.",
            job_retention,
        )
        .every(24 * HOUR),
        Cycle::new(
            "pipeline_health",
            CycleScope::Platform,
            "Logs aggregate platform health: queue depth, lag and dead letters.",
            pipeline_health,
        )
        .every(HOUR),
        Cycle::new(
            "idempotency_retention",
            CycleScope::Platform,
            "Deletes idempotency keys past their 24 hours.",
            |ctx: JobContext| async move {
                let deleted = miniclaw_platform::idempotency::purge(&ctx.pool).await?;
                Ok(json!({ "deleted": deleted }))
            },
        )
        .every(HOUR),
        Cycle::new(
            "llm_usage_retention",
            CycleScope::Platform,
            "Deletes LLM usage logs older than 30 days.",
            |ctx: JobContext| async move {
                let deleted = miniclaw_platform::llm::usage::delete_older_than_30_days(&ctx.pool).await?;
                Ok(json!({ "deleted": deleted }))
            },
        )
        .every(24 * HOUR),
        Cycle::new(
            "memory_expiry",
            CycleScope::Platform,
            "Deletes memories past their expiry date, keeping a version of each (R5).",
            |ctx: JobContext| async move {
                let deleted = crate::memory::delete_expired(&ctx.pool).await?;
                Ok(json!({ "deleted": deleted }))
            },
        )
        .every(24 * HOUR),
        Cycle::new(
            "memory_prune",
            CycleScope::Platform,
            "Deletes memories that forgetting archived more than 90 days ago, with their relations (X2).",
            |ctx: JobContext| async move {
                let deleted = crate::memory::lifecycle::prune(&ctx.pool).await?;
                Ok(json!({ "deleted": deleted }))
            },
        )
        .every(24 * HOUR),
        Cycle::new(
            "memory_index",
            CycleScope::Platform,
            "Gives agents with 20,000+ memories their own vector index (built concurrently) and drops the indexes of deleted agents.",
            |ctx: JobContext| async move {
                let report =
                    crate::memory::vector::ensure_agent_indexes(&ctx.pool, crate::memory::vector::AGENT_INDEX_MIN).await?;
                Ok(json!(report))
            },
        )
        .every(HOUR),
        Cycle::new(
            "memory_hits",
            CycleScope::Platform,
            "Folds recorded retrievals and chat mentions into the memories (access counts, mention counts, last used): the retrieval audit of the pulse.",
            |ctx: JobContext| async move {
                let touched = crate::memory::fold_hits(&ctx.pool).await?;
                Ok(json!({ "memories": touched }))
            },
        )
        .every(std::time::Duration::from_secs(60))
        .tier(miniclaw_platform::jobs::Tier::Pulse),
        Cycle::new(
            "memory_graph",
            CycleScope::Platform,
            "Grows the traversal graphs (X5) of agents whose memories or retrievals changed: edges between neighbouring knowledge chunks, related memories, memories sharing a rare name, and memories retrieved together; learned weights are kept.",
            |ctx: JobContext| async move {
                let mut grown = Vec::new();
                for agent in crate::memory::graph::stale_graphs(&ctx.pool, 50).await? {
                    let mut conn = ctx.pool.acquire().await?;
                    let g = crate::memory::graph::grow(&mut conn, agent).await?;
                    grown.push(json!({ "agent_id": agent, "added": g }));
                }
                Ok(json!({ "agents": grown }))
            },
        )
        .every(std::time::Duration::from_secs(60))
        .tier(miniclaw_platform::jobs::Tier::Pulse),
    ]);
    all
}

async fn job_retention(ctx: JobContext) -> anyhow::Result<serde_json::Value> {
    let (done, dead) = queue::prune_finished(&ctx.pool).await?;
    Ok(json!({ "deleted_done": done, "deleted_dead": dead }))
}

/// The platform's last hour: memories written, extractions, summaries, reflections and the
/// other jobs that ended (done and dead-lettered), failed replies, and the queue now. Logged,
/// and kept as the job's result: `GET /v1/admin/jobs?kind=pipeline_health&status=done` lists
/// the hours.
async fn pipeline_health(ctx: JobContext) -> anyhow::Result<serde_json::Value> {
    let pool = &ctx.pool;
    let hour_ago = chrono::Utc::now() - chrono::Duration::hours(1);
    let since = uuid::Uuid::new_v7(uuid::Timestamp::from_unix(
        uuid::NoContext,
        hour_ago.timestamp().max(0) as u64,
        hour_ago.timestamp_subsec_nanos(),
    ));
    let q = queue::stats(pool).await?;
    let finished_last_hour = queue::finished_last_hour(pool).await?;
    let by_kind = queue::ended_last_hour_by_kind(pool).await?;
    let (created, replaced, forgotten) = crate::memory::writes_since(pool, since).await?;
    let failed_replies = crate::chat::records::failed_replies_since(pool, since).await?;
    let of = |kinds: &[&str]| -> (i64, i64) {
        by_kind
            .iter()
            .filter(|(k, ..)| kinds.contains(&k.as_str()))
            .fold((0, 0), |(d, x), (_, done, dead)| (d + done, x + dead))
    };
    let (extractions, extractions_dead) = of(&[crate::chat::calibrate::EXTRACT_JOB]);
    let (summaries, summaries_dead) = of(&[crate::chat::calibrate::SUMMARY_JOB]);
    let (reflections, reflections_dead) = of(&["reflection"]);
    let dead: i64 = by_kind.iter().map(|(_, _, dead)| dead).sum();
    tracing::info!(
        queue.due = q.due,
        queue.dead = q.dead,
        queue.lag_secs = q.oldest_due_lag_secs,
        memories.created = created,
        extractions,
        reflections,
        failures.replies = failed_replies,
        failures.jobs = dead,
        "pipeline health, last hour"
    );
    Ok(json!({
        "window": "1h",
        "memories": { "created": created, "replaced": replaced, "forgotten": forgotten },
        "extractions": { "done": extractions, "dead": extractions_dead },
        "summaries": { "done": summaries, "dead": summaries_dead },
        "reflections": { "done": reflections, "dead": reflections_dead },
        "failures": { "replies": failed_replies, "jobs_dead_lettered": dead },
        "jobs_by_kind": by_kind.iter().map(|(k, done, dead)| json!({ "kind": k, "done": done, "dead": dead })).collect::<Vec<_>>(),
        "jobs_finished_last_hour": finished_last_hour,
        "queue": q,
    }))
}
