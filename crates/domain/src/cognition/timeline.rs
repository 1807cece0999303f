//! The agent's timeline (SPEC S4): milestones found in what the platform already records (the
//! agent's creation, its first conversation, 100th and 1,000th message, 10th and 100th memory,
//! every soul version, its first applied reflection, its first completed task, its wallet, its
//! ERC-8004 registration, human verifications, Proof-of-Contribution grade changes), grouped into
//! monthly chapters. `refresh` adds what is new: each milestone is one row per (kind, key), so
//! finding it again changes nothing, and a milestone's time is when it happened, not when it was
//! found. The daily `timeline` cycle and every read of the timeline refresh it.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;

use miniclaw_core::ids::AgentId;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};

pub const CYCLE: &str = "timeline";

/// One milestone.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct Milestone {
    /// created, first_conversation, messages, memories, soul_version, first_reflection,
    /// first_task_done, wallet, skill_installed, skill_published, first_post, identity_registered,
    /// verified, poc_grade.
    pub kind: String,
    pub key: String,
    pub at: DateTime<Utc>,
    pub title: String,
    /// The chapter it belongs to: its month, e.g. "November 2026" (UTC).
    pub chapter: String,
}

/// A month of milestones.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Chapter {
    /// `YYYY-MM`.
    pub month: String,
    /// e.g. "November 2026".
    pub title: String,
    /// Newest first.
    pub milestones: Vec<Milestone>,
}

/// Finds the agent's new milestones; returns how many were added.
pub async fn refresh(pool: &PgPool, agent: AgentId) -> sqlx::Result<u64> {
    // Every candidate milestone of the agent; the primary key keeps the ones already found.
    let added = sqlx::query!(
        r#"INSERT INTO agent_milestones (agent_id, kind, key, at, title)
           SELECT $1, kind, key, at, title FROM (
             SELECT 'created' AS kind, '' AS key, a.created_at AS at, a.name || ' was created' AS title
               FROM agents a WHERE a.id = $1
             UNION ALL
             SELECT 'first_conversation', '', min(m.created_at), 'First conversation'
               FROM chat_messages m WHERE m.agent_id = $1 AND m.role = 'user' HAVING count(*) > 0
             UNION ALL
             SELECT 'messages', n::text, t, n || 'th message' FROM (
               SELECT n, (SELECT m.created_at FROM chat_messages m WHERE m.agent_id = $1 AND m.role = 'user'
                           ORDER BY m.created_at OFFSET n - 1 LIMIT 1) AS t
                 FROM unnest(ARRAY[100, 1000, 10000]) AS n) x WHERE t IS NOT NULL
             UNION ALL
             SELECT 'memories', n::text, t, n || ' memories' FROM (
               SELECT n, (SELECT mm.created_at FROM agent_memories mm WHERE mm.agent_id = $1
                           ORDER BY mm.created_at OFFSET n - 1 LIMIT 1) AS t
                 FROM unnest(ARRAY[10, 100, 1000]) AS n) x WHERE t IS NOT NULL
             UNION ALL
             SELECT 'soul_version', s.version::text, s.created_at,
                    CASE WHEN s.version = 1 THEN 'First soul' ELSE 'Soul version ' || s.version END
                    || ' (by ' || s.actor_type || ')'
               FROM agent_souls s WHERE s.agent_id = $1
             UNION ALL
             SELECT 'first_reflection', '', min(r.created_at), 'First deep reflection'
               FROM reflections r WHERE r.agent_id = $1 AND r.status = 'applied' HAVING count(*) > 0
             UNION ALL
             SELECT 'first_task_done', '', min(t.updated_at), 'First task done'
               FROM agent_tasks t WHERE t.agent_id = $1 AND t.status = 'done' HAVING count(*) > 0
             UNION ALL
             SELECT 'wallet', '', w.created_at, 'Wallet created' FROM agent_wallets w WHERE w.agent_id = $1
             UNION ALL
             SELECT 'skill_installed', k.slug, i.installed_at, 'Installed the skill ' || k.slug
               FROM skill_installs i JOIN skills k ON k.id = i.skill_id WHERE i.agent_id = $1
             UNION ALL
             SELECT 'skill_published', k.slug, k.created_at, 'Published the skill ' || k.slug FROM skills k WHERE k.agent_id = $1
             UNION ALL
             SELECT 'first_post', '', min(p.created_at), 'First post on the feed'
               FROM feed_posts p WHERE p.agent_id = $1 HAVING count(*) > 0
             UNION ALL
             SELECT 'identity_registered', '', i.registered_at, 'Registered on ERC-8004 as agentId ' || i.erc8004_id
               FROM agent_identities i WHERE i.agent_id = $1 AND i.status = 'registered' AND i.registered_at IS NOT NULL
             UNION ALL
             SELECT 'verified', v.provider, min(v.checked_at), 'Verified by ' || replace(v.provider, '_', ' ')
               FROM verification_records v WHERE v.agent_id = $1 AND v.status = 'verified' GROUP BY v.provider
             UNION ALL
             SELECT 'poc_grade', p.day::text, p.computed_at,
                    'Proof of Contribution grade ' || p.grade || coalesce(' (from ' || p.before || ')', '')
               FROM (SELECT day, grade, computed_at, lag(grade) OVER (ORDER BY day) AS before
                       FROM poc_scores WHERE agent_id = $1) p
              WHERE p.before IS DISTINCT FROM p.grade
           ) found
           ON CONFLICT (agent_id, kind, key) DO NOTHING"#,
        agent as _
    )
    .execute(pool)
    .await?
    .rows_affected();
    Ok(added)
}

/// The agent's milestones, newest first: `limit` of them, before the time `before`.
pub async fn list(
    pool: &PgPool,
    agent: AgentId,
    limit: i64,
    before: Option<DateTime<Utc>>,
) -> sqlx::Result<Vec<Milestone>> {
    sqlx::query_as!(
        Milestone,
        r#"SELECT kind, key, at, title, to_char(at AT TIME ZONE 'UTC', 'FMMonth YYYY') AS "chapter!"
             FROM agent_milestones WHERE agent_id = $1 AND ($3::timestamptz IS NULL OR at < $3)
            ORDER BY at DESC, kind LIMIT $2"#,
        agent as _,
        limit,
        before
    )
    .fetch_all(pool)
    .await
}

/// The agent's milestones in monthly chapters, newest first (at most `limit` milestones).
pub async fn chapters(pool: &PgPool, agent: AgentId, limit: i64) -> sqlx::Result<Vec<Chapter>> {
    let rows = list(pool, agent, limit, None).await?;
    let mut months: BTreeMap<String, Chapter> = BTreeMap::new();
    for m in rows {
        let month = m.at.format("%Y-%m").to_string();
        months
            .entry(month.clone())
            .or_insert_with(|| Chapter { title: m.chapter.clone(), month, milestones: Vec::new() })
            .milestones
            .push(m);
    }
    Ok(months.into_values().rev().collect())
}

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            CYCLE,
            CycleScope::Agent,
            "Timeline (S4), daily: adds the agent's new milestones (reading the timeline does too).",
            |ctx: JobContext| async move {
                let (agent, _) = ctx.agent().await?;
                Ok(json!({ "added": refresh(&ctx.pool, agent).await? }))
            },
        )
        .every(std::time::Duration::from_secs(24 * 3600)),
    ]
}
