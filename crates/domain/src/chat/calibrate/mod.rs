//! Tier 3 (SPEC P6, P7), after the reply: the extraction gate, the per-agent batch with its
//! adaptive threshold, extraction of facts and insights, two-stage dedup with its five
//! buckets, the recall-loop guard and tombstones, the insight cap, and conversation summaries.

mod dedup;
mod parse;
mod summary;

pub(crate) use parse::parse_extraction;
pub use summary::summarize;

use miniclaw_core::ids::{AgentId, ConversationId, MessageId, TenantId};
use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::{NewJob, queue};
use miniclaw_platform::llm::CallContext;

/// Batch threshold bounds and default (P6).
pub const THRESHOLD_DENSE: i64 = 2;
pub const THRESHOLD_DEFAULT: i64 = 3;
pub const THRESHOLD_SPARSE: i64 = 5;
/// Messages the save-worthy density is measured over.
pub const DENSITY_WINDOW: i64 = 20;
/// Batches idle this long are flushed by the `chat_batch_flush` cycle.
pub const STALE_AFTER_SECS: i64 = 300;
/// Anti-duplication context for extraction.
pub const RECENT_FACTS: i64 = 15;
pub const RECENT_INSIGHTS: i64 = 10;
/// Derived insights an agent keeps; the least recently updated go first.
pub const INSIGHT_CAP: i64 = 50;
/// Summaries (P7): messages kept verbatim, and how many older ones make a pass worthwhile.
pub const SUMMARY_KEEP: i64 = 14;
pub const SUMMARY_MIN_NEW: i64 = 6;
/// Attempts before a batch item whose extraction keeps failing is dropped (and logged).
const MAX_ATTEMPTS: i32 = 3;

/// The jobs a finished turn queues (in the statement that finishes it, `chat::finish`): the
/// agent's extraction batch once it is full, and a conversation's summary once enough of it is
/// unsummarised. At most one of each is pending per agent / conversation.
pub const EXTRACT_JOB: &str = "chat_extract";
pub const SUMMARY_JOB: &str = "chat_summary";
/// Attempts of those jobs (a budget refusal or a provider outage is retried with backoff).
pub const JOB_ATTEMPTS: i32 = 3;
/// A flush that found the agent's batch held by another waits this long before trying again.
const BUSY_RETRY_SECS: f64 = 1.0;
/// Most queued messages one extraction takes, oldest first. Batches are 2–5 messages when the
/// jobs keep up; a backlog (one agent talking to many clients at once) is worked off in batches
/// of this size, one job after the other, instead of one extraction over everything.
pub const BATCH_MAX: i64 = 20;

/// Save-worthy shares above and below which the threshold moves (P6).
pub const DENSE_SHARE: f64 = 0.7;
pub const SPARSE_SHARE: f64 = 0.3;

/// The adaptive threshold (P6) as an SQL expression over `share`, the share of save-worthy
/// messages (NULL without history): > 70% → 2, < 30% → 5, else 3.
pub fn threshold_sql(share: &str) -> String {
    format!(
        "CASE WHEN {share} > {DENSE_SHARE} THEN {THRESHOLD_DENSE} WHEN {share} < {SPARSE_SHARE} THEN {THRESHOLD_SPARSE} \
         ELSE {THRESHOLD_DEFAULT} END"
    )
}

/// The five dedup buckets (001 §5.3).
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct Buckets {
    pub exact_match: u32,
    pub llm_new: u32,
    pub llm_update: u32,
    pub llm_duplicate: u32,
    pub no_existing: u32,
}

/// What one flush did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FlushReport {
    pub messages: usize,
    pub facts: usize,
    pub insights: usize,
    pub created: usize,
    pub reinforced: usize,
    pub updated: usize,
    pub suppressed: usize,
    pub buckets: Buckets,
}

#[derive(sqlx::FromRow)]
pub(super) struct Queued {
    pub(super) message_id: MessageId,
    pub(super) save_hint: Option<String>,
    pub(super) injected: Vec<Uuid>,
    pub(super) content: String,
    pub(super) reply: Option<String>,
    pub(super) created_at: DateTime<Utc>,
    /// The end user of the message's conversation (SPEC H1).
    pub(super) end_user: Option<String>,
}

/// One exchange extraction reads: what was said, the reply to it, when it was said, what the
/// turn asked to be remembered, and the memories injected into it (the recall-loop guard).
pub struct Said {
    pub content: String,
    pub reply: Option<String>,
    pub created_at: DateTime<Utc>,
    pub save_hint: Option<String>,
    pub injected: Vec<Uuid>,
}

impl From<&Queued> for Said {
    fn from(q: &Queued) -> Self {
        Said {
            content: q.content.clone(),
            reply: q.reply.clone(),
            created_at: q.created_at,
            save_hint: q.save_hint.clone(),
            injected: q.injected.clone(),
        }
    }
}

pub(crate) use dedup::extract_and_store;

/// Extracts from the agent's queued messages and stores the results, in one transaction with
/// taking them off the queue. A model refusal or failure leaves them queued (counted as an
/// attempt); after three attempts an item is dropped with a warning. One flush per agent at a
/// time: while one runs (its model calls may take seconds), messages queued meanwhile wait for
/// the next batch instead of each starting a flush of its own.
pub async fn flush(deps: &Deps, agent_id: AgentId, tenant_id: Option<TenantId>) -> anyhow::Result<FlushReport> {
    let (pool, llm, embedder) = (&deps.pool, deps.llm.as_ref(), deps.embedder());
    let mut tx = pool.begin().await?;
    let queued = sqlx::query_as!(
        Queued,
        r#"WITH flushing AS (SELECT pg_try_advisory_xact_lock(hashtextextended('extraction:' || $1::uuid::text, 0)) AS ours)
           SELECT q.message_id, q.save_hint, q.injected, m.content, q.created_at,
                  (SELECT r.content FROM chat_messages r
                    WHERE r.agent_id = m.agent_id AND r.reply_to = m.id AND r.status = 'complete'
                    ORDER BY r.position DESC LIMIT 1) AS "reply?",
                  (SELECT c.end_user FROM conversations c
                    WHERE c.agent_id = m.agent_id AND c.id = m.conversation_id) AS "end_user?"
             FROM flushing f, extraction_queue q JOIN chat_messages m ON m.agent_id = q.agent_id AND m.id = q.message_id
            WHERE f.ours AND q.agent_id = $1 ORDER BY q.created_at LIMIT $2 FOR UPDATE OF q SKIP LOCKED"#,
        agent_id as _,
        BATCH_MAX
    )
    .fetch_all(&mut *tx)
    .await?;
    let mut report = FlushReport { messages: queued.len(), ..FlushReport::default() };
    if queued.is_empty() {
        return Ok(report);
    }
    let ctx = CallContext::job(agent_id, tenant_id);
    let ids: Vec<Uuid> = queued.iter().map(|q| q.message_id.uuid()).collect();
    // One extraction per person, in the order they first spoke: what one end user said is
    // never read with, compared with or stored as another's (SPEC H1).
    let mut people: Vec<(Option<&str>, Vec<Said>)> = Vec::new();
    for q in &queued {
        let whose = q.end_user.as_deref();
        match people.iter_mut().find(|(p, _)| *p == whose) {
            Some((_, said)) => said.push(Said::from(q)),
            None => people.push((whose, vec![Said::from(q)])),
        }
    }
    let mut extracted = Ok(());
    for (whose, said) in &people {
        extracted = dedup::extract_and_store(&mut tx, llm, embedder, &ctx, agent_id, *whose, said, &mut report).await;
        if extracted.is_err() {
            break;
        }
    }
    match extracted {
        Ok(()) => {}
        Err(e) => {
            drop(tx);
            // A budget or kill-switch refusal is not the batch's fault: it waits, uncounted.
            if matches!(
                e.downcast_ref::<miniclaw_platform::llm::LlmError>(),
                Some(miniclaw_platform::llm::LlmError::Refused(_))
            ) {
                return Err(e);
            }
            let dropped = sqlx::query_scalar!(
                "WITH bumped AS (
                    UPDATE extraction_queue SET attempts = attempts + 1 WHERE agent_id = $1 AND message_id = ANY($2)
                    RETURNING message_id, attempts)
                 DELETE FROM extraction_queue q USING bumped b
                  WHERE q.agent_id = $1 AND q.message_id = b.message_id AND b.attempts >= $3 RETURNING q.message_id",
                agent_id as _,
                &ids,
                MAX_ATTEMPTS
            )
            .fetch_all(pool)
            .await?;
            if !dropped.is_empty() {
                tracing::warn!(agent_id = %agent_id, messages = dropped.len(), error = %format!("{e:#}"),
                    "extraction failed three times; messages dropped from the batch");
            }
            return Err(e);
        }
    }
    // The batch leaves the queue, and its results go on the message that completed it; every
    // message in it is marked. One statement.
    let last = *ids.last().expect("non-empty batch");
    sqlx::query!("DELETE FROM extraction_queue WHERE agent_id = $1 AND message_id = ANY($2)", agent_id as _, &ids)
        .execute(&mut *tx)
        .await?;
    crate::analytics::turns::mark_extracted(
        &mut tx,
        agent_id,
        &ids,
        last,
        (report.facts + report.insights) as i32,
        serde_json::to_value(report.buckets)?,
        report.messages as i32,
    )
    .await?;
    tx.commit().await?;
    metrics::counter!("chat_extractions_total").increment(1);
    metrics::histogram!("chat_extraction_batch_size").record(report.messages as f64);
    metrics::counter!("chat_facts_extracted_total").increment((report.facts + report.insights) as u64);
    // New or changed memories: the dossier is recompiled, debounced (C4).
    if report.created + report.updated > 0 {
        crate::cognition::dossier::request_recompile(pool, agent_id).await?;
    }
    Ok(report)
}

/// The calibration jobs: the extraction of a full batch and a conversation's summary (queued
/// by the turn that finishes, see `EXTRACT_JOB`), and the `chat_batch_flush` cycle (every 5
/// minutes) for batches that never fill up.
pub fn cycles() -> Vec<miniclaw_platform::jobs::Cycle> {
    use miniclaw_platform::jobs::registry::{Cycle, CycleScope, JobContext};
    vec![
        Cycle::new(
            EXTRACT_JOB,
            CycleScope::Agent,
            "Extracts memories from an agent's full batch (P6); queued by the turn that filled it.",
            |ctx: JobContext| async move {
                miniclaw_platform::jobs::queue::release_pending(&ctx.pool, ctx.job.id).await?;
                let (agent, tenant) = ctx.agent().await?;
                let report = flush(ctx.deps()?, agent, Some(tenant)).await?;
                follow_up(&ctx.pool, agent, &report).await?;
                Ok(json!(report))
            },
        )
        .max_attempts(JOB_ATTEMPTS),
        Cycle::new(
            SUMMARY_JOB,
            CycleScope::Agent,
            "Summarises the older part of a long conversation (P7); queued by the turn that made it long enough.",
            |ctx: JobContext| async move {
                miniclaw_platform::jobs::queue::release_pending(&ctx.pool, ctx.job.id).await?;
                let (agent, tenant) = ctx.agent().await?;
                let conversation = ctx
                    .job
                    .payload
                    .get("conversation_id")
                    .and_then(Value::as_str)
                    .and_then(|s| s.parse::<ConversationId>().ok())
                    .ok_or_else(|| anyhow::anyhow!("`{SUMMARY_JOB}` needs a conversation_id in its payload"))?;
                let written = summarize(ctx.deps()?, agent, tenant, conversation).await?;
                Ok(json!({ "summarised": written }))
            },
        )
        .max_attempts(JOB_ATTEMPTS),
        Cycle::new(
            "chat_batch_flush",
            CycleScope::Platform,
            "Extracts memories from batches that waited more than 5 minutes without reaching their threshold (P6).",
            |ctx: JobContext| async move {
                let deps = ctx.deps()?;
                let stale = sqlx::query_scalar!(
                    r#"SELECT agent_id AS "agent_id: AgentId" FROM extraction_queue
                      GROUP BY agent_id HAVING max(created_at) < now() - make_interval(secs => $1)"#,
                    STALE_AFTER_SECS as f64
                )
                .fetch_all(&ctx.pool)
                .await?;
                let mut flushed: HashMap<String, Value> = HashMap::new();
                let mut failed = 0;
                for agent in stale {
                    // A deleted agent's queue waits for its purge.
                    let Some(tenant) = crate::tenancy::agents::tenant_of(&ctx.pool, agent).await? else { continue };
                    match flush(deps, agent, Some(tenant)).await {
                        Ok(r) => {
                            follow_up(&ctx.pool, agent, &r).await?;
                            flushed.insert(agent.to_string(), json!(r));
                        }
                        Err(e) => {
                            failed += 1;
                            tracing::warn!(agent_id = %agent, error = %format!("{e:#}"), "stale batch flush failed");
                        }
                    }
                }
                Ok(json!({ "flushed": flushed, "failed": failed }))
            },
        )
        .every(std::time::Duration::from_secs(300)),
    ]
}

/// After a flush, the messages still queued may have arrived while it ran, and the turn that
/// filled their batch may have queued a job that met the running flush and took nothing. So:
/// a flush that took nothing (another held the batch) tries again in a second if anything is
/// queued; a flush that took messages queues the next job at once when a batch's worth
/// (`THRESHOLD_DENSE`) is still waiting. At most one pending job per agent either way.
async fn follow_up(pool: &PgPool, agent_id: AgentId, done: &FlushReport) -> sqlx::Result<()> {
    let (delay, waiting) = if done.messages == 0 { (BUSY_RETRY_SECS, 1) } else { (0.0, THRESHOLD_DENSE) };
    let queued = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM (SELECT 1 FROM extraction_queue WHERE agent_id = $1 LIMIT $2) q"#,
        agent_id as _,
        waiting
    )
    .fetch_one(pool)
    .await?;
    if queued >= waiting {
        let job = NewJob::new(EXTRACT_JOB)
            .agent(agent_id)
            .run_at(Utc::now() + chrono::Duration::milliseconds((delay * 1000.0) as i64))
            .idempotency_key(format!("{EXTRACT_JOB}:{}:pending", agent_id.uuid()))
            .max_attempts(JOB_ATTEMPTS);
        queue::enqueue(pool, job).await?;
    }
    Ok(())
}
