//! The cycles the queue knows how to run. A cycle is a named kind of job with a scope
//! (per agent or platform-wide), an optional recurring interval and the code that runs it.
//! Feature modules add their cycles here; the worker only leases kinds it has a handler for.

use miniclaw_core::ids::{AgentId, TenantId};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;

use super::Job;
use crate::deps::Deps;
use crate::domain_sql::DomainSql;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CycleScope {
    /// Runs once per agent (`--agent` / `/v1/admin/agents/{id}/run/{cycle}`).
    Agent,
    /// Runs once for the whole platform.
    Platform,
}

/// A per-agent job met a paused agent (`active: false`): skipped, not failed.
#[derive(Debug, thiserror::Error)]
#[error("the agent is paused (active: false)")]
pub struct AgentPaused;

/// What a running job can reach.
#[derive(Clone)]
pub struct JobContext {
    pub pool: PgPool,
    pub job: Job,
    /// The process's services (`Registry::provide`), when it has them.
    pub deps: Option<Deps>,
    /// What the queue reads of agents (`Registry::new`).
    pub domain: DomainSql,
}

impl JobContext {
    /// The process's services, or an error naming what this process lacks.
    pub fn deps(&self) -> anyhow::Result<&Deps> {
        self.deps
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("this process has no model gateway or embedder for `{}`", self.job.kind))
    }

    /// The job's agent and its tenant, for per-agent cycles. A paused agent (`active: false`)
    /// is `AgentPaused`: the worker records the job as skipped, not failed.
    pub async fn agent(&self) -> anyhow::Result<(AgentId, TenantId)> {
        let agent = self
            .job
            .agent_id
            .map(AgentId)
            .ok_or_else(|| anyhow::anyhow!("`{}` runs per agent: give it an agent", self.job.kind))?;
        let sql = format!("SELECT {}, {}", (self.domain.tenant)("$1"), (self.domain.active)("$1"));
        let (tenant, active): (Option<uuid::Uuid>, Option<bool>) =
            sqlx::query_as(&sql).bind(agent).fetch_one(&self.pool).await?;
        let tenant = tenant.ok_or_else(|| anyhow::anyhow!("agent {agent} no longer exists"))?;
        if active != Some(true) {
            return Err(AgentPaused.into());
        }
        Ok((agent, TenantId(tenant)))
    }
}

/// The heartbeat tiers (SPEC X10, 000 §5): how often a cycle breathes, and whether it waits
/// for activity. Pulse work (health, retrieval auditing, affect) is light and runs for every
/// agent; Breath (every 30 min: decay, forgetting, fusion) and Sleep (nightly: dreams, deep
/// reflection, gap scans) are idle-gated: an agent with no new activity since its last run gets
/// no job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    Pulse,
    Breath,
    Sleep,
}

impl Tier {
    /// The tier's interval.
    pub fn interval(self) -> Duration {
        match self {
            Tier::Pulse => Duration::from_secs(5 * 60),
            Tier::Breath => Duration::from_secs(30 * 60),
            Tier::Sleep => Duration::from_secs(24 * 3600),
        }
    }

    /// Whether the tier's per-agent cycles wait for activity.
    pub fn idle_gated(self) -> bool {
        self != Tier::Pulse
    }
}

pub type Handler = Arc<dyn Fn(JobContext) -> BoxFuture<'static, anyhow::Result<serde_json::Value>> + Send + Sync>;

#[derive(Clone)]
pub struct Cycle {
    pub name: &'static str,
    pub scope: CycleScope,
    /// Recurring interval; `None` for jobs that are only enqueued on demand or by events.
    pub interval: Option<Duration>,
    pub max_attempts: i32,
    pub description: &'static str,
    /// Its heartbeat tier, when it belongs to one.
    pub tier: Option<Tier>,
    /// Per-agent slots make a job only when the agent had activity since the last one (X10).
    pub idle_gated: bool,
    /// Its jobs call out to addresses the platform does not control (webhook receivers): they
    /// run in the worker's outbound lane, with slots of their own, so a slow receiver never
    /// holds the slots other work runs in.
    pub outbound: bool,
    pub handler: Handler,
}

impl Cycle {
    pub fn new<F, Fut>(name: &'static str, scope: CycleScope, description: &'static str, f: F) -> Self
    where
        F: Fn(JobContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = anyhow::Result<serde_json::Value>> + Send + 'static,
    {
        Cycle {
            name,
            scope,
            interval: None,
            max_attempts: 5,
            description,
            tier: None,
            idle_gated: false,
            outbound: false,
            handler: Arc::new(move |ctx| Box::pin(f(ctx))),
        }
    }

    /// A platform cycle, hourly, that purges what was deleted more than `retention_days` ago and
    /// reports how many it purged.
    pub fn purge(
        name: &'static str,
        description: &'static str,
        retention_days: u32,
        purge: for<'a> fn(&'a PgPool, u32) -> BoxFuture<'a, sqlx::Result<u64>>,
    ) -> Self {
        Cycle::new(name, CycleScope::Platform, description, move |ctx: JobContext| async move {
            let purged = purge(&ctx.pool, retention_days).await?;
            Ok(serde_json::json!({ "purged": purged }))
        })
        .every(Duration::from_secs(3600))
    }

    pub fn every(mut self, interval: Duration) -> Self {
        self.interval = Some(interval);
        self
    }

    /// Puts the cycle in a heartbeat tier: the tier's interval, unless `every` set one, and its
    /// idle gate.
    pub fn tier(mut self, tier: Tier) -> Self {
        self.tier = Some(tier);
        self.interval = self.interval.or(Some(tier.interval()));
        self.idle_gated = tier.idle_gated() && self.scope == CycleScope::Agent;
        self
    }

    pub fn max_attempts(mut self, n: i32) -> Self {
        self.max_attempts = n.max(1);
        self
    }

    /// Runs the cycle's jobs in the outbound lane (see `outbound`).
    pub fn outbound(mut self) -> Self {
        self.outbound = true;
        self
    }
}

/// A public description of a cycle, for `GET /v1/admin/cycles`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CycleInfo {
    pub name: String,
    pub scope: CycleScope,
    pub interval_secs: Option<u64>,
    /// Its heartbeat tier (X10).
    pub tier: Option<Tier>,
    /// Whether an agent without new activity is skipped.
    pub idle_gated: bool,
    pub description: String,
}

impl CycleInfo {
    /// A platform cycle outside the heartbeat tiers, for cycles registered at run time.
    pub fn platform(name: &str, interval_secs: u64, description: &str) -> CycleInfo {
        CycleInfo {
            name: name.into(),
            scope: CycleScope::Platform,
            interval_secs: Some(interval_secs),
            tier: None,
            idle_gated: false,
            description: description.into(),
        }
    }
}

#[derive(Clone)]
pub struct Registry {
    cycles: BTreeMap<&'static str, Cycle>,
    deps: std::sync::OnceLock<Deps>,
    domain: DomainSql,
}

impl Registry {
    /// An empty registry whose queue reads agents through `domain`.
    pub fn new(domain: DomainSql) -> Registry {
        Registry { cycles: BTreeMap::new(), deps: std::sync::OnceLock::new(), domain }
    }

    /// What the queue reads of agents.
    pub fn domain(&self) -> &DomainSql {
        &self.domain
    }

    /// Adds (or replaces) a cycle.
    pub fn register(&mut self, cycle: Cycle) -> &mut Self {
        self.cycles.insert(cycle.name, cycle);
        self
    }

    /// Gives the cycles of this process their services (the first call wins).
    pub fn provide(&self, deps: Deps) {
        let _ = self.deps.set(deps);
    }

    pub fn deps(&self) -> Option<&Deps> {
        self.deps.get()
    }

    pub fn get(&self, name: &str) -> Option<&Cycle> {
        self.cycles.get(name)
    }

    pub fn kinds(&self) -> Vec<String> {
        self.cycles.keys().map(|k| k.to_string()).collect()
    }

    /// The kinds of one lane: the outbound cycles' (`outbound`) or all the others'.
    pub fn lane_kinds(&self, outbound: bool) -> Vec<String> {
        self.cycles.values().filter(|c| c.outbound == outbound).map(|c| c.name.to_string()).collect()
    }

    pub fn cycles(&self) -> impl Iterator<Item = &Cycle> {
        self.cycles.values()
    }

    pub fn describe(&self) -> Vec<CycleInfo> {
        self.cycles
            .values()
            .map(|c| CycleInfo {
                name: c.name.to_string(),
                scope: c.scope,
                interval_secs: c.interval.map(|d| d.as_secs()),
                tier: c.tier,
                idle_gated: c.idle_gated,
                description: c.description.to_string(),
            })
            .collect()
    }

    /// Names of the cycles with the given scope, for error messages.
    pub fn names(&self, scope: CycleScope) -> Vec<&'static str> {
        self.cycles.values().filter(|c| c.scope == scope).map(|c| c.name).collect()
    }
}
