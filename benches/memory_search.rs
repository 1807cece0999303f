//! SPEC B2: hybrid memory search over 100,000 memories of one agent among 1,000,000 in the
//! database, and recall@10 of the vector stage against exact search.
//!
//!     cargo bench --profile serve --bench memory_search    # prints JSON lines
//!     B2_STAGES=1 cargo bench --profile serve --bench memory_search   # and each stage alone
//!
//! Data (generated once into the database `miniclaw_bench_b2`, reused while complete; set
//! `B2_FRESH=1` to rebuild): 91 agents, one with 100,000 memories and 90 with 10,000 each.
//! Vectors are 384-d and clustered like sentence embeddings (2,000 random unit centroids plus
//! Gaussian noise, normalised); content is 8–14 pseudo-words drawn from a 20,000-word
//! vocabulary with a Zipf-like skew, with BM25 postings built by the platform's own tokenizer.
//! Queries: a centroid plus fresh noise as the vector (the query embedding itself is measured
//! separately by the embeddings bench: 13.8 ms p50 for MiniLM), three vocabulary words as text.
//! Needs PostgreSQL with pgvector (`DATABASE_URL`, or 127.0.0.1:5432 as `postgres`).

mod support;

use miniclaw::ids::{AgentId, MemoryId};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use futures::future::BoxFuture;
use miniclaw::embed::Embedder;
use miniclaw::memory::search::{SearchRequest, Searcher};
use miniclaw::memory::vector::{self, Filters};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sqlx::postgres::PgPoolOptions;
use sqlx::{Connection, Executor, PgConnection, PgPool};
use uuid::Uuid;

const DIMS: usize = 384;
const CENTROIDS: usize = 2000;
const VOCAB: usize = 20_000;
const TARGET_MEMORIES: usize = 100_000;
const OTHER_AGENTS: usize = 90;
const OTHER_MEMORIES: usize = 10_000;
const MODEL: &str = "all-MiniLM-L6-v2";
const DB: &str = "miniclaw_bench_b2";

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn unit(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.iter_mut().for_each(|x| *x /= n);
}

fn gaussian(rng: &mut StdRng) -> f32 {
    // Box–Muller
    let (u1, u2): (f32, f32) = (rng.random_range(1e-7..1.0), rng.random());
    (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
}

struct World {
    centroids: Vec<Vec<f32>>,
    vocab: Vec<String>,
}

impl World {
    fn new() -> World {
        let mut rng = StdRng::seed_from_u64(8004);
        let centroids = (0..CENTROIDS)
            .map(|_| {
                let mut v: Vec<f32> = (0..DIMS).map(|_| gaussian(&mut rng)).collect();
                unit(&mut v);
                v
            })
            .collect();
        let syllables =
            ["ka", "lo", "mi", "ren", "tu", "sa", "vel", "dor", "ni", "pa", "qua", "ze", "bri", "fo", "gan", "hi"];
        let vocab = (0..VOCAB)
            .map(|i| {
                let mut w = String::new();
                let mut x = i + 7;
                for _ in 0..3 {
                    w.push_str(syllables[x % syllables.len()]);
                    x /= syllables.len();
                }
                format!("{w}{}", i / 4096)
            })
            .collect();
        World { centroids, vocab }
    }

    /// A vector near a random centroid.
    fn vector(&self, rng: &mut StdRng, noise: f32) -> (usize, Vec<f32>) {
        let c = rng.random_range(0..CENTROIDS);
        let mut v: Vec<f32> =
            self.centroids[c].iter().map(|x| x + noise * gaussian(rng) / (DIMS as f32).sqrt()).collect();
        unit(&mut v);
        (c, v)
    }

    /// A word, skewed towards the start of the vocabulary.
    fn word(&self, rng: &mut StdRng) -> &str {
        let u: f64 = rng.random();
        &self.vocab[((u.powf(2.5)) * VOCAB as f64) as usize % VOCAB]
    }
}

/// Returns the prepared query vector for any text: search cost without embedding cost.
struct Fixed(std::sync::Mutex<Vec<f32>>);

impl Embedder for Fixed {
    fn model(&self) -> &str {
        MODEL
    }
    fn dimensions(&self) -> usize {
        DIMS
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> BoxFuture<'a, anyhow::Result<Vec<Vec<f32>>>> {
        let v = self.0.lock().unwrap().clone();
        Box::pin(async move { Ok(texts.iter().map(|_| v.clone()).collect()) })
    }
}

async fn generate(pool: &PgPool, world: &World) -> anyhow::Result<Uuid> {
    let mut conn = pool.acquire().await?;
    conn.execute(
        "TRUNCATE memory_terms, memory_term_stats, memory_corpus_stats, agent_memories, agents, tenants CASCADE",
    )
    .await?;
    conn.execute("DROP INDEX IF EXISTS agent_memories_hnsw_minilm").await?;
    let tenant = Uuid::now_v7();
    sqlx::query("INSERT INTO tenants (id, name) VALUES ($1, 'bench')").bind(tenant).execute(&mut *conn).await?;
    let target = Uuid::now_v7();
    let mut agents = vec![(target, TARGET_MEMORIES)];
    agents.extend((0..OTHER_AGENTS).map(|_| (Uuid::now_v7(), OTHER_MEMORIES)));
    for (id, _) in &agents {
        sqlx::query("INSERT INTO agents (id, tenant_id, name) VALUES ($1, $2, 'bench')")
            .bind(id)
            .bind(tenant)
            .execute(&mut *conn)
            .await?;
    }
    let mut rng = StdRng::seed_from_u64(42);
    let categories = ["identity", "goal", "preference", "interest", "context", "insight", "knowledge"];
    let started = Instant::now();
    for (agent, count) in agents {
        let mut memories = String::new();
        let mut postings = String::new();
        let (mut docs, mut total) = (0i64, 0i64);
        for i in 0..count {
            let id = Uuid::now_v7();
            let n = rng.random_range(8..=14);
            let content: Vec<&str> = (0..n).map(|_| world.word(&mut rng)).collect();
            let content = content.join(" ");
            let (_, v) = world.vector(&mut rng, 0.9);
            let terms = miniclaw::memory::terms::terms(&content);
            let mut tf: HashMap<&str, i32> = HashMap::new();
            for t in &terms {
                *tf.entry(t).or_default() += 1;
            }
            for (t, c) in &tf {
                postings.push_str(&format!("{agent}\t{t}\t{id}\t{c}\t{}\n", terms.len()));
            }
            docs += 1;
            total += terms.len() as i64;
            let created = chrono::Utc::now() - chrono::Duration::days(rng.random_range(0..365));
            memories.push_str(&format!(
                "{id}\t{agent}\t{content}\t{}\tconversation\t0.8\t{}\t{}\t{}\t{}\t{}\t{MODEL}\t{}\n",
                categories[i % categories.len()],
                rng.random_range(0..=10),
                rng.random_range(1..6),
                miniclaw::memory::content_hash(&content),
                terms.len(),
                vector::literal(&v),
                created.to_rfc3339(),
            ));
        }
        let mut copy = conn
            .copy_in_raw(
                "COPY agent_memories (id, agent_id, content, category, source, confidence, importance, mention_count,
                    content_hash, term_count, embedding, embedding_model, created_at) FROM STDIN",
            )
            .await?;
        copy.send(memories.into_bytes()).await?;
        copy.finish().await?;
        let mut copy =
            conn.copy_in_raw("COPY memory_terms (agent_id, term, memory_id, tf, doc_len) FROM STDIN").await?;
        copy.send(postings.into_bytes()).await?;
        copy.finish().await?;
        // The memories' insert trigger has already created the row (to note the change time).
        sqlx::query(
            "INSERT INTO memory_corpus_stats (agent_id, docs, total_length) VALUES ($1, $2, $3)
             ON CONFLICT (agent_id) DO UPDATE SET docs = excluded.docs, total_length = excluded.total_length",
        )
        .bind(agent)
        .bind(docs as i32)
        .bind(total)
        .execute(&mut *conn)
        .await?;
        eprintln!("loaded agent {agent} ({count} memories) at {:.0} s", started.elapsed().as_secs_f64());
    }
    conn.execute(
        "INSERT INTO memory_term_stats (agent_id, term, df, max_tf, min_doc_len)
         SELECT agent_id, term, count(*), max(tf), min(doc_len) FROM memory_terms GROUP BY agent_id, term",
    )
    .await?;
    Ok(target)
}

async fn scratch_pool() -> anyhow::Result<(PgPool, bool)> {
    let admin_url = support::admin_url();
    let mut admin = PgConnection::connect(&admin_url).await?;
    let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
        .bind(DB)
        .fetch_one(&mut admin)
        .await?;
    let fresh = std::env::var("B2_FRESH").is_ok_and(|v| !v.is_empty());
    let url = if exists && !fresh {
        let mut url: url::Url = admin_url.parse()?;
        url.set_path(DB);
        url
    } else {
        support::fresh_database(DB).await?
    };
    let pool = PgPoolOptions::new().max_connections(4).connect(url.as_str()).await?;
    miniclaw::db::migrate(&pool).await?;
    let complete: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'agent_memories_hnsw_minilm')
        AND (SELECT count(*) FROM agent_memories) = $1",
    )
    .bind((TARGET_MEMORIES + OTHER_AGENTS * OTHER_MEMORIES) as i64)
    .fetch_one(&pool)
    .await?;
    Ok((pool, complete))
}

/// `B2_STAGES=1`: the search's stages one by one, at the depth fusion reads (100 candidates a
/// path) and at the depth an answer of 10 shows (20), to see where the time goes.
async fn stages(
    pool: &PgPool,
    world: &World,
    rng: &mut StdRng,
    target: AgentId,
    searcher: &Searcher<'_>,
    embedder: &Fixed,
) -> anyhow::Result<()> {
    let names = [
        "bm25 top 20",
        "bm25 top 100",
        "bm25 100, the first 20 exact (the search's)",
        "vector 20",
        "vector 100 (20 precise)",
        "bm25 of 100 given ids",
        "rows: similarity of 200 ids",
        "search, traversal off",
        "search",
    ];
    let mut ms: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let mut conn = pool.acquire().await?;
    for i in 0..220 {
        let (_, q) = world.vector(rng, 0.9);
        let text = format!("{} {} {}", world.word(rng), world.word(rng), world.word(rng));
        let terms = miniclaw::memory::terms::terms(&text);
        let mut took = Vec::new();
        let t = Instant::now();
        miniclaw::memory::terms::bm25(&mut conn, target, &terms, None, 20).await?;
        took.push(t.elapsed());
        let t = Instant::now();
        let top100 = miniclaw::memory::terms::bm25(&mut conn, target, &terms, None, 100).await?;
        took.push(t.elapsed());
        let t = Instant::now();
        miniclaw::memory::terms::bm25_deep(&mut conn, target, &terms, 100, 20).await?;
        took.push(t.elapsed());
        let t = Instant::now();
        vector::nearest(&mut conn, target, MODEL, &q, 20, &Filters::default()).await?;
        took.push(t.elapsed());
        let t = Instant::now();
        let near =
            vector::nearest(&mut conn, target, MODEL, &q, 100, &Filters { precise: Some(20), ..Default::default() })
                .await?;
        took.push(t.elapsed());
        let ids: Vec<MemoryId> = near.iter().map(|(id, _)| *id).collect();
        let t = Instant::now();
        miniclaw::memory::terms::bm25(&mut conn, target, &terms, Some(&ids), 100).await?;
        took.push(t.elapsed());
        let both: Vec<MemoryId> = ids.iter().copied().chain(top100.iter().map(|(id, _)| *id)).collect();
        let t = Instant::now();
        vector::similarities(&mut conn, target, &both, &q, MODEL).await?;
        took.push(t.elapsed());
        *embedder.0.lock().unwrap() = q;
        for traversal in [false, true] {
            let req = SearchRequest {
                query: text.clone(),
                limit: Some(10),
                filters: Default::default(),
                rerank: false,
                traversal,
            };
            let t = Instant::now();
            searcher.search(target, &req).await?;
            took.push(t.elapsed());
        }
        if i >= 20 {
            for (m, d) in ms.iter_mut().zip(took) {
                m.push(d.as_secs_f64() * 1000.0);
            }
        }
    }
    for (name, mut m) in names.iter().zip(ms) {
        m.sort_by(f64::total_cmp);
        println!(
            "{{\"stage\":\"{name}\",\"p50_ms\":{:.2},\"p90_ms\":{:.2},\"p99_ms\":{:.2}}}",
            percentile(&m, 0.5),
            percentile(&m, 0.9),
            percentile(&m, 0.99)
        );
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async {
        let world = World::new();
        let (pool, complete) = scratch_pool().await?;
        if !complete {
            let t = Instant::now();
            generate(&pool, &world).await?;
            let load = t.elapsed().as_secs_f64();
            let mut conn = pool.acquire().await?;
            conn.execute("SET maintenance_work_mem = '4GB'").await?;
            conn.execute("SET max_parallel_maintenance_workers = 2").await?;
            let t = Instant::now();
            conn.execute(
                "CREATE INDEX agent_memories_hnsw_minilm ON agent_memories
                    USING hnsw ((embedding::vector(384)) vector_cosine_ops) WHERE embedding_model = 'all-MiniLM-L6-v2'",
            )
            .await?;
            let build = t.elapsed().as_secs_f64();
            conn.execute("VACUUM ANALYZE agent_memories").await?;
            conn.execute("VACUUM ANALYZE memory_terms").await?;
            println!("{{\"load_s\":{load:.0},\"hnsw_build_s\":{build:.0}}}");
        }
        // The `memory_index` cycle's work: the 100,000-memory agent gets its own index.
        let t = Instant::now();
        let report = vector::ensure_agent_indexes(&pool, vector::AGENT_INDEX_MIN).await?;
        if !report.created.is_empty() {
            println!(
                "{{\"agent_indexes_built\":{},\"agent_index_build_s\":{:.0}}}",
                report.created.len(),
                t.elapsed().as_secs_f64()
            );
        }
        let target: AgentId = sqlx::query_scalar("SELECT agent_id FROM memory_corpus_stats ORDER BY docs DESC LIMIT 1")
            .fetch_one(&pool)
            .await?;
        let sizes: (String, String, String, String, String, String) = sqlx::query_as(
            "SELECT pg_size_pretty(pg_table_size('agent_memories')), pg_size_pretty(pg_relation_size('agent_memories_hnsw_minilm')),
                    pg_size_pretty(pg_relation_size($1::regclass)),
                    pg_size_pretty(pg_total_relation_size('memory_terms')), pg_size_pretty(pg_total_relation_size('agent_memories')),
                    current_setting('shared_buffers')",
        )
        .bind(vector::agent_index_name(target, MODEL))
        .fetch_one(&pool)
        .await?;
        println!(
            "{{\"table\":\"{}\",\"hnsw_index\":\"{}\",\"agent_hnsw_index\":\"{}\",\"postings_with_indexes\":\"{}\",\"memories_with_indexes\":\"{}\",\"shared_buffers\":\"{}\"}}",
            sizes.0, sizes.1, sizes.2, sizes.3, sizes.4, sizes.5
        );

        let mut rng = StdRng::seed_from_u64(7);
        let embedder = Arc::new(Fixed(std::sync::Mutex::new(vec![0.0; DIMS])));
        let gateway = miniclaw::gateway(pool.clone(), &miniclaw::config::Config::from_map(&HashMap::new())?)
            .map_err(anyhow::Error::msg)?;
        let deps = miniclaw::deps::Deps::new(
            pool.clone(),
            Arc::new(gateway),
            embedder.clone(),
            Arc::new(miniclaw::secrets::Vault::with_keys(&[7; 32], &[])),
        );
        let searcher = Searcher { deps: &deps, ctx: Default::default(), reader: Default::default() };

        // Recall@10 of the vector stage against exact search, 50 queries.
        let mut recall = Vec::new();
        let mut vector_ms = Vec::new();
        for _ in 0..50 {
            let (_, q) = world.vector(&mut rng, 0.9);
            let mut conn = pool.acquire().await?;
            let t = Instant::now();
            let approx = vector::nearest(&mut conn, target, MODEL, &q, 10, &Filters::default()).await?;
            vector_ms.push(t.elapsed().as_secs_f64() * 1000.0);
            // Exact: every one of the agent's vectors compared (`+ 0` keeps the HNSW index out).
            let exact: Vec<MemoryId> = sqlx::query_scalar(
                "SELECT id FROM agent_memories WHERE agent_id = $1 AND embedding_model = $2 AND status = 'active'
                  ORDER BY (embedding::vector(384) <=> $3::vector(384)) + 0 LIMIT 10",
            )
            .bind(target)
            .bind(MODEL)
            .bind(vector::literal(&q))
            .fetch_all(&mut *conn)
            .await?;
            let hits = approx.iter().filter(|(id, _)| exact.contains(id)).count();
            recall.push(hits as f64 / exact.len().max(1) as f64);
        }
        vector_ms.sort_by(f64::total_cmp);

        // Hybrid search end to end (BM25 + vector + scoring + explanation), 300 queries.
        let mut hybrid_ms = Vec::new();
        let mut found = 0usize;
        for i in 0..320 {
            let (_, q) = world.vector(&mut rng, 0.9);
            *embedder.0.lock().unwrap() = q;
            let text = format!("{} {} {}", world.word(&mut rng), world.word(&mut rng), world.word(&mut rng));
            let req = SearchRequest { query: text, limit: Some(10), filters: Default::default(), rerank: false, traversal: true };
            let t = Instant::now();
            let r = searcher.search(target, &req).await?;
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            if i >= 20 {
                hybrid_ms.push(ms);
                found += r.results.len();
            }
        }
        hybrid_ms.sort_by(f64::total_cmp);
        if std::env::var("B2_STAGES").is_ok_and(|v| !v.is_empty()) {
            stages(&pool, &world, &mut rng, target, &searcher, &embedder).await?;
        }
        println!(
            "{{\"memories_target_agent\":{TARGET_MEMORIES},\"memories_total\":{},\"recall_at_10\":{:.3},\"vector_p50_ms\":{:.2},\"vector_p99_ms\":{:.2},\"hybrid_p50_ms\":{:.2},\"hybrid_p99_ms\":{:.2},\"avg_results\":{:.1}}}",
            TARGET_MEMORIES + OTHER_AGENTS * OTHER_MEMORIES,
            recall.iter().sum::<f64>() / recall.len() as f64,
            percentile(&vector_ms, 0.5),
            percentile(&vector_ms, 0.99),
            percentile(&hybrid_ms, 0.5),
            percentile(&hybrid_ms, 0.99),
            found as f64 / hybrid_ms.len() as f64
        );
        Ok(())
    })
}
