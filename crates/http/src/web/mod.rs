//! The owner dashboard (SPEC D7): server-rendered askama pages over the same domain functions
//! as the API. Forms post back to the dashboard; every state-changing post carries a CSRF
//! token bound to the session (or, before sign-in, a double-submit cookie).

mod account_keys;
mod activity;
mod agents;
mod analytics;
mod auth;
mod brain;
mod bundle;
mod charts;
mod chat;
mod economy;
mod extract;
mod feed;
mod forms;
mod identity;
mod keys;
mod memories;
mod mind;
mod nav;
mod notice;
mod notifications;
mod outreach;
mod overview;
pub(crate) mod pages;
mod poc;
mod proactive;
mod readable;
mod skills;
mod soul;
mod spawn;
mod team;
mod timeline;
mod tools;
mod wallet;
mod webhooks;

use axum::Router;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::app::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(auth::home))
        .route("/login", get(auth::login_page).post(auth::login_submit))
        .route("/login/second-factor", post(auth::second_factor_submit))
        .route("/signup", get(auth::signup_page).post(auth::signup_submit))
        .route("/verify-email", get(auth::verify_email_page).post(auth::verify_email_submit))
        .route("/forgot-password", get(auth::reset_password_page).post(auth::forgot_password_submit))
        .route("/reset-password", get(auth::reset_password_page).post(auth::reset_password_submit))
        .route("/verify-email/send", post(agents::send_verification))
        .route("/refresh", get(auth::refresh_page).post(auth::refresh))
        .route("/logout", post(auth::logout))
        .route("/join", get(team::join_page).post(team::join_submit))
        .route("/account", get(team::account))
        .route("/account/password", post(team::change_password))
        .route("/account/email", post(team::change_email))
        .route("/account/second-factor", post(team::second_factor_setup))
        .route("/account/second-factor/confirm", post(team::second_factor_confirm))
        .route("/account/second-factor/recovery-codes", post(team::second_factor_renew))
        .route("/account/second-factor/disable", post(team::second_factor_disable))
        .route("/account/close", post(team::close_account))
        .route("/account/reopen", post(team::reopen_account))
        .route("/team", get(team::show))
        .route("/keys", get(account_keys::show).post(account_keys::issue))
        .route("/keys/{account_key}/revoke", post(account_keys::revoke))
        .route("/team/invitations", post(team::invite))
        .route("/team/invitations/{invitation}/withdraw", post(team::withdraw))
        .route("/team/members/{member}/role", post(team::set_role))
        .route("/team/members/{member}/remove", post(team::remove))
        .route("/team/leave", post(team::leave))
        .route("/agents", get(agents::agents).post(agents::create_agent))
        .route("/agents/new", get(agents::new_agent))
        .route("/agents/import", get(bundle::show).post(bundle::upload))
        .route("/agents/spawn", get(spawn::start).post(spawn::create_draft))
        .route("/agents/spawn/{draft}", get(spawn::show_draft))
        .route("/agents/spawn/{draft}/confirm", post(spawn::confirm))
        .route("/agents/{id}", get(overview::show).post(agents::update_agent))
        .route("/agents/{id}/settings", get(agents::agent_settings).post(agents::update_agent))
        .route("/agents/{id}/delete", post(agents::delete_agent))
        .route("/agents/{id}/export", get(bundle::export))
        .route("/agents/{id}/keys", get(keys::keys).post(keys::create_key))
        .route("/agents/{id}/keys/{kid}/revoke", post(keys::revoke_key))
        .route("/agents/{id}/tools", get(tools::tools).post(tools::attach))
        .route("/agents/{id}/tools/{server}/remove", post(tools::detach))
        .route("/agents/{id}/tools/{server}/refresh", post(tools::refresh))
        .route("/agents/{id}/tools/calls/{call}", post(tools::decide))
        .route("/agents/{id}/webhooks", get(webhooks::show).post(webhooks::create))
        .route("/agents/{id}/webhooks/{endpoint}", post(webhooks::act))
        .route("/agents/{id}/webhooks/{endpoint}/deliveries/{delivery}", post(webhooks::replay))
        .route("/agents/{id}/activity", get(activity::activity))
        .route("/agents/{id}/chat", get(chat::show).post(chat::send))
        .route("/agents/{id}/soul", get(soul::show).post(soul::save))
        .route("/agents/{id}/mind", get(mind::show))
        .route("/agents/{id}/ledger", get(mind::ledger))
        .route("/agents/{id}/poc", get(poc::show))
        .route("/agents/{id}/analytics", get(analytics::agent))
        .route("/agents/{id}/brain", get(brain::show))
        .route("/agents/{id}/timeline", get(timeline::show))
        .route("/analytics", get(analytics::tenant))
        .route("/agents/{id}/identity", get(identity::show).post(identity::save_profile))
        .route("/agents/{id}/identity/register", post(identity::register))
        .route("/agents/{id}/identity/domain", post(identity::prove_domain))
        .route("/agents/{id}/wallet", get(wallet::show))
        .route("/agents/{id}/wallet/create", post(wallet::create))
        .route("/agents/{id}/wallet/limits", post(wallet::limits))
        .route("/agents/{id}/wallet/send", post(wallet::send_value))
        .route("/agents/{id}/wallet/transactions/{tid}", post(wallet::decide))
        .route("/agents/{id}/wallet/external", post(wallet::add_external))
        .route("/agents/{id}/wallet/external/{eid}/remove", post(wallet::remove_external))
        .route("/agents/{id}/outreach", get(outreach::show).post(outreach::propose))
        .route("/agents/{id}/outreach/sender", post(outreach::save_sender))
        .route("/agents/{id}/outreach/{oid}", get(outreach::thread).post(outreach::edit))
        .route("/agents/{id}/outreach/{oid}/approve", post(outreach::approve))
        .route("/agents/{id}/outreach/{oid}/reject", post(outreach::reject))
        .route("/agents/{id}/outreach/{oid}/reply", post(outreach::reply))
        .route("/agents/{id}/outreach/{oid}/close", post(outreach::close))
        .route("/agents/{id}/proactive", get(proactive::show).post(proactive::save))
        .route("/agents/{id}/feed", get(feed::show))
        .route("/agents/{id}/feed/posts", post(feed::create))
        .route("/agents/{id}/feed/digest", post(feed::digest))
        .route("/agents/{id}/feed/{post}/like", post(feed::like))
        .route("/agents/{id}/feed/{post}/comments", post(feed::comment))
        .route("/agents/{id}/feed/{post}/moderate", post(feed::moderate))
        .route("/agents/{id}/feed/{post}/comments/{comment}/delete", post(feed::delete_comment))
        .route("/agents/{id}/economy", get(economy::show))
        .route("/agents/{id}/economy/tip", post(economy::tip))
        .route("/agents/{id}/economy/tips/{item}", post(economy::decide_tip))
        .route("/agents/{id}/economy/settings", post(economy::settings))
        .route("/agents/{id}/economy/services", post(economy::save_service))
        .route("/agents/{id}/economy/orders", post(economy::order))
        .route("/agents/{id}/economy/orders/{item}", post(economy::step))
        .route("/agents/{id}/economy/stakes", post(economy::stake))
        .route("/agents/{id}/economy/stakes/{item}/withdraw", post(economy::withdraw))
        .route("/agents/{id}/economy/token", post(economy::deploy_token))
        .route("/agents/{id}/skills", get(skills::show))
        .route("/agents/{id}/skills/install", post(skills::install))
        .route("/agents/{id}/skills/publish", post(skills::publish))
        .route("/agents/{id}/skills/{slug}/remove", post(skills::remove))
        .route("/agents/{id}/skills/{slug}/approve", post(skills::approve))
        .route("/agents/{id}/skills/{slug}/rate", post(skills::rate))
        .route("/agents/{id}/proactive/{pid}/accept", post(proactive::accept))
        .route("/agents/{id}/proactive/{pid}/dismiss", post(proactive::dismiss))
        .route("/agents/{id}/notifications", get(notifications::show))
        .route("/agents/{id}/notifications/read-all", post(notifications::read_all))
        .route("/agents/{id}/notifications/{nid}/read", post(notifications::read))
        .route("/agents/{id}/telegram", post(notifications::connect_telegram))
        .route("/agents/{id}/telegram/disconnect", post(notifications::disconnect_telegram))
        .route("/agents/{id}/mind/compile", post(mind::compile))
        .route("/agents/{id}/tasks", post(mind::add_task))
        .route("/agents/{id}/tasks/{task}/move", post(mind::move_task))
        .route("/agents/{id}/mind/reflect", post(mind::reflect))
        .route("/agents/{id}/mind/gaps/{gid}", post(mind::gap))
        .route("/agents/{id}/chat/{cid}/regenerate/{mid}", post(chat::regenerate))
        .route("/agents/{id}/chat/{cid}/feedback/{mid}", post(chat::feedback))
        .route("/agents/{id}/memories", get(memories::memories).post(memories::create))
        .route("/agents/{id}/memories/{mid}", get(memories::show).post(memories::update))
        .route("/agents/{id}/memories/{mid}/pin", post(memories::pin))
        .route("/agents/{id}/memories/{mid}/restore", post(memories::restore))
        .route("/agents/{id}/memories/{mid}/delete", post(memories::delete))
        .route("/agents/{id}/knowledge", post(memories::knowledge_text))
        .route("/agents/{id}/knowledge/url", post(memories::knowledge_url))
        .route("/agents/{id}/memories/import", post(memories::import_transcript))
        .route("/static/app.css", get(stylesheet))
        .route("/static/app.js", get(script))
        .route("/static/icon.svg", get(icon))
        .route("/favicon.ico", get(icon))
        .layer(axum::middleware::map_response(pages::html_errors))
}

/// The dashboard's icon (browsers ask for `/favicon.ico` on every page).
async fn icon() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=86400")],
        include_str!("../../static/icon.svg"),
    )
}

/// A browser asking for a page that is not there (or not the signed-in owner's) gets the
/// dashboard's page with a way back; API clients get JSON.
pub fn not_found_for_browser(
    method: &axum::http::Method,
    headers: &axum::http::HeaderMap,
    path: &str,
) -> Option<Response> {
    let html = headers.get(header::ACCEPT).and_then(|a| a.to_str().ok()).is_some_and(|a| a.contains("text/html"));
    (method == axum::http::Method::GET && html && !is_api(path)).then(pages::not_found_page)
}

/// Whether `path` is the API's (JSON answers) rather than the dashboard's (pages).
pub fn is_api(path: &str) -> bool {
    ["/v1/", "/mcp", "/a2a", "/webhooks/", "/openapi.json"].iter().any(|p| path.starts_with(p))
}

async fn stylesheet() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=300")],
        include_str!("../../static/app.css"),
    )
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=300")],
        include_str!("../../static/app.js"),
    )
}
