//! Holds: what a unit of work may cost, reserved when it is admitted and settled when it ends
//! (SPEC T1, hardening 7). A limit checked before work and paid after it lets parallel work
//! overshoot: 60 turns admitted at once against a nearly spent allowance would all run. So a
//! unit of work — a chat turn, one background model call, or paid work that is not a model
//! call (`spend`: a paid embedding, a priced email, gas the platform pays) — reserves its
//! expected maximum tokens and dollars against every limit that applies (the API key's daily
//! dollars, the agent's daily tokens, a new account's concurrent turns and daily allowance,
//! the tenant's monthly budget, new accounts' share of the platform's day and the global daily
//! cap) through one SQL function, `llm_admit`, which judges each limit on its row locked
//! (spent plus held, below the cap) and holds on all of them or on none. Its calls count what
//! they really used on the hold (`CallContext::held_by`, `usage::record`), and `llm_settle`
//! moves that into the books and frees what was held, in one statement. A unit whose process
//! died is settled by the `chat_stream_sweep` cycle (`release_orphans`). Every total then
//! stays within its limit plus one unit's maximum, however many arrive at once.
//!
//! Lock order, everywhere: the key's day, the agent's day, the tenant's day, the tenant's
//! month, the platform's day. A statement that admits a chat turn locks them before the
//! conversation.

use sqlx::PgPool;

use crate::domain_sql::DomainSql;

use super::budget::{Limits, Refusal, SpendCaps};
use miniclaw_core::ids::{AgentId, KeyId, MessageId, TenantId};

/// The agent id a hold of work for no agent is stored under.
pub const NO_AGENT: uuid::Uuid = uuid::Uuid::nil();

/// What a unit of work may cost at most: tokens (prompts and answers) and dollars.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Cost {
    pub tokens: i64,
    pub usd: f64,
}

/// An SQL expression calling `llm_admit` (text: NULL when granted, else the reason): the
/// arguments are SQL expressions — agent, tenant and hold ids, the tokens (bigint) and dollars
/// (float8) to hold, and `limits`, the alias of a row with `limits_sql`'s columns (the budgets
/// and whether the account is new); `caps` a float8[] as `SpendCaps::bind` makes it; `key` the
/// API key the work is charged to and its daily dollar cap (`NULL`s for work of no key).
#[expect(clippy::too_many_arguments, reason = "one SQL call with this many arguments")]
pub fn admit_sql(
    agent: &str,
    tenant: &str,
    hold: &str,
    tokens: &str,
    usd: &str,
    limits: &str,
    caps: &str,
    background: bool,
    key: KeySql<'_>,
) -> String {
    let KeySql { id, daily_usd } = key;
    format!(
        "llm_admit({agent}, {tenant}, {hold}, {tokens}::bigint, {usd}::float8, {limits}.agent_budget::bigint,
                   {limits}.tenant_budget, {limits}.established = false, {caps}, {background}, {id}::uuid,
                   {daily_usd}::float8)"
    )
}

/// The API key a unit of work is charged to, as SQL expressions: its id (uuid) and its daily
/// dollar cap (float8; `NULL`: none).
#[derive(Debug, Clone, Copy)]
pub struct KeySql<'a> {
    pub id: &'a str,
    pub daily_usd: &'a str,
}

impl KeySql<'static> {
    /// Work charged to no key.
    pub const NONE: KeySql<'static> = KeySql { id: "NULL", daily_usd: "NULL" };
}

/// Why `llm_admit` refused, as the refusal a caller sees, from its reason and the limits read
/// beside it (a snapshot: they may predate the holds the admission queued behind, so a limit
/// that looks unspent is said to be held by work in progress).
pub fn refusal(reason: &str, limits: Limits, caps: SpendCaps) -> Refusal {
    use super::budget::HeldLimit;
    if let Err(r) = super::budget::judge(limits.clone(), chrono::Utc::now()) {
        return r;
    }
    match reason {
        "busy" => Refusal::NewAccountBusy { turns: caps.new_account_turns.unwrap_or(0), days: caps.new_days },
        "new_account" => Refusal::DollarsHeld { limit: HeldLimit::NewAccount },
        "key_day" => Refusal::KeyDaily { reset_at: super::budget::next_utc_midnight(chrono::Utc::now()) },
        "tenant_month" => Refusal::DollarsHeld { limit: HeldLimit::TenantMonth },
        "new_accounts" => Refusal::DollarsHeld { limit: HeldLimit::NewAccounts },
        "global" => Refusal::DollarsHeld { limit: HeldLimit::Global },
        _ => Refusal::AgentTokensHeld {
            budget: limits.agent_budget.map_or(0, i64::from),
            used: limits.used.unwrap_or(0),
        },
    }
}

/// Admits one model call (or other paid work) of `cost` for `agent` and `tenant` (either may
/// be absent), charged to API key `key` when a key asked for it: the hold's id when granted,
/// the refusal when not. The caller settles it (`release`) once the call has ended.
pub async fn admit(
    pool: &PgPool,
    domain: &DomainSql,
    agent: Option<AgentId>,
    tenant: Option<TenantId>,
    key: Option<KeyId>,
    cost: Cost,
    caps: SpendCaps,
) -> sqlx::Result<Result<(MessageId, bool), Refusal>> {
    #[derive(sqlx::FromRow)]
    struct Admitted {
        #[sqlx(flatten)]
        limits: Limits,
        refused: Option<String>,
    }
    let hold = MessageId::new();
    // Work for an agent whose caller did not name the tenant is the agent's tenant's.
    let tenant_sql = format!("coalesce($2::uuid, {})", (domain.tenant)("$1::uuid"));
    let limits = super::budget::limits_sql(domain, "$1", &tenant_sql, "now()", "$3::float8[]");
    let key_cap = (domain.key_daily_usd)("$7::uuid");
    let key_sql = KeySql { id: "$7", daily_usd: &key_cap };
    // Built at run time: it embeds the budget rules shared with `budget` and the chat turn. The
    // kill switch is judged first: a paused platform or account holds nothing.
    let row: Admitted = sqlx::query_as(&format!(
        "SELECT l.*, CASE WHEN l.switch_scope IS NULL THEN {} ELSE 'kill_switch' END AS refused
           FROM (SELECT {limits}) l",
        admit_sql("$1", &tenant_sql, "$4", "$5", "$6", "l", "$3::float8[]", true, key_sql)
    ))
    .bind(agent)
    .bind(tenant)
    .bind(caps.bind())
    .bind(hold)
    .bind(cost.tokens)
    .bind(cost.usd)
    .bind(key)
    .fetch_one(pool)
    .await?;
    let new_account = row.limits.established == Some(false);
    Ok(match row.refused {
        None => Ok((hold, new_account)),
        Some(reason) => Err(refusal(&reason, row.limits, caps)),
    })
}

/// Books `usd` that work held by `hold` (of `agent`, or `NO_AGENT`) really cost, and settles
/// the hold: for paid work that is not a model call (a paid embedding, a priced email, gas the
/// platform pays), whose cost is known when it ends. When the hold is gone already (the sweep
/// settled it: a transaction can take longer to be mined than a hold is kept), the cost is
/// booked on its own, on the same rows, for the tenant `tenant`: work that was done is paid
/// for in the books either way.
pub async fn spend(
    pool: &PgPool,
    agent: uuid::Uuid,
    tenant: Option<TenantId>,
    hold: MessageId,
    usd: f64,
) -> sqlx::Result<()> {
    let usd = if usd.is_finite() { usd.max(0.0) } else { 0.0 };
    let mut tx = pool.begin().await?;
    let held = sqlx::query!(
        "UPDATE llm_turn_reservations SET used_usd = used_usd + $3 WHERE agent_id = $1 AND reply_id = $2",
        agent,
        hold as _,
        usd
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if held == 0 && usd > 0.0 {
        // A hold of nothing that has used `usd`, settled at once: the books take the cost.
        sqlx::query!(
            "INSERT INTO llm_turn_reservations (agent_id, reply_id, day, month, tokens, tenant_id, usd, used_usd, background)
             VALUES ($1, $2, (now() AT TIME ZONE 'UTC')::date, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 0,
                     $3, 0, $4, true)",
            agent,
            hold as _,
            tenant as _,
            usd
        )
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query_scalar!("SELECT llm_settle($1, $2)", agent, hold as _).fetch_one(&mut *tx).await?;
    tx.commit().await
}

/// Settles the hold `hold` of agent `agent_id` (the turn's reply, or a background call's hold):
/// what its calls used goes into the books, what it held is free again. Nothing happens when
/// it is settled already, so settling twice is harmless.
pub async fn release(pool: &PgPool, agent_id: AgentId, hold: MessageId) -> sqlx::Result<()> {
    release_raw(pool, agent_id.0, hold).await
}

/// `release` of a hold of work for no agent as well (`NO_AGENT`).
pub async fn release_raw(pool: &PgPool, agent: uuid::Uuid, hold: MessageId) -> sqlx::Result<()> {
    // Committed without waiting for the disk: the rows settled are locked until the commit, and
    // every unit of work locks them twice, so a wait for the disk here is a wait for all of them.
    // Should the database stop before this commit reaches the disk, the hold is still there
    // after recovery and the sweep settles it (`release_orphans`), with what its calls used.
    let mut tx = pool.begin().await?;
    sqlx::query!("SET LOCAL synchronous_commit = off").execute(&mut *tx).await?;
    sqlx::query_scalar!("SELECT llm_settle($1, $2)", agent, hold as _).fetch_one(&mut *tx).await?;
    tx.commit().await
}

/// Settles the holds of work that is no longer running: a turn's whose reply is not
/// `streaming` any more (or is gone) but which did not settle, because its process died (or is
/// about to), and a background call's older than any call may take. Run by the
/// `chat_stream_sweep` cycle after it ends the replies of dead processes. Returns how many.
pub async fn release_orphans(pool: &PgPool, domain: &DomainSql) -> sqlx::Result<u64> {
    let streaming = (domain.streaming)("r.agent_id", "r.reply_id");
    let orphans: Vec<(uuid::Uuid, MessageId)> = sqlx::query_as(&format!(
        "SELECT r.agent_id, r.reply_id FROM llm_turn_reservations r
          WHERE CASE WHEN r.background THEN r.created_at < now() - interval '30 minutes'
                     ELSE NOT coalesce({streaming}, false) END"
    ))
    .fetch_all(pool)
    .await?;
    // One statement each: settling takes its rows' locks in the order admissions do, and a
    // statement settling several holds would take them out of that order.
    for (agent, hold) in &orphans {
        release_raw(pool, *agent, *hold).await?;
    }
    Ok(orphans.len() as u64)
}
