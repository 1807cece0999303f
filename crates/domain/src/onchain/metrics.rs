//! The on-chain area's figures for the analytics verticals (D5): trust (human verification),
//! economy (wallets, identities, sends, tokens, tips, orders, stakes) and reputation (PoC scores,
//! stakes on agents), for one tenant's agents or the whole platform's (`tenant` `None`).

use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

use crate::tenancy::agents::sql::{in_scope, of_tenant};

/// One row of `sql`, whose `$1` is the tenant (`NULL`: the platform).
async fn of_scope<T>(pool: &PgPool, tenant: Option<Uuid>, sql: &str) -> sqlx::Result<T>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    sqlx::query_as(sql).bind(tenant).fetch_one(pool).await
}

#[derive(sqlx::FromRow)]
pub struct Trust {
    /// Live agents whose latest record of some provider says `verified`.
    pub verified_agents: i64,
    /// Every record, deleted agents' included.
    pub verification_records: i64,
    pub by_provider: Option<Value>,
    /// Talent Protocol scores of verified agents, in bands.
    pub talent_bands: Option<Value>,
}

pub async fn trust(pool: &PgPool, tenant: Option<Uuid>) -> sqlx::Result<Trust> {
    let sql = format!(
        "WITH latest AS (
            SELECT DISTINCT ON (v.agent_id, v.provider) v.agent_id, v.provider, v.status, v.score
              FROM verification_records v WHERE v.agent_id IN ({live})
             ORDER BY v.agent_id, v.provider, v.checked_at DESC, v.id DESC)
         SELECT (SELECT count(DISTINCT agent_id) FROM latest WHERE status = 'verified') AS verified_agents,
                (SELECT count(*) FROM verification_records v WHERE v.agent_id IN ({any})) AS verification_records,
                (SELECT jsonb_object_agg(provider, n) FROM (SELECT provider, count(*) AS n FROM latest
                  WHERE status = 'verified' GROUP BY provider) p) AS by_provider,
                (SELECT jsonb_object_agg(band, n) FROM (SELECT CASE WHEN score < 25 THEN '0-25' WHEN score < 50 THEN '25-50'
                      WHEN score < 75 THEN '50-75' WHEN score < 100 THEN '75-100' ELSE '100+' END AS band, count(*) AS n
                   FROM latest WHERE provider = 'talent_protocol' AND status = 'verified' AND score IS NOT NULL
                  GROUP BY 1) b) AS talent_bands",
        live = in_scope("$1"),
        any = of_tenant("$1"),
    );
    of_scope(pool, tenant, &sql).await
}

#[derive(sqlx::FromRow)]
pub struct Economy {
    pub wallets: i64,
    pub owner_held: i64,
    pub identities: i64,
    /// Registered identities whose owner is not the agent's own wallet (the sponsor paid).
    pub sponsored: i64,
    /// Confirmed sends, deleted agents' included.
    pub sends: i64,
    /// Agent tokens deployed (an address on chain).
    pub tokens: i64,
    /// Tips paid by the scope, by status.
    pub tips: Option<Value>,
    /// Service orders the scope bought or sold, by status.
    pub orders: Option<Value>,
    /// Stakes the scope placed, by status.
    pub stakes: Option<Value>,
}

pub async fn economy(pool: &PgPool, tenant: Option<Uuid>) -> sqlx::Result<Economy> {
    let sql = format!(
        "SELECT
            (SELECT count(*) FROM agent_wallets WHERE agent_id IN ({live})) AS wallets,
            (SELECT count(*) FROM agent_external_wallets WHERE agent_id IN ({live})) AS owner_held,
            (SELECT count(*) FROM agent_identities WHERE status = 'registered' AND agent_id IN ({live})) AS identities,
            (SELECT count(*) FROM agent_identities i LEFT JOIN agent_wallets w ON w.agent_id = i.agent_id
              WHERE i.status = 'registered' AND i.agent_id IN ({live}) AND i.owner_address IS DISTINCT FROM w.address)
              AS sponsored,
            (SELECT count(*) FROM wallet_transactions
              WHERE purpose = 'send' AND status = 'confirmed' AND agent_id IN ({any})) AS sends,
            (SELECT count(*) FROM agent_tokens WHERE address IS NOT NULL AND agent_id IN ({live})) AS tokens,
            (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM tips
              WHERE $1::uuid IS NULL OR tenant_id = $1 GROUP BY status) t) AS tips,
            (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM service_orders
              WHERE $1::uuid IS NULL OR buyer_tenant = $1 OR seller_tenant = $1 GROUP BY status) o) AS orders,
            (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM stakes
              WHERE $1::uuid IS NULL OR tenant_id = $1 GROUP BY status) k) AS stakes",
        live = in_scope("$1"),
        any = of_tenant("$1"),
    );
    of_scope(pool, tenant, &sql).await
}

#[derive(sqlx::FromRow)]
pub struct Reputation {
    /// Live agents with a PoC score.
    pub scored: i64,
    pub avg_total: Option<f64>,
    pub grades: Option<Value>,
    pub dimensions: Option<Value>,
    /// Stakes on the scope's agents, by status (validated and slashed are reputation events).
    pub stakes_on_agents: Option<Value>,
}

pub async fn reputation(pool: &PgPool, tenant: Option<Uuid>) -> sqlx::Result<Reputation> {
    let sql = format!(
        "WITH latest AS (
            SELECT DISTINCT ON (p.agent_id) p.agent_id, p.total, p.grade, p.dimensions
              FROM poc_scores p WHERE p.agent_id IN ({live})
             ORDER BY p.agent_id, p.day DESC)
         SELECT (SELECT count(*) FROM latest) AS scored,
                (SELECT avg(total)::float8 FROM latest) AS avg_total,
                (SELECT jsonb_object_agg(grade, n) FROM (SELECT grade, count(*) AS n FROM latest GROUP BY grade) g) AS grades,
                (SELECT jsonb_object_agg(k, round(a::numeric, 1)) FROM (SELECT d.key AS k, avg(d.value::float8) AS a
                   FROM latest, jsonb_each_text(latest.dimensions) d GROUP BY d.key) x) AS dimensions,
                (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM stakes
                   WHERE target_agent IN ({live}) GROUP BY status) k) AS stakes_on_agents",
        live = in_scope("$1"),
    );
    of_scope(pool, tenant, &sql).await
}
