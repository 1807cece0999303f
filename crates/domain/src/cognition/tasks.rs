//! The agent's tasks (SPEC C2, S3): set by deep reflection, by the owner, or by the agent's
//! miniapps (keys with `tasks:write`), and passed by the owner before anyone works on them:
//!
//! `pending → approved → in_progress → done`, and `rejected` from any of the first three.
//!
//! Only the owner approves or rejects; an agent (a key) may only start an approved task and
//! finish one in progress. Every other move is 409 naming the task's state. Every change is in
//! the activity log.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};

#[derive(Debug, Clone, serde::Serialize, sqlx::FromRow, ToSchema)]
pub struct Task {
    pub id: Uuid,
    pub title: String,
    pub detail: Option<String>,
    /// pending, approved, in_progress, done, rejected
    pub status: String,
    /// Where it came from: `reflection`, `owner` or `agent` (a key).
    pub source: String,
    pub reflection_id: Option<Uuid>,
    pub due_at: Option<DateTime<Utc>>,
    /// Why it was rejected (or another note given with the last move).
    pub reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The statuses a task is still live in, listed first.
pub const LIVE: [&str; 3] = ["pending", "approved", "in_progress"];
pub const TITLE_MAX: usize = 200;
pub const DETAIL_MAX: usize = 2000;

/// Who moves a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mover {
    Owner,
    Agent,
}

/// Whether `who` may move a task from `from` to `to`: `Ok(())`, or the refusal (403 for a move
/// only the owner makes, 409 for a move the state machine does not have).
pub fn check_move(from: &str, to: &str, who: Mover) -> Result<(), Error> {
    let legal = matches!(
        (from, to),
        ("pending", "approved")
            | ("approved", "in_progress")
            | ("in_progress", "done")
            | ("pending" | "approved" | "in_progress", "rejected")
    );
    if !legal {
        return Err(Error::Conflict(format!("the task is {from}; it cannot become {to}")));
    }
    if who == Mover::Agent && matches!(to, "approved" | "rejected") {
        return Err(Error::Refused {
            code: "owner_only",
            message: "only the owner approves or rejects a task; an agent starts approved tasks and finishes them"
                .into(),
        });
    }
    Ok(())
}

/// The columns of a whole task: the statements that return one are checked at run time because
/// they share this list.
const COLUMNS: &str = "id, title, detail, status, source, reflection_id, due_at, reason, created_at, updated_at";

/// The agent's tasks, live ones first, newest first: `limit` of them, after task `before` in
/// that order if given.
pub async fn list(pool: &PgPool, agent_id: AgentId, limit: i64, before: Option<Uuid>) -> sqlx::Result<Vec<Task>> {
    sqlx::query_as!(
        Task,
        "SELECT id, title, detail, status, source, reflection_id, due_at, reason, created_at, updated_at FROM agent_tasks
          WHERE agent_id = $1
            AND ($3::uuid IS NULL OR (status = ANY($4), created_at, id)
                 < (SELECT p.status = ANY($4), p.created_at, p.id FROM agent_tasks p WHERE p.agent_id = $1 AND p.id = $3))
          ORDER BY status = ANY($4) DESC, created_at DESC, id DESC LIMIT $2",
        agent_id as _,
        limit,
        before,
        &LIVE.map(String::from)
    )
    .fetch_all(pool)
    .await
}

/// A new task, or changed fields of one.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskInput {
    /// 1–200 characters (required for a new task).
    pub title: Option<String>,
    /// At most 2,000 characters; an empty string clears it.
    pub detail: Option<String>,
    /// When it is due (RFC 3339); `null` leaves it.
    pub due_at: Option<DateTime<Utc>>,
}

fn clean(input: &TaskInput) -> Result<(Option<String>, Option<String>), Error> {
    let title = input.title.as_deref().map(str::trim).map(str::to_string);
    if title.as_deref().is_some_and(str::is_empty) {
        return Err(Error::validation("title", "title must not be empty"));
    }
    if let Some(t) = &title {
        Error::check_length("title", t, TITLE_MAX)?;
    }
    let detail = input.detail.as_deref().map(str::trim).map(str::to_string);
    if let Some(d) = &detail {
        Error::check_length("detail", d, DETAIL_MAX)?;
    }
    Ok((title, detail))
}

/// Creates a task (`pending`: it waits for the owner's approval, whoever made it).
pub async fn create(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    who: Mover,
    input: TaskInput,
) -> Result<Task, Error> {
    let (title, detail) = clean(&input)?;
    let title = title.ok_or_else(|| Error::validation("title", "title is required"))?;
    let source = if who == Mover::Owner { "owner" } else { "agent" };
    let mut tx = pool.begin().await?;
    let task: Task = sqlx::query_as(&format!(
        "INSERT INTO agent_tasks (id, agent_id, title, detail, source, due_at) VALUES ($1, $2, $3, nullif($4, ''), $5, $6)
         RETURNING {COLUMNS}"
    ))
    .bind(Uuid::now_v7())
    .bind(agent)
    .bind(&title)
    .bind(&detail)
    .bind(source)
    .bind(input.due_at)
    .fetch_one(&mut *tx)
    .await?;
    let details = json!({ "task": task.id, "title": task.title, "due_at": task.due_at });
    activity::record_agent(&mut tx, tenant, agent, origin, "task.created", details).await?;
    let event = json!({ "task_id": task.id, "status": task.status, "source": source });
    crate::channels::webhooks::emit(&mut tx, agent, "task.created", event).await?;
    tx.commit().await?;
    Ok(task)
}

/// The task's status, its row locked for the caller's transaction; 404 when the agent has no
/// such task.
async fn locked_status(tx: &mut sqlx::PgConnection, agent: AgentId, id: Uuid) -> Result<String, Error> {
    let status = sqlx::query_scalar!(
        "SELECT status FROM agent_tasks WHERE agent_id = $1 AND id = $2 FOR UPDATE",
        agent as _,
        id
    )
    .fetch_optional(tx)
    .await?;
    status.ok_or_else(|| Error::not_found("task"))
}

/// Changes a live task's title, detail or due date.
pub async fn update(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    id: Uuid,
    input: TaskInput,
) -> Result<Task, Error> {
    let (title, detail) = clean(&input)?;
    let mut tx = pool.begin().await?;
    let status = locked_status(&mut tx, agent, id).await?;
    if !LIVE.contains(&status.as_str()) {
        return Err(Error::Conflict(format!("the task is {status}; it can no longer change")));
    }
    let task: Task = sqlx::query_as(&format!(
        "UPDATE agent_tasks SET title = coalesce($3, title),
                detail = CASE WHEN $4::text IS NULL THEN detail ELSE nullif($4, '') END,
                due_at = coalesce($5, due_at), updated_at = now()
          WHERE agent_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(agent)
    .bind(id)
    .bind(&title)
    .bind(&detail)
    .bind(input.due_at)
    .fetch_one(&mut *tx)
    .await?;
    activity::record_agent(&mut tx, tenant, agent, origin, "task.updated", json!({ "task": id })).await?;
    let event = json!({ "task_id": id, "status": task.status });
    crate::channels::webhooks::emit(&mut tx, agent, "task.updated", event).await?;
    tx.commit().await?;
    Ok(task)
}

/// Moves a task to `to` (see the module); `reason` is kept with it (e.g. why it was rejected).
#[expect(clippy::too_many_arguments, reason = "who, which task, where to and why")]
pub async fn transition(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    who: Mover,
    id: Uuid,
    to: &str,
    reason: Option<&str>,
) -> Result<Task, Error> {
    if let Some(r) = reason {
        Error::check_length("reason", r, 500)?;
    }
    let mut tx = pool.begin().await?;
    let from = locked_status(&mut tx, agent, id).await?;
    check_move(&from, to, who)?;
    let task: Task = sqlx::query_as(&format!(
        "UPDATE agent_tasks SET status = $3, reason = coalesce(nullif(btrim($4), ''), reason), updated_at = now()
          WHERE agent_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(agent)
    .bind(id)
    .bind(to)
    .bind(reason)
    .fetch_one(&mut *tx)
    .await?;
    let details = json!({ "task": id, "from": from, "to": to, "reason": reason });
    activity::record_agent(&mut tx, tenant, agent, origin, &format!("task.{to}"), details).await?;
    let event = json!({ "task_id": id, "status": to, "from": from });
    crate::channels::webhooks::emit(&mut tx, agent, "task.updated", event).await?;
    tx.commit().await?;
    Ok(task)
}

/// An open task with a due date.
pub struct Due {
    pub id: Uuid,
    pub title: String,
    pub due_at: DateTime<Utc>,
}

/// The agent's open tasks (pending, approved, in progress) due after `after` and no later than
/// `until`, soonest first, at most `limit`.
pub async fn open_due(
    conn: &mut sqlx::PgConnection,
    agent: AgentId,
    after: DateTime<Utc>,
    until: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<Due>> {
    sqlx::query_as!(
        Due,
        r#"SELECT id, title, due_at AS "due_at!" FROM agent_tasks
            WHERE agent_id = $1 AND status IN ('pending', 'approved', 'in_progress') AND due_at > $2 AND due_at <= $3
            ORDER BY due_at LIMIT $4"#,
        agent as _,
        after,
        until,
        limit
    )
    .fetch_all(conn)
    .await
}

/// The status of task `task` of agent `agent` (SQL expressions; text, NULL when there is none),
/// for other areas' statements.
pub fn status_sql(agent: &str, task: &str) -> String {
    format!("(SELECT t.status FROM agent_tasks t WHERE t.agent_id = {agent} AND t.id = {task})")
}

/// Whether agent `agent` has an open task (pending, approved or in progress) due after `after`
/// and no later than `until`, for which `and` holds (`and` may name the task `t`; SQL
/// expressions, boolean).
pub fn open_due_sql(agent: &str, after: &str, until: &str, and: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM agent_tasks t
                  WHERE t.agent_id = {agent} AND t.status IN ('pending', 'approved', 'in_progress')
                    AND t.due_at > {after} AND t.due_at <= {until} AND {and})"
    )
}

/// Whether the agent ever finished a task.
pub async fn any_done(pool: &PgPool, agent: AgentId) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM agent_tasks WHERE agent_id = $1 AND status = 'done') AS "done!""#,
        agent as _
    )
    .fetch_one(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_owner_passes_tasks_and_agents_only_work_on_approved_ones() {
        let all = ["pending", "approved", "in_progress", "done", "rejected"];
        let mut legal = Vec::new();
        for from in all {
            for to in all {
                if check_move(from, to, Mover::Owner).is_ok() {
                    legal.push((from, to));
                }
            }
        }
        assert_eq!(
            legal,
            [
                ("pending", "approved"),
                ("pending", "rejected"),
                ("approved", "in_progress"),
                ("approved", "rejected"),
                ("in_progress", "done"),
                ("in_progress", "rejected"),
            ]
        );
        assert!(check_move("approved", "in_progress", Mover::Agent).is_ok());
        assert!(check_move("in_progress", "done", Mover::Agent).is_ok());
        let e = check_move("pending", "approved", Mover::Agent).unwrap_err();
        assert!(matches!(e, Error::Refused { code: "owner_only", .. }));
        let e = check_move("pending", "in_progress", Mover::Agent).unwrap_err();
        assert!(
            matches!(e, Error::Conflict(ref m) if m == "the task is pending; it cannot become in_progress"),
            "{e:?}"
        );
    }
}
