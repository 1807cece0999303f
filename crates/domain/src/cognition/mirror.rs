//! Access patterns (SPEC X11, seed 004): every retrieval leaves an access event (the chat
//! turn's in the statement that finishes it, a search's beside its hit record), and a nightly
//! mirror per agent reads the last 30 days of them:
//!
//! - **hot** memories by access energy, `Σ 0.5^(hours since the access / 168)`;
//! - **gaps**: queries that found nothing scoring at least `GAP_SCORE`;
//! - **friction**: the same query (normalised) asked again;
//! - **resonance**: pairs retrieved together in at least two conversations;
//! - **promotion**: a live memory accessed ≥ 5 times across ≥ 3 conversations, not pinned, is
//!   pinned (chat puts pinned memories in its certain section first); demotion is never
//!   automatic, but when the pinned memories outweigh `PINNED_CHARS_MAX` characters the owner
//!   is notified to review them;
//! - **swamps**: a hot memory of at least `SWAMP_WORDS` words with fewer than 5 bullets and
//!   headings per 100 words is split into focused chunks (each embedded, a DERIVES relation to
//!   the original, which is archived with a `split` version and kept).
//!
//! Events are kept `RETENTION_DAYS` days (the daily `access_retention` cycle deletes older
//! ones): at a 168-hour half-life an access that old weighs under 5 %.

use miniclaw_core::ids::{AgentId, MemoryId, TenantId};

use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::memory::lifecycle::{self, Aside};
use crate::memory::{self, MemoryPatch, NewMemory};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;

pub const RETENTION_DAYS: i32 = 30;
pub const HALF_LIFE_HOURS: f64 = 168.0;
/// A query whose best result scores below this found nothing useful.
pub const GAP_SCORE: f32 = 0.3;
pub const PROMOTE_ACCESSES: i64 = 5;
pub const PROMOTE_CONVERSATIONS: i64 = 3;
/// At most this many promotions per night.
const PROMOTE_MAX: usize = 10;
/// Characters of pinned memories beyond which the owner is asked to review them.
pub const PINNED_CHARS_MAX: i64 = 4_000;
pub const SWAMP_WORDS: usize = 60;
/// Bullets and headings per 100 words below which a long memory is a swamp.
pub const SWAMP_STRUCTURE: f64 = 5.0;
/// Energy at which a memory is hot enough to split.
pub const SWAMP_ENERGY: f64 = 1.0;
const CHUNK_CHARS: usize = 200;
const LISTED: i64 = 10;

/// Bullets and headings per 100 words (a swamp has fewer than 5).
pub fn structure_ratio(text: &str) -> f64 {
    let words = text.split_whitespace().count();
    if words == 0 {
        return 0.0;
    }
    let marks = text
        .lines()
        .map(str::trim_start)
        .filter(|l| {
            l.starts_with('#')
                || l.starts_with("- ")
                || l.starts_with("* ")
                || l.starts_with("• ")
                || l.split_once(". ").is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
        .count();
    marks as f64 * 100.0 / words as f64
}

/// Whether a memory's text is a swamp: long and flat.
pub fn is_swamp(text: &str) -> bool {
    text.split_whitespace().count() >= SWAMP_WORDS && structure_ratio(text) < SWAMP_STRUCTURE
}

pub use crate::memory::access::{Asked, Hot, Resonance};

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Split {
    pub memory_id: MemoryId,
    pub chunks: Vec<MemoryId>,
}

/// One night's mirror of an agent.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct MirrorReport {
    pub events: i64,
    pub hot: Vec<Hot>,
    pub gaps: Vec<Asked>,
    pub friction: Vec<Asked>,
    pub resonance: Vec<Resonance>,
    /// Memories pinned tonight.
    pub promoted: Vec<MemoryId>,
    pub swamps_split: Vec<Split>,
    /// Characters of pinned live memories, and whether the owner was asked to review them.
    pub pinned_chars: i64,
    pub review_requested: bool,
}

/// A stored mirror.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Mirror {
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub report: MirrorReport,
}

/// The mirror of one agent: reads its access events, promotes, splits hot swamps, asks for a
/// review when the pinned memories weigh too much, and stores the report.
pub async fn run(deps: &Deps, tenant_id: TenantId, agent_id: AgentId, origin: &Origin) -> anyhow::Result<MirrorReport> {
    let pool = &deps.pool;
    let mut report = read(pool, agent_id).await?;
    // Promotion: used often, in several conversations.
    let window = memory::access::Window { agent_id, days: RETENTION_DAYS };
    let candidates =
        memory::access::often_used(pool, window, PROMOTE_ACCESSES, PROMOTE_CONVERSATIONS, PROMOTE_MAX as i64).await?;
    for id in candidates {
        let mut tx = pool.begin().await?;
        let patch = MemoryPatch { pinned: Some(true), ..MemoryPatch::default() };
        let reason = format!(
            "promoted by the mirror: retrieved {PROMOTE_ACCESSES}+ times across {PROMOTE_CONVERSATIONS}+ conversations"
        );
        memory::update(&mut tx, agent_id, id, origin, patch, Some(&reason)).await?;
        tx.commit().await?;
        report.promoted.push(id);
    }
    // Swamps among the hot memories.
    for hot in report.hot.clone() {
        if hot.energy < SWAMP_ENERGY || !is_swamp(&hot.content) {
            continue;
        }
        if let Some(split) = split(deps, agent_id, hot.memory_id, origin).await? {
            report.swamps_split.push(split);
        }
    }
    // The weight of the pinned context.
    report.pinned_chars = memory::pinned_chars(pool, agent_id).await?;
    let mut tx = pool.begin().await?;
    if report.pinned_chars > PINNED_CHARS_MAX {
        let body = format!(
            "Your agent's pinned memories hold {} characters (more than {PINNED_CHARS_MAX}); every chat turn carries \
             them first. Review them in the Memories tab and unpin what no longer needs to be there: nothing is \
             unpinned automatically.",
            report.pinned_chars
        );
        let key = format!("memory_review:{}", chrono::Utc::now().format("%G-W%V"));
        let sent = crate::channels::notifications::notify(
            &mut tx,
            agent_id,
            crate::channels::notifications::Kind::MemoryReview,
            "Pinned memories to review",
            &body,
            Some(&key),
        )
        .await?;
        report.review_requested = sent.is_some();
    }
    sqlx::query!(
        "INSERT INTO agent_mirrors (agent_id, id, report) VALUES ($1, $2, $3)",
        agent_id as _,
        Uuid::now_v7(),
        serde_json::to_value(&report)?
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "DELETE FROM agent_mirrors WHERE agent_id = $1 AND id NOT IN
           (SELECT id FROM agent_mirrors WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 30)",
        agent_id as _
    )
    .execute(&mut *tx)
    .await?;
    miniclaw_platform::activity::record_agent(
        &mut tx,
        tenant_id,
        agent_id,
        origin,
        "memory.mirror",
        json!({ "promoted": report.promoted, "split": report.swamps_split.len(), "gaps": report.gaps.len() }),
    )
    .await?;
    tx.commit().await?;
    Ok(report)
}

/// The read-only half of the mirror.
async fn read(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<MirrorReport> {
    use crate::memory::access::{self, Window};
    let w = Window { agent_id, days: RETENTION_DAYS };
    Ok(MirrorReport {
        events: access::events(pool, w).await?,
        hot: access::hot(pool, w, HALF_LIFE_HOURS, LISTED).await?,
        gaps: access::gaps(pool, w, GAP_SCORE, LISTED).await?,
        friction: access::asked_again(pool, w, 2, LISTED).await?,
        resonance: access::resonance(pool, w, LISTED).await?,
        ..MirrorReport::default()
    })
}

/// Splits a swamp into focused memories (each embedded, deriving from it) and archives it.
/// `None` when it is no longer live, is pinned, or does not split into two or more.
async fn split(deps: &Deps, agent_id: AgentId, id: MemoryId, origin: &Origin) -> anyhow::Result<Option<Split>> {
    let mut tx = deps.pool.begin().await?;
    let Some(m) = memory::lock_live(&mut tx, agent_id, id).await?.filter(|m| !m.pinned) else {
        return Ok(None);
    };
    let chunks = memory::knowledge::chunk(&m.content, CHUNK_CHARS);
    if chunks.len() < 2 {
        return Ok(None);
    }
    let vectors = match deps.embedder.embed(&chunks).await {
        Ok(v) => v.into_iter().map(|v| Some((v, deps.embedder.model().to_string()))).collect(),
        Err(e) => {
            tracing::warn!(error = %e, "mirror: split chunks wait for the embedding job");
            vec![None; chunks.len()]
        }
    };
    let reason = format!("split from memory {id}: a hot memory without structure");
    let mut made = Vec::new();
    for (text, embedding) in chunks.into_iter().zip(vectors) {
        let new = NewMemory {
            confidence: m.confidence,
            importance: m.importance,
            embedding,
            ..NewMemory::new(text, m.category.clone(), memory::MemorySource::Derived)
        };
        let chunk = memory::create(&mut tx, agent_id, origin, new, Some(&reason)).await?;
        memory::supersede::relate(&mut tx, agent_id, chunk.id, id, "derives", "a focused part of it").await?;
        made.push(chunk.id);
    }
    let why = format!("split into {} focused memories by the mirror", made.len());
    lifecycle::set_aside(&mut tx, agent_id, id, Aside::Split, origin, &why).await?;
    tx.commit().await?;
    Ok(Some(Split { memory_id: id, chunks: made }))
}

/// The newest mirror of the agent.
pub async fn latest(pool: &PgPool, agent_id: AgentId) -> anyhow::Result<Option<Mirror>> {
    let row = sqlx::query!(
        "SELECT created_at, report FROM agent_mirrors WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1",
        agent_id as _
    )
    .fetch_optional(pool)
    .await?;
    Ok(match row {
        Some(r) => Some(Mirror { created_at: r.created_at, report: serde_json::from_value(r.report)? }),
        None => None,
    })
}

/// Deletes access events past the retention. Returns how many.
pub async fn retention(pool: &PgPool) -> sqlx::Result<u64> {
    memory::access::prune(pool, RETENTION_DAYS).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_flat_memory_is_a_swamp_and_a_structured_one_is_not() {
        let flat = "word ".repeat(80);
        assert!(is_swamp(&flat));
        assert!(!is_swamp("a short note"));
        let structured: String =
            (0..10).map(|i| format!("- item {i} with four words\n")).collect::<String>() + &"x ".repeat(30);
        assert!(structure_ratio(&structured) >= SWAMP_STRUCTURE, "{}", structure_ratio(&structured));
        assert!(!is_swamp(&structured));
        assert_eq!(structure_ratio(""), 0.0);
        assert!((structure_ratio("# Title\nsome words here\n1. one\n2. two") - 3.0 * 100.0 / 9.0).abs() < 1e-9);
    }
}
