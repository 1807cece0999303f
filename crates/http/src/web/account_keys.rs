//! The account's own keys in the dashboard (SPEC H4): issue one for some agents or all of them,
//! with a rate and a daily spend cap of its own (the secret shown once), see what each spent
//! today, revoke. Admins and owners post here (`roles`); every member may look.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, KeyId};
use miniclaw_platform::llm::key_usage;

use super::extract::{Posted, WebOwner};
use super::forms::Form;
use super::pages::*;
use crate::app::AppState;
use crate::auth::with_cookies;
use miniclaw_domain::tenancy::agents::{self, Agent};
use miniclaw_domain::tenancy::auth::account_keys::{self, AccountKey, NewAccountKey};
use miniclaw_domain::tenancy::auth::keys::{self, Limits};
use miniclaw_domain::tenancy::auth::scopes;

/// One key as the page lists it, with what it spent today.
struct Listed {
    key: AccountKey,
    /// The names of the agents it reaches; `None`: every agent.
    agents: Option<Vec<String>>,
    spent_today: f64,
}

#[derive(Template)]
#[template(path = "web/account_keys.html")]
struct AccountKeysPage {
    csrf: String,
    keys: Vec<Listed>,
    agents: Vec<Agent>,
    scopes: &'static [(&'static str, &'static str)],
    new_key: Option<String>,
    error: Option<String>,
    notice: Option<String>,
    public_url: String,
}

/// What the page says above its list.
enum Said {
    Nothing,
    NewKey(String),
    Error(String),
    Notice(String),
}

async fn page(state: &AppState, web: WebOwner, said: Said) -> PageResult {
    let tenant = web.owner.tenant_id;
    let listed = account_keys::list(state.pool(), tenant, LIST_SHOWN, None).await.map_err(internal)?;
    let agents = agents::list(state.pool(), tenant, state.config().agents_per_tenant, None).await.map_err(internal)?;
    let name_of = |id: &AgentId| agents.iter().find(|a| a.id == *id).map_or_else(|| id.to_string(), |a| a.name.clone());
    let ids: Vec<KeyId> = listed.iter().map(|k| k.id).collect();
    let spent = key_usage::spent_today(state.pool(), &ids).await.map_err(internal)?;
    let keys = listed
        .into_iter()
        .map(|key| Listed {
            agents: key.agents.as_ref().map(|ids| ids.iter().map(name_of).collect()),
            spent_today: spent.get(&key.id).copied().unwrap_or(0.0),
            key,
        })
        .collect();
    let (new_key, error, notice) = match said {
        Said::Nothing => (None, None, None),
        Said::NewKey(k) => (Some(k), None, None),
        Said::Error(e) => (None, Some(e), None),
        Said::Notice(n) => (None, None, Some(n)),
    };
    Ok(render(AccountKeysPage {
        csrf: web.csrf,
        keys,
        agents,
        scopes: scopes::ALL,
        new_key,
        error,
        notice,
        public_url: state.public_url(),
    }))
}

/// The cookie that carries a just-issued key from the POST to the page that shows it once.
const NEW_KEY_COOKIE: &str = "mc_new_account_key";

pub async fn show(State(state): State<AppState>, web: WebOwner, headers: HeaderMap) -> PageResult {
    let flashed =
        crate::auth::cookie(&headers, NEW_KEY_COOKIE).filter(|t| keys::parse(t).is_some()).map(str::to_string);
    let Some(token) = flashed else { return page(&state, web, Said::Nothing).await };
    // Show it only if it really is one of the account's keys.
    let id = keys::parse(&token).map(|(k, _)| k);
    let ours = match id {
        Some(id) => account_keys::get(state.pool(), web.owner.tenant_id, id).await.map_err(internal)?.is_some(),
        None => false,
    };
    let said = if ours { Said::NewKey(token) } else { Said::Nothing };
    let mut resp = page(&state, web, said).await?;
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(with_cookies(resp, [format!("{NEW_KEY_COOKIE}=; Path=/keys; HttpOnly; SameSite=Strict; Max-Age=0")]))
}

/// An optional number field: empty is none, anything else must parse.
fn number<T: std::str::FromStr>(form: &Form, field: &str) -> Result<Option<T>, Error> {
    let raw = form.text(field);
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    raw.parse().map(Some).map_err(|_| Error::validation(field, format!("{field} must be a number")))
}

/// The key the form asks for, checked.
struct Requested {
    name: String,
    scopes: Vec<String>,
    /// `None`: every agent.
    agents: Option<Vec<AgentId>>,
    limits: Limits,
}

fn requested(form: &Form) -> Result<Requested, Error> {
    let (name, scopes) = keys::validate_request(&form.text("name"), &form.all("scopes"), None)?;
    let limits = Limits::new(number(form, "rate_per_minute")?, number(form, "daily_usd_cap")?)?;
    let picked = form
        .all("agents")
        .iter()
        .map(|a| a.parse::<AgentId>().map_err(|_| Error::validation("agents", "pick agents from the list")))
        .collect::<Result<Vec<_>, _>>()?;
    // No agent picked: every agent.
    Ok(Requested { name, scopes, agents: (!picked.is_empty()).then_some(picked), limits })
}

pub async fn issue(State(state): State<AppState>, Posted { who: web, form }: Posted<WebOwner>) -> PageResult {
    let Requested { name, scopes, agents, limits } = match requested(&form) {
        Ok(r) => r,
        Err(e) => return page(&state, web, Said::Error(shown(e)?)).await,
    };
    let o = &web.owner;
    let new = NewAccountKey {
        tenant_id: o.tenant_id,
        name: &name,
        scopes: &scopes,
        agents,
        expires_at: None,
        limits,
        created_by: format!("owner:{}", o.owner_id),
    };
    let mut tx = state.pool().begin().await.map_err(internal)?;
    let token = match account_keys::create(&mut tx, new, state.config().caps.keys_per_agent, &o.origin()).await {
        Ok((_, token)) => token,
        Err(e) => return page(&state, web, Said::Error(shown(e)?)).await,
    };
    tx.commit().await.map_err(internal)?;
    let secure = if state.config().secure_cookies { "; Secure" } else { "" };
    let flash =
        format!("{NEW_KEY_COOKIE}={}; Path=/keys; HttpOnly; SameSite=Strict; Max-Age=120{secure}", token.expose());
    Ok(with_cookies(Redirect::to("/keys").into_response(), [flash]))
}

pub async fn revoke(
    State(state): State<AppState>,
    Path(id): Path<KeyId>,
    Posted { who: web, .. }: Posted<WebOwner>,
) -> PageResult {
    let mut tx = state.pool().begin().await.map_err(internal)?;
    let key = account_keys::revoke(&mut tx, web.owner.tenant_id, id, &web.owner.origin())
        .await
        .map_err(internal)?
        .ok_or_else(not_found_page)?;
    tx.commit().await.map_err(internal)?;
    page(&state, web, Said::Notice(format!("The key {} is revoked: every request made with it is refused.", key.name)))
        .await
}
