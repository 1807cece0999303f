//! A turn's end: one statement completes the reply and the user message, writes the analytics
//! row and hit tracking, and makes post-turn learning durable (the extraction batch and its jobs).

use miniclaw_core::ids::{AgentId, ConversationId, MemoryId, MessageId, TenantId};
use std::time::Instant;

use uuid::Uuid;

use super::stream::Event;
use super::triage::{self, Triage};
use super::turn::Turn;
use super::*;
use crate::runtime::Runtime;
use miniclaw_core::Error;
use miniclaw_platform::jobs::queue;
use miniclaw_platform::llm::{ChatResponse, Usage};

/// Completes a turn in one statement: the reply row and its metadata, the user message, the
/// analytics row, hit tracking and the turn's learning (the extraction batch and its jobs); then
/// announces the reply. `unstreamed`: the text came from a plain call and still has to be
/// stored and announced.
#[expect(clippy::too_many_arguments, reason = "the pieces of one turn, used once")]
pub(super) async fn finish(
    state: &Runtime,
    turn: &Turn,
    t: &triage::TriageOutcome,
    context: &context::Context,
    response: ChatResponse,
    extra_usage: Usage,
    (started, timings): (Instant, Timings),
    events: &tokio::sync::broadcast::Sender<Event>,
    unstreamed: bool,
) -> Result<Finished, Error> {
    let pool = state.pool();
    let usage = Usage {
        prompt_tokens: response.usage.prompt_tokens + extra_usage.prompt_tokens,
        completion_tokens: response.usage.completion_tokens + extra_usage.completion_tokens,
    };
    let used = context.used();
    let ids: Vec<MemoryId> = used.iter().map(|m| m.id).collect();
    // Their scores for the access event (X11): similarity, 0.5 when found by recency (as P4 ranks).
    let scores: Vec<f32> = used.iter().map(|m| m.relevance.unwrap_or(0.5) as f32).collect();
    let meta = ReplyMeta {
        conversation_id: turn.conversation_id,
        user_message_id: turn.user_message_id,
        message_id: turn.reply_id,
        intent: t.triage.intent.clone(),
        response_style: t.triage.response_style.clone(),
        triage_skipped: t.skipped,
        skip_reason: t.skip_reason.clone(),
        triage_error: t.error.clone(),
        memories_used: used.clone(),
        searched: context.searched.clone(),
        engine: match response.engine {
            miniclaw_platform::llm::Engine::Model => "model".into(),
            miniclaw_platform::llm::Engine::Offline => "offline".into(),
        },
        provider: response.provider.clone(),
        model: response.model.clone(),
        usage,
        finish_reason: response.finish_reason.as_str().into(),
        channel: turn.channel.as_str().into(),
        timings,
        traversal: context.traversal.clone(),
        tool_calls: response.tool_calls.clone(),
    };
    let meta_json = serde_json::to_value(&meta).map_err(anyhow::Error::from)?;
    let cost = state.llm().cost(&response.model, usage).unwrap_or(0.0);
    // Post-turn learning (P6, P7) is decided here and made durable by the same statement: the
    // message joins the agent's extraction batch, and the jobs that learn from it are queued
    // with the reply. A crash after the commit loses nothing; any worker process does the rest.
    let extract_now = !state.llm().paid(miniclaw_platform::llm::Role::Extraction);
    let speaker = turn.caller.speaker();
    let learn = !trivial_for_extraction(&turn.message, &t.triage, !extract_now);

    // One statement (one round trip, one commit): the reply row (it already holds the streamed
    // text; a plain call's text is stored here), the user message, the analytics row, hit
    // tracking, the extraction batch and the learning jobs. Only a reply still streaming
    // completes: a regeneration may have superseded it, and then nothing is written.
    let params = FinishParams {
        user_message_id: turn.user_message_id,
        agent_id: turn.caller.agent_id,
        tenant_id: turn.caller.tenant_id,
        conversation_id: turn.conversation_id,
        reply_id: turn.reply_id,
        channel: turn.channel.as_str(),
        intent: &t.triage.intent,
        response_style: &t.triage.response_style,
        save_worthy: t.triage.save_worthy,
        triage_skipped: t.skipped,
        skip_reason: t.skip_reason.as_deref(),
        triage_error: t.error.as_deref(),
        triage_ms: t.latency_ms as i32,
        response_ms: started.elapsed().as_millis() as i32,
        triage_model: t.model.as_deref(),
        chat_model: &response.model,
        engine: &meta.engine,
        prompt_tokens: usage.prompt_tokens as i32,
        completion_tokens: usage.completion_tokens as i32,
        cost_usd: cost,
        memory_queries: context.searched.memory_queries as i32,
        memories_used: used.len() as i32,
        context_tokens: context.tokens as i32,
        used_dossier: context.searched.dossier,
        finish_reason: response.finish_reason.as_str(),
        text: &response.content,
        unstreamed,
        meta: &meta_json,
        used_ids: &ids,
        used_scores: &scores,
        learn,
        save_hint: t.triage.save_hint.as_deref(),
        density_window: calibrate::DENSITY_WINDOW,
        extract_job_id: Uuid::now_v7(),
        summary_job_id: Uuid::now_v7(),
        messages: turn.messages,
        context_ms: meta.timings.context_ms.round() as i32,
        generation_ms: meta.timings.generation_ms.round() as i32,
        // With the offline engine extraction costs nothing, so waiting for a batch saves
        // nothing: every message is its own batch and is learned from at once (P6).
        extract_now,
        speaker: &speaker,
        turn_number: turn.user_position / 2 + 1,
        message_chars: turn.message.chars().count() as i32,
        message_vector: context.message_vector.as_deref().map(crate::memory::vector::param),
        embedding_model: state.embedder().model(),
        mood: context.mood.as_ref().map(serde_json::to_value).transpose().map_err(anyhow::Error::from)?,
    };
    let content: String = params
        .bind(sqlx::query_scalar(&FINISH_SQL))
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| Error::Conflict("this reply was replaced by a regenerated one".into()))?;
    if unstreamed {
        let _ = events.send(Event::Delta { end: content.len(), text: content.clone() });
    }
    let _ = events.send(Event::Done(meta_json));
    metrics::counter!("chat_turns_total", "channel" => turn.channel.as_str(), "triage_skipped" => t.skipped.to_string())
        .increment(1);
    if let Some(reason) = &t.skip_reason {
        metrics::counter!("chat_triage_skipped_total", "reason" => reason.clone()).increment(1);
    }
    let timings = &meta.timings;
    for (stage, ms) in
        [("triage", timings.triage_ms), ("context", timings.context_ms), ("generation", timings.generation_ms)]
    {
        metrics::histogram!("chat_stage_duration_seconds", "stage" => stage).record(ms / 1000.0);
    }
    Ok(Finished { reply: content, meta })
}

/// The parameters of `FINISH_SQL` by name. `bind` is the one place their positions (`$1`…`$37`)
/// are fixed; the call site fills fields by name, so two of them cannot be swapped unnoticed.
struct FinishParams<'a> {
    user_message_id: MessageId,
    agent_id: AgentId,
    tenant_id: TenantId,
    conversation_id: ConversationId,
    reply_id: MessageId,
    channel: &'a str,
    intent: &'a str,
    response_style: &'a str,
    save_worthy: bool,
    triage_skipped: bool,
    skip_reason: Option<&'a str>,
    triage_error: Option<&'a str>,
    triage_ms: i32,
    response_ms: i32,
    triage_model: Option<&'a str>,
    chat_model: &'a str,
    engine: &'a str,
    prompt_tokens: i32,
    completion_tokens: i32,
    cost_usd: f64,
    memory_queries: i32,
    memories_used: i32,
    context_tokens: i32,
    used_dossier: bool,
    finish_reason: &'a str,
    /// A plain call's text, stored when `unstreamed` (streamed text is in the row already).
    text: &'a str,
    unstreamed: bool,
    meta: &'a serde_json::Value,
    used_ids: &'a [MemoryId],
    used_scores: &'a [f32],
    /// Whether the message joins the extraction batch.
    learn: bool,
    save_hint: Option<&'a str>,
    density_window: i64,
    extract_job_id: Uuid,
    summary_job_id: Uuid,
    /// Messages in the conversation once the reply is in.
    messages: i32,
    /// The context and generation stages' time (the analytics' per-stage latency).
    context_ms: i32,
    generation_ms: i32,
    extract_now: bool,
    speaker: &'a str,
    turn_number: i32,
    message_chars: i32,
    message_vector: Option<pgvector::Vector>,
    embedding_model: &'a str,
    mood: Option<serde_json::Value>,
}

type FinishQuery<'q> = sqlx::query::QueryScalar<'q, sqlx::Postgres, String, sqlx::postgres::PgArguments>;

impl<'a> FinishParams<'a> {
    fn bind(&self, q: FinishQuery<'a>) -> FinishQuery<'a> {
        q.bind(self.user_message_id) // $1
            .bind(self.agent_id) // $2
            .bind(self.tenant_id) // $3
            .bind(self.conversation_id) // $4
            .bind(self.reply_id) // $5
            .bind(self.channel) // $6
            .bind(self.intent) // $7
            .bind(self.response_style) // $8
            .bind(self.save_worthy) // $9
            .bind(self.triage_skipped) // $10
            .bind(self.skip_reason) // $11
            .bind(self.triage_error) // $12
            .bind(self.triage_ms) // $13
            .bind(self.response_ms) // $14
            .bind(self.triage_model) // $15
            .bind(self.chat_model) // $16
            .bind(self.engine) // $17
            .bind(self.prompt_tokens) // $18
            .bind(self.completion_tokens) // $19
            .bind(self.cost_usd) // $20
            .bind(self.memory_queries) // $21
            .bind(self.memories_used) // $22
            .bind(self.context_tokens) // $23
            .bind(self.used_dossier) // $24
            .bind(self.finish_reason) // $25
            .bind(self.text) // $26
            .bind(self.unstreamed) // $27
            .bind(self.meta) // $28
            .bind(self.used_ids) // $29
            .bind(self.learn) // $30
            .bind(self.save_hint) // $31
            .bind(self.density_window) // $32
            .bind(self.extract_job_id) // $33
            .bind(self.summary_job_id) // $34
            .bind(self.messages) // $35
            .bind(self.context_ms) // $36
            .bind(self.generation_ms) // $37
            .bind(self.extract_now) // $38
            .bind(self.speaker) // $39
            .bind(self.mood.clone()) // $40
            .bind(self.turn_number) // $41
            .bind(self.message_chars) // $42
            .bind(self.message_vector.clone()) // $43
            .bind(self.embedding_model) // $44
            .bind(self.used_scores) // $45
    }
}

/// The statement that finishes a turn (see `finish`). Its learning part: the message joins the
/// extraction queue when it passed the gates; the batch's size and adaptive threshold are noted
/// on the analytics row; a full batch queues the agent's `chat_extract` job and a conversation
/// with enough unsummarised messages its `chat_summary` job, each at most once while pending,
/// waking the workers on commit.
// Built at run time (once) from the pieces the areas whose tables it writes export: the graph's
// clock and edges, hits and access events (`memory::sql`), the analytics row
// (`analytics::turns`), the jobs (`queue::enqueue_once_sql`), the mood (`cognition::affect`) and
// the behavioural signals; calibration's threshold rule (`threshold_sql`) is shared.
static FINISH_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let stored = "EXISTS (SELECT 1 FROM reply)";
    let question = "(SELECT left(content, 500) FROM chat_messages WHERE agent_id = $2 AND id = $1)";
    let extract_job = format!(
        "SELECT $33, '{extract}', $2, '{{}}'::jsonb, '{extract}:' || $2::text || ':pending', {attempts} FROM batch
          WHERE pending >= threshold AND {stored}",
        extract = calibrate::EXTRACT_JOB,
        attempts = calibrate::JOB_ATTEMPTS,
    );
    let summary_job = format!(
        "SELECT $34, '{summary}', $2, jsonb_build_object('conversation_id', $4::uuid),
                '{summary}:' || $4::text || ':pending', {attempts}
          WHERE {stored} AND $35::int - {keep} - (
                SELECT coalesce(max(last_position), -1) + 1 FROM conversation_summaries WHERE agent_id = $2 AND conversation_id = $4
                ) >= {min_new}",
        summary = calibrate::SUMMARY_JOB,
        attempts = calibrate::JOB_ATTEMPTS,
        keep = calibrate::SUMMARY_KEEP,
        min_new = calibrate::SUMMARY_MIN_NEW,
    );
    format!(
        "WITH reply AS (
            UPDATE chat_messages SET content = CASE WHEN $27 THEN $26 ELSE content END, status = 'complete',
                   meta = $28, updated_at = now()
             WHERE agent_id = $2 AND id = $5 AND status = 'streaming' RETURNING content
         ), clock AS (
            {clock}
         ), touched AS (
            {touched}
         ), question AS (
            UPDATE chat_messages SET status = 'complete', error = NULL, updated_at = now()
             WHERE agent_id = $2 AND id = $1 AND {stored}
         ), density AS (
            -- The save-worthy share of this message and the agent's previous ones (P6).
            SELECT avg(save_worthy::int)::float8 AS share FROM (
                SELECT $9::bool AS save_worthy UNION ALL ({recent})) recent
         ), queued AS (
            INSERT INTO extraction_queue (message_id, agent_id, save_hint, injected)
            SELECT $1, $2, $31, $29 WHERE $30 AND {stored}
            ON CONFLICT (agent_id, message_id) DO NOTHING RETURNING 1
         ), batch AS (
            SELECT CASE WHEN $30 THEN (SELECT count(*) FROM extraction_queue WHERE agent_id = $2)
                                      + (SELECT count(*) FROM queued) END AS pending,
                   CASE WHEN $30 THEN (CASE WHEN $38 THEN 1 ELSE {threshold} END)::bigint END AS threshold
              FROM density
         ), analytics AS (
            {analytics}
         ), hits AS (
            {hits}
         ), access AS (
            -- The access event of the turn's retrieval (X11), when it searched memory.
            {access}
         ), extract_job AS (
            {extract_job}
         ), summary_job AS (
            {summary_job}
         ), mood AS (
            -- The speaker's mood with this message (X6), computed before the reply.
            {mood}
         ), signals AS (
            -- Behavioural signals (X8), see `cognition::signals`.
            {signals}
         ), {hook}, woken AS (
            SELECT pg_notify('{channel}', kind)
              FROM (SELECT kind FROM extract_job UNION ALL SELECT kind FROM summary_job UNION ALL SELECT kind FROM hook) k
         )
         SELECT content FROM reply WHERE (SELECT count(*) FROM woken) >= 0",
        clock = crate::memory::sql::tick_graph("$2", "$28", stored),
        touched = crate::memory::sql::refresh_edges("$2", "$28", stored),
        recent = crate::analytics::turns::recent_save_worthy_sql("$2", "$1", "$32 - 1"),
        threshold = calibrate::threshold_sql("share"),
        analytics = crate::analytics::turns::record_sql(&format!(
            "SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
                    $22, $23, $24, $25, $30, b.pending, b.threshold, $36, $37
               FROM batch b WHERE {stored}"
        )),
        hits = crate::memory::sql::record_mentions("$2", "$29::uuid[]", stored),
        access = crate::memory::sql::record_access("$2", "'chat'", "$4", question, "$29", "$45", &format!("{stored} AND $21 > 0")),
        extract_job = queue::enqueue_once_sql(&extract_job),
        summary_job = queue::enqueue_once_sql(&summary_job),
        mood = crate::cognition::affect::store_sql("$2", "$39", "$40", stored),
        channel = miniclaw_platform::jobs::NOTIFY_CHANNEL,
        signals = crate::cognition::signals::update_sql(),
        // The `reply.completed` webhook deliveries (channels' outbox), with the reply.
        hook = crate::channels::webhooks::ctes(
            "hook",
            "$2",
            "'reply.completed'::text",
            "jsonb_build_object('conversation_id', $4::uuid, 'message_id', $5::uuid, 'user_message_id', $1::uuid,
                                'channel', $6::text, 'finish_reason', $25::text, 'engine', $17::text)",
            stored,
        ),
    )
});

/// Whether `triage` asked for nothing the extraction could use. Messages under 20 characters
/// are left out only when extraction calls a paid model (P6 keeps them from costing a call);
/// the offline engine reads them for free, and "I'm vegan now." is a fact.
pub fn trivial_for_extraction(message: &str, triage: &Triage, paid: bool) -> bool {
    triage::is_trivial(message) || (paid && message.trim().chars().count() < 20) || !triage.save_worthy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_finish_statement_takes_exactly_its_named_parameters() {
        let highest = regex::Regex::new(r"\$(\d+)")
            .unwrap()
            .captures_iter(&FINISH_SQL)
            .map(|c| c[1].parse::<usize>().unwrap())
            .max();
        // `FinishParams::bind` binds $1…$45, in the order its comments say.
        assert_eq!(highest, Some(45));
    }
}
