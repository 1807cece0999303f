//! What an agent sells (SPEC I6, I8): a service with a slug, a description and a price in
//! credits, optionally also in wei (then a paid call may be settled on chain). Other agents
//! order it (`orders`) or any client calls it paying per call (`payments`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};

/// A service on offer.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Service {
    pub id: Uuid,
    pub agent_id: Uuid,
    /// The seller's tenant (not shown).
    #[serde(skip)]
    pub tenant_id: Uuid,
    /// Lower-case letters, digits and dashes, unique per agent.
    pub slug: String,
    pub title: String,
    pub description: String,
    /// In platform credits.
    pub price: i64,
    /// The price of a paid call settled in native value, in wei (decimal string); `null`: credits only.
    pub price_wei: Option<String>,
    /// An inactive service takes no new orders or calls.
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ServiceInput {
    /// 1–120 characters.
    pub title: String,
    /// At most 2,000 characters: what the buyer gets. A paid call's input is answered with it.
    #[serde(default)]
    pub description: String,
    /// 1–1,000,000 credits.
    pub price: i64,
    /// Optional price in wei for calls paid on chain.
    pub price_wei: Option<String>,
    /// Default true.
    pub active: Option<bool>,
}

pub fn check_slug(slug: &str) -> Result<(), Error> {
    let ok = (1..=40).contains(&slug.len())
        && slug.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(Error::validation("slug", "a slug is 1–40 lower-case letters, digits and dashes, not starting with a dash"))
    }
}

/// Creates or replaces the agent's service `slug`; true when it was new.
pub async fn put(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    slug: &str,
    input: ServiceInput,
) -> Result<(Service, bool), Error> {
    check_slug(slug)?;
    let title = input.title.trim();
    if title.is_empty() {
        return Err(Error::validation("title", "title is required"));
    }
    if title.chars().count() > 120 {
        return Err(Error::too_long("title", 120, title.chars().count()));
    }
    let n = input.description.chars().count();
    if n > 2000 {
        return Err(Error::too_long("description", 2000, n));
    }
    if !(1..=1_000_000).contains(&input.price) {
        return Err(Error::validation("price", "price is 1 to 1,000,000 credits"));
    }
    let price_wei = input.price_wei.as_deref().map(str::trim).map(str::to_string);
    if let Some(w) = &price_wei {
        let ok = !w.is_empty() && w.len() <= 78 && w.bytes().all(|b| b.is_ascii_digit()) && !w.starts_with('0');
        if !ok {
            return Err(Error::validation("price_wei", "price_wei is a positive amount of wei as a decimal string"));
        }
    }
    let mut db = pool.begin().await?;
    let selling = selling(&mut db, agent).await?;
    let row = sqlx::query!(
        r#"INSERT INTO agent_services (id, agent_id, tenant_id, slug, title, description, price, price_wei, active)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (agent_id, slug) DO UPDATE SET title = $5, description = $6, price = $7, price_wei = $8,
                                                      active = $9, updated_at = now()
           RETURNING id, (xmax = 0) AS "created!""#,
        Uuid::now_v7(),
        agent as _,
        tenant as _,
        slug,
        title,
        input.description.trim(),
        input.price,
        price_wei,
        input.active.unwrap_or(true)
    )
    .fetch_one(&mut *db)
    .await?;
    let details = json!({ "service": row.id, "slug": slug, "price": input.price, "price_wei": price_wei });
    activity::record_agent(&mut db, tenant, agent, origin, "economy.service_saved", details).await?;
    x402_changed(&mut db, agent, selling).await?;
    db.commit().await?;
    Ok((by_id(pool, row.id).await?, row.created))
}

pub async fn by_id(pool: &PgPool, id: Uuid) -> Result<Service, Error> {
    sqlx::query_as!(
        Service,
        "SELECT id, agent_id, tenant_id, slug, title, description, price, price_wei, active, created_at, updated_at
           FROM agent_services WHERE id = $1",
        id
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("service"))
}

/// The live agent's service `slug` (active or not). One round trip on the paid-call path:
/// whether the agent is live is read through `agents::sql`.
pub async fn by_slug(pool: &PgPool, agent: AgentId, slug: &str) -> Result<Service, Error> {
    sqlx::query_as(&format!(
        "SELECT id, agent_id, tenant_id, slug, title, description, price, price_wei, active, created_at, updated_at
           FROM agent_services WHERE agent_id = $1 AND slug = $2 AND {} IS NOT NULL",
        crate::tenancy::agents::sql::tenant("$1")
    ))
    .bind(agent)
    .bind(slug)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("service"))
}

/// The agent's services, newest first (`before` continues after that id); `active_only` for
/// the public listing. The caller has found the agent live (its scope, or `offer`).
pub async fn list(
    pool: &PgPool,
    agent: AgentId,
    active_only: bool,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<Service>> {
    sqlx::query_as!(
        Service,
        "SELECT id, agent_id, tenant_id, slug, title, description, price, price_wei, active, created_at, updated_at
           FROM agent_services
          WHERE agent_id = $1 AND (active OR NOT $2) AND ($4::uuid IS NULL OR id < $4)
          ORDER BY id DESC LIMIT $3",
        agent as _,
        active_only,
        limit,
        before
    )
    .fetch_all(pool)
    .await
}

/// An agent's services on offer, for anyone: 404 when there is no such agent.
pub async fn offer(pool: &PgPool, agent: AgentId, limit: i64, before: Option<Uuid>) -> Result<Vec<Service>, Error> {
    let mut conn = pool.acquire().await?;
    super::counterparty(&mut conn, agent).await?;
    drop(conn);
    Ok(list(pool, agent, true, limit, before).await?)
}

/// Withdraws a service from sale (its orders carry on).
pub async fn deactivate(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    slug: &str,
) -> Result<(), Error> {
    let mut db = pool.begin().await?;
    let selling = selling(&mut db, agent).await?;
    let id = sqlx::query_scalar!(
        "UPDATE agent_services SET active = false, updated_at = now() WHERE agent_id = $1 AND slug = $2 RETURNING id",
        agent as _,
        slug
    )
    .fetch_optional(&mut *db)
    .await?
    .ok_or_else(|| Error::not_found("service"))?;
    activity::record_agent(&mut db, tenant, agent, origin, "economy.service_withdrawn", json!({ "service": id }))
        .await?;
    x402_changed(&mut db, agent, selling).await?;
    db.commit().await?;
    Ok(())
}

/// Whether the agent has a service on sale: its registration file then says `x402Support`.
async fn selling(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM agent_services WHERE agent_id = $1 AND active) AS "x!""#,
        agent as _
    )
    .fetch_one(conn)
    .await
}

/// A registered agent whose first service went on sale, or whose last one came off, has its
/// registry entry refreshed (`x402Support` changed); other edits leave the chain alone.
async fn x402_changed(conn: &mut PgConnection, agent: AgentId, selling_before: bool) -> sqlx::Result<()> {
    if selling(conn, agent).await? != selling_before {
        crate::onchain::identity::profile_changed(conn, agent).await?;
    }
    Ok(())
}
