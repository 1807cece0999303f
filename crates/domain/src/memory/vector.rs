//! Vectors in pgvector. The column has no fixed dimension; each embedding model gets a partial
//! HNSW index over `embedding::vector(<dims>)` restricted to its rows, so several models can
//! coexist and a query only ever compares vectors of its own model. Filtered searches (one agent
//! among many) use pgvector's iterative index scans so they keep their recall. Agents with many
//! memories get their own partial index (`ensure_agent_indexes`), so their searches walk a graph
//! of their own vectors only.

use crate::memory::MemoryStatus;
use miniclaw_core::ids::{AgentId, MemoryId};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

/// A vector as a statement parameter, sent in pgvector's binary form (no text to format and
/// parse back on either side).
pub fn param(v: &[f32]) -> pgvector::Vector {
    pgvector::Vector::from(v.to_vec())
}

/// pgvector's text form of a vector, `[0.1,0.2,...]`: for `COPY` in text format.
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
    let exists =
        sqlx::query_scalar!(r#"SELECT EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = $1) AS "exists!""#, name)
            .fetch_one(pool)
            .await?;
    if exists {
        return Ok(());
    }
    sqlx::query(&create_index_sql(&name, dims, &format!("embedding_model = {}", quote(model)))).execute(pool).await?;
    Ok(())
}

/// Agents with at most this many live memories are searched exactly.
pub const EXACT_MAX: i32 = 2_000;

/// Agents with at least this many vectors of one model get their own HNSW index. Below it the
/// shared index with an iterative scan is fast enough (B2: 10,000-memory agents among 1M).
pub const AGENT_INDEX_MIN: i64 = 20_000;

/// The name of an agent's own index for a model: the agent id and a hash of the model name,
/// within PostgreSQL's 63-byte limit.
pub fn agent_index_name(agent_id: AgentId, model: &str) -> String {
    // FNV-1a: stable across builds, unlike the standard library's hasher.
    let hash = model.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    format!("agent_memories_hnsw_{}_{hash:08x}", agent_id.uuid().simple())
}

/// What one `ensure_agent_indexes` pass did.
#[derive(Debug, Default, serde::Serialize)]
pub struct AgentIndexReport {
    pub created: Vec<String>,
    pub dropped: Vec<String>,
}

/// Creates (concurrently) the per-agent index of every agent with at least `min` vectors of a
/// model, and drops the indexes of agents that are gone (deleted, even before they are purged)
/// or have shrunk below half of `min`.
/// An index left invalid by an interrupted build is rebuilt.
pub async fn ensure_agent_indexes(pool: &PgPool, min: i64) -> anyhow::Result<AgentIndexReport> {
    let mut report = AgentIndexReport::default();
    // Built at run time: live agents only (`agents::sql`).
    let counts: Vec<(AgentId, String, i32, i64)> = sqlx::query_as(&format!(
        "SELECT m.agent_id, m.embedding_model, vector_dims(m.embedding), count(*) FROM agent_memories m
          WHERE m.embedding IS NOT NULL AND m.embedding_model IS NOT NULL AND m.agent_id IN ({})
          GROUP BY 1, 2, 3 HAVING count(*) >= $1 / 2",
        crate::tenancy::agents::sql::live()
    ))
    .bind(min)
    .fetch_all(pool)
    .await?;
    // Checked at run time: over the catalogs' outer joins, the nullability the query macros
    // infer follows the plan, which follows the catalogs' statistics (`sqlx prepare --check`
    // flipped between two fresh databases).
    let existing: Vec<(String, Uuid, String, Option<bool>)> = sqlx::query_as(
        "SELECT m.index_name, m.agent_id, m.embedding_model, i.indisvalid
           FROM memory_agent_indexes m
           LEFT JOIN pg_class c ON c.relname = m.index_name AND c.relkind = 'i'
           LEFT JOIN pg_index i ON i.indexrelid = c.oid",
    )
    .fetch_all(pool)
    .await?;
    for (name, agent, model, valid) in &existing {
        let still_large = counts.iter().any(|(a, m, _, _)| a == agent && m == model);
        if still_large && *valid == Some(true) {
            continue;
        }
        sqlx::query(&drop_index_sql(name)).execute(pool).await?;
        sqlx::query!("DELETE FROM memory_agent_indexes WHERE agent_id = $1 AND index_name = $2", *agent, name)
            .execute(pool)
            .await?;
        if valid.is_some() {
            report.dropped.push(name.clone());
        }
    }
    for (agent, model, dims, vectors) in counts {
        let name = agent_index_name(agent, &model);
        let kept = existing.iter().any(|(n, _, _, valid)| *n == name && *valid == Some(true));
        if kept || vectors < min || !(1..=2000).contains(&dims) {
            continue;
        }
        let started = std::time::Instant::now();
        // Both values are literals in the predicate (a uuid and a quoted model name), so that
        // the planner can match a query's `agent_id = $1 AND embedding_model = $2`.
        let predicate = format!("agent_id = '{agent}' AND embedding_model = {}", quote(&model));
        sqlx::query(&create_index_sql(&name, dims as usize, &predicate)).execute(pool).await?;
        sqlx::query!(
            "INSERT INTO memory_agent_indexes (index_name, agent_id, embedding_model, dims, vectors, build_ms)
             VALUES ($1, $2, $3, $4, $5, $6)",
            name,
            agent as _,
            model,
            dims,
            vectors,
            started.elapsed().as_millis() as i64
        )
        .execute(pool)
        .await?;
        tracing::info!(index = %name, vectors, build_ms = started.elapsed().as_millis() as u64, "agent vector index built");
        report.created.push(name);
    }
    Ok(report)
}

/// Filters shared by the vector and BM25 paths.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    pub categories: Vec<String>,
    pub sources: Vec<String>,
    pub statuses: Vec<String>,
    pub from: Option<chrono::DateTime<chrono::Utc>>,
    pub to: Option<chrono::DateTime<chrono::Utc>>,
    /// Vector path, index scans only: the graph walk stops after this many index tuples past the
    /// first beam (pgvector's `hnsw.max_scan_tuples`; `None` leaves its default, 20,000) and the
    /// search answers from the candidates it has already met, possibly fewer than `k`. Bounds the
    /// cost of a filtered search whose matches all lie far from the query.
    pub scan_max: Option<u32>,
    /// How many of the `k` nearest must be as exact as the index allows (the beam is four times
    /// this, at least 100); the rest may be approximate. `None`: all `k`. A search that wants a
    /// deep candidate list for fusion but shows only the first few sets it, so the depth does
    /// not widen the beam (B2: 100 candidates with a beam of 400 tripled the hybrid latency).
    pub precise: Option<i64>,
    /// Whose memories may be found (SPEC H1; default: all of them).
    pub reader: super::Reader,
}

/// The cosine similarity of each of the agent's memories `ids` that has a vector of `model`
/// to `v`.
pub async fn similarities(
    conn: &mut PgConnection,
    agent_id: AgentId,
    ids: &[MemoryId],
    v: &[f32],
    model: &str,
) -> sqlx::Result<Vec<(MemoryId, f64)>> {
    let dims = v.len();
    // Built at run time: the cast names the vector's dimension.
    sqlx::query_as(&format!(
        "SELECT id, 1 - (embedding::vector({dims}) <=> $4::vector({dims})) FROM agent_memories
          WHERE agent_id = $1 AND id = ANY($2) AND embedding_model = $3"
    ))
    .bind(agent_id)
    .bind(ids)
    .bind(model)
    .bind(param(v))
    .fetch_all(conn)
    .await
}

/// The `k` nearest memories of the agent to `query` among the model's vectors, with cosine
/// similarity, honouring the filters.
pub async fn nearest(
    conn: &mut PgConnection,
    agent_id: AgentId,
    model: &str,
    query: &[f32],
    k: i64,
    f: &Filters,
) -> sqlx::Result<Vec<(MemoryId, f64)>> {
    nearest_as(conn, agent_id, model, query, k, f, "id", None).await
}

/// A memory found by `nearest_memories`, with its cosine similarity to the query.
#[derive(sqlx::FromRow)]
pub struct Similar {
    #[sqlx(flatten)]
    pub memory: super::Memory,
    pub similarity: f64,
}

/// `nearest`, with the memories themselves (one round trip less than reading them after).
/// `plan`, when the caller already read it (see `plan_sql`), saves another.
pub async fn nearest_memories(
    conn: &mut PgConnection,
    agent_id: AgentId,
    model: &str,
    query: &[f32],
    k: i64,
    f: &Filters,
    plan: Option<Plan>,
) -> sqlx::Result<Vec<Similar>> {
    nearest_as(conn, agent_id, model, query, k, f, super::COLUMNS, plan).await
}

/// How a search of one agent's vectors of one model is planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct Plan {
    /// A small agent (at most `EXACT_MAX` memories): every candidate row is compared.
    pub exact: bool,
    /// The agent has an HNSW index of its own for the model.
    pub own: bool,
}

#[expect(clippy::too_many_arguments, reason = "nearest's arguments, with what to answer and a known plan")]
async fn nearest_as<R>(
    conn: &mut PgConnection,
    agent_id: AgentId,
    model: &str,
    query: &[f32],
    k: i64,
    f: &Filters,
    columns: &str,
    plan: Option<Plan>,
) -> sqlx::Result<Vec<R>>
where
    R: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    let dims = query.len();
    // Small agents are searched exactly (their rows through the agent index, then sorted):
    // a filtered walk of a shared graph could miss them. Larger ones use the HNSW index. Both
    // plans are pinned: with skewed or stale statistics the planner may otherwise read every row
    // of a large agent and sort (55 ms instead of 4 at 10,000 memories), or scan the whole table
    // for a small one (44 ms instead of 0.6 when one agent holds most of the rows). The beam is
    // 4k (at least 100; k the part that must be precise, `Filters::precise`) and the scan
    // iterative, since most of a shared neighbourhood may belong to other agents, and an
    // iterative scan goes on past the beam until it has k rows; a caller may bound how far it
    // goes (`Filters::scan_max`). The statement is prepared once per connection and runs a
    // generic plan (planning it cost more than running it), except for agents with an index of
    // their own, whose partial index only a plan made for their id can use. All settings are local to this transaction: sent with its BEGIN
    // when the plan is known and no transaction is open, else read and set in one round trip.
    let ef_search = (f.precise.unwrap_or(k).min(k) * 4).clamp(100, 1000);
    let (mut tx, Plan { exact, own }) = match plan {
        Some(p) if !sqlx::Connection::is_in_transaction(&*conn) => {
            let settings =
                settings_sql(&p.exact.to_string(), &p.own.to_string(), &format!("'{ef_search}'"), f.scan_max);
            (sqlx::Connection::begin_with(&mut *conn, format!("BEGIN; SELECT {settings}")).await?, p)
        }
        _ => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let sql = format!(
                "SELECT exact, own, {} FROM (SELECT {}) p",
                settings_sql("exact", "own", "$3", f.scan_max),
                plan_sql("$1", "$2")
            );
            let p: Plan =
                sqlx::query_as(&sql).bind(agent_id).bind(model).bind(ef_search.to_string()).fetch_one(&mut *tx).await?;
            (tx, p)
        }
    };
    let sql = nearest_sql_with(dims, exact, model, columns, &f.reader);
    let rows: Vec<R> = sqlx::query_as(&sql)
        .bind(agent_id)
        .bind(param(query))
        .bind(k)
        .bind(if f.statuses.is_empty() {
            MemoryStatus::LIVE.iter().map(|s| s.as_str().to_string()).collect()
        } else {
            f.statuses.clone()
        })
        .bind(&f.categories)
        .bind(&f.sources)
        .bind(f.from)
        .bind(f.to)
        .bind(f.reader.all())
        .bind(f.reader.end_user())
        // An unnamed statement is planned with its parameter values, so the planner can pick the
        // agent's own partial index (a generic plan never could).
        .persistent(!own)
        .fetch_all(&mut *tx)
        .await?;
    // Read-only: rolling back drops the settings, also when this ran inside the caller's
    // transaction (a savepoint), whose later statements must not inherit them.
    tx.rollback().await?;
    Ok(rows)
}

// The statements built at run time: each embeds an index name, a vector dimension, a model name
// or plan settings, which bind parameters cannot carry (DDL takes no parameters at all).

/// `'text'`, quoted as an SQL literal.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Builds an HNSW index over the rows that match `predicate`, without blocking writes.
fn create_index_sql(name: &str, dims: usize, predicate: &str) -> String {
    format!(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON agent_memories
            USING hnsw ((embedding::vector({dims})) vector_cosine_ops) WHERE {predicate}"
    )
}

fn drop_index_sql(name: &str) -> String {
    format!("DROP INDEX CONCURRENTLY IF EXISTS {name}")
}

/// Select items reading the `Plan` of agent `agent` for model `model` (SQL expressions).
pub fn plan_sql(agent: &str, model: &str) -> String {
    format!(
        "coalesce((SELECT docs FROM memory_corpus_stats WHERE agent_id = {agent}), 0) <= {EXACT_MAX} AS exact,
         EXISTS (SELECT 1 FROM memory_agent_indexes WHERE agent_id = {agent} AND embedding_model = {model}) AS own"
    )
}

/// The search's settings as `set_config` calls (local to the transaction), from SQL expressions
/// for `exact`, `own` and the beam width, and the scan bound if any.
fn settings_sql(exact: &str, own: &str, ef_search: &str, scan_max: Option<u32>) -> String {
    let bound = scan_max.map(|n| format!(", set_config('hnsw.max_scan_tuples', '{n}', true)")).unwrap_or_default();
    format!(
        "set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', {ef_search}, true),
         set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
         set_config('enable_sort', CASE WHEN {exact} THEN 'on' ELSE 'off' END, true),
         set_config('plan_cache_mode', CASE WHEN {own} THEN 'force_custom_plan' ELSE 'force_generic_plan' END, true){bound}"
    )
}

/// The statement behind `nearest` ($1 agent, $2 query vector, $3 k, $4 statuses, $5 categories,
/// $6 sources, $7 from, $8 to, $9 and $10 the reader: `Reader::condition`); public so that
/// tests can EXPLAIN it. The model is a literal, so
/// that even a generic plan matches the model's partial index. `exact` orders by an expression
/// no index can serve, so every candidate row is compared.
pub fn nearest_sql(dims: usize, exact: bool, model: &str) -> String {
    nearest_sql_with(dims, exact, model, "id", &super::Reader::All)
}

/// `nearest_sql` answering `columns` of each memory (unqualified) and its `similarity`.
fn nearest_sql_with(dims: usize, exact: bool, model: &str, columns: &str, reader: &super::Reader) -> String {
    let order =
        if exact { format!("(embedding::vector({dims}) <=> $2::vector({dims})) + 0") } else { "distance".into() };
    let model = quote(model);
    let reader = reader.condition("", "$9", "$10");
    format!(
        "SELECT {columns}, 1 - distance AS similarity FROM (
            SELECT {columns}, (embedding::vector({dims}) <=> $2::vector({dims})) AS distance
              FROM agent_memories
             WHERE agent_id = $1 AND embedding_model = {model}
               AND status = ANY($4) AND invalid_at IS NULL AND (expires_at IS NULL OR expires_at > now())
               AND (cardinality($5::text[]) = 0 OR category = ANY($5))
               AND (cardinality($6::text[]) = 0 OR source = ANY($6))
               AND ($7::timestamptz IS NULL OR occurred_at >= $7) AND ($8::timestamptz IS NULL OR occurred_at < $8)
               AND {reader}
             ORDER BY {order}
             LIMIT $3) nearest
         ORDER BY distance"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_bound_is_set_only_when_given() {
        let bounded = settings_sql("false", "false", "'100'", Some(1_000));
        assert!(bounded.ends_with("set_config('hnsw.max_scan_tuples', '1000', true)"), "{bounded}");
        let unbounded = settings_sql("false", "false", "'100'", None);
        assert!(!unbounded.contains("max_scan_tuples"), "{unbounded}");
        assert!(unbounded.contains("set_config('hnsw.iterative_scan', 'relaxed_order', true)"));
    }

    #[test]
    fn literals_and_index_names() {
        assert_eq!(literal(&[0.5, -1.0, 0.25]), "[0.5,-1,0.25]");
        assert_eq!(index_name("text-embedding-3-small", 1536), "agent_memories_hnsw_text_embedding_3_small_1536");
        let agent: AgentId = "0190a5e0-0000-7000-8000-000000000001".parse().unwrap();
        let name = agent_index_name(agent, "all-MiniLM-L6-v2");
        assert!(name.starts_with("agent_memories_hnsw_0190a5e0000070008000000000000001_"), "{name}");
        assert!(name.len() <= 63, "{name}");
        assert_ne!(name, agent_index_name(agent, "text-embedding-3-small"));
    }
}
