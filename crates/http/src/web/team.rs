//! The team and the member's own account in the dashboard (SPEC H3, H4): members with their
//! roles, invitations, joining by a mailed link, leaving; changing one's password and address.
//! What each role may post is checked at the door (`roles`), and again by the team's rules.

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use miniclaw_core::Error;
use miniclaw_core::ids::UserId;
use uuid::Uuid;

use super::auth::{TokenQuery, pre_session_page, signed_in};
use super::extract::{Posted, WebOwner};
use super::forms::{Form, new_pre_session_token, pre_session_csrf_ok};
use super::pages::*;
use crate::app::AppState;
use crate::auth::{SignInDevice, with_cookies};
use miniclaw_domain::tenancy::auth::session;
use miniclaw_domain::tenancy::team::{self, Offer, Role, Team};
use miniclaw_domain::tenancy::{accounts, closing, passwords, totp};

#[derive(Template)]
#[template(path = "web/team.html")]
struct TeamPage {
    csrf: String,
    team: Team,
    mine: Role,
    roles: [Role; 4],
    /// The last owner cannot leave: no button for them.
    last_owner: bool,
    notice: Option<String>,
}

async fn team_page(state: &AppState, web: WebOwner, notice: Option<String>) -> PageResult {
    let (tenant, me) = (web.owner.tenant_id, web.owner.owner_id);
    let team = team::team(state.pool(), tenant, me).await.map_err(api_error)?;
    let mine = team.members.iter().find(|m| m.you).map(|m| m.role).unwrap_or(Role::Viewer);
    let last_owner = mine == Role::Owner && team.members.iter().filter(|m| m.role == Role::Owner).count() == 1;
    Ok(render(TeamPage { csrf: web.csrf, team, mine, roles: Role::ALL, last_owner, notice }))
}

pub async fn show(State(state): State<AppState>, web: WebOwner) -> PageResult {
    team_page(&state, web, None).await
}

/// The message of a refusal the member can act on (a wrong password, the last owner), shown
/// next to the form; anything else is the error's own page.
#[expect(clippy::result_large_err, reason = "a handler's `PageResult` carries the same response")]
fn said(e: Error) -> Result<String, Response> {
    match e {
        Error::Refused { message, .. } => Ok(message),
        e => shown(e),
    }
}

#[expect(clippy::result_large_err, reason = "a handler's `PageResult` carries the same response")]
fn role_field(form: &Form) -> Result<Role, Response> {
    Role::parse(&form.text("role")).ok_or_else(|| api_error(Error::validation("role", "pick a role")))
}

pub async fn invite(State(state): State<AppState>, Posted { who: web, form }: Posted<WebOwner>) -> PageResult {
    let role = role_field(&form)?;
    let (o, email) = (&web.owner, form.text("email"));
    let notice = match team::invite(state.deps(), o.owner_id, o.tenant_id, &o.origin(), &email, role).await {
        Ok(i) => format!("An invitation is on its way to {} (as {}). It works once, for a week.", i.email, i.role),
        Err(e) => said(e)?,
    };
    team_page(&state, web, Some(notice)).await
}

pub async fn withdraw(
    State(state): State<AppState>,
    Path(id): Path<Uuid>,
    Posted { who: web, .. }: Posted<WebOwner>,
) -> PageResult {
    let o = &web.owner;
    let notice = match team::withdraw(state.pool(), o.owner_id, o.tenant_id, &o.origin(), id).await {
        Ok(()) => "The invitation is withdrawn: its link no longer works.".to_string(),
        Err(e) => said(e)?,
    };
    team_page(&state, web, Some(notice)).await
}

pub async fn set_role(
    State(state): State<AppState>,
    Path(member): Path<UserId>,
    Posted { who: web, form }: Posted<WebOwner>,
) -> PageResult {
    let role = role_field(&form)?;
    let o = &web.owner;
    let notice = match team::set_role(state.pool(), o.owner_id, o.tenant_id, &o.origin(), member, role).await {
        Ok(m) => format!("{} is now {}.", m.email.or(m.evm_address).unwrap_or_default(), m.role),
        Err(e) => said(e)?,
    };
    team_page(&state, web, Some(notice)).await
}

pub async fn remove(
    State(state): State<AppState>,
    Path(member): Path<UserId>,
    Posted { who: web, .. }: Posted<WebOwner>,
) -> PageResult {
    let o = &web.owner;
    if member == o.owner_id {
        return leave_now(&state, web).await;
    }
    let notice = match team::remove(state.pool(), o.owner_id, o.tenant_id, &o.origin(), member).await {
        Ok(()) => "The member is out of the team; their sessions ended.".to_string(),
        Err(e) => said(e)?,
    };
    team_page(&state, web, Some(notice)).await
}

pub async fn leave(State(state): State<AppState>, Posted { who: web, .. }: Posted<WebOwner>) -> PageResult {
    leave_now(&state, web).await
}

async fn leave_now(state: &AppState, web: WebOwner) -> PageResult {
    let o = &web.owner;
    match team::remove(state.pool(), o.owner_id, o.tenant_id, &o.origin(), o.owner_id).await {
        Ok(()) => Ok(with_cookies(
            Redirect::to("/login").into_response(),
            session::logout_cookies(state.config().secure_cookies),
        )),
        Err(e) => {
            let notice = said(e)?;
            team_page(state, web, Some(notice)).await
        }
    }
}

#[derive(Template)]
#[template(path = "web/join.html")]
struct JoinPage {
    csrf: String,
    token: String,
    offer: Option<Offer>,
    error: Option<String>,
}

/// The page an invitation link opens: what it offers, and the password to join with.
pub async fn join_page(State(state): State<AppState>, Query(q): Query<TokenQuery>) -> PageResult {
    let csrf = new_pre_session_token();
    let (offer, error) = match team::offer(state.pool(), &q.token).await {
        Ok(o) => (Some(o), None),
        Err(e) => (None, Some(shown(e)?)),
    };
    Ok(pre_session_page(&state, JoinPage { csrf: csrf.clone(), token: q.token, offer, error }, &csrf))
}

pub async fn join_submit(
    State(state): State<AppState>,
    headers: HeaderMap,
    SignInDevice(device): SignInDevice,
    body: Bytes,
) -> PageResult {
    let form = Form::parse(&body);
    if !pre_session_csrf_ok(&headers, &form) {
        return Err(forbidden_csrf());
    }
    let token = form.text("token");
    match team::join(state.pool(), &token, form.text("password"), device.request_id.as_deref()).await {
        Ok((member, tenant)) => signed_in(&state, member.id, tenant.id, "/agents", "invitation", &device).await,
        Err(e) => {
            let error = Some(shown(e)?);
            let offer = team::offer(state.pool(), &token).await.ok();
            let csrf = new_pre_session_token();
            Ok(pre_session_page(&state, JoinPage { csrf: csrf.clone(), token, offer, error }, &csrf))
        }
    }
}

#[derive(Template)]
#[template(path = "web/account.html")]
struct AccountPage {
    csrf: String,
    account: accounts::Account,
    role: Role,
    second_factor: totp::Status,
    /// A secret being set up, shown once.
    setup: Option<totp::Setup>,
    /// Recovery codes just made, shown once.
    recovery_codes: Vec<String>,
    /// Set while the account is closing.
    closing: Option<closing::Closing>,
    notice: Option<String>,
}

/// What the account page shows besides the account.
#[derive(Default)]
struct Shown {
    notice: Option<String>,
    setup: Option<totp::Setup>,
    recovery_codes: Vec<String>,
}

impl Shown {
    fn notice(notice: String) -> Shown {
        Shown { notice: Some(notice), ..Shown::default() }
    }
}

async fn account_page(state: &AppState, web: WebOwner, shown: Shown) -> PageResult {
    let (me, tenant) = (web.owner.owner_id, web.owner.tenant_id);
    let account = accounts::me(state.pool(), me, tenant).await.map_err(internal)?;
    let role = team::role_of(state.pool(), me, tenant).await.map_err(api_error)?;
    let second_factor = totp::status(state.pool(), me).await.map_err(internal)?;
    let closing = closing::state(state.pool(), tenant, state.config().account_grace_days).await.map_err(internal)?;
    let Shown { notice, setup, recovery_codes } = shown;
    Ok(render(AccountPage { csrf: web.csrf, account, role, second_factor, setup, recovery_codes, closing, notice }))
}

pub async fn account(State(state): State<AppState>, web: WebOwner) -> PageResult {
    account_page(&state, web, Shown::default()).await
}

pub async fn second_factor_setup(
    State(state): State<AppState>,
    Posted { who: web, .. }: Posted<WebOwner>,
) -> PageResult {
    let shown = match totp::setup(state.deps(), web.owner.owner_id, web.owner.tenant_id).await {
        Ok(setup) => Shown { setup: Some(setup), ..Shown::default() },
        Err(e) => Shown::notice(said(e)?),
    };
    account_page(&state, web, shown).await
}

pub async fn second_factor_confirm(
    State(state): State<AppState>,
    Posted { who: web, form }: Posted<WebOwner>,
) -> PageResult {
    let o = &web.owner;
    let shown = match totp::enable(state.deps(), o.owner_id, o.tenant_id, &o.origin(), &form.text("code")).await {
        Ok(codes) => Shown {
            notice: Some("The second factor is on: signing in now asks for a code.".into()),
            recovery_codes: codes,
            ..Shown::default()
        },
        Err(e) => Shown::notice(said(e)?),
    };
    account_page(&state, web, shown).await
}

pub async fn second_factor_renew(
    State(state): State<AppState>,
    Posted { who: web, form }: Posted<WebOwner>,
) -> PageResult {
    let o = &web.owner;
    let code = form.text("code");
    let shown = match totp::renew_recovery_codes(state.deps(), o.owner_id, o.tenant_id, &o.origin(), &code).await {
        Ok(codes) => Shown {
            notice: Some("New recovery codes; the old ones no longer work.".into()),
            recovery_codes: codes,
            ..Shown::default()
        },
        Err(e) => Shown::notice(said(e)?),
    };
    account_page(&state, web, shown).await
}

pub async fn second_factor_disable(
    State(state): State<AppState>,
    Posted { who: web, form }: Posted<WebOwner>,
) -> PageResult {
    let o = &web.owner;
    let notice = match totp::disable(state.deps(), o.owner_id, o.tenant_id, &o.origin(), &form.text("code")).await {
        Ok(()) => "The second factor is off.".to_string(),
        Err(e) => said(e)?,
    };
    account_page(&state, web, Shown::notice(notice)).await
}

pub async fn change_password(State(state): State<AppState>, Posted { who: web, form }: Posted<WebOwner>) -> PageResult {
    let o = &web.owner;
    let (current, new) = (form.text("current_password"), form.text("new_password"));
    let notice =
        match passwords::change(state.pool(), o.owner_id, o.tenant_id, o.session_id, &o.origin(), current, new).await {
            Ok(0) => "Your password is changed.".to_string(),
            Ok(n) => format!("Your password is changed; {n} other session(s) ended."),
            Err(e) => said(e)?,
        };
    account_page(&state, web, Shown::notice(notice)).await
}

pub async fn change_email(State(state): State<AppState>, Posted { who: web, form }: Posted<WebOwner>) -> PageResult {
    let o = &web.owner;
    let current = Some(form.text("current_password")).filter(|p| !p.is_empty());
    let new = form.text("new_email");
    let notice = match passwords::change_email(state.deps(), o.owner_id, o.tenant_id, &o.origin(), current, &new).await
    {
        Ok(to) => format!("A link is on its way to {to}: your address changes when it is followed."),
        Err(e) => said(e)?,
    };
    account_page(&state, web, Shown::notice(notice)).await
}

pub async fn close_account(State(state): State<AppState>, Posted { who: web, form }: Posted<WebOwner>) -> PageResult {
    let o = &web.owner;
    let password = Some(form.text("password"));
    let grace = state.config().account_grace_days;
    let notice = match closing::close(state.pool(), o.owner_id, o.tenant_id, o.session_id, &o.origin(), password, grace)
        .await
    {
        Ok(c) => format!(
            "The account is closing: it is purged with everything it holds after {}. Until then you can reopen it here.",
            c.purge_after.format("%Y-%m-%d %H:%M UTC")
        ),
        Err(e) => said(e)?,
    };
    account_page(&state, web, Shown::notice(notice)).await
}

pub async fn reopen_account(State(state): State<AppState>, Posted { who: web, .. }: Posted<WebOwner>) -> PageResult {
    let o = &web.owner;
    let notice = match closing::reopen(state.pool(), o.owner_id, o.tenant_id, &o.origin()).await {
        Ok(()) => "The account is open again.".to_string(),
        Err(e) => said(e)?,
    };
    account_page(&state, web, Shown::notice(notice)).await
}
