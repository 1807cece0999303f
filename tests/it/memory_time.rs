//! Memory with time (issue: memory on real conversations): writes carry `occurred_at`, search
//! reads dates and relative time in the query and filters on when things were said, and a
//! transcript is imported with its own times, once.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent, TestApp};

fn contents(search: &Value) -> Vec<String> {
    search["results"].as_array().unwrap().iter().map(|r| r["memory"]["content"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn memories_keep_when_they_were_said_and_search_reads_dates() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let bulk = a
        .call(
            Method::POST,
            "/memories/bulk",
            Some(json!({ "memories": [
                { "content": "I made pasta with ham and peas for dinner.", "category": "context", "occurred_at": "2023-12-29T20:15:00Z" },
                { "content": "I made pasta with pesto for lunch.", "category": "context", "occurred_at": "2024-01-20T12:00:00Z" },
                { "content": "I went skiing with my cousins.", "category": "context" },
            ]})),
        )
        .await;
    assert_eq!(bulk.status, 201, "{}", bulk.text);
    let stored = bulk.json();
    assert_eq!(stored["memories"][0]["occurred_at"], "2023-12-29T20:15:00Z");
    // Without a time, a memory was said when it was stored.
    assert_eq!(stored["memories"][2]["occurred_at"], stored["memories"][2]["created_at"]);

    // A date in the query: the memory of that day comes first, and the explanation says why.
    let found = a.search(json!({ "query": "What kind of pasta did I make on 29 Dec 2023?" })).await;
    assert_eq!(contents(&found)[0], "I made pasta with ham and peas for dinner.", "{found}");
    assert_eq!(found["results"][0]["signals"]["time"], 1.0);
    assert_eq!(found["results"][1]["signals"]["time"], 0.0);
    let w = &found["explanation"]["time_window"];
    assert_eq!(w["phrase"], "29 Dec 2023", "{w}");
    assert_eq!(w["from"], "2023-12-28T00:00:00Z");
    assert_eq!(found["explanation"]["to"], Value::Null);
    // The other date wins its own question.
    let later = a.search(json!({ "query": "what pasta did I make on January 20, 2024" })).await;
    assert_eq!(contents(&later)[0], "I made pasta with pesto for lunch.", "{later}");
    // A numeric date reads day first with dots; a named day counts fully, a month a third.
    let dotted = a.search(json!({ "query": "what pasta did I make on 20.01.2024" })).await;
    assert_eq!(contents(&dotted)[0], "I made pasta with pesto for lunch.", "{dotted}");
    assert_eq!(dotted["explanation"]["time_window"]["phrase"], "20.01.2024", "{dotted}");
    let month = a.search(json!({ "query": "what pasta did I make in January 2024" })).await;
    assert_eq!(contents(&month)[0], "I made pasta with pesto for lunch.", "{month}");
    let signal = month["results"][0]["signals"]["time"].as_f64().unwrap();
    assert!((signal - 1.0 / 3.0).abs() < 1e-9, "{month}");
    // No date, no window.
    let plain = a.search(json!({ "query": "pasta" })).await;
    assert_eq!(plain["explanation"]["time_window"], Value::Null);

    // Filters read when it was said, not when it was stored.
    let january = a
        .search(
            json!({ "query": "pasta", "filters": { "from": "2024-01-01T00:00:00Z", "to": "2024-02-01T00:00:00Z" } }),
        )
        .await;
    assert_eq!(contents(&january), vec!["I made pasta with pesto for lunch."], "{january}");

    // A time far ahead is refused, naming the item; nothing of the batch is stored.
    let bad = a
        .call(
            Method::POST,
            "/memories/bulk",
            Some(json!({ "memories": [
                { "content": "fine", "category": "context" },
                { "content": "from the future", "category": "context", "occurred_at": "2999-01-01T00:00:00Z" },
            ]})),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert_eq!(bad.json()["error"]["details"]["field"], "memories[1].occurred_at", "{}", bad.text);
    let all = a.call(Method::GET, "/memories", None).await.json();
    assert_eq!(all.as_array().map_or(0, Vec::len), 3, "{all}");
}

#[tokio::test]
async fn a_transcript_is_imported_once_with_its_dates() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let transcript = json!({ "messages": [
        { "role": "user", "content": "I live in Porto, near the river.", "created_at": "2025-03-01T09:00:00Z" },
        { "role": "assistant", "content": "Porto is lovely.", "created_at": "2025-03-01T09:00:05Z" },
        { "role": "user", "content": "My favourite food is grilled sardines.", "created_at": "2025-03-02T19:30:00Z" },
        { "role": "user", "content": "Actually I moved last week, I live in Lisbon now.", "created_at": "2025-06-10T08:00:00Z" },
    ]});

    // A bad message is named, and nothing is recorded.
    let mut broken = transcript.clone();
    broken["messages"][2]["role"] = json!("narrator");
    let r = a.call(Method::POST, "/memories/import", Some(broken)).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(r.json()["error"]["details"]["field"], "messages[2].role", "{}", r.text);
    let mut no_time = transcript.clone();
    no_time["messages"][1].as_object_mut().unwrap().remove("created_at");
    assert_eq!(a.call(Method::POST, "/memories/import", Some(no_time)).await.status, 400);
    assert_eq!(a.call(Method::GET, "/memory-imports", None).await.json(), json!([]));

    let r = a.call(Method::POST, "/memories/import", Some(transcript.clone())).await;
    assert_eq!(r.status, 202, "{}", r.text);
    let started = r.json();
    assert_eq!((started["status"].as_str(), started["messages"].as_i64()), (Some("queued"), Some(4)));
    assert_eq!(started["duplicate"], false);
    let id = started["id"].as_str().unwrap().to_string();
    a.app.run_jobs().await;
    let done = a.call(Method::GET, &format!("/memory-imports/{id}"), None).await.json();
    assert_eq!((done["status"].as_str(), done["processed"].as_i64()), (Some("done"), Some(4)), "{done}");
    assert!(done["created"].as_i64().unwrap() >= 2, "{done}");
    // One step per job: three days, three steps, each its own job (a long import waits its
    // turn in the queue between steps), each starting where the one before ended.
    let steps: Vec<(String, Option<i64>)> = sqlx::query_as(
        "SELECT status, (payload->>'at')::bigint FROM jobs WHERE kind = 'memory_import' ORDER BY (payload->>'at')::bigint",
    )
    .fetch_all(a.app.pool())
    .await
    .unwrap();
    let done_job = |at: i64| ("done".to_string(), Some(at));
    assert_eq!(steps, [done_job(0), done_job(2), done_job(3)], "{steps:?}");

    // The memories carry the times they were said; the move replaced the old home.
    let found = a.search(json!({ "query": "where do I live?" })).await;
    let first = &found["results"][0]["memory"];
    assert!(first["content"].as_str().unwrap().contains("Lisbon"), "{found}");
    assert_eq!(first["occurred_at"], "2025-06-10T08:00:00Z", "{first}");
    assert!(!contents(&found).iter().any(|c| c.contains("Porto")), "{found}");
    let food = a.search(json!({ "query": "favourite food" })).await;
    assert_eq!(food["results"][0]["memory"]["occurred_at"], "2025-03-02T19:30:00Z", "{food}");

    // The same transcript again: the earlier import, nothing new.
    let count = |v: &Value| v.as_array().map_or(0, Vec::len);
    let before = count(&a.call(Method::GET, "/memories?limit=200", None).await.json());
    let again = a.call(Method::POST, "/memories/import", Some(transcript)).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!((again.json()["duplicate"].as_bool(), again.json()["id"].as_str()), (Some(true), Some(id.as_str())));
    a.app.run_jobs().await;
    assert_eq!(count(&a.call(Method::GET, "/memories?limit=200", None).await.json()), before);

    // Another tenant's agent cannot read the import.
    let other = a.app.signup("eve@example.com").await;
    let theirs =
        a.app.send(a.app.as_bearer(&other.token, Method::GET, &a.path(&format!("/memory-imports/{id}")))).await;
    assert_eq!(theirs.status, 404);

    // The dashboard shows the import with its progress and the memories' dates.
    let page = a.app.send(a.app.as_bearer(&a.owner.token, Method::GET, &format!("/agents/{}/memories", a.id))).await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains(r#"data-testid="import-row""#) && page.text.contains("4 / 4"), "{}", page.text);
    assert!(page.text.contains(r#"data-testid="memory-date""#) && page.text.contains("2025-06-10"), "{}", page.text);
}

#[tokio::test]
async fn the_memory_page_says_what_its_count_counts() {
    // The count grows when the fact is said again and when a reply uses it, not only when the
    // owner mentions it: the page says so.
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let m = a.remember("The user keeps bees on the roof.", "interest").await;
    sqlx::query("UPDATE agent_memories SET mention_count = 4 WHERE id = $1::uuid")
        .bind(m["id"].as_str().unwrap())
        .execute(a.app.pool())
        .await
        .unwrap();
    let page = a.app.send(a.app.as_bearer(&a.owner.token, Method::GET, &format!("/agents/{}/memories", a.id))).await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains("said or used 4×"), "{}", page.text);
    assert!(!page.text.contains("mentioned 4×"));
}
