//! Notifications (SPEC O4): urgent ones go at once, routine ones wait for the smart flush (2
//! queued, 8 hours, every 4 hours) as a digest; quiet hours hold all but urgent; the modes; the
//! notification centre.

use miniclaw::channels::notifications::{Kind, notify};
use miniclaw::ids::AgentId;
use reqwest::Method;
use serde_json::json;

use crate::common::{OwnedAgent, TestApp};
use crate::email_support::{Received, SmtpServer, eventually};
use crate::outreach::{approved, deliver, outreach_agent, thread};

const OWNER: &str = "ada@example.com";

fn to_owner(smtp: &SmtpServer) -> Vec<Received> {
    smtp.messages().into_iter().filter(|m| m.rcpt_tos == [OWNER]).collect()
}

async fn note(agent: &OwnedAgent, kind: Kind, title: &str) {
    let id = AgentId(agent.id.parse().unwrap());
    let mut conn = agent.app.pool().acquire().await.unwrap();
    notify(&mut conn, id, kind, title, "details", None).await.unwrap();
}

async fn statuses(agent: &OwnedAgent) -> Vec<(String, String)> {
    let r = agent.call(Method::GET, "/notifications", None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["title"].as_str().unwrap().into(), n["status"].as_str().unwrap().into()))
        .collect()
}

#[tokio::test]
async fn a_routine_notification_waits_for_the_smart_flush_while_an_urgent_one_goes_at_once() {
    let smtp = SmtpServer::start();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 0.0).await;
    let app = &agent.app;
    let id = approved(&agent, "bob@example.org").await;
    app.run_jobs().await;
    eventually("the outreach email", || smtp.messages().len() == 1).await;
    // The email went out: a routine notification, held (smart mode, one item, fresh).
    assert_eq!(statuses(&agent).await, [("Email sent to bob@example.org".to_string(), "queued".to_string())]);
    assert!(to_owner(&smtp).is_empty());

    // Bob replies: urgent, at once. The agent's answer going out makes a second routine item,
    // and two queued items flush as one digest.
    let t = thread(&agent, &id).await;
    let first = t["messages"][0]["message_id"].as_str().unwrap();
    let reply = json!({ "from": "bob@example.org", "to": ["agents@outreach.example.com"], "subject": format!("Re: {}", t["subject"].as_str().unwrap()),
        "text": "Sounds good!", "message_id": "<bob-2@mail.example.org>", "in_reply_to": format!("<{first}>") });
    assert_eq!(deliver(app, "msg_n1", chrono::Utc::now().timestamp(), &reply).await.status, 200);
    app.run_jobs().await;
    eventually("the urgent notification and the digest", || to_owner(&smtp).len() == 2).await;
    let owner_mail = to_owner(&smtp);
    let urgent = owner_mail.iter().find(|m| m.header("Subject").unwrap().contains("Urgent")).expect("the urgent email");
    assert!(urgent.header("Subject").unwrap().contains("bob@example.org replied"), "{}", urgent.raw);
    assert!(urgent.body_text().contains("Sounds good!"));
    let digest =
        owner_mail.iter().find(|m| m.header("Subject").unwrap().contains("Digest: 2 updates")).expect("the digest");
    let text = digest.body_text();
    assert_eq!(text.matches("Email sent to bob@example.org").count(), 2, "{text}");
    // It closes with a teaching from the wisdom collection, attributed (SPEC O4, S2).
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let quoted = miniclaw::social::wisdom::COLLECTION.iter().find(|t| {
        let opening: String = t.text.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
        flat.contains(&opening) && flat.contains(&format!("— {}", t.author))
    });
    assert!(quoted.is_some(), "no attributed teaching closes the digest: {text}");
    let all = statuses(&agent).await;
    assert_eq!(all.len(), 3);
    assert!(all.iter().all(|(_, s)| s == "sent"), "{all:?}");
    let list = agent.call(Method::GET, "/notifications", None).await.json();
    let digested: Vec<_> = list.as_array().unwrap().iter().filter(|n| !n["digest_id"].is_null()).collect();
    assert_eq!(digested.len(), 2);
    assert_eq!(digested[0]["digest_id"], digested[1]["digest_id"]);
}

#[tokio::test]
async fn quiet_hours_hold_routine_items_the_modes_apply_and_an_old_item_flushes_alone() {
    let smtp = SmtpServer::start();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 0.8).await;
    let app = &agent.app;
    // instant: routine goes at once.
    agent.call(Method::PATCH, "", Some(json!({ "notification_mode": "instant" }))).await;
    note(&agent, Kind::OutreachSent, "routine one").await;
    app.run_jobs().await;
    eventually("the instant email", || to_owner(&smtp).len() == 1).await;

    // Quiet all day (in the agent's timezone): routine waits even in instant mode, urgent goes.
    let r = agent
        .call(
            Method::PATCH,
            "",
            Some(json!({ "quiet_hours": { "start": "00:00", "end": "23:59" }, "timezone": "Pacific/Auckland" })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    note(&agent, Kind::OutreachSent, "routine two").await;
    note(&agent, Kind::OutreachSent, "routine three").await;
    note(&agent, Kind::Escalation, "urgent one").await;
    app.run_jobs().await;
    eventually("the urgent email", || to_owner(&smtp).len() == 2).await;
    assert!(to_owner(&smtp)[1].header("Subject").unwrap().contains("urgent one"));
    let held: Vec<_> = statuses(&agent).await.into_iter().filter(|(_, s)| s == "queued").collect();
    assert_eq!(held.len(), 2, "{held:?}");

    // digest_only: even urgent items wait; out of quiet hours the two queued flush with it.
    agent.call(Method::PATCH, "", Some(json!({ "notification_mode": "digest_only", "quiet_hours": null }))).await;
    note(&agent, Kind::Escalation, "urgent two").await;
    app.run_jobs().await;
    eventually("the digest", || to_owner(&smtp).len() == 3).await;
    let digest = &to_owner(&smtp)[2];
    assert!(digest.header("Subject").unwrap().contains("Digest: 3 updates"), "{}", digest.raw);
    assert!(statuses(&agent).await.iter().all(|(_, s)| s == "sent"));

    // smart: one fresh routine item waits; once it is 8 hours old it flushes alone.
    agent.call(Method::PATCH, "", Some(json!({ "notification_mode": "smart" }))).await;
    note(&agent, Kind::OutreachSent, "lonely").await;
    app.run_jobs().await;
    assert_eq!(statuses(&agent).await[0], ("lonely".to_string(), "queued".to_string()));
    sqlx::query!("UPDATE notifications SET created_at = now() - interval '9 hours' WHERE status = 'queued'")
        .execute(app.pool())
        .await
        .unwrap();
    sqlx::query!("UPDATE notification_flushes SET last_flush_at = now()").execute(app.pool()).await.unwrap();
    miniclaw::jobs::queue::enqueue(app.pool(), miniclaw::jobs::NewJob::new("notification_flush")).await.unwrap();
    app.run_jobs().await;
    eventually("the lone digest", || to_owner(&smtp).len() == 4).await;
    assert!(to_owner(&smtp)[3].header("Subject").unwrap().contains("Digest: 1 update"));
}

#[tokio::test]
async fn the_notification_centre_lists_and_marks_read_and_is_the_owners() {
    let agent = OwnedAgent::new(TestApp::spawn().await).await;
    let app = &agent.app;
    note(&agent, Kind::OutreachSent, "one").await;
    note(&agent, Kind::RegistrationFailed, "two").await;
    let list = agent.call(Method::GET, "/notifications?unread=true", None).await.json();
    assert_eq!(list.as_array().unwrap().len(), 2);
    assert_eq!((list[0]["title"].as_str(), list[0]["urgent"].as_bool()), (Some("two"), Some(true)));
    let first = list[1]["id"].as_str().unwrap();
    let r = agent.call(Method::POST, &format!("/notifications/{first}/read"), None).await;
    assert_eq!(r.status, 200);
    assert!(r.json()["read_at"].is_string());
    assert_eq!(agent.call(Method::GET, "/notifications?unread=true", None).await.json().as_array().unwrap().len(), 1);
    let r = agent.call(Method::POST, "/notifications/read-all", None).await;
    assert_eq!(r.json()["marked"], 1);
    let r = agent.call(Method::POST, &format!("/notifications/{}/read", uuid::Uuid::now_v7()), None).await;
    assert_eq!(r.status, 404);
    let (_, key) = app.create_key(&agent.owner, &agent.id, &["*"]).await;
    let r = app.send(app.as_bearer(&key, Method::GET, &agent.path("/notifications"))).await;
    assert_eq!(r.status, 403, "{}", r.text);
}

#[tokio::test]
async fn an_exhausted_budget_is_an_urgent_notification_once_a_day() {
    let agent = OwnedAgent::new(TestApp::spawn().await).await;
    agent.call(Method::PATCH, "", Some(json!({ "daily_token_budget": 1000 }))).await;
    let id: uuid::Uuid = agent.id.parse().unwrap();
    sqlx::query!(
        "INSERT INTO llm_agent_daily_usage (agent_id, day, tokens) VALUES ($1, (now() AT TIME ZONE 'utc')::date, 5000)
         ON CONFLICT (agent_id, day) DO UPDATE SET tokens = 5000",
        id
    )
    .execute(agent.app.pool())
    .await
    .unwrap();
    for _ in 0..2 {
        let r = agent.call(Method::POST, "/chat", Some(json!({ "message": "Hello?" }))).await;
        assert_eq!(r.status, 429, "{}", r.text);
    }
    let list = agent.call(Method::GET, "/notifications", None).await.json();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!((list[0]["kind"].as_str(), list[0]["urgent"].as_bool()), (Some("budget_exhausted"), Some(true)));
}
