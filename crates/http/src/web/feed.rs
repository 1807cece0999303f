//! The Feed tab (S1): what the agent's tenant posted and every public post, with likes and
//! comments by the owner in person; posting in the agent's name, the feed digest on demand, and
//! the owner's moderation of the agent's own posts.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use miniclaw_core::Error;
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent, WebOwner};
use super::notice::{Notice, NoticeQuery};
use super::pages::{PageResult, after_action, back_to, internal, render, shown};
use crate::app::AppState;
use miniclaw_domain::social::feed::{self, Actor, Comment, NewPost, Post, Viewer};
use miniclaw_domain::tenancy::agents::Agent;

/// Posts the page shows, and comments under each.
const POSTS: i64 = 30;
const COMMENTS: i64 = 5;

struct Shown {
    post: Post,
    comments: Vec<Comment>,
}

#[derive(Template)]
#[template(path = "web/feed.html")]
struct FeedPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    posts: Vec<Shown>,
    notice: Option<String>,
    error: Option<String>,
}

fn viewer(web: &WebOwner, agent: &Agent) -> Viewer {
    Viewer { tenant: web.owner.tenant_id, agent: agent.id, actor: Actor::Owner(web.owner.owner_id) }
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    notice: Option<String>,
    error: Option<String>,
) -> PageResult {
    let v = viewer(&web, &agent);
    let mut posts = Vec::new();
    for post in feed::list(state.pool(), &v, false, POSTS, None).await.map_err(internal)? {
        let comments = feed::comments(state.pool(), &v, post.id, COMMENTS, None).await.map_err(internal)?;
        posts.push(Shown { post, comments });
    }
    Ok(render(FeedPage { csrf: web.csrf, agent, tab: "feed", posts, notice, error }))
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner, agent }: WebAgent,
    Query(q): Query<NoticeQuery>,
) -> PageResult {
    page(&state, owner, agent, Notice::message_of(&q.notice), None).await
}

fn back(agent: &Agent, notice: Notice) -> Response {
    back_to(agent, "feed", notice)
}

/// A result of a feed action: back to the tab with the notice, the page with the error, or
/// the not-found page for a post the viewer cannot see.
async fn after(state: &AppState, web: WebOwner, agent: Agent, r: Result<Notice, Error>) -> PageResult {
    after_action(agent, "feed", r, |agent, error| page(state, web, agent, None, Some(error))).await
}

pub async fn create(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let visibility = if f.text("visibility") == "public" { "public" } else { "tenant" };
    let new =
        NewPost { body: f.text("body"), source: "owner", visibility: visibility.into(), wisdom: None, embedding: None };
    let v = Viewer { actor: Actor::Agent(agent.id), ..viewer(&web, &agent) };
    let r = feed::create(state.pool(), &v, &web.owner.origin(), new).await;
    after(&state, web, agent, r.map(|_| Notice::FeedPosted)).await
}

pub async fn digest(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let tenant = web.owner.tenant_id;
    match feed::digest::run(state.deps(), tenant, agent.id, &web.owner.origin()).await {
        Ok(out) if out.post.is_some() => Ok(back(&agent, Notice::DigestPosted)),
        Ok(out) => {
            let why = out.skipped.unwrap_or_default();
            page(&state, web, agent, None, Some(format!("No post this time: {why}."))).await
        }
        Err(e) => page(&state, web, agent, None, Some(shown(e)?)).await,
    }
}

/// The post in `/agents/{id}/feed/{post}/…`.
#[derive(Deserialize)]
pub struct PostPath {
    post: Uuid,
}

pub async fn like(
    State(state): State<AppState>,
    Path(PostPath { post }): Path<PostPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let on = f.text("like") != "0";
    let r = feed::like(state.pool(), &viewer(&web, &agent), post, on).await;
    after(&state, web, agent, r.map(|_| if on { Notice::Liked } else { Notice::Unliked })).await
}

pub async fn comment(
    State(state): State<AppState>,
    Path(PostPath { post }): Path<PostPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let r = feed::comment(state.pool(), &viewer(&web, &agent), &web.owner.origin(), post, &f.text("body")).await;
    after(&state, web, agent, r.map(|_| Notice::Commented)).await
}

pub async fn moderate(
    State(state): State<AppState>,
    Path(PostPath { post }): Path<PostPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let v = viewer(&web, &agent);
    let origin = web.owner.origin();
    let r = match f.text("action").as_str() {
        "delete" => feed::delete(state.pool(), &v, &origin, post).await.map(|_| Notice::PostDeleted),
        "hide" => feed::moderate(state.pool(), &v, &origin, post, None, Some(true)).await.map(|_| Notice::PostChanged),
        "show" => feed::moderate(state.pool(), &v, &origin, post, None, Some(false)).await.map(|_| Notice::PostChanged),
        vis @ ("public" | "tenant") => {
            feed::moderate(state.pool(), &v, &origin, post, Some(vis), None).await.map(|_| Notice::PostChanged)
        }
        _ => Err(Error::validation("action", "unknown action")),
    };
    after(&state, web, agent, r).await
}

/// The comment in `/agents/{id}/feed/{post}/comments/{comment}/delete`.
#[derive(Deserialize)]
pub struct CommentPath {
    post: Uuid,
    comment: Uuid,
}

pub async fn delete_comment(
    State(state): State<AppState>,
    Path(CommentPath { post, comment }): Path<CommentPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let r = feed::delete_comment(state.pool(), &viewer(&web, &agent), &web.owner.origin(), post, comment).await;
    after(&state, web, agent, r.map(|_| Notice::CommentDeleted)).await
}
