//! Signal pools (SPEC I7): a topic's stakes, per asset (credits, or one agent's token), with
//! their summed conviction, validations and slashes, and the agents backed most.

use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::stakes::{check_topic, conviction};
use miniclaw_core::Error;

/// A topic's signal pool in one asset.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Pool {
    pub topic: String,
    /// `credits`, or `token:<address>` for stakes in one agent's token (amounts in whole tokens).
    pub asset: String,
    /// The token's symbol, for a token pool.
    pub symbol: Option<String>,
    pub active_stakes: i64,
    /// Credits (or whole tokens) in active stakes.
    pub staked: i64,
    /// The summed conviction of the active stakes.
    pub conviction: f64,
    pub validated: i64,
    pub slashed: i64,
    /// The agents the pool backs most, by conviction (at most 5).
    pub leaders: Vec<Backed>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Backed {
    pub agent_id: Uuid,
    pub staked: i64,
    pub conviction: f64,
}

/// Signal pools of at most `limit` topics, last topic first (`before`: the topics before that
/// one), each topic's pools together: every topic, or one. With the topic the next page starts
/// before, when there is one.
pub async fn pools(
    pool: &PgPool,
    topic: Option<&str>,
    before: Option<&str>,
    limit: i64,
) -> Result<(Vec<Pool>, Option<String>), Error> {
    let topic = topic.map(check_topic).transpose()?;
    let rows = sqlx::query!(
        r#"WITH page AS (SELECT DISTINCT topic FROM stakes
                          WHERE ($1::text IS NULL OR topic = $1) AND ($2::text IS NULL OR topic < $2)
                          ORDER BY topic DESC LIMIT $3)
           SELECT s.topic, s.target_agent, s.status, s.amount, t.address AS "token?", t.symbol AS "symbol?",
                  (extract(epoch FROM now() - s.created_at) / 86400)::float8 AS "age_days!"
             FROM stakes s JOIN page USING (topic)
             LEFT JOIN agent_tokens t ON s.asset = 'token' AND t.agent_id = s.staker_agent"#,
        topic,
        before,
        limit + 1
    )
    .fetch_all(pool)
    .await?;
    type Pools = std::collections::BTreeMap<(String, String), (Pool, std::collections::HashMap<Uuid, Backed>)>;
    let mut by_topic: Pools = Default::default();
    for r in rows {
        let asset = r.token.as_ref().map_or_else(|| "credits".to_string(), |a| format!("token:{a}"));
        let (p, backed) = by_topic.entry((r.topic.clone(), asset.clone())).or_insert_with(|| {
            let p = Pool {
                topic: r.topic.clone(),
                asset,
                symbol: r.symbol.clone(),
                active_stakes: 0,
                staked: 0,
                conviction: 0.0,
                validated: 0,
                slashed: 0,
                leaders: vec![],
            };
            (p, Default::default())
        });
        match r.status.as_str() {
            "active" => {
                let c = conviction(r.amount, r.age_days);
                p.active_stakes += 1;
                p.staked += r.amount;
                p.conviction += c;
                let b = backed.entry(r.target_agent).or_insert(Backed {
                    agent_id: r.target_agent,
                    staked: 0,
                    conviction: 0.0,
                });
                b.staked += r.amount;
                b.conviction += c;
            }
            "validated" => p.validated += 1,
            "slashed" => p.slashed += 1,
            _ => {}
        }
    }
    let mut out: Vec<Pool> = by_topic
        .into_values()
        .map(|(mut p, backed)| {
            let mut leaders: Vec<Backed> = backed.into_values().collect();
            leaders.sort_by(|a, b| b.conviction.total_cmp(&a.conviction).then(a.agent_id.cmp(&b.agent_id)));
            leaders.truncate(5);
            p.leaders = leaders;
            p
        })
        .collect();
    out.sort_by(|a, b| b.topic.cmp(&a.topic).then(a.asset.cmp(&b.asset)));
    let mut topics: Vec<&str> = out.iter().map(|p| p.topic.as_str()).collect();
    topics.dedup();
    let next = (topics.len() as i64 > limit).then(|| topics[limit as usize - 1].to_string());
    if let Some(last) = &next {
        out.retain(|p| p.topic.as_str() >= last.as_str());
    }
    Ok((out, next))
}
