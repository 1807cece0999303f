//! SPEC R1–R8 through the API: CRUD with history and tombstones, key scopes, bulk upload,
//! expiry, extraction hygiene, invalidation, re-embedding, retrieval hits, the newest memories
//! and store health. Search is in `memory_search.rs`, knowledge ingestion in
//! `memory_knowledge.rs`.

use miniclaw::ids::{AgentId, MemoryId};
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent as Agent, TestApp, minilm};

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

    // Validation: clear 4xx naming the field (422 for a field over its length limit).
    for (body, field, status) in [
        (json!({ "content": "", "category": "identity" }), "content", 400),
        (json!({ "content": "x", "category": "Not A Category" }), "category", 400),
        (json!({ "content": "x", "category": "goal", "importance": 11 }), "importance", 400),
        (json!({ "content": "x".repeat(5001), "category": "goal" }), "content", 422),
    ] {
        let r = a.call(Method::POST, "/memories", Some(body)).await;
        assert_eq!(r.status, status, "{}", r.text);
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
    // Each write is in the agent's activity log, by whom and which memory, without its text.
    let log = a.call(Method::GET, "/activity?limit=50", None).await.json();
    let writes: Vec<(&str, &str)> = log
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["details"]["memory_id"] == mid.as_str())
        .map(|e| (e["action"].as_str().unwrap(), e["actor_type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        writes,
        [
            ("memory.forgotten", "owner"),
            ("memory.updated", "owner"),
            ("memory.updated", "owner"),
            ("memory.created", "owner")
        ]
    );
    assert!(!log.to_string().contains("Vienna") && !log.to_string().contains("Graz"), "no text in the log: {log}");

    // Neither the corrected nor the deleted wording comes back from extraction.
    let pool = a.app.pool();
    let mut conn = pool.acquire().await.unwrap();
    let agent: AgentId = a.id.parse().unwrap();
    for fact in ["the user lives in vienna.", "The user lives in Graz"] {
        assert!(
            miniclaw::memory::hygiene::tombstoned(&mut conn, agent, None, fact, None, None).await.unwrap(),
            "{fact}"
        );
    }
    assert!(
        !miniclaw::memory::hygiene::tombstoned(&mut conn, agent, None, "The user likes jazz", None, None)
            .await
            .unwrap()
    );
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
    use miniclaw::memory::hygiene::Injected;
    use miniclaw::memory::{Candidate, NewMemory, Remembered, remember};
    use miniclaw::tenancy::auth::Actor;

    let a = Agent::new(TestApp::spawn().await).await;
    let agent: AgentId = a.id.parse().unwrap();
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
    use miniclaw::tenancy::auth::Actor;
    let a = Agent::new(TestApp::spawn().await).await;
    let agent: AgentId = a.id.parse().unwrap();
    let old = a.remember("The user drinks oat milk in coffee", "preference").await;
    a.remember("The user drinks whole milk in coffee", "preference").await;
    let id: MemoryId = old["id"].as_str().unwrap().parse().unwrap();
    let origin = Origin::new(Actor::Job("lint".into()), None);
    let mut tx = a.app.pool().begin().await.unwrap();
    miniclaw::memory::invalidate(&mut tx, agent, id, &origin, "contradicted by: The user drinks whole milk in coffee")
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let r = a.search(json!({ "query": "oat milk coffee" })).await;
    assert!(r["results"].as_array().unwrap().iter().all(|x| x["memory"]["id"] != old["id"]), "out of search: {r}");
    let m = a.call(Method::GET, &format!("/memories/{id}"), None).await.json();
    assert!(m["invalid_at"].is_string(), "kept, marked invalid: {m}");
    let history = a.call(Method::GET, &format!("/memories/{id}/history"), None).await.json();
    assert_eq!(history[1]["change"], "invalidate");
    assert_eq!(
        (history[1]["actor_type"].as_str(), history[1]["reason"].as_str()),
        (Some("job"), Some("contradicted by: The user drinks whole milk in coffee"))
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
async fn retrievals_are_recorded_and_folded_into_the_memories() {
    let a = Agent::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let m = a.remember("The user lives in Vienna", "identity").await;
    let found = a.search(json!({ "query": "Vienna" })).await;
    assert_eq!(found["results"].as_array().unwrap().len(), 1);
    // The search recorded its hit before answering.
    let hits: i64 = sqlx::query_scalar("SELECT count(*) FROM memory_hits WHERE kind = 'retrieval'")
        .fetch_one(a.app.pool())
        .await
        .unwrap();
    assert_eq!(hits, 1);
    let mid: MemoryId = m["id"].as_str().unwrap().parse().unwrap();
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
    let agent: AgentId = a.id.parse().unwrap();
    let mut conn = a.app.pool().acquire().await.unwrap();
    async fn contents(conn: &mut sqlx::PgConnection, agent: AgentId, f: Newest<'_>, k: i64) -> Vec<String> {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deletion_takes_the_corpus_lock_first_like_an_addition_so_they_never_deadlock() {
    // Adding a memory locks the agent's corpus row first (its change-time trigger) and then the
    // term statistics of its words. A deletion must take them in the same order: if it locked a
    // shared term and then waited for the corpus row, an addition holding the corpus row and
    // waiting for that term would deadlock with it, and PostgreSQL would abort one (a 500).
    let a = Agent::new(TestApp::spawn().await).await;
    let m = a.remember("The harbour lighthouse keeper rows at dawn", "context").await;
    let id = uuid::Uuid::parse_str(&a.id).unwrap();
    let mut adding = a.app.pool().begin().await.unwrap();
    // What an addition's first statement holds: the corpus row.
    sqlx::query("UPDATE memory_corpus_stats SET changed_at = clock_timestamp() WHERE agent_id = $1")
        .bind(id)
        .execute(&mut *adding)
        .await
        .unwrap();
    let request =
        a.app.as_bearer(&a.owner.token, Method::DELETE, &a.path(&format!("/memories/{}", m["id"].as_str().unwrap())));
    let deletion = tokio::spawn(request.send());
    // Wait (bounded) until the deletion is blocked behind the corpus row.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(a.app.pool())
        .await
        .unwrap();
        if waiting > 0 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the deletion never waited for the corpus row");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // The addition goes on to the term statistics of a shared word: the deletion holds none of
    // them, so this neither waits nor deadlocks.
    sqlx::query("SET LOCAL lock_timeout = '3s'").execute(&mut *adding).await.unwrap();
    sqlx::query("UPDATE memory_term_stats SET df = df WHERE agent_id = $1 AND term = 'harbour'")
        .bind(id)
        .execute(&mut *adding)
        .await
        .expect("the addition reaches the term statistics");
    adding.commit().await.unwrap();
    let r = deletion.await.unwrap().unwrap();
    assert_eq!(r.status(), 204, "{:?}", r.text().await);
    let docs: i32 = sqlx::query_scalar("SELECT docs FROM memory_corpus_stats WHERE agent_id = $1")
        .bind(id)
        .fetch_one(a.app.pool())
        .await
        .unwrap();
    assert_eq!(docs, 0);
}
