//! Write-side hygiene (R6): the recall-loop guard, tombstones for what the owner deleted or
//! corrected, and the store-health report.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::AgentId;
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{Memory, content_hash, normalize};
use miniclaw_core::text::jaccard;
use miniclaw_platform::embed::cosine;

/// Word overlap at which a candidate fact only restates an injected memory.
pub const RESTATE_JACCARD: f64 = 0.8;
/// Cosine similarity at which two facts say the same thing (001 §8.4: 0.92).
pub const SAME_FACT_COSINE: f32 = 0.92;

/// A memory that was put into the turn's prompt.
pub struct Injected<'a> {
    pub content: &'a str,
    pub embedding: Option<&'a [f32]>,
}

/// The recall-loop guard (R6a): the index of the injected memory that `candidate` only
/// restates (same normalised text, word overlap ≥ 0.8, or cosine ≥ 0.92), if any. Extraction
/// drops such candidates: the model read them from the prompt, the user did not say them.
pub fn restates(candidate: &str, candidate_embedding: Option<&[f32]>, injected: &[Injected<'_>]) -> Option<usize> {
    let norm = normalize(candidate);
    injected.iter().position(|m| {
        normalize(m.content) == norm
            || jaccard(candidate, m.content) >= RESTATE_JACCARD
            || matches!((candidate_embedding, m.embedding), (Some(a), Some(b)) if a.len() == b.len() && cosine(a, b) >= SAME_FACT_COSINE)
    })
}

/// Leaves a tombstone for a memory the owner deleted or corrected.
pub async fn tombstone(conn: &mut PgConnection, m: &Memory, reason: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO memory_tombstones (id, agent_id, content_hash, content, embedding, embedding_model, reason, end_user)
         SELECT $1, agent_id, content_hash, content, embedding, embedding_model, $4, end_user FROM agent_memories
          WHERE agent_id = $2 AND id = $3",
        Uuid::now_v7(),
        m.agent_id as _,
        m.id as _,
        reason
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Whether a candidate fact matches a tombstone (same normalised text, or a vector of the same
/// model within cosine 0.92). Only tombstones laid after `stated_at` hold: a user who states
/// the fact again after it was deleted is heard (`None`: every tombstone holds). A hit is
/// counted on the tombstone and as a hygiene event.
pub async fn tombstoned(
    conn: &mut PgConnection,
    agent_id: AgentId,
    end_user: Option<&str>,
    candidate: &str,
    embedding: Option<(&[f32], &str)>,
    stated_at: Option<chrono::DateTime<chrono::Utc>>,
) -> sqlx::Result<bool> {
    let hash = content_hash(candidate);
    let (vec, model, dims) = match embedding {
        Some((v, m)) => (Some(super::vector::param(v)), Some(m.to_string()), v.len()),
        None => (None, None, 1),
    };
    // Built at run time: the vector's dimension is part of the statement (`vector(<dims>)`).
    let hit: Option<Uuid> = sqlx::query_scalar(&format!(
        "SELECT id FROM memory_tombstones
          WHERE agent_id = $1 AND ($6::timestamptz IS NULL OR created_at > $6) AND end_user IS NOT DISTINCT FROM $7
            AND (content_hash = $2
             OR ($3::text IS NOT NULL AND embedding_model = $4
                 AND vector_dims(embedding) = {dims}
                 AND 1 - (embedding::vector({dims}) <=> $3::vector({dims})) >= $5))
          LIMIT 1"
    ))
    .bind(agent_id)
    .bind(&hash)
    .bind(vec)
    .bind(model)
    .bind(SAME_FACT_COSINE as f64)
    .bind(stated_at)
    .bind(end_user)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = hit {
        sqlx::query!("UPDATE memory_tombstones SET hits = hits + 1 WHERE agent_id = $1 AND id = $2", agent_id as _, id)
            .execute(&mut *conn)
            .await?;
        event(conn, agent_id, "tombstone_hit", candidate).await?;
    }
    Ok(hit.is_some())
}

/// Records a refused write (recall_loop, tombstone_hit, exact_duplicate, near_duplicate).
pub async fn event(conn: &mut PgConnection, agent_id: AgentId, kind: &str, content: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO memory_hygiene_events (id, agent_id, kind, content) VALUES ($1, $2, $3, $4)",
        Uuid::now_v7(),
        agent_id as _,
        kind,
        content
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The store-health report (R6c).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Health {
    pub agent_id: AgentId,
    pub live_memories: i64,
    pub total_memories: i64,
    /// Share of live memories whose normalised text another live memory also has.
    pub exact_duplicate_rate: f64,
    /// Share of the (up to) 200 newest live memories with another live memory of the same
    /// model within cosine 0.92.
    pub near_duplicate_rate: f64,
    pub near_duplicate_sample: i64,
    /// Candidate facts dropped because they only restated an injected memory (30 days).
    pub recall_loop_suppressions: i64,
    /// Candidate facts dropped because they matched a tombstone (30 days).
    pub tombstone_hits: i64,
    pub tombstones: i64,
    /// Share of live memories older than 60 days that no search returned in 60 days.
    pub stale_share: f64,
    /// Memories invalidated by a contradicting newer fact.
    pub contradictions: i64,
    /// Memories waiting for a vector.
    pub unembedded: i64,
    /// Live memories whose prominence fell to 0.5 or below (X2): still searched.
    pub dormant: i64,
    /// Memories forgetting archived, restorable until they are pruned (X2).
    pub forgotten: i64,
    /// Live memories folded from others by fusion or NREM consolidation (X2, X4).
    pub fused: i64,
    /// Relations between the agent's memories (`updates`, `extends`, `derives`).
    pub relations: i64,
    pub generated_at: DateTime<Utc>,
}

pub async fn health(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<Health> {
    let counts = sqlx::query!(
        r#"WITH live AS (SELECT * FROM agent_memories WHERE agent_id = $1 AND status IN ('active', 'dormant') AND invalid_at IS NULL
                         AND (expires_at IS NULL OR expires_at > now()))
         SELECT (SELECT count(*) FROM live) AS "live!",
                (SELECT count(*) FROM agent_memories WHERE agent_id = $1) AS "total!",
                (SELECT coalesce(sum(n), 0)::bigint FROM (SELECT count(*) AS n FROM live GROUP BY content_hash HAVING count(*) > 1) d)
                  AS "dup_rows!",
                (SELECT count(*) FROM live WHERE created_at < now() - interval '60 days'
                    AND (last_retrieved_at IS NULL OR last_retrieved_at < now() - interval '60 days')) AS "stale!",
                (SELECT count(*) FROM agent_memories WHERE agent_id = $1 AND invalid_at IS NOT NULL) AS "contradictions!",
                (SELECT count(*) FROM live WHERE embedding IS NULL) AS "unembedded!",
                (SELECT count(*) FROM live WHERE status = 'dormant') AS "dormant!",
                (SELECT count(*) FROM agent_memories WHERE agent_id = $1 AND status = 'archived' AND faded_at IS NOT NULL)
                  AS "forgotten!",
                (SELECT count(*) FROM live WHERE source = 'fusion') AS "fused!",
                (SELECT count(*) FROM memory_relations WHERE agent_id = $1) AS "relations!""#,
        agent_id as _
    )
    .fetch_one(pool)
    .await?;
    // Near duplicates: each of the newest 200 live memories looks for a neighbour of its model.
    let near = sqlx::query!(
        r#"WITH recent AS (SELECT id, embedding, embedding_model FROM agent_memories
                          WHERE agent_id = $1 AND status IN ('active', 'dormant') AND invalid_at IS NULL AND embedding IS NOT NULL
                          ORDER BY created_at DESC LIMIT 200)
         SELECT count(*) AS "sample!", count(*) FILTER (WHERE EXISTS (
                    SELECT 1 FROM recent o WHERE o.id <> r.id AND o.embedding_model = r.embedding_model
                       AND vector_dims(o.embedding) = vector_dims(r.embedding)
                       AND 1 - (o.embedding <=> r.embedding) >= $2)) AS "near!"
           FROM recent r"#,
        agent_id as _,
        SAME_FACT_COSINE as f64
    )
    .fetch_one(pool)
    .await?;
    let events = sqlx::query!(
        r#"SELECT (SELECT count(*) FROM memory_hygiene_events WHERE agent_id = $1 AND kind = 'recall_loop'
                   AND created_at > now() - interval '30 days') AS "recall!",
                (SELECT count(*) FROM memory_hygiene_events WHERE agent_id = $1 AND kind = 'tombstone_hit'
                   AND created_at > now() - interval '30 days') AS "hits!",
                (SELECT count(*) FROM memory_tombstones WHERE agent_id = $1) AS "tombstones!""#,
        agent_id as _
    )
    .fetch_one(pool)
    .await?;
    let share = |n: i64, d: i64| if d == 0 { 0.0 } else { n as f64 / d as f64 };
    Ok(Health {
        agent_id,
        live_memories: counts.live,
        total_memories: counts.total,
        exact_duplicate_rate: share(counts.dup_rows, counts.live),
        near_duplicate_rate: share(near.near, near.sample),
        near_duplicate_sample: near.sample,
        recall_loop_suppressions: events.recall,
        tombstone_hits: events.hits,
        tombstones: events.tombstones,
        stale_share: share(counts.stale, counts.live),
        contradictions: counts.contradictions,
        unembedded: counts.unembedded,
        dormant: counts.dormant,
        forgotten: counts.forgotten,
        fused: counts.fused,
        relations: counts.relations,
        generated_at: Utc::now(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recall_loop_guard_spots_restatements_only() {
        let injected = [
            Injected { content: "The user lives in Vienna", embedding: Some(&[1.0, 0.0]) },
            Injected { content: "The user likes jazz", embedding: None },
        ];
        assert_eq!(restates("the user lives in Vienna.", None, &injected), Some(0));
        assert_eq!(restates("User likes jazz", None, &injected), Some(1));
        assert_eq!(restates("Lives in the Austrian capital", Some(&[0.99, 0.05]), &injected), Some(0));
        assert_eq!(restates("The user is moving to Graz next month", Some(&[0.0, 1.0]), &injected), None);
    }
}
