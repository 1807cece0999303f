//! Budgets and the kill switch (SPEC M7), checked before every call, foreground or background:
//! the operator's kill switch (global or per tenant), the platform's global daily spend cap
//! (`MINICLAW_GLOBAL_DAILY_USD`), the agent's daily token budget (resets at UTC midnight; the
//! tokens held by its chat turns in progress count, see `reservations`) and the tenant's
//! optional monthly dollar budget.

use crate::domain_sql::DomainSql;
use chrono::{DateTime, Datelike, Duration, TimeZone, Utc};
use miniclaw_core::ids::{AgentId, TenantId};
use sqlx::PgPool;

/// Why a call may not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    #[error("the agent's daily token budget of {budget} is used up; it resets at {reset_at}")]
    AgentDailyTokens { budget: i64, used: i64, reset_at: DateTime<Utc> },
    /// What the agent has used is below its budget, but the rest is held by its chat turns in
    /// progress: once they end, what they did not use is free again.
    #[error(
        "the rest of the agent's daily token budget of {budget} is held by replies in progress; retry in a few seconds"
    )]
    AgentTokensHeld { budget: i64, used: i64 },
    #[error("the tenant's monthly budget of ${budget:.2} is used up; it resets at {reset_at}")]
    TenantMonthlyDollars { budget: f64, spent: f64, reset_at: DateTime<Utc> },
    #[error("the platform's daily model spending limit is reached; model calls resume at {reset_at}")]
    GlobalDailyCap { cap: f64, spent: f64, reset_at: DateTime<Utc> },
    #[error("model calls are paused by the operator {}{}", paused_for(scope), reason_suffix(reason))]
    KillSwitch { scope: String, reason: String },
}

fn paused_for(scope: &str) -> &'static str {
    if scope == "global" { "for the whole platform" } else { "for this account" }
}

fn reason_suffix(reason: &str) -> String {
    if reason.trim().is_empty() { String::new() } else { format!(": {}", reason.trim()) }
}

/// Seconds to wait before asking again after `AgentTokensHeld` (turns usually end sooner).
pub const HELD_RETRY_SECS: u64 = 5;

impl Refusal {
    /// When the limit resets by itself (none for the kill switch and held tokens).
    pub fn reset_at(&self) -> Option<DateTime<Utc>> {
        match self {
            Refusal::AgentDailyTokens { reset_at, .. }
            | Refusal::TenantMonthlyDollars { reset_at, .. }
            | Refusal::GlobalDailyCap { reset_at, .. } => Some(*reset_at),
            Refusal::KillSwitch { .. } | Refusal::AgentTokensHeld { .. } => None,
        }
    }

    /// The stable code clients and job results see: `budget_exhausted` for the caller's own
    /// budgets, `global_spend_cap` and `kill_switch` for the operator's limits.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::AgentDailyTokens { .. }
            | Refusal::AgentTokensHeld { .. }
            | Refusal::TenantMonthlyDollars { .. } => "budget_exhausted",
            Refusal::GlobalDailyCap { .. } => "global_spend_cap",
            Refusal::KillSwitch { .. } => "kill_switch",
        }
    }
}

pub fn next_utc_midnight(now: DateTime<Utc>) -> DateTime<Utc> {
    let today = now.date_naive().and_hms_opt(0, 0, 0).expect("midnight exists");
    Utc.from_utc_datetime(&today) + Duration::days(1)
}

pub fn next_month_start(now: DateTime<Utc>) -> DateTime<Utc> {
    let (y, m) = if now.month() == 12 { (now.year() + 1, 1) } else { (now.year(), now.month() + 1) };
    Utc.with_ymd_and_hms(y, m, 1, 0, 0, 0).single().expect("first of month exists")
}

/// The limits a call is judged against (`limits_sql` reads them).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Limits {
    pub switch_scope: Option<String>,
    pub switch_reason: Option<String>,
    /// The global daily cap in dollars (`None`: off) and the platform's spend today.
    pub global_cap: Option<f64>,
    pub global_spent: Option<f64>,
    pub agent_budget: Option<i32>,
    /// Tokens the agent's calls used today, and tokens its chat turns in progress hold.
    pub used: Option<i64>,
    pub reserved: Option<i64>,
    pub tenant_budget: Option<f64>,
    pub spent: Option<f64>,
}

/// Select items reading the `Limits` of agent `agent` and tenant `tenant` at time `now` under
/// the global cap `cap` (all SQL expressions; `cap` a float8, NULL when off): the kill switches
/// (global and the tenant's), the platform's spend today, the agent's budget with today's used
/// and held tokens, the tenant's budget and this month's total — all primary-key lookups. The
/// budgets themselves are the agent's and the tenant's settings, read through `domain`.
pub fn limits_sql(domain: &DomainSql, agent: &str, tenant: &str, now: &str, cap: &str) -> String {
    let agent_budget = (domain.daily_token_budget)(agent);
    let tenant_budget = (domain.monthly_budget_usd)(tenant);
    format!(
        "(SELECT scope FROM llm_kill_switches WHERE scope IN ('global', 'tenant:' || {tenant}::text)
           ORDER BY scope = 'global' DESC LIMIT 1) AS switch_scope,
         (SELECT reason FROM llm_kill_switches WHERE scope IN ('global', 'tenant:' || {tenant}::text)
           ORDER BY scope = 'global' DESC LIMIT 1) AS switch_reason,
         {cap}::float8 AS global_cap,
         (SELECT sum(cost_usd) FROM llm_platform_daily_usage
           WHERE {cap}::float8 IS NOT NULL AND day = ({now} AT TIME ZONE 'UTC')::date) AS global_spent,
         {agent_budget} AS agent_budget,
         (SELECT tokens FROM llm_agent_daily_usage WHERE agent_id = {agent} AND day = ({now} AT TIME ZONE 'UTC')::date) AS used,
         (SELECT reserved FROM llm_agent_daily_usage WHERE agent_id = {agent} AND day = ({now} AT TIME ZONE 'UTC')::date) AS reserved,
         {tenant_budget} AS tenant_budget,
         (SELECT cost_usd FROM llm_tenant_monthly_usage
           WHERE tenant_id = {tenant} AND month = date_trunc('month', {now} AT TIME ZONE 'UTC')::date) AS spent"
    )
}

/// `judge`'s rules as an SQL condition over the columns of `limits_sql`, for statements that
/// store work only when it may run. The agent's budget is read from the statement's snapshot
/// here; a statement that reserves tokens checks it again on the locked usage row
/// (`reservations::reserve_sql`).
pub const WITHIN_SQL: &str = "switch_scope IS NULL
    AND (global_cap IS NULL OR coalesce(global_spent, 0) < global_cap)
    AND (agent_budget IS NULL OR coalesce(used, 0) + coalesce(reserved, 0) < agent_budget)
    AND (tenant_budget IS NULL OR coalesce(spent, 0) < tenant_budget)";

/// Checks every limit that applies; `Ok(())` when the call may go ahead. `global_cap`: the
/// global daily cap in dollars, `None` when off.
pub async fn check(
    pool: &PgPool,
    domain: &DomainSql,
    agent_id: Option<AgentId>,
    tenant_id: Option<TenantId>,
    global_cap: Option<f64>,
) -> Result<Result<(), Refusal>, sqlx::Error> {
    let limits = limits(pool, domain, agent_id, tenant_id, global_cap).await?;
    Ok(judge(limits, Utc::now()))
}

/// The `Limits` of an agent and tenant now (one query).
pub async fn limits(
    pool: &PgPool,
    domain: &DomainSql,
    agent_id: Option<AgentId>,
    tenant_id: Option<TenantId>,
    global_cap: Option<f64>,
) -> sqlx::Result<Limits> {
    // Built at run time: `limits_sql` is shared with the statement that starts a chat turn.
    sqlx::query_as(&format!("SELECT {}", limits_sql(domain, "$1", "$2", "now()", "$3")))
        .bind(agent_id)
        .bind(tenant_id)
        .bind(global_cap)
        .fetch_one(pool)
        .await
}

/// Whether a call within `limits` may go ahead at `now`, or why not: the operator's limits
/// first (kill switch, global cap), then the agent's and the tenant's budgets.
pub fn judge(limits: Limits, now: DateTime<Utc>) -> Result<(), Refusal> {
    let Limits {
        switch_scope,
        switch_reason,
        global_cap,
        global_spent,
        agent_budget,
        used,
        reserved,
        tenant_budget,
        spent,
    } = limits;
    if let Some(scope) = switch_scope {
        return Err(Refusal::KillSwitch { scope, reason: switch_reason.unwrap_or_default() });
    }
    if let Some(cap) = global_cap {
        let spent = global_spent.unwrap_or(0.0);
        if spent >= cap {
            return Err(Refusal::GlobalDailyCap { cap, spent, reset_at: next_utc_midnight(now) });
        }
    }
    if let Some(budget) = agent_budget.map(i64::from) {
        let used = used.unwrap_or(0);
        if used >= budget {
            return Err(Refusal::AgentDailyTokens { budget, used, reset_at: next_utc_midnight(now) });
        }
        if used + reserved.unwrap_or(0) >= budget {
            return Err(Refusal::AgentTokensHeld { budget, used });
        }
    }
    if let Some(budget) = tenant_budget {
        let spent = spent.unwrap_or(0.0);
        if spent >= budget {
            return Err(Refusal::TenantMonthlyDollars { budget, spent, reset_at: next_month_start(now) });
        }
    }
    Ok(())
}

/// Turns the kill switch on for `tenant` (or globally with `None`): every model call of that
/// scope is refused, chat turns (503) and background work (skipped) alike.
pub async fn kill(pool: &PgPool, tenant: Option<TenantId>, reason: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO llm_kill_switches (scope, reason) VALUES ($1, $2) ON CONFLICT (scope) DO UPDATE SET reason = EXCLUDED.reason",
        scope_of(tenant),
        reason
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Turns it off again; false if it was not on.
pub async fn revive(pool: &PgPool, tenant: Option<TenantId>) -> sqlx::Result<bool> {
    Ok(sqlx::query!("DELETE FROM llm_kill_switches WHERE scope = $1", scope_of(tenant))
        .execute(pool)
        .await?
        .rows_affected()
        == 1)
}

pub async fn switches(pool: &PgPool) -> sqlx::Result<Vec<(String, String, DateTime<Utc>)>> {
    Ok(sqlx::query!("SELECT scope, reason, created_at FROM llm_kill_switches ORDER BY scope")
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|s| (s.scope, s.reason, s.created_at))
        .collect())
}

fn scope_of(tenant: Option<TenantId>) -> String {
    tenant.map(|t| format!("tenant:{t}")).unwrap_or_else(|| "global".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_times() {
        let t = Utc.with_ymd_and_hms(2026, 12, 31, 23, 59, 0).unwrap();
        assert_eq!(next_utc_midnight(t), Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap());
        assert_eq!(next_month_start(t), Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap());
        let t = Utc.with_ymd_and_hms(2026, 11, 22, 0, 0, 0).unwrap();
        assert_eq!(next_utc_midnight(t), Utc.with_ymd_and_hms(2026, 11, 23, 0, 0, 0).unwrap());
        assert_eq!(next_month_start(t), Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap());
    }

    #[test]
    fn the_operators_limits_come_first_and_held_tokens_count() {
        let now = Utc::now();
        let agent = Limits { agent_budget: Some(1_000), used: Some(900), reserved: Some(100), ..Limits::default() };
        assert_eq!(judge(agent.clone(), now), Err(Refusal::AgentTokensHeld { budget: 1_000, used: 900 }));
        assert!(judge(Limits { reserved: Some(99), ..agent.clone() }, now).is_ok());
        let capped = Limits { global_cap: Some(50.0), global_spent: Some(50.0), ..agent.clone() };
        assert_eq!(judge(capped.clone(), now).unwrap_err().code(), "global_spend_cap");
        let killed = Limits { switch_scope: Some("tenant:x".into()), switch_reason: Some("abuse".into()), ..capped };
        let refusal = judge(killed, now).unwrap_err();
        assert_eq!(refusal.code(), "kill_switch");
        assert_eq!(refusal.to_string(), "model calls are paused by the operator for this account: abuse");
        assert!(judge(Limits { global_cap: Some(50.0), global_spent: Some(49.9), ..Limits::default() }, now).is_ok());
    }
}
