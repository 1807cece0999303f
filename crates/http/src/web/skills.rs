//! The Skills tab (S5): the owner's credits, the agent's installed skills (remove, rate), the
//! marketplace (install, with the reasons a skill cannot run here), and publishing a SKILL.md
//! as the agent's, with every problem of a malformed file listed by line.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use miniclaw_core::Error;
use serde::Deserialize;

use super::extract::{Posted, WebAgent, WebOwner};
use super::notice::{Notice, NoticeQuery};
use super::pages::{PageResult, after_action, back_to, internal, render, shown};
use crate::app::AppState;
use miniclaw_domain::onchain::credits::{self, Holder, Statement};
use miniclaw_domain::social::skills::installs::{self, Installed};
use miniclaw_domain::social::skills::market::{self, Listing};
use miniclaw_domain::tenancy::agents::Agent;

#[derive(Template)]
#[template(path = "web/skills.html")]
struct SkillsPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    credits: Statement,
    earned: i64,
    installed: Vec<Installed>,
    market: Vec<Listing>,
    /// The slugs of `installed`, to mark them in the marketplace.
    installed_slugs: Vec<String>,
    /// The SKILL.md and price of a publish that failed, to fix and send again.
    draft: String,
    price: String,
    /// A failed publish's problems, one line each.
    problems: Vec<String>,
    notice: Option<String>,
    error: Option<String>,
}

struct Problems {
    draft: String,
    price: String,
    lines: Vec<String>,
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    notice: Option<String>,
    error: Option<String>,
    p: Option<Problems>,
) -> PageResult {
    let mut conn = state.pool().acquire().await.map_err(internal)?;
    let credits =
        credits::statement(&mut conn, Holder::Tenant(web.owner.tenant_id), 10, None).await.map_err(internal)?;
    let earned = credits::statement(&mut conn, Holder::Agent(web.owner.tenant_id, agent.id), 1, None)
        .await
        .map_err(internal)?
        .balance;
    drop(conn);
    let installed = installs::installed(state.pool(), agent.id, None, 100, None).await.map_err(internal)?;
    let market = market::list(state.pool(), None, 50, None).await.map_err(internal)?;
    let p = p.unwrap_or(Problems { draft: String::new(), price: "0".into(), lines: Vec::new() });
    Ok(render(SkillsPage {
        csrf: web.csrf,
        agent,
        tab: "skills",
        credits,
        earned,
        installed_slugs: installed.iter().map(|i| i.slug.clone()).collect(),
        installed,
        market,
        draft: p.draft,
        price: p.price,
        problems: p.lines,
        notice,
        error,
    }))
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner, agent }: WebAgent,
    Query(q): Query<NoticeQuery>,
) -> PageResult {
    page(&state, owner, agent, Notice::message_of(&q.notice), None, None).await
}

fn back(agent: &Agent, notice: Notice) -> Response {
    back_to(agent, "skills", notice)
}

async fn after(state: &AppState, web: WebOwner, agent: Agent, r: Result<Notice, Error>) -> PageResult {
    after_action(agent, "skills", r, |agent, error| page(state, web, agent, None, Some(error), None)).await
}

pub async fn install(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let (tenant, origin) = (web.owner.tenant_id, web.owner.origin());
    let r = installs::install(state.pool(), tenant, agent.id, &origin, f.text("slug").trim(), true).await;
    after(&state, web, agent, r.map(|_| Notice::SkillInstalled)).await
}

pub async fn publish(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let (draft, price_text) = (f.text("skill_md"), f.text("price"));
    let Ok(price) = price_text.trim().parse::<i64>() else {
        let p = Problems {
            draft,
            price: price_text,
            lines: vec!["The price is a whole number of credits (0 = free).".into()],
        };
        return page(&state, web, agent, None, None, Some(p)).await;
    };
    let (tenant, origin) = (web.owner.tenant_id, web.owner.origin());
    match market::publish(state.pool(), tenant, agent.id, &origin, &draft, price).await {
        Ok(_) => Ok(back(&agent, Notice::SkillPublished)),
        Err(Error::Unprocessable { code: "invalid_skill", message, .. }) => {
            let lines = message.split("; ").map(str::to_string).collect();
            page(&state, web, agent, None, None, Some(Problems { draft, price: price_text, lines })).await
        }
        Err(e) => {
            let error = shown(e)?;
            page(&state, web, agent, None, Some(error), Some(Problems { draft, price: price_text, lines: Vec::new() }))
                .await
        }
    }
}

/// The skill in `/agents/{id}/skills/{slug}/…`.
#[derive(Deserialize)]
pub struct SkillPath {
    slug: String,
}

pub async fn remove(
    State(state): State<AppState>,
    Path(SkillPath { slug }): Path<SkillPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let r = installs::uninstall(state.pool(), web.owner.tenant_id, agent.id, &web.owner.origin(), &slug).await;
    after(&state, web, agent, r.map(|_| Notice::SkillRemoved)).await
}

pub async fn approve(
    State(state): State<AppState>,
    Path(SkillPath { slug }): Path<SkillPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let version = f.text("version");
    let r = installs::approve(state.pool(), web.owner.tenant_id, agent.id, &web.owner.origin(), &slug, &version).await;
    after(&state, web, agent, r.map(|_| Notice::SkillApproved)).await
}

pub async fn rate(
    State(state): State<AppState>,
    Path(SkillPath { slug }): Path<SkillPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let Ok(rating) = f.text("rating").trim().parse::<i16>() else {
        return page(&state, web, agent, None, Some("Choose a rating from 1 to 5.".into()), None).await;
    };
    let review = f.text("review");
    let (tenant, origin) = (web.owner.tenant_id, web.owner.origin());
    let r = market::review(state.pool(), tenant, agent.id, &origin, &slug, rating, Some(review.as_str())).await;
    after(&state, web, agent, r.map(|_| Notice::SkillRated)).await
}
