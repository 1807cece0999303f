//! An agent's webhooks: the endpoints that receive its events (its own and the account's),
//! each with its last deliveries; register one, send a test, replay a delivery, rotate the
//! secret (shown once), turn it off and on, remove it.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent, WebOwner};
use super::pages::*;
use crate::app::AppState;
use miniclaw_domain::channels::webhooks::{self, Delivery, Endpoint, EndpointInput, EndpointPatch, Manager};
use miniclaw_domain::tenancy::agents::Agent;

/// Deliveries shown per endpoint.
const DELIVERIES_SHOWN: i64 = 10;

#[derive(Template)]
#[template(path = "web/webhooks.html")]
struct WebhooksPage {
    csrf: String,
    agent: Agent,
    /// Each endpoint with its last deliveries, each with its last answer in words.
    endpoints: Vec<(Endpoint, Vec<(Delivery, String)>)>,
    events: &'static [(&'static str, &'static str)],
    /// A secret just made (on creation or rotation): shown this once.
    revealed: Option<(Uuid, String)>,
    error: Option<String>,
    url: String,
    tab: &'static str,
}

/// The last attempt's answer: `HTTP 500`, the error, or nothing yet.
fn last_answer(d: &Delivery) -> String {
    let Some(last) = d.log.as_array().and_then(|l| l.last()) else { return String::new() };
    let status = last.get("status").and_then(|s| s.as_u64()).map(|s| format!("HTTP {s}"));
    let error = last.get("error").and_then(|e| e.as_str()).map(str::to_string);
    [status, error].into_iter().flatten().collect::<Vec<_>>().join(" · ")
}

fn manager(web: &WebOwner) -> Manager {
    Manager { tenant_id: web.owner.tenant_id, key_agent: None, origin: web.owner.origin() }
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    revealed: Option<(Uuid, String)>,
    error: Option<String>,
    url: String,
) -> PageResult {
    let who = manager(&web);
    let mut endpoints = Vec::new();
    for e in webhooks::for_agent(state.pool(), web.owner.tenant_id, agent.id).await.map_err(api_error)? {
        let shown = webhooks::deliveries(state.pool(), &who, e.id, DELIVERIES_SHOWN, None).await.map_err(api_error)?;
        endpoints.push((
            e,
            shown
                .into_iter()
                .map(|d| {
                    let a = last_answer(&d);
                    (d, a)
                })
                .collect(),
        ));
    }
    Ok(render(WebhooksPage {
        csrf: web.csrf,
        agent,
        endpoints,
        events: webhooks::EVENTS,
        revealed,
        error,
        url,
        tab: "webhooks",
    }))
}

pub async fn show(State(state): State<AppState>, WebAgent { owner: web, agent }: WebAgent) -> PageResult {
    page(&state, web, agent, None, None, String::new()).await
}

fn back(agent: &Agent) -> axum::response::Response {
    Redirect::to(&format!("/agents/{}/webhooks", agent.id)).into_response()
}

pub async fn create(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let input = EndpointInput {
        url: f.text("url"),
        events: f.all("events"),
        agent_id: (f.text("scope") != "account").then_some(agent.id.0),
        description: Some(f.text("description")),
    };
    let url = input.url.clone();
    match webhooks::create(state.deps(), &manager(&web), input).await {
        Ok(made) => page(&state, web, agent, Some((made.endpoint.id, made.secret)), None, String::new()).await,
        Err(e) => page(&state, web, agent, None, Some(shown(e)?), url).await,
    }
}

/// An endpoint in `/agents/{id}/webhooks/{endpoint}/…` (the agent's `{id}` is `WebAgent`'s).
#[derive(Deserialize)]
pub struct EndpointPath {
    endpoint: Uuid,
}

/// `action`: `test`, `rotate`, `enable`, `disable` or `remove`.
pub async fn act(
    State(state): State<AppState>,
    Path(EndpointPath { endpoint }): Path<EndpointPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let who = manager(&web);
    let done = match f.text("action").as_str() {
        "test" => webhooks::test(state.pool(), &who, endpoint).await.map(|_| None),
        "rotate" => webhooks::rotate(state.deps(), &who, endpoint).await.map(|r| Some((endpoint, r.secret))),
        "enable" | "disable" => {
            let patch = EndpointPatch { enabled: Some(f.text("action") == "enable"), ..Default::default() };
            webhooks::update(state.deps(), &who, endpoint, patch).await.map(|_| None)
        }
        "remove" => webhooks::remove(state.pool(), &who, endpoint).await.map(|()| None),
        _ => return Err(not_found_page()),
    };
    match done {
        Ok(None) => Ok(back(&agent)),
        Ok(revealed) => page(&state, web, agent, revealed, None, String::new()).await,
        Err(miniclaw_core::Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => page(&state, web, agent, None, Some(shown(e)?), String::new()).await,
    }
}

/// A delivery in `/agents/{id}/webhooks/{endpoint}/deliveries/{delivery}`.
#[derive(Deserialize)]
pub struct DeliveryPath {
    endpoint: Uuid,
    delivery: Uuid,
}

pub async fn replay(
    State(state): State<AppState>,
    Path(DeliveryPath { endpoint, delivery }): Path<DeliveryPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    match webhooks::replay(state.pool(), &manager(&web), endpoint, delivery).await {
        Ok(_) => Ok(back(&agent)),
        Err(miniclaw_core::Error::NotFound(_)) => Err(not_found_page()),
        Err(e) => page(&state, web, agent, None, Some(shown(e)?), String::new()).await,
    }
}
