//! The chat page: pick a conversation, send messages (streamed over SSE by the page script,
//! a plain form post without it), and see per reply the intent, whether triage was skipped,
//! the memories used with their signals, and the engine and model. Failed turns can be
//! regenerated; replies can be rated and corrected (X5).

use crate::error::ErrorResponse as _;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, ConversationId, MessageId};
use serde::Deserialize;

use super::extract::{Posted, WebAgent, WebOwner};
use super::pages::{PageResult, internal, message_of, render};
use crate::app::AppState;
use miniclaw_domain::chat::{self, Audience, Caller, Channel, ChatMessage, Conversation, MESSAGE_MAX_CHARS, ReplyMeta};
use miniclaw_domain::tenancy::agents::Agent;

pub struct MessageView {
    pub message: ChatMessage,
    /// A completed reply's metadata, read back from its row.
    pub meta: Option<ReplyMeta>,
    /// Why the agent wrote this on its own, for a proactive message (X7).
    pub proactive: Option<String>,
    /// The owner's feedback on a reply (X5), as words: "good", "bad", "bad, corrected".
    pub rated: Option<String>,
    /// Whether the reply can still be rated, and corrected.
    pub can_rate: bool,
    pub can_correct: bool,
}

#[derive(Template)]
#[template(path = "web/chat.html")]
struct ChatPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    conversations: Vec<Conversation>,
    current: Option<Conversation>,
    messages: Vec<MessageView>,
    max_chars: usize,
    error: Option<String>,
    draft: String,
    /// Which conversations the list shows (`LISTS`).
    show: &'static str,
    lists: &'static [(&'static str, &'static str)],
}

/// The conversation lists: the owner's own, from the dashboard (the default); those of the
/// other channels (API keys, OpenAI clients, MCP, A2A, Telegram, email); all of them.
const LISTS: [(&str, &str); 3] = [("mine", "Yours"), ("others", "Apps and other channels"), ("all", "All")];

#[derive(Debug, Default, Deserialize)]
pub struct ChatQuery {
    c: Option<ConversationId>,
    show: Option<String>,
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    current: Option<ConversationId>,
    error: Option<String>,
    draft: String,
    show: Option<&str>,
) -> PageResult {
    let pool = state.pool();
    let show = LISTS.iter().map(|(k, _)| *k).find(|k| Some(*k) == show).unwrap_or("mine");
    // The owner sees every conversation of the agent, whoever it is with; the list shows one
    // kind at a time.
    let everyone = Audience { owner: true, end_user: None };
    let conversations = chat::conversations(pool, agent.id, &everyone, 200, None)
        .await
        .map_err(internal)?
        .into_iter()
        .filter(|c| match show {
            "mine" => c.channel == Channel::Web.as_str(),
            "others" => c.channel != Channel::Web.as_str(),
            _ => true,
        })
        .take(50)
        .collect();
    let (current, messages) = match current {
        Some(cid) => match chat::conversation(pool, agent.id, &everyone, cid).await {
            Ok(c) => {
                // The newest messages of a long conversation (the API pages through all of them).
                let msgs = chat::messages(pool, agent.id, &everyone, cid, false, super::pages::LIST_SHOWN, None)
                    .await
                    .map_err(|e| e.into_response())?;
                let ids: Vec<MessageId> = msgs.iter().map(|m| MessageId(m.id)).collect();
                let rated = chat::feedback::for_messages(pool, agent.id, &ids).await.map_err(internal)?;
                let views = msgs
                    .into_iter()
                    .rev()
                    .map(|m| {
                        let proactive = m.meta["proactive"]["why"].as_str().map(str::to_string);
                        let reply = m.role == "assistant" && m.status == "complete" && proactive.is_none();
                        let meta =
                            reply.then(|| serde_json::from_value::<ReplyMeta>(m.meta.clone()).unwrap_or_default());
                        let given = rated.get(&MessageId(m.id));
                        MessageView {
                            rated: given.map(|f| {
                                format!("{}{}", f.rating, if f.correction.is_some() { ", corrected" } else { "" })
                            }),
                            can_rate: reply && given.is_none(),
                            can_correct: reply && given.is_none_or(|f| f.rating == "bad" && f.correction.is_none()),
                            message: m,
                            meta,
                            proactive,
                        }
                    })
                    .collect();
                (Some(c), views)
            }
            Err(_) => return Err(super::pages::not_found_page()),
        },
        None => (None, Vec::new()),
    };
    Ok(render(ChatPage {
        csrf: web.csrf,
        agent,
        tab: "chat",
        conversations,
        current,
        messages,
        max_chars: MESSAGE_MAX_CHARS,
        error,
        draft,
        show,
        lists: &LISTS,
    }))
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<ChatQuery>,
) -> PageResult {
    page(&state, web, agent, q.c, None, String::new(), q.show.as_deref()).await
}

fn caller(web: &WebOwner, agent: &Agent) -> Caller {
    Caller { tenant_id: web.owner.tenant_id, agent_id: agent.id, origin: web.owner.origin(), end_user: None }
}

fn chat_url(agent: AgentId, conversation: ConversationId) -> String {
    format!("/agents/{agent}/chat?c={conversation}#latest")
}

/// Without the page script: runs the turn, waits for the reply, shows the conversation.
pub async fn send(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let message = f.text("message");
    let conversation = f.text("conversation_id").parse::<ConversationId>().ok();
    match chat::start(&state, caller(&web, &agent), message.clone(), conversation, Channel::Web).await {
        Ok(started) => {
            // A failed generation is shown on the page (the message keeps its error status).
            let _ = started.done.await;
            Ok(Redirect::to(&chat_url(agent.id, started.conversation_id)).into_response())
        }
        Err(e) => match message_of(&e).or_else(|| refused(&e)) {
            Some(m) => page(&state, web, agent, conversation, Some(m), message, None).await,
            None => Err(e.into_response()),
        },
    }
}

/// Budget and kill-switch refusals are shown next to the form, not as an error page.
fn refused(e: &Error) -> Option<String> {
    match e {
        Error::Limited { message, .. } => Some(message.clone().unwrap_or_else(|| "rate limited".into())),
        Error::Unavailable(m) | Error::Exhausted { message: m, .. } => Some(m.clone()),
        _ => None,
    }
}

/// The turn in `/agents/{id}/chat/{cid}/regenerate/{mid}` (the agent's `{id}` is `WebAgent`'s).
#[derive(Deserialize)]
pub struct TurnPath {
    cid: ConversationId,
    mid: MessageId,
}

pub async fn regenerate(
    State(state): State<AppState>,
    Path(TurnPath { cid, mid }): Path<TurnPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    match chat::regenerate(&state, caller(&web, &agent), cid, mid).await {
        Ok(started) => {
            let _ = started.done.await;
            Ok(Redirect::to(&chat_url(agent.id, cid)).into_response())
        }
        Err(e) => match message_of(&e).or_else(|| refused(&e)) {
            Some(m) => page(&state, web, agent, Some(cid), Some(m), String::new(), None).await,
            None => Err(e.into_response()),
        },
    }
}

/// Feedback on a reply from the chat page (X5): `rating` good or bad, or a `correction`.
pub async fn feedback(
    State(state): State<AppState>,
    Path(TurnPath { cid, mid }): Path<TurnPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let correction = Some(f.text("correction")).filter(|c| !c.trim().is_empty());
    let rating = Some(f.text("rating")).filter(|r| !r.is_empty());
    let input = chat::feedback::FeedbackInput { rating, correction, memory_ids: None };
    match chat::feedback::give(&state, &caller(&web, &agent), cid, mid, input, true).await {
        Ok(_) => Ok(Redirect::to(&chat_url(agent.id, cid)).into_response()),
        Err(e) => match message_of(&e) {
            Some(m) => page(&state, web, agent, Some(cid), Some(m), String::new(), None).await,
            None => Err(e.into_response()),
        },
    }
}
