//! The session ledger and the live state (SPEC X9, 003 §5.2–5.3). When a session has ended
//! (no message for 30 minutes), the `live_state` job writes one ledger entry per session — a
//! summary by the `summarization` role — and saves the agent's coordinates. The `ledger_sweep`
//! cycle (pulse tier, every 5 minutes) queues that job for agents whose last session ended
//! after their state was saved, so the chat turn itself does no extra work. The ledger is read
//! month → day → sessions.

use miniclaw_core::ids::{AgentId, TenantId};

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::recovery::{self, Coordinates, Coupling, Resume, Session};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::llm::roles::{Summarization, Turn};
use miniclaw_platform::llm::{CallContext, ChatRequest};

pub const JOB: &str = "live_state";
pub const SWEEP: &str = "ledger_sweep";
/// Messages read per run; what is left is read by the next.
const MESSAGES_PER_RUN: i64 = 400;
/// The messages of a session the summary is written from (the newest), and their length.
const SUMMARY_MESSAGES: usize = 40;
const SUMMARY_MESSAGE_CHARS: usize = 600;
pub const SUMMARY_MAX_CHARS: usize = 1000;
/// Sessions listed for one day, at most.
pub const DAY_SESSIONS_MAX: i64 = 200;
/// User messages averaging more characters than this make the style `detailed`.
const DETAILED_CHARS: f64 = 160.0;

/// Splits messages (in time order) into sessions: a new one when the conversation changes or
/// the gap reaches `gap`. Returns index ranges.
pub fn split(times: &[(Uuid, DateTime<Utc>)], gap: Duration) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=times.len() {
        let ends = i == times.len() || times[i].0 != times[i - 1].0 || times[i].1 - times[i - 1].1 >= gap;
        if ends {
            out.push(start..i);
            start = i;
        }
    }
    out.into_iter().filter(|r| !r.is_empty()).collect()
}

/// What a run recorded.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct LedgerRun {
    /// Sessions added to the ledger.
    pub sessions: usize,
    /// A session still going, left for a later run.
    pub open_session: bool,
    pub coordinates: Coordinates,
}

/// Records the agent's ended sessions and saves its coordinates.
pub async fn record(deps: &Deps, tenant_id: TenantId, agent_id: AgentId) -> anyhow::Result<LedgerRun> {
    let pool = &deps.pool;
    let gap = Duration::minutes(recovery::RESUME_AFTER_MINUTES);
    let recorded = sqlx::query_scalar!("SELECT max(ended_at) FROM session_ledger WHERE agent_id = $1", agent_id as _)
        .fetch_one(pool)
        .await?;
    let messages = crate::chat::records::said_after(pool, agent_id, recorded, MESSAGES_PER_RUN).await?;
    let times: Vec<(Uuid, DateTime<Utc>)> = messages.iter().map(|m| (m.conversation_id, m.created_at)).collect();
    let now = Utc::now();
    let mut run = LedgerRun::default();
    let ctx = CallContext::job(agent_id, Some(tenant_id));
    for range in split(&times, gap) {
        let session = &messages[range];
        let last = session.last().expect("sessions are not empty");
        if now - last.created_at < gap {
            run.open_session = true;
            continue;
        }
        let turns: Vec<Turn> = session
            .iter()
            .rev()
            .take(SUMMARY_MESSAGES)
            .rev()
            .map(|m| Turn { role: m.role.clone(), content: m.content.chars().take(SUMMARY_MESSAGE_CHARS).collect() })
            .collect();
        let answer = deps.llm.complete(&ctx, ChatRequest::from_input(Summarization { messages: turns })).await?;
        let summary: String = answer.content.trim().chars().take(SUMMARY_MAX_CHARS).collect();
        let summary = if summary.is_empty() { format!("{} messages.", session.len()) } else { summary };
        sqlx::query!(
            "INSERT INTO session_ledger (agent_id, id, conversation_id, started_at, ended_at, messages, summary)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            agent_id as _,
            Uuid::now_v7(),
            last.conversation_id,
            session[0].created_at,
            last.created_at,
            session.len() as i32,
            summary
        )
        .execute(pool)
        .await?;
        run.sessions += 1;
    }
    run.coordinates = coordinates(pool, agent_id).await?;
    sqlx::query!(
        "INSERT INTO agent_live_state (agent_id, coordinates, saved_at) VALUES ($1, $2, now())
         ON CONFLICT (agent_id) DO UPDATE SET coordinates = excluded.coordinates, saved_at = excluded.saved_at",
        agent_id as _,
        serde_json::to_value(&run.coordinates)?
    )
    .execute(pool)
    .await?;
    Ok(run)
}

#[derive(sqlx::FromRow)]
struct CoordinatesRow {
    current_task: Option<String>,
    open_tasks: Vec<String>,
    attention: Vec<String>,
    trust: Option<f32>,
    mood: Option<String>,
    energy: Option<f64>,
    chars: Option<f64>,
    resume: Option<serde_json::Value>,
}

/// The agent's coordinates now, from what the platform already keeps: tasks, goals, trust,
/// affect, behavioural signals and the user's last message. One round trip.
pub async fn coordinates(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<Coordinates> {
    // Built at run time: goals (`memory`), trust (`channels::proactive`) and the last message
    // (`chat::records`) are read through their areas' expressions.
    let r: CoordinatesRow = sqlx::query_as(&format!(
        "SELECT
             (SELECT title FROM agent_tasks WHERE agent_id = $1 AND status IN ('in_progress', 'approved')
               ORDER BY status = 'in_progress' DESC, updated_at DESC LIMIT 1) AS current_task,
             (SELECT coalesce(array_agg(title ORDER BY created_at), '{{}}') FROM (SELECT title, created_at FROM agent_tasks
               WHERE agent_id = $1 AND status IN ('pending', 'approved', 'in_progress') ORDER BY created_at LIMIT 4) t)
               AS open_tasks,
             {attention} AS attention,
             {trust} AS trust,
             (SELECT label FROM affect_states WHERE agent_id = $1 ORDER BY observed_at DESC LIMIT 1) AS mood,
             (SELECT fast_arousal FROM affect_states WHERE agent_id = $1 ORDER BY observed_at DESC LIMIT 1) AS energy,
             (SELECT message_chars FROM behaviour_signals WHERE agent_id = $1) AS chars,
             {resume} AS resume",
        attention = crate::memory::sql::top_goals("$1", 3),
        trust = crate::channels::proactive::trust_sql("$1"),
        resume = crate::chat::records::last_user_message_sql("$1", 200),
    ))
    .bind(agent_id)
    .fetch_one(pool)
    .await?;
    let next_steps: Vec<String> =
        r.open_tasks.into_iter().filter(|t| Some(t) != r.current_task.as_ref()).take(3).collect();
    Ok(Coordinates {
        current_task: r.current_task,
        attention: r.attention,
        coupling: Coupling {
            trust: r.trust.map_or(0.5, f64::from),
            energy: r.energy.unwrap_or(0.0),
            style: if r.chars.unwrap_or(0.0) > DETAILED_CHARS { "detailed" } else { "brief" }.into(),
        },
        mood: r.mood,
        next_steps,
        resume: r.resume.and_then(|v| serde_json::from_value::<Resume>(v).ok()),
    })
}

/// Queues `live_state` for agents whose newest message is at least 30 minutes old and newer
/// than their saved state (a session ended since). Returns how many were queued.
pub async fn sweep(pool: &PgPool) -> sqlx::Result<u64> {
    // Built at run time: the agents (`agents::sql`) and their newest message (`chat::records`).
    let agents: Vec<Uuid> = sqlx::query_scalar(&format!(
        "SELECT a.id FROM ({}) a LEFT JOIN agent_live_state s ON s.agent_id = a.id
          CROSS JOIN LATERAL (SELECT {} AS created_at) newest
          WHERE a.active AND newest.created_at < now() - make_interval(mins => $1)
            AND newest.created_at > coalesce(s.saved_at, '-infinity')
          LIMIT 1000",
        crate::tenancy::agents::sql::directory(),
        crate::chat::records::newest_message_at_sql("a.id")
    ))
    .bind(recovery::RESUME_AFTER_MINUTES as i32)
    .fetch_all(pool)
    .await?;
    let ids: Vec<AgentId> = agents.into_iter().map(AgentId).collect();
    if ids.is_empty() {
        return Ok(0);
    }
    let mut conn = pool.acquire().await?;
    miniclaw_platform::jobs::queue::enqueue_debounced(&mut conn, JOB, &ids, 0, 0).await?;
    Ok(ids.len() as u64)
}

/// The live state now: the coordinates, how much they can be trusted and the door a resumed
/// conversation would take.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LiveState {
    pub coordinates: Option<Coordinates>,
    pub saved_at: Option<DateTime<Utc>>,
    pub confidence: f64,
    /// 3 (< 2 h), 2 (2–24 h) or 1 (older, or nothing saved).
    pub door: u8,
    /// The block a conversation resumed now would start with.
    pub recovery: String,
}

pub async fn live_state(pool: &PgPool, agent_id: AgentId, now: DateTime<Utc>) -> sqlx::Result<LiveState> {
    let row = sqlx::query!("SELECT coordinates, saved_at FROM agent_live_state WHERE agent_id = $1", agent_id as _)
        .fetch_optional(pool)
        .await?;
    let saved: Option<(Coordinates, DateTime<Utc>)> =
        row.and_then(|r| Some((serde_json::from_value(r.coordinates).ok()?, r.saved_at)));
    let ledger = sessions(pool, agent_id, None, recovery::REBUILD_SESSIONS as i64).await?;
    let r = recovery::recover(now, saved.as_ref().map(|(c, at)| (c, *at)), &ledger);
    Ok(LiveState {
        saved_at: saved.as_ref().map(|(_, at)| *at),
        coordinates: saved.map(|(c, _)| c),
        confidence: r.confidence,
        door: r.door,
        recovery: r.text.trim().to_string(),
    })
}

/// The newest `limit` sessions, of one day when given.
pub async fn sessions(
    pool: &PgPool,
    agent_id: AgentId,
    day: Option<NaiveDate>,
    limit: i64,
) -> sqlx::Result<Vec<Session>> {
    sqlx::query_as!(
        Session,
        "SELECT id, conversation_id, started_at, ended_at, messages, summary FROM session_ledger
          WHERE agent_id = $1 AND ($2::date IS NULL OR (started_at AT TIME ZONE 'UTC')::date = $2)
          ORDER BY started_at DESC LIMIT $3",
        agent_id as _,
        day,
        limit
    )
    .fetch_all(pool)
    .await
}

/// A month or a day of the ledger, with how many sessions and messages it holds.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct Period {
    /// `YYYY-MM` or `YYYY-MM-DD`.
    pub period: String,
    pub sessions: i64,
    pub messages: i64,
}

/// The ledger's months (newest first), or the days of one month (`YYYY-MM`).
pub async fn periods(pool: &PgPool, agent_id: AgentId, month: Option<&str>) -> sqlx::Result<Vec<Period>> {
    sqlx::query_as!(
        Period,
        r#"SELECT to_char(started_at AT TIME ZONE 'UTC', CASE WHEN $2::text IS NULL THEN 'YYYY-MM' ELSE 'YYYY-MM-DD' END)
                    AS "period!",
                  count(*) AS "sessions!", coalesce(sum(messages), 0)::bigint AS "messages!"
             FROM session_ledger
            WHERE agent_id = $1 AND ($2::text IS NULL OR to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM') = $2)
            GROUP BY 1 ORDER BY 1 DESC LIMIT 400"#,
        agent_id as _,
        month
    )
    .fetch_all(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_split_at_a_new_conversation_or_a_30_minute_gap() {
        let t0 = DateTime::parse_from_rfc3339("2026-11-25T09:00:00Z").unwrap().with_timezone(&Utc);
        let (a, b) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let m = |c: Uuid, min: i64| (c, t0 + Duration::minutes(min));
        let times = [m(a, 0), m(a, 10), m(a, 39), m(a, 69), m(b, 70), m(b, 71)];
        assert_eq!(split(&times, Duration::minutes(30)), vec![0..3, 3..4, 4..6]);
        assert!(split(&[], Duration::minutes(30)).is_empty());
    }
}
