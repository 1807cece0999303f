//! SPEC X2–X4, X10: prominence and its tiers, forgetting (archive, restore, prune with the
//! relations), fusion of dormant clusters, spreading activation in search, the dream cycle
//! with isolated phases.

use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::common::{OwnedAgent, TestApp, TestDb};
use crate::llm_server::{LlmServer, Script};
use miniclaw::memory::lifecycle::{self, Usage};

async fn agent() -> OwnedAgent {
    OwnedAgent::new(TestApp::builder().admin_password("pw").spawn().await).await
}

fn id(m: &Value) -> Uuid {
    m["id"].as_str().unwrap().parse().unwrap()
}

/// Sets columns of a memory directly: the test's way of letting time pass.
async fn age(a: &OwnedAgent, m: Uuid, set: &str) {
    sqlx::query(&format!("UPDATE agent_memories SET {set} WHERE id = $1")).bind(m).execute(a.app.pool()).await.unwrap();
}

async fn status(a: &OwnedAgent, m: Uuid) -> (String, bool) {
    sqlx::query_as("SELECT status, faded_at IS NOT NULL FROM agent_memories WHERE id = $1")
        .bind(m)
        .fetch_one(a.app.pool())
        .await
        .unwrap()
}

async fn run(a: &OwnedAgent, cycle: &str) -> Value {
    let r = a.app.send(a.app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/{cycle}", a.id))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()["result"].clone()
}

fn contents(search: &Value) -> Vec<String> {
    search["results"].as_array().unwrap().iter().map(|r| r["memory"]["content"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn the_sql_prominence_is_the_rust_prominence() {
    let db = TestDb::new().await;
    let categories =
        ["event", "context", "goal", "insight", "interest", "preference", "knowledge", "relationship", "other"];
    let mut x: u64 = 7;
    let mut next = |m: u64| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    for i in 0..300 {
        let category = categories[i % categories.len()];
        let (pinned, importance, accesses) = (next(10) == 0, next(101) as f32 / 10.0, next(60) as i32);
        let (age_s, idle_s) = (next(800 * 86_400) as i64, next(800 * 86_400) as i64);
        let idle_s = idle_s.min(age_s);
        let never_used = next(3) == 0;
        let sql: f64 = sqlx::query_scalar(
            "SELECT memory_prominence($1, $2, $3, $4, now() - make_interval(secs => $5),
                    CASE WHEN $7 THEN NULL ELSE now() - make_interval(secs => $6) END, now())",
        )
        .bind(category)
        .bind(pinned)
        .bind(importance)
        .bind(accesses)
        .bind(age_s as f64)
        .bind(idle_s as f64)
        .bind(never_used)
        .fetch_one(&db.pool)
        .await
        .unwrap();
        let rust = lifecycle::prominence(&Usage {
            category,
            constitutional: lifecycle::constitutional(pinned, category),
            importance: f64::from(importance),
            access_count: accesses as u32,
            age_days: age_s as f64 / 86_400.0,
            idle_days: if never_used { age_s } else { idle_s } as f64 / 86_400.0,
        });
        assert!(
            (sql - rust).abs() < 1e-6,
            "{category} {pinned} {importance} {accesses} {age_s} {idle_s}: {sql} vs {rust}"
        );
    }
}

#[tokio::test]
async fn decay_tiers_memories_forgetting_archives_the_unused_and_restore_and_prune_follow() {
    let a = agent().await;
    let concert = id(&a.remember("The user went to a jazz concert in Graz", "event").await);
    let rust = id(&a.remember("The user is learning the Rust language", "interest").await);
    let name = id(&a.remember("The user's name is Ada Lovelace", "identity").await);
    let owner_event = id(&a.remember("The user had a dentist appointment", "event").await);
    // Learned from conversations, and old: a year-old unimportant event, a 100-day-old interest,
    // an ancient identity fact; the owner's own event is as old as the concert.
    age(&a, concert, "source = 'conversation', importance = 2, created_at = now() - interval '400 days'").await;
    age(&a, rust, "source = 'conversation', created_at = now() - interval '100 days'").await;
    age(&a, name, "source = 'conversation', importance = 0, created_at = now() - interval '2000 days'").await;
    age(&a, owner_event, "importance = 2, created_at = now() - interval '400 days'").await;

    let r = run(&a, "breath").await;
    assert_eq!(r["faded"].as_array().unwrap().len(), 1, "{r}");
    assert_eq!(status(&a, concert).await, ("archived".into(), true));
    assert_eq!(status(&a, rust).await, ("dormant".into(), false), "{r}");
    assert_eq!(status(&a, name).await, ("active".into(), false), "identity is constitutional");
    assert_eq!(status(&a, owner_event).await, ("dormant".into(), false), "the owner's memory decays, never fades");
    let history = a.call(Method::GET, &format!("/memories/{concert}/history"), None).await.json();
    let last = history.as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["change"], "fade");
    assert!(last["reason"].as_str().unwrap().contains("utility"), "{last}");

    // Dormant memories are still found, with their prominence; archived ones are not.
    let found = a.search(json!({ "query": "Rust language" })).await;
    assert_eq!(contents(&found).first().map(String::as_str), Some("The user is learning the Rust language"));
    let p = found["results"][0]["signals"]["prominence"].as_f64().unwrap();
    assert!((0.1..=0.5).contains(&p), "{p}");
    assert!(!contents(&a.search(json!({ "query": "jazz concert in Graz" })).await).iter().any(|c| c.contains("Graz")));
    let live = a.call(Method::GET, "/memories?status=live", None).await.json();
    let live: Vec<&str> = live.as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert_eq!(live.len(), 3, "{live:?}");
    let archived = a.call(Method::GET, "/memories?status=archived", None).await.json();
    assert_eq!(archived[0]["id"].as_str(), Some(concert.to_string().as_str()));

    let health = a.app.send(a.app.as_bearer(&a.owner.token, Method::GET, &a.path("/memory-health"))).await.json();
    assert_eq!((health["dormant"].as_i64(), health["forgotten"].as_i64()), (Some(2), Some(1)), "{health}");

    // The dashboard says it was forgotten and offers to bring it back.
    let page =
        a.app.send(a.app.as_bearer(&a.owner.token, Method::GET, &format!("/agents/{}/memories/{concert}", a.id))).await;
    assert!(page.text.contains(r#"data-testid="restore""#) && page.text.contains("by forgetting"), "{}", page.text);

    // Restored: back in search, counted as used, and the next breath leaves it live.
    let r = a.call(Method::POST, &format!("/memories/{concert}/restore"), Some(json!({}))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!((r.json()["status"].as_str(), r.json()["faded_at"].is_null()), (Some("active"), true));
    assert_eq!(a.call(Method::POST, &format!("/memories/{concert}/restore"), Some(json!({}))).await.status, 409);
    assert!(contents(&a.search(json!({ "query": "jazz concert in Graz" })).await).iter().any(|c| c.contains("Graz")));
    run(&a, "breath").await;
    assert_eq!(status(&a, concert).await, ("dormant".into(), false));

    // Pruning: a memory forgotten more than 90 days ago goes, its relations with it.
    let gone = id(&a.remember("The user once had a cold", "event").await);
    age(&a, gone, "source = 'conversation', status = 'archived', faded_at = now() - interval '91 days'").await;
    sqlx::query("INSERT INTO memory_relations (agent_id, from_id, to_id, kind) SELECT agent_id, id, $2, 'extends' FROM agent_memories WHERE id = $1")
        .bind(gone)
        .bind(rust)
        .execute(a.app.pool())
        .await
        .unwrap();
    assert_eq!(lifecycle::prune(a.app.pool()).await.unwrap(), 1);
    assert_eq!(a.call(Method::GET, &format!("/memories/{gone}"), None).await.status, 404);
    let relations: i64 =
        sqlx::query_scalar("SELECT count(*) FROM memory_relations").fetch_one(a.app.pool()).await.unwrap();
    assert_eq!(relations, 0);
    let history = a.call(Method::GET, &format!("/memories/{gone}/history"), None).await.json();
    assert!(history.as_array().unwrap().last().unwrap()["reason"].as_str().unwrap().contains("pruned"));
    assert_eq!(status(&a, rust).await.0, "dormant", "what it was related to stays");
}

#[tokio::test]
async fn a_breath_fuses_a_dormant_cluster_into_one_derived_memory() {
    let a = agent().await;
    let jazz = [
        "The user likes listening to jazz music in the evening",
        "The user likes listening to jazz music in the evening with friends",
        "The user likes listening to jazz music in the evening at home",
    ];
    let mut ids = Vec::new();
    for c in jazz {
        ids.push(id(&a.remember(c, "interest").await));
    }
    let pinned = id(&a.remember("The user likes listening to jazz music in the evening a lot", "interest").await);
    let other = id(&a.remember("The user wants to run a marathon", "goal").await);
    for m in ids.iter().chain([&pinned, &other]) {
        age(&a, *m, "source = 'conversation', created_at = now() - interval '150 days'").await;
    }
    age(&a, pinned, "pinned = true").await;

    let r = run(&a, "breath").await;
    let fused = &r["fusion"]["report"]["fused"];
    assert_eq!(fused.as_array().map(Vec::len), Some(1), "{r}");
    let sources: Vec<Uuid> =
        fused[0]["sources"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().parse().unwrap()).collect();
    let mut expected = ids.clone();
    expected.sort();
    let mut got = sources.clone();
    got.sort();
    assert_eq!(got, expected, "the pinned memory and the other goal stay out");
    for m in &ids {
        assert_eq!(status(&a, *m).await, ("archived".into(), false), "fused sources are kept, never pruned");
    }
    assert_eq!(status(&a, pinned).await.0, "active");
    let new = fused[0]["memory"].as_str().unwrap();
    let m = a.call(Method::GET, &format!("/memories/{new}"), None).await.json();
    assert_eq!((m["source"].as_str(), m["category"].as_str()), (Some("fusion"), Some("interest")), "{m}");
    assert!(m["content"].as_str().unwrap().contains("jazz"), "{m}");
    let rel = a.call(Method::GET, &format!("/memories/{new}/relations"), None).await.json();
    let kinds: Vec<&str> = rel["relations"].as_array().unwrap().iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["derives"; 3]);
    let found = contents(&a.search(json!({ "query": "jazz music" })).await);
    assert!(found.contains(&m["content"].as_str().unwrap().to_string()), "{found:?}");
    assert_eq!(found.iter().filter(|c| jazz.contains(&c.as_str())).count(), 0, "{found:?}");
    let history = a.call(Method::GET, &format!("/memories/{}/history", ids[0]), None).await.json();
    assert_eq!(history.as_array().unwrap().last().unwrap()["change"], "fuse");
}

#[tokio::test]
async fn spreading_activation_brings_a_related_memory_the_words_miss() {
    let a = agent().await;
    let sister = id(&a.remember("The user's sister is called Mia", "identity").await);
    let shifts = id(&a.remember("Night shifts at the hospital in Linz", "context").await);
    a.remember("The user prefers tea over coffee", "preference").await;
    let before = a.search(json!({ "query": "my sister" })).await;
    assert!(!contents(&before).iter().any(|c| c.contains("Linz")), "{before}");
    assert!(before["explanation"]["activation"]["note"].as_str().unwrap().contains("no relations"), "{before}");

    sqlx::query("INSERT INTO memory_relations (agent_id, from_id, to_id, kind) SELECT agent_id, id, $2, 'extends' FROM agent_memories WHERE id = $1")
        .bind(shifts)
        .bind(sister)
        .execute(a.app.pool())
        .await
        .unwrap();
    let after = a.search(json!({ "query": "my sister" })).await;
    let results = after["results"].as_array().unwrap();
    let linz = results.iter().find(|r| r["memory"]["content"].as_str().unwrap().contains("Linz")).expect("activated");
    assert_eq!(linz["found_by"], json!(["activation"]));
    assert!(linz["signals"]["activation"].as_f64().unwrap() > 0.0, "{linz}");
    assert_eq!(results[0]["memory"]["id"].as_str(), Some(sister.to_string().as_str()), "the seed still leads");
    assert_eq!(after["explanation"]["activation"]["candidates"], 1);
    // Deterministic: the same query spreads the same way.
    let shape = |s: &Value| -> Vec<(Value, Value, Value)> {
        s["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["memory"]["id"].clone(), r["found_by"].clone(), r["signals"]["activation"].clone()))
            .collect()
    };
    assert_eq!(shape(&a.search(json!({ "query": "my sister" })).await), shape(&after));
}

#[tokio::test]
async fn a_night_of_dreams_draws_connections_and_a_failing_phase_does_not_stop_the_other() {
    // The offline engine: REM judges pairs and keeps the accepted ones as `extends` relations.
    let a = agent().await;
    for c in [
        "The user plays piano music at home",
        "The user collects vinyl music records",
        "The user wants to compose film music",
        "The user sings choir music on Sundays",
        "The user listens to music while running",
        "The user teaches music to children",
    ] {
        a.remember(c, "interest").await;
    }
    let r = run(&a, "dreams").await;
    assert!(r["nrem"]["error"].is_null() && r["rem"]["error"].is_null(), "{r}");
    let rem = &r["rem"]["report"];
    assert!(rem["seeds"].as_array().unwrap().len() >= 2, "{r}");
    let connections = rem["connections"].as_array().unwrap();
    assert!(!connections.is_empty() && rem["judged"].as_u64().unwrap() <= 4, "{r}");
    let extends: i64 = sqlx::query_scalar("SELECT count(*) FROM memory_relations WHERE kind = 'extends'")
        .fetch_one(a.app.pool())
        .await
        .unwrap();
    assert_eq!(extends as usize, connections.len());

    // With a model whose fusion answer is unusable, NREM fails and REM still runs.
    let server = LlmServer::start().await;
    let b = OwnedAgent::new(
        TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).admin_password("pw").spawn().await,
    )
    .await;
    for c in [
        "The user likes listening to jazz music in the evening",
        "The user likes listening to jazz music in the evening at home",
        "The user runs marathons",
    ] {
        let m = id(&b.remember(c, "interest").await);
        age(&b, m, "source = 'conversation'").await;
    }
    server.push(Script::reply("this is not JSON"));
    for _ in 0..4 {
        server.push(Script::reply(
            r#"{"novelty": 7, "plausibility": 6, "usefulness": 6, "accept": true, "connection": "Music and running go together"}"#,
        ));
    }
    let r = run(&b, "dreams").await;
    assert!(r["nrem"]["error"].as_str().unwrap().contains("not JSON"), "{r}");
    assert!(r["rem"]["error"].is_null(), "{r}");
    let made = r["rem"]["report"]["connections"].as_array().unwrap();
    assert!(!made.is_empty(), "{r}");
    assert_eq!(made[0]["connection"], "Music and running go together");
}
