//! Deep reflection (SPEC C2): every 12 hours per agent (spread over the interval), at most once
//! per 24 hours, for agents with at least 10 memories and 5 conversations; the owner or a key
//! with `soul:write` can ask for one at any time. The `mentor` role gets a snapshot (200
//! memories with metadata, 20 summaries of the last 30 days, tasks, usage by role and model,
//! the soul, knowledge gaps, the latest PoC score) and answers with memory actions, a calibration profile for
//! triage, a clarity score, an optional soul rewrite and strategic tasks. The output is
//! validated strictly: anything invalid applies nothing and the error is kept verbatim.
//! Otherwise at most 50 actions, the profile and the tasks are stored in one transaction, and
//! the soul rewrite goes through the soul guard.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::{AgentId, TenantId};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::actions;
use super::mentor::validate;
use miniclaw_core::vocabulary::ReflectionTrigger;
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::llm::roles::{Mentor, PocItem, TaskItem, UsageItem};
use miniclaw_platform::llm::{CallContext, ChatRequest};

pub const MIN_MEMORIES: i64 = 10;
pub const MIN_CONVERSATIONS: i64 = 5;
pub const COOLDOWN_HOURS: i64 = 24;
const SNAPSHOT: i64 = 200;
/// Knowledge gaps a reflection is shown (confirmed first, newest first).
const GAPS_CONSIDERED: i64 = 100;

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Reflection {
    pub id: Uuid,
    /// applied, rejected (invalid output, nothing applied), failed (the model call failed)
    pub status: String,
    /// schedule, owner, api_key, admin
    pub trigger: ReflectionTrigger,
    #[schema(value_type = Vec<Object>)]
    pub actions: Value,
    #[schema(value_type = Option<Object>)]
    pub calibration: Option<Value>,
    pub clarity: Option<i32>,
    /// The soul rewrite's fate, when one was proposed.
    #[schema(value_type = Option<Object>)]
    pub soul: Option<Value>,
    pub tasks: i32,
    pub error: Option<String>,
    pub engine: Option<String>,
    pub model: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// The agent's reflections, newest first: `limit` of them, before reflection `before` if given.
pub async fn list(pool: &PgPool, agent_id: AgentId, limit: i64, before: Option<Uuid>) -> sqlx::Result<Vec<Reflection>> {
    sqlx::query_as!(
        Reflection,
        r#"SELECT id, status, trigger AS "trigger: ReflectionTrigger", actions, calibration, clarity, soul, tasks, error,
                  engine, model, created_at
             FROM reflections WHERE agent_id = $1
              AND ($3::uuid IS NULL OR (created_at, id) < (SELECT p.created_at, p.id FROM reflections p WHERE p.agent_id = $1 AND p.id = $3))
            ORDER BY created_at DESC, id DESC LIMIT $2"#,
        agent_id as _,
        limit,
        before
    )
    .fetch_all(pool)
    .await
}

/// Why an agent cannot reflect now, if it cannot.
pub async fn not_ready(pool: &PgPool, agent_id: AgentId, check_cooldown: bool) -> sqlx::Result<Option<String>> {
    let memories = crate::memory::live_count(pool, agent_id).await?;
    let last = sqlx::query_scalar!(
        "SELECT max(created_at) FROM reflections WHERE agent_id = $1 AND status = 'applied'",
        agent_id as _
    )
    .fetch_one(pool)
    .await?;
    let conversations = crate::chat::records::count(pool, agent_id).await?;
    if memories < MIN_MEMORIES || conversations < MIN_CONVERSATIONS {
        return Ok(Some(format!(
            "reflection needs at least {MIN_MEMORIES} memories and {MIN_CONVERSATIONS} conversations; the agent has {memories} and {conversations}"
        )));
    }
    if check_cooldown
        && let Some(t) = last
        && Utc::now() - t < chrono::Duration::hours(COOLDOWN_HOURS)
    {
        return Ok(Some(format!("the last reflection was at {t}; the cooldown is {COOLDOWN_HOURS} hours")));
    }
    Ok(None)
}

/// Another reflection of the agent is running (in this process or another).
#[derive(Debug, thiserror::Error)]
#[error("a reflection of this agent is already running; try again when it has finished")]
pub struct AlreadyRunning;

/// Reflections a key may start per agent and hour.
pub const KEY_REFLECTIONS_PER_HOUR: i64 = 1;

/// Seconds until a key may start another reflection of the agent, if it must wait.
pub async fn key_wait(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<Option<i64>> {
    let oldest_in_window = sqlx::query_scalar!(
        r#"SELECT ceil(extract(epoch FROM min(created_at) + interval '1 hour' - now()))::bigint AS "wait"
             FROM (SELECT created_at FROM reflections
                    WHERE agent_id = $1 AND trigger = 'api_key' AND created_at > now() - interval '1 hour'
                    ORDER BY created_at DESC LIMIT $2) recent
           HAVING count(*) >= $2"#,
        agent_id as _,
        KEY_REFLECTIONS_PER_HOUR
    )
    .fetch_optional(pool)
    .await?;
    Ok(oldest_in_window.flatten().map(|w| w.max(1)))
}

/// Runs one reflection and returns its record. One at a time per agent, across processes (a
/// session advisory lock held for the run, on a connection that keeps its session even behind
/// a transaction pooler; a dead process's connection releases it): `AlreadyRunning` otherwise.
pub async fn run(
    deps: &Deps,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    trigger: ReflectionTrigger,
) -> anyhow::Result<Reflection> {
    let mut lock = deps.session_pool.acquire().await?;
    let locked = sqlx::query_scalar!(
        r#"SELECT pg_try_advisory_lock(hashtextextended('reflection:' || $1::text, 0)) AS "locked!""#,
        agent_id as _
    )
    .fetch_one(&mut *lock)
    .await?;
    if !locked {
        return Err(AlreadyRunning.into());
    }
    let result = run_locked(deps, tenant_id, agent_id, origin, trigger).await;
    let unlocked = sqlx::query_scalar!(
        r#"SELECT pg_advisory_unlock(hashtextextended('reflection:' || $1::text, 0)) AS "unlocked!""#,
        agent_id as _
    )
    .fetch_one(&mut *lock)
    .await;
    if unlocked.is_err() {
        // The lock must not outlive the run: closing the connection releases it.
        lock.detach();
    }
    result
}

async fn run_locked(
    deps: &Deps,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    trigger: ReflectionTrigger,
) -> anyhow::Result<Reflection> {
    let (pool, llm) = (&deps.pool, deps.llm.as_ref());
    let mut conn = pool.acquire().await?;
    let snapshot = actions::snapshot(&mut conn, agent_id, SNAPSHOT).await?;
    drop(conn);
    let summaries = crate::chat::records::recent_summaries(pool, agent_id, 30, 20).await?;
    let tasks: Vec<TaskItem> = sqlx::query!(
        "SELECT title, status FROM agent_tasks WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 30",
        agent_id as _
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|t| TaskItem { title: t.title, status: t.status })
    .collect();
    let usage = miniclaw_platform::llm::usage::by_role(pool, agent_id, 7).await?;
    let soul = crate::cognition::soul::current(pool, agent_id).await?.map(|s| s.content);
    let gaps: Vec<String> =
        super::lint::gaps(pool, agent_id, GAPS_CONSIDERED, None).await?.into_iter().map(|g| g.question).collect();
    let poc_score = crate::onchain::poc::latest(pool, agent_id).await?.map(|p| PocItem {
        total: p.total,
        grade: p.grade,
        dimensions: p.dimensions,
        day: p.day.to_string(),
    });
    // The one mood (the affect engine's) and the behavioural signals: what reflection may
    // weigh about the people the agent serves.
    let (mood, behaviour) =
        tokio::try_join!(super::affect::owner_mood(pool, agent_id), super::signals::get(pool, agent_id))?;
    let people = (mood.is_some() || behaviour.is_some()).then(|| {
        json!({
            "owner_mood": mood.map(|m| json!({ "label": m.label, "recent_valence": (m.fast_valence * 100.0).round() / 100.0,
                "usual_valence": (m.slow_valence * 100.0).round() / 100.0, "distress": m.distress })),
            "behaviour": behaviour.map(|b| json!({ "messages": b.messages, "messages_per_day": b.frequency_per_day,
                "turns_per_conversation": b.session_depth, "topic_switch_rate": b.topic_switch_rate,
                "characters_per_message": b.message_chars.round() })),
        })
    });
    let input = Mentor {
        memories: actions::memories_input(&snapshot),
        summaries,
        tasks,
        usage: usage.into_iter().map(|(role, model, calls, tokens)| UsageItem { role, model, calls, tokens }).collect(),
        soul,
        knowledge_gaps: gaps,
        poc_score,
        people,
    };
    // The stored input: counts and the snapshot's ids, not every memory's text again.
    let input_summary = json!({
        "memories": snapshot.iter().map(|m| m.id).collect::<Vec<_>>(),
        "summaries": input.summaries.len(), "tasks": input.tasks.len(), "usage": input.usage,
        "soul_version": input.soul.is_some(), "knowledge_gaps": input.knowledge_gaps,
        "poc_score": input.poc_score.as_ref().map(|p| p.total), "people": input.people,
    });
    let req = ChatRequest::from_input(input);
    let ctx = CallContext::for_agent(tenant_id, agent_id, origin).background(trigger == ReflectionTrigger::Schedule);
    let id = Uuid::now_v7();
    let answer = match llm.complete(&ctx, req).await {
        Ok(a) => a,
        Err(e) => {
            if matches!(e, miniclaw_platform::llm::LlmError::Refused(_)) {
                return Err(e.into());
            }
            return record_failure(
                pool,
                tenant_id,
                agent_id,
                origin,
                id,
                trigger,
                &input_summary,
                None,
                "failed",
                &e.to_string(),
                None,
            )
            .await;
        }
    };
    let engine = match answer.engine {
        miniclaw_platform::llm::Engine::Model => "model",
        miniclaw_platform::llm::Engine::Offline => "offline",
    };
    let out = match validate(&answer.content, snapshot.len()) {
        Ok(o) => o,
        Err(e) => {
            return record_failure(
                pool,
                tenant_id,
                agent_id,
                origin,
                id,
                trigger,
                &input_summary,
                Some(&answer.content),
                "rejected",
                &e,
                Some((engine, &answer.model)),
            )
            .await;
        }
    };

    let mut tx = pool.begin().await?;
    sqlx::query!(
        "INSERT INTO reflections (id, agent_id, status, trigger, input, output, engine, model)
         VALUES ($1, $2, 'applied', $3, $4, $5, $6, $7)",
        id,
        agent_id as _,
        trigger.as_str(),
        input_summary,
        answer.content,
        engine,
        answer.model
    )
    .execute(&mut *tx)
    .await?;
    let by =
        actions::Applying { tenant_id, agent_id, origin, activity: "reflection.action", reason: "deep reflection" };
    let applied = actions::apply(&mut tx, &by, &snapshot, &out.actions).await?;
    crate::chat::records::set_calibration(&mut tx, agent_id, &out.calibration).await?;
    for (title, detail) in &out.tasks {
        sqlx::query!(
            "INSERT INTO agent_tasks (id, agent_id, title, detail, source, reflection_id) VALUES ($1, $2, $3, $4, 'reflection', $5)",
            Uuid::now_v7(),
            agent_id as _,
            title,
            detail.as_deref(),
            id
        )
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query!(
        "UPDATE reflections SET actions = $3, calibration = $4, clarity = $5, tasks = $6 WHERE agent_id = $1 AND id = $2",
        agent_id as _,
        id,
        json!(applied),
        out.calibration,
        out.clarity,
        out.tasks.len() as i32
    )
    .execute(&mut *tx)
    .await?;
    activity::record_agent(
        &mut tx,
        tenant_id,
        agent_id,
        origin,
        "reflection.applied",
        json!({ "reflection": id, "actions": applied.len(), "clarity": out.clarity, "tasks": out.tasks.len() }),
    )
    .await?;
    tx.commit().await?;

    // The soul rewrite passes the guard like any non-owner rewrite.
    if let Some(new_soul) = out.soul_rewrite {
        let job_origin = Origin::new(crate::tenancy::auth::Actor::Job("reflection".into()), origin.request_id.clone());
        let fate = match crate::cognition::soul::propose(
            deps,
            tenant_id,
            agent_id,
            &new_soul,
            Some("deep reflection"),
            &job_origin,
        )
        .await
        {
            Ok(d) => {
                json!({ "accepted": d.accepted, "method": d.method, "reason": d.reason, "version": d.version.map(|v| v.version) })
            }
            Err(e) => json!({ "accepted": false, "method": "invalid", "reason": e.to_string() }),
        };
        sqlx::query!("UPDATE reflections SET soul = $3 WHERE agent_id = $1 AND id = $2", agent_id as _, id, fate)
            .execute(pool)
            .await?;
    }
    super::dossier::request_recompile(pool, agent_id).await?;
    Ok(sqlx::query_as!(
        Reflection,
        r#"SELECT id, status, trigger AS "trigger: ReflectionTrigger", actions, calibration, clarity, soul, tasks, error,
                  engine, model, created_at
             FROM reflections WHERE id = $1"#,
        id
    )
    .fetch_one(pool)
    .await?)
}

#[expect(clippy::too_many_arguments, reason = "every field of the failure record")]
async fn record_failure(
    pool: &PgPool,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    id: Uuid,
    trigger: ReflectionTrigger,
    input: &Value,
    output: Option<&str>,
    status: &str,
    error: &str,
    model: Option<(&str, &str)>,
) -> anyhow::Result<Reflection> {
    let mut tx = pool.begin().await?;
    let r = sqlx::query_as!(
        Reflection,
        r#"INSERT INTO reflections (id, agent_id, status, trigger, input, output, error, engine, model)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         RETURNING id, status, trigger AS "trigger: ReflectionTrigger", actions, calibration, clarity, soul, tasks, error,
                   engine, model, created_at"#,
        id,
        agent_id as _,
        status,
        trigger as _,
        input,
        output,
        error,
        model.map(|m| m.0),
        model.map(|m| m.1)
    )
    .fetch_one(&mut *tx)
    .await?;
    activity::record_agent_error(
        &mut tx,
        tenant_id,
        agent_id,
        origin,
        &format!("reflection.{status}"),
        json!({ "reflection": id }),
        error,
    )
    .await?;
    tx.commit().await?;
    Ok(r)
}

/// Whether a reflection of the agent was ever applied.
pub async fn any_applied(pool: &PgPool, agent: AgentId) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM reflections WHERE agent_id = $1 AND status = 'applied') AS "applied!""#,
        agent as _
    )
    .fetch_one(pool)
    .await
}
