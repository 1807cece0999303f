//! The Notifications tab (SPEC O4, O6): the notification centre with the read state and how
//! each notification went out, the delivery mode and quiet hours in effect, and the agent's
//! Telegram bot (connect with a token, the link code for the owner's chat, disconnect).

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use miniclaw_core::Error;
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent, WebOwner};
use super::notice::{Notice, NoticeQuery};
use super::pages::{LIST_SHOWN, PageResult, api_error, internal, not_found_page, render, shown};
use crate::app::AppState;
use miniclaw_domain::channels::notifications::{self, Notification};
use miniclaw_domain::channels::telegram::{self, ConnectInput, TelegramStatus};
use miniclaw_domain::tenancy::agents::Agent;

/// One notification as the centre lists it.
pub struct Row {
    pub n: Notification,
    /// How each channel took it, e.g. "email queued · telegram sent".
    pub channels: String,
}

#[derive(Template)]
#[template(path = "web/notifications.html")]
struct NotificationsPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    rows: Vec<Row>,
    unread: i64,
    telegram: TelegramStatus,
    notice: Option<String>,
    error: Option<String>,
    /// Why Telegram could not deliver to this server, said before the owner pastes a token.
    telegram_unreachable: Option<String>,
}

/// "email queued · telegram skipped (no owner chat is linked)" from the stored channel map.
fn channels_text(channels: &serde_json::Value) -> String {
    let Some(map) = channels.as_object() else { return String::new() };
    map.iter()
        .map(|(channel, v)| {
            let status = v["status"].as_str().unwrap_or("?");
            match v["reason"].as_str() {
                Some(r) => format!("{channel} {status} ({r})"),
                None => format!("{channel} {status}"),
            }
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    notice: Option<String>,
    error: Option<String>,
) -> PageResult {
    let list = notifications::list(state.pool(), agent.id, false, LIST_SHOWN, None).await.map_err(internal)?;
    let rows = list.into_iter().map(|n| Row { channels: channels_text(&n.channels), n }).collect();
    let unread = notifications::unread(state.pool(), agent.id).await.map_err(internal)?;
    let telegram = telegram::status(state.deps(), agent.id).await.map_err(api_error)?;
    let deps = state.deps();
    // Telegram delivers a bot's updates only to an https address; a loopback Bot API (tests, a
    // self-hosted one) is the operator's own business.
    let telegram_unreachable = (deps.email.telegram_api_base.starts_with("https://api.telegram.org")
        && !deps.base_url.starts_with("https://"))
    .then(|| {
        format!(
            "Telegram delivers a bot's messages only to an https address, and this server's public address is {}: \
             the operator sets MINICLAW_PUBLIC_URL to the server's https address first.",
            deps.base_url
        )
    });
    Ok(render(NotificationsPage {
        csrf: web.csrf,
        tab: "notifications",
        rows,
        unread,
        telegram,
        notice,
        error,
        telegram_unreachable,
        agent,
    }))
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<NoticeQuery>,
) -> PageResult {
    page(&state, web, agent, Notice::message_of(&q.notice), None).await
}

fn back(agent: &Agent, notice: Notice) -> Response {
    Redirect::to(&format!("/agents/{}/notifications?notice={}", agent.id, notice.code())).into_response()
}

/// The notification in `/agents/{id}/notifications/{nid}/read`.
#[derive(Deserialize)]
pub struct NotificationPath {
    nid: Uuid,
}

pub async fn read(
    State(state): State<AppState>,
    Path(NotificationPath { nid }): Path<NotificationPath>,
    Posted { who: WebAgent { agent, .. }, .. }: Posted<WebAgent>,
) -> PageResult {
    match notifications::mark_read(state.pool(), agent.id, nid).await {
        Ok(_) => Ok(back(&agent, Notice::NotificationRead)),
        Err(Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => Err(api_error(e)),
    }
}

pub async fn read_all(
    State(state): State<AppState>,
    Posted { who: WebAgent { agent, .. }, .. }: Posted<WebAgent>,
) -> PageResult {
    let n = notifications::mark_all_read(state.pool(), agent.id).await.map_err(internal)?;
    Ok(back(&agent, Notice::AllRead(n.min(u32::MAX as u64) as u32)))
}

/// Connects the agent's bot with the token from @BotFather (checked with `getMe`, the webhook
/// registered with a secret). The token is never shown again.
pub async fn connect_telegram(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let origin = web.owner.origin();
    let input = ConnectInput { bot_token: f.text("bot_token") };
    match telegram::connect(state.deps(), web.owner.tenant_id, agent.id, &origin, input).await {
        Ok(_) => Ok(back(&agent, Notice::TelegramConnected)),
        Err(e) => page(&state, web, agent, None, Some(format!("Not connected: {}", shown(e)?))).await,
    }
}

pub async fn disconnect_telegram(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let origin = web.owner.origin();
    match telegram::disconnect(state.deps(), web.owner.tenant_id, agent.id, &origin).await {
        Ok(()) => Ok(back(&agent, Notice::TelegramDisconnected)),
        Err(Error::NotFound(_)) => Ok(back(&agent, Notice::TelegramDisconnected)),
        Err(e) => Err(api_error(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_read_as_a_line() {
        let v = serde_json::json!({ "email": { "status": "queued", "outbox_id": "x" },
            "telegram": { "status": "skipped", "reason": "no bot" } });
        assert_eq!(channels_text(&v), "email queued · telegram skipped (no bot)");
        assert_eq!(channels_text(&serde_json::json!({})), "");
        assert_eq!(channels_text(&serde_json::Value::Null), "");
    }
}
