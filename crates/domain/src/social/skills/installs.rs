//! Skills on agents: installing (with the purchase of a paid skill, once per agent, from the
//! owner's credits to the publishing agent's, in the same transaction), removing, the installed
//! list with whether each can run here, and the active skills the chat prompt draws on. A skill
//! a key installs, or updates to a new version, waits for the owner's approval: its text reaches
//! no prompt before that.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::manifest::Manifest;
use super::{Active, Availability, gate};
use crate::onchain::credits::{self, Holder};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};

/// A skill installed on an agent.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Installed {
    pub slug: String,
    pub name: String,
    pub description: String,
    pub emoji: Option<String>,
    pub version: String,
    /// The newest version published (`version` may be older until the agent updates).
    pub latest: String,
    pub triggers: Vec<String>,
    /// Credits paid for it (0 for a free skill).
    pub paid: i64,
    pub availability: Availability,
    pub installed_at: DateTime<Utc>,
    /// When the owner approved this version (the owner's own installs are approved as made);
    /// `null` while a key's install or update waits for the owner: it is not used until then.
    pub approved_at: Option<DateTime<Utc>>,
}

/// Installs (or updates to the newest version) a skill on an agent. A paid skill the agent has
/// not bought is bought first, from the tenant's credits to the publishing agent's account.
/// 422 `skill_unavailable` (with the reasons) when it cannot be used here; nothing is paid.
pub async fn install(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    slug: &str,
    may_pay: bool,
) -> Result<Installed, Error> {
    let mut tx = pool.begin().await?;
    install_in(&mut tx, tenant, agent, origin, slug, may_pay).await?;
    tx.commit().await?;
    installed(pool, agent, Some(slug), 1, None).await?.pop().ok_or_else(|| Error::not_found("skill"))
}

/// `install`, in the caller's transaction (an imported agent's skills are installed in the
/// import's). An error before anything is written leaves the transaction usable.
pub async fn install_in(
    tx: &mut PgConnection,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    slug: &str,
    may_pay: bool,
) -> Result<(), Error> {
    let s = sqlx::query!(
        r#"SELECT s.id, s.tenant_id, s.agent_id, s.latest, v.price, v.manifest AS "manifest: sqlx::types::Json<Manifest>"
             FROM skills s JOIN skill_versions v ON v.skill_id = s.id AND v.version = s.latest WHERE s.slug = $1"#,
        slug
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::not_found("skill"))?;
    let availability = gate(&s.manifest.0);
    if !availability.available {
        return Err(Error::Unprocessable {
            code: "skill_unavailable",
            message: format!("`{slug}` cannot be used here: {}", availability.reasons.join("; ")),
            details: Some(json!({ "reasons": availability.reasons })),
        });
    }
    let bought = sqlx::query_scalar!(
        "SELECT price FROM skill_purchases WHERE skill_id = $1 AND agent_id = $2",
        s.id,
        agent as _
    )
    .fetch_optional(&mut *tx)
    .await?;
    if bought.is_none() && s.price > 0 {
        if !may_pay {
            return Err(Error::Refused {
                code: "owner_only",
                message: format!("`{slug}` costs {} credits; only the owner buys skills", s.price),
            });
        }
        buy(tx, tenant, agent, (s.id, s.tenant_id, s.agent_id), (slug, &s.latest), s.price).await?;
    }
    // The owner's install is approved as made; a key's waits for the owner, and so does a key's
    // update to a new version (its text is new); installing the same version again changes nothing.
    let by_owner = matches!(origin.actor, crate::tenancy::auth::Actor::Owner(_));
    sqlx::query!(
        "INSERT INTO skill_installs (agent_id, skill_id, version, approved_at)
         VALUES ($1, $2, $3, CASE WHEN $4 THEN now() END)
         ON CONFLICT (agent_id, skill_id) DO UPDATE SET version = EXCLUDED.version,
             approved_at = CASE WHEN $4 THEN now()
                                WHEN skill_installs.version = EXCLUDED.version THEN skill_installs.approved_at END",
        agent as _,
        s.id,
        s.latest,
        by_owner
    )
    .execute(&mut *tx)
    .await?;
    let paid = if bought.is_none() { s.price } else { 0 };
    let details = json!({ "skill": slug, "version": s.latest, "paid": paid, "approved": by_owner });
    activity::record_agent(&mut *tx, tenant, agent, origin, "skill.installed", details).await?;
    Ok(())
}

/// The purchase: the transfer and its record, in the install's transaction.
async fn buy(
    tx: &mut PgConnection,
    tenant: TenantId,
    agent: AgentId,
    (skill, seller_tenant, seller_agent): (Uuid, Uuid, Option<Uuid>),
    (slug, version): (&str, &str),
    price: i64,
) -> Result<(), Error> {
    let from = credits::account(tx, Holder::Tenant(tenant)).await?;
    let seller = match seller_agent {
        Some(a) => Holder::Agent(TenantId(seller_tenant), AgentId(a)),
        None => Holder::Tenant(TenantId(seller_tenant)),
    };
    let to = credits::account(tx, seller).await?;
    let key = format!("skill:{skill}:agent:{}", agent.0);
    let memo = Some(format!("skill {slug} {version}"));
    let t = credits::transfer(tx, credits::Move { from, to, amount: price, kind: "skill_purchase", memo, key }).await?;
    sqlx::query!(
        "INSERT INTO skill_purchases (skill_id, agent_id, version, price, transfer_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING",
        skill,
        agent as _,
        version,
        price,
        t.id
    )
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The owner approves `version` of a skill a key installed or updated, the version the owner
/// read: from now on it may reach the chat prompt. 404 when the skill is not installed, 409 when
/// the installed version is another (a key updated it since: that text is read first);
/// approving twice is a no-op.
pub async fn approve(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    slug: &str,
    version: &str,
) -> Result<Installed, Error> {
    let mut tx = pool.begin().await?;
    // Locked, so a key's update cannot slip in between the comparison and the approval.
    let installed_version = sqlx::query_scalar!(
        "SELECT i.version FROM skill_installs i JOIN skills s ON s.id = i.skill_id
          WHERE s.slug = $2 AND i.agent_id = $1 FOR UPDATE OF i",
        agent as _,
        slug
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::not_found("installed skill"))?;
    if installed_version != version.trim() {
        return Err(Error::Conflict(format!(
            "version {installed_version} of this skill is installed now, not {}: read it, then approve it by that version",
            version.trim()
        )));
    }
    sqlx::query!(
        "UPDATE skill_installs i SET approved_at = coalesce(i.approved_at, now())
           FROM skills s WHERE i.skill_id = s.id AND s.slug = $2 AND i.agent_id = $1",
        agent as _,
        slug
    )
    .execute(&mut *tx)
    .await?;
    let version = installed_version;
    let details = json!({ "skill": slug, "version": version });
    activity::record_agent(&mut tx, tenant, agent, origin, "skill.approved", details).await?;
    tx.commit().await?;
    installed(pool, agent, Some(slug), 1, None).await?.pop().ok_or_else(|| Error::not_found("installed skill"))
}

/// Removes a skill from an agent (a purchase stays: installing it again is free).
pub async fn uninstall(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    slug: &str,
) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    let removed = sqlx::query!(
        "DELETE FROM skill_installs i USING skills s WHERE i.skill_id = s.id AND s.slug = $2 AND i.agent_id = $1",
        agent as _,
        slug
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if removed == 0 {
        return Err(Error::not_found("installed skill"));
    }
    activity::record_agent(&mut tx, tenant, agent, origin, "skill.uninstalled", json!({ "skill": slug })).await?;
    tx.commit().await?;
    Ok(())
}

/// The agent's installed skills (only `slug` when given), most recently installed first,
/// installed before `before` when given.
pub async fn installed(
    pool: &PgPool,
    agent: AgentId,
    slug: Option<&str>,
    limit: i64,
    before: Option<DateTime<Utc>>,
) -> sqlx::Result<Vec<Installed>> {
    let rows = sqlx::query!(
        r#"SELECT s.slug, s.name, s.description, i.version, s.latest, i.installed_at, i.approved_at,
                  v.manifest AS "manifest: sqlx::types::Json<Manifest>",
                  coalesce((SELECT p.price FROM skill_purchases p WHERE p.skill_id = s.id AND p.agent_id = i.agent_id), 0) AS "paid!"
             FROM skill_installs i JOIN skills s ON s.id = i.skill_id
             JOIN skill_versions v ON v.skill_id = i.skill_id AND v.version = i.version
            WHERE i.agent_id = $1 AND ($2::text IS NULL OR s.slug = $2) AND ($3::timestamptz IS NULL OR i.installed_at < $3)
            ORDER BY i.installed_at DESC LIMIT $4"#,
        agent as _,
        slug,
        before,
        limit
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let m = r.manifest.0;
            Installed {
                slug: r.slug,
                name: r.name,
                description: r.description,
                emoji: m.emoji.clone(),
                version: r.version,
                latest: r.latest,
                triggers: m.triggers.clone(),
                paid: r.paid,
                availability: gate(&m),
                installed_at: r.installed_at,
                approved_at: r.approved_at,
            }
        })
        .collect())
}

/// The installed skills that can be used here and that the owner approved, with their
/// instructions and publisher, for the chat prompt.
pub async fn active(pool: &PgPool, agent: AgentId) -> sqlx::Result<Vec<Active>> {
    static ACTIVE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "SELECT v.body, v.manifest, s.slug, {} AS publisher
               FROM skill_installs i JOIN skill_versions v ON v.skill_id = i.skill_id AND v.version = i.version
               JOIN skills s ON s.id = i.skill_id
              WHERE i.agent_id = $1 AND i.approved_at IS NOT NULL ORDER BY i.installed_at",
            crate::tenancy::agents::sql::name("s.agent_id")
        )
    });
    type Row = (String, sqlx::types::Json<Manifest>, String, Option<String>);
    let rows: Vec<Row> = sqlx::query_as(&ACTIVE).bind(agent).fetch_all(pool).await?;
    Ok(rows
        .into_iter()
        .filter(|(_, m, _, _)| gate(&m.0).available)
        .map(|(body, m, slug, publisher)| {
            let m = m.0;
            Active { name: m.name, emoji: m.emoji, triggers: m.triggers, body, slug, publisher }
        })
        .collect())
}
