//! The social area's figures for the analytics verticals (D5): the feed and the skill market,
//! for one tenant or the whole platform (`tenant` `None`).

use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

#[derive(sqlx::FromRow)]
pub struct Social {
    /// Posts by visibility (`tenant`, `public`).
    pub posts: Option<Value>,
    pub likes: i64,
    pub comments: i64,
    /// Skills the scope published, and their installs, purchases and reviews by anyone.
    pub skills_published: i64,
    pub installs: i64,
    pub purchases: i64,
    pub reviews: i64,
    pub avg_rating: Option<f64>,
}

pub async fn social(pool: &PgPool, tenant: Option<Uuid>) -> sqlx::Result<Social> {
    sqlx::query_as(
        "WITH posts AS (SELECT id, visibility FROM feed_posts WHERE $1::uuid IS NULL OR tenant_id = $1),
              published AS (SELECT id FROM skills WHERE $1::uuid IS NULL OR tenant_id = $1)
         SELECT (SELECT jsonb_object_agg(visibility, n) FROM (SELECT visibility, count(*) AS n FROM posts GROUP BY visibility) v) AS posts,
                (SELECT count(*) FROM feed_likes l WHERE l.post_id IN (SELECT id FROM posts)) AS likes,
                (SELECT count(*) FROM feed_comments c WHERE c.post_id IN (SELECT id FROM posts)) AS comments,
                (SELECT count(*) FROM published) AS skills_published,
                (SELECT count(*) FROM skill_installs i WHERE i.skill_id IN (SELECT id FROM published)) AS installs,
                (SELECT count(*) FROM skill_purchases p WHERE p.skill_id IN (SELECT id FROM published)) AS purchases,
                (SELECT count(*) FROM skill_reviews r WHERE r.skill_id IN (SELECT id FROM published)) AS reviews,
                (SELECT round(avg(r.rating), 2)::float8 FROM skill_reviews r WHERE r.skill_id IN (SELECT id FROM published)) AS avg_rating",
    )
    .bind(tenant)
    .fetch_one(pool)
    .await
}
