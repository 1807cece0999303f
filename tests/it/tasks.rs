//! SPEC S3: tasks wait for the owner's approval; an agent's key may propose tasks, start
//! approved ones and finish them, never approve or reject; illegal moves are 409 naming the
//! task's state; every change is in the activity log.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent, TestApp};

#[tokio::test]
async fn tasks_pass_the_owner_before_the_agent_works_on_them() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let (_, key) = a.app.create_key(&a.owner, &a.id, &["tasks:write"]).await;
    let as_key = |method: Method, rest: &str, body: Option<Value>| {
        let req = a.app.as_bearer(&key, method, &a.path(rest));
        a.app.send(match body {
            Some(b) => req.json(&b),
            None => req,
        })
    };

    let r = a
        .call(Method::POST, "/tasks", Some(json!({ "title": "Book the vet", "due_at": "2026-12-01T09:00:00Z" })))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let owners = r.json();
    assert_eq!((owners["status"].as_str(), owners["source"].as_str()), (Some("pending"), Some("owner")));
    assert_eq!(owners["due_at"], "2026-12-01T09:00:00Z");
    let r =
        as_key(Method::POST, "/tasks", Some(json!({ "title": "Draft the newsletter", "detail": "Three items" }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let agents = r.json();
    assert_eq!((agents["status"].as_str(), agents["source"].as_str()), (Some("pending"), Some("agent")));
    let path = |t: &Value, rest: &str| format!("/tasks/{}{rest}", t["id"].as_str().unwrap());

    // The agent cannot approve its own task, nor start one that was not approved.
    let r = as_key(Method::POST, &path(&agents, "/transition"), Some(json!({ "to": "approved" }))).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "owner_only"), "{}", r.text);
    let r = as_key(Method::POST, &path(&agents, "/transition"), Some(json!({ "to": "in_progress" }))).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("the task is pending; it cannot become in_progress"), "{}", r.text);

    // The owner approves; the agent starts and finishes it.
    let r = a.call(Method::POST, &path(&agents, "/transition"), Some(json!({ "to": "approved" }))).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("approved")), "{}", r.text);
    for to in ["in_progress", "done"] {
        let r = as_key(Method::POST, &path(&agents, "/transition"), Some(json!({ "to": to }))).await;
        assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some(to)), "{}", r.text);
    }
    let r = a.call(Method::POST, &path(&agents, "/transition"), Some(json!({ "to": "rejected" }))).await;
    assert_eq!(r.status, 409, "done is final: {}", r.text);
    let r = a.call(Method::PATCH, &path(&agents, ""), Some(json!({ "title": "Renamed" }))).await;
    assert_eq!(r.status, 409, "{}", r.text);

    // The owner rejects with a reason, which stays with the task.
    let r = a
        .call(
            Method::POST,
            &path(&owners, "/transition"),
            Some(json!({ "to": "rejected", "reason": "The vet called first" })),
        )
        .await;
    assert_eq!(
        (r.json()["status"].as_str(), r.json()["reason"].as_str()),
        (Some("rejected"), Some("The vet called first"))
    );

    // Bad input is a clear 4xx.
    for body in
        [json!({ "title": "  " }), json!({ "title": "x".repeat(201) }), json!({ "title": "ok", "color": "red" })]
    {
        let r = a.call(Method::POST, "/tasks", Some(body.clone())).await;
        assert!(r.status.is_client_error(), "{body}: {} {}", r.status, r.text);
    }
    let r = a.call(Method::POST, &path(&owners, "/transition"), Some(json!({ "to": "teleported" }))).await;
    assert!(r.status.is_client_error(), "{}", r.text);

    // Live tasks first; every change logged.
    let list = a.call(Method::GET, "/tasks", None).await.json();
    let statuses: Vec<&str> = list.as_array().unwrap().iter().map(|t| t["status"].as_str().unwrap()).collect();
    assert_eq!(statuses.len(), 2);
    let actions: Vec<String> =
        sqlx::query_scalar("SELECT action FROM agent_activity WHERE action LIKE 'task.%' ORDER BY id")
            .fetch_all(a.app.pool())
            .await
            .unwrap();
    assert_eq!(
        actions,
        ["task.created", "task.created", "task.approved", "task.in_progress", "task.done", "task.rejected"]
    );
    let (_, reader) = a.app.create_key(&a.owner, &a.id, &["tasks:read"]).await;
    let r = a.app.send(a.app.as_bearer(&reader, Method::POST, &a.path("/tasks")).json(&json!({ "title": "x" }))).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "missing_scope"));
}

#[tokio::test]
async fn the_timeline_shows_milestones_after_the_events_once_each() {
    let a = OwnedAgent::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let kinds = |t: &Value| -> Vec<String> {
        t.as_array().unwrap().iter().map(|m| m["kind"].as_str().unwrap().to_string()).collect()
    };
    let t = a.call(Method::GET, "/timeline", None).await;
    assert_eq!(t.status, 200, "{}", t.text);
    assert_eq!(kinds(&t.json()), ["created"]);

    let r = a.call(Method::POST, "/chat", Some(json!({ "message": "I run along the river every morning." }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = a.call(Method::PUT, "/soul", Some(json!({ "content": "I am Ada, a patient running coach." }))).await;
    assert!(r.status.is_success(), "{}", r.text);
    let task = a.call(Method::POST, "/tasks", Some(json!({ "title": "Plan the week" }))).await.json();
    for to in ["approved", "in_progress", "done"] {
        let r = a
            .call(
                Method::POST,
                &format!("/tasks/{}/transition", task["id"].as_str().unwrap()),
                Some(json!({ "to": to })),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let job = a.app.send(a.app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/poc_score", a.id))).await.json();
    assert_eq!(job["status"], "done", "{job}");

    let t = a.call(Method::GET, "/timeline", None).await.json();
    let mut found = kinds(&t);
    found.sort();
    assert_eq!(found, ["created", "first_conversation", "first_task_done", "poc_grade", "soul_version"], "{t}");
    assert!(t[0]["at"].as_str() >= t[1]["at"].as_str(), "newest first");
    let soul = t.as_array().unwrap().iter().find(|m| m["kind"] == "soul_version").unwrap();
    assert_eq!(soul["title"], "First soul (by owner)");
    assert_eq!(soul["chapter"], chrono::Utc::now().format("%B %Y").to_string());
    // Paged like every list: two at a time, then the rest.
    let r = a.call(Method::GET, "/timeline?limit=2", None).await;
    let next = r.headers["x-next-before"].to_str().unwrap().to_string();
    assert_eq!(r.json().as_array().unwrap().len(), 2);
    let rest = a
        .call(Method::GET, &format!("/timeline?limit=10&before={}", crate::dashboard::urlencode(&next)), None)
        .await
        .json();
    assert_eq!(rest.as_array().unwrap().len(), 3);
    // Reading again finds nothing new: no milestone twice.
    let again = a.call(Method::GET, "/timeline", None).await.json();
    assert_eq!(kinds(&again).len(), 5);
    let mallory = a.app.signup("mallory@example.com").await;
    let r = a.app.send(a.app.as_bearer(&mallory.token, Method::GET, &a.path("/timeline"))).await;
    assert_eq!(r.status, 404);
}
