//! The cognition cycles (SPEC C1–C6): deep reflection, the knowledge dossier, memory lint and
//! consolidation as recurring per-agent jobs on the queue. Each
//! works with the offline engine (deterministic rules, documented in `miniclaw-offline`) and with a
//! real model through the gateway.

pub mod actions;
pub mod affect;
pub mod dossier;
pub mod dreams;
pub mod fusion;
pub mod ledger;
pub mod lint;
mod mentor;
pub mod mirror;
pub mod portable;
pub mod recovery;
pub mod reflection;
pub mod signals;
pub mod soul;
pub mod tasks;
pub mod timeline;

use miniclaw_core::ids::{AgentId, TenantId};
use std::time::Duration;

use serde_json::json;

use crate::memory::lifecycle;
use crate::tenancy::auth::Actor;
use miniclaw_core::vocabulary::ReflectionTrigger;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext, Tier};

const HOUR: Duration = Duration::from_secs(3600);

fn job_origin(ctx: &JobContext) -> Origin {
    Origin::new(Actor::Job(ctx.job.kind.clone()), None)
}

/// Whether a job was enqueued on demand (`run-cycle`, the admin route, the API trigger).
fn on_demand(ctx: &JobContext) -> bool {
    ctx.job.payload.get("on_demand").and_then(serde_json::Value::as_bool) == Some(true)
}

/// The `dossier` job, and the subscription to lost memories (`memory::FORGOTTEN_JOB`).
async fn compile_dossier(ctx: JobContext) -> anyhow::Result<serde_json::Value> {
    miniclaw_platform::jobs::queue::release_pending(&ctx.pool, ctx.job.id).await?;
    let (agent, tenant) = ctx.agent().await?;
    match dossier::compile(ctx.deps()?, tenant, agent, &job_origin(&ctx), true).await? {
        Some(d) => Ok(json!({ "compiled": true, "memories": d.memories, "words": d.words })),
        None => Ok(json!({ "compiled": false, "reason": "no live memories" })),
    }
}

/// The per-agent cycles of this module.
pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            "reflection",
            CycleScope::Agent,
            "Deep reflection (C2): memory actions, calibration profile, clarity, soul rewrite, tasks. Needs 10 memories and 5 conversations; 24 h cooldown.",
            |ctx: JobContext| async move {
                let (agent, tenant) = ctx.agent().await?;
                            if let Some(reason) = reflection::not_ready(&ctx.pool, agent, !on_demand(&ctx)).await? {
                    return Ok(json!({ "skipped": true, "reason": reason }));
                }
                let trigger = if on_demand(&ctx) { ReflectionTrigger::Admin } else { ReflectionTrigger::Schedule };
                let r = reflection::run(ctx.deps()?, tenant, agent, &job_origin(&ctx), trigger).await?;
                Ok(json!(r))
            },
        )
        .every(12 * HOUR)
        .tier(Tier::Sleep)
        .max_attempts(2),
        Cycle::new(
            "dossier",
            CycleScope::Agent,
            "Compiles the knowledge dossier (C4); queued 60 s after extraction changes memories (at most 5 min late).",
            compile_dossier,
        ),
        Cycle::new(
            crate::memory::FORGOTTEN_JOB,
            CycleScope::Agent,
            "Recompiles the dossier after memories were deleted or expired (its text may quote them); debounced like `dossier`.",
            compile_dossier,
        ),
        Cycle::new(
            "consolidation",
            CycleScope::Agent,
            "Every 6 h (C6): folds exact duplicates and recompiles the dossier when memories changed since the last compilation.",
            |ctx: JobContext| async move {
                let (agent, tenant) = ctx.agent().await?;
                            let folded = consolidate(&ctx, tenant, agent).await?;
                let stale = !matches!(dossier::get(&ctx.pool, agent).await?, Some(d) if d.fresh);
                let compiled = if stale {
                    dossier::compile(ctx.deps()?, tenant, agent, &job_origin(&ctx), true).await?.is_some()
                } else {
                    false
                };
                Ok(json!({ "duplicates_folded": folded, "dossier_recompiled": compiled }))
            },
        )
        .every(6 * HOUR),
        Cycle::new(
            "lint",
            CycleScope::Agent,
            "Memory lint (C5), daily: merges, deprecations, recategorisations, contradictions, knowledge gaps. Needs 5 memories.",
            |ctx: JobContext| async move {
                let (agent, tenant) = ctx.agent().await?;
                            if !on_demand(&ctx) {
                    // 0–10 s of jitter on top of the schedule's spread (C5).
                    let jitter = rand::random_range(0..10_000u64);
                    tokio::time::sleep(Duration::from_millis(jitter)).await;
                }
                let r = lint::run(ctx.deps()?, tenant, agent, &job_origin(&ctx)).await?;
                Ok(json!(r))
            },
        )
        .every(24 * HOUR)
        .tier(Tier::Sleep),
        Cycle::new(
            "breath",
            CycleScope::Agent,
            "Breath (X2, X10), every 30 min for agents with new activity: moves memories between active and dormant by prominence, forgets learned memories whose prominence and utility faded (archived, restorable for 90 days), fuses dormant clusters.",
            breath,
        )
        .tier(Tier::Breath)
        .max_attempts(2),
        Cycle::new(
            "dreams",
            CycleScope::Agent,
            "Dreams (X4, X10), nightly for agents with new activity: NREM consolidation (fusion over prominence 0.05-0.8, across categories), then REM exploration (connections judged by `dream_judge` become `extends` relations). A failing phase does not stop the other.",
            |ctx: JobContext| async move {
                let (agent, tenant) = ctx.agent().await?;
                let report = dreams::run(ctx.deps()?, tenant, agent, &job_origin(&ctx)).await;
                Ok(json!(report))
            },
        )
        .tier(Tier::Sleep)
        .max_attempts(2),
        Cycle::new(
            "mirror",
            CycleScope::Agent,
            "The mirror (X11), nightly for agents with new activity: hot memories, gaps, friction and co-access from 30 days of access events; pins memories used 5+ times across 3+ conversations, splits hot memories without structure, asks the owner to review a pinned context over 4,000 characters.",
            |ctx: JobContext| async move {
                let (agent, tenant) = ctx.agent().await?;
                Ok(json!(mirror::run(ctx.deps()?, tenant, agent, &job_origin(&ctx)).await?))
            },
        )
        .tier(Tier::Sleep)
        .max_attempts(2),
        Cycle::new(
            "access_retention",
            CycleScope::Platform,
            "Deletes memory access events older than 30 days (X11).",
            |ctx: JobContext| async move { Ok(json!({ "deleted": mirror::retention(&ctx.pool).await? })) },
        )
        .every(24 * HOUR),
        Cycle::new(
            ledger::JOB,
            CycleScope::Agent,
            "Live state (X9): records the sessions that ended (no message for 30 min) in the session ledger, each with a summary, and saves the agent's coordinates. Queued by `ledger_sweep`.",
            |ctx: JobContext| async move {
                miniclaw_platform::jobs::queue::release_pending(&ctx.pool, ctx.job.id).await?;
                let (agent, tenant) = ctx.agent().await?;
                Ok(json!(ledger::record(ctx.deps()?, tenant, agent).await?))
            },
        )
        .max_attempts(3),
        Cycle::new(
            ledger::SWEEP,
            CycleScope::Platform,
            "Queues `live_state` for agents whose last session ended after their live state was saved (pulse tier).",
            |ctx: JobContext| async move { Ok(json!({ "queued": ledger::sweep(&ctx.pool).await? })) },
        )
        .every(Duration::from_secs(5 * 60))
        .tier(Tier::Pulse),
    ]
}

/// One breath of an agent's memories (X2): tiers, forgetting, then fusion (its failure is
/// reported, the tiers and forgetting stay done).
async fn breath(ctx: JobContext) -> anyhow::Result<serde_json::Value> {
    let (agent, tenant) = ctx.agent().await?;
    let origin = job_origin(&ctx);
    let mut tx = ctx.pool.begin().await?;
    let tiers = lifecycle::retier(&mut tx, agent).await?;
    let faded = lifecycle::fade(&mut tx, agent, &origin).await?;
    tx.commit().await?;
    let fusion: dreams::Phase<fusion::FusionReport> =
        fusion::run(ctx.deps()?, tenant, agent, &origin, &fusion::BREATH).await.into();
    Ok(json!({ "tiers": tiers, "faded": faded.iter().map(|m| m.id).collect::<Vec<_>>(), "fusion": fusion }))
}

/// Folds live memories with the same normalised text into the oldest one (mentions summed).
async fn consolidate(ctx: &JobContext, tenant: TenantId, agent: AgentId) -> anyhow::Result<usize> {
    let mut tx = ctx.pool.begin().await?;
    let snapshot = actions::snapshot(&mut tx, agent, 10_000).await?;
    let mut first: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut merges = Vec::new();
    // The snapshot is newest first: walk it oldest first so the oldest copy is kept.
    for i in (0..snapshot.len()).rev() {
        let key = format!("{}\u{0}{}", snapshot[i].category, crate::memory::normalize(&snapshot[i].content));
        match first.get(&key) {
            Some(&keep) => merges.push(actions::Action::Merge { keep, remove: i, content: None }),
            None => {
                first.insert(key, i);
            }
        }
    }
    let n = merges.len();
    if n > 0 {
        let origin = job_origin(ctx);
        let by = actions::Applying {
            tenant_id: tenant,
            agent_id: agent,
            origin: &origin,
            activity: "memory.consolidated",
            reason: "consolidation",
        };
        actions::apply(&mut tx, &by, &snapshot, &merges).await?;
    }
    tx.commit().await?;
    Ok(n)
}
