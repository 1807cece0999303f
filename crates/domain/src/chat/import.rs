//! Importing a history (issue: memory on real conversations): a transcript of messages with
//! their times is recorded whole, then jobs run extraction over it in order, a few exchanges
//! at a time, one step per job, so the memories it finds carry the times they were said
//! (`occurred_at`) and a long import never holds a worker for long. Each step commits its
//! memories, its progress and the next step's job together: a crash resumes where the last
//! step ended, and nothing is stored twice. The same transcript sent again is recognised by its hash
//! and stores nothing new.

use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::chat::calibrate::{FlushReport, Said, extract_and_store};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::queue::{NewJob, enqueue_in};
use miniclaw_platform::llm::CallContext;

/// The job that works an import off.
pub const IMPORT_JOB: &str = "memory_import";
/// Most messages one import takes.
pub const MESSAGES_MAX: usize = 5_000;
/// Exchanges one extraction reads, at most; a step never spans two days (UTC), so what it
/// finds is dated to the day it was said.
const STEP: usize = 10;

/// One message of a transcript: who said it (`role` user or assistant, or a `speaker`'s name),
/// what, and when.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportMessage {
    /// `user` or `assistant`; give this or `speaker`.
    pub role: Option<String>,
    /// The speaker's name (1–64 characters), for a conversation between people.
    pub speaker: Option<String>,
    /// 1–5,000 characters.
    pub content: String,
    /// When it was said.
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// 1–5,000 messages, in any order (they are read in time order).
    pub messages: Vec<ImportMessage>,
}

/// An import and how far it got.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct Import {
    pub id: Uuid,
    pub agent_id: AgentId,
    /// `queued`, `running`, `done` or `failed`.
    pub status: String,
    /// Messages in the transcript, and how many extraction has read.
    pub messages: i32,
    pub processed: i32,
    /// Memories it created, and known ones it met again (their mention count went up).
    pub created: i32,
    pub reinforced: i32,
    /// Why the last step failed (it is retried; `failed` once the retries are used up).
    pub error: Option<String>,
    /// The newest and oldest message times.
    pub first_at: DateTime<Utc>,
    pub last_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// An import as the start call returns it: `duplicate` when this transcript was imported
/// before (nothing new is stored; the earlier import is returned).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Started {
    #[serde(flatten)]
    pub import: Import,
    pub duplicate: bool,
}

fn field(i: usize, name: &str, message: impl Into<String>) -> Error {
    Error::validation(&format!("messages[{i}].{name}"), format!("messages[{i}]: {}", message.into()))
}

/// Checks a transcript; the error names the first bad message and field.
pub fn validate(req: &ImportRequest) -> Result<(), Error> {
    if req.messages.is_empty() || req.messages.len() > MESSAGES_MAX {
        return Err(Error::validation("messages", format!("send between 1 and {MESSAGES_MAX} messages")));
    }
    for (i, m) in req.messages.iter().enumerate() {
        match (&m.role, &m.speaker) {
            (Some(r), None) if r == "user" || r == "assistant" => {}
            (Some(_), None) => return Err(field(i, "role", "role must be user or assistant")),
            (None, Some(s)) if (1..=64).contains(&s.trim().chars().count()) && !s.contains(':') => {}
            (None, Some(_)) => return Err(field(i, "speaker", "speaker must be 1–64 characters without a colon")),
            _ => return Err(field(i, "role", "give either role or speaker")),
        }
        if m.content.trim().is_empty() {
            return Err(field(i, "content", "content must not be empty"));
        }
        if m.content.chars().count() > crate::memory::MAX_CONTENT_CHARS {
            return Err(field(
                i,
                "content",
                format!("content is longer than {} characters", crate::memory::MAX_CONTENT_CHARS),
            ));
        }
        if crate::memory::validate_time(Some(m.created_at)).is_err() {
            return Err(field(i, "created_at", "created_at must be after 1900 and not more than a day ahead"));
        }
    }
    Ok(())
}

/// The transcript in time order (stable for equal times) and its hash.
fn canonical(mut messages: Vec<ImportMessage>, end_user: Option<&str>) -> (Vec<ImportMessage>, String) {
    messages.sort_by_key(|m| m.created_at);
    let mut h = Sha256::new();
    // The same transcript from two end users is two imports.
    if let Some(u) = end_user {
        h.update(format!("end_user:{u}\u{2}").as_bytes());
    }
    for m in &messages {
        let who = m
            .role
            .as_deref()
            .map_or_else(|| format!("speaker:{}", m.speaker.as_deref().unwrap_or("")), |r| format!("role:{r}"));
        h.update(format!("{who}\u{0}{}\u{0}{}\u{1}", m.created_at.timestamp_micros(), m.content.trim()).as_bytes());
    }
    (messages, hex::encode(h.finalize()))
}

const COLUMNS: &str =
    "id, agent_id, status, messages, processed, created, reinforced, error, first_at, last_at, created_at, finished_at";

/// Records a transcript and queues its extraction, or returns the earlier import of the same
/// transcript. For an end user (`end_user`), what it teaches is theirs (SPEC H1).
pub async fn start(
    pool: &PgPool,
    agent_id: AgentId,
    end_user: Option<&str>,
    req: ImportRequest,
) -> Result<Started, Error> {
    validate(&req)?;
    let (messages, hash) = canonical(req.messages, end_user);
    let (first, last) = (messages[0].created_at, messages[messages.len() - 1].created_at);
    let mut tx = pool.begin().await?;
    let inserted: Option<Import> = sqlx::query_as(&format!(
        "INSERT INTO memory_imports (id, agent_id, transcript_hash, transcript, messages, first_at, last_at, end_user)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (agent_id, transcript_hash) DO NOTHING RETURNING {COLUMNS}"
    ))
    .bind(Uuid::now_v7())
    .bind(agent_id)
    .bind(&hash)
    .bind(sqlx::types::Json(&messages))
    .bind(messages.len() as i32)
    .bind(first)
    .bind(last)
    .bind(end_user)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(import) = inserted else {
        drop(tx);
        let import: Import = sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM memory_imports WHERE agent_id = $1 AND transcript_hash = $2"
        ))
        .bind(agent_id)
        .bind(&hash)
        .fetch_one(pool)
        .await?;
        return Ok(Started { import, duplicate: true });
    };
    enqueue_in(&mut tx, step_job(agent_id, import.id, 0)).await?;
    tx.commit().await?;
    Ok(Started { import, duplicate: false })
}

/// An import of the agent; acting for an end user (`end_user`), only one of theirs.
pub async fn get(pool: &PgPool, agent_id: AgentId, end_user: Option<&str>, id: Uuid) -> Result<Import, Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM memory_imports WHERE agent_id = $1 AND id = $2 AND ($3::text IS NULL OR end_user = $3)"
    ))
    .bind(agent_id)
    .bind(id)
    .bind(end_user)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("import"))
}

/// The agent's imports (acting for an end user, only theirs), newest first: `limit` of them
/// before the import `before` (the ids are time-ordered).
pub async fn list(
    pool: &PgPool,
    agent_id: AgentId,
    end_user: Option<&str>,
    before: Option<Uuid>,
    limit: i64,
) -> Result<Vec<Import>, Error> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM memory_imports WHERE agent_id = $1 AND ($2::uuid IS NULL OR id < $2)
            AND ($4::text IS NULL OR end_user = $4)
          ORDER BY id DESC LIMIT $3"
    ))
    .bind(agent_id)
    .bind(before)
    .bind(limit)
    .bind(end_user)
    .fetch_all(pool)
    .await?)
}

/// The exchanges of a transcript in order: each user-side message (a `user` message, or any
/// speaker's, named as `Speaker: …` when more than one person speaks) with the assistant's
/// reply that follows it.
fn exchanges(messages: &[ImportMessage]) -> Vec<(usize, Said)> {
    let speakers: std::collections::HashSet<&str> = messages.iter().filter_map(|m| m.speaker.as_deref()).collect();
    let mut out: Vec<(usize, Said)> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        if m.role.as_deref() == Some("assistant") {
            if let Some((end, last)) = out.last_mut().filter(|(_, s)| s.reply.is_none()) {
                last.reply = Some(m.content.trim().to_string());
                *end = i + 1;
                continue;
            }
            // A reply with nothing before it: nothing the user said.
            out.push((
                i + 1,
                Said {
                    content: String::new(),
                    reply: None,
                    created_at: m.created_at,
                    save_hint: None,
                    injected: vec![],
                },
            ));
            continue;
        }
        let content = match &m.speaker {
            Some(s) if speakers.len() > 1 => format!("{}: {}", s.trim(), m.content.trim()),
            _ => m.content.trim().to_string(),
        };
        out.push((i + 1, Said { content, reply: None, created_at: m.created_at, save_hint: None, injected: vec![] }));
    }
    out
}

/// The job that runs the step of import `id` starting at message `at`. Each job runs one step
/// and queues the next in the step's own transaction: a long import takes its turn in the
/// queue beside other work (and other accounts' work) instead of holding a worker's slot for
/// minutes. The key makes a step's job unique, so a retried job cannot start a second chain.
fn step_job(agent_id: AgentId, id: Uuid, at: usize) -> NewJob {
    NewJob::new(IMPORT_JOB)
        .agent(agent_id)
        .payload(json!({ "import_id": id, "at": at }))
        .idempotency_key(format!("{IMPORT_JOB}:{id}:{at}"))
        .max_attempts(5)
}

/// One step of an import: the next exchanges extracted and stored with the progress, and the
/// next step's job queued, in one transaction. `at` is where the job was asked to start (a job
/// finding the import moved past it is a retry of a step that committed: its successor is
/// queued already, and it does nothing). Returns false when there is nothing more to do here.
async fn step(
    deps: &Deps,
    agent_id: AgentId,
    tenant_id: TenantId,
    id: Uuid,
    at: Option<usize>,
) -> anyhow::Result<bool> {
    let mut tx = deps.pool.begin().await?;
    // The transcript, how far it is read, its status and whose it is.
    type Row = (sqlx::types::Json<Vec<ImportMessage>>, i32, String, Option<String>);
    let row: Option<Row> = sqlx::query_as(
        "SELECT transcript, processed, status, end_user FROM memory_imports WHERE id = $1 AND agent_id = $2 FOR UPDATE",
    )
    .bind(id)
    .bind(agent_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((sqlx::types::Json(messages), processed, status, end_user)) = row else {
        anyhow::bail!("import {id} does not exist");
    };
    if status == "done" || processed as usize >= messages.len() || at.is_some_and(|a| a != processed as usize) {
        return Ok(false);
    }
    let rest = &messages[processed as usize..];
    let mut batch: Vec<(usize, Said)> = exchanges(rest);
    batch.truncate(STEP);
    if let Some(day) = batch.first().map(|(_, s)| s.created_at.date_naive()) {
        batch.retain(|(_, s)| s.created_at.date_naive() == day);
    }
    // Stop at a whole exchange: a user message whose reply is past the step waits for the next.
    let end = processed as usize + batch.last().map_or(rest.len(), |(end, _)| *end);
    let said: Vec<Said> = batch.into_iter().map(|(_, s)| s).filter(|s| !s.content.is_empty()).collect();
    let mut report = FlushReport::default();
    if !said.is_empty() {
        crate::memory::check_room(&mut tx, agent_id, said.len(), deps.caps.memories_per_agent).await?;
        let ctx = CallContext::job(agent_id, Some(tenant_id));
        let (llm, embedder, whose) = (deps.llm.as_ref(), deps.embedder(), end_user.as_deref());
        extract_and_store(&mut tx, llm, embedder, &ctx, agent_id, whose, &said, &mut report).await?;
    }
    let finished = end >= messages.len();
    sqlx::query(
        "UPDATE memory_imports SET processed = $2, created = created + $3, reinforced = reinforced + $4,
                status = CASE WHEN $5 THEN 'done' ELSE 'running' END, error = NULL,
                finished_at = CASE WHEN $5 THEN now() END
          WHERE id = $1",
    )
    .bind(id)
    .bind(end as i32)
    .bind((report.created + report.updated) as i32)
    .bind(report.reinforced as i32)
    .bind(finished)
    .execute(&mut *tx)
    .await?;
    if !finished {
        enqueue_in(&mut tx, step_job(agent_id, id, end)).await?;
    }
    tx.commit().await?;
    if report.created + report.updated > 0 {
        crate::cognition::dossier::request_recompile(&deps.pool, agent_id).await?;
    }
    Ok(!finished)
}

/// Runs one step of an import (`at`: where this job starts; `None` for a job queued before
/// steps had their own jobs, which works the import off to the end). A failing step records
/// its error and fails the job (the queue retries it with backoff; the last attempt marks the
/// import `failed`). Returns how many messages are read so far.
pub async fn run(
    deps: &Deps,
    agent_id: AgentId,
    tenant_id: TenantId,
    id: Uuid,
    at: Option<usize>,
    last_attempt: bool,
) -> anyhow::Result<i32> {
    loop {
        match step(deps, agent_id, tenant_id, id, at).await {
            Ok(true) if at.is_none() => continue,
            Ok(_) => break,
            Err(e) => {
                let message = format!("{e:#}");
                sqlx::query(
                    "UPDATE memory_imports SET error = $2, status = CASE WHEN $3 THEN 'failed' ELSE status END,
                            finished_at = CASE WHEN $3 THEN now() END WHERE id = $1",
                )
                .bind(id)
                .bind(&message)
                .bind(last_attempt)
                .execute(&deps.pool)
                .await?;
                return Err(e);
            }
        }
    }
    let processed: i32 =
        sqlx::query_scalar("SELECT processed FROM memory_imports WHERE id = $1").bind(id).fetch_one(&deps.pool).await?;
    Ok(processed)
}

/// The import job.
pub fn cycle() -> miniclaw_platform::jobs::Cycle {
    use miniclaw_platform::jobs::registry::{Cycle, CycleScope, JobContext};
    Cycle::new(
        IMPORT_JOB,
        CycleScope::Agent,
        "Runs extraction over an imported transcript, with the messages' own times (memories/import).",
        |ctx: JobContext| async move {
            let (agent, tenant) = ctx.agent().await?;
            let id: Uuid = ctx
                .job
                .payload
                .get("import_id")
                .and_then(|v| v.as_str())
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| anyhow::anyhow!("`{IMPORT_JOB}` needs an import_id in its payload"))?;
            let at = ctx.job.payload.get("at").and_then(|v| v.as_u64()).map(|a| a as usize);
            // `attempts` counts this run.
            let last = ctx.job.attempts >= ctx.job.max_attempts;
            let processed = run(ctx.deps()?, agent, tenant, id, at, last).await?;
            Ok(json!({ "import_id": id, "processed": processed }))
        },
    )
    .max_attempts(5)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(role: Option<&str>, speaker: Option<&str>, content: &str, at: &str) -> ImportMessage {
        ImportMessage {
            role: role.map(String::from),
            speaker: speaker.map(String::from),
            content: content.into(),
            created_at: at.parse().unwrap(),
        }
    }

    #[test]
    fn a_bad_message_is_named() {
        let ok = msg(Some("user"), None, "I moved to Lisbon", "2024-01-02T10:00:00Z");
        let req = |m: Vec<ImportMessage>| ImportRequest { messages: m };
        assert!(validate(&req(vec![ok.clone()])).is_ok());
        for (bad, field) in [
            (msg(Some("system"), None, "x", "2024-01-02T10:00:00Z"), "messages[1].role"),
            (msg(None, None, "x", "2024-01-02T10:00:00Z"), "messages[1].role"),
            (msg(Some("user"), Some("Dana"), "x", "2024-01-02T10:00:00Z"), "messages[1].role"),
            (msg(None, Some("Dana: x"), "x", "2024-01-02T10:00:00Z"), "messages[1].speaker"),
            (msg(Some("user"), None, "  ", "2024-01-02T10:00:00Z"), "messages[1].content"),
            (msg(Some("user"), None, "x", "2999-01-02T10:00:00Z"), "messages[1].created_at"),
        ] {
            match validate(&req(vec![ok.clone(), bad])) {
                Err(Error::Invalid { details: Some(d), .. }) => assert_eq!(d["field"], field),
                other => panic!("{field}: {other:?}"),
            }
        }
        assert!(validate(&req(vec![])).is_err());
    }

    #[test]
    fn exchanges_pair_replies_and_name_speakers() {
        let (m, _) = canonical(
            vec![
                msg(Some("assistant"), None, "Lovely!", "2024-01-02T10:01:00Z"),
                msg(Some("user"), None, "I moved to Lisbon", "2024-01-02T10:00:00Z"),
                msg(Some("user"), None, "It is sunny", "2024-01-02T10:02:00Z"),
            ],
            None,
        );
        let ex = exchanges(&m);
        assert_eq!(ex.len(), 2);
        assert_eq!(ex[0].1.content, "I moved to Lisbon");
        assert_eq!(ex[0].1.reply.as_deref(), Some("Lovely!"));
        assert_eq!(ex[0].0, 2);
        let two = vec![
            msg(None, Some("Dana"), "I moved to Lisbon", "2024-01-02T10:00:00Z"),
            msg(None, Some("Sam"), "Nice", "2024-01-02T10:01:00Z"),
        ];
        assert_eq!(exchanges(&two)[1].1.content, "Sam: Nice");
    }

    #[test]
    fn the_same_transcript_has_the_same_hash_in_any_order() {
        let a = msg(Some("user"), None, "one", "2024-01-02T10:00:00Z");
        let b = msg(Some("user"), None, "two", "2024-01-03T10:00:00Z");
        assert_eq!(canonical(vec![a.clone(), b.clone()], None).1, canonical(vec![b.clone(), a.clone()], None).1);
        assert_ne!(canonical(vec![a.clone()], None).1, canonical(vec![a.clone(), b], None).1);
        assert_ne!(canonical(vec![a.clone()], None).1, canonical(vec![a], Some("alice")).1, "another person's import");
    }
}
