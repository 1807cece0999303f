//! The Economy tab (SPEC I5–I8): balances across the rails, tips (the owner's to the agent, and
//! the chat's waiting for confirmation), the token card, the agent's services, the orders board
//! with the steps this agent may take, stakes and signal pools, and the credit statement.

use askama::Template;
use axum::extract::{Path, Query, State};
use miniclaw_core::Error;
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent, WebOwner};
use super::forms::Form;
use super::notice::{Notice, NoticeQuery};
use super::pages::{PageResult, after_action, internal, render};
use crate::app::AppState;
use miniclaw_domain::onchain::credits::{self, Holder, Statement};
use miniclaw_domain::onchain::economy::orders::{self, Action, Order, OrderRail, OrderRequest, Role, Status, Step};
use miniclaw_domain::onchain::economy::services::{self, Service, ServiceInput};
use miniclaw_domain::onchain::economy::signals::{self, Pool};
use miniclaw_domain::onchain::economy::stakes::{self, Asset, Stake, StakeRequest, TargetKind};
use miniclaw_domain::onchain::economy::summary::{self, Economy, Settings};
use miniclaw_domain::onchain::economy::tips::{self, Payer, Rail, Tip, TipRequest};
use miniclaw_domain::onchain::economy::token::{self, Evaluation, TokenInput};
use miniclaw_domain::tenancy::agents::Agent;

/// An order on the board, with the steps this agent may take.
struct OrderView {
    o: Order,
    role: &'static str,
    actions: Vec<&'static str>,
}

#[derive(Template)]
#[template(path = "web/economy.html")]
struct EconomyPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    /// Whether the server has a chain (tokens, native tips and escrow need one).
    chain: bool,
    economy: Economy,
    owner_credits: i64,
    statement: Statement,
    tips: Vec<Tip>,
    token: Option<Evaluation>,
    services: Vec<Service>,
    orders: Vec<OrderView>,
    stakes: Vec<Stake>,
    pools: Vec<Pool>,
    /// Sent with each form: a resubmitted form is the same tip, order or stake.
    form_key: String,
    notice: Option<String>,
    error: Option<String>,
}

impl EconomyPage {
    fn eth(&self, wei: &str) -> String {
        super::wallet::eth(wei)
    }

    fn is_agent(&self, id: &Option<Uuid>) -> bool {
        *id == Some(self.agent.id.0)
    }

    fn has(&self, actions: &[&str], action: &str) -> bool {
        actions.contains(&action)
    }
}

fn action_name(a: Action) -> &'static str {
    match a {
        Action::Accept => "accept",
        Action::Decline => "decline",
        Action::Cancel => "cancel",
        Action::Deliver => "deliver",
        Action::Settle => "settle",
        Action::Dispute => "dispute",
        Action::Refund => "refund",
    }
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    notice: Option<String>,
    error: Option<String>,
) -> PageResult {
    let (pool, tenant) = (state.pool(), web.owner.tenant_id);
    let economy = summary::of(pool, state.deps().chain.as_deref(), tenant, agent.id).await.map_err(internal)?;
    let mut conn = pool.acquire().await.map_err(internal)?;
    let owner_credits = credits::statement(&mut conn, Holder::Tenant(tenant), 1, None).await.map_err(internal)?.balance;
    let statement = credits::statement(&mut conn, Holder::Agent(tenant, agent.id), 20, None).await.map_err(internal)?;
    drop(conn);
    let token = match token::get(pool, agent.id).await.map_err(internal)? {
        Some(_) => Some(token::evaluate(pool, state.deps().chain.as_deref(), agent.id).await.map_err(internal)?),
        None => None,
    };
    let now = chrono::Utc::now();
    let orders = orders::list(pool, agent.id, 50, None)
        .await
        .map_err(internal)?
        .into_iter()
        .map(|o| {
            let role = if o.buyer_agent_id == agent.id.0 { Role::Buyer } else { Role::Seller };
            let busy = matches!(o.escrow_state.as_deref(), Some("funding" | "releasing" | "refunding"));
            let actions = match Status::parse(&o.status) {
                Some(s) if !busy => orders::allowed(s, role, now > o.deliver_by).into_iter().map(action_name).collect(),
                _ => Vec::new(),
            };
            OrderView { o, role: if role == Role::Buyer { "buyer" } else { "seller" }, actions }
        })
        .collect();
    Ok(render(EconomyPage {
        csrf: web.csrf,
        tab: "economy",
        chain: state.deps().chain.is_some(),
        economy,
        owner_credits,
        statement,
        tips: tips::list(pool, agent.id, 20, None).await.map_err(internal)?,
        token,
        services: services::list(pool, agent.id, false, 100, None).await.map_err(internal)?,
        orders,
        stakes: stakes::list(pool, agent.id, Some(tenant), 20, None).await.map_err(internal)?,
        pools: signals::pools(pool, None, None, 50).await.map_err(internal)?.0,
        agent,
        form_key: Uuid::now_v7().to_string(),
        notice,
        error,
    }))
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner, agent }: WebAgent,
    Query(q): Query<NoticeQuery>,
) -> PageResult {
    page(&state, owner, agent, Notice::message_of(&q.notice), None).await
}

async fn after(state: &AppState, web: WebOwner, agent: Agent, r: Result<Notice, Error>) -> PageResult {
    after_action(agent, "economy", r, |agent, error| page(state, web, agent, None, Some(error))).await
}

fn number(f: &Form, field: &str) -> Result<i64, Error> {
    f.text(field).trim().parse().map_err(|_| Error::validation(field, format!("{field} is a whole number")))
}

/// A key for one submission of a form (the form carries it, so a resubmission is the same action).
fn key(f: &Form) -> String {
    let k = f.text("key");
    if k.trim().is_empty() { Uuid::now_v7().to_string() } else { k }
}

/// The owner tips the agent in credits.
pub async fn tip(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let req = TipRequest {
        from: Payer::Owner,
        to_agent_id: None,
        rail: Rail::Credits,
        amount: f.text("amount"),
        memo: Some(f.text("memo")),
        idempotency_key: key(&f),
    };
    let (tenant, origin) = (web.owner.tenant_id, web.owner.origin());
    let r = tips::give(state.deps(), tenant, agent.id, &origin, true, req, false).await;
    after(&state, web, agent, r.map(|_| Notice::TipGiven)).await
}

#[derive(Deserialize)]
pub struct ItemPath {
    item: Uuid,
}

pub async fn decide_tip(
    State(state): State<AppState>,
    Path(ItemPath { item }): Path<ItemPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let confirm = f.text("decision") == "confirm";
    let r = tips::decide(state.pool(), web.owner.tenant_id, agent.id, &web.owner.origin(), item, confirm).await;
    after(&state, web, agent, r.map(|_| if confirm { Notice::TipConfirmed } else { Notice::TipCancelled })).await
}

pub async fn settings(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let r = match number(&f, "auto_approve_credits") {
        Ok(n) => summary::set(
            state.pool(),
            web.owner.tenant_id,
            agent.id,
            &web.owner.origin(),
            Settings { auto_approve_credits: n },
        )
        .await
        .map(|_| Notice::EconomyDone),
        Err(e) => Err(e),
    };
    after(&state, web, agent, r).await
}

pub async fn save_service(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let r = async {
        let input = ServiceInput {
            title: f.text("title"),
            description: f.text("description"),
            price: number(&f, "price")?,
            price_wei: Some(f.text("price_wei")).filter(|w| !w.trim().is_empty()),
            active: Some(f.text("active") != "off"),
        };
        let slug = f.text("slug").trim().to_string();
        services::put(state.pool(), web.owner.tenant_id, agent.id, &web.owner.origin(), &slug, input).await
    }
    .await;
    after(&state, web, agent, r.map(|_| Notice::ServiceSaved)).await
}

pub async fn order(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let r = async {
        let seller = f
            .text("seller")
            .trim()
            .parse::<Uuid>()
            .map_err(|_| Error::validation("seller", "the seller is an agent id"))?;
        let req = OrderRequest {
            seller_agent_id: seller.into(),
            service: f.text("service"),
            request: f.text("request"),
            deliver_within_hours: None,
            rail: if f.text("rail") == "escrow" { OrderRail::Escrow } else { OrderRail::Credits },
            idempotency_key: key(&f),
        };
        orders::place(state.deps(), web.owner.tenant_id, agent.id, &web.owner.origin(), req).await
    }
    .await;
    after(&state, web, agent, r.map(|_| Notice::OrderPlaced)).await
}

pub async fn step(
    State(state): State<AppState>,
    Path(ItemPath { item }): Path<ItemPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let r = async {
        let action: Action = serde_json::from_value(serde_json::Value::String(f.text("action")))
            .map_err(|_| Error::validation("action", "unknown step"))?;
        let text = |k: &str| Some(f.text(k)).filter(|t| !t.trim().is_empty());
        let rating = f.text("rating").trim().parse::<i16>().ok();
        let s = Step { action, delivery: text("delivery"), reason: text("reason"), rating };
        orders::step(state.deps(), Some(agent.id), &web.owner.origin(), item, s).await
    }
    .await;
    after(&state, web, agent, r.map(|_| Notice::OrderStepped)).await
}

pub async fn stake(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let r = async {
        let req = StakeRequest {
            from: Payer::Owner,
            target: TargetKind::Agent,
            agent_id: None,
            skill: None,
            topic: f.text("topic"),
            amount: number(&f, "amount")?,
            asset: Asset::Credits,
            idempotency_key: key(&f),
        };
        stakes::stake(state.deps(), web.owner.tenant_id, agent.id, &web.owner.origin(), true, req).await
    }
    .await;
    after(&state, web, agent, r.map(|_| Notice::Staked)).await
}

pub async fn withdraw(
    State(state): State<AppState>,
    Path(ItemPath { item }): Path<ItemPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let r = stakes::withdraw(state.deps(), web.owner.tenant_id, agent.id, &web.owner.origin(), true, item).await;
    after(&state, web, agent, r.map(|_| Notice::StakeWithdrawn)).await
}

pub async fn deploy_token(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let r = async {
        let decimals = f
            .text("decimals")
            .trim()
            .parse::<u8>()
            .map_err(|_| Error::validation("decimals", "decimals is 0 to 18"))?;
        let input = TokenInput {
            name: f.text("name"),
            symbol: f.text("symbol"),
            decimals: Some(decimals),
            supply: f.text("supply"),
        };
        token::deploy(state.deps(), web.owner.tenant_id, agent.id, &web.owner.origin(), input).await
    }
    .await;
    after(&state, web, agent, r.map(|_| Notice::TokenRequested)).await
}
