//! The pipeline of one stored turn (SPEC P2–P5): one read of everything the turn needs, triage
//! beside the message's embedding, selective context, the prompt, and the reply — streamed into
//! its row as it arrives, or in one piece from a plain call.

use miniclaw_core::ids::{AgentId, MessageId};
use std::time::Instant;

use sqlx::PgPool;

use super::finish::finish;
use super::stream::Event;
use super::tools::{run_tools, tools};
use super::triage;
use super::turn::{Turn, TurnAgent};
use super::*;
use crate::runtime::Runtime;
use miniclaw_core::Error;
use miniclaw_platform::llm::{ChatRequest, Message, Role, Usage};
use tracing::Instrument as _;

/// Appends streamed text to the reply row, then announces it. Text that arrives while a write
/// is in flight is written together with the next one. Followers in other processes hear of the
/// progress through the relay, at most every `relay::PROGRESS_EVERY` (the write carries the
/// notice).
async fn persist_deltas(
    pool: &PgPool,
    agent_id: AgentId,
    reply_id: MessageId,
    mut rx: tokio::sync::mpsc::Receiver<String>,
    events: &tokio::sync::broadcast::Sender<Event>,
) -> Result<usize, sqlx::Error> {
    let mut written = 0usize;
    let mut noticed = Instant::now();
    let notice = super::relay::progress_payload(agent_id, reply_id);
    while let Some(first) = rx.recv().await {
        let mut text = first;
        while let Ok(more) = rx.try_recv() {
            text.push_str(&more);
        }
        if text.is_empty() {
            continue;
        }
        let tell = noticed.elapsed() >= super::relay::PROGRESS_EVERY;
        sqlx::query!(
            "WITH appended AS (
                UPDATE chat_messages SET content = content || $3, updated_at = now() WHERE agent_id = $1 AND id = $2
                RETURNING id)
             SELECT pg_notify($5, $6) FROM appended WHERE $4",
            agent_id as _,
            reply_id as _,
            text,
            tell,
            super::relay::CHANNEL,
            notice
        )
        .execute(pool)
        .await?;
        if tell {
            noticed = Instant::now();
        }
        written += text.len();
        let _ = events.send(Event::Delta { end: written, text });
    }
    Ok(written)
}

/// The pipeline of one turn, after the messages are stored.
pub(super) async fn generate(
    state: &Runtime,
    turn: &Turn,
    events: &tokio::sync::broadcast::Sender<Event>,
) -> Result<Finished, Error> {
    let pool = state.pool();
    let started = Instant::now();
    let mut timings = Timings::default();
    let ctx = turn.call_context();
    let embedder = state.embedder();
    // The message is embedded beside the setup and triage, not after them, whenever context may
    // be wanted: the pre-filter asks for it, or the triage model will decide (and it nearly always
    // wants memories). With a real triage model the embedding then costs no wall time at all.
    let prefiltered = triage::prefilter(&turn.message);
    let may_want_context = prefiltered.as_ref().is_none_or(|(t, _)| context::wants_context(t));
    let embedding = async {
        let stage = Instant::now();
        if !may_want_context {
            return (None, 0.0);
        }
        let payer = miniclaw_platform::llm::spend::Payer::agent(turn.caller.agent_id);
        let embedded = embedder.embed(std::slice::from_ref(&turn.message));
        let vector = match miniclaw_platform::embed::paid_by(payer, embedded).await {
            Ok(mut v) => v.pop(),
            Err(e) => {
                tracing::warn!(error = %e, "embedding the message failed; context by recency");
                None
            }
        };
        (vector, ms_since(stage))
    };
    let prepared = async {
        // The agent, its calibration profile, its soul, the conversation and, when the turn may
        // want context, what context the agent has: one round trip. Built at run time: it embeds
        // the agent's row (`agents::sql::row`), the soul and mood (cognition's) and the context
        // probe (`context::available_sql`), all shared.
        let sql = format!(
            "SELECT a.*, {}, $7 AS probed, (SELECT profile FROM agent_calibration WHERE agent_id = $1) AS calibration,
                    {} AS soul,
                    (SELECT coalesce(json_agg(json_build_array(role, left(content, $6)) ORDER BY position), '[]')
                       FROM (SELECT role, content, position FROM chat_messages
                              WHERE conversation_id = $3 AND position < $4 AND status = 'complete'
                              ORDER BY position DESC LIMIT $5) recent) AS history,
                    {} AS mood,
                    {} AS recovery
               FROM ({}) a",
            context::available_sql("$1", "$7", "$8"),
            crate::cognition::soul::current_sql("$1"),
            crate::cognition::affect::mood_sql("$1", "$9"),
            crate::cognition::recovery::resumed_sql("$1", "$3", "$4", "$9"),
            crate::tenancy::agents::sql::row("$1", "$2")
        );
        let agent: TurnAgent = sqlx::query_as(&sql)
            .bind(turn.caller.agent_id)
            .bind(turn.caller.tenant_id)
            .bind(turn.conversation_id)
            .bind(turn.user_position)
            .bind(HISTORY_MESSAGES)
            .bind(HISTORY_CHARS as i32)
            .bind(may_want_context)
            .bind(embedder.model())
            .bind(turn.caller.speaker())
            .fetch_optional(pool)
            .await?
            .ok_or_else(|| Error::not_found("agent"))?;
        let history: Vec<Message> = agent
            .history
            .iter()
            .map(
                |(role, content)| {
                    if role == "user" { Message::user(content.clone()) } else { Message::assistant(content.clone()) }
                },
            )
            .collect();
        let setup_ms = ms_since(started);
        // Tier 1: triage.
        let stage = Instant::now();
        let t = triage::run(state.llm(), &ctx, &turn.message, prefiltered, &history, agent.calibration.as_ref())
            .instrument(tracing::info_span!("chat.triage"))
            .await;
        Ok::<_, Error>((history, agent, t, setup_ms, ms_since(stage)))
    };
    let ((query, embed_ms), prepared) = tokio::join!(embedding, prepared);
    let (history, TurnAgent { agent, soul, available, probed, mood, recovery, .. }, t, setup_ms, triage_ms) = prepared?;
    // Affect (X6): how the message reads and the mood it adds up to; no model, no query.
    let reading = crate::cognition::affect::read(&turn.message);
    let mood = crate::cognition::affect::update(mood.as_deref(), &reading, chrono::Utc::now());
    (timings.setup_ms, timings.triage_ms, timings.embed_ms) = (setup_ms, triage_ms, embed_ms);
    let message_vector = query.clone();
    // Context, only what triage asked for.
    let query = if context::wants_context(&t.triage) { query } else { None };
    let stage = Instant::now();
    let query = query.as_deref().map(|v| (v, embedder.model()));
    // The installed skills are read beside the context (SPEC S5): no extra wait on the turn.
    // An end user's turn reads the agent's own knowledge and their memories only (SPEC H1).
    let reader = super::policy::reader(turn.speaker(), turn.caller.end_user.as_deref());
    let (mut context, skills) = async {
        tokio::try_join!(
            context::load(
                pool,
                turn.caller.agent_id,
                &reader,
                turn.conversation_id,
                &t.triage,
                query,
                probed.then_some(available)
            ),
            crate::social::skills::installs::active(pool, turn.caller.agent_id),
        )
    }
    .instrument(tracing::info_span!("chat.context", intent = t.triage.intent.as_str()))
    .await?;
    timings.context_ms = ms_since(stage);
    let stage = Instant::now();

    // Tier 2: generation. Installed skills whose triggers the message names bring their
    // instructions.
    let mut system = prompt::system(&agent, soul.as_deref(), &t.triage, &context);
    system.push_str(&crate::cognition::affect::observation(&mood, &reading));
    // Live state (X9): a resumed conversation starts from where the agent and the user left off.
    if let Some(r) = &recovery {
        system.push_str(&r.recover(chrono::Utc::now()).text);
    }
    context.mood = Some(mood);
    context.message_vector = message_vector;
    system.push_str(&crate::social::skills::prompt_section(&crate::social::skills::triggered(&turn.message, &skills)));
    let role = if agent.tier == "premium" { Role::ChatPremium } else { Role::Chat };
    // A premium agent's own model, when its owner set one, runs instead of the route's primary.
    let model = agent.premium_model.clone().filter(|_| role == Role::ChatPremium);
    // Tier 2 runs in its own span; what it produced is finished (stored, announced) in another.
    let generation = async {
        let mut messages = prompt::messages(system, history, &turn.message);
        if let Some(client) = &turn.client_tools {
            // The client's functions: one call, whose function calls (if any) go back to the client.
            messages.extend(client.exchange.iter().cloned());
            let req = ChatRequest::new(role, messages)
                .max_tokens(t.triage.max_tokens)
                .tools(client.tools.clone())
                .tool_choice(client.choice.clone())
                .model(model);
            let response = state.llm().complete(&ctx, req).await?;
            return Ok((response, Usage::default(), true));
        }
        let mut tool_usage = Usage::default();
        if t.triage.tools_needed {
            // The tools of the MCP servers the owner attached; none when they cannot be read.
            let mcp_tools = super::mcp_servers::offered(pool, turn.caller.agent_id, turn.speaker()).await.unwrap_or_else(|e| {
                tracing::warn!(agent_id = %turn.caller.agent_id, error = %e, "could not read the agent's MCP tools");
                Vec::new()
            });
            let req = ChatRequest::new(role, messages.clone())
                .max_tokens(t.triage.max_tokens)
                .tools(tools(turn, &t.triage.intent, mcp_tools))
                .model(model.clone());
            let first = state.llm().complete(&ctx, req).await?;
            tool_usage = first.usage;
            if first.tool_calls.is_empty() {
                return Ok((first, Usage::default(), true));
            }
            messages.extend(run_tools(state, turn, &first.tool_calls).await);
        }
        let req = ChatRequest::new(role, messages).max_tokens(t.triage.max_tokens).model(model);
        if !state.llm().streams(role) {
            // One piece of text: stored and announced with the finished turn, no row update of its own.
            let response = state.llm().complete(&ctx, req).await?;
            return Ok((response, tool_usage, true));
        }
        let (tx, rx) = tokio::sync::mpsc::channel::<String>(64);
        let (response, written) = tokio::join!(
            state.llm().stream(&ctx, req, tx),
            persist_deltas(pool, turn.caller.agent_id, turn.reply_id, rx, events)
        );
        written?;
        Ok::<_, Error>((response?, tool_usage, false))
    }
    .instrument(tracing::info_span!("chat.generation", tier = agent.tier.as_str()));
    let (response, tool_usage, unstreamed) = generation.await?;
    timings.generation_ms = ms_since(stage);
    finish(state, turn, &t, &context, response, tool_usage, (started, timings), events, unstreamed)
        .instrument(tracing::info_span!("chat.finish"))
        .await
}
