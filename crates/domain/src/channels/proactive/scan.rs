//! The gap scanner of one agent (seed 000 §5.4.1); a scan ends with the inner thoughts of
//! `thoughts` when a session has ended.
//!
//! - *Search*, SQL only: questions the owner asked that the agent could not answer, deadlines of
//!   open tasks within a week, goals not mentioned for two weeks, and distress in the affect EMAs
//!   (updated here from the owner's new messages).
//! - *Diagnose*: the `gap_diagnosis` role ranks them (through the gateway, so budgets and the
//!   kill switch apply; the offline engine's heuristic without a model).
//! - *Act*: each gap needs a dial level; what the dial and trust let through is scheduled with
//!   its timing, what they hold is kept as `suppressed` with the reason, so nothing the agent
//!   does or does not do is unexplained.

use chrono::{DateTime, Duration, Utc};
use serde::Deserialize;
use sqlx::PgConnection;
use uuid::Uuid;

use super::found::{Found, one_line};
use super::rules::{self, Level};
use super::timing::Day;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::llm::roles::{GapDiagnosis, Signal};
use miniclaw_platform::llm::{CallContext, ChatRequest};

/// A goal not mentioned for this long is stale.
pub const STALE_DAYS: i64 = 14;
/// How far back the scanner looks for unanswered questions.
const QUESTION_DAYS: i64 = 7;
/// How many of the newest unanswered questions are read to find five not found before.
const QUESTIONS_READ: i64 = 50;
/// How far ahead it looks for deadlines (within a day they are urgent).
const DEADLINE_HOURS: i64 = 168;

/// A reply that did not answer: the offline engine finding nothing to say (not its label, which
/// every offline reply carries, answered or not), or the model saying it does not know.
const UNANSWERED: &str = r"(need a model to write real answers|i don't know|i do not know|i'm not sure|i am not sure|no idea|i can't (tell|say|answer)|i cannot (tell|say|answer)|don't have (that|any|enough) information)";

/// The agent as the scanner needs it.
pub(super) struct AgentRow {
    pub tenant: TenantId,
    pub dial: String,
    pub timezone: String,
    pub quiet_start: Option<String>,
    pub quiet_end: Option<String>,
    pub trust: f32,
}

pub(super) async fn agent_row(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<Option<AgentRow>> {
    super::ensure_state(conn, agent).await?;
    let Some(tenant) = crate::tenancy::agents::tenant_of(&mut *conn, agent).await? else { return Ok(None) };
    let Some(a) = crate::tenancy::agents::by_id(&mut *conn, agent).await?.filter(|a| a.active) else { return Ok(None) };
    let trust = sqlx::query_scalar!("SELECT trust FROM agent_proactive WHERE agent_id = $1", agent as _)
        .fetch_one(conn)
        .await?;
    let quiet = a.quiet_hours.map(|q| q.0);
    Ok(Some(AgentRow {
        tenant,
        dial: a.proactiveness,
        timezone: a.timezone,
        quiet_start: quiet.as_ref().map(|q| q.start.clone()),
        quiet_end: quiet.map(|q| q.end),
        trust,
    }))
}

/// The owner's day: timezone, quiet hours, and the local hours they wrote in over 30 days.
pub(super) async fn owner_day(
    conn: &mut PgConnection,
    agent: AgentId,
    a: &AgentRow,
    now: DateTime<Utc>,
) -> sqlx::Result<Day> {
    let rows = crate::chat::records::owner_hours(
        conn,
        agent,
        &a.timezone,
        now - Duration::days(super::timing::LEARNING_DAYS),
        now,
    )
    .await?;
    let mut counts = [0i64; 24];
    for (hour, n) in rows {
        if (0..24).contains(&hour) {
            counts[hour as usize] = n;
        }
    }
    let quiet = a.quiet_start.as_deref().zip(a.quiet_end.as_deref());
    Ok(Day::new(&a.timezone, quiet, &counts))
}

/// Search: what may need the agent's attention, SQL only.
async fn search(
    conn: &mut PgConnection,
    agent: AgentId,
    now: DateTime<Utc>,
    distressed: bool,
) -> sqlx::Result<Vec<Found>> {
    let mut found = Vec::new();
    // The unanswered questions not found before: the newest five.
    let asked = crate::chat::records::unanswered_questions(
        &mut *conn,
        agent,
        now - Duration::days(QUESTION_DAYS),
        now,
        UNANSWERED,
        QUESTIONS_READ,
    )
    .await?;
    let keys: Vec<String> = asked.iter().map(|q| format!("question:{}", q.id)).collect();
    let known = sqlx::query_scalar!(
        "SELECT dedup_key FROM proactive_items WHERE agent_id = $1 AND dedup_key = ANY($2)",
        agent as _,
        &keys
    )
    .fetch_all(&mut *conn)
    .await?;
    let questions = asked.into_iter().filter(|q| !known.contains(&format!("question:{}", q.id))).take(5);
    for q in questions {
        found.push(Found {
            signal: "unresolved_question",
            description: one_line(&q.content, 200),
            due_in_hours: None,
            age_days: Some((now - q.created_at).num_hours() as f64 / 24.0),
            dedup_key: format!("question:{}", q.id),
            conversation_id: Some(q.conversation_id),
            said_at: Some(q.created_at),
        });
    }
    let tasks =
        crate::cognition::tasks::open_due(&mut *conn, agent, now, now + Duration::hours(DEADLINE_HOURS), 10).await?;
    for t in tasks {
        let hours = (t.due_at - now).num_minutes() as f64 / 60.0;
        // One reminder a week ahead and one on the last day.
        let stage = if hours <= 24.0 { "day" } else { "week" };
        found.push(Found {
            signal: "deadline",
            description: t.title,
            due_in_hours: Some(hours),
            age_days: None,
            dedup_key: format!("deadline:{}:{stage}", t.id),
            conversation_id: None,
            said_at: None,
        });
    }
    let stale =
        crate::memory::goals_untouched_since(&mut *conn, agent, now - chrono::Duration::days(STALE_DAYS), 3).await?;
    for (id, content, touched) in stale {
        // Asked about again at most once a month.
        let month = now.timestamp() / (30 * 86_400);
        found.push(Found {
            signal: "stale",
            description: one_line(&content, 200),
            due_in_hours: None,
            age_days: Some((now - touched).num_hours() as f64 / 24.0),
            dedup_key: format!("stale:{id}:{month}"),
            conversation_id: None,
            said_at: None,
        });
    }
    if distressed {
        found.push(Found {
            signal: "distress",
            description: "the owner's recent messages are much more negative than usual".into(),
            due_in_hours: None,
            age_days: None,
            dedup_key: format!("distress:{}", now.date_naive()),
            conversation_id: None,
            said_at: None,
        });
    }
    Ok(found)
}

/// One ranked gap as the role returns it.
#[derive(Debug, Deserialize)]
struct Gap {
    gap: String,
    #[serde(default)]
    urgency: String,
    #[serde(default)]
    justification: String,
}

#[derive(Debug, Deserialize)]
struct Diagnosis {
    #[serde(default)]
    gaps: Vec<Gap>,
}

/// Diagnose: the `gap_diagnosis` role ranks what was found; each gap is matched back to the
/// finding it describes (the offline engine keeps the descriptions; a model may reword them).
async fn diagnose(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    found: Vec<Found>,
) -> anyhow::Result<Vec<(Found, String, String)>> {
    let input = GapDiagnosis {
        signals: found
            .iter()
            .map(|f| Signal {
                kind: f.signal.to_string(),
                description: f.description.clone(),
                due_in_hours: f.due_in_hours,
                age_days: f.age_days,
            })
            .collect(),
    };
    let ctx = CallContext::job(agent, Some(tenant)).background(true);
    let answer = deps.llm.complete(&ctx, ChatRequest::from_input(input)).await?;
    // An answer that is not the JSON asked for ranks nothing: the findings keep their order and
    // the urgency their kind gives them.
    let diagnosis: Diagnosis = serde_json::from_str(answer.content.trim()).unwrap_or_else(|e| {
        tracing::warn!(agent.id = %agent, error = %e, "gap_diagnosis answer is not JSON; acting on the findings unranked");
        Diagnosis { gaps: Vec::new() }
    });
    let mut left: Vec<Option<Found>> = found.into_iter().map(Some).collect();
    let mut ranked = Vec::new();
    for g in diagnosis.gaps {
        let best = left
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.as_ref().map(|f| (i, miniclaw_core::text::jaccard(&g.gap, &f.description))))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, score)) = best
            && (score > 0.2 || g.gap.contains(left[i].as_ref().map(|f| f.description.as_str()).unwrap_or("\u{0}")))
            && let Some(f) = left[i].take()
        {
            ranked.push((f, g.urgency, g.justification));
        }
    }
    // What the diagnosis left out keeps its place after the ranked ones.
    ranked.extend(left.into_iter().flatten().map(|f| (f, String::new(), String::new())));
    Ok(ranked)
}

/// What one scan did.
#[derive(Debug, Default, serde::Serialize)]
pub struct ScanReport {
    pub found: usize,
    pub scheduled: usize,
    pub suppressed: usize,
    pub thoughts: usize,
    pub distressed: bool,
}

/// Scans one agent at `now`: search, diagnose, act, then inner thoughts when a session ended.
pub async fn scan(deps: &Deps, agent: AgentId, now: DateTime<Utc>) -> anyhow::Result<ScanReport> {
    let pool = &deps.pool;
    let mut conn = pool.acquire().await?;
    let Some(a) = agent_row(&mut conn, agent).await? else {
        return Ok(ScanReport::default());
    };
    let day = owner_day(&mut conn, agent, &a, now).await?;
    // The owner's mood is the affect engine's (VADER, fast and slow averages), kept by every
    // chat turn: the same mood the chat prompt observes.
    let distressed = crate::cognition::affect::owner_mood(pool, agent).await?.is_some_and(|m| m.distress);
    let mut tx = pool.begin().await?;
    let newest = newest_owner_message(&mut tx, agent, now).await?;
    let found = search(&mut tx, agent, now, distressed).await?;
    tx.commit().await?;

    let mut report = ScanReport { found: found.len(), distressed, ..ScanReport::default() };
    if !found.is_empty() {
        let ranked = diagnose(deps, a.tenant, agent, found).await?;
        let mut tx = pool.begin().await?;
        let mut checkins = 0;
        for (f, urgency, justification) in ranked {
            // One new check-in per scan: the best one; the rest wait for the next.
            if f.kind() == "check_in" && checkins > 0 && f.level() > Level::Urgent {
                continue;
            }
            let verdict = Verdict { urgency: &urgency, justification: &justification, hold: None };
            let admitted = act(&mut tx, agent, &a, &day, now, &f, verdict).await?;
            match admitted {
                Some(true) => {
                    report.scheduled += 1;
                    if f.kind() == "check_in" {
                        checkins += 1;
                    }
                }
                Some(false) => report.suppressed += 1,
                None => {}
            }
        }
        tx.commit().await?;
    }
    report.thoughts = super::thoughts::inner_thoughts(pool, agent, &a, &day, now, distressed).await?;
    sqlx::query!(
        "UPDATE agent_proactive SET scanned_at = $2, scanned_through = greatest(scanned_through, $3), updated_at = now()
          WHERE agent_id = $1",
        agent as _,
        now,
        newest
    )
    .execute(pool)
    .await?;
    Ok(report)
}

async fn newest_owner_message(
    conn: &mut PgConnection,
    agent: AgentId,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<DateTime<Utc>>> {
    crate::chat::records::newest_owner_message(conn, agent, now).await
}

/// What the diagnosis said of a finding, and whether something holds it back whatever the dial
/// says (distress, for inner thoughts).
#[derive(Default)]
pub(super) struct Verdict<'a> {
    pub urgency: &'a str,
    pub justification: &'a str,
    pub hold: Option<&'a str>,
}

/// Act: stores the item, scheduled when nothing holds it and the dial and trust admit it, else
/// suppressed with the reason. `Some(true)` scheduled, `Some(false)` suppressed, `None` already
/// known.
pub(super) async fn act(
    conn: &mut PgConnection,
    agent: AgentId,
    a: &AgentRow,
    day: &Day,
    now: DateTime<Utc>,
    f: &Found,
    v: Verdict<'_>,
) -> sqlx::Result<Option<bool>> {
    let level = f.level();
    let urgency = match v.urgency {
        u @ ("high" | "medium" | "low") => u,
        _ => match level {
            Level::Urgent => "high",
            Level::Information => "medium",
            Level::Speculative => "low",
        },
    };
    let admitted = match v.hold {
        Some(reason) => Err(reason.to_string()),
        None => rules::admit(level, &a.dial, a.trust),
    };
    let (status, rule, reason) = match admitted {
        Ok(rule) => ("scheduled", rule, None),
        Err(reason) => ("suppressed", "held back".to_string(), Some(reason)),
    };
    let rule = match one_line(v.justification, 300) {
        j if j.is_empty() => rule,
        j => format!("{rule}; {j}"),
    };
    let timing = f.timing(level, day);
    let deliver_at = day.deliver_at(timing, now);
    let stored = sqlx::query_scalar!(
        "INSERT INTO proactive_items (agent_id, id, kind, source, signal, gap, urgency, level, rule, message, timing,
                                      deliver_at, status, status_reason, conversation_id, dedup_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         ON CONFLICT (agent_id, dedup_key) DO NOTHING RETURNING id",
        agent as _,
        Uuid::now_v7(),
        f.kind(),
        if matches!(f.signal, "follow_up" | "todo" | "reminder") { "inner_thought" } else { "gap_scanner" },
        f.signal,
        f.description,
        urgency,
        level.as_str(),
        rule,
        // Worded for when it is read: "yesterday" at next morning's delivery, not "today".
        f.message(deliver_at.unwrap_or(now).max(now), day),
        timing.as_str(),
        deliver_at,
        status,
        reason,
        f.conversation_id,
        f.dedup_key,
        now
    )
    .fetch_optional(&mut *conn)
    .await?;
    Ok(stored.map(|_| status == "scheduled"))
}
