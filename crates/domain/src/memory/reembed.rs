//! The `memory_embed` cycle: gives a vector of the current model to every memory that has none
//! (its embedding failed when it was written) or one of another model (the embedder changed,
//! M5). Runs every 5 minutes, in batches, for at most a minute per run.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::vector;
use miniclaw_platform::embed::Embedder;
use miniclaw_platform::jobs::registry::{Cycle, CycleScope, JobContext};

pub const NAME: &str = "memory_embed";
pub const DESCRIPTION: &str =
    "Embeds memories that have no vector, or one of another model, with the current embedder.";
pub const INTERVAL: Duration = Duration::from_secs(5 * 60);
const BATCH: i64 = 64;
const RUN_BUDGET: Duration = Duration::from_secs(60);

/// The cycle, bound to the process's embedder (registered by the commands that run jobs).
pub fn cycle(embedder: Arc<dyn Embedder>) -> Cycle {
    Cycle::new(NAME, CycleScope::Platform, DESCRIPTION, move |ctx: JobContext| {
        let embedder = embedder.clone();
        async move {
            let (embedded, left) = run(&ctx.pool, embedder.as_ref()).await?;
            Ok(json!({ "embedded": embedded, "remaining": left, "model": embedder.model() }))
        }
    })
    .every(INTERVAL)
}

/// Embeds batches until none are left or the run's time is up; returns (embedded, remaining).
pub async fn run(pool: &PgPool, embedder: &dyn Embedder) -> anyhow::Result<(u64, i64)> {
    let model = embedder.model().to_string();
    let started = Instant::now();
    let mut embedded = 0u64;
    while started.elapsed() < RUN_BUDGET {
        let batch = sqlx::query!(
            // `< OR > OR IS NULL` rather than `IS DISTINCT FROM`, so the model index serves it
            "SELECT id, content FROM agent_memories
              WHERE embedding_model IS NULL OR embedding_model < $1 OR embedding_model > $1 LIMIT $2",
            model,
            BATCH
        )
        .fetch_all(pool)
        .await?;
        if batch.is_empty() {
            break;
        }
        let texts: Vec<String> = batch.iter().map(|m| m.content.clone()).collect();
        let vectors = embedder.embed(&texts).await?;
        let ids: Vec<Uuid> = batch.iter().map(|m| m.id).collect();
        let vectors: Vec<pgvector::Vector> = vectors.iter().map(|v| vector::param(v)).collect();
        sqlx::query!(
            "UPDATE agent_memories m SET embedding = v.embedding, embedding_model = $3
               FROM unnest($1::uuid[], $2::vector[]) AS v(id, embedding) WHERE m.id = v.id",
            &ids,
            vectors as _,
            model
        )
        .execute(pool)
        .await?;
        embedded += ids.len() as u64;
    }
    let left = sqlx::query_scalar!(
        r#"SELECT count(*) AS "count!" FROM agent_memories
            WHERE embedding_model IS NULL OR embedding_model < $1 OR embedding_model > $1"#,
        model
    )
    .fetch_one(pool)
    .await?;
    Ok((embedded, left))
}
