//! The agents list, the new-agent form, and an agent's settings page (update, delete).

use askama::Template;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use miniclaw_core::Error;
use serde::Deserialize;

use super::extract::{Posted, WebAgent, WebOwner};
use super::forms::Form;
use super::pages::*;
use crate::app::AppState;
use miniclaw_domain::tenancy::agents::{self, Agent, AgentInput, QuietHours};
use miniclaw_domain::tenancy::verify;

#[derive(Template)]
#[template(path = "web/agents.html")]
struct AgentsPage {
    csrf: String,
    agents: Vec<Agent>,
    /// The owner's address while it is unproven (and the platform sends mail).
    unverified: Option<String>,
    /// What asking for a new link did.
    notice: Option<String>,
}

pub async fn agents(State(state): State<AppState>, web: WebOwner) -> PageResult {
    agents_page(&state, web, None).await
}

async fn agents_page(state: &AppState, web: WebOwner, notice: Option<String>) -> PageResult {
    let agents =
        agents::list(state.pool(), web.owner.tenant_id, super::pages::LIST_SHOWN, None).await.map_err(internal)?;
    let unverified = if state.deps().email.configured() {
        let account = miniclaw_domain::tenancy::accounts::me(state.pool(), web.owner.owner_id, web.owner.tenant_id)
            .await
            .map_err(internal)?;
        account.owner.email.filter(|_| !account.email_verified)
    } else {
        None
    };
    Ok(render(AgentsPage { csrf: web.csrf, agents, unverified, notice }))
}

/// "Send the link again" on the agents page: a new link proving the owner's address.
pub async fn send_verification(State(state): State<AppState>, Posted { who: web, .. }: Posted<WebOwner>) -> PageResult {
    let notice = match verify::resend_owner_link(state.deps(), web.owner.owner_id, web.owner.tenant_id).await {
        Ok(to) => format!("A new link is on its way to {to}."),
        Err(e) => super::pages::shown(e)?,
    };
    agents_page(&state, web, Some(notice)).await
}

/// The agent settings form, shared by "new" and "settings".
#[derive(Default)]
struct AgentForm {
    name: String,
    persona: String,
    emoji: String,
    tier: String,
    premium_model: String,
    daily_token_budget: String,
    outreach_enabled: bool,
    outreach_auto_reply_confidence: String,
    notification_mode: String,
    proactiveness: String,
    quiet_start: String,
    quiet_end: String,
    timezone: String,
    active: bool,
    evm_address: String,
    ed25519_public_key: String,
    /// Space-separated scopes a connect may grant.
    connect_scopes: String,
}

impl AgentForm {
    fn defaults() -> Self {
        AgentForm {
            tier: "free".into(),
            daily_token_budget: agents::DEFAULT_DAILY_TOKEN_BUDGET.to_string(),
            outreach_auto_reply_confidence: "0.8".into(),
            notification_mode: "smart".into(),
            proactiveness: "moderate".into(),
            timezone: "UTC".into(),
            active: true,
            connect_scopes: agents::DEFAULT_CONNECT_SCOPES.join(" "),
            ..Default::default()
        }
    }

    fn of(a: &Agent) -> Self {
        AgentForm {
            name: a.name.clone(),
            persona: a.persona.clone(),
            emoji: a.emoji.clone(),
            tier: a.tier.clone(),
            premium_model: a.premium_model.clone().unwrap_or_default(),
            daily_token_budget: a.daily_token_budget.to_string(),
            outreach_enabled: a.outreach_enabled,
            outreach_auto_reply_confidence: format!("{:.2}", a.outreach_auto_reply_confidence),
            notification_mode: a.notification_mode.clone(),
            proactiveness: a.proactiveness.clone(),
            quiet_start: a.quiet_hours.as_ref().map(|q| q.start.clone()).unwrap_or_default(),
            quiet_end: a.quiet_hours.as_ref().map(|q| q.end.clone()).unwrap_or_default(),
            timezone: a.timezone.clone(),
            active: a.active,
            evm_address: a.evm_address.clone().unwrap_or_default(),
            ed25519_public_key: a.ed25519_public_key.clone().unwrap_or_default(),
            connect_scopes: a.connect_scopes.join(" "),
        }
    }

    fn from_form(f: &Form) -> Self {
        AgentForm {
            name: f.text("name"),
            persona: f.text("persona"),
            emoji: f.text("emoji"),
            tier: f.text("tier"),
            premium_model: f.text("premium_model"),
            daily_token_budget: f.text("daily_token_budget"),
            outreach_enabled: f.checked("outreach_enabled"),
            outreach_auto_reply_confidence: f.text("outreach_auto_reply_confidence"),
            notification_mode: f.text("notification_mode"),
            proactiveness: f.text("proactiveness"),
            quiet_start: f.text("quiet_start"),
            quiet_end: f.text("quiet_end"),
            timezone: f.text("timezone"),
            active: f.checked("active"),
            evm_address: f.text("evm_address"),
            ed25519_public_key: f.text("ed25519_public_key"),
            connect_scopes: f.text("connect_scopes"),
        }
    }

    /// The form as an API input: every field is set, blanks clear nullable settings.
    fn to_input(&self) -> Result<AgentInput, Error> {
        let budget = self
            .daily_token_budget
            .trim()
            .parse::<i32>()
            .map_err(|_| Error::validation("daily_token_budget", "daily token budget must be a whole number"))?;
        let confidence = self.outreach_auto_reply_confidence.trim().parse::<f32>().map_err(|_| {
            Error::validation(
                "outreach_auto_reply_confidence",
                "auto-reply confidence must be a number between 0 and 1",
            )
        })?;
        let opt = |s: &str| Some(Some(s.trim().to_string()).filter(|s| !s.is_empty()));
        let quiet_hours = match (self.quiet_start.trim(), self.quiet_end.trim()) {
            ("", "") => Some(None),
            (s, e) => Some(Some(QuietHours { start: s.to_string(), end: e.to_string() })),
        };
        Ok(AgentInput {
            name: Some(self.name.clone()),
            persona: Some(self.persona.clone()),
            emoji: Some(self.emoji.clone()),
            tier: Some(self.tier.clone()),
            premium_model: opt(&self.premium_model),
            daily_token_budget: Some(budget),
            outreach_enabled: Some(self.outreach_enabled),
            outreach_auto_reply_confidence: Some(confidence),
            notification_mode: Some(self.notification_mode.clone()),
            proactiveness: Some(self.proactiveness.clone()),
            quiet_hours,
            timezone: Some(self.timezone.clone()),
            active: Some(self.active),
            evm_address: opt(&self.evm_address),
            ed25519_public_key: opt(&self.ed25519_public_key),
            connect_scopes: Some(
                self.connect_scopes
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
            ),
        })
    }
}

#[derive(Template)]
#[template(path = "web/agent_new.html")]
struct NewAgentPage {
    csrf: String,
    form: AgentForm,
    error: Option<String>,
}

pub async fn new_agent(web: WebOwner) -> Response {
    render(NewAgentPage { csrf: web.csrf, form: AgentForm::defaults(), error: None })
}

pub async fn create_agent(State(state): State<AppState>, Posted { who: web, form: f }: Posted<WebOwner>) -> PageResult {
    let form = AgentForm::from_form(&f);
    let result: Result<Agent, Error> = async {
        let input = form.to_input()?;
        let mut tx = state.pool().begin().await?;
        let max = state.config().agents_per_tenant;
        let agent = agents::create(
            &mut tx,
            state.registry(),
            state.llm(),
            web.owner.tenant_id,
            &web.owner.origin(),
            input,
            max,
        )
        .await?;
        tx.commit().await?;
        Ok(agent)
    }
    .await;
    match result {
        Ok(agent) => Ok(Redirect::to(&format!("/agents/{}?created=1", agent.id)).into_response()),
        Err(e) => Ok(render(NewAgentPage { csrf: web.csrf, form, error: Some(shown(e)?) })),
    }
}

#[derive(Template)]
#[template(path = "web/agent_settings.html")]
struct AgentSettingsPage {
    csrf: String,
    agent: Agent,
    form: AgentForm,
    error: Option<String>,
    saved: bool,
    tab: &'static str,
}

#[derive(Deserialize)]
pub struct SavedQuery {
    saved: Option<String>,
}

pub async fn agent_settings(WebAgent { owner: web, agent }: WebAgent, Query(q): Query<SavedQuery>) -> PageResult {
    let form = AgentForm::of(&agent);
    Ok(render(AgentSettingsPage {
        csrf: web.csrf,
        agent,
        form,
        error: None,
        saved: q.saved.is_some(),
        tab: "settings",
    }))
}

pub async fn update_agent(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let form = AgentForm::from_form(&f);
    let result: Result<(), Error> = async {
        let input = form.to_input()?;
        let mut tx = state.pool().begin().await?;
        agents::update(&mut tx, state.llm(), web.owner.tenant_id, id, &web.owner.origin(), input).await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    match result {
        Ok(()) => Ok(Redirect::to(&format!("/agents/{id}/settings?saved=1")).into_response()),
        Err(e) => match message_of(&e) {
            Some(msg) => Ok(render(AgentSettingsPage {
                csrf: web.csrf,
                agent,
                form,
                error: Some(msg),
                saved: false,
                tab: "settings",
            })),
            None => Err(api_error(e)),
        },
    }
}

pub async fn delete_agent(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let mut tx = state.pool().begin().await.map_err(internal)?;
    // Still 404 when it is gone by now (deleted in another tab since the extractor loaded it).
    agents::delete(&mut tx, web.owner.tenant_id, agent.id, &web.owner.origin(), state.config().agent_retention_days)
        .await
        .map_err(internal)?
        .ok_or_else(not_found_page)?;
    tx.commit().await.map_err(internal)?;
    Ok(Redirect::to("/agents").into_response())
}
