//! Dashboard pages. Each handler: extract the owner (or redirect), call the same domain
//! function the API uses, render a template.

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde::Deserialize;
use uuid::Uuid;

use super::forms::{Form, PRE_SESSION_CSRF_COOKIE, WebOwner, new_pre_session_token, pre_session_csrf_ok, safe_next};
use crate::accounts::{check_password, create_owner};
use crate::activity::{self, ActivityEntry};
use crate::agents::{self, Agent, AgentInput, QuietHours};
use crate::app::AppState;
use crate::auth::keys::{self, ApiKey, NewKey};
use crate::auth::session::with_cookies;
use crate::auth::{scopes, session};
use crate::error::ApiError;

pub(super) type PageResult = Result<Response, Response>;

pub(super) fn render(t: impl Template) -> Response {
    match t.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => ApiError::Internal(e.into()).into_response(),
    }
}

pub(super) fn internal(e: impl Into<anyhow::Error>) -> Response {
    ApiError::Internal(e.into()).into_response()
}

pub(super) fn api_error(e: ApiError) -> Response {
    e.into_response()
}

pub(super) fn forbidden_csrf() -> Response {
    (StatusCode::FORBIDDEN, Html("<h1>Form expired</h1><p>Reload the page and try again.</p>".to_string()))
        .into_response()
}

/// The message of a validation error, for showing next to a form.
pub(super) fn message_of(e: &ApiError) -> Option<String> {
    match e {
        ApiError::BadRequest { message, .. }
        | ApiError::Unprocessable { message, .. }
        | ApiError::Conflict(message)
        | ApiError::Unauthorized(message) => Some(message.clone()),
        _ => None,
    }
}

pub async fn home(headers: HeaderMap) -> Redirect {
    if session::cookie(&headers, session::SESSION_COOKIE).is_some_and(|c| !c.is_empty()) {
        Redirect::to("/agents")
    } else {
        Redirect::to("/login")
    }
}

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

#[derive(Template)]
#[template(path = "web/login.html")]
struct LoginPage {
    csrf: String,
    next: String,
    email: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "web/signup.html")]
struct SignupPage {
    csrf: String,
    email: String,
    tenant_name: String,
    error: Option<String>,
}

fn pre_session_page(t: impl Template, csrf: &str) -> Response {
    with_cookies(render(t), [format!("{PRE_SESSION_CSRF_COOKIE}={csrf}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600")])
}

pub async fn login_page(Query(q): Query<NextQuery>) -> Response {
    let csrf = new_pre_session_token();
    pre_session_page(
        LoginPage { csrf: csrf.clone(), next: safe_next(q.next.as_deref()), email: String::new(), error: None },
        &csrf,
    )
}

pub async fn signup_page() -> Response {
    let csrf = new_pre_session_token();
    pre_session_page(
        SignupPage { csrf: csrf.clone(), email: String::new(), tenant_name: String::new(), error: None },
        &csrf,
    )
}

async fn signed_in(state: &AppState, owner_id: Uuid, tenant_id: Uuid, next: &str) -> PageResult {
    let (sid, refresh) = session::start(state.pool(), owner_id, tenant_id).await.map_err(internal)?;
    let token = state.session_keys().issue(owner_id, tenant_id, sid);
    Ok(with_cookies(
        Redirect::to(next).into_response(),
        session::login_cookies(&token, &refresh, state.config().secure_cookies),
    ))
}

pub async fn login_submit(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> PageResult {
    let form = Form::parse(&body);
    let csrf = new_pre_session_token();
    let next = safe_next(form.get("next"));
    if !pre_session_csrf_ok(&headers, &form) {
        return Err(forbidden_csrf());
    }
    let email = form.text("email");
    match check_password(state.pool(), &email, form.text("password")).await.map_err(api_error)? {
        Some((owner, tenant)) => signed_in(&state, owner.id, tenant.id, &next).await,
        None => Ok(pre_session_page(
            LoginPage { csrf: csrf.clone(), next, email, error: Some("Invalid email or password.".into()) },
            &csrf,
        )),
    }
}

pub async fn signup_submit(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> PageResult {
    let form = Form::parse(&body);
    if !pre_session_csrf_ok(&headers, &form) {
        return Err(forbidden_csrf());
    }
    let email = form.text("email");
    let tenant_name = form.text("tenant_name");
    let request_id = headers.get(crate::telemetry::REQUEST_ID).and_then(|v| v.to_str().ok());
    match create_owner(state.pool(), &email, form.text("password"), Some(tenant_name.clone()), request_id).await {
        Ok((owner, tenant)) => signed_in(&state, owner.id, tenant.id, "/agents").await,
        Err(e) => match message_of(&e) {
            Some(msg) => {
                let csrf = new_pre_session_token();
                Ok(pre_session_page(SignupPage { csrf: csrf.clone(), email, tenant_name, error: Some(msg) }, &csrf))
            }
            None => Err(api_error(e)),
        },
    }
}

/// Trades the refresh cookie for a new session and goes back where the owner was.
pub async fn refresh(State(state): State<AppState>, headers: HeaderMap, Query(q): Query<NextQuery>) -> PageResult {
    let next = safe_next(q.next.as_deref());
    let token = session::cookie(&headers, session::REFRESH_COOKIE).unwrap_or_default().to_string();
    match session::refresh(state.pool(), &token).await.map_err(internal)? {
        Some((owner_id, tenant_id, sid, new_refresh)) => {
            let jwt = state.session_keys().issue(owner_id, tenant_id, sid);
            Ok(with_cookies(
                Redirect::to(&next).into_response(),
                session::login_cookies(&jwt, &new_refresh, state.config().secure_cookies),
            ))
        }
        None => {
            let to =
                format!("/login?next={}", url::form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>());
            Ok(with_cookies(Redirect::to(&to).into_response(), session::logout_cookies()))
        }
    }
}

pub async fn logout(State(state): State<AppState>, web: WebOwner, body: Bytes) -> PageResult {
    if !web.csrf_ok(&state, &Form::parse(&body)) {
        return Err(forbidden_csrf());
    }
    session::revoke(state.pool(), web.owner.session_id).await.map_err(internal)?;
    Ok(with_cookies(Redirect::to("/login").into_response(), session::logout_cookies()))
}

#[derive(Template)]
#[template(path = "web/agents.html")]
struct AgentsPage {
    csrf: String,
    agents: Vec<Agent>,
}

pub async fn agents(State(state): State<AppState>, web: WebOwner) -> PageResult {
    let agents = agents::list(state.pool(), web.owner.tenant_id).await.map_err(internal)?;
    Ok(render(AgentsPage { csrf: web.csrf, agents }))
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
        }
    }

    /// The form as an API input: every field is set, blanks clear nullable settings.
    fn to_input(&self) -> Result<AgentInput, ApiError> {
        let budget = self
            .daily_token_budget
            .trim()
            .parse::<i32>()
            .map_err(|_| ApiError::validation("daily_token_budget", "daily token budget must be a whole number"))?;
        let confidence = self.outreach_auto_reply_confidence.trim().parse::<f32>().map_err(|_| {
            ApiError::validation(
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

pub async fn create_agent(State(state): State<AppState>, web: WebOwner, body: Bytes) -> PageResult {
    let f = Form::parse(&body);
    if !web.csrf_ok(&state, &f) {
        return Err(forbidden_csrf());
    }
    let form = AgentForm::from_form(&f);
    let result: Result<Agent, ApiError> = async {
        let input = form.to_input()?;
        let mut tx = state.pool().begin().await?;
        let agent = agents::create(&mut tx, state.registry(), web.owner.tenant_id, &web.owner.origin(), input).await?;
        tx.commit().await?;
        Ok(agent)
    }
    .await;
    match result {
        Ok(agent) => Ok(Redirect::to(&format!("/agents/{}", agent.id)).into_response()),
        Err(e) => match message_of(&e) {
            Some(msg) => Ok(render(NewAgentPage { csrf: web.csrf, form, error: Some(msg) })),
            None => Err(api_error(e)),
        },
    }
}

pub(super) async fn load_agent(state: &AppState, web: &WebOwner, id: Uuid) -> Result<Agent, Response> {
    agents::get(state.pool(), web.owner.tenant_id, id).await.map_err(internal)?.ok_or_else(not_found_page)
}

pub(super) fn not_found_page() -> Response {
    (StatusCode::NOT_FOUND, Html("<!doctype html><title>Not found</title><link rel=stylesheet href=/static/app.css><main class=page><h1>Not found</h1><p><a href=/agents>Back to your agents</a></p></main>".to_string())).into_response()
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
    gaps: Vec<crate::cognition::lint::KnowledgeGap>,
}

#[derive(Deserialize)]
pub struct SavedQuery {
    saved: Option<String>,
}

pub async fn agent_settings(
    State(state): State<AppState>,
    web: WebOwner,
    Path(id): Path<Uuid>,
    Query(q): Query<SavedQuery>,
) -> PageResult {
    let agent = load_agent(&state, &web, id).await?;
    let form = AgentForm::of(&agent);
    let gaps = crate::cognition::lint::gaps(state.pool(), id).await.map_err(internal)?;
    Ok(render(AgentSettingsPage {
        csrf: web.csrf,
        agent,
        form,
        error: None,
        saved: q.saved.is_some(),
        tab: "settings",
        gaps,
    }))
}

pub async fn update_agent(
    State(state): State<AppState>,
    web: WebOwner,
    Path(id): Path<Uuid>,
    body: Bytes,
) -> PageResult {
    let f = Form::parse(&body);
    if !web.csrf_ok(&state, &f) {
        return Err(forbidden_csrf());
    }
    let agent = load_agent(&state, &web, id).await?;
    let form = AgentForm::from_form(&f);
    let result: Result<(), ApiError> = async {
        let input = form.to_input()?;
        let mut tx = state.pool().begin().await?;
        agents::update(&mut tx, web.owner.tenant_id, id, &web.owner.origin(), input).await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    match result {
        Ok(()) => Ok(Redirect::to(&format!("/agents/{id}?saved=1")).into_response()),
        Err(e) => match message_of(&e) {
            Some(msg) => Ok(render(AgentSettingsPage {
                csrf: web.csrf,
                agent,
                form,
                error: Some(msg),
                saved: false,
                tab: "settings",
                gaps: crate::cognition::lint::gaps(state.pool(), id).await.map_err(internal)?,
            })),
            None => Err(api_error(e)),
        },
    }
}

pub async fn delete_agent(
    State(state): State<AppState>,
    web: WebOwner,
    Path(id): Path<Uuid>,
    body: Bytes,
) -> PageResult {
    if !web.csrf_ok(&state, &Form::parse(&body)) {
        return Err(forbidden_csrf());
    }
    let mut tx = state.pool().begin().await.map_err(internal)?;
    agents::delete(&mut tx, web.owner.tenant_id, id, &web.owner.origin())
        .await
        .map_err(internal)?
        .ok_or_else(not_found_page)?;
    tx.commit().await.map_err(internal)?;
    Ok(Redirect::to("/agents").into_response())
}

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
    public_url: String,
    tab: &'static str,
}

fn scope_options(checked: &[String]) -> Vec<ScopeOption> {
    scopes::ALL
        .iter()
        .map(|(name, description)| ScopeOption { name, description, checked: checked.iter().any(|c| c == name) })
        .collect()
}

async fn keys_page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    new_key: Option<String>,
    error: Option<String>,
    key_name: String,
    checked: &[String],
) -> PageResult {
    let keys = keys::list(state.pool(), agent.id).await.map_err(internal)?;
    Ok(render(KeysPage {
        csrf: web.csrf,
        agent,
        keys,
        scope_options: scope_options(checked),
        key_name,
        new_key,
        error,
        public_url: state.public_url(),
        tab: "keys",
    }))
}

/// The cookie that carries a just-created key from the POST to the page that shows it once
/// (post/redirect/get, so a reload neither re-creates nor re-shows the key).
const NEW_KEY_COOKIE: &str = "mc_new_key";

pub async fn keys(
    State(state): State<AppState>,
    web: WebOwner,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> PageResult {
    let agent = load_agent(&state, &web, id).await?;
    let flashed = session::cookie(&headers, NEW_KEY_COOKIE).filter(|t| keys::parse(t).is_some()).map(str::to_string);
    let Some(token) = flashed else {
        return keys_page(&state, web, agent, None, None, String::new(), &[]).await;
    };
    // Show it only if it really is a key of this agent.
    let key_id = keys::parse(&token).map(|(k, _)| k);
    let listed = keys::list(state.pool(), id).await.map_err(internal)?;
    let show = listed.iter().any(|k| Some(k.id) == key_id).then_some(token);
    let mut resp = keys_page(&state, web, agent, show, None, String::new(), &[]).await?;
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(with_cookies(resp, [format!("{NEW_KEY_COOKIE}=; Path=/agents/{id}/keys; HttpOnly; SameSite=Strict; Max-Age=0")]))
}

pub async fn create_key(State(state): State<AppState>, web: WebOwner, Path(id): Path<Uuid>, body: Bytes) -> PageResult {
    let f = Form::parse(&body);
    if !web.csrf_ok(&state, &f) {
        return Err(forbidden_csrf());
    }
    let agent = load_agent(&state, &web, id).await?;
    let name = f.text("name");
    let requested = f.all("scopes");
    let (name_ok, scopes) = match keys::validate_request(&name, &requested, None) {
        Ok(v) => v,
        Err(e) => {
            let msg = message_of(&e).unwrap_or_default();
            return keys_page(&state, web, agent, None, Some(msg), name, &requested).await;
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
    };
    let (_, token) = keys::create(&mut tx, new, &web.owner.origin()).await.map_err(internal)?;
    tx.commit().await.map_err(internal)?;
    let secure = if state.config().secure_cookies { "; Secure" } else { "" };
    let flash = format!(
        "{NEW_KEY_COOKIE}={}; Path=/agents/{id}/keys; HttpOnly; SameSite=Strict; Max-Age=120{secure}",
        token.expose()
    );
    Ok(with_cookies(Redirect::to(&format!("/agents/{id}/keys")).into_response(), [flash]))
}

pub async fn revoke_key(
    State(state): State<AppState>,
    web: WebOwner,
    Path((id, kid)): Path<(Uuid, Uuid)>,
    body: Bytes,
) -> PageResult {
    if !web.csrf_ok(&state, &Form::parse(&body)) {
        return Err(forbidden_csrf());
    }
    load_agent(&state, &web, id).await?;
    let mut tx = state.pool().begin().await.map_err(internal)?;
    keys::revoke(&mut tx, web.owner.tenant_id, id, kid, &web.owner.origin())
        .await
        .map_err(internal)?
        .ok_or_else(not_found_page)?;
    tx.commit().await.map_err(internal)?;
    Ok(Redirect::to(&format!("/agents/{id}/keys")).into_response())
}

#[derive(Template)]
#[template(path = "web/activity.html")]
struct ActivityPage {
    csrf: String,
    agent: Agent,
    entries: Vec<ActivityEntry>,
    tab: &'static str,
}

pub async fn activity(State(state): State<AppState>, web: WebOwner, Path(id): Path<Uuid>) -> PageResult {
    let agent = load_agent(&state, &web, id).await?;
    let entries = activity::list_agent(state.pool(), id, 200, None).await.map_err(internal)?;
    Ok(render(ActivityPage { csrf: web.csrf, agent, entries, tab: "activity" }))
}
