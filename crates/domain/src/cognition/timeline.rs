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

/// Finds the agent's new milestones; returns how many were added. Each fact comes from the
/// area that records it; the primary key keeps the milestones already found.
pub async fn refresh(pool: &PgPool, agent: AgentId) -> sqlx::Result<u64> {
    let Some(a) = crate::tenancy::agents::by_id(pool, agent).await? else { return Ok(0) };
    let mut found = Found::default();
    found.add("created", "", a.created_at, format!("{} was created", a.name));
    for (n, at) in crate::chat::records::nth_user_message_at(pool, agent, &[1, 100, 1000, 10000]).await? {
        match n {
            1 => found.add("first_conversation", "", at, "First conversation".into()),
            _ => found.add("messages", &n.to_string(), at, format!("{n}th message")),
        }
    }
    for (n, at) in crate::memory::nth_memory_at(pool, agent, &[10, 100, 1000]).await? {
        found.add("memories", &n.to_string(), at, format!("{n} memories"));
    }
    for (version, at, by) in crate::cognition::soul::versions_made(pool, agent).await? {
        let what = if version == 1 { "First soul".to_string() } else { format!("Soul version {version}") };
        found.add("soul_version", &version.to_string(), at, format!("{what} (by {by})"));
    }
    let own = sqlx::query!(
        r#"SELECT (SELECT min(created_at) FROM reflections WHERE agent_id = $1 AND status = 'applied') AS reflected,
                  (SELECT min(updated_at) FROM agent_tasks WHERE agent_id = $1 AND status = 'done') AS task_done"#,
        agent as _
    )
    .fetch_one(pool)
    .await?;
    if let Some(at) = own.reflected {
        found.add("first_reflection", "", at, "First deep reflection".into());
    }
    if let Some(at) = own.task_done {
        found.add("first_task_done", "", at, "First task done".into());
    }
    if let Some(w) = crate::onchain::wallets::get(pool, agent).await? {
        found.add("wallet", "", w.created_at, "Wallet created".into());
    }
    let (installed, published) = crate::social::skills::milestones(pool, agent).await?;
    for (slug, at) in installed {
        found.add("skill_installed", &slug, at, format!("Installed the skill {slug}"));
    }
    for (slug, at) in published {
        found.add("skill_published", &slug, at, format!("Published the skill {slug}"));
    }
    if let Some(at) = crate::social::feed::first_post_at(pool, agent).await? {
        found.add("first_post", "", at, "First post on the feed".into());
    }
    if let Some((at, id)) = crate::onchain::identity::registered_at(pool, agent).await? {
        let id = id.map(|i| i.to_string()).unwrap_or_default();
        found.add("identity_registered", "", at, format!("Registered on ERC-8004 as agentId {id}"));
    }
    for (provider, at) in crate::onchain::verification::first_verified(pool, agent).await? {
        found.add("verified", &provider, at, format!("Verified by {}", provider.replace('_', " ")));
    }
    for (day, grade, at, before) in crate::onchain::poc::grade_changes(pool, agent).await? {
        let from = before.map(|b| format!(" (from {b})")).unwrap_or_default();
        found.add("poc_grade", &day.to_string(), at, format!("Proof of Contribution grade {grade}{from}"));
    }
    let added = sqlx::query!(
        "INSERT INTO agent_milestones (agent_id, kind, key, at, title)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::text[])
         ON CONFLICT (agent_id, kind, key) DO NOTHING",
        agent as _,
        &found.kinds,
        &found.keys,
        &found.ats,
        &found.titles
    )
    .execute(pool)
    .await?
    .rows_affected();
    Ok(added)
}

/// Candidate milestones, column by column for one insert.
#[derive(Default)]
struct Found {
    kinds: Vec<String>,
    keys: Vec<String>,
    ats: Vec<DateTime<Utc>>,
    titles: Vec<String>,
}

impl Found {
    fn add(&mut self, kind: &str, key: &str, at: DateTime<Utc>, title: String) {
        self.kinds.push(kind.to_string());
        self.keys.push(key.to_string());
        self.ats.push(at);
        self.titles.push(title);
    }
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
