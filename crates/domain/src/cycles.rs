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
    all.push(crate::channels::telegram::answer_cycle());
    all.push(crate::channels::telegram::notify_cycle());
    all.extend(crate::channels::notifications::cycles());
    all.extend(crate::channels::proactive::cycles());
    all.extend(crate::channels::webhooks::deliver::cycles());
    all.extend(crate::social::feed::digest::cycles());
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

async fn pipeline_health(ctx: JobContext) -> anyhow::Result<serde_json::Value> {
    let q = queue::stats(&ctx.pool).await?;
    let finished_last_hour = queue::finished_last_hour(&ctx.pool).await?;
    tracing::info!(
        queue.due = q.due,
        queue.running = q.running,
        queue.dead = q.dead,
        queue.lag_secs = q.oldest_due_lag_secs,
        jobs.finished_last_hour = finished_last_hour,
        "pipeline health"
    );
    Ok(json!({ "queue": q, "jobs_finished_last_hour": finished_last_hour }))
}
