//! The in-process caches across processes (SPEC B3): two real servers on one database, one of
//! them caching, the other (or SQL) changing what it caches.

use std::time::Duration;

use crate::common::TestDb;
use crate::processes::{api_only_server, free_port, post, terminate};

/// SPEC B3: verified keys, live sessions, agent rows and `/v1/me` are cached in each process,
/// and what ends or changes them (revoking a key, signing out, changing or deleting the agent,
/// renaming the tenant) reaches every process at once, through LISTEN/NOTIFY. Two real servers on one database: B caches, A
/// changes.
#[tokio::test]
async fn what_one_process_ends_or_changes_is_ended_or_changed_in_another_at_once() {
    use reqwest::StatusCode;
    use serde_json::json;
    let db = TestDb::new().await;
    let (pa, pb) = (free_port(), free_port());
    let servers = [api_only_server(&db, pa).await, api_only_server(&db, pb).await];
    let (a, b) = (format!("http://127.0.0.1:{pa}"), format!("http://127.0.0.1:{pb}"));
    let http = reqwest::Client::new();
    let signup = post(
        &http,
        format!("{a}/v1/auth/signup"),
        None,
        json!({ "email": "ada@example.com", "password": "correct horse battery" }),
    )
    .await;
    let session = signup["session_token"].as_str().unwrap().to_string();
    let agent = post(&http, format!("{a}/v1/hosted-agents"), Some(&session), json!({ "name": "Ada" })).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut keys = Vec::new();
    for _ in 0..2 {
        let k = post(
            &http,
            format!("{a}/v1/hosted-agents/{agent}/api-keys"),
            Some(&session),
            json!({ "name": "k", "scopes": ["agent:read"] }),
        )
        .await;
        keys.push((k["id"].as_str().unwrap().to_string(), k["key"].as_str().unwrap().to_string()));
    }
    let get = |base: &str, path: &str, token: &str| {
        let req = http.get(format!("{base}{path}")).bearer_auth(token);
        async move { req.send().await.unwrap().status() }
    };
    let agent_path = format!("/v1/hosted-agents/{agent}");
    // B has checked both keys and the session once: they are in its cache.
    for (_, key) in &keys {
        assert_eq!(get(&b, &agent_path, key).await, StatusCode::OK);
    }
    assert_eq!(get(&b, "/v1/me", &session).await, StatusCode::OK);
    // A change that bypasses the platform (no notification) is not seen by B while cached, which
    // shows B no longer reads the key on every request; A, which never cached it, refuses it.
    sqlx::query("UPDATE api_keys SET revoked_at = now() WHERE id = $1")
        .bind(keys[0].0.parse::<uuid::Uuid>().unwrap())
        .execute(&db.pool)
        .await
        .unwrap();
    assert_eq!(get(&b, &agent_path, &keys[0].1).await, StatusCode::OK, "served from B's cache");
    assert_eq!(get(&a, &agent_path, &keys[0].1).await, StatusCode::UNAUTHORIZED);

    // Revoking through A reaches B: refused within the notification's delivery, bounded here.
    let eventually_refused = |base: String, path: String, token: String| {
        let http = http.clone();
        async move {
            for _ in 0..100 {
                let s = http.get(format!("{base}{path}")).bearer_auth(&token).send().await.unwrap().status();
                if s == StatusCode::UNAUTHORIZED {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            panic!("{path} still served by the other process after 1 s");
        }
    };
    let r = http
        .delete(format!("{a}/v1/hosted-agents/{agent}/api-keys/{}", keys[0].0))
        .bearer_auth(&session)
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    eventually_refused(b.clone(), agent_path.clone(), keys[0].1.clone()).await;

    // The agent's row is cached too. A change that no trigger reports is not seen by B while
    // cached (B no longer reads the row on every request); A, which never cached it, sees it.
    let name_on = |base: String, token: String| {
        let req = http.get(format!("{base}{agent_path}")).bearer_auth(token);
        async move { req.send().await.unwrap().json::<serde_json::Value>().await.unwrap()["name"].clone() }
    };
    assert_eq!(name_on(b.clone(), keys[1].1.clone()).await, "Ada");
    let quietly = "ALTER TABLE agents DISABLE TRIGGER agent_row_changed; UPDATE agents SET name = 'Quiet';
                   ALTER TABLE agents ENABLE TRIGGER agent_row_changed";
    sqlx::raw_sql(quietly).execute(&db.pool).await.unwrap();
    assert_eq!(name_on(b.clone(), keys[1].1.clone()).await, "Ada", "served from B's cache");
    assert_eq!(name_on(a.clone(), keys[1].1.clone()).await, "Quiet");
    // A change through A: A's next read has it at once, B's within the notification's delivery.
    let r = http.patch(format!("{a}{agent_path}")).bearer_auth(&session).json(&json!({ "name": "Ada L." })).send();
    assert!(r.await.unwrap().status().is_success());
    assert_eq!(name_on(a.clone(), keys[1].1.clone()).await, "Ada L.", "read your own write");
    let eventually_named = |base: String, name: &'static str| {
        let name_on = &name_on;
        let key = keys[1].1.clone();
        async move {
            for _ in 0..100 {
                if name_on(base.clone(), key.clone()).await == name {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            panic!("{base} still answers the old row after 1 s");
        }
    };
    eventually_named(b.clone(), "Ada L.").await;
    // Any statement that changes the row reaches every process (the trigger), even one in SQL.
    sqlx::query("UPDATE agents SET name = 'Ada (SQL)'").execute(&db.pool).await.unwrap();
    eventually_named(b.clone(), "Ada (SQL)").await;
    eventually_named(a.clone(), "Ada (SQL)").await;

    // `/v1/me` likewise: a renamed tenant reaches B's cached answer.
    let tenant_on = |base: String| {
        let req = http.get(format!("{base}/v1/me")).bearer_auth(&session);
        async move { req.send().await.unwrap().json::<serde_json::Value>().await.unwrap()["tenant"]["name"].clone() }
    };
    let before = tenant_on(b.clone()).await;
    assert!(before.is_string(), "{before}");
    sqlx::query("UPDATE tenants SET name = 'Renamed'").execute(&db.pool).await.unwrap();
    let mut renamed = false;
    for _ in 0..100 {
        if tenant_on(b.clone()).await == "Renamed" {
            renamed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(renamed, "B still answers the old tenant after 1 s");

    // Deleting the agent on A ends its other key on B.
    let r = http.delete(format!("{a}{agent_path}")).bearer_auth(&session).send().await.unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    eventually_refused(b.clone(), agent_path.clone(), keys[1].1.clone()).await;

    // Signing out on A ends the session on B.
    let r = http.post(format!("{a}/v1/auth/logout")).bearer_auth(&session).send().await.unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    eventually_refused(b.clone(), "/v1/me".into(), session.clone()).await;
    for mut s in servers {
        assert!(terminate(&mut s).success());
    }
}

/// SPEC B3: a page of an agent's memory list is cached in each process until one of the
/// agent's memories changes: a write through the same process is read at once, a write through
/// another process or in SQL within the notification's delivery.
#[tokio::test]
async fn memory_pages_are_cached_until_a_memory_of_the_agent_changes_anywhere() {
    use serde_json::{Value, json};
    let db = TestDb::new().await;
    let (pa, pb) = (free_port(), free_port());
    let servers = [api_only_server(&db, pa).await, api_only_server(&db, pb).await];
    let (a, b) = (format!("http://127.0.0.1:{pa}"), format!("http://127.0.0.1:{pb}"));
    let http = reqwest::Client::new();
    let (session, _, agent) = crate::processes::ada_and_agent(&http, &a).await;
    let memories = format!("/v1/hosted-agents/{agent}/memories");
    let add = |base: String, content: &'static str| {
        let req = http.post(format!("{base}{memories}")).bearer_auth(&session);
        async move {
            let r = req.json(&json!({ "content": content, "category": "fact" })).send().await.unwrap();
            assert_eq!(r.status(), 201);
        }
    };
    let list = |base: String, query: &'static str| {
        let req = http.get(format!("{base}{memories}{query}")).bearer_auth(&session);
        async move {
            let page: Value = req.send().await.unwrap().json().await.unwrap();
            page.as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        }
    };
    let eventually = |base: String, want: Vec<&'static str>| {
        let list = &list;
        async move {
            for _ in 0..100 {
                if list(base.clone(), "").await == want {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            panic!("{base} still lists {:?} after 1 s, not {want:?}", list(base.clone(), "").await);
        }
    };
    add(a.clone(), "Ada lives in London.").await;
    assert_eq!(list(b.clone(), "").await, ["Ada lives in London."]);
    // A change no notice reports is not seen by B while cached: B serves the page it read.
    let quietly = "ALTER TABLE agent_memories DISABLE TRIGGER agent_memories_notice;
                   UPDATE agent_memories SET content = 'Quietly changed.';
                   ALTER TABLE agent_memories ENABLE TRIGGER agent_memories_notice";
    sqlx::raw_sql(quietly).execute(&db.pool).await.unwrap();
    assert_eq!(list(b.clone(), "").await, ["Ada lives in London."], "served from B's cache");
    assert_eq!(list(b.clone(), "?category=fact").await, ["Quietly changed."], "another filter, another page");
    // A write through B is in B's next list at once.
    add(b.clone(), "Ada writes programs.").await;
    assert_eq!(list(b.clone(), "").await, ["Ada writes programs.", "Quietly changed."], "read your own write");
    // A write through A, and a change in SQL, reach B's cache.
    add(a.clone(), "Ada likes chess.").await;
    eventually(b.clone(), vec!["Ada likes chess.", "Ada writes programs.", "Quietly changed."]).await;
    sqlx::query("DELETE FROM agent_memories WHERE content = 'Quietly changed.'").execute(&db.pool).await.unwrap();
    eventually(b.clone(), vec!["Ada likes chess.", "Ada writes programs."]).await;
    for mut s in servers {
        assert!(terminate(&mut s).success());
    }
}
