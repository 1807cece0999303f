//! The Identity tab (SPEC I1): the agent's ERC-8004 registration with its live status (the
//! page reloads itself while the job works), the register button, the on-chain facts with an
//! explorer link on the known chains, the registration-file profile form, and the file itself
//! as it is served.

use askama::Template;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect};

use super::extract::{Posted, WebAgent, WebOwner};
use super::notice::{Notice, NoticeQuery};
use super::pages::{PageResult, internal, render, shown};
use crate::app::AppState;
use miniclaw_domain::onchain::identity::{self, Identity, Profile, file};
use miniclaw_domain::tenancy::agents::Agent;

#[derive(Template)]
#[template(path = "web/identity.html")]
struct IdentityPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    identity: Identity,
    /// The configured chain (`None`: no `EVM_RPC_URL`).
    chain: Option<ChainView>,
    /// The registration file as served now, pretty-printed.
    file: Option<String>,
    /// The profile form's values (what was posted, after an error).
    form: Profile,
    notice: Option<String>,
    error: Option<String>,
}

pub struct ChainView {
    pub chain_id: u64,
    /// The chain's name when miniclaw knows it (Base, Celo and their Sepolia testnets).
    pub name: Option<&'static str>,
    pub registry: String,
    pub sponsor: bool,
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    notice: Option<String>,
    error: Option<String>,
    form: Option<Profile>,
) -> PageResult {
    let base = state.public_url();
    let identity = identity::get(state.pool(), &base, agent.id).await.map_err(internal)?;
    let file = file::current(state.pool(), &base, state.config(), agent.id)
        .await
        .map_err(internal)?
        .map(|v| serde_json::to_string_pretty(&v).unwrap_or_default());
    let chain = state.deps().chain.as_deref().map(|c| ChainView {
        chain_id: c.chain_id,
        name: miniclaw_platform::config::chain_name(c.chain_id),
        registry: format!("{:#x}", c.registry),
        sponsor: c.settings.sponsor,
    });
    Ok(render(IdentityPage {
        csrf: web.csrf,
        tab: "identity",
        form: form.unwrap_or_else(|| identity.profile.clone()),
        identity,
        chain,
        file,
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
    page(&state, web, agent, Notice::message_of(&q.notice), None, None).await
}

fn back(agent: &Agent, notice: Notice) -> axum::response::Response {
    Redirect::to(&format!("/agents/{}/identity?notice={}", agent.id, notice.code())).into_response()
}

pub async fn register(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let origin = web.owner.origin();
    match identity::request_registration(state.deps(), web.owner.tenant_id, agent.id, &origin).await {
        Ok(_) => Ok(back(&agent, Notice::RegistrationRequested)),
        Err(e) => page(&state, web, agent, None, Some(shown(e)?), None).await,
    }
}

/// "Check the record": proves the domain by its TXT record.
pub async fn prove_domain(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let origin = web.owner.origin();
    match identity::prove_domain(state.deps(), web.owner.tenant_id, agent.id, &origin).await {
        Ok(i) => {
            let notice =
                format!("{} is proven: it serves the registration file.", i.profile.domain.unwrap_or_default());
            page(&state, web, agent, Some(notice), None, None).await
        }
        Err(e) => page(&state, web, agent, None, Some(shown(e)?), None).await,
    }
}

pub async fn save_profile(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    // Every field is on the form: an empty one clears it.
    let profile = Profile {
        domain: Some(f.text("domain")),
        image: Some(f.text("image")),
        description: Some(f.text("description")),
        email: Some(f.text("email")),
    };
    let origin = web.owner.origin();
    match identity::update_profile(state.deps(), web.owner.tenant_id, agent.id, &origin, profile.clone()).await {
        Ok(_) => Ok(back(&agent, Notice::ProfileSaved)),
        Err(e) => page(&state, web, agent, None, Some(shown(e)?), Some(profile)).await,
    }
}
