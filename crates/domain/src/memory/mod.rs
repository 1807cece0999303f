//! Agent memory (SPEC §5): the store with its history (R1, R7), BM25 postings (`terms`),
//! vectors (`vector`), hybrid search (`search`), write-side hygiene (`hygiene`), knowledge
//! ingestion (`knowledge`) and the scoring functions (`score`). Every write goes through the
//! functions here, inside the caller's transaction, so the postings and the version history
//! (each change, who made it and why) always agree with the row. The statement that records a
//! version also puts the write in the agent's activity log (`memory.created`, `.updated`,
//! `.replaced`, `.forgotten`: the memory's id, category, source and who; never its text) and
//! makes its webhook deliveries; a mention (the same fact said again) is a version only.

pub mod access;
pub mod activation;
mod candidate;
pub mod graph;
mod hits;
pub mod hygiene;
pub mod ingest;
pub mod knowledge;
pub mod lifecycle;
pub mod people;
pub mod portable;
mod reader;
pub mod reembed;
pub mod score;
pub mod search;
pub mod sql;
mod store;
pub mod supersede;
pub mod terms;
pub mod vector;
pub mod when;

pub use candidate::*;
pub use hits::*;
pub use reader::{Reader, reachable};
pub use store::*;

use chrono::{DateTime, Utc};
use miniclaw_core::ids::{AgentId, MemoryId};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;

pub const MAX_CONTENT_CHARS: usize = 5000;
pub use miniclaw_core::vocabulary::{Category, MemorySource, MemoryStatus};
/// The strings of `MemorySource::LEARNED`, for SQL filters.
pub const LEARNED_SOURCES: [&str; 6] = MemorySource::names(MemorySource::LEARNED);

/// One memory as the API shows it (the vector itself stays in the database).
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Memory {
    pub id: MemoryId,
    pub agent_id: AgentId,
    pub content: String,
    pub title: Option<String>,
    /// identity, goal, preference, interest, context, insight, knowledge, ...
    pub category: String,
    pub source: MemorySource,
    pub confidence: f32,
    /// 0–10, default 5.
    pub importance: f32,
    pub mention_count: i32,
    pub last_mentioned_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub status: MemoryStatus,
    pub pinned: bool,
    /// The owner marked it shareable: the feed digest may write from it (nothing else is ever
    /// put in a post).
    pub shareable: bool,
    /// Set when a newer fact contradicted this one; such memories stay in history only.
    pub invalid_at: Option<DateTime<Utc>>,
    /// The model of the stored vector; `null` while the memory waits to be embedded.
    pub embedding_model: Option<String>,
    pub knowledge_id: Option<Uuid>,
    pub source_url: Option<String>,
    pub last_retrieved_at: Option<DateTime<Utc>>,
    /// How often search and chat retrieved it (X2's access frequency).
    pub access_count: i32,
    /// When forgetting archived it (X2): such memories are pruned after `lifecycle::PRUNE_AFTER_DAYS`.
    pub faded_at: Option<DateTime<Utc>>,
    /// When it was said or happened (default: when it was stored); time filters and relative
    /// dates in queries ("last week") use it.
    pub occurred_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The end user it was learned from (SPEC H1): only they and the owner see it. `null`: the
    /// agent's own knowledge, shared with everyone who talks to it.
    pub end_user: Option<String>,
}

/// The columns of `Memory`, for the statements built at run time (`query_memories!` lists the
/// same columns for the compile-checked ones).
pub(crate) const COLUMNS: &str =
    "id, agent_id, content, title, category, source, confidence, importance, mention_count,
    last_mentioned_at, expires_at, status, pinned, shareable, invalid_at, embedding_model, knowledge_id, source_url,
    last_retrieved_at, access_count, faded_at, occurred_at, created_at, updated_at, end_user";

/// `sqlx::query_as!` for a statement that returns whole memories: `$head`, the columns of
/// `Memory`, then `$tail`; the arguments follow. The columns are those of `COLUMNS`, written as
/// the macro needs them: a literal, typed, and with the struct's nullability (so that the rows of
/// `agent_memories_newest`, whose nullability the check cannot see, fit too).
macro_rules! query_memories {
    ($head:literal, $tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            $crate::memory::Memory,
            $head
                + r#" id AS "id!", agent_id AS "agent_id!", content AS "content!", title, category AS "category!",
                source AS "source!: crate::memory::MemorySource", confidence AS "confidence!",
                importance AS "importance!", mention_count AS "mention_count!", last_mentioned_at, expires_at,
                status AS "status!: crate::memory::MemoryStatus", pinned AS "pinned!", shareable AS "shareable!",
                invalid_at, embedding_model,
                knowledge_id, source_url, last_retrieved_at, access_count AS "access_count!", faded_at,
                occurred_at AS "occurred_at!", created_at AS "created_at!", updated_at AS "updated_at!", end_user "#
                + $tail
            $(, $arg)*
        )
    };
}
pub(crate) use query_memories;

impl Memory {
    /// Composite importance in [0, 1] (R2), counting age from the last touch.
    pub fn importance_score(&self, now: DateTime<Utc>) -> f64 {
        let touched = self.last_mentioned_at.unwrap_or(self.updated_at).max(self.updated_at);
        let days = (now - touched).num_seconds() as f64 / 86_400.0;
        score::importance(self.confidence as f64, self.mention_count as i64, days, self.importance as f64)
    }

    /// Prominence in [0, 1] (X2): age, access frequency and recency, importance.
    pub fn prominence(&self, now: DateTime<Utc>) -> f64 {
        let days = |t: DateTime<Utc>| (now - t).num_seconds() as f64 / 86_400.0;
        let last_access = self.last_retrieved_at.max(self.last_mentioned_at).unwrap_or(self.created_at);
        lifecycle::prominence(&lifecycle::Usage {
            category: &self.category,
            constitutional: lifecycle::constitutional(self.pinned, &self.category),
            importance: self.importance as f64,
            access_count: self.access_count.max(0) as u32,
            age_days: days(self.created_at),
            idle_days: days(last_access),
        })
    }

    /// Whether search and chat may use it: active or dormant (X2), valid and unexpired.
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        self.status.is_live() && self.invalid_at.is_none() && self.expires_at.is_none_or(|e| e > now)
    }
}

/// What a new memory is made of. `embedding` is `(vector, model)`; `None` leaves the memory to
/// the embedding job.
#[derive(Debug, Clone)]
pub struct NewMemory {
    pub content: String,
    pub category: String,
    pub source: MemorySource,
    pub title: Option<String>,
    pub confidence: f32,
    pub importance: f32,
    pub pinned: bool,
    pub expires_at: Option<DateTime<Utc>>,
    pub knowledge_id: Option<Uuid>,
    pub source_url: Option<String>,
    pub embedding: Option<(Vec<f32>, String)>,
    /// When it was said or happened; `None` is now.
    pub occurred_at: Option<DateTime<Utc>>,
    /// The end user it is learned from, or `None`: the agent's own (see `Memory::end_user`).
    pub end_user: Option<String>,
}

impl NewMemory {
    pub fn new(content: impl Into<String>, category: impl Into<String>, source: MemorySource) -> Self {
        NewMemory {
            content: content.into(),
            category: category.into(),
            source,
            title: None,
            confidence: 0.8,
            importance: 5.0,
            pinned: false,
            expires_at: None,
            knowledge_id: None,
            source_url: None,
            embedding: None,
            occurred_at: None,
            end_user: None,
        }
    }
}

/// Changes to a memory; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct MemoryPatch {
    pub content: Option<String>,
    pub category: Option<String>,
    pub confidence: Option<f32>,
    pub importance: Option<f32>,
    pub pinned: Option<bool>,
    /// Whether the feed digest may write from it.
    pub shareable: Option<bool>,
    pub status: Option<MemoryStatus>,
    /// `Some(None)` clears the expiry.
    pub expires_at: Option<Option<DateTime<Utc>>>,
    /// The new content's vector, when the content changes.
    pub embedding: Option<(Vec<f32>, String)>,
}

/// Content as compared for duplicates and tombstones: lower case, words only, single spaces.
pub fn normalize(content: &str) -> String {
    content
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn content_hash(content: &str) -> String {
    hex::encode(Sha256::digest(normalize(content).as_bytes()))
}

/// Checks the fields every write path shares; the error names the field.
pub fn validate(
    content: Option<&str>,
    category: Option<&str>,
    confidence: Option<f32>,
    importance: Option<f32>,
) -> Result<(), Error> {
    if let Some(c) = content {
        if c.trim().is_empty() {
            return Err(Error::validation("content", "content must not be empty"));
        }
        Error::check_length("content", c, MAX_CONTENT_CHARS)?;
    }
    if let Some(c) = category {
        let ok = (2..=32).contains(&c.len())
            && c.starts_with(|ch: char| ch.is_ascii_lowercase())
            && c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_');
        if !ok {
            return Err(Error::validation(
                "category",
                "category must be 2–32 lower-case letters or underscores, e.g. identity, goal, preference, interest, context, insight, knowledge",
            ));
        }
    }
    if let Some(c) = confidence
        && !(0.0..=1.0).contains(&c)
    {
        return Err(Error::validation("confidence", "confidence must be between 0 and 1"));
    }
    if let Some(i) = importance
        && !(0.0..=10.0).contains(&i)
    {
        return Err(Error::validation("importance", "importance must be between 0 and 10"));
    }
    Ok(())
}

/// How far ahead of the clock `occurred_at` may be (clocks disagree a little; a memory is of
/// something said, not planned).
pub const OCCURRED_AHEAD_MAX: chrono::Duration = chrono::Duration::hours(24);

/// Checks a memory's `occurred_at`: not more than a day ahead, and not before 1900.
pub fn validate_time(occurred_at: Option<DateTime<Utc>>) -> Result<(), Error> {
    let Some(t) = occurred_at else { return Ok(()) };
    if t > Utc::now() + OCCURRED_AHEAD_MAX {
        return Err(Error::validation("occurred_at", "occurred_at must not be more than a day in the future"));
    }
    if t.timestamp() < -2_208_988_800 {
        return Err(Error::validation("occurred_at", "occurred_at must not be before 1900"));
    }
    Ok(())
}

/// 409 when `adding` more memories would take the agent beyond `max`
/// (`MINICLAW_MEMORIES_PER_AGENT`). Locks the agent's row, so writes checked in the same
/// When the agent's memories last changed and when one was last forgotten (`None`: never), so
/// that what was compiled from them (the dossier) can tell whether it is current.
pub async fn corpus_changes(
    pool: &sqlx::PgPool,
    agent_id: AgentId,
) -> sqlx::Result<(Option<DateTime<Utc>>, Option<DateTime<Utc>>)> {
    let row =
        sqlx::query!("SELECT changed_at, forgotten_at FROM memory_corpus_stats WHERE agent_id = $1", agent_id as _)
            .fetch_optional(pool)
            .await?;
    Ok(row.map_or((None, None), |r| (r.changed_at, r.forgotten_at)))
}

/// transaction cannot pass the cap together.
pub async fn check_room(
    conn: &mut sqlx::PgConnection,
    agent_id: AgentId,
    adding: usize,
    max: i64,
) -> Result<(), Error> {
    crate::tenancy::agents::lock(&mut *conn, agent_id).await?;
    let held = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM (SELECT 1 FROM agent_memories WHERE agent_id = $1 LIMIT $2) m"#,
        agent_id as _,
        max
    )
    .fetch_one(&mut *conn)
    .await?;
    if held + adding as i64 > max {
        return Err(Error::Conflict(format!(
            "the agent holds {held} memories and may hold {max} (MINICLAW_MEMORIES_PER_AGENT); \
             adding {adding} would pass that: delete some first"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalised_content_ignores_case_and_punctuation() {
        assert_eq!(normalize("  The user's name is ALICE! "), "the user s name is alice");
        assert_eq!(content_hash("The user lives in Vienna."), content_hash("the user lives in vienna"));
        assert_ne!(content_hash("The user lives in Vienna"), content_hash("The user lives in Graz"));
    }

    #[test]
    fn validation_names_the_field() {
        assert!(validate(Some("x"), Some("identity"), Some(0.5), Some(5.0)).is_ok());
        for (content, category, conf, imp, field) in [
            (Some("  "), None, None, None, "content"),
            (None, Some("Identity"), None, None, "category"),
            (None, Some("a"), None, None, "category"),
            (None, None, Some(1.5), None, "confidence"),
            (None, None, None, Some(11.0), "importance"),
        ] {
            match validate(content, category, conf, imp) {
                Err(Error::Invalid { details: Some(d), .. }) => assert_eq!(d["field"], field),
                other => panic!("{field}: {other:?}"),
            }
        }
        let long = "x".repeat(MAX_CONTENT_CHARS + 1);
        assert_eq!(validate(Some(&long), None, None, None).unwrap_err().code(), "too_long");
    }
}
