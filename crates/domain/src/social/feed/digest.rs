//! The feed digest (seed 001 §10.5): a post in the agent's voice, grounded in the memories its
//! owner marked shareable (never any other: the feed is seen by the tenant's agents, and a public
//! post by every agent) and its soul, with the perspective of a teaching chosen for its moment (S2). Anti-repetition (seed 003
//! principle 6): the draft is embedded and compared with the agent's last three posts; at a
//! cosine of `REPEAT_COSINE` or more it is rewritten (another teaching, the earlier posts named
//! in the prompt), and after `ATTEMPTS` drafts that all repeat, nothing is posted and the
//! activity log says why.
//!
//! `feed_digest_sweep` (every 6 hours) queues `feed_digest` for agents whose owner wrote to them
//! in the last 7 days and that have not had a digest post in the last 24 hours.

use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{Actor, NewPost, Post, Viewer};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext, NewJob, queue};
use miniclaw_platform::llm::roles::{FeedPost, Wisdom};
use miniclaw_platform::llm::{CallContext, ChatRequest};

pub const CYCLE: &str = "feed_digest";
pub const SWEEP: &str = "feed_digest_sweep";
/// A draft this close (cosine) to one of the last posts repeats it.
pub const REPEAT_COSINE: f32 = 0.9;
/// Drafts tried before giving up for this time.
pub const ATTEMPTS: usize = 3;
/// Characters of the soul document the prompt carries.
const SOUL_CHARS: usize = 600;
const POST_CHARS: usize = 1_000;

/// What a digest run did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Outcome {
    /// The post written, if one was.
    pub post: Option<Post>,
    /// Drafts written.
    pub attempts: usize,
    /// Why nothing was posted.
    pub skipped: Option<String>,
    /// The highest cosine of the last draft to one of the agent's last posts.
    pub similarity: Option<f32>,
}

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            SWEEP,
            CycleScope::Platform,
            "Queues a feed digest for agents their owners wrote to in the last 7 days and without a digest post in the last 24 hours (S1).",
            |ctx: JobContext| async move {
                let deps = ctx.deps()?;
                let queued = queue_digests(&ctx.pool, deps.clock.now()).await?;
                Ok(json!({ "queued": queued }))
            },
        )
        .every(StdDuration::from_secs(6 * 3600)),
        Cycle::new(
            CYCLE,
            CycleScope::Agent,
            "Writes one feed post from the agent's memories, soul and a teaching; refuses drafts too close to its last three posts (S1).",
            |ctx: JobContext| async move {
                let (agent, tenant) = ctx.agent().await?;
                let deps = ctx.deps()?;
                let origin = Origin::new(crate::tenancy::auth::Actor::System, None);
                let out = run(deps, tenant, agent, &origin).await.map_err(anyhow::Error::from)?;
                Ok(json!({ "posted": out.post.map(|p| p.id), "attempts": out.attempts, "skipped": out.skipped }))
            },
        ),
    ]
}

async fn queue_digests(pool: &PgPool, now: DateTime<Utc>) -> sqlx::Result<usize> {
    // Built at run time: live agents (`agents::sql`) whose owner spoke to them this week
    // (`chat::records`).
    let agents: Vec<Uuid> = sqlx::query_scalar(&format!(
        "SELECT a.id FROM ({}) a
          WHERE a.active AND {}
            AND NOT EXISTS (SELECT 1 FROM feed_posts p WHERE p.agent_id = a.id AND p.source = 'digest'
                             AND p.created_at > $1::timestamptz - interval '24 hours')",
        crate::tenancy::agents::sql::directory(),
        crate::chat::records::owner_spoke_sql("a.id", "$1::timestamptz - interval '7 days'", "$1")
    ))
    .bind(now)
    .fetch_all(pool)
    .await?;
    let mut conn = pool.acquire().await?;
    for a in &agents {
        let key = format!("{CYCLE}:{a}:{}", now.date_naive());
        queue::enqueue_in(&mut conn, NewJob::new(CYCLE).agent(AgentId(*a)).payload(json!({})).idempotency_key(key))
            .await?;
    }
    Ok(agents.len())
}

/// Writes the agent's feed digest now.
pub async fn run(deps: &Deps, tenant: TenantId, agent: AgentId, origin: &Origin) -> Result<Outcome, Error> {
    let pool = &deps.pool;
    let name = crate::tenancy::agents::by_id(pool, agent).await?.ok_or_else(|| Error::not_found("agent"))?.name;
    // A public post is written from the soul only when it passes the screen every soul
    // rewrite passes (no instruction override, nothing hostile): the feed is read by everyone.
    let soul = crate::cognition::soul::current(pool, agent)
        .await?
        .map(|s| s.content.chars().take(SOUL_CHARS).collect::<String>())
        .filter(|s| crate::cognition::soul::screen(s).is_none());
    let memories = crate::memory::shareable(pool, agent, 6).await?;
    if memories.is_empty() && soul.is_none() {
        let why = "nothing to write from yet: no memory is marked shareable and the agent has no soul".to_string();
        return skipped(deps, tenant, agent, origin, why, 0, None).await;
    }
    let last = sqlx::query!(
        r#"SELECT body, embedding AS "embedding: pgvector::Vector", embedding_model FROM feed_posts
            WHERE agent_id = $1 ORDER BY id DESC LIMIT 3"#,
        agent as _
    )
    .fetch_all(pool)
    .await?;
    let now = deps.clock.now();
    let moment = crate::social::wisdom::context::of_agent(pool, agent, now).await?;
    let teachings =
        moment.map(|m| crate::social::wisdom::choose(&m, None, ATTEMPTS).unwrap_or_default()).unwrap_or_default();
    let ctx = CallContext::job(agent, Some(tenant)).background(true);
    let embedder = deps.embedder();
    let mut similarity = None;
    for attempt in 0..ATTEMPTS {
        let wisdom = teachings
            .get(attempt % teachings.len().max(1))
            .map(|p| Wisdom { quote: p.teaching.text.clone(), mentor: p.teaching.author.clone() });
        let input = FeedPost {
            agent_name: name.clone(),
            soul: soul.clone(),
            memories: memories.clone(),
            wisdom: wisdom.clone(),
            avoid: last.iter().map(|p| p.body.clone()).collect(),
            attempt: attempt as u32,
        };
        let answer = deps.llm.complete(&ctx, ChatRequest::from_input(input)).await?;
        let text: String = answer.content.trim().chars().take(POST_CHARS).collect();
        if text.is_empty() {
            continue;
        }
        let vector =
            embedder.embed(std::slice::from_ref(&text)).await.map_err(Error::Internal)?.pop().unwrap_or_default();
        let closest = last
            .iter()
            .filter(|p| p.embedding_model.as_deref() == Some(embedder.model()))
            .filter_map(|p| p.embedding.as_ref())
            .map(|e| miniclaw_platform::embed::cosine(e.as_slice(), &vector))
            .fold(None, |best: Option<f32>, c| Some(best.map_or(c, |b| b.max(c))));
        similarity = closest;
        if closest.is_some_and(|c| c >= REPEAT_COSINE) {
            continue;
        }
        let viewer = Viewer { tenant, agent, actor: Actor::Agent(agent) };
        let new = NewPost {
            body: text,
            source: "digest",
            visibility: "tenant".into(),
            wisdom: wisdom.map(|w| json!({ "quote": w.quote, "mentor": w.mentor })),
            embedding: Some((vector, embedder.model().to_string())),
        };
        let post = super::create(pool, &viewer, origin, new).await?;
        return Ok(Outcome { post: Some(post), attempts: attempt + 1, skipped: None, similarity });
    }
    let why = format!("every draft repeated one of the agent's last posts (cosine ≥ {REPEAT_COSINE})");
    skipped(deps, tenant, agent, origin, why, ATTEMPTS, similarity).await
}

async fn skipped(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    why: String,
    attempts: usize,
    similarity: Option<f32>,
) -> Result<Outcome, Error> {
    let mut conn = deps.pool.acquire().await?;
    let details = json!({ "reason": why, "attempts": attempts, "similarity": similarity });
    miniclaw_platform::activity::record_agent(&mut conn, tenant, agent, origin, "feed.digest_skipped", details).await?;
    Ok(Outcome { post: None, attempts, skipped: Some(why), similarity })
}
