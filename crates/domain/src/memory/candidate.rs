//! Storing what extraction found (R6): the write-side checks (tombstones, the same fact again)
//! before a candidate becomes a memory or reinforces one.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::{AgentId, MemoryId};
use sqlx::PgConnection;

use super::*;
use miniclaw_core::Error;
use miniclaw_platform::activity::Origin;

/// A fact extraction wants to store.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub memory: NewMemory,
    /// When the user stated the fact (the source message's time); tombstones laid before it
    /// no longer hold it back, because the user said it again after the deletion (R6b).
    /// `None` (derived or imported facts): every tombstone holds.
    pub stated_at: Option<DateTime<Utc>>,
}

/// What became of a candidate.
#[derive(Debug, Clone)]
pub enum Remembered {
    Created(Memory),
    /// The fact was already known (same text, or cosine ≥ 0.92 with the same model): its
    /// mention count went up instead.
    Reinforced(Memory),
    /// Not stored: `recall_loop` or `tombstone`.
    Suppressed(&'static str),
}

/// The write path of extraction: the recall-loop guard against the memories injected into the
/// turn, tombstones, then exact and near duplicates, and only then a new memory. Suppressions
/// are counted for the store-health report.
pub async fn remember(
    conn: &mut PgConnection,
    agent_id: AgentId,
    origin: &Origin,
    candidate: Candidate,
    injected: &[hygiene::Injected<'_>],
) -> Result<Remembered, Error> {
    let new = candidate.memory;
    let vector = new.embedding.as_ref().map(|(v, m)| (v.as_slice(), m.as_str()));
    if hygiene::restates(&new.content, vector.map(|(v, _)| v), injected).is_some() {
        hygiene::event(conn, agent_id, "recall_loop", &new.content).await?;
        return Ok(Remembered::Suppressed("recall_loop"));
    }
    if hygiene::tombstoned(conn, agent_id, &new.content, vector, candidate.stated_at).await? {
        return Ok(Remembered::Suppressed("tombstone"));
    }
    // The same text (hash index), else the nearest vector if it is close enough: a nearest-
    // neighbour search, not a distance computed for every memory of the agent.
    let mut same = sqlx::query_scalar!(
        r#"SELECT id AS "id: MemoryId" FROM agent_memories WHERE agent_id = $1 AND content_hash = $2 AND status IN ('active', 'dormant') AND invalid_at IS NULL
          LIMIT 1"#,
        agent_id as _,
        content_hash(&new.content)
    )
    .fetch_optional(&mut *conn)
    .await?;
    if same.is_none()
        && let Some((v, model)) = vector
    {
        let nearest = vector::nearest(conn, agent_id, model, v, 1, &vector::Filters::default()).await?;
        same = nearest.first().filter(|(_, sim)| *sim >= f64::from(hygiene::SAME_FACT_COSINE)).map(|(id, _)| *id);
    }
    if let Some(id) = same {
        let m = query_memories!(
            "UPDATE agent_memories SET mention_count = mention_count + 1, last_mentioned_at = now(), updated_at = now()
              WHERE id = $1 RETURNING",
            "",
            id as _
        )
        .fetch_one(&mut *conn)
        .await?;
        record_version(conn, &m, "mention", origin, Some("the same fact was extracted again")).await?;
        return Ok(Remembered::Reinforced(m));
    }
    let (memory, _) = super::supersede::create_current(conn, agent_id, origin, new, Some("extracted")).await?;
    Ok(Remembered::Created(memory))
}
