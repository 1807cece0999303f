//! Budgets and the kill switch (SPEC M7), checked before every call: the agent's daily token
//! budget (resets at UTC midnight), the tenant's optional monthly dollar budget, and for
//! background work the operator's kill switch (global or per tenant).

use crate::ids::{AgentId, TenantId};
use chrono::{DateTime, Datelike, Duration, TimeZone, Utc};
use sqlx::PgPool;

/// Why a call may not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    #[error("the agent's daily token budget of {budget} is used up; it resets at {reset_at}")]
    AgentDailyTokens { budget: i64, used: i64, reset_at: DateTime<Utc> },
    #[error("the tenant's monthly budget of ${budget:.2} is used up; it resets at {reset_at}")]
    TenantMonthlyDollars { budget: f64, spent: f64, reset_at: DateTime<Utc> },
    #[error("background LLM work is paused by the operator ({scope}): {reason}")]
    KillSwitch { scope: String, reason: String },
}

impl Refusal {
    pub fn reset_at(&self) -> Option<DateTime<Utc>> {
        match self {
            Refusal::AgentDailyTokens { reset_at, .. } | Refusal::TenantMonthlyDollars { reset_at, .. } => {
                Some(*reset_at)
            }
            Refusal::KillSwitch { .. } => None,
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
    pub agent_budget: Option<i32>,
    pub used: Option<i64>,
    pub tenant_budget: Option<f64>,
    pub spent: Option<f64>,
}

/// Select items reading the `Limits` of agent `agent` and tenant `tenant` at time `now`, with the
/// kill switches of `scopes` when `background` (all SQL expressions): the kill switch, the
/// agent's budget and today's total, the tenant's budget and this month's total — all
/// primary-key lookups.
pub fn limits_sql(agent: &str, tenant: &str, scopes: &str, now: &str, background: &str) -> String {
    format!(
        "(SELECT scope FROM llm_kill_switches WHERE {background} AND scope = ANY({scopes})
           ORDER BY scope = 'global' DESC LIMIT 1) AS switch_scope,
         (SELECT reason FROM llm_kill_switches WHERE {background} AND scope = ANY({scopes})
           ORDER BY scope = 'global' DESC LIMIT 1) AS switch_reason,
         (SELECT daily_token_budget FROM agents WHERE id = {agent}) AS agent_budget,
         (SELECT tokens FROM llm_agent_daily_usage WHERE agent_id = {agent} AND day = ({now} AT TIME ZONE 'UTC')::date) AS used,
         (SELECT monthly_budget_usd FROM tenants WHERE id = {tenant}) AS tenant_budget,
         (SELECT cost_usd FROM llm_tenant_monthly_usage
           WHERE tenant_id = {tenant} AND month = date_trunc('month', {now} AT TIME ZONE 'UTC')::date) AS spent"
    )
}

/// `judge`'s budget rules as an SQL condition over the columns of `limits_sql` (the kill switch
/// aside), for statements that store work only when it is within budget.
pub const WITHIN_SQL: &str = "(agent_budget IS NULL OR coalesce(used, 0) < agent_budget) AND (tenant_budget IS NULL OR coalesce(spent, 0) < tenant_budget)";

/// Checks every limit that applies; `Ok(())` when the call may go ahead.
pub async fn check(
    pool: &PgPool,
    agent_id: Option<AgentId>,
    tenant_id: Option<TenantId>,
    background: bool,
) -> Result<Result<(), Refusal>, sqlx::Error> {
    let now = Utc::now();
    let scopes = vec!["global".to_string(), tenant_id.map(|t| format!("tenant:{t}")).unwrap_or_default()];
    // Built at run time: `limits_sql` is shared with the statement that starts a chat turn.
    let limits: Limits = sqlx::query_as(&format!("SELECT {}", limits_sql("$1", "$2", "$3", "$4", "$5")))
        .bind(agent_id)
        .bind(tenant_id)
        .bind(&scopes)
        .bind(now)
        .bind(background)
        .fetch_one(pool)
        .await?;
    Ok(judge(limits, now))
}

/// Whether a call within `limits` may go ahead at `now`, or why not.
pub fn judge(limits: Limits, now: DateTime<Utc>) -> Result<(), Refusal> {
    let Limits { switch_scope, switch_reason, agent_budget, used, tenant_budget, spent } = limits;
    if let Some(scope) = switch_scope {
        return Err(Refusal::KillSwitch { scope, reason: switch_reason.unwrap_or_default() });
    }
    if let Some(budget) = agent_budget {
        let used = used.unwrap_or(0);
        if used >= budget as i64 {
            return Err(Refusal::AgentDailyTokens { budget: budget as i64, used, reset_at: next_utc_midnight(now) });
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

/// Turns the kill switch on for `tenant` (or globally with `None`).
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
}
