//! What the agent's economy shows about it (its PoC reads these): what it sells and how that
//! went, the stakes behind it, and its token.

use sqlx::PgConnection;

use miniclaw_core::ids::AgentId;

/// The agent as a seller: active services, orders settled and refunded, buyers' ratings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seller {
    pub active_services: i64,
    pub settled: i64,
    pub refunded: i64,
    /// The average rating buyers gave when settling, `None` before the first.
    pub rating: Option<f64>,
    pub ratings: i64,
}

pub async fn seller(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<Seller> {
    let r = sqlx::query!(
        r#"SELECT (SELECT count(*) FROM agent_services WHERE agent_id = $1 AND active) AS "services!",
                  (SELECT count(*) FROM service_orders WHERE seller_agent = $1 AND status = 'settled') AS "settled!",
                  (SELECT count(*) FROM service_orders WHERE seller_agent = $1 AND status = 'refunded') AS "refunded!",
                  (SELECT avg(rating)::float8 FROM service_orders WHERE seller_agent = $1 AND rating IS NOT NULL) AS "rating?",
                  (SELECT count(rating) FROM service_orders WHERE seller_agent = $1) AS "ratings!""#,
        agent as _
    )
    .fetch_one(conn)
    .await?;
    Ok(Seller {
        active_services: r.services,
        settled: r.settled,
        refunded: r.refunded,
        rating: r.rating,
        ratings: r.ratings,
    })
}

/// The stakes on the agent: how many ever (pending and failed ones aside), active or
/// validated now, validated, slashed, and the credits staked ever and now.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Backing {
    pub ever: i64,
    pub standing: i64,
    pub validated: i64,
    pub slashed: i64,
    pub volume: i64,
    pub active: i64,
}

pub async fn backing(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<Backing> {
    let r = sqlx::query!(
        r#"SELECT (SELECT count(*) FROM stakes WHERE target_agent = $1 AND status NOT IN ('pending', 'failed')) AS "ever!",
                  (SELECT count(*) FROM stakes WHERE target_agent = $1 AND status IN ('active', 'validated')) AS "standing!",
                  (SELECT count(*) FROM stakes WHERE target_agent = $1 AND status = 'validated') AS "validated!",
                  (SELECT count(*) FROM stakes WHERE target_agent = $1 AND status = 'slashed') AS "slashed!",
                  (SELECT coalesce(sum(amount), 0)::bigint FROM stakes
                    WHERE target_agent = $1 AND asset = 'credits' AND status IN ('active', 'validated')) AS "volume!",
                  (SELECT coalesce(sum(amount), 0)::bigint FROM stakes
                    WHERE target_agent = $1 AND asset = 'credits' AND status = 'active') AS "active!""#,
        agent as _
    )
    .fetch_one(conn)
    .await?;
    Ok(Backing {
        ever: r.ever,
        standing: r.standing,
        validated: r.validated,
        slashed: r.slashed,
        volume: r.volume,
        active: r.active,
    })
}

/// The status of the transaction that deploys the agent's token (`signed`, `confirmed`,
/// `failed`…), `None` when it has no token.
pub async fn token_deployment(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<Option<String>> {
    let tx = sqlx::query_scalar!("SELECT deploy_tx FROM agent_tokens WHERE agent_id = $1", agent as _)
        .fetch_optional(&mut *conn)
        .await?;
    match tx {
        Some(id) => crate::onchain::wallets::transactions::status(conn, id).await,
        None => Ok(None),
    }
}
