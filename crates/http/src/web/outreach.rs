//! The Outreach tab (SPEC O1–O3): what waits for the owner (proposals to approve, edit or
//! reject; escalated replies with the agent's suggestion to send or rewrite), the threads with
//! every email in them, the daily limit left, a form to have the agent draft a proposal, and
//! the tenant's sender identity.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use miniclaw_core::Error;
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent, WebOwner};
use super::notice::{Notice, NoticeQuery};
use super::pages::{LIST_SHOWN, PageResult, internal, not_found_page, render, shown};
use crate::app::AppState;
use miniclaw_domain::channels::outreach::draft::{EditInput, ProposalInput};
use miniclaw_domain::channels::outreach::limits::Quota;
use miniclaw_domain::channels::outreach::thread::{RejectInput, ReplyInput};
use miniclaw_domain::channels::outreach::{self, Thread, ThreadDetail};
use miniclaw_domain::tenancy::agents::Agent;
use miniclaw_platform::email::sender::{self, SenderInput, SenderView};

/// The proposal form's values (what was posted, after an error).
#[derive(Default)]
pub struct ProposalForm {
    pub target_email: String,
    pub target_name: String,
    pub purpose: String,
    pub subject: String,
    pub body: String,
}

#[derive(Template)]
#[template(path = "web/outreach.html")]
struct OutreachPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    /// Proposals and escalations: what waits for the owner.
    waiting: Vec<Thread>,
    /// Every other thread, newest first.
    others: Vec<Thread>,
    quota: Quota,
    /// An email transport (SMTP or Resend) is configured.
    transport: bool,
    /// The inbound webhook has its signing secret.
    webhook: bool,
    webhook_url: String,
    sender: SenderView,
    default_from: String,
    form: ProposalForm,
    notice: Option<String>,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "web/outreach_thread.html")]
struct ThreadPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    detail: ThreadDetail,
    /// The reply box's text: what was posted after an error, else the agent's suggestion.
    reply: String,
    notice: Option<String>,
    error: Option<String>,
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    notice: Option<String>,
    error: Option<String>,
    form: ProposalForm,
) -> PageResult {
    let threads = outreach::list(state.pool(), agent.id, None, None, LIST_SHOWN, None).await.map_err(internal)?;
    let (waiting, others) = threads.into_iter().partition(|t| matches!(t.status.as_str(), "proposed" | "escalated"));
    let quota = outreach::quota(state.pool(), agent.id).await.map_err(internal)?;
    let sender = sender::get_sender(state.pool(), web.owner.tenant_id).await.map_err(internal)?;
    let email = &state.config().email;
    Ok(render(OutreachPage {
        csrf: web.csrf,
        tab: "outreach",
        waiting,
        others,
        quota,
        transport: email.configured(),
        webhook: email.resend_webhook_secret.is_some(),
        webhook_url: format!("{}/webhooks/inbound-email", state.public_url().trim_end_matches('/')),
        sender,
        default_from: email.from_address.clone(),
        form,
        notice,
        error,
        agent,
    }))
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<NoticeQuery>,
) -> PageResult {
    page(&state, web, agent, Notice::message_of(&q.notice), None, ProposalForm::default()).await
}

fn optional(text: String) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// The owner asks the agent for a proposal: with subject and body left empty the agent drafts
/// them (the `outreach` role, or the offline template) and the proposal waits for approval.
pub async fn propose(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let form = ProposalForm {
        target_email: f.text("target_email").trim().to_string(),
        target_name: f.text("target_name"),
        purpose: f.text("purpose"),
        subject: f.text("subject"),
        body: f.text("body"),
    };
    let input = ProposalInput {
        target_email: form.target_email.clone(),
        target_name: optional(form.target_name.clone()),
        purpose: form.purpose.trim().to_string(),
        subject: optional(form.subject.clone()),
        body: optional(form.body.clone()),
    };
    let origin = web.owner.origin();
    match outreach::draft::propose(state.deps(), web.owner.tenant_id, agent.id, &origin, input).await {
        Ok(t) => Ok(to_thread(&agent, t.id, Notice::ProposalReady)),
        Err(e) => page(&state, web, agent, None, Some(format!("Not proposed: {}", shown(e)?)), form).await,
    }
}

/// The thread in `/agents/{id}/outreach/{oid}…`.
#[derive(Deserialize)]
pub struct ThreadPath {
    oid: Uuid,
}

fn to_thread(agent: &Agent, thread: Uuid, notice: Notice) -> Response {
    Redirect::to(&format!("/agents/{}/outreach/{thread}?notice={}", agent.id, notice.code())).into_response()
}

async fn thread_page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    thread: Uuid,
    notice: Option<String>,
    error: Option<String>,
    reply: Option<String>,
) -> PageResult {
    let Some(detail) = outreach::get(state.pool(), agent.id, thread, None).await.map_err(internal)? else {
        return Err(not_found_page());
    };
    let reply = reply.or_else(|| detail.thread.suggested_reply.clone()).unwrap_or_default();
    Ok(render(ThreadPage { csrf: web.csrf, tab: "outreach", detail, reply, notice, error, agent }))
}

pub async fn thread(
    State(state): State<AppState>,
    Path(ThreadPath { oid }): Path<ThreadPath>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<NoticeQuery>,
) -> PageResult {
    thread_page(&state, web, agent, oid, Notice::message_of(&q.notice), None, None).await
}

/// After an action on a thread: back to it with the notice, or the thread again with the
/// error next to its forms (the reply box keeps what was typed).
async fn after(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    thread: Uuid,
    done: Result<Thread, Error>,
    notice: Notice,
    typed: Option<String>,
) -> PageResult {
    match done {
        Ok(_) => Ok(to_thread(&agent, thread, notice)),
        Err(Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => thread_page(state, web, agent, thread, None, Some(shown(e)?), typed).await,
    }
}

pub async fn edit(
    State(state): State<AppState>,
    Path(ThreadPath { oid }): Path<ThreadPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    // Every field is on the form; an empty target name clears it.
    let input = EditInput {
        subject: Some(f.text("subject")),
        body: Some(f.text("body")),
        target_name: Some(f.text("target_name")),
    };
    let origin = web.owner.origin();
    let done = outreach::draft::edit(state.pool(), web.owner.tenant_id, agent.id, &origin, oid, input).await;
    after(&state, web, agent, oid, done, Notice::ProposalSaved, None).await
}

pub async fn approve(
    State(state): State<AppState>,
    Path(ThreadPath { oid }): Path<ThreadPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let origin = web.owner.origin();
    let settings = &state.config().email;
    let done = outreach::thread::approve(state.pool(), settings, web.owner.tenant_id, agent.id, &origin, oid).await;
    after(&state, web, agent, oid, done, Notice::OutreachApproved, None).await
}

pub async fn reject(
    State(state): State<AppState>,
    Path(ThreadPath { oid }): Path<ThreadPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let origin = web.owner.origin();
    let input = RejectInput { reason: optional(f.text("reason")) };
    let done = outreach::thread::reject(state.pool(), web.owner.tenant_id, agent.id, &origin, oid, input).await;
    after(&state, web, agent, oid, done, Notice::OutreachRejected, None).await
}

pub async fn reply(
    State(state): State<AppState>,
    Path(ThreadPath { oid }): Path<ThreadPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let origin = web.owner.origin();
    let settings = &state.config().email;
    let typed = f.text("body");
    let input = ReplyInput { body: optional(typed.clone()) };
    let done =
        outreach::thread::respond(state.pool(), settings, web.owner.tenant_id, agent.id, &origin, oid, input).await;
    after(&state, web, agent, oid, done, Notice::ReplyQueued, Some(typed)).await
}

pub async fn close(
    State(state): State<AppState>,
    Path(ThreadPath { oid }): Path<ThreadPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let origin = web.owner.origin();
    let done = outreach::thread::close(state.pool(), web.owner.tenant_id, agent.id, &origin, oid).await;
    after(&state, web, agent, oid, done, Notice::ThreadClosed, None).await
}

/// The tenant's sender identity (every agent of the account sends as it).
pub async fn save_sender(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let input =
        SenderInput { from_name: optional(f.text("from_name")), from_address: optional(f.text("from_address")) };
    match miniclaw_domain::tenancy::verify::set_sender(state.deps(), web.owner.tenant_id, web.owner.owner_id, input)
        .await
    {
        Ok(_) => Ok(Redirect::to(&format!("/agents/{}/outreach?notice={}", agent.id, Notice::SenderSaved.code()))
            .into_response()),
        Err(e) => {
            let error = format!("Sender not saved: {}", shown(e)?);
            page(&state, web, agent, None, Some(error), ProposalForm::default()).await
        }
    }
}
