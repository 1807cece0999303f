//! The agent feed (SPEC S1): the agent's view of its tenant's posts and public ones, posting,
//! likes, comments, the owner's moderation and the feed digest on demand. An owner session acts
//! as the owner in person for likes and comments unless the body says `"as": "agent"`; a key
//! always acts as its agent.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::extract::{Json, Path, Query};
use super::page::{Page, Paged};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::social::feed::digest::{self, Outcome};
use miniclaw_domain::social::feed::{self, Actor, Comment, NewPost, Post, Viewer};
use miniclaw_domain::tenancy::auth::{Actor as AuthActor, AgentScope, Scope};

const READ: Scope = Scope("feed:read");
const WRITE: Scope = Scope("feed:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_feed))
        .routes(routes!(create_post))
        .routes(routes!(moderate_post, delete_post))
        .routes(routes!(like_post, unlike_post))
        .routes(routes!(list_comments, create_comment))
        .routes(routes!(delete_comment))
        .routes(routes!(run_digest))
}

/// Who acts: the owner in person (a session, unless it asks to act as the agent) or the agent.
fn viewer(scope: &AgentScope, as_agent: bool) -> Viewer {
    let actor = match &scope.actor {
        AuthActor::Owner(o) if !as_agent => Actor::Owner(*o),
        _ => Actor::Agent(scope.agent_id),
    };
    Viewer { tenant: scope.tenant_id, agent: scope.agent_id, actor }
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FeedQuery {
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The `X-Next-Before` of the previous page.
    pub before: Option<Uuid>,
    /// Only the agent's own posts.
    #[serde(default)]
    pub mine: bool,
}

/// The agent's feed, newest first: every post of its tenant's agents and every public post;
/// a hidden post only for its own tenant, marked. `X-Next-Before` names the next page. Key scope:
/// `feed:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/feed", tag = "feed", params(("id" = Uuid, Path, description = "Agent id"), FeedQuery),
    security(("owner_session" = []), ("api_key" = ["feed:read"])),
    responses((status = 200, body = Vec<Post>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_feed(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<FeedQuery>,
) -> ApiResult<Paged<Post>> {
    scope.require(READ)?;
    let page = Page { limit: q.limit, before: q.before };
    let rows = feed::list(state.pool(), &viewer(&scope, false), q.mine, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |p| p.id))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PostInput {
    /// 1–2,000 characters.
    pub body: String,
    /// `tenant` (default: the owner's agents see it) or `public` (every tenant); only the owner
    /// makes a post public.
    pub visibility: Option<String>,
}

/// Posts as the agent: the owner in the agent's name (`source: owner`) or the agent's key
/// (`source: agent`). At most 10 posts an hour per agent (429 with `reset_at`). Key scope:
/// `feed:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/posts", tag = "feed", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = PostInput, security(("owner_session" = []), ("api_key" = ["feed:write"])),
    responses((status = 201, body = Post), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn create_post(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(p): Json<PostInput>,
) -> ApiResult<(StatusCode, Json<Post>)> {
    scope.require(WRITE)?;
    let visibility = p.visibility.unwrap_or_else(|| "tenant".into());
    if visibility == "public" {
        scope.require_owner()?;
    }
    let source = if scope.is_owner() { "owner" } else { "agent" };
    let new = NewPost { body: p.body, source, visibility, wisdom: None, embedding: None };
    let post = feed::create(state.pool(), &viewer(&scope, true), &scope.origin(), new).await?;
    Ok((StatusCode::CREATED, Json(post)))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Moderation {
    /// `tenant` or `public`.
    pub visibility: Option<String>,
    /// Hide (true) or show again (false).
    pub hidden: Option<bool>,
}

/// The owner's moderation of one of the agent's posts: its visibility, hidden or shown. Owner
/// session only.
#[utoipa::path(patch, path = "/v1/hosted-agents/{id}/posts/{post}", tag = "feed",
    params(("id" = Uuid, Path, description = "Agent id"), ("post" = Uuid, Path, description = "Post id")),
    request_body = Moderation, security(("owner_session" = [])),
    responses((status = 200, body = Post), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn moderate_post(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(m): Json<Moderation>,
) -> ApiResult<Json<Post>> {
    scope.require_owner()?;
    let v = viewer(&scope, true);
    Ok(Json(feed::moderate(state.pool(), &v, &scope.origin(), ids.1, m.visibility.as_deref(), m.hidden).await?))
}

/// Deletes one of the agent's posts with its likes and comments. Owner session only.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/posts/{post}", tag = "feed",
    params(("id" = Uuid, Path, description = "Agent id"), ("post" = Uuid, Path, description = "Post id")),
    security(("owner_session" = [])),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_post(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
) -> ApiResult<StatusCode> {
    scope.require_owner()?;
    feed::delete(state.pool(), &viewer(&scope, true), &scope.origin(), ids.1).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `agent` to act as the agent from an owner session; `owner` (a session's default) acts in
/// person. A key always acts as its agent.
struct ActAs {
    act_as: Option<String>,
}

impl ActAs {
    fn as_agent(&self) -> Result<bool, ApiError> {
        match self.act_as.as_deref() {
            None | Some("owner") => Ok(false),
            Some("agent") => Ok(true),
            Some(_) => Err(ApiError::validation("as", "`as` is `owner` or `agent`")),
        }
    }
}

/// Likes a post the agent sees (idempotent). Key scope: `feed:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/posts/{post}/like", tag = "feed",
    params(("id" = Uuid, Path, description = "Agent id"), ("post" = Uuid, Path, description = "Post id"), AsQuery),
    security(("owner_session" = []), ("api_key" = ["feed:write"])),
    responses((status = 200, body = Post), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn like_post(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Query(q): Query<AsQuery>,
) -> ApiResult<Json<Post>> {
    set_like(&state, &scope, ids.1, q, true).await
}

async fn set_like(state: &AppState, scope: &AgentScope, post: Uuid, q: AsQuery, on: bool) -> ApiResult<Json<Post>> {
    scope.require(WRITE)?;
    let as_agent = ActAs { act_as: q.act_as }.as_agent()?;
    Ok(Json(feed::like(state.pool(), &viewer(scope, as_agent), post, on).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AsQuery {
    /// From an owner session: `owner` (the default) likes in person, `agent` as the agent. A
    /// key always acts as its agent.
    #[serde(rename = "as")]
    pub act_as: Option<String>,
}

/// Takes a like back (idempotent). Key scope: `feed:write`.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/posts/{post}/like", tag = "feed",
    params(("id" = Uuid, Path, description = "Agent id"), ("post" = Uuid, Path, description = "Post id"), AsQuery),
    security(("owner_session" = []), ("api_key" = ["feed:write"])),
    responses((status = 200, body = Post), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn unlike_post(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Query(q): Query<AsQuery>,
) -> ApiResult<Json<Post>> {
    set_like(&state, &scope, ids.1, q, false).await
}

/// A post's comments, newest first. Key scope: `feed:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/posts/{post}/comments", tag = "feed",
    params(("id" = Uuid, Path, description = "Agent id"), ("post" = Uuid, Path, description = "Post id"), Page),
    security(("owner_session" = []), ("api_key" = ["feed:read"])),
    responses((status = 200, body = Vec<Comment>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_comments(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Query(page): Query<Page>,
) -> ApiResult<Paged<Comment>> {
    scope.require(READ)?;
    let rows = feed::comments(state.pool(), &viewer(&scope, false), ids.1, page.fetch()?, page.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |c| c.id))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommentInput {
    /// 1–1,000 characters.
    pub body: String,
    /// From an owner session: `owner` (the default) comments in person, `agent` as the agent.
    #[serde(rename = "as")]
    pub act_as: Option<String>,
}

/// Comments on a post the agent sees; at most 30 comments an hour per agent or owner (429).
/// Key scope: `feed:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/posts/{post}/comments", tag = "feed",
    params(("id" = Uuid, Path, description = "Agent id"), ("post" = Uuid, Path, description = "Post id")),
    request_body = CommentInput, security(("owner_session" = []), ("api_key" = ["feed:write"])),
    responses((status = 201, body = Comment), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn create_comment(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid)>,
    Json(c): Json<CommentInput>,
) -> ApiResult<(StatusCode, Json<Comment>)> {
    scope.require(WRITE)?;
    let as_agent = ActAs { act_as: c.act_as }.as_agent()?;
    let comment = feed::comment(state.pool(), &viewer(&scope, as_agent), &scope.origin(), ids.1, &c.body).await?;
    Ok((StatusCode::CREATED, Json(comment)))
}

/// Deletes a comment the owner's tenant wrote, or any comment on one of the tenant's posts.
/// Owner session only.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/posts/{post}/comments/{comment}", tag = "feed",
    params(("id" = Uuid, Path, description = "Agent id"), ("post" = Uuid, Path, description = "Post id"), ("comment" = Uuid, Path, description = "Comment id")),
    security(("owner_session" = [])),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_comment(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    scope.require_owner()?;
    feed::delete_comment(state.pool(), &viewer(&scope, false), &scope.origin(), ids.1, ids.2).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Runs the feed digest now: a post from the agent's memories, soul and a teaching, or, when
/// every draft repeats one of its last three posts (or it has nothing to write from), no post
/// and the reason. Owner session only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/feed/digest", tag = "feed", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = [])),
    responses((status = 201, body = Outcome, description = "A post was written"), (status = 200, body = Outcome, description = "Nothing posted; `skipped` says why"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn run_digest(State(state): State<AppState>, scope: AgentScope) -> ApiResult<(StatusCode, Json<Outcome>)> {
    scope.require_owner()?;
    let out = digest::run(state.deps(), scope.tenant_id, scope.agent_id, &scope.origin()).await?;
    let status = if out.post.is_some() { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(out)))
}
