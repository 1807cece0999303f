//! Quality evaluation (D3, 001 §9.4.12): once a day, up to ten of the agent's exchanges of the
//! last day are judged by the `quality_eval` role on relevance (30 %), coherence (25 %),
//! personality alignment (25 %) and context use (20 %), 1–10 each, with the judge's reasoning.
//! The overall score is computed here from the four (a judge's own arithmetic is not trusted).
//! Without a model the offline engine's heuristic judges, and every row says `heuristic`. The
//! calls are background calls: budgets and the kill switch apply as to any other.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};
use miniclaw_platform::llm::roles::QualityEval;
use miniclaw_platform::llm::{CallContext, ChatRequest, Engine};

pub const CYCLE: &str = "quality_eval";
/// Exchanges judged per agent and run.
pub const PER_RUN: i64 = 10;
/// relevance, coherence, personality, context utilisation.
pub const WEIGHTS: [f64; 4] = [0.30, 0.25, 0.25, 0.20];

/// One judged exchange.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct Evaluation {
    pub message_id: Uuid,
    pub reply_id: Uuid,
    pub exchanged_at: DateTime<Utc>,
    pub relevance: i16,
    pub coherence: i16,
    pub personality: i16,
    pub context_utilization: i16,
    /// The weighted average of the four (1–10).
    pub overall: f64,
    pub reasoning: String,
    /// `model` or `heuristic` (the offline engine's rules).
    pub judge: String,
    pub model: String,
    pub created_at: DateTime<Utc>,
}

/// The four scores of a judge's answer, each clamped to 1–10, and its reasoning; `None` when the
/// answer is not the JSON object asked for.
pub fn parse(answer: &str) -> Option<([i16; 4], String)> {
    let v: Value = serde_json::from_str(answer.trim()).ok()?;
    let score = |k: &str| v.get(k)?.as_f64().filter(|x| x.is_finite()).map(|x| x.round().clamp(1.0, 10.0) as i16);
    let scores = [score("relevance")?, score("coherence")?, score("personality")?, score("context_utilization")?];
    let reasoning = v.get("reasoning").and_then(Value::as_str).unwrap_or("").chars().take(2000).collect();
    Some((scores, reasoning))
}

/// The weighted average of the four scores, to two decimals.
pub fn overall(scores: [i16; 4]) -> f64 {
    let sum: f64 = scores.iter().zip(WEIGHTS).map(|(s, w)| f64::from(*s) * w).sum();
    (sum * 100.0).round() / 100.0
}

#[derive(sqlx::FromRow)]
struct Pair {
    message_id: Uuid,
    reply_id: Uuid,
    created_at: DateTime<Utc>,
    question: String,
    reply: String,
    meta: serde_json::Value,
}

/// Judges up to `PER_RUN` exchanges of the last 24 hours not judged yet. Returns how many were
/// stored and how many answers were unusable.
pub async fn run(deps: &Deps, agent: AgentId, tenant: TenantId) -> anyhow::Result<Value> {
    let pool = &deps.pool;
    // Built at run time: the messages are read through `chat::records`.
    let pairs: Vec<Pair> = sqlx::query_as(&format!(
        "SELECT c.message_id, c.reply_id, c.created_at, u.content AS question, r.content AS reply, r.meta
           FROM chat_analytics c
           CROSS JOIN LATERAL ({question}) u
           CROSS JOIN LATERAL ({reply}) r
          WHERE c.agent_id = $1 AND c.reply_id IS NOT NULL AND c.created_at > now() - interval '24 hours'
            AND r.status = 'complete'
            AND NOT EXISTS (SELECT 1 FROM quality_evaluations q WHERE q.agent_id = c.agent_id AND q.message_id = c.message_id)
          ORDER BY c.created_at DESC LIMIT $2",
        question = crate::chat::records::message_sql("c.agent_id", "c.message_id"),
        reply = crate::chat::records::message_sql("c.agent_id", "c.reply_id"),
    ))
    .bind(agent)
    .bind(PER_RUN)
    .fetch_all(pool)
    .await?;
    if pairs.is_empty() {
        return Ok(json!({ "judged": 0, "skipped": "no new exchanges in the last 24 hours" }));
    }
    let soul = crate::cognition::soul::current(pool, agent).await?.map(|s| s.content);
    let (mut judged, mut unusable) = (0, 0);
    for p in pairs {
        let context = p.meta["memories_used"]
            .as_array()
            .map(|m| m.iter().filter_map(|x| x["content"].as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let input = QualityEval { user: p.question, assistant: p.reply, soul: soul.clone(), context };
        let answer = deps.llm.complete(&CallContext::job(agent, Some(tenant)), ChatRequest::from_input(input)).await?;
        let Some((scores, reasoning)) = parse(&answer.content) else {
            unusable += 1;
            continue;
        };
        let judge = match answer.engine {
            Engine::Model => "model",
            Engine::Offline => "heuristic",
        };
        sqlx::query!(
            "INSERT INTO quality_evaluations (agent_id, message_id, reply_id, exchanged_at, relevance, coherence,
                    personality, context_utilization, overall, reasoning, judge, model)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (agent_id, message_id) DO NOTHING",
            agent as _,
            p.message_id,
            p.reply_id,
            p.created_at,
            scores[0],
            scores[1],
            scores[2],
            scores[3],
            overall(scores),
            reasoning,
            judge,
            answer.model
        )
        .execute(pool)
        .await?;
        judged += 1;
    }
    Ok(json!({ "judged": judged, "unusable_answers": unusable }))
}

/// The mean overall score of the exchanges of `[from, to)`; `None` without evaluations.
pub async fn average(
    pool: &PgPool,
    agent: AgentId,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> sqlx::Result<Option<f64>> {
    let avg = sqlx::query_scalar!(
        "SELECT avg(overall) FROM quality_evaluations WHERE agent_id = $1 AND exchanged_at >= $2 AND exchanged_at < $3",
        agent as _,
        from,
        to
    )
    .fetch_one(pool)
    .await?;
    Ok(avg.map(|a| (a * 100.0).round() / 100.0))
}

/// The agent's evaluations, newest exchange first, at most `limit`, before `before`.
pub async fn list(pool: &PgPool, agent: AgentId, limit: i64, before: Option<Uuid>) -> sqlx::Result<Vec<Evaluation>> {
    sqlx::query_as!(
        Evaluation,
        "SELECT message_id, reply_id, exchanged_at, relevance, coherence, personality, context_utilization, overall,
                reasoning, judge, model, created_at
           FROM quality_evaluations WHERE agent_id = $1 AND ($3::uuid IS NULL OR message_id < $3)
          ORDER BY message_id DESC LIMIT $2",
        agent as _,
        limit,
        before
    )
    .fetch_all(pool)
    .await
}

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            CYCLE,
            CycleScope::Agent,
            "Quality evaluation (D3), daily: judges up to ten of the last day's exchanges (offline: a labelled heuristic).",
            |ctx: JobContext| async move {
                let (agent, tenant) = ctx.agent().await?;
                run(ctx.deps()?, agent, tenant).await
            },
        )
        .every(std::time::Duration::from_secs(24 * 3600)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_clamped_and_weighted_here() {
        let (s, r) = parse(r#"{"relevance": 9, "coherence": 8, "personality": 12, "context_utilization": 0.2, "overall": 10, "reasoning": "ok"}"#)
            .unwrap();
        assert_eq!((s, r.as_str()), ([9, 8, 10, 1], "ok"));
        // 9·0.30 + 8·0.25 + 10·0.25 + 1·0.20 = 7.4, whatever the judge said.
        assert_eq!(overall(s), 7.4);
        assert!(parse("not json").is_none());
        assert!(parse(r#"{"relevance": 9}"#).is_none());
        assert!(
            parse(r#"{"relevance": "high", "coherence": 8, "personality": 8, "context_utilization": 8}"#).is_none()
        );
    }
}
