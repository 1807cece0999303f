//! Tier 3 (SPEC P6, P7), after the reply: the extraction gate, the per-agent batch with its
//! adaptive threshold, extraction of facts and insights, two-stage dedup with its five
//! buckets, the recall-loop guard and tombstones, the insight cap, and conversation summaries.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::triage::ALL_CATEGORIES;
use crate::activity::Origin;
use crate::auth::Actor;
use crate::llm::{CallContext, ChatRequest, Gateway, Message, Role};
use crate::memory::hygiene::Injected;
use crate::memory::{self, Candidate, NewMemory, Newest, Remembered, vector};

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
/// Stage-1 vector thresholds: facts and insights.
pub const FACT_SAME_COSINE: f64 = 0.95;
pub const INSIGHT_SAME_COSINE: f64 = 0.92;
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
const BUSY_RETRY_SECS: i64 = 5;

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
struct Queued {
    message_id: Uuid,
    save_hint: Option<String>,
    injected: Vec<Uuid>,
    content: String,
    reply: Option<String>,
    created_at: DateTime<Utc>,
}

/// An extracted candidate, before dedup.
#[derive(Debug, Clone)]
pub(crate) struct Extracted {
    pub content: String,
    pub category: String,
    pub confidence: f32,
    pub insight: bool,
}

/// Parses the extraction model's answer: `{"facts": [{content, category, confidence?}],
/// "insights": [{content} | "text"]}`. Facts of unknown categories and empty or overlong
/// entries are dropped; anything that is not that shape is an error.
pub(crate) fn parse_extraction(text: &str) -> anyhow::Result<Vec<Extracted>> {
    let v: Value = serde_json::from_str(text.trim())?;
    let o = v.as_object().ok_or_else(|| anyhow::anyhow!("extraction output is not a JSON object"))?;
    let mut out = Vec::new();
    for f in o.get("facts").and_then(Value::as_array).into_iter().flatten() {
        let content = f.get("content").or_else(|| f.get("fact")).and_then(Value::as_str).unwrap_or("").trim();
        let category = f.get("category").and_then(Value::as_str).unwrap_or("").to_lowercase();
        if content.is_empty() || content.chars().count() > 500 || !ALL_CATEGORIES.contains(&category.as_str()) {
            continue;
        }
        let confidence = f.get("confidence").and_then(Value::as_f64).unwrap_or(0.8).clamp(0.0, 1.0) as f32;
        out.push(Extracted { content: content.to_string(), category, confidence, insight: false });
    }
    for i in o.get("insights").and_then(Value::as_array).into_iter().flatten() {
        let content = i.as_str().or_else(|| i.get("content").and_then(Value::as_str)).unwrap_or("").trim();
        if content.is_empty() || content.chars().count() > 500 {
            continue;
        }
        out.push(Extracted {
            content: content.to_string(),
            category: "insight".into(),
            confidence: 0.7,
            insight: true,
        });
    }
    Ok(out)
}

pub(crate) const EXTRACTION_PROMPT: &str = "Extract what is worth remembering from these messages. Facts: \
information about the user only (never about the assistant), each one short third-person \
sentence with a category: preference, identity, goal, interest or context. Insights: the \
assistant's own specific conclusions or advice, only when it gave genuinely useful, specific \
guidance. Do not repeat anything already known (listed below). Answer with one JSON object: \
{\"facts\": [{\"content\": \"...\", \"category\": \"...\", \"confidence\": 0.0-1.0}], \
\"insights\": [{\"content\": \"...\"}]}.";

const DEDUP_PROMPT: &str = "For each candidate fact, decide against the numbered existing facts: \
\"new\" (not known), \"duplicate\" (already known) or \"update\" (a newer version of existing \
fact INDEX). Answer with one JSON object: {\"decisions\": [{\"decision\": \"new\" | \"duplicate\" | \
\"update\", \"index\": INDEX?}]}, one decision per candidate, in order.";

/// Stage 2: one call for every remaining candidate. Returns `(decision, index)` per candidate;
/// a failed or malformed answer treats them all as new (the write path still dedups exact and
/// near copies).
async fn classify(
    llm: &Gateway,
    ctx: &CallContext,
    candidates: &[String],
    existing: &[String],
) -> Vec<(String, Option<usize>)> {
    let numbered: Vec<String> = existing.iter().enumerate().map(|(i, e)| format!("{i}. {e}")).collect();
    let prompt = format!(
        "Existing facts:\n{}\n\nCandidates:\n{}",
        numbered.join("\n"),
        candidates.iter().map(|c| format!("- {c}")).collect::<Vec<_>>().join("\n")
    );
    let req = ChatRequest::new(Role::Dedup, vec![Message::system(DEDUP_PROMPT), Message::user(prompt)])
        .json()
        .input(json!({ "candidates": candidates, "existing": existing }));
    let fallback = || candidates.iter().map(|_| ("new".to_string(), None)).collect();
    let Ok(r) = llm.complete(ctx, req).await else { return fallback() };
    let Ok(v) = serde_json::from_str::<Value>(r.content.trim()) else { return fallback() };
    let Some(ds) = v.get("decisions").and_then(Value::as_array).filter(|d| d.len() == candidates.len()) else {
        return fallback();
    };
    ds.iter()
        .map(|d| {
            let decision = d.get("decision").and_then(Value::as_str).unwrap_or("new");
            let index = d.get("index").and_then(Value::as_u64).map(|i| i as usize).filter(|i| *i < existing.len());
            match (decision, index) {
                ("duplicate", Some(i)) => ("duplicate".into(), Some(i)),
                ("update", Some(i)) => ("update".into(), Some(i)),
                _ => ("new".into(), None),
            }
        })
        .collect()
}

/// Extracts from the agent's queued messages and stores the results, in one transaction with
/// taking them off the queue. A model refusal or failure leaves them queued (counted as an
/// attempt); after three attempts an item is dropped with a warning. One flush per agent at a
/// time: while one runs (its model calls may take seconds), messages queued meanwhile wait for
/// the next batch instead of each starting a flush of its own.
pub async fn flush(
    pool: &PgPool,
    llm: &Gateway,
    embedder: &dyn crate::embed::Embedder,
    agent_id: Uuid,
    tenant_id: Option<Uuid>,
) -> anyhow::Result<FlushReport> {
    let mut tx = pool.begin().await?;
    let queued: Vec<Queued> = sqlx::query_as(
        "WITH flushing AS (SELECT pg_try_advisory_xact_lock(hashtextextended('extraction:' || $1::text, 0)) AS ours)
         SELECT q.message_id, q.save_hint, q.injected, m.content, q.created_at,
                (SELECT r.content FROM chat_messages r WHERE r.reply_to = m.id AND r.status = 'complete'
                  ORDER BY r.position DESC LIMIT 1) AS reply
           FROM flushing f, extraction_queue q JOIN chat_messages m ON m.id = q.message_id
          WHERE f.ours AND q.agent_id = $1 ORDER BY q.created_at FOR UPDATE OF q SKIP LOCKED",
    )
    .bind(agent_id)
    .fetch_all(&mut *tx)
    .await?;
    let mut report = FlushReport { messages: queued.len(), ..FlushReport::default() };
    if queued.is_empty() {
        return Ok(report);
    }
    let ctx = CallContext::job(agent_id, tenant_id);
    let ids: Vec<Uuid> = queued.iter().map(|q| q.message_id).collect();
    match extract_and_store(&mut tx, llm, embedder, &ctx, agent_id, &queued, &mut report).await {
        Ok(()) => {}
        Err(e) => {
            drop(tx);
            // A budget or kill-switch refusal is not the batch's fault: it waits, uncounted.
            if matches!(e.downcast_ref::<crate::llm::LlmError>(), Some(crate::llm::LlmError::Refused(_))) {
                return Err(e);
            }
            let dropped: Vec<Uuid> = sqlx::query_scalar(
                "WITH bumped AS (UPDATE extraction_queue SET attempts = attempts + 1 WHERE message_id = ANY($1)
                   RETURNING message_id, attempts)
                 DELETE FROM extraction_queue q USING bumped b
                  WHERE q.message_id = b.message_id AND b.attempts >= $2 RETURNING q.message_id",
            )
            .bind(&ids)
            .bind(MAX_ATTEMPTS)
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
    sqlx::query(
        "WITH done AS (DELETE FROM extraction_queue WHERE message_id = ANY($1))
         UPDATE chat_analytics SET extraction_triggered = true,
                facts_extracted = CASE WHEN message_id = $2 THEN $3 ELSE facts_extracted END,
                dedup = CASE WHEN message_id = $2 THEN $4 ELSE dedup END,
                batch_size = CASE WHEN message_id = $2 THEN $5 ELSE batch_size END
          WHERE message_id = ANY($1)",
    )
    .bind(&ids)
    .bind(last)
    .bind((report.facts + report.insights) as i32)
    .bind(serde_json::to_value(report.buckets)?)
    .bind(report.messages as i32)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    metrics::counter!("chat_extractions_total").increment(1);
    // New or changed memories: the dossier is recompiled, debounced (C4).
    if report.created + report.updated > 0 {
        crate::cognition::dossier::request_recompile(pool, agent_id).await?;
    }
    Ok(report)
}

async fn extract_and_store(
    tx: &mut PgConnection,
    llm: &Gateway,
    embedder: &dyn crate::embed::Embedder,
    ctx: &CallContext,
    agent_id: Uuid,
    queued: &[Queued],
    report: &mut FlushReport,
) -> anyhow::Result<()> {
    let learned = Newest { sources: &memory::LEARNED_SOURCES, except_categories: &["insight"], ..Newest::default() };
    let recent_facts: Vec<String> =
        memory::newest(tx, agent_id, learned, RECENT_FACTS).await?.into_iter().map(|m| m.content).collect();
    let recent_insights: Vec<String> = sqlx::query_scalar(
        "SELECT content FROM agent_memories WHERE agent_id = $1 AND status = 'active' AND category = 'insight'
          ORDER BY created_at DESC LIMIT $2",
    )
    .bind(agent_id)
    .bind(RECENT_INSIGHTS)
    .fetch_all(&mut *tx)
    .await?;
    let hints: Vec<&str> = queued.iter().filter_map(|q| q.save_hint.as_deref()).collect();
    let mut prompt = String::new();
    if !recent_facts.is_empty() {
        prompt.push_str(&format!("Already known facts:\n- {}\n\n", recent_facts.join("\n- ")));
    }
    if !recent_insights.is_empty() {
        prompt.push_str(&format!("Already known insights:\n- {}\n\n", recent_insights.join("\n- ")));
    }
    if !hints.is_empty() {
        prompt.push_str(&format!("Focus: {}\n\n", hints.join(", ")));
    }
    for q in queued {
        prompt.push_str(&format!("[user] {}\n", q.content));
        if let Some(r) = &q.reply {
            prompt.push_str(&format!("[assistant] {}\n", r.chars().take(1000).collect::<String>()));
        }
    }
    let req = ChatRequest::new(Role::Extraction, vec![Message::system(EXTRACTION_PROMPT), Message::user(prompt)])
        .json()
        .max_tokens(2500)
        .input(json!({
            "messages": queued.iter().map(|q| q.content.as_str()).collect::<Vec<_>>(),
            "replies": queued.iter().map(|q| q.reply.as_deref().unwrap_or("")).collect::<Vec<_>>(),
            "existing_facts": recent_facts,
            "existing_insights": recent_insights,
            "save_hint": hints,
        }));
    let answer = llm.complete(ctx, req).await?;
    let extracted = parse_extraction(&answer.content)?;
    report.facts = extracted.iter().filter(|e| !e.insight).count();
    report.insights = extracted.len() - report.facts;
    if extracted.is_empty() {
        return Ok(());
    }
    // The newest statement time of the batch: tombstones laid before it do not hold (R6b).
    let stated_at = queued.iter().map(|q| q.created_at).max();
    // The recall-loop guard compares with everything injected into these turns (R6a).
    let injected_ids: Vec<Uuid> = queued.iter().flat_map(|q| q.injected.iter().copied()).collect();
    let injected_rows: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT content, embedding::text FROM agent_memories WHERE agent_id = $1 AND id = ANY($2)")
            .bind(agent_id)
            .bind(&injected_ids)
            .fetch_all(&mut *tx)
            .await?;
    let injected_vectors: Vec<Option<Vec<f32>>> =
        injected_rows.iter().map(|(_, v)| v.as_deref().and_then(parse_vector)).collect();
    let injected: Vec<Injected<'_>> = injected_rows
        .iter()
        .zip(&injected_vectors)
        .map(|((c, _), v)| Injected { content: c, embedding: v.as_deref() })
        .collect();

    let texts: Vec<String> = extracted.iter().map(|e| e.content.clone()).collect();
    let vectors: Vec<Option<Vec<f32>>> = match embedder.embed(&texts).await {
        Ok(vs) => vs.into_iter().map(Some).collect(),
        Err(e) => {
            tracing::warn!(error = %e, "embedding extracted facts failed; stored without vectors");
            texts.iter().map(|_| None).collect()
        }
    };
    let model = embedder.model().to_string();
    let origin = Origin::new(Actor::Job("extraction".into()), None);

    // Stage 1: same text in the same category, or a vector above the threshold.
    let mut remaining: Vec<(Extracted, Option<Vec<f32>>)> = Vec::new();
    for (e, v) in extracted.into_iter().zip(vectors) {
        let threshold = if e.insight { INSIGHT_SAME_COSINE } else { FACT_SAME_COSINE };
        // The same text in the same category (the normalised-text hash is indexed), else the
        // nearest memory of the same kind if it is close enough.
        let mut same: Option<Uuid> = sqlx::query_scalar(
            "SELECT id FROM agent_memories
              WHERE agent_id = $1 AND content_hash = $2 AND category = $3 AND status = 'active' AND invalid_at IS NULL
              LIMIT 1",
        )
        .bind(agent_id)
        .bind(memory::content_hash(&e.content))
        .bind(&e.category)
        .fetch_optional(&mut *tx)
        .await?;
        if same.is_none()
            && let Some(v) = &v
        {
            let categories =
                if e.insight { vec!["insight".to_string()] } else { ALL_CATEGORIES.map(String::from).to_vec() };
            let f = vector::Filters { categories, ..vector::Filters::default() };
            let nearest = vector::nearest(tx, agent_id, &model, v, 1, &f).await?;
            same = nearest.first().filter(|(_, sim)| *sim > threshold).map(|(id, _)| *id);
        }
        match same {
            Some(id) => {
                reinforce(tx, id, &origin).await?;
                report.buckets.exact_match += 1;
                report.reinforced += 1;
            }
            None => remaining.push((e, v)),
        }
    }
    if remaining.is_empty() {
        return Ok(());
    }

    // Stage 2: one model call for the rest, against the agent's live facts.
    let existing: Vec<(Uuid, String)> = sqlx::query_as(
        "SELECT id, content FROM agent_memories WHERE agent_id = $1 AND status = 'active' AND invalid_at IS NULL
            AND source NOT IN ('uploaded', 'url')
          ORDER BY updated_at DESC LIMIT 50",
    )
    .bind(agent_id)
    .fetch_all(&mut *tx)
    .await?;
    let decisions: Vec<(String, Option<usize>)> = if existing.is_empty() {
        report.buckets.no_existing += remaining.len() as u32;
        remaining.iter().map(|_| ("new".to_string(), None)).collect()
    } else {
        let candidates: Vec<String> = remaining.iter().map(|(e, _)| e.content.clone()).collect();
        let texts: Vec<String> = existing.iter().map(|(_, c)| c.clone()).collect();
        let d = classify(llm, ctx, &candidates, &texts).await;
        for (decision, _) in &d {
            match decision.as_str() {
                "duplicate" => report.buckets.llm_duplicate += 1,
                "update" => report.buckets.llm_update += 1,
                _ => report.buckets.llm_new += 1,
            }
        }
        d
    };
    for ((e, v), (decision, index)) in remaining.into_iter().zip(decisions) {
        let embedding = v.map(|v| (v, model.clone()));
        match (decision.as_str(), index) {
            ("duplicate", Some(i)) => {
                reinforce(tx, existing[i].0, &origin).await?;
                report.reinforced += 1;
            }
            ("update", Some(i)) => {
                let patch = memory::MemoryPatch {
                    content: Some(e.content.clone()),
                    embedding,
                    ..memory::MemoryPatch::default()
                };
                memory::update(tx, agent_id, existing[i].0, &origin, patch, Some("updated by a newer statement"))
                    .await
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                report.updated += 1;
            }
            _ => {
                let mut new =
                    NewMemory::new(&e.content, &e.category, if e.insight { "derived" } else { "conversation" });
                new.confidence = e.confidence;
                if e.insight {
                    new.importance = 4.0;
                }
                new.embedding = embedding;
                let candidate = Candidate { memory: new, stated_at: if e.insight { None } else { stated_at } };
                match memory::remember(tx, agent_id, &origin, candidate, &injected)
                    .await
                    .map_err(|e| anyhow::anyhow!("{e}"))?
                {
                    Remembered::Created(_) => report.created += 1,
                    Remembered::Reinforced(_) => report.reinforced += 1,
                    Remembered::Suppressed(_) => report.suppressed += 1,
                }
            }
        }
    }
    evict_insights(tx, agent_id, &origin).await?;
    Ok(())
}

fn parse_vector(text: &str) -> Option<Vec<f32>> {
    text.trim_matches(['[', ']']).split(',').map(|x| x.trim().parse().ok()).collect()
}

async fn reinforce(tx: &mut PgConnection, id: Uuid, origin: &Origin) -> anyhow::Result<()> {
    let m: memory::Memory = sqlx::query_as(&format!(
        "UPDATE agent_memories SET mention_count = mention_count + 1, last_mentioned_at = now(), updated_at = now()
          WHERE id = $1 RETURNING {}",
        memory::COLUMNS
    ))
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    memory::record_version(tx, &m, "mention", origin, Some("the same fact was extracted again")).await?;
    Ok(())
}

/// Keeps at most 50 active derived insights: the least recently updated are deleted.
async fn evict_insights(tx: &mut PgConnection, agent_id: Uuid, origin: &Origin) -> anyhow::Result<()> {
    let surplus: Vec<Uuid> = sqlx::query_scalar(
        "SELECT id FROM agent_memories WHERE agent_id = $1 AND category = 'insight' AND source = 'derived'
            AND status = 'active'
          ORDER BY updated_at DESC OFFSET $2",
    )
    .bind(agent_id)
    .bind(INSIGHT_CAP)
    .fetch_all(&mut *tx)
    .await?;
    for id in surplus {
        memory::delete(tx, agent_id, id, origin, Some("insight cap of 50 reached; the oldest goes"))
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    Ok(())
}

/// Summarises a conversation past 14 messages (P7): everything before the last 14 that no
/// summary covers yet, once at least 6 such messages exist, into 2–4 sentences (each message
/// cut to 200 characters), embedded, with the message range. Returns whether it wrote one.
pub async fn summarize(
    pool: &PgPool,
    llm: &Gateway,
    embedder: &dyn crate::embed::Embedder,
    agent_id: Uuid,
    tenant_id: Uuid,
    conversation_id: Uuid,
) -> anyhow::Result<bool> {
    // Everything but the last 14 completed messages that no summary covers yet.
    let rows: Vec<(Uuid, i32, String, String)> = sqlx::query_as(
        "SELECT id, position, role, content FROM (
            SELECT id, position, role, content, row_number() OVER (ORDER BY position DESC) AS from_end
              FROM chat_messages WHERE conversation_id = $1 AND status = 'complete') m
          WHERE from_end > $2
            AND position > (SELECT coalesce(max(last_position), -1) FROM conversation_summaries WHERE conversation_id = $1)
          ORDER BY position",
    )
    .bind(conversation_id)
    .bind(SUMMARY_KEEP)
    .fetch_all(pool)
    .await?;
    if (rows.len() as i64) < SUMMARY_MIN_NEW {
        return Ok(false);
    }
    let cut = |s: &str| s.chars().take(200).collect::<String>();
    let transcript: String = rows.iter().map(|(_, _, r, c)| format!("[{r}] {}\n", cut(c))).collect();
    let req = ChatRequest::new(
        Role::Summarization,
        vec![
            Message::system("Summarise this part of a conversation in 2 to 4 sentences: what the user said, wanted and decided."),
            Message::user(transcript),
        ],
    )
    .input(json!({ "messages": rows.iter().map(|(_, _, r, c)| json!({ "role": r, "content": cut(c) })).collect::<Vec<_>>() }));
    let ctx = CallContext::job(agent_id, Some(tenant_id));
    let summary = llm.complete(&ctx, req).await?.content.trim().to_string();
    if summary.is_empty() {
        return Ok(false);
    }
    let vector = embedder.embed(std::slice::from_ref(&summary)).await.ok().and_then(|mut v| v.pop());
    let (first, last) = (&rows[0], &rows[rows.len() - 1]);
    // Two passes over one conversation (turns finishing together) would summarise the same
    // range: under the conversation's lock, a range that another pass covered meanwhile is
    // left alone. The insert runs after the lock is held, so it sees that pass's row.
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('summary:' || $1::text, 0))")
        .bind(conversation_id)
        .execute(&mut *tx)
        .await?;
    let written = sqlx::query(
        "INSERT INTO conversation_summaries (id, conversation_id, agent_id, content, first_message_id, last_message_id,
            first_position, last_position, message_count, embedding, embedding_model)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10::vector, $11
          WHERE NOT EXISTS (SELECT 1 FROM conversation_summaries WHERE conversation_id = $2 AND last_position >= $7)",
    )
    .bind(Uuid::now_v7())
    .bind(conversation_id)
    .bind(agent_id)
    .bind(&summary)
    .bind(first.0)
    .bind(last.0)
    .bind(first.1)
    .bind(last.1)
    .bind(rows.len() as i32)
    .bind(vector.as_deref().map(vector::literal))
    .bind(vector.as_ref().map(|_| embedder.model()))
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(written == 1)
}

/// The calibration jobs: the extraction of a full batch and a conversation's summary (queued
/// by the turn that finishes, see `EXTRACT_JOB`), and the `chat_batch_flush` cycle (every 5
/// minutes) for batches that never fill up.
pub fn cycles() -> Vec<crate::jobs::Cycle> {
    use crate::jobs::registry::{Cycle, CycleScope, JobContext};
    vec![
        Cycle::new(
            EXTRACT_JOB,
            CycleScope::Agent,
            "Extracts memories from an agent's full batch (P6); queued by the turn that filled it.",
            |ctx: JobContext| async move {
                crate::jobs::queue::release_pending(&ctx.pool, ctx.job.id).await?;
                let (agent, tenant) = ctx.agent().await?;
                let services = ctx.services()?;
                let report = flush(&ctx.pool, &services.llm, services.embedder.as_ref(), agent, Some(tenant)).await?;
                if report.messages == 0 {
                    retry_if_busy(&ctx.pool, agent).await?;
                }
                Ok(json!(report))
            },
        )
        .max_attempts(JOB_ATTEMPTS),
        Cycle::new(
            SUMMARY_JOB,
            CycleScope::Agent,
            "Summarises the older part of a long conversation (P7); queued by the turn that made it long enough.",
            |ctx: JobContext| async move {
                crate::jobs::queue::release_pending(&ctx.pool, ctx.job.id).await?;
                let (agent, tenant) = ctx.agent().await?;
                let conversation = ctx
                    .job
                    .payload
                    .get("conversation_id")
                    .and_then(Value::as_str)
                    .and_then(|s| Uuid::parse_str(s).ok())
                    .ok_or_else(|| anyhow::anyhow!("`{SUMMARY_JOB}` needs a conversation_id in its payload"))?;
                let services = ctx.services()?;
                let written =
                    summarize(&ctx.pool, &services.llm, services.embedder.as_ref(), agent, tenant, conversation)
                        .await?;
                Ok(json!({ "summarised": written }))
            },
        )
        .max_attempts(JOB_ATTEMPTS),
        Cycle::new(
            "chat_batch_flush",
            CycleScope::Platform,
            "Extracts memories from batches that waited more than 5 minutes without reaching their threshold (P6).",
            |ctx: JobContext| async move {
                let services = ctx.services()?.clone();
                let stale: Vec<(Uuid, Uuid)> = sqlx::query_as(&format!(
                    "SELECT q.agent_id, a.tenant_id FROM extraction_queue q JOIN agents a ON a.id = q.agent_id
                      GROUP BY q.agent_id, a.tenant_id
                     HAVING max(q.created_at) < now() - interval '{STALE_AFTER_SECS} seconds'"
                ))
                .fetch_all(&ctx.pool)
                .await?;
                let mut flushed: HashMap<String, Value> = HashMap::new();
                let mut failed = 0;
                for (agent, tenant) in stale {
                    match flush(&ctx.pool, &services.llm, services.embedder.as_ref(), agent, Some(tenant)).await {
                        Ok(r) => {
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

/// After a flush that took nothing: if the agent still has queued messages, another flush held
/// them, and they may have arrived after it began. One more extraction job, shortly, takes them
/// (unless one is pending already), so a full batch never waits for the 5-minute sweep.
async fn retry_if_busy(pool: &PgPool, agent_id: Uuid) -> sqlx::Result<()> {
    sqlx::query(&format!(
        "INSERT INTO jobs (id, kind, agent_id, run_at, idempotency_key, max_attempts)
         SELECT $1, '{EXTRACT_JOB}', $2, now() + interval '{BUSY_RETRY_SECS} seconds',
                '{EXTRACT_JOB}:' || $2::text || ':pending', {JOB_ATTEMPTS}
          WHERE EXISTS (SELECT 1 FROM extraction_queue WHERE agent_id = $2)
         ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING"
    ))
    .bind(Uuid::now_v7())
    .bind(agent_id)
    .execute(pool)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extraction_output_is_validated() {
        let got = parse_extraction(
            r#"{"facts":[{"content":"The user's name is Alice","category":"Identity","confidence":3},
                         {"content":"x","category":"astrology"},{"content":"","category":"goal"}],
                "insights":["Short daily runs suit the user's schedule", {"content":"Try intervals"}]}"#,
        )
        .unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!((got[0].category.as_str(), got[0].confidence), ("identity", 1.0));
        assert!(got[1].insight && got[2].insight && got[2].confidence == 0.7);
        assert!(parse_extraction("[]").is_err());
        assert!(parse_extraction("facts: none").is_err());
    }

    #[test]
    fn stored_vectors_parse_back() {
        assert_eq!(parse_vector("[0.5,-1,0.25]"), Some(vec![0.5, -1.0, 0.25]));
        assert_eq!(parse_vector("[0.5,x]"), None);
    }
}
