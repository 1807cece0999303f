//! The marketplace: agents publish skills (a name is its publisher's; a new version must be
//! newer), owners browse them, and installing agents rate them (installing is in `installs`).

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::manifest::{self, Manifest};
use super::{Availability, gate};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};

pub const PRICE_MAX: i64 = 1_000_000;
pub const REVIEW_MAX: usize = 2_000;

/// A skill as the marketplace lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Listing {
    pub id: Uuid,
    pub slug: String,
    pub name: String,
    pub description: String,
    pub emoji: Option<String>,
    /// The newest version.
    pub version: String,
    /// Credits, 0 = free.
    pub price: i64,
    pub publisher_agent_id: Option<Uuid>,
    pub publisher_name: Option<String>,
    pub installs: i64,
    pub sales: i64,
    pub rating: Option<f64>,
    pub reviews: i64,
    pub availability: Availability,
    pub updated_at: DateTime<Utc>,
}

/// A skill with its versions, instructions and reviews.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Detail {
    #[serde(flatten)]
    pub listing: Listing,
    pub manifest: Manifest,
    /// The newest version's instructions (markdown).
    pub instructions: String,
    pub versions: Vec<Version>,
    pub latest_reviews: Vec<Review>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Version {
    pub version: String,
    pub price: i64,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Review {
    pub agent_id: Uuid,
    pub agent_name: String,
    pub rating: i16,
    pub body: Option<String>,
    pub updated_at: DateTime<Utc>,
}

static LISTING: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT s.id, s.slug, s.name, s.description, v.manifest, s.latest AS version, v.price, s.agent_id AS publisher_agent_id,
           {} AS publisher_name, s.updated_at,
           (SELECT count(*) FROM skill_installs i WHERE i.skill_id = s.id) AS installs,
           (SELECT count(*) FROM skill_purchases p WHERE p.skill_id = s.id) AS sales,
           (SELECT avg(r.rating)::float8 FROM skill_reviews r WHERE r.skill_id = s.id) AS rating,
           (SELECT count(*) FROM skill_reviews r WHERE r.skill_id = s.id) AS reviews
      FROM skills s JOIN skill_versions v ON v.skill_id = s.id AND v.version = s.latest",
        crate::tenancy::agents::sql::name("s.agent_id")
    )
});

#[derive(sqlx::FromRow)]
struct ListingRow {
    id: Uuid,
    slug: String,
    name: String,
    description: String,
    manifest: sqlx::types::Json<Manifest>,
    version: String,
    price: i64,
    publisher_agent_id: Option<Uuid>,
    publisher_name: Option<String>,
    updated_at: DateTime<Utc>,
    installs: i64,
    sales: i64,
    rating: Option<f64>,
    reviews: i64,
}

impl ListingRow {
    fn listing(self) -> (Listing, Manifest) {
        let m = self.manifest.0;
        let listing = Listing {
            id: self.id,
            slug: self.slug,
            name: self.name,
            description: self.description,
            emoji: m.emoji.clone(),
            version: self.version,
            price: self.price,
            publisher_agent_id: self.publisher_agent_id,
            publisher_name: self.publisher_name,
            installs: self.installs,
            sales: self.sales,
            rating: self.rating.map(|r| (r * 10.0).round() / 10.0),
            reviews: self.reviews,
            availability: gate(&m),
            updated_at: self.updated_at,
        };
        (listing, m)
    }
}

/// The marketplace, most recently updated first, optionally matching `q` in the name or
/// description; `before`: the `updated_at` of the last skill of the previous page.
pub async fn list(
    pool: &PgPool,
    q: Option<&str>,
    limit: i64,
    before: Option<DateTime<Utc>>,
) -> sqlx::Result<Vec<Listing>> {
    // Dynamic: the shared LISTING select is built at run time.
    let rows: Vec<ListingRow> = sqlx::query_as(&format!(
        "{} WHERE ($1::text IS NULL OR s.slug ILIKE '%' || $1 || '%' OR s.description ILIKE '%' || $1 || '%')
           AND ($2::timestamptz IS NULL OR s.updated_at < $2)
         ORDER BY s.updated_at DESC LIMIT $3",
        *LISTING
    ))
    .bind(q.map(|q| q.replace(['%', '_', '\\'], "")).filter(|q| !q.is_empty()))
    .bind(before)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|r| r.listing().0).collect())
}

/// One skill by its slug, with its versions and latest reviews.
pub async fn detail(pool: &PgPool, slug: &str) -> Result<Detail, Error> {
    let row: ListingRow = sqlx::query_as(&format!("{} WHERE s.slug = $1", *LISTING))
        .bind(slug)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| Error::not_found("skill"))?;
    let (listing, manifest) = row.listing();
    let instructions = sqlx::query_scalar!(
        "SELECT body FROM skill_versions WHERE skill_id = $1 AND version = $2",
        listing.id,
        listing.version
    )
    .fetch_one(pool)
    .await?;
    let mut versions = sqlx::query_as!(
        Version,
        "SELECT version, price, created_at FROM skill_versions WHERE skill_id = $1",
        listing.id
    )
    .fetch_all(pool)
    .await?;
    versions.sort_by_key(|v| std::cmp::Reverse(manifest::semver(&v.version)));
    let latest_reviews: Vec<Review> = sqlx::query_as(&format!(
        "SELECT agent_id, {} AS agent_name, rating, body, updated_at FROM skill_reviews
          WHERE skill_id = $1 AND {} IS NOT NULL ORDER BY updated_at DESC LIMIT 20",
        crate::tenancy::agents::sql::name("agent_id"),
        crate::tenancy::agents::sql::name("agent_id")
    ))
    .bind(listing.id)
    .fetch_all(pool)
    .await?;
    Ok(Detail { listing, manifest, instructions, versions, latest_reviews })
}

/// Publishes a SKILL.md as `agent`'s: a new skill, or a newer version of one of the tenant's.
/// 422 `invalid_skill` lists every problem with its line.
pub async fn publish(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    source: &str,
    price: i64,
) -> Result<Detail, Error> {
    if !(0..=PRICE_MAX).contains(&price) {
        return Err(Error::validation("price", format!("price is 0 (free) to {PRICE_MAX} credits")));
    }
    let file = manifest::parse(source).map_err(|problems| Error::Unprocessable {
        code: "invalid_skill",
        message: problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "),
        details: Some(json!({ "problems": problems })),
    })?;
    let m = &file.manifest;
    // A skill's instructions reach the prompts of the agents that install it: the soul guard's
    // screen refuses an instruction override or hostile instructions, whoever publishes.
    let said = format!("{}\n{}\n{}", m.description, m.triggers.join("\n"), file.body);
    if let Some(flag) = crate::cognition::soul::screen_text(&said) {
        let what = match flag {
            crate::cognition::soul::Flag::Override => "an instruction override (prompt injection)",
            crate::cognition::soul::Flag::Hostile => "hostile instructions",
        };
        return Err(Error::Unprocessable {
            code: "unsafe_skill",
            message: format!(
                "the skill's text contains {what}; skills are reference material and may not steer the agent"
            ),
            details: None,
        });
    }
    let mut tx = pool.begin().await?;
    // One publisher at a time per name: the advisory lock makes two first publications of a
    // name wait for each other instead of failing on the unique index.
    sqlx::query!("SELECT pg_advisory_xact_lock(hashtext('skill:' || $1))", m.name).execute(&mut *tx).await?;
    let existing = sqlx::query!("SELECT id, tenant_id, latest FROM skills WHERE slug = $1", m.name)
        .fetch_optional(&mut *tx)
        .await?;
    let skill_id = match existing {
        Some(s) if s.tenant_id != tenant.0 => {
            return Err(Error::Conflict(format!(
                "the skill name `{}` belongs to another publisher; choose another name",
                m.name
            )));
        }
        Some(s) => {
            if manifest::semver(&m.version) <= manifest::semver(&s.latest) {
                return Err(Error::Conflict(format!(
                    "version {} is not newer than the published {}; raise `version` in the front matter",
                    m.version, s.latest
                )));
            }
            sqlx::query!(
                "UPDATE skills SET name = $2, description = $3, latest = $4, agent_id = $5, updated_at = now() WHERE id = $1",
                s.id,
                m.name,
                m.description,
                m.version,
                agent as _
            )
            .execute(&mut *tx)
            .await?;
            s.id
        }
        None => {
            let id = Uuid::now_v7();
            sqlx::query!(
                "INSERT INTO skills (id, slug, tenant_id, agent_id, name, description, latest) VALUES ($1, $2, $3, $4, $2, $5, $6)",
                id,
                m.name,
                tenant as _,
                agent as _,
                m.description,
                m.version
            )
            .execute(&mut *tx)
            .await?;
            id
        }
    };
    sqlx::query!(
        "INSERT INTO skill_versions (skill_id, version, manifest, body, source, price) VALUES ($1, $2, $3, $4, $5, $6)",
        skill_id,
        m.version,
        serde_json::to_value(m).map_err(anyhow::Error::from)?,
        file.body,
        source,
        price
    )
    .execute(&mut *tx)
    .await?;
    let details = json!({ "skill": m.name, "version": m.version, "price": price });
    activity::record_agent(&mut tx, tenant, agent, origin, "skill.published", details).await?;
    tx.commit().await?;
    detail(pool, &m.name).await
}

/// Rates (1–5, with an optional review) a skill the agent has installed; a second rating
/// replaces the first.
pub async fn review(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    slug: &str,
    rating: i16,
    body: Option<&str>,
) -> Result<Review, Error> {
    if !(1..=5).contains(&rating) {
        return Err(Error::validation("rating", "rating is 1 to 5"));
    }
    let body = body.map(str::trim).filter(|b| !b.is_empty());
    if let Some(b) = body {
        Error::check_length("body", b, REVIEW_MAX)?;
    }
    let mut tx = pool.begin().await?;
    let skill = sqlx::query_scalar!("SELECT id FROM skills WHERE slug = $1", slug)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::not_found("skill"))?;
    let installed = sqlx::query_scalar!(
        "SELECT 1 AS one FROM skill_installs WHERE agent_id = $1 AND skill_id = $2",
        agent as _,
        skill
    )
    .fetch_optional(&mut *tx)
    .await?;
    if installed.is_none() {
        return Err(Error::Conflict(format!("install `{slug}` on this agent before rating it")));
    }
    let r: Review = sqlx::query_as(&format!(
        "WITH r AS (
             INSERT INTO skill_reviews (skill_id, agent_id, rating, body) VALUES ($1, $2, $3, $4)
             ON CONFLICT (skill_id, agent_id) DO UPDATE SET rating = EXCLUDED.rating, body = EXCLUDED.body, updated_at = now()
             RETURNING agent_id, rating, body, updated_at)
         SELECT agent_id, {} AS agent_name, rating, body, updated_at FROM r",
        crate::tenancy::agents::sql::name("r.agent_id")
    ))
    .bind(skill)
    .bind(agent)
    .bind(rating)
    .bind(body)
    .fetch_one(&mut *tx)
    .await?;
    activity::record_agent(&mut tx, tenant, agent, origin, "skill.rated", json!({ "skill": slug, "rating": rating }))
        .await?;
    tx.commit().await?;
    Ok(r)
}
