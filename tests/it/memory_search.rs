//! Memory search: hybrid search with true BM25 in the database, explained and
//! filtered; per-agent vector indexes; exact search for small agents and bounded HNSW search
//! for large ones, with plan settings that never outlive the search.

use miniclaw::ids::{AgentId, MemoryId};
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent as Agent, TestApp, minilm};

#[tokio::test]
async fn hybrid_search_ranks_explains_and_filters() {
    let a = Agent::new(minilm().await).await;
    let empty = a.search(json!({ "query": "where do I live" })).await;
    assert_eq!(empty["results"].as_array().unwrap().len(), 0);
    assert_eq!(empty["explanation"]["empty_reason"], "the agent has no memories yet");

    let facts = [
        ("The user lives in Vienna, Austria", "identity"),
        ("The user likes jazz and plays the saxophone", "interest"),
        ("The user wants to run a marathon next spring", "goal"),
        ("The user prefers short answers without emoji", "preference"),
        ("The user works as a nurse at the city hospital", "identity"),
        ("Jazz clubs in Vienna: Porgy & Bess and Jazzland", "knowledge"),
    ];
    let items: Vec<Value> = facts.iter().map(|(c, k)| json!({ "content": c, "category": k })).collect();
    assert_eq!(a.call(Method::POST, "/memories/bulk", Some(json!({ "memories": items }))).await.status, 201);

    let r = a.search(json!({ "query": "Which city does the user live in?", "limit": 3 })).await;
    let results = r["results"].as_array().unwrap();
    assert_eq!(results[0]["memory"]["content"], facts[0].0, "{r:#}");
    let s = &results[0]["signals"];
    use miniclaw::memory::score::{W_BM25, W_PROMINENCE, W_SEMANTIC};
    let expected = W_BM25 * s["bm25"].as_f64().unwrap()
        + W_SEMANTIC * s["semantic"].as_f64().unwrap()
        + W_PROMINENCE * s["prominence"].as_f64().unwrap();
    assert!((results[0]["score"].as_f64().unwrap() - expected).abs() < 1e-9);
    assert!(s["semantic"].as_f64().unwrap() > 0.4, "MiniLM sees the meaning: {s}");
    assert_eq!(results[0]["found_by"], json!(["bm25", "vector"]));
    let e = &r["explanation"];
    assert_eq!(e["query_terms"], json!(["citi", "user", "live"]), "stemmed");
    assert_eq!((e["bm25"]["searched"].as_bool(), e["vector"]["searched"].as_bool()), (Some(true), Some(true)));
    assert_eq!(e["live_memories"], 6);

    // Meaning without shared words: only the vector path finds it.
    let r = a.search(json!({ "query": "saxophonist music taste", "limit": 1 })).await;
    assert_eq!(r["results"][0]["memory"]["category"], "interest");
    // Filters: by category; an empty result says why.
    let r = a.search(json!({ "query": "jazz", "filters": { "category": ["knowledge"] } })).await;
    assert!(r["results"].as_array().unwrap().iter().all(|x| x["memory"]["category"] == "knowledge"));
    let r = a.search(json!({ "query": "jazz", "filters": { "category": ["goal"], "from": "2001-01-01T00:00:00Z", "to": "2001-01-02T00:00:00Z" } })).await;
    assert_eq!(r["results"].as_array().unwrap().len(), 0);
    assert!(r["explanation"]["empty_reason"].as_str().unwrap().contains("none passed the filters"), "{r}");
    let r = a.search(json!({ "query": "jazz", "filters": { "status": ["archived"] } })).await;
    assert!(r["explanation"]["bm25"]["note"].as_str().unwrap().contains("live (active and dormant) memories only"));

    // Rerank with the offline engine's rerank role: scores blended 0.4/0.6 and explained.
    let r = a.search(json!({ "query": "jazz in Vienna", "rerank": true, "limit": 2 })).await;
    assert_eq!(r["explanation"]["reranked"], true, "{r}");
    let top = &r["results"][0];
    let blended = 0.4 * top["signals"]["hybrid"].as_f64().unwrap() + 0.6 * top["signals"]["llm"].as_f64().unwrap();
    assert!((top["score"].as_f64().unwrap() - blended).abs() < 1e-9);

    // Bad input is a 400.
    for body in [
        json!({ "query": "" }),
        json!({ "query": "x", "limit": 0 }),
        json!({ "query": "x", "filters": { "status": ["gone"] } }),
    ] {
        assert_eq!(a.call(Method::POST, "/memories/search", Some(body)).await.status, 400);
    }
}

#[tokio::test]
async fn bm25_in_the_database_is_true_bm25() {
    let a = Agent::new(TestApp::spawn().await).await;
    let docs = [
        "jazz concert in vienna tonight",
        "the vienna philharmonic plays mozart",
        "jazz jazz jazz saxophone practice every morning",
        "marathon training plan for spring",
        "vienna coffee houses serve melange and strudel with jazz",
    ];
    for d in docs {
        a.remember(d, "context").await;
    }
    let tokenized: Vec<Vec<String>> = docs.iter().map(|d| miniclaw::memory::terms::terms(d)).collect();
    let query = miniclaw::memory::terms::terms("vienna jazz");
    let reference = miniclaw::memory::score::bm25_reference(&tokenized, &query);
    let agent: AgentId = a.id.parse().unwrap();
    let mut conn = a.app.pool().acquire().await.unwrap();
    let scored = miniclaw::memory::terms::bm25(&mut conn, agent, &query, None, 10).await.unwrap();
    let contents: std::collections::HashMap<MemoryId, String> =
        sqlx::query_as("SELECT id, content FROM agent_memories")
            .fetch_all(&mut *conn)
            .await
            .unwrap()
            .into_iter()
            .collect();
    assert_eq!(scored.len(), 4, "the marathon memory shares no word");
    for (id, score) in scored {
        let i = docs.iter().position(|d| *d == contents[&id]).unwrap();
        assert!((score - reference[i]).abs() < 1e-9, "{}: {score} vs {}", docs[i], reference[i]);
    }
    // Deleting and deprecating take memories out of the corpus (N and avgdl follow).
    let stats: (i32, i64) =
        sqlx::query_as("SELECT docs, total_length FROM memory_corpus_stats").fetch_one(&mut *conn).await.unwrap();
    assert_eq!(stats, (5, tokenized.iter().map(Vec::len).sum::<usize>() as i64));
    drop(conn);
    let first = a.call(Method::GET, "/memories?limit=1", None).await.json()[0]["id"].as_str().unwrap().to_string();
    a.call(Method::PATCH, &format!("/memories/{first}"), Some(json!({ "status": "deprecated" }))).await;
    let docs_now: i32 =
        sqlx::query_scalar("SELECT docs FROM memory_corpus_stats").fetch_one(a.app.pool()).await.unwrap();
    assert_eq!(docs_now, 4);
}

#[tokio::test]
async fn maxscore_reads_only_what_the_exact_part_needs() {
    use miniclaw::memory::terms;
    let a = Agent::new(TestApp::spawn().await).await;
    let agent: AgentId = a.id.parse().unwrap();
    let pool = a.app.pool();
    // 3,000 memories: "common" in all, "mid" in every third, "rare" in every sixtieth (50), with
    // varied lengths and frequencies: 4,050 postings, past the full-scan limit, so MaxScore runs.
    for sql in [
        "INSERT INTO agent_memories (id, agent_id, content, category, source, content_hash, term_count)
         SELECT gen_random_uuid(), $1, 'memory ' || i, 'context', 'conversation', md5(i::text), 3 + i % 7 FROM generate_series(1, 3000) i",
        "INSERT INTO memory_terms (agent_id, term, memory_id, tf, doc_len)
         SELECT $1, t.term, m.id, 1 + m.n % 3, m.term_count
           FROM (SELECT id, term_count, row_number() OVER (ORDER BY content) AS n FROM agent_memories
                  WHERE agent_id = $1 AND content LIKE 'memory %') m,
                (VALUES ('common', 1), ('mid', 3), ('rare', 60)) AS t(term, every)
          WHERE m.n % t.every = 0",
        "UPDATE memory_corpus_stats SET docs = 3000, total_length = (SELECT sum(term_count) FROM agent_memories WHERE agent_id = $1)
          WHERE agent_id = $1",
        "INSERT INTO memory_term_stats (agent_id, term, df, max_tf, min_doc_len)
         SELECT agent_id, term, count(*), max(tf), min(doc_len) FROM memory_terms WHERE agent_id = $1 GROUP BY agent_id, term
         ON CONFLICT (agent_id, term) DO UPDATE SET df = excluded.df, max_tf = excluded.max_tf, min_doc_len = excluded.min_doc_len",
    ] {
        sqlx::query(sql).bind(agent).execute(pool).await.unwrap();
    }
    let all: Vec<MemoryId> =
        sqlx::query_scalar("SELECT id FROM agent_memories WHERE agent_id = $1 AND content LIKE 'memory %'")
            .bind(agent)
            .fetch_all(pool)
            .await
            .unwrap();
    let query: Vec<String> = ["rare", "mid", "common"].map(String::from).into();
    let mut conn = pool.acquire().await.unwrap();
    // Every memory scored: the truth.
    let truth = terms::bm25(&mut conn, agent, &query, Some(&all), 3000).await.unwrap();
    assert_eq!(truth.len(), 3000);
    // MaxScore's top 100 is the true top 100 (the rare term's 50 cannot fill it alone).
    let exact = terms::bm25(&mut conn, agent, &query, None, 100).await.unwrap();
    assert_eq!(exact, truth[..100]);
    // With only the first 20 exact, the rare term's 50 documents settle them: nothing more is
    // read, and what is returned is exact where it must be and truly scored everywhere.
    let deep = terms::bm25_deep(&mut conn, agent, &query, 100, 20).await.unwrap();
    assert_eq!(deep[..20], truth[..20]);
    assert_eq!(deep.len(), 50, "the memories of the rare term only");
    let true_score: std::collections::HashMap<MemoryId, f64> = truth.iter().copied().collect();
    assert!(deep.iter().all(|(id, s)| true_score[id] == *s));
    assert!(deep.windows(2).all(|w| w[0].1 >= w[1].1));
}

#[tokio::test]
async fn a_large_agent_gets_its_own_vector_index_and_searches_use_it() {
    use miniclaw::memory::vector;
    let a = Agent::new(TestApp::spawn().await).await;
    for i in 0..6 {
        a.remember(&format!("Fact number {i} about the user's garden"), "context").await;
    }
    let other = a.app.create_agent(&a.owner, json!({ "name": "Bo" })).await["id"].as_str().unwrap().to_string();
    let r = a
        .app
        .send(
            a.app
                .as_bearer(&a.owner.token, Method::POST, &format!("/v1/hosted-agents/{other}/memories"))
                .json(&json!({ "content": "Bo's only memory", "category": "context" })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);

    // With a threshold of 5 only Ada's six memories qualify.
    let agent: AgentId = a.id.parse().unwrap();
    let name = vector::agent_index_name(agent, "hash-384");
    let report = vector::ensure_agent_indexes(a.app.pool(), 5).await.unwrap();
    assert_eq!(report.created, vec![name.clone()]);
    assert!(vector::ensure_agent_indexes(a.app.pool(), 5).await.unwrap().created.is_empty(), "idempotent");

    // The search statement, bound the way `nearest` binds it, is planned onto that index.
    let mut tx = a.app.pool().begin().await.unwrap();
    sqlx::query("SET LOCAL enable_seqscan = off").execute(&mut *tx).await.unwrap();
    let plan: Vec<String> = sqlx::query_scalar(&format!("EXPLAIN {}", vector::nearest_sql(384, false, "hash-384")))
        .bind(agent)
        .bind(vector::param(&[0.05; 384]))
        .bind(10i64)
        .bind(vec!["active".to_string()])
        .bind(Vec::<String>::new())
        .bind(Vec::<String>::new())
        .bind(None::<chrono::DateTime<chrono::Utc>>)
        .bind(None::<chrono::DateTime<chrono::Utc>>)
        .bind(true)
        .bind(None::<String>)
        .persistent(false)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    assert!(plan.iter().any(|l| l.contains(&name)), "{plan:#?}");
    tx.rollback().await.unwrap();
    let found = a.search(json!({ "query": "garden", "limit": 3 })).await;
    assert_eq!(found["results"].as_array().unwrap().len(), 3, "{found}");

    // The agent goes; so does its index.
    assert_eq!(a.call(Method::DELETE, "", None).await.status, 204);
    let report = vector::ensure_agent_indexes(a.app.pool(), 5).await.unwrap();
    assert_eq!(report.dropped, vec![name.clone()]);
    let left: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = $1)")
        .bind(&name)
        .fetch_one(a.app.pool())
        .await
        .unwrap();
    assert!(!left);
}

/// Makes the agent look large (50,000 memories) to the vector search, which then goes through
/// the HNSW index instead of comparing every row.
async fn searched_through_the_index<'e>(db: impl sqlx::PgExecutor<'e>, agent: AgentId) {
    sqlx::query("UPDATE memory_corpus_stats SET docs = 50000 WHERE agent_id = $1")
        .bind(agent)
        .execute(db)
        .await
        .unwrap();
}

#[tokio::test]
async fn small_agents_are_searched_exactly_and_large_ones_through_the_index() {
    use miniclaw::memory::vector::{self, Filters};
    let a = Agent::new(TestApp::spawn().await).await;
    let agent: AgentId = a.id.parse().unwrap();
    for i in 0..5 {
        a.remember(&format!("Garden note {i}: tomatoes along the south wall"), "context").await;
    }
    let mut conn = a.app.pool().acquire().await.unwrap();
    // The query is one memory's own vector: both ways must find that memory first.
    let (target, stored): (MemoryId, pgvector::Vector) =
        sqlx::query_as("SELECT id, embedding FROM agent_memories WHERE agent_id = $1 LIMIT 1")
            .bind(agent)
            .fetch_one(&mut *conn)
            .await
            .unwrap();
    // Read back in pgvector's binary form, exactly as stored.
    let q = stored.to_vec();
    assert_eq!(q.len(), 384);
    let small = vector::nearest(&mut conn, agent, "hash-384", &q, 3, &Filters::default()).await.unwrap();
    assert_eq!(small.len(), 3);
    assert_eq!(small[0].0, target);
    // Pretend the agent is large: the same search now goes through the HNSW index.
    searched_through_the_index(&mut *conn, agent).await;
    let large = vector::nearest(&mut conn, agent, "hash-384", &q, 3, &Filters::default()).await.unwrap();
    assert_eq!(large.len(), 3);
    assert_eq!(large[0].0, target);
    assert!(large[0].1 > 0.999, "{large:?}");
    // The settings were local to the search's transaction.
    let seqscan: String = sqlx::query_scalar("SHOW enable_seqscan").fetch_one(&mut *conn).await.unwrap();
    assert_eq!(seqscan, "on");

    // With the plan read beforehand (as the chat turn's probe does), the settings travel with
    // the BEGIN: the same answer, and again nothing outlives the search.
    let plan: vector::Plan = sqlx::query_as(&format!("SELECT {}", vector::plan_sql("$1", "$2")))
        .bind(agent)
        .bind("hash-384")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert_eq!(plan, vector::Plan { exact: false, own: false });
    let planned =
        vector::nearest_memories(&mut conn, agent, "hash-384", &q, 3, &Filters::default(), Some(plan)).await.unwrap();
    let ids: Vec<MemoryId> = planned.iter().map(|s| s.memory.id).collect();
    assert_eq!(ids, large.iter().map(|(id, _)| *id).collect::<Vec<_>>());
    assert!(planned[0].similarity > 0.999);
    let seqscan: String = sqlx::query_scalar("SHOW enable_seqscan").fetch_one(&mut *conn).await.unwrap();
    assert_eq!(seqscan, "on");
}

#[tokio::test]
async fn a_bounded_index_search_still_finds_near_matches_and_leaves_its_bound_behind() {
    use miniclaw::memory::vector::{self, Filters};
    let a = Agent::new(TestApp::spawn().await).await;
    let items: Vec<Value> = (0..300)
        .map(|i| json!({ "content": format!("Chess note {i}: the user plays the Sicilian defence online"), "category": "interest" }))
        .collect();
    let r = a.call(Method::POST, "/memories/bulk", Some(json!({ "memories": items }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let far = a.remember("The user was born in Graz", "identity").await;
    let agent: AgentId = a.id.parse().unwrap();
    searched_through_the_index(a.app.pool(), agent).await;
    let mut conn = a.app.pool().acquire().await.unwrap();
    let stored: pgvector::Vector = sqlx::query_scalar(
        "SELECT embedding FROM agent_memories WHERE agent_id = $1 AND category = 'interest' LIMIT 1",
    )
    .bind(agent)
    .fetch_one(&mut *conn)
    .await
    .unwrap();
    let q = stored.to_vec();
    // Unbounded, the iterative scan walks past all 300 chess notes to the one identity memory.
    let identity = Filters { categories: vec!["identity".into()], ..Filters::default() };
    let found = vector::nearest(&mut conn, agent, "hash-384", &q, 1, &identity).await.unwrap();
    assert_eq!(found.iter().map(|(id, _)| id.to_string()).collect::<Vec<_>>(), [far["id"].as_str().unwrap()]);
    // Bounded (as the chat context searches), matches near the query are found as before, with
    // and without the plan read beforehand, and the bound ends with the search.
    let interest = Filters { categories: vec!["interest".into()], scan_max: Some(10), ..Filters::default() };
    assert_eq!(vector::nearest(&mut conn, agent, "hash-384", &q, 5, &interest).await.unwrap().len(), 5);
    let plan = vector::Plan { exact: false, own: false };
    let planned = vector::nearest_memories(&mut conn, agent, "hash-384", &q, 5, &interest, Some(plan)).await.unwrap();
    assert_eq!(planned.len(), 5);
    assert!(planned.iter().all(|s| s.memory.category == "interest"));
    let bound: String = sqlx::query_scalar("SHOW hnsw.max_scan_tuples").fetch_one(&mut *conn).await.unwrap();
    assert_eq!(bound, "20000");
}

#[tokio::test]
async fn a_search_inside_a_transaction_leaves_its_plan_settings_behind() {
    use miniclaw::memory::vector::{self, Filters};
    let a = Agent::new(TestApp::spawn().await).await;
    a.remember("The user lives in Vienna", "identity").await;
    let agent: AgentId = a.id.parse().unwrap();
    searched_through_the_index(a.app.pool(), agent).await;
    let mut tx = a.app.pool().begin().await.unwrap();
    let found = vector::nearest(&mut tx, agent, "hash-384", &[0.05; 384], 1, &Filters::default()).await.unwrap();
    assert_eq!(found.len(), 1);
    let (seqscan, sort): (String, String) =
        sqlx::query_as("SELECT current_setting('enable_seqscan'), current_setting('enable_sort')")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    assert_eq!((seqscan.as_str(), sort.as_str()), ("on", "on"));
    tx.commit().await.unwrap();
}
