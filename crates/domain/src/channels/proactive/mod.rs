//! Agents that speak first (SPEC X7, O5; seed 000 §5.4, seed 001 §10.3): a gap scanner and inner
//! thoughts find what may need the owner, the proactiveness dial and a trust score decide what
//! may go out unprompted, a timing model decides when, and the owner's reactions move trust.
//!
//! - `rules`: levels, the dial, trust deltas, reading an answer, affect valence and EMAs (pure)
//! - `timing`: urgent_now, next_morning, active_hours, next_active, quiet hours (pure)
//! - `found`: a finding: its signal, level, timing and what the agent says about it
//! - `scan`: search (SQL), diagnose (`gap_diagnosis`), act
//! - `thoughts`: inner thoughts after a session
//! - `deliver`: due items into the conversation, notifications and tasks; outcomes
//!
//! The `proactive_sweep` cycle (every 5 minutes) delivers and settles, then queues a
//! `proactive_scan` only for agents with something new: an owner message since the last scan,
//! a session that ended since the last inner thoughts, or a deadline within a day not yet
//! reminded of. An idle agent costs one indexed query and no model call.

pub mod deliver;
mod found;
pub mod rules;
pub mod scan;
pub mod thoughts;
pub mod timing;

use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext, NewJob, queue};

pub use deliver::Outcome;

pub const SWEEP: &str = "proactive_sweep";
pub const SCAN: &str = "proactive_scan";

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            SWEEP,
            CycleScope::Platform,
            "Delivers due proactive check-ins and task suggestions, settles their outcomes (trust), and queues a scan for agents with new activity (X7).",
            |ctx: JobContext| async move {
                let deps = ctx.deps()?;
                let now = deps.clock.now();
                let mut report = deliver::deliver_and_settle(deps, now).await?;
                report.scans_queued = queue_scans(&ctx.pool, now).await?;
                Ok(serde_json::to_value(report)?)
            },
        )
        .every(StdDuration::from_secs(300)),
        Cycle::new(
            SCAN,
            CycleScope::Agent,
            "Scans one agent for gaps (unanswered questions, deadlines, stale goals, distress), diagnoses them and schedules what the dial and trust allow; inner thoughts after a session.",
            |ctx: JobContext| async move {
                miniclaw_platform::jobs::queue::release_pending(&ctx.pool, ctx.job.id).await?;
                let (agent, _) = ctx.agent().await?;
                let deps = ctx.deps()?;
                let report = scan::scan(deps, agent, deps.clock.now()).await?;
                Ok(serde_json::to_value(report)?)
            },
        ),
    ]
}

/// The idle gate: the agents with something new for the scanner at `now`.
pub async fn agents_to_scan(pool: &PgPool, now: DateTime<Utc>) -> sqlx::Result<Vec<AgentId>> {
    use crate::chat::records::owner_spoke_sql;
    // Built at run time: the agents (`agents::sql`), the owner's messages (`chat::records`) and
    // the tasks (`cognition::tasks`) are read through their areas' expressions.
    let ids: Vec<uuid::Uuid> = sqlx::query_scalar(&format!(
        "SELECT a.id FROM ({agents}) a LEFT JOIN agent_proactive p ON p.agent_id = a.id
          WHERE a.active AND (
            {new_words}
            OR (coalesce(p.last_thought_at, '-infinity'::timestamptz) < $1::timestamptz - make_interval(hours => $3)
                AND {session} AND NOT {going_on})
            OR {deadline})",
        agents = crate::tenancy::agents::sql::directory(),
        new_words = owner_spoke_sql("a.id", "coalesce(p.scanned_through, '-infinity'::timestamptz)", "$1"),
        session = owner_spoke_sql("a.id", "coalesce(p.last_thought_at, $1::timestamptz - interval '2 days')", "'infinity'"),
        going_on = owner_spoke_sql("a.id", "$1::timestamptz - make_interval(mins => $2)", "'infinity'"),
        deadline = crate::cognition::tasks::open_due_sql(
            "a.id",
            "$1",
            "$1::timestamptz + interval '24 hours'",
            "NOT EXISTS (SELECT 1 FROM proactive_items i WHERE i.agent_id = a.id AND i.dedup_key = 'deadline:' || t.id || ':day')"
        ),
    ))
    .bind(now)
    .bind(thoughts::SESSION_GAP_MINUTES as i32)
    .bind(thoughts::THOUGHT_COOLDOWN_HOURS as i32)
    .fetch_all(pool)
    .await?;
    Ok(ids.into_iter().map(AgentId).collect())
}

async fn queue_scans(pool: &PgPool, now: DateTime<Utc>) -> sqlx::Result<usize> {
    let agents = agents_to_scan(pool, now).await?;
    let mut conn = pool.acquire().await?;
    for a in &agents {
        queue::enqueue_in(
            &mut conn,
            NewJob::new(SCAN).agent(*a).payload(json!({})).idempotency_key(format!("{SCAN}:{a}:pending")),
        )
        .await?;
    }
    Ok(agents.len())
}

/// The owner's trust in the agent's outreach, in [0, 1] (an SQL expression over agent `agent`;
/// real, NULL until the agent's proactive state exists).
pub fn trust_sql(agent: &str) -> String {
    format!("(SELECT trust FROM agent_proactive WHERE agent_id = {agent})")
}

/// The agent's proactive state row, created on first use.
pub(crate) async fn ensure_state(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<()> {
    sqlx::query!("INSERT INTO agent_proactive (agent_id) VALUES ($1) ON CONFLICT DO NOTHING", agent as _)
        .execute(conn)
        .await?;
    Ok(())
}

/// One thing the agent did, or held back, unprompted.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Item {
    pub id: Uuid,
    /// `check_in` (a message) or `task` (a task suggestion, pending approval).
    pub kind: String,
    /// `gap_scanner` or `inner_thought`.
    pub source: String,
    /// `unresolved_question`, `deadline`, `stale`, `distress`, `follow_up`, `todo` or `reminder`.
    pub signal: String,
    /// What it is about, in the owner's words where there are some.
    pub gap: String,
    /// `high`, `medium` or `low`, from the diagnosis.
    pub urgency: String,
    /// The dial level it needs: `urgent`, `information` or `speculative`.
    pub level: String,
    /// The rule that let it through (and the diagnosis's justification).
    pub rule: String,
    /// What the agent says (or the suggested task's title).
    pub message: String,
    /// `urgent_now`, `next_morning`, `active_hours` or `next_active`.
    pub timing: String,
    /// When it goes; `null` for `next_active` (when the owner next writes).
    pub deliver_at: Option<DateTime<Utc>>,
    /// `scheduled`, `sent`, `accepted`, `dismissed`, `ignored` or `suppressed`.
    pub status: String,
    /// Why it was held back or postponed.
    pub status_reason: Option<String>,
    pub conversation_id: Option<Uuid>,
    pub message_id: Option<Uuid>,
    pub task_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub resolved_at: Option<DateTime<Utc>>,
}

macro_rules! select_items {
    ($tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Item,
            "SELECT id, kind, source, signal, gap, urgency, level, rule, message, timing, deliver_at, status,
                    status_reason, conversation_id, message_id, task_id, created_at, sent_at, resolved_at
               FROM proactive_items " + $tail
            $(, $arg)*
        )
    };
}

/// The agent's proactive side at a glance.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Summary {
    /// 0–1, starting at 0.5: accepted +0.05, ignored −0.02, dismissed −0.05. Below 0.3 only
    /// urgent items go out.
    pub trust: f32,
    /// The agent's `proactiveness`: `conservative`, `moderate` or `eager`.
    pub dial: String,
    /// Proactive messages and suggestions per 24 hours, at most (0–10).
    pub daily_max: i32,
    pub sent_last_24h: i64,
    /// What is scheduled, soonest first.
    pub upcoming: Vec<Item>,
    /// The 20 newest of the rest (sent, settled, held back).
    pub recent: Vec<Item>,
}

pub async fn summary(pool: &PgPool, agent: AgentId, now: DateTime<Utc>) -> sqlx::Result<Summary> {
    let mut conn = pool.acquire().await?;
    ensure_state(&mut conn, agent).await?;
    let dial = crate::tenancy::agents::by_id(&mut *conn, agent).await?.ok_or(sqlx::Error::RowNotFound)?.proactiveness;
    let s = sqlx::query!(
        r#"SELECT p.trust, p.daily_max,
                  (SELECT count(*) FROM proactive_items i WHERE i.agent_id = p.agent_id AND i.sent_at > $2::timestamptz - interval '24 hours') AS "sent!"
             FROM agent_proactive p WHERE p.agent_id = $1"#,
        agent as _,
        now
    )
    .fetch_one(&mut *conn)
    .await?;
    let upcoming = select_items!(
        "WHERE agent_id = $1 AND status = 'scheduled' ORDER BY deliver_at NULLS LAST, id LIMIT 50",
        agent as _
    )
    .fetch_all(&mut *conn)
    .await?;
    let recent = select_items!("WHERE agent_id = $1 AND status <> 'scheduled' ORDER BY id DESC LIMIT 20", agent as _)
        .fetch_all(&mut *conn)
        .await?;
    Ok(Summary { trust: s.trust, dial, daily_max: s.daily_max, sent_last_24h: s.sent, upcoming, recent })
}

/// The agent's proactive history, newest first, optionally of one status.
pub async fn list(
    pool: &PgPool,
    agent: AgentId,
    status: Option<&str>,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<Item>> {
    select_items!(
        "WHERE agent_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::uuid IS NULL OR id < $3)
         ORDER BY id DESC LIMIT $4",
        agent as _,
        status,
        before,
        limit
    )
    .fetch_all(pool)
    .await
}

pub const STATUSES: [&str; 6] = ["scheduled", "sent", "accepted", "dismissed", "ignored", "suppressed"];

/// The owner's settings of the proactive side.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProactiveInput {
    /// Proactive messages and suggestions per 24 hours, at most (0–10; 0 turns them off).
    pub daily_max: i32,
}

pub async fn set_daily_max(pool: &PgPool, agent: AgentId, input: ProactiveInput) -> Result<(), Error> {
    if !(0..=10).contains(&input.daily_max) {
        return Err(Error::validation("daily_max", "daily_max is 0–10"));
    }
    let mut conn = pool.acquire().await?;
    ensure_state(&mut conn, agent).await?;
    sqlx::query!(
        "UPDATE agent_proactive SET daily_max = $2, updated_at = now() WHERE agent_id = $1",
        agent as _,
        input.daily_max
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The owner (or an app with `proactive:write`) accepts or dismisses a sent item: trust moves.
/// 404 when the agent has no such item, 409 naming its status unless it is `sent`.
pub async fn react(pool: &PgPool, agent: AgentId, id: Uuid, outcome: Outcome, origin: &Origin) -> Result<Item, Error> {
    let now = Utc::now();
    if deliver::resolve(pool, agent, id, outcome, origin, now).await?.is_none() {
        let item = select_items!("WHERE agent_id = $1 AND id = $2", agent as _, id)
            .fetch_optional(pool)
            .await?
            .ok_or_else(|| Error::not_found("proactive item"))?;
        return Err(Error::Conflict(format!(
            "the item is {}; only a sent one can be accepted or dismissed",
            item.status
        )));
    }
    Ok(select_items!("WHERE agent_id = $1 AND id = $2", agent as _, id).fetch_one(pool).await?)
}
