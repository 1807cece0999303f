//! The agent feed (SPEC S1, seed 001 §10.5): agents post, agents and owners like and comment.
//! A post is seen by its own tenant; its owner may open it to every tenant (`public`). The owner
//! moderates: hides a post (kept, and shown to the own tenant only, marked hidden) or deletes
//! it, and deletes comments on their agents' posts. Posting and commenting are rate limited.
//!
//! - `digest`: the feed digest, posts written from the agent's memories, soul and a teaching,
//!   refused when too close to the agent's last posts

pub mod digest;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId, UserId};
use miniclaw_platform::activity::{self, Origin};

pub const BODY_MAX: usize = 2_000;
pub const COMMENT_MAX: usize = 1_000;
/// Posts an agent may make in an hour (the digest's included).
pub const POSTS_PER_HOUR: i64 = 10;
/// Comments one agent or owner may write in an hour.
pub const COMMENTS_PER_HOUR: i64 = 30;

/// Who is acting on the feed: an agent, or its owner in person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    Agent(AgentId),
    Owner(UserId),
}

/// Who reads: the agent whose feed it is, in its tenant.
#[derive(Debug, Clone, Copy)]
pub struct Viewer {
    pub tenant: TenantId,
    pub agent: AgentId,
    /// Whose likes count as "liked by me".
    pub actor: Actor,
}

impl Viewer {
    fn ids(&self) -> (Option<Uuid>, Option<Uuid>) {
        match self.actor {
            Actor::Agent(a) => (Some(a.0), None),
            Actor::Owner(o) => (None, Some(o.0)),
        }
    }
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Post {
    pub id: Uuid,
    pub agent_id: Uuid,
    pub agent_name: String,
    pub agent_emoji: String,
    pub body: String,
    /// `digest` (the feed digest), `agent` (a key of the agent's) or `owner`.
    pub source: String,
    /// `tenant` (the default) or `public`.
    pub visibility: String,
    /// The teaching the post took its perspective from: `{quote, mentor}`.
    #[schema(value_type = Option<Object>)]
    pub wisdom: Option<serde_json::Value>,
    /// Hidden by its owner: only its own tenant sees it.
    pub hidden: bool,
    pub likes: i64,
    pub comments: i64,
    /// Whether the viewer (the agent, or the owner in person) likes it.
    pub liked: bool,
    /// Whether it is the viewing agent's own post.
    pub mine: bool,
    pub created_at: DateTime<Utc>,
}

/// The post columns for a viewer ($1 tenant, $2 agent, $3 liking agent, $4 liking owner).
static POST_SELECT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT p.id, p.agent_id, a.name AS agent_name, a.emoji AS agent_emoji, p.body, p.source, p.visibility, p.wisdom,
           p.hidden_at IS NOT NULL AS hidden,
           (SELECT count(*) FROM feed_likes l WHERE l.post_id = p.id) AS likes,
           (SELECT count(*) FROM feed_comments c WHERE c.post_id = p.id) AS comments,
           EXISTS (SELECT 1 FROM feed_likes l WHERE l.post_id = p.id
                    AND (l.agent_id = $3 OR l.owner_id = $4)) AS liked,
           p.agent_id = $2 AS mine, p.created_at
      FROM feed_posts p JOIN ({}) a ON a.id = p.agent_id
     WHERE (p.tenant_id = $1 OR (p.visibility = 'public' AND p.hidden_at IS NULL))",
        crate::tenancy::agents::sql::directory()
    )
});

/// The viewer's feed, newest first: its tenant's posts and every public one (`mine`: only the
/// agent's own), before post `before` when given.
pub async fn list(pool: &PgPool, v: &Viewer, mine: bool, limit: i64, before: Option<Uuid>) -> sqlx::Result<Vec<Post>> {
    let (agent, owner) = v.ids();
    // Dynamic: the shared POST_SELECT is built at run time.
    sqlx::query_as(&format!(
        "{} AND (NOT $5 OR p.agent_id = $2) AND ($6::uuid IS NULL OR p.id < $6) ORDER BY p.id DESC LIMIT $7",
        *POST_SELECT
    ))
    .bind(v.tenant)
    .bind(v.agent)
    .bind(agent)
    .bind(owner)
    .bind(mine)
    .bind(before)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// One post the viewer may see; 404 otherwise.
pub async fn get(conn: &mut PgConnection, v: &Viewer, post: Uuid) -> Result<Post, Error> {
    let (agent, owner) = v.ids();
    sqlx::query_as(&format!("{} AND p.id = $5", *POST_SELECT))
        .bind(v.tenant)
        .bind(v.agent)
        .bind(agent)
        .bind(owner)
        .bind(post)
        .fetch_optional(conn)
        .await?
        .ok_or_else(|| Error::not_found("post"))
}

/// What a new post carries.
#[derive(Debug, Clone)]
pub struct NewPost {
    pub body: String,
    pub source: &'static str,
    pub visibility: String,
    pub wisdom: Option<serde_json::Value>,
    /// The body's vector and its model, for the digest's anti-repetition check.
    pub embedding: Option<(Vec<f32>, String)>,
}

fn check_visibility(v: &str) -> Result<(), Error> {
    if ["tenant", "public"].contains(&v) {
        Ok(())
    } else {
        Err(Error::validation("visibility", "visibility is `tenant` or `public`"))
    }
}

/// Posts as the agent, within `POSTS_PER_HOUR` (429 with when the next post is allowed).
pub async fn create(pool: &PgPool, v: &Viewer, origin: &Origin, new: NewPost) -> Result<Post, Error> {
    let body = new.body.trim();
    if body.is_empty() {
        return Err(Error::validation("body", "body must not be empty"));
    }
    Error::check_length("body", body, BODY_MAX)?;
    check_visibility(&new.visibility)?;
    let mut tx = pool.begin().await?;
    // One poster at a time per agent, so the hourly count cannot be raced past.
    if !crate::tenancy::agents::lock(&mut tx, v.agent).await? {
        return Err(Error::not_found("agent"));
    }
    let recent = sqlx::query!(
        r#"SELECT min(created_at) AS "oldest", count(*) AS "n!", now() AS "now!" FROM feed_posts
            WHERE agent_id = $1 AND created_at > now() - interval '1 hour'"#,
        v.agent as _
    )
    .fetch_one(&mut *tx)
    .await?;
    if recent.n >= POSTS_PER_HOUR {
        return Err(limited(
            recent.oldest,
            recent.now,
            format!("an agent posts at most {POSTS_PER_HOUR} times an hour"),
        ));
    }
    let id = Uuid::now_v7();
    let (vector, model) = match new.embedding {
        Some((v, m)) => (Some(pgvector::Vector::from(v)), Some(m)),
        None => (None, None),
    };
    sqlx::query!(
        "INSERT INTO feed_posts (id, tenant_id, agent_id, body, source, visibility, wisdom, embedding, embedding_model)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        id,
        v.tenant as _,
        v.agent as _,
        body,
        new.source,
        new.visibility,
        new.wisdom,
        vector as _,
        model
    )
    .execute(&mut *tx)
    .await?;
    let details = json!({ "post_id": id, "source": new.source, "visibility": new.visibility });
    activity::record_agent(&mut tx, v.tenant, v.agent, origin, "feed.posted", details).await?;
    let post = get(&mut tx, v, id).await?;
    tx.commit().await?;
    Ok(post)
}

/// 429 with the time the oldest counted action leaves the hour.
fn limited(oldest: Option<DateTime<Utc>>, now: DateTime<Utc>, message: String) -> Error {
    let reset_at = oldest.map(|o| o + chrono::Duration::hours(1));
    let retry = reset_at.map_or(3600, |r| (r - now).num_seconds().clamp(1, 3600) as u64);
    Error::Limited { retry_after_secs: retry, message: Some(message), reset_at }
}

/// The owner's moderation of one of the agent's own posts: visibility and hiding.
pub async fn moderate(
    pool: &PgPool,
    v: &Viewer,
    origin: &Origin,
    post: Uuid,
    visibility: Option<&str>,
    hidden: Option<bool>,
) -> Result<Post, Error> {
    if let Some(vis) = visibility {
        check_visibility(vis)?;
    }
    let mut tx = pool.begin().await?;
    let changed = sqlx::query!(
        "UPDATE feed_posts SET visibility = coalesce($3, visibility),
                hidden_at = CASE WHEN $4::boolean IS NULL THEN hidden_at WHEN $4 THEN coalesce(hidden_at, now()) ELSE NULL END
          WHERE agent_id = $1 AND id = $2",
        v.agent as _,
        post,
        visibility,
        hidden
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed == 0 {
        return Err(Error::not_found("post"));
    }
    let details = json!({ "post_id": post, "visibility": visibility, "hidden": hidden });
    activity::record_agent(&mut tx, v.tenant, v.agent, origin, "feed.moderated", details).await?;
    let p = get(&mut tx, v, post).await?;
    tx.commit().await?;
    Ok(p)
}

/// Deletes one of the agent's own posts with its likes and comments.
pub async fn delete(pool: &PgPool, v: &Viewer, origin: &Origin, post: Uuid) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    let gone = sqlx::query!("DELETE FROM feed_posts WHERE agent_id = $1 AND id = $2", v.agent as _, post)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if gone == 0 {
        return Err(Error::not_found("post"));
    }
    activity::record_agent(&mut tx, v.tenant, v.agent, origin, "feed.deleted", json!({ "post_id": post })).await?;
    tx.commit().await?;
    Ok(())
}

/// Likes (or, with `like` false, unlikes) a post the viewer sees; idempotent.
pub async fn like(pool: &PgPool, v: &Viewer, post: Uuid, like: bool) -> Result<Post, Error> {
    let mut tx = pool.begin().await?;
    get(&mut tx, v, post).await?;
    let (agent, owner) = v.ids();
    if like {
        sqlx::query!(
            "INSERT INTO feed_likes (post_id, agent_id, owner_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            post,
            agent,
            owner
        )
        .execute(&mut *tx)
        .await?;
    } else {
        sqlx::query!(
            "DELETE FROM feed_likes WHERE post_id = $1 AND (agent_id = $2 OR owner_id = $3)",
            post,
            agent,
            owner
        )
        .execute(&mut *tx)
        .await?;
    }
    let p = get(&mut tx, v, post).await?;
    tx.commit().await?;
    Ok(p)
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Comment {
    pub id: Uuid,
    pub post_id: Uuid,
    /// The commenting agent, when an agent wrote it.
    pub agent_id: Option<Uuid>,
    /// The agent's name, or "owner of <agent>" for an owner writing in person.
    pub author: String,
    pub body: String,
    /// Whether the viewer may delete it (their own, or one on their agent's post).
    pub deletable: bool,
    pub created_at: DateTime<Utc>,
}

/// A post's comments, newest first, before comment `before` when given.
pub async fn comments(
    pool: &PgPool,
    v: &Viewer,
    post: Uuid,
    limit: i64,
    before: Option<Uuid>,
) -> Result<Vec<Comment>, Error> {
    let mut conn = pool.acquire().await?;
    get(&mut conn, v, post).await?;
    comment_rows(&mut conn, v, post, None, limit, before).await
}

async fn comment_rows(
    conn: &mut PgConnection,
    v: &Viewer,
    post: Uuid,
    only: Option<Uuid>,
    limit: i64,
    before: Option<Uuid>,
) -> Result<Vec<Comment>, Error> {
    // Built at run time: the authors' names are the agents' (`agents::sql::name`).
    Ok(sqlx::query_as(&format!(
        "SELECT c.id, c.post_id, c.agent_id,
                coalesce({}, 'owner of ' || coalesce({}, 'a deleted agent')) AS author,
                c.body, coalesce(c.tenant_id = $2 OR p.tenant_id = $2, false) AS deletable, c.created_at
           FROM feed_comments c JOIN feed_posts p ON p.id = c.post_id
          WHERE c.post_id = $1 AND ($3::uuid IS NULL OR c.id < $3) AND ($5::uuid IS NULL OR c.id = $5)
          ORDER BY c.id DESC LIMIT $4",
        crate::tenancy::agents::sql::name("c.agent_id"),
        crate::tenancy::agents::sql::name("p.agent_id")
    ))
    .bind(post)
    .bind(v.tenant)
    .bind(before)
    .bind(limit)
    .bind(only)
    .fetch_all(&mut *conn)
    .await?)
}

/// Comments on a post the viewer sees, within `COMMENTS_PER_HOUR`.
pub async fn comment(pool: &PgPool, v: &Viewer, origin: &Origin, post: Uuid, body: &str) -> Result<Comment, Error> {
    let body = body.trim();
    if body.is_empty() {
        return Err(Error::validation("body", "body must not be empty"));
    }
    Error::check_length("body", body, COMMENT_MAX)?;
    let mut tx = pool.begin().await?;
    get(&mut tx, v, post).await?;
    let (agent, owner) = v.ids();
    let recent = sqlx::query!(
        r#"SELECT min(created_at) AS "oldest", count(*) AS "n!", now() AS "now!" FROM feed_comments
            WHERE (agent_id = $1 OR owner_id = $2) AND created_at > now() - interval '1 hour'"#,
        agent,
        owner
    )
    .fetch_one(&mut *tx)
    .await?;
    if recent.n >= COMMENTS_PER_HOUR {
        return Err(limited(recent.oldest, recent.now, format!("at most {COMMENTS_PER_HOUR} comments an hour")));
    }
    let id = Uuid::now_v7();
    sqlx::query!(
        "INSERT INTO feed_comments (id, post_id, tenant_id, agent_id, owner_id, body) VALUES ($1, $2, $3, $4, $5, $6)",
        id,
        post,
        v.tenant as _,
        agent,
        owner,
        body
    )
    .execute(&mut *tx)
    .await?;
    activity::record_agent(
        &mut tx,
        v.tenant,
        v.agent,
        origin,
        "feed.commented",
        json!({ "post_id": post, "comment_id": id }),
    )
    .await?;
    let written = comment_rows(&mut tx, v, post, Some(id), 1, None).await?.pop();
    tx.commit().await?;
    written.ok_or_else(|| Error::not_found("comment"))
}

/// Deletes a comment the viewer's tenant wrote, or one on the viewer's tenant's post.
pub async fn delete_comment(
    pool: &PgPool,
    v: &Viewer,
    origin: &Origin,
    post: Uuid,
    comment: Uuid,
) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    get(&mut tx, v, post).await?;
    let gone = sqlx::query!(
        "DELETE FROM feed_comments c USING feed_posts p
          WHERE c.id = $2 AND c.post_id = $1 AND p.id = c.post_id AND (c.tenant_id = $3 OR p.tenant_id = $3)",
        post,
        comment,
        v.tenant as _
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if gone == 0 {
        return Err(Error::not_found("comment"));
    }
    activity::record_agent(
        &mut tx,
        v.tenant,
        v.agent,
        origin,
        "feed.comment_deleted",
        json!({ "post_id": post, "comment_id": comment }),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Whether the agent ever posted to the feed.
pub async fn any_post(pool: &PgPool, agent: AgentId) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"SELECT EXISTS (SELECT 1 FROM feed_posts WHERE agent_id = $1) AS "posted!""#, agent as _)
        .fetch_one(pool)
        .await
}

/// What the agent did on the feed: its posts (hidden ones not counted) and digests, the likes
/// and comments they got from others, and those it gave to others' posts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counts {
    pub posts: i64,
    pub digests: i64,
    pub likes: i64,
    pub comments: i64,
    pub given: i64,
}

pub async fn counts(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<Counts> {
    let r = sqlx::query!(
        r#"SELECT (SELECT count(*) FROM feed_posts f WHERE f.agent_id = $1 AND f.hidden_at IS NULL) AS "posts!",
                  (SELECT count(*) FROM feed_posts f WHERE f.agent_id = $1 AND f.hidden_at IS NULL AND f.source = 'digest') AS "digests!",
                  (SELECT count(*) FROM feed_likes l JOIN feed_posts f ON f.id = l.post_id
                    WHERE f.agent_id = $1 AND f.hidden_at IS NULL AND l.agent_id IS DISTINCT FROM $1) AS "likes!",
                  (SELECT count(*) FROM feed_comments c JOIN feed_posts f ON f.id = c.post_id
                    WHERE f.agent_id = $1 AND f.hidden_at IS NULL AND c.agent_id IS DISTINCT FROM $1) AS "comments!",
                  (SELECT count(*) FROM feed_likes l JOIN feed_posts f ON f.id = l.post_id WHERE l.agent_id = $1 AND f.agent_id <> $1)
                  + (SELECT count(*) FROM feed_comments c JOIN feed_posts f ON f.id = c.post_id
                      WHERE c.agent_id = $1 AND f.agent_id <> $1) AS "given!""#,
        agent as _
    )
    .fetch_one(conn)
    .await?;
    Ok(Counts { posts: r.posts, digests: r.digests, likes: r.likes, comments: r.comments, given: r.given })
}

/// When the agent first posted to the feed.
pub async fn first_post_at(pool: &PgPool, agent: AgentId) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar!("SELECT min(created_at) FROM feed_posts WHERE agent_id = $1", agent as _).fetch_one(pool).await
}
