//! An agent's API keys: list, issue (the secret shown once), revoke.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect};
use miniclaw_core::ids::KeyId;
use serde::Deserialize;

use super::extract::{Posted, WebAgent, WebOwner};
use super::notice::{Notice, NoticeQuery};
use super::pages::*;
use crate::app::AppState;
use crate::auth::with_cookies;
use miniclaw_domain::tenancy::agents::Agent;
use miniclaw_domain::tenancy::auth::keys::{self, ApiKey, NewKey};
use miniclaw_domain::tenancy::auth::scopes;

struct ScopeOption {
    name: &'static str,
    description: &'static str,
    checked: bool,
}

#[derive(Template)]
#[template(path = "web/keys.html")]
struct KeysPage {
    csrf: String,
    agent: Agent,
    keys: Vec<ApiKey>,
    scope_options: Vec<ScopeOption>,
    key_name: String,
    new_key: Option<String>,
    error: Option<String>,
    /// What the last post did (a key revoked).
    notice: Option<String>,
    public_url: String,
    tab: &'static str,
}

fn scope_options(checked: &[String]) -> Vec<ScopeOption> {
    scopes::ALL
        .iter()
        .map(|(name, description)| ScopeOption { name, description, checked: checked.iter().any(|c| c == name) })
        .collect()
}

/// What the keys page says above its list.
enum Said {
    Nothing,
    /// A key just made, shown this once.
    NewKey(String),
    Error(String),
    Notice(String),
}

async fn keys_page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    said: Said,
    key_name: String,
    checked: &[String],
) -> PageResult {
    let (new_key, error, notice) = match said {
        Said::Nothing => (None, None, None),
        Said::NewKey(k) => (Some(k), None, None),
        Said::Error(e) => (None, Some(e), None),
        Said::Notice(n) => (None, None, Some(n)),
    };
    let keys = keys::list(state.pool(), agent.id, super::pages::LIST_SHOWN, None).await.map_err(internal)?;
    Ok(render(KeysPage {
        csrf: web.csrf,
        agent,
        keys,
        scope_options: scope_options(checked),
        key_name,
        new_key,
        error,
        notice,
        public_url: state.public_url(),
        tab: "keys",
    }))
}

/// The cookie that carries a just-created key from the POST to the page that shows it once
/// (post/redirect/get, so a reload neither re-creates nor re-shows the key).
const NEW_KEY_COOKIE: &str = "mc_new_key";

pub async fn keys(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<NoticeQuery>,
    headers: HeaderMap,
) -> PageResult {
    let id = agent.id;
    let flashed =
        crate::auth::cookie(&headers, NEW_KEY_COOKIE).filter(|t| keys::parse(t).is_some()).map(str::to_string);
    let Some(token) = flashed else {
        let said = Notice::message_of(&q.notice).map_or(Said::Nothing, Said::Notice);
        return keys_page(&state, web, agent, said, String::new(), &[]).await;
    };
    // Show it only if it really is a key of this agent.
    let key_id = keys::parse(&token).map(|(k, _)| k);
    let listed = keys::list(state.pool(), id, super::pages::LIST_SHOWN, None).await.map_err(internal)?;
    let show = listed.iter().any(|k| Some(k.id) == key_id).then_some(token).map_or(Said::Nothing, Said::NewKey);
    let mut resp = keys_page(&state, web, agent, show, String::new(), &[]).await?;
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(with_cookies(resp, [format!("{NEW_KEY_COOKIE}=; Path=/agents/{id}/keys; HttpOnly; SameSite=Strict; Max-Age=0")]))
}

pub async fn create_key(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let name = f.text("name");
    let requested = f.all("scopes");
    let (name_ok, scopes) = match keys::validate_request(&name, &requested, None) {
        Ok(v) => v,
        Err(e) => {
            let msg = message_of(&e).unwrap_or_default();
            return keys_page(&state, web, agent, Said::Error(msg), name, &requested).await;
        }
    };
    let mut tx = state.pool().begin().await.map_err(internal)?;
    let new = NewKey {
        tenant_id: web.owner.tenant_id,
        agent_id: id,
        name: &name_ok,
        scopes: &scopes,
        expires_at: None,
        created_by: format!("owner:{}", web.owner.owner_id),
        event: "key.issued",
        end_user: None,
        limits: keys::Limits::default(),
    };
    if let Err(e) = keys::check_room(&mut tx, id, state.config().caps.keys_per_agent).await {
        let msg = message_of(&e).unwrap_or_default();
        return keys_page(&state, web, agent, Said::Error(msg), name, &requested).await;
    }
    let (_, token) = keys::create(&mut tx, new, &web.owner.origin()).await.map_err(internal)?;
    tx.commit().await.map_err(internal)?;
    let secure = if state.config().secure_cookies { "; Secure" } else { "" };
    let flash = format!(
        "{NEW_KEY_COOKIE}={}; Path=/agents/{id}/keys; HttpOnly; SameSite=Strict; Max-Age=120{secure}",
        token.expose()
    );
    Ok(with_cookies(Redirect::to(&format!("/agents/{id}/keys")).into_response(), [flash]))
}

/// The key in `/agents/{id}/keys/{kid}/revoke` (the agent's `{id}` is `WebAgent`'s).
#[derive(Deserialize)]
pub struct KeyPath {
    kid: KeyId,
}

pub async fn revoke_key(
    State(state): State<AppState>,
    Path(KeyPath { kid }): Path<KeyPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let id = agent.id;
    let mut tx = state.pool().begin().await.map_err(internal)?;
    keys::revoke(&mut tx, web.owner.tenant_id, id, kid, &web.owner.origin())
        .await
        .map_err(internal)?
        .ok_or_else(not_found_page)?;
    tx.commit().await.map_err(internal)?;
    Ok(Redirect::to(&format!("/agents/{id}/keys?notice={}", Notice::KeyRevoked.code())).into_response())
}
