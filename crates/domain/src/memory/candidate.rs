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
/// turn, tombstones, then exact and near duplicates (`duplicate_of`, judged), and only then a
/// new memory. Suppressions are counted for the store-health report.
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
    let whose = new.end_user.as_deref();
    if hygiene::tombstoned(conn, agent_id, whose, &new.content, vector, candidate.stated_at).await? {
        return Ok(Remembered::Suppressed("tombstone"));
    }
    if let Some(id) = duplicate_of(conn, agent_id, whose, &new.content, &new.category, vector, Judged::Yes).await? {
        return Ok(Remembered::Reinforced(reinforce(conn, id, origin).await?));
    }
    let (memory, _) = super::supersede::create_current(conn, agent_id, origin, new, Some("extracted")).await?;
    Ok(Remembered::Created(memory))
}

/// Whether a judge (extraction's dedup model) has read the statement against the agent's
/// memories yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judged {
    /// Not yet: only near-verbatim copies count as the same, so that a changed value ("lives in
    /// Vienna" → "lives in Graz", cosine about 0.9) still reaches the judge as an update.
    No,
    /// It called the statement new (or there is no judge): a near copy is still the same.
    Yes,
}

/// Cosine (same model) at or above which a statement is a memory already known: before a judge,
/// 0.95 for facts and 0.92 for insights (they are phrased more loosely); after one, 0.92 for both.
pub fn same_cosine(insight: bool, judged: Judged) -> f64 {
    match (judged, insight) {
        (Judged::No, false) => 0.95,
        _ => f64::from(hygiene::SAME_FACT_COSINE),
    }
}

/// The categories a statement of `category` is compared with: an insight with the agent's
/// insights, a fact about the user with every such fact (the same fact filed under another
/// category is still the same fact), anything else with its own category.
fn kind_of(category: &str) -> Vec<String> {
    let facts = Category::USER_FACTS.map(Category::as_str);
    if facts.contains(&category) { facts.map(String::from).to_vec() } else { vec![category.to_string()] }
}

/// The write side's one duplicate policy (R6), for extraction before its dedup model and for
/// `remember` after it: a live memory of the same kind with the same normalised text (hash
/// index), else the nearest live memory of the same kind with the same model if its cosine
/// reaches `same_cosine` (a nearest-neighbour search, not a distance computed for every memory).
/// Only memories of the same owner count (SPEC H1): `end_user`'s, or (`None`) the agent's own; an
/// end user's statement never reinforces what another person said.
pub async fn duplicate_of(
    conn: &mut PgConnection,
    agent_id: AgentId,
    end_user: Option<&str>,
    content: &str,
    category: &str,
    vector: Option<(&[f32], &str)>,
    judged: Judged,
) -> Result<Option<MemoryId>, Error> {
    let categories = kind_of(category);
    let same = sqlx::query_scalar!(
        r#"SELECT id AS "id: MemoryId" FROM agent_memories
            WHERE agent_id = $1 AND content_hash = $2 AND category = ANY($3) AND status IN ('active', 'dormant') AND invalid_at IS NULL
              AND end_user IS NOT DISTINCT FROM $4
            LIMIT 1"#,
        agent_id as _,
        content_hash(content),
        &categories,
        end_user
    )
    .fetch_optional(&mut *conn)
    .await?;
    if same.is_some() {
        return Ok(same);
    }
    let Some((v, model)) = vector else { return Ok(None) };
    let f = vector::Filters { categories, reader: Reader::exactly(end_user), ..vector::Filters::default() };
    let nearest = vector::nearest(conn, agent_id, model, v, 1, &f).await?;
    let cosine = same_cosine(category == Category::Insight.as_str(), judged);
    Ok(nearest.first().filter(|(_, sim)| *sim >= cosine).map(|(id, _)| *id))
}

/// The statement was a known memory again: its mention count goes up (with a version).
pub async fn reinforce(conn: &mut PgConnection, id: MemoryId, origin: &Origin) -> Result<Memory, Error> {
    let m = query_memories!(
        "UPDATE agent_memories SET mention_count = mention_count + 1, last_mentioned_at = now(), updated_at = now()
          WHERE id = $1 RETURNING",
        "",
        id as _
    )
    .fetch_one(&mut *conn)
    .await?;
    record_version(conn, &m, "mention", origin, Some("the same fact was extracted again")).await?;
    Ok(m)
}
