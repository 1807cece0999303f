//! SPEC R1–R8 and X1 through the API: CRUD with history and tombstones, bulk upload, hybrid
//! search with true BM25, knowledge ingestion with SSRF protection, expiry, store health.

use axum::response::{Html, Redirect};
use axum::routing::get;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::TestApp;

/// An app with the real MiniLM embedder (the harness default is the hashing one).
async fn minilm() -> TestApp {
    TestApp::builder().env("MINICLAW_EMBEDDER", "minilm").spawn().await
}

use crate::common::OwnedAgent as Agent;

impl Agent {
    async fn search(&self, body: Value) -> Value {
        let r = self.call(Method::POST, "/memories/search", Some(body)).await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()
    }
}

#[tokio::test]
async fn memories_are_created_edited_pinned_deleted_and_audited() {
    let a = Agent::new(minilm().await).await;
    let m = a.remember("The user lives in Vienna", "identity").await;
    let mid = m["id"].as_str().unwrap().to_string();
    assert_eq!(
        (m["source"].as_str(), m["importance"].as_f64(), m["status"].as_str()),
        (Some("owner"), Some(5.0), Some("active"))
    );
    assert_eq!(m["embedding_model"], "all-MiniLM-L6-v2", "stored with its vector and model");

    // Validation: clear 400s naming the field.
    for (body, field) in [
        (json!({ "content": "", "category": "identity" }), "content"),
        (json!({ "content": "x", "category": "Not A Category" }), "category"),
        (json!({ "content": "x", "category": "goal", "importance": 11 }), "importance"),
        (json!({ "content": "x".repeat(5001), "category": "goal" }), "content"),
    ] {
        let r = a.call(Method::POST, "/memories", Some(body)).await;
        assert_eq!(r.status, 400, "{}", r.text);
        assert_eq!(r.json()["error"]["details"]["field"], field);
    }

    // Correct it (owner): a new version, and a tombstone for the old wording.
    let r = a
        .call(
            Method::PATCH,
            &format!("/memories/{mid}"),
            Some(json!({ "content": "The user lives in Graz", "reason": "moved" })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["content"], "The user lives in Graz");
    let r = a.call(Method::PATCH, &format!("/memories/{mid}"), Some(json!({ "pinned": true }))).await;
    assert_eq!(r.json()["pinned"], true);
    let r = a.call(Method::GET, "/memories?status=active&category=identity", None).await;
    assert_eq!(r.json().as_array().unwrap().len(), 1);
    assert_eq!(a.call(Method::GET, "/memories?status=gone", None).await.status, 400);

    // Delete: 204, then 404; the history outlives it.
    let r = a.call(Method::DELETE, &format!("/memories/{mid}?reason=wrong"), None).await;
    assert_eq!(r.status, 204);
    assert_eq!(a.call(Method::GET, &format!("/memories/{mid}"), None).await.status, 404);
    let history = a.call(Method::GET, &format!("/memories/{mid}/history"), None).await.json();
    let changes: Vec<&str> = history.as_array().unwrap().iter().map(|v| v["change"].as_str().unwrap()).collect();
    assert_eq!(changes, ["create", "update", "pin", "delete"]);
    assert_eq!(history[1]["reason"], "moved");
    assert_eq!(history[1]["snapshot"]["content"], "The user lives in Graz");
    assert_eq!(history[3]["reason"], "wrong");
    assert_eq!(history[0]["actor_type"], "owner");

    // Neither the corrected nor the deleted wording comes back from extraction.
    let pool = a.app.pool();
    let mut conn = pool.acquire().await.unwrap();
    let agent: uuid::Uuid = a.id.parse().unwrap();
    for fact in ["the user lives in vienna.", "The user lives in Graz"] {
        assert!(miniclaw::memory::hygiene::tombstoned(&mut conn, agent, fact, None, None).await.unwrap(), "{fact}");
    }
    assert!(!miniclaw::memory::hygiene::tombstoned(&mut conn, agent, "The user likes jazz", None, None).await.unwrap());
    drop(conn);
    let health = a.call(Method::GET, "/memory-health", None).await.json();
    assert_eq!((health["tombstones"].as_i64(), health["tombstone_hits"].as_i64()), (Some(2), Some(2)), "{health}");

    // Another agent of the same owner cannot reach it by id.
    let other = a.app.create_agent(&a.owner, json!({ "name": "Bob" })).await["id"].as_str().unwrap().to_string();
    let m2 = a.remember("The user likes jazz", "interest").await["id"].as_str().unwrap().to_string();
    let r = a
        .app
        .send(a.app.as_bearer(&a.owner.token, Method::GET, &format!("/v1/hosted-agents/{other}/memories/{m2}")))
        .await;
    assert_eq!(r.status, 404);
}

#[tokio::test]
async fn keys_need_the_memories_scopes() {
    let a = Agent::new(TestApp::spawn().await).await;
    a.remember("The user likes jazz", "interest").await;
    let (_, read) = a.app.create_key(&a.owner, &a.id, &["memories:read"]).await;
    let (_, write) = a.app.create_key(&a.owner, &a.id, &["memories:write"]).await;
    let (_, other) = a.app.create_key(&a.owner, &a.id, &["chat:write"]).await;
    let list = a.path("/memories");
    assert_eq!(a.app.send(a.app.as_bearer(&read, Method::GET, &list)).await.status, 200);
    let body = json!({ "content": "The user plays piano", "category": "interest" });
    let r = a.app.send(a.app.as_bearer(&read, Method::POST, &list).json(&body)).await;
    assert_eq!(r.status, 403);
    assert!(r.text.contains("memories:write"), "{}", r.text);
    let r = a.app.send(a.app.as_bearer(&write, Method::POST, &list).json(&body)).await;
    assert_eq!(r.status, 201);
    assert_eq!(r.json()["source"], "api");
    let r = a
        .app
        .send(a.app.as_bearer(&other, Method::POST, &a.path("/memories/search")).json(&json!({ "query": "jazz" })))
        .await;
    assert_eq!(r.status, 403);
}

#[tokio::test]
async fn bulk_uploads_are_all_or_nothing() {
    let a = Agent::new(TestApp::spawn().await).await;
    let mut items: Vec<Value> =
        (0..5).map(|i| json!({ "content": format!("Fact number {i}"), "category": "context" })).collect();
    items[3] = json!({ "content": "  ", "category": "context" });
    let r = a.call(Method::POST, "/memories/bulk", Some(json!({ "memories": items }))).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"]["details"]["field"], "memories[3].content");
    assert_eq!(a.call(Method::GET, "/memories", None).await.json().as_array().unwrap().len(), 0, "nothing stored");

    let too_many: Vec<Value> = (0..501).map(|i| json!({ "content": format!("f{i}"), "category": "context" })).collect();
    assert_eq!(a.call(Method::POST, "/memories/bulk", Some(json!({ "memories": too_many }))).await.status, 400);

    items[3] = json!({ "content": "Fact number 3", "category": "context", "importance": 9, "pinned": true });
    let r = a.call(Method::POST, "/memories/bulk", Some(json!({ "memories": items }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json()["created"], 5);
    assert_eq!(a.call(Method::GET, "/memories?limit=200", None).await.json().as_array().unwrap().len(), 5);
}

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
    let expected = 0.4 * s["bm25"].as_f64().unwrap()
        + 0.4 * s["semantic"].as_f64().unwrap()
        + 0.2 * s["prominence"].as_f64().unwrap();
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
    assert!(r["explanation"]["bm25"]["note"].as_str().unwrap().contains("active memories only"));

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
    let agent: uuid::Uuid = a.id.parse().unwrap();
    let mut conn = a.app.pool().acquire().await.unwrap();
    let scored = miniclaw::memory::terms::bm25(&mut conn, agent, &query, None, 10).await.unwrap();
    let contents: std::collections::HashMap<uuid::Uuid, String> =
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

async fn page_server() -> String {
    let app = axum::Router::new()
        .route("/page", get(|| async { Html("<html><head><title>Jazz in Vienna</title><script>x()</script></head><body><h1>Clubs</h1><p>Porgy &amp; Bess opened in 1993.</p></body></html>") }))
        .route("/to-metadata", get(|| async { Redirect::temporary("http://169.254.169.254/latest/meta-data/") }))
        .route("/to-page", get(|| async { Redirect::temporary("/page") }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

#[tokio::test]
async fn knowledge_from_text_and_urls_with_ssrf_protection_and_a_cap() {
    let base = page_server().await;
    let plain = Agent::new(TestApp::spawn().await).await;
    for url in [
        format!("{base}/page"),
        "http://169.254.169.254/latest/meta-data/".into(),
        "http://[::1]:80/".into(),
        "file:///etc/passwd".into(),
    ] {
        let r = plain.call(Method::POST, "/knowledge/url", Some(json!({ "url": url }))).await;
        assert_eq!(r.status, 422, "{url}: {}", r.text);
        assert_eq!(r.json()["error"]["code"], "url_refused");
    }

    let app =
        TestApp::builder().env("MINICLAW_URL_ALLOWLIST", "127.0.0.1").env("MINICLAW_KNOWLEDGE_CAP", "3").spawn().await;
    let a = Agent::new(app).await;
    let r = a.call(Method::POST, "/knowledge/url", Some(json!({ "url": format!("{base}/to-page") }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let k = r.json();
    assert_eq!(k["title"], "Jazz in Vienna");
    assert_eq!(k["chunks"][0]["content"], "Clubs Porgy & Bess opened in 1993.");
    assert_eq!((k["chunks"][0]["source"].as_str(), k["chunks"][0]["confidence"].as_f64()), (Some("url"), Some(1.0)));
    // Allowed host, but its redirect leads to the metadata address: refused.
    let r = a.call(Method::POST, "/knowledge/url", Some(json!({ "url": format!("{base}/to-metadata") }))).await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert!(r.text.contains("169.254.169.254"));

    let text = "Vienna has about two million inhabitants. ".repeat(30);
    let r = a.call(Method::POST, "/knowledge", Some(json!({ "text": text, "title": "Vienna facts" }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let chunks = r.json()["chunks"].as_array().unwrap().clone();
    assert!(chunks.len() >= 3 && chunks.iter().all(|c| c["content"].as_str().unwrap().chars().count() <= 400));
    assert_eq!(r.json()["entries"], 2);
    assert_eq!(a.call(Method::POST, "/knowledge", Some(json!({ "text": "Third entry." }))).await.status, 201);
    let r = a.call(Method::POST, "/knowledge", Some(json!({ "text": "Fourth entry." }))).await;
    assert_eq!(r.status, 409);
    assert!(r.text.contains("cap is 3"), "{}", r.text);
    assert_eq!(a.call(Method::POST, "/knowledge", Some(json!({ "text": " " }))).await.status, 400);
}

#[tokio::test]
async fn expired_memories_are_deleted_by_the_daily_job() {
    let a = Agent::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let soon = a
        .call(
            Method::POST,
            "/memories",
            Some(
                json!({ "content": "Dentist on Friday", "category": "context", "expires_at": "2020-01-01T00:00:00Z" }),
            ),
        )
        .await
        .json();
    let keep = a.remember("The user lives in Vienna", "identity").await;
    let r = a.app.send(a.app.admin(Method::POST, "/v1/admin/run/memory_expiry")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["result"]["deleted"], 1);
    let left = a.call(Method::GET, "/memories", None).await.json();
    assert_eq!(left.as_array().unwrap().len(), 1);
    assert_eq!(left[0]["id"], keep["id"]);
    let history =
        a.call(Method::GET, &format!("/memories/{}/history", soon["id"].as_str().unwrap()), None).await.json();
    assert_eq!(history[1]["change"], "delete");
    assert_eq!((history[1]["actor_type"].as_str(), history[1]["reason"].as_str()), (Some("job"), Some("expired")));
}

#[tokio::test]
async fn extraction_does_not_bring_back_deleted_facts_or_restate_injected_ones() {
    use miniclaw::activity::Origin;
    use miniclaw::auth::Actor;
    use miniclaw::memory::hygiene::Injected;
    use miniclaw::memory::{Candidate, NewMemory, Remembered, remember};

    let a = Agent::new(TestApp::spawn().await).await;
    let agent: uuid::Uuid = a.id.parse().unwrap();
    let m = a.remember("The user lives in Vienna", "identity").await;
    let r = a.call(Method::DELETE, &format!("/memories/{}", m["id"].as_str().unwrap()), None).await;
    assert_eq!(r.status, 204);

    let origin = Origin::new(Actor::Job("extraction".into()), None);
    let candidate = |text: &str, restated: bool| Candidate {
        memory: NewMemory::new(text, "identity", miniclaw::memory::MemorySource::Conversation),
        stated_at: restated.then(chrono::Utc::now),
    };
    let mut conn = a.app.pool().acquire().await.unwrap();
    let got = remember(&mut conn, agent, &origin, candidate("the user lives in Vienna.", false), &[]).await.unwrap();
    assert!(matches!(got, Remembered::Suppressed("tombstone")), "{got:?}");
    // The user says it again later: it is learned again.
    let got = remember(&mut conn, agent, &origin, candidate("The user lives in Vienna", true), &[]).await.unwrap();
    assert!(matches!(got, Remembered::Created(_)), "{got:?}");
    // The same fact once more only counts a mention.
    let got = remember(&mut conn, agent, &origin, candidate("The user lives in Vienna", true), &[]).await.unwrap();
    match got {
        Remembered::Reinforced(m) => assert_eq!(m.mention_count, 2),
        other => panic!("{other:?}"),
    }
    // A fact that only restates what the prompt showed the model is dropped.
    let injected = [Injected { content: "The user likes jazz", embedding: None }];
    let got = remember(&mut conn, agent, &origin, candidate("User likes jazz", false), &injected).await.unwrap();
    assert!(matches!(got, Remembered::Suppressed("recall_loop")), "{got:?}");
    drop(conn);
    let health = a.call(Method::GET, "/memory-health", None).await.json();
    assert_eq!((health["recall_loop_suppressions"].as_i64(), health["tombstone_hits"].as_i64()), (Some(1), Some(1)));
    assert_eq!(health["live_memories"], 1);
}

#[tokio::test]
async fn a_contradicted_fact_is_invalidated_not_deleted() {
    use miniclaw::activity::Origin;
    use miniclaw::auth::Actor;
    let a = Agent::new(TestApp::spawn().await).await;
    let agent: uuid::Uuid = a.id.parse().unwrap();
    let old = a.remember("The user lives in Vienna", "identity").await;
    a.remember("The user lives in Graz", "identity").await;
    let id: uuid::Uuid = old["id"].as_str().unwrap().parse().unwrap();
    let origin = Origin::new(Actor::Job("lint".into()), None);
    let mut tx = a.app.pool().begin().await.unwrap();
    miniclaw::memory::invalidate(&mut tx, agent, id, &origin, "contradicted by: The user lives in Graz").await.unwrap();
    tx.commit().await.unwrap();

    let r = a.search(json!({ "query": "lives Vienna" })).await;
    assert!(r["results"].as_array().unwrap().iter().all(|x| x["memory"]["id"] != old["id"]), "out of search: {r}");
    let m = a.call(Method::GET, &format!("/memories/{id}"), None).await.json();
    assert!(m["invalid_at"].is_string(), "kept, marked invalid: {m}");
    let history = a.call(Method::GET, &format!("/memories/{id}/history"), None).await.json();
    assert_eq!(history[1]["change"], "invalidate");
    assert_eq!(
        (history[1]["actor_type"].as_str(), history[1]["reason"].as_str()),
        (Some("job"), Some("contradicted by: The user lives in Graz"))
    );
    assert_eq!(a.call(Method::GET, "/memory-health", None).await.json()["contradictions"], 1);
}

#[tokio::test]
async fn the_embed_cycle_fills_missing_vectors_and_moves_to_a_new_model() {
    use std::sync::Arc;
    let new_model = Arc::new(miniclaw::embed::hash::HashEmbedder::new(256));
    let app = TestApp::builder().admin_password("pw").cycle(miniclaw::memory::reembed::cycle(new_model)).spawn().await;
    let a = Agent::new(app).await;
    let m = a.remember("The user lives in Vienna", "identity").await;
    assert_eq!(m["embedding_model"], "hash-384");
    let lost = a.remember("The user likes jazz", "interest").await;
    sqlx::query("UPDATE agent_memories SET embedding = NULL, embedding_model = NULL WHERE id = $1")
        .bind(lost["id"].as_str().unwrap().parse::<uuid::Uuid>().unwrap())
        .execute(a.app.pool())
        .await
        .unwrap();
    assert_eq!(a.call(Method::GET, "/memory-health", None).await.json()["unembedded"], 1);

    let r = a.app.send(a.app.admin(Method::POST, "/v1/admin/run/memory_embed")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["result"], json!({ "embedded": 2, "remaining": 0, "model": "hash-256" }));
    let models: Vec<(Option<String>, Option<i32>)> =
        sqlx::query_as("SELECT embedding_model, vector_dims(embedding) FROM agent_memories")
            .fetch_all(a.app.pool())
            .await
            .unwrap();
    assert!(models.iter().all(|m| *m == (Some("hash-256".into()), Some(256))), "{models:?}");
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
    let agent: uuid::Uuid = a.id.parse().unwrap();
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

#[tokio::test]
async fn retrievals_are_recorded_and_folded_into_the_memories() {
    let a = Agent::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let m = a.remember("The user lives in Vienna", "identity").await;
    let found = a.search(json!({ "query": "Vienna" })).await;
    assert_eq!(found["results"].as_array().unwrap().len(), 1);
    // The search appends a hit off the request path; wait for it (bounded).
    let mut hits = 0i64;
    for _ in 0..100 {
        hits = sqlx::query_scalar("SELECT count(*) FROM memory_hits WHERE kind = 'retrieval'")
            .fetch_one(a.app.pool())
            .await
            .unwrap();
        if hits > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(hits, 1);
    let mid: uuid::Uuid = m["id"].as_str().unwrap().parse().unwrap();
    miniclaw::memory::record_hits(a.app.pool(), a.id.parse().unwrap(), &[mid, mid], "mention").await.unwrap();
    let r = a.app.send(a.app.admin(Method::POST, "/v1/admin/run/memory_hits")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["result"]["memories"], 1);
    let got = a.call(Method::GET, &format!("/memories/{mid}"), None).await.json();
    assert_eq!(got["mention_count"], 3, "1 at creation + 2 mentions");
    assert!(got["last_mentioned_at"].is_string() && got["last_retrieved_at"].is_string(), "{got}");
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM memory_hits").fetch_one(a.app.pool()).await.unwrap();
    assert_eq!(left, 0);
}

/// Makes the agent look large (50,000 memories) to the vector search, which then goes through
/// the HNSW index instead of comparing every row.
async fn searched_through_the_index<'e>(db: impl sqlx::PgExecutor<'e>, agent: uuid::Uuid) {
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
    let agent: uuid::Uuid = a.id.parse().unwrap();
    for i in 0..5 {
        a.remember(&format!("Garden note {i}: tomatoes along the south wall"), "context").await;
    }
    let mut conn = a.app.pool().acquire().await.unwrap();
    // The query is one memory's own vector: both ways must find that memory first.
    let (target, stored): (uuid::Uuid, pgvector::Vector) =
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
    let ids: Vec<uuid::Uuid> = planned.iter().map(|s| s.memory.id).collect();
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
    let agent: uuid::Uuid = a.id.parse().unwrap();
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
    let agent: uuid::Uuid = a.id.parse().unwrap();
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

#[tokio::test]
async fn the_newest_live_memories_are_read_newest_first_with_their_filters() {
    use miniclaw::memory::{self, Newest};
    let a = Agent::new(TestApp::spawn().await).await;
    for (content, category) in [
        ("The user was born in Graz", "identity"),
        ("The user wants to learn Italian", "goal"),
        ("The user seems to plan far ahead", "insight"),
        ("The user likes green tea", "preference"),
        ("The user is a nurse", "identity"),
    ] {
        a.remember(content, category).await;
    }
    let gone = a.remember("The user collects stamps", "interest").await;
    let r = a.call(Method::DELETE, &format!("/memories/{}", gone["id"].as_str().unwrap()), None).await;
    assert_eq!(r.status, 204, "{}", r.text);
    let agent: uuid::Uuid = a.id.parse().unwrap();
    let mut conn = a.app.pool().acquire().await.unwrap();
    async fn contents(conn: &mut sqlx::PgConnection, agent: uuid::Uuid, f: Newest<'_>, k: i64) -> Vec<String> {
        memory::newest(conn, agent, f, k).await.unwrap().into_iter().map(|m| m.content).collect()
    }
    let learned = Newest { sources: &memory::LEARNED_SOURCES, except_categories: &["insight"], ..Newest::default() };
    assert_eq!(
        contents(&mut conn, agent, learned, 3).await,
        ["The user is a nurse", "The user likes green tea", "The user wants to learn Italian"],
        "newest first, no insight, nothing deleted"
    );
    let identity = ["identity".to_string()];
    assert_eq!(
        contents(&mut conn, agent, Newest { categories: &identity, ..Newest::default() }, 10).await,
        ["The user is a nurse", "The user was born in Graz"]
    );
    let knowledge = Newest { sources: &["uploaded", "url"], ..Newest::default() };
    assert!(contents(&mut conn, agent, knowledge, 10).await.is_empty());
    // Its plan settings stay inside it.
    let sort: String = sqlx::query_scalar("SHOW enable_sort").fetch_one(&mut *conn).await.unwrap();
    assert_eq!(sort, "on");
}
