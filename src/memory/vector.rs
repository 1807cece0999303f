//! Vectors in pgvector. The column has no fixed dimension; each embedding model gets a partial
//! HNSW index over `embedding::vector(<dims>)` restricted to its rows, so several models can
//! coexist and a query only ever compares vectors of its own model. Filtered searches (one agent
//! among many) use pgvector's iterative index scans so they keep their recall.

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

/// pgvector's text form of a vector: `[0.1,0.2,...]`.
pub fn literal(v: &[f32]) -> String {
    let mut s = String::with_capacity(v.len() * 10 + 2);
    s.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&x.to_string());
    }
    s.push(']');
    s
}

/// The index name for a model: lower-case letters and digits only.
fn index_name(model: &str, dims: usize) -> String {
    let slug: String =
        model.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    format!("agent_memories_hnsw_{}_{dims}", slug.chars().take(40).collect::<String>())
}

/// Creates the model's HNSW index if it is missing, without blocking writes
/// (`CREATE INDEX CONCURRENTLY`); the default model's index comes with the migrations.
pub async fn ensure_index(pool: &PgPool, model: &str, dims: usize) -> anyhow::Result<()> {
    if model == "all-MiniLM-L6-v2" && dims == 384 {
        return Ok(());
    }
    if !(1..=2000).contains(&dims) {
        anyhow::bail!("HNSW indexes hold at most 2,000 dimensions; {model} has {dims}");
    }
    let name = index_name(model, dims);
    let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = $1)")
        .bind(&name)
        .fetch_one(pool)
        .await?;
    if exists {
        return Ok(());
    }
    // The model name is a literal in the index predicate: quote it.
    let quoted = model.replace('\'', "''");
    sqlx::query(&format!(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON agent_memories
            USING hnsw ((embedding::vector({dims})) vector_cosine_ops) WHERE embedding_model = '{quoted}'"
    ))
    .execute(pool)
    .await?;
    Ok(())
}

/// Filters shared by the vector and BM25 paths.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    pub categories: Vec<String>,
    pub sources: Vec<String>,
    pub statuses: Vec<String>,
    pub from: Option<chrono::DateTime<chrono::Utc>>,
    pub to: Option<chrono::DateTime<chrono::Utc>>,
}

/// The `k` nearest memories of the agent to `query` among the model's vectors, with cosine
/// similarity, honouring the filters. Runs in its own transaction to scope the scan settings.
pub async fn nearest(
    conn: &mut PgConnection,
    agent_id: Uuid,
    model: &str,
    query: &[f32],
    k: i64,
    f: &Filters,
) -> sqlx::Result<Vec<(Uuid, f64)>> {
    let dims = query.len();
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    // Keep scanning the graph until enough rows pass the filter, with a wide beam (4k, at least
    // 100) because most of the neighbourhood may belong to other agents. Both settings in one
    // round trip; `true` makes them local to the transaction.
    sqlx::query(
        "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', $1, true)",
    )
    .bind((k * 4).clamp(100, 1000).to_string())
    .execute(&mut *tx)
    .await?;
    let rows: Vec<(Uuid, f64)> = sqlx::query_as(&format!(
        "SELECT id, 1 - distance FROM (
            SELECT id, (embedding::vector({dims}) <=> $3::vector({dims})) AS distance
              FROM agent_memories
             WHERE agent_id = $1 AND embedding_model = $2
               AND status = ANY($5) AND invalid_at IS NULL AND (expires_at IS NULL OR expires_at > now())
               AND (cardinality($6::text[]) = 0 OR category = ANY($6))
               AND (cardinality($7::text[]) = 0 OR source = ANY($7))
               AND ($8::timestamptz IS NULL OR created_at >= $8) AND ($9::timestamptz IS NULL OR created_at < $9)
             ORDER BY distance
             LIMIT $4) nearest
         ORDER BY distance"
    ))
    .bind(agent_id)
    .bind(model)
    .bind(literal(query))
    .bind(k)
    .bind(if f.statuses.is_empty() { vec!["active".to_string()] } else { f.statuses.clone() })
    .bind(&f.categories)
    .bind(&f.sources)
    .bind(f.from)
    .bind(f.to)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_index_names() {
        assert_eq!(literal(&[0.5, -1.0, 0.25]), "[0.5,-1,0.25]");
        assert_eq!(index_name("text-embedding-3-small", 1536), "agent_memories_hnsw_text_embedding_3_small_1536");
    }
}
