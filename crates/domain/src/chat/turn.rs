//! A turn's start: the user message is stored (with the budgets, the global cap and the kill
//! switch checked, and the turn's expected tokens reserved, in the same statement) before any
//! model is asked, then the generation runs in its own task; a failed or panicked generation is
//! recorded on both messages; either way the turn then gives its reservation back.
//! Regeneration supersedes earlier replies.

use chrono::Utc;
use miniclaw_core::ids::{AgentId, ConversationId, MessageId};
use serde_json::Value;

use super::stream::Event;
use super::*;
use crate::runtime::Runtime;
use miniclaw_core::Error;
use miniclaw_platform::llm::budget::{self, Refusal};
use miniclaw_platform::llm::reservations::{self, KeySql, admit_sql};
use miniclaw_platform::llm::{Gateway, LlmError, Role};

/// The agent with what a turn reads beside it: the calibration profile (for triage), the
/// current soul (for the prompt) and the conversation so far.
#[derive(sqlx::FromRow)]
pub(super) struct TurnAgent {
    #[sqlx(flatten)]
    pub(super) agent: Agent,
    pub(super) calibration: Option<Value>,
    pub(super) soul: Option<String>,
    /// The last completed messages before this one as `[role, content]`, oldest first.
    pub(super) history: sqlx::types::Json<Vec<(String, String)>>,
    /// The context probe, made along when the turn may want context.
    #[sqlx(flatten)]
    pub(super) available: context::Available,
    pub(super) probed: bool,
    /// The speaker's mood before this message (X6), if they spoke before.
    pub(super) mood: Option<sqlx::types::Json<crate::cognition::affect::Mood>>,
    /// What a resumed conversation recovers from (X9); `None` while the conversation goes on.
    pub(super) recovery: Option<sqlx::types::Json<crate::cognition::recovery::Resumed>>,
}

pub(super) fn title_of(message: &str) -> String {
    let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= 60 {
        one_line
    } else {
        format!("{}…", one_line.chars().take(59).collect::<String>())
    }
}

/// Prompt tokens of the reply model's call beyond the message: the system prompt (persona,
/// soul, the context within its token budgets) and the recent conversation (`HISTORY_MESSAGES`
/// messages of at most `HISTORY_CHARS` characters). The triage model's prompt is smaller.
const REPLY_PROMPT_TOKENS: i64 = 4_000;
const TRIAGE_PROMPT_TOKENS: i64 = 1_500;

/// What a turn may cost at most, held when it is admitted (`reservations`): each model call's
/// prompt and longest answer — the triage model's unless the pre-filter decides, and the
/// reply's, twice when a tool round may follow (the triage model may ask for one) — with the
/// client's functions and exchange in the reply's prompt. Tokens, and dollars by the model the
/// agent's reply runs on: the chat route's for a standard agent (`standard_usd`), a premium
/// agent's own model (`models`, `model_usd`) or the premium route's (`premium_usd`).
struct TurnCost {
    tokens: i64,
    standard_usd: f64,
    premium_usd: f64,
    models: Vec<String>,
    model_usd: Vec<f64>,
}

fn reservation(llm: &Gateway, message: &str, client: Option<&ClientTools>) -> TurnCost {
    use miniclaw_platform::llm::usage::{count_prompt_tokens, count_tokens, count_tools_tokens};
    let routes = llm.routes();
    let message_tokens = i64::from(count_tokens(message));
    let offered =
        client.map_or(0, |c| i64::from(count_tools_tokens(&c.tools)) + i64::from(count_prompt_tokens(&c.exchange)));
    let reply_max = routes.route(Role::Chat).max_tokens.max(routes.route(Role::ChatPremium).max_tokens);
    let triage_max = routes.route(Role::Triage).max_tokens;
    let (triage_prompt, answer, tools) = match super::triage::prefilter(message) {
        Some((t, _)) => (None, t.max_tokens, t.tools_needed),
        None => (Some(TRIAGE_PROMPT_TOKENS + message_tokens), super::triage::MAX_TOKENS_RANGE.1, true),
    };
    let reply_prompt = REPLY_PROMPT_TOKENS + message_tokens + offered;
    let reply_answer = answer.min(reply_max);
    let calls: i64 = if tools { 2 } else { 1 };
    let triage_tokens = triage_prompt.map_or(0, |p| p + i64::from(triage_max));
    let tokens = triage_tokens + calls * (reply_prompt + i64::from(reply_answer));
    let tokens_u32 = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
    let triage_usd = triage_prompt.map_or(0.0, |p| llm.max_cost_of(Role::Triage, None, tokens_u32(p), triage_max));
    let usd = |role: Role, model: Option<&str>| {
        triage_usd + calls as f64 * llm.max_cost_of(role, model, tokens_u32(reply_prompt), reply_answer)
    };
    let models = llm.choosable_models();
    let model_usd = models.iter().map(|m| usd(Role::ChatPremium, Some(m))).collect();
    TurnCost {
        tokens,
        standard_usd: usd(Role::Chat, None),
        premium_usd: usd(Role::ChatPremium, None),
        models,
        model_usd,
    }
}

/// The dollars agent `agent` (an SQL expression)'s turn holds, from the `TurnCost` bound at
/// `$first` (standard), `$first + 1` (the choosable models), `$first + 2` (their costs) and
/// `$first + 3` (the premium route's).
fn turn_usd_sql(agent: &str, first: usize) -> String {
    let model = crate::tenancy::agents::sql::chat_model(agent);
    let (models, usds, premium) = (first + 1, first + 2, first + 3);
    format!(
        "CASE WHEN {model} IS NULL THEN ${first}::float8
              ELSE coalesce((SELECT x.u FROM unnest(${models}::text[], ${usds}::float8[]) x (m, u) WHERE x.m = {model}),
                            ${premium}::float8) END"
    )
}

/// What `start`'s statement answers: the limits it judged, whether the turn got its tokens,
/// and where the message went.
#[derive(sqlx::FromRow)]
struct Stored {
    #[sqlx(flatten)]
    limits: budget::Limits,
    /// Whether the turn holds its cost (then it is stored).
    granted: bool,
    /// Why the admission refused (`llm_admit`), when it was asked.
    refused: Option<String>,
    /// Whether the agent is active (an owner can pause it): a paused agent takes no turns.
    active: bool,
    /// Whether the conversation exists (or is new).
    found: bool,
    position: Option<i32>,
}

/// Why a turn was not admitted: what `judge` says of the statement's `limits`, or, when they
/// look fine (the snapshot predates the holds the turn queued behind), the admission's reason.
fn refusal(state: &Runtime, limits: budget::Limits, reason: Option<&str>) -> Error {
    LlmError::Refused(reservations::refusal(reason.unwrap_or("agent_tokens"), limits, state.llm().caps())).into()
}

/// Tells the owner (urgent, once a day) that the agent's daily budget is used up. A failure to
/// store the notification is logged, never the turn's error.
async fn notify_exhausted(state: &Runtime, agent: AgentId, limits: &budget::Limits) {
    let refused @ (Refusal::AgentDailyTokens { reset_at, .. } | Refusal::TenantMonthlyDollars { reset_at, .. }) =
        (match budget::judge(limits.clone(), Utc::now()) {
            Err(r) => r,
            Ok(()) => return,
        })
    else {
        return;
    };
    let day = Utc::now().format("%Y-%m-%d");
    let body = format!("{refused}. Replies resume at {}, or raise the budget.", reset_at.to_rfc3339());
    let stored = async {
        let mut conn = state.pool().acquire().await?;
        crate::channels::notifications::notify(
            &mut conn,
            agent,
            crate::channels::notifications::Kind::BudgetExhausted,
            "The daily token budget is used up",
            &body,
            Some(&format!("budget_exhausted:{day}")),
        )
        .await
    };
    if let Err(e) = stored.await {
        tracing::warn!(agent.id = %agent, error = %e, "could not store the budget notification");
    }
}

/// A paused agent (`active: false`) answers nothing until its owner turns it back on.
fn inactive() -> Error {
    Error::Conflict("the agent is paused (active: false); its owner can turn it back on".into())
}

/// Stores the user's message (and an empty reply that will stream into its row) and starts
/// generating. The kill switch (503), the global daily cap (503), the tenant's monthly budget
/// and the agent's daily one (429) are checked in the same statement, before anything is
/// stored, and the turn's expected tokens are reserved there: refused, nothing is written and
/// the client still has its message.
pub async fn start(
    state: &Runtime,
    caller: Caller,
    message: String,
    conversation_id: Option<ConversationId>,
    channel: Channel,
) -> Result<Started, Error> {
    start_with(state, caller, message, conversation_id, channel, None).await
}

/// `start` with functions the client offers the model for this turn (`ClientTools`).
pub async fn start_with(
    state: &Runtime,
    caller: Caller,
    message: String,
    conversation_id: Option<ConversationId>,
    channel: Channel,
    client_tools: Option<ClientTools>,
) -> Result<Started, Error> {
    validate(&message)?;
    // One statement, so one round trip and one commit: the limits, the reservation (the agent's
    // usage row lock orders concurrent turns of the agent), the conversation (its row lock
    // orders concurrent messages), the user message and the reply to come. The user message is
    // durable before any model is asked.
    let (user_message_id, reply_id) = (MessageId::new(), MessageId::new());
    let (conversation_id, new_conversation) = match conversation_id {
        Some(id) => (id, false),
        None => (ConversationId::new(), true),
    };
    if new_conversation {
        super::check_room(state.pool(), caller.agent_id, state.deps().caps.conversations_per_agent).await?;
    }
    // A new conversation is for the caller's end user; an existing one must be the caller's to see.
    let audience = caller.audience();
    let key_cap = (crate::runtime::SQL.key_daily_usd)("$18::uuid");
    // Built at run time: it embeds the budget rules (`limits_sql`, `WITHIN_SQL`), shared with
    // `budget`, the agent's state (`agents::sql`) and the reservation (`reserve_sql`).
    let sql = format!(
        "WITH limits AS (SELECT {}
         ), active AS (SELECT coalesce({}, false) AS active
         ), target AS (SELECT $8 OR EXISTS (SELECT 1 FROM conversations WHERE id = $1 AND agent_id = $2
              AND deleted_at IS NULL AND ($13 OR (NOT owner_private AND end_user IS NOT DISTINCT FROM $12))) AS found
         ), checked AS (
            SELECT (SELECT active FROM active) AND (SELECT found FROM target)
                   AND EXISTS (SELECT 1 FROM limits WHERE {}) AS ok
         ), held AS (
            SELECT {} AS refused FROM limits l WHERE (SELECT ok FROM checked)
         ), allowed AS (SELECT 1 FROM held WHERE refused IS NULL
         ), created AS (
            INSERT INTO conversations (id, agent_id, title, channel, message_count, end_user, owner_private)
            SELECT $1, $2, $7, $6, 2, $12, $13 WHERE $8 AND EXISTS (SELECT 1 FROM allowed) RETURNING id, 0 AS position
         ), existing AS (
            UPDATE conversations SET message_count = message_count + 2, updated_at = now()
             WHERE id = $1 AND agent_id = $2 AND NOT $8 AND EXISTS (SELECT 1 FROM allowed)
               AND deleted_at IS NULL AND ($13 OR (NOT owner_private AND end_user IS NOT DISTINCT FROM $12))
            RETURNING id, message_count - 2 AS position
         ), conversation AS (SELECT * FROM created UNION ALL SELECT * FROM existing
         ), question AS (
            INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel)
            SELECT $3, id, $2, position, 'user', $5, 'pending', $6 FROM conversation RETURNING position
         ), reply AS (
            INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, reply_to)
            SELECT $4, id, $2, position + 1, 'assistant', '', 'streaming', $6, $3 FROM conversation
         )
         SELECT l.*, EXISTS (SELECT 1 FROM allowed) AS granted, (SELECT refused FROM held) AS refused, a.active,
                t.found, q.position
           FROM limits l CROSS JOIN active a CROSS JOIN target t LEFT JOIN question q ON true",
        budget::limits_sql(&crate::runtime::SQL, "$2", "$9", "now()", "$10::float8[]"),
        crate::tenancy::agents::sql::active("$2"),
        budget::WITHIN_SQL,
        admit_sql("$2", "$9", "$4", "$11", &turn_usd_sql("$2", 14), "l", "$10::float8[]", false, KeySql { id: "$18", daily_usd: &key_cap }),
    );
    let cost = reservation(state.llm(), &message, client_tools.as_ref());
    let stored: Stored = sqlx::query_as(&sql)
        .bind(conversation_id)
        .bind(caller.agent_id)
        .bind(user_message_id)
        .bind(reply_id)
        .bind(&message)
        .bind(channel.as_str())
        .bind(title_of(&message))
        .bind(new_conversation)
        .bind(caller.tenant_id)
        .bind(state.llm().caps().bind())
        .bind(cost.tokens)
        .bind(audience.end_user.as_deref())
        .bind(audience.sees_all())
        .bind(cost.standard_usd)
        .bind(&cost.models)
        .bind(&cost.model_usd)
        .bind(cost.premium_usd)
        .bind(caller.key())
        .fetch_one(state.pool())
        .await?;
    if !stored.active {
        return Err(inactive());
    }
    if !stored.found {
        return Err(Error::not_found("conversation"));
    }
    if !stored.granted {
        notify_exhausted(state, caller.agent_id, &stored.limits).await;
        return Err(refusal(state, stored.limits, stored.refused.as_deref()));
    }
    let position = stored.position.ok_or_else(|| Error::not_found("conversation"))?;

    let turn = Turn {
        new_account: stored.limits.established == Some(false),
        caller,
        conversation_id,
        user_message_id,
        user_position: position,
        reply_id,
        message,
        channel,
        messages: position + 2,
        client_tools,
    };
    Ok(spawn(state, turn))
}

async fn insert_reply(
    conn: &mut sqlx::PgConnection,
    reply_id: MessageId,
    conversation_id: ConversationId,
    agent_id: AgentId,
    position: i32,
    user_message_id: MessageId,
    channel: Channel,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO chat_messages (id, conversation_id, agent_id, position, role, content, status, channel, reply_to)
         VALUES ($1, $2, $3, $4, 'assistant', '', 'streaming', $5, $6)",
        reply_id as _,
        conversation_id as _,
        agent_id as _,
        position,
        channel.as_str(),
        user_message_id as _
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Generates a new reply to a user message (or to the message an assistant reply answered).
/// Earlier replies to it are marked `superseded`. 409 while a reply to it is still streaming.
/// The limits are checked first and the new reply's tokens reserved with it, as for `start`.
pub async fn regenerate(
    state: &Runtime,
    caller: Caller,
    conversation_id: ConversationId,
    message_id: MessageId,
) -> Result<Started, Error> {
    regenerate_with(state, caller, conversation_id, message_id, None).await
}

/// `regenerate` with the client's functions and the calls and results so far: how a turn whose
/// reply called the client's functions goes on once the client sends their results (the reply
/// that made the calls is superseded by the one that reads them).
pub async fn regenerate_with(
    state: &Runtime,
    caller: Caller,
    conversation_id: ConversationId,
    message_id: MessageId,
    client_tools: Option<ClientTools>,
) -> Result<Started, Error> {
    let new_account = budget_first(state, &caller).await?;
    let agent_id = caller.agent_id;
    // Only in a conversation the caller may see (404 otherwise, also once deleted).
    super::conversation(state.pool(), agent_id, &caller.audience(), conversation_id).await?;
    let mut tx = state.pool().begin().await?;
    let found = sqlx::query!(
        "SELECT role, reply_to FROM chat_messages WHERE agent_id = $1 AND id = $2 AND conversation_id = $3",
        agent_id as _,
        message_id as _,
        conversation_id as _
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::not_found("message"))?;
    let user_id = if found.role == "user" {
        message_id
    } else {
        found.reply_to.map(MessageId).ok_or_else(|| Error::not_found("message"))?
    };
    if !crate::tenancy::agents::is_active(&mut *tx, agent_id).await? {
        return Err(inactive());
    }
    let question = sqlx::query!(
        "SELECT content, position, channel FROM chat_messages WHERE agent_id = $1 AND id = $2",
        agent_id as _,
        user_id as _
    )
    .fetch_one(&mut *tx)
    .await?;
    let (content, position, channel) = (question.content, question.position, question.channel);
    // The reply's cost first: the usage rows are locked before the conversation, in the order
    // `start` locks them, so the two never wait on each other in a circle.
    let reply_id = MessageId::new();
    #[derive(sqlx::FromRow)]
    struct Admitted {
        #[sqlx(flatten)]
        limits: budget::Limits,
        refused: Option<String>,
    }
    let cost = reservation(state.llm(), &content, client_tools.as_ref());
    let key_cap = (crate::runtime::SQL.key_daily_usd)("$10::uuid");
    let admitted: Admitted = sqlx::query_as(&format!(
        "SELECT l.*, CASE WHEN l.switch_scope IS NULL THEN {} ELSE 'kill_switch' END AS refused FROM (SELECT {}) l",
        admit_sql(
            "$1",
            "$2",
            "$3",
            "$4",
            &turn_usd_sql("$1", 6),
            "l",
            "$5::float8[]",
            false,
            KeySql { id: "$10", daily_usd: &key_cap }
        ),
        budget::limits_sql(&crate::runtime::SQL, "$1", "$2", "now()", "$5::float8[]"),
    ))
    .bind(agent_id)
    .bind(caller.tenant_id)
    .bind(reply_id)
    .bind(cost.tokens)
    .bind(state.llm().caps().bind())
    .bind(cost.standard_usd)
    .bind(&cost.models)
    .bind(&cost.model_usd)
    .bind(cost.premium_usd)
    .bind(caller.key())
    .fetch_one(&mut *tx)
    .await?;
    if let Some(reason) = admitted.refused {
        drop(tx);
        return Err(refusal(state, admitted.limits, Some(&reason)));
    }
    // Lock the conversation: one regeneration at a time.
    sqlx::query!(
        "SELECT 1 AS locked FROM conversations WHERE agent_id = $1 AND id = $2 FOR UPDATE",
        agent_id as _,
        conversation_id as _
    )
    .fetch_optional(&mut *tx)
    .await?;
    let streaming = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM chat_messages WHERE agent_id = $1 AND reply_to = $2 AND status = 'streaming'
             AND updated_at > now() - make_interval(secs => $3)) AS "streaming!""#,
        agent_id as _,
        user_id as _,
        STALE_STREAM_SECS as f64
    )
    .fetch_one(&mut *tx)
    .await?;
    if streaming {
        return Err(Error::Conflict("a reply to this message is still being generated".into()));
    }
    sqlx::query!(
        "UPDATE chat_messages SET status = 'superseded', updated_at = now()
          WHERE agent_id = $1 AND reply_to = $2 AND status IN ('complete', 'error', 'streaming')",
        agent_id as _,
        user_id as _
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "UPDATE chat_messages SET status = 'pending', error = NULL, updated_at = now() WHERE agent_id = $1 AND id = $2",
        agent_id as _,
        user_id as _
    )
    .execute(&mut *tx)
    .await?;
    let reply_position = sqlx::query_scalar!(
        r#"UPDATE conversations SET message_count = message_count + 1, updated_at = now()
            WHERE agent_id = $1 AND id = $2 RETURNING message_count - 1 AS "position!""#,
        agent_id as _,
        conversation_id as _
    )
    .fetch_one(&mut *tx)
    .await?;
    let channel = match channel.as_str() {
        "web" => Channel::Web,
        "openai" => Channel::Openai,
        "telegram" => Channel::Telegram,
        "email" => Channel::Email,
        "mcp" => Channel::Mcp,
        "a2a" => Channel::A2a,
        _ => Channel::Api,
    };
    insert_reply(&mut tx, reply_id, conversation_id, caller.agent_id, reply_position, user_id, channel).await?;
    tx.commit().await?;
    let turn = Turn {
        new_account,
        caller,
        conversation_id,
        user_message_id: user_id,
        user_position: position,
        reply_id,
        message: content,
        channel,
        messages: reply_position + 1,
        client_tools,
    };
    Ok(spawn(state, turn))
}

/// Everything one generation needs.
pub(super) struct Turn {
    pub(super) caller: Caller,
    pub(super) conversation_id: ConversationId,
    pub(super) user_message_id: MessageId,
    pub(super) user_position: i32,
    pub(super) reply_id: MessageId,
    pub(super) message: String,
    pub(super) channel: Channel,
    /// Messages in the conversation once the reply is in.
    pub(super) messages: i32,
    /// The client's functions, which then replace the agent's own tools for this turn.
    pub(super) client_tools: Option<ClientTools>,
    /// The account is new (the admission said so): its calls count toward its allowance.
    pub(super) new_account: bool,
}

impl Turn {
    /// Who is speaking (`policy`).
    pub(super) fn speaker(&self) -> super::policy::Speaker {
        super::policy::Speaker::of(&self.caller, self.channel)
    }

    /// The context of the turn's own calls (triage, reply, tools): the budgets admitted the turn
    /// when it was stored (`start`, `regenerate`), so they are not checked again call by call.
    pub(super) fn call_context(&self) -> CallContext {
        let caller = &self.caller;
        CallContext::for_agent(caller.tenant_id, caller.agent_id, &caller.origin)
            .admitted(self.new_account)
            .held_by(self.reply_id)
    }
}

pub(super) fn spawn(state: &Runtime, turn: Turn) -> Started {
    let (agent_id, conversation_id, user_message_id, reply_id) =
        (turn.caller.agent_id, turn.conversation_id, turn.user_message_id, turn.reply_id);
    let events = state.chat_streams().open(reply_id);
    let stop = state.chat_streams().stoppable(reply_id);
    let state = state.clone();
    // The turn's span, a child of the request that started it (which may end first: a streamed
    // reply outlives its request).
    let span = tracing::info_span!(
        "chat.turn",
        tenant.id = %turn.caller.tenant_id,
        agent.id = %agent_id,
        conversation.id = %conversation_id,
        reply.id = %reply_id,
        channel = turn.channel.as_str(),
    );
    let done = tokio::spawn(tracing::Instrument::instrument(
        async move {
            use futures::FutureExt;
            // A panic is a failed generation like any other: the messages must not stay pending.
            let generation =
                std::panic::AssertUnwindSafe(super::generate::generate(&state, &turn, &events)).catch_unwind();
            let result = tokio::select! {
                r = generation => match r {
                    Ok(r) => r,
                    Err(_) => Err(Error::Internal(anyhow::anyhow!("the generation panicked"))),
                },
                // Stopped: the text written so far stays, the messages say why it ended.
                () = stop.cancelled() => Err(Error::Refused { code: "canceled", message: super::CANCELED.into() }),
            };
            if let Err(e) = &result {
                fail(&state, &turn, e, &events).await;
            }
            // The turn has ended, whichever way: its calls counted what they used, and the tokens it
            // held are free again. On its own, after the turn's statements, so that no statement
            // holds message rows while it waits for the agent's usage row (`start` and `regenerate`
            // lock that row first). Should this fail, or the process die first, the sweep of
            // `chat_stream_sweep` gives them back.
            if let Err(e) =
                miniclaw_platform::llm::reservations::release(state.pool(), turn.caller.agent_id, turn.reply_id).await
            {
                tracing::warn!(reply_id = %turn.reply_id, error = %e, "could not give back the turn's reserved tokens");
            }
            state.chat_streams().close(turn.reply_id);
            result
        },
        span,
    ));
    Started { agent_id, conversation_id, user_message_id, reply_id, done }
}

/// Records a failed generation: both messages get the error status (the user message can be
/// regenerated), the reply keeps whatever text it had.
async fn fail(state: &Runtime, turn: &Turn, e: &Error, events: &tokio::sync::broadcast::Sender<Event>) {
    // The full error goes to the log; the stored message and the stream get what a client may
    // see (no internal error text, no provider answer).
    tracing::warn!(agent_id = %turn.caller.agent_id, reply_id = %turn.reply_id, error = ?e, "chat generation failed");
    let message = e.public_message();
    let stored = async {
        let mut tx = state.pool().begin().await?;
        let failed = sqlx::query!(
            "UPDATE chat_messages SET status = 'error', error = $4, updated_at = now()
              WHERE agent_id = $1 AND id IN ($2, $3) AND status IN ('pending', 'streaming')",
            turn.caller.agent_id as _,
            turn.user_message_id as _,
            turn.reply_id as _,
            message
        )
        .execute(&mut *tx)
        .await?;
        if failed.rows_affected() > 0 {
            let data = serde_json::json!({ "conversation_id": turn.conversation_id, "message_id": turn.reply_id,
                                           "code": e.code() });
            crate::channels::webhooks::emit(&mut tx, turn.caller.agent_id, "reply.failed", data).await?;
        }
        tx.commit().await
    };
    if let Err(db) = stored.await {
        tracing::error!(error = %db, "could not record the failed generation");
    }
    let _ = events.send(Event::Failed { code: e.code().into(), message });
}
