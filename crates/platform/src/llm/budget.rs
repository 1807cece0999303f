//! Budgets and the kill switch (SPEC M7), checked before every call, foreground or background:
//! the operator's kill switch (global or per tenant), the platform's global daily spend cap
//! (`MINICLAW_GLOBAL_DAILY_USD`), the agent's daily token budget (resets at UTC midnight; the
//! tokens held by its chat turns in progress count, see `reservations`), the tenant's optional
//! monthly dollar budget, and, while an account is new (its owner's email unverified, or younger
//! than `MINICLAW_NEW_ACCOUNT_DAYS`), its daily allowance (`MINICLAW_NEW_ACCOUNT_DAILY_USD`) and
//! the new accounts' share of the global cap (`MINICLAW_NEW_ACCOUNTS_SHARE`): throwaway accounts
//! cannot spend the platform's day for everyone.

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
    #[error("the platform's daily spending limit is reached; paid work resumes at {reset_at}")]
    GlobalDailyCap { cap: f64, spent: f64, reset_at: DateTime<Utc> },
    #[error("model calls are paused by the operator {}{}", paused_for(scope), reason_suffix(reason))]
    KillSwitch { scope: String, reason: String },
    /// A new account's own daily allowance is used up.
    #[error(
        "a new account may spend ${cap:.2} a day on model calls and other paid work until its email is verified and it is {days} days old; it resets at {reset_at}"
    )]
    NewAccountDaily { cap: f64, spent: f64, days: u32, reset_at: DateTime<Utc> },
    /// New accounts together spent their share of the global daily cap; established accounts
    /// still have the rest.
    #[error(
        "new accounts have used their share of the platform's daily spending limit; paid work resumes at {reset_at}"
    )]
    NewAccountsShare { cap: f64, spent: f64, reset_at: DateTime<Utc> },
    /// A new account already has as many turns in progress as it may.
    #[error(
        "a new account may have {turns} replies in progress at once until its email is verified and it is {days} days old; retry when one has ended"
    )]
    NewAccountBusy { turns: u32, days: u32 },
    /// What is spent of a dollar limit is below it, but the rest is held by work in progress:
    /// once it ends, what it did not use is free again.
    #[error("the rest of {} is held by work in progress; retry in a few seconds", .limit.describe())]
    DollarsHeld { limit: HeldLimit },
    /// The API key's daily dollar cap is reached by what it spent today and what its work in
    /// progress holds (SPEC H4).
    #[error(
        "this API key's daily spending cap is reached (spent today, or held by its replies in progress); it resets at {reset_at}"
    )]
    KeyDaily { reset_at: DateTime<Utc> },
}

/// The dollar limit whose rest is held (`Refusal::DollarsHeld`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeldLimit {
    NewAccount,
    TenantMonth,
    NewAccounts,
    Global,
}

impl HeldLimit {
    fn describe(self) -> &'static str {
        match self {
            HeldLimit::NewAccount => "a new account's daily allowance",
            HeldLimit::TenantMonth => "the account's monthly budget",
            HeldLimit::NewAccounts => "new accounts' share of the platform's daily model spending limit",
            HeldLimit::Global => "the platform's daily model spending limit",
        }
    }
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
            | Refusal::GlobalDailyCap { reset_at, .. }
            | Refusal::NewAccountDaily { reset_at, .. }
            | Refusal::NewAccountsShare { reset_at, .. }
            | Refusal::KeyDaily { reset_at } => Some(*reset_at),
            Refusal::KillSwitch { .. }
            | Refusal::AgentTokensHeld { .. }
            | Refusal::NewAccountBusy { .. }
            | Refusal::DollarsHeld { .. } => None,
        }
    }

    /// The stable code clients and job results see: `budget_exhausted` for the caller's own
    /// budgets, `key_spend_cap` for the API key's, `new_account_allowance` for a new account's,
    /// `global_spend_cap` and `kill_switch` for the operator's limits.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::AgentDailyTokens { .. }
            | Refusal::AgentTokensHeld { .. }
            | Refusal::TenantMonthlyDollars { .. } => "budget_exhausted",
            Refusal::DollarsHeld { limit: HeldLimit::TenantMonth, .. } => "budget_exhausted",
            Refusal::NewAccountDaily { .. }
            | Refusal::NewAccountBusy { .. }
            | Refusal::DollarsHeld { limit: HeldLimit::NewAccount, .. } => "new_account_allowance",
            Refusal::GlobalDailyCap { .. }
            | Refusal::NewAccountsShare { .. }
            | Refusal::DollarsHeld { limit: HeldLimit::NewAccounts | HeldLimit::Global, .. } => "global_spend_cap",
            Refusal::KillSwitch { .. } => "kill_switch",
            Refusal::KeyDaily { .. } => "key_spend_cap",
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

/// The operator's spending caps (from `Config`), bound to statements as one float8 array
/// (`SpendCaps::bind`): the global daily cap, one new account's daily allowance, all new
/// accounts' daily total (a share of the global cap) and the days an account stays new.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SpendCaps {
    /// `MINICLAW_GLOBAL_DAILY_USD` (`None`: off).
    pub global: Option<f64>,
    /// `MINICLAW_NEW_ACCOUNT_DAILY_USD` (`None`: off).
    pub new_account: Option<f64>,
    /// `MINICLAW_NEW_ACCOUNTS_SHARE` of the global cap (`None` with the global cap off).
    pub new_accounts: Option<f64>,
    /// `MINICLAW_NEW_ACCOUNT_DAYS`.
    pub new_days: u32,
    /// `MINICLAW_NEW_ACCOUNT_TURNS`: a new account's chat turns in progress at once (`None`: any).
    pub new_account_turns: Option<u32>,
}

impl SpendCaps {
    pub fn from_config(config: &crate::config::Config) -> SpendCaps {
        SpendCaps {
            global: config.global_daily_usd,
            new_account: config.new_account_daily_usd,
            new_accounts: config.global_daily_usd.map(|cap| cap * config.new_accounts_share),
            new_days: config.new_account_days,
            new_account_turns: config.new_account_turns,
        }
    }

    /// The value `limits_sql`'s `caps` (and `llm_admit`'s) reads: `[global, new_account,
    /// new_accounts, new_days, new_account_turns]`.
    pub fn bind(&self) -> Vec<Option<f64>> {
        vec![
            self.global,
            self.new_account,
            self.new_accounts,
            Some(f64::from(self.new_days)),
            self.new_account_turns.map(f64::from),
        ]
    }
}

/// The limits a call is judged against (`limits_sql` reads them).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Limits {
    pub switch_scope: Option<String>,
    pub switch_reason: Option<String>,
    /// The global daily cap in dollars (`None`: off) and the platform's spend today.
    pub global_cap: Option<f64>,
    pub global_spent: Option<f64>,
    /// Whether the tenant's account is established (`Some(false)`: new; `None`: no tenant).
    pub established: Option<bool>,
    /// A new account's daily allowance, and what it spent today.
    pub new_account_cap: Option<f64>,
    pub tenant_today: Option<f64>,
    /// All new accounts' daily share, and what they spent today.
    pub new_accounts_cap: Option<f64>,
    pub new_spent: Option<f64>,
    pub new_days: Option<f64>,
    pub agent_budget: Option<i32>,
    /// Tokens the agent's calls used today, and tokens its chat turns in progress hold.
    pub used: Option<i64>,
    pub reserved: Option<i64>,
    pub tenant_budget: Option<f64>,
    pub spent: Option<f64>,
}

/// Select items reading the `Limits` of agent `agent` and tenant `tenant` at time `now` under
/// the operator's `caps` (all SQL expressions; `caps` a float8[] as `SpendCaps::bind` makes it):
/// the kill switches (global and the tenant's), the platform's spend today (and new accounts'
/// part of it), the agent's budget with today's used and held tokens, the tenant's budget and
/// this month's total, whether the account is established and, when it is not, its spend today
/// — all primary-key lookups. The budgets themselves are the agent's and the tenant's settings,
/// read through `domain`.
pub fn limits_sql(domain: &DomainSql, agent: &str, tenant: &str, now: &str, caps: &str) -> String {
    let agent_budget = (domain.daily_token_budget)(agent);
    let tenant_budget = (domain.monthly_budget_usd)(tenant);
    let established = (domain.established)(tenant, &format!("({caps})[4]"));
    let cap = format!("({caps})[1]");
    format!(
        "(SELECT scope FROM llm_kill_switches WHERE scope IN ('global', 'tenant:' || {tenant}::text)
           ORDER BY scope = 'global' DESC LIMIT 1) AS switch_scope,
         (SELECT reason FROM llm_kill_switches WHERE scope IN ('global', 'tenant:' || {tenant}::text)
           ORDER BY scope = 'global' DESC LIMIT 1) AS switch_reason,
         {cap}::float8 AS global_cap,
         (SELECT cost_usd FROM llm_platform_spend
           WHERE {cap}::float8 IS NOT NULL AND day = ({now} AT TIME ZONE 'UTC')::date) AS global_spent,
         {agent_budget} AS agent_budget,
         (SELECT tokens FROM llm_agent_daily_usage WHERE agent_id = {agent} AND day = ({now} AT TIME ZONE 'UTC')::date) AS used,
         (SELECT reserved FROM llm_agent_daily_usage WHERE agent_id = {agent} AND day = ({now} AT TIME ZONE 'UTC')::date) AS reserved,
         {tenant_budget} AS tenant_budget,
         (SELECT cost_usd FROM llm_tenant_monthly_usage
           WHERE tenant_id = {tenant} AND month = date_trunc('month', {now} AT TIME ZONE 'UTC')::date) AS spent,
         {established} AS established,
         ({caps})[2] AS new_account_cap,
         (SELECT cost_usd FROM llm_tenant_daily_usage
           WHERE tenant_id = {tenant} AND day = ({now} AT TIME ZONE 'UTC')::date) AS tenant_today,
         ({caps})[3] AS new_accounts_cap,
         (SELECT new_cost_usd FROM llm_platform_spend
           WHERE ({caps})[3] IS NOT NULL AND day = ({now} AT TIME ZONE 'UTC')::date) AS new_spent,
         ({caps})[4] AS new_days"
    )
}

/// `judge`'s rules as an SQL condition over the columns of `limits_sql`, for statements that
/// store work only when it may run, read from the statement's snapshot; the admission that
/// holds the work's cost judges every limit again on its row locked (`reservations::admit_sql`).
pub const WITHIN_SQL: &str = "switch_scope IS NULL
    AND (global_cap IS NULL OR coalesce(global_spent, 0) < global_cap)
    AND (agent_budget IS NULL OR coalesce(used, 0) + coalesce(reserved, 0) < agent_budget)
    AND (tenant_budget IS NULL OR coalesce(spent, 0) < tenant_budget)
    AND (established IS NOT FALSE
         OR ((new_accounts_cap IS NULL OR coalesce(new_spent, 0) < new_accounts_cap)
             AND (new_account_cap IS NULL OR coalesce(tenant_today, 0) < new_account_cap)))";

/// Checks every limit that applies; the limits read when the call may go ahead (they say
/// whether the account is new), the refusal when not.
pub async fn check(
    pool: &PgPool,
    domain: &DomainSql,
    agent_id: Option<AgentId>,
    tenant_id: Option<TenantId>,
    caps: SpendCaps,
) -> Result<Result<Limits, Refusal>, sqlx::Error> {
    let limits = limits(pool, domain, agent_id, tenant_id, caps).await?;
    Ok(judge(limits.clone(), Utc::now()).map(|()| limits))
}

/// The `Limits` of an agent and tenant now (one query).
pub async fn limits(
    pool: &PgPool,
    domain: &DomainSql,
    agent_id: Option<AgentId>,
    tenant_id: Option<TenantId>,
    caps: SpendCaps,
) -> sqlx::Result<Limits> {
    // Built at run time: `limits_sql` is shared with the statement that starts a chat turn.
    sqlx::query_as(&format!("SELECT {}", limits_sql(domain, "$1", "$2", "now()", "$3::float8[]")))
        .bind(agent_id)
        .bind(tenant_id)
        .bind(caps.bind())
        .fetch_one(pool)
        .await
}

/// Whether a call within `limits` may go ahead at `now`, or why not: the operator's limits
/// first (kill switch, global cap, a new account's allowance, then new accounts' share), then
/// the agent's and the tenant's budgets.
pub fn judge(limits: Limits, now: DateTime<Utc>) -> Result<(), Refusal> {
    let Limits {
        switch_scope,
        switch_reason,
        global_cap,
        global_spent,
        established,
        new_account_cap,
        tenant_today,
        new_accounts_cap,
        new_spent,
        new_days,
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
    if established == Some(false) {
        if let Some(cap) = new_account_cap {
            let spent = tenant_today.unwrap_or(0.0);
            if spent >= cap {
                let days = new_days.unwrap_or(0.0) as u32;
                return Err(Refusal::NewAccountDaily { cap, spent, days, reset_at: next_utc_midnight(now) });
            }
        }
        if let Some(cap) = new_accounts_cap {
            let spent = new_spent.unwrap_or(0.0);
            if spent >= cap {
                return Err(Refusal::NewAccountsShare { cap, spent, reset_at: next_utc_midnight(now) });
            }
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

    #[test]
    fn a_new_account_has_its_allowance_and_new_accounts_their_share() {
        let now = Utc::now();
        let new = Limits {
            global_cap: Some(50.0),
            global_spent: Some(20.0),
            established: Some(false),
            new_account_cap: Some(1.0),
            tenant_today: Some(0.5),
            new_accounts_cap: Some(12.5),
            new_spent: Some(12.0),
            new_days: Some(7.0),
            ..Limits::default()
        };
        assert!(judge(new.clone(), now).is_ok());
        let own = judge(Limits { tenant_today: Some(1.0), ..new.clone() }, now).unwrap_err();
        assert_eq!(own.code(), "new_account_allowance");
        assert!(own.to_string().contains("$1.00 a day") && own.to_string().contains("7 days old"), "{own}");
        let share = judge(Limits { new_spent: Some(12.5), ..new.clone() }, now).unwrap_err();
        assert!(matches!(share, Refusal::NewAccountsShare { .. }) && share.code() == "global_spend_cap", "{share}");
        // An established account is held to neither; no tenant at all (platform work) neither.
        let spent = Limits { tenant_today: Some(5.0), new_spent: Some(20.0), ..new };
        assert!(judge(Limits { established: Some(true), ..spent.clone() }, now).is_ok());
        assert!(judge(Limits { established: None, ..spent }, now).is_ok());
    }
}
