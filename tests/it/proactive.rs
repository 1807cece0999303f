//! Agents that speak first (SPEC X7, O5), with the clock given to the scanner and the sweep: a
//! question the agent could not answer becomes a next-morning check-in in the owner's timezone
//! and nothing more; an urgent deadline goes out at once in quiet hours; the dial holds
//! speculative follow-ups; distress suppresses inner thoughts; outcomes move trust by the stated
//! amounts and "stop" turns the dial down; an idle agent queues no scan.

use chrono::{DateTime, Datelike, Duration, Timelike, Utc};
use miniclaw::channels::proactive::{self, deliver, scan};
use miniclaw::deps::Deps;
use miniclaw::ids::AgentId;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent, TestApp};

fn deps(a: &OwnedAgent) -> Deps {
    a.app.registry.deps().expect("the app provided its services").clone()
}

fn agent_id(a: &OwnedAgent) -> AgentId {
    AgentId(a.id.parse().unwrap())
}

async fn agent(settings: Value) -> OwnedAgent {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let r = a.call(Method::PATCH, "", Some(settings)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    a
}

/// Says `message` in a new conversation (or `conversation`), then moves the turn `hours_ago`
/// into the past; returns the conversation id.
async fn say(a: &OwnedAgent, message: &str, conversation: Option<&str>, hours_ago: i64) -> String {
    let mut body = json!({ "message": message });
    if let Some(c) = conversation {
        body["conversation_id"] = json!(c);
    }
    let r = a.call(Method::POST, "/chat", Some(body)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let cid = r.json()["conversation_id"].as_str().unwrap().to_string();
    sqlx::query(
        "UPDATE chat_messages SET created_at = created_at - make_interval(hours => $3)
          WHERE agent_id = $1 AND conversation_id = $2 AND created_at > now() - interval '1 minute'",
    )
    .bind(a.id.parse::<uuid::Uuid>().unwrap())
    .bind(cid.parse::<uuid::Uuid>().unwrap())
    .bind(hours_ago as i32)
    .execute(a.app.pool())
    .await
    .unwrap();
    // The owner's mood heard it then too.
    sqlx::query(
        "UPDATE affect_states SET observed_at = observed_at - make_interval(hours => $2)
          WHERE agent_id = $1 AND observed_at > now() - interval '1 minute'",
    )
    .bind(a.id.parse::<uuid::Uuid>().unwrap())
    .bind(hours_ago as i32)
    .execute(a.app.pool())
    .await
    .unwrap();
    cid
}

async fn summary(a: &OwnedAgent) -> Value {
    let r = a.call(Method::GET, "/proactive", None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

async fn items(a: &OwnedAgent, status: &str) -> Vec<Value> {
    let r = a.call(Method::GET, &format!("/proactive/items?status={status}"), None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json().as_array().unwrap().clone()
}

fn at(v: &Value) -> DateTime<Utc> {
    v.as_str().unwrap().parse().unwrap()
}

#[tokio::test]
async fn a_question_the_offline_engine_answered_is_not_unanswered() {
    let a = agent(json!({ "proactiveness": "eager" })).await;
    let (deps, id) = (deps(&a), agent_id(&a));
    let question = "When does the pharmacy on Elm Street close on Sundays?";
    say(&a, question, None, 20).await;
    // The offline engine's answer from a memory carries its label like every offline reply.
    sqlx::query(
        "UPDATE chat_messages SET content = '[offline engine: no language model is configured] Here is what I know \
         that relates to your message:\n- The pharmacy on Elm Street closes at six on Sundays.' WHERE role = 'assistant'",
    )
    .execute(a.app.pool())
    .await
    .unwrap();
    let report = scan::scan(&deps, id, Utc::now()).await.unwrap();
    let s = summary(&a).await;
    assert!(!s["upcoming"].as_array().unwrap().iter().any(|i| i["signal"] == "unresolved_question"), "{report:?} {s}");
}

#[tokio::test]
async fn a_question_left_unanswered_yesterday_becomes_one_next_morning_check_in_and_nothing_more() {
    let a = agent(json!({ "timezone": "America/New_York", "quiet_hours": { "start": "22:00", "end": "07:00" },
        "proactiveness": "moderate" }))
    .await;
    let (deps, id) = (deps(&a), agent_id(&a));
    let question = "What time does the pharmacy on Elm Street close on Sundays?";
    let conversation = say(&a, question, None, 20).await;
    let now = Utc::now();

    assert!(proactive::agents_to_scan(a.app.pool(), now).await.unwrap().contains(&id), "new messages wake the scanner");
    let report = scan::scan(&deps, id, now).await.unwrap();
    assert_eq!(report.scheduled, 1, "{report:?}");

    let s = summary(&a).await;
    let item = &s["upcoming"][0];
    assert_eq!((item["signal"].as_str(), item["timing"].as_str()), (Some("unresolved_question"), Some("next_morning")));
    assert!(item["message"].as_str().unwrap().contains(question), "grounded in the owner's words: {item}");
    assert!(item["rule"].as_str().unwrap().contains("moderate"), "explained: {item}");
    let when = at(&item["deliver_at"]);
    let local = when.with_timezone(&chrono_tz::America::New_York);
    // Worded for the morning it is read: "yesterday" when that morning is the day after the
    // question (before 09:00 in New York), else the question's weekday.
    let said = (now - Duration::hours(20)).with_timezone(&chrono_tz::America::New_York).date_naive();
    let expected = match (local.date_naive() - said).num_days() {
        1 => "yesterday".to_string(),
        _ => format!("on {}", said.weekday()),
    };
    assert!(item["message"].as_str().unwrap().contains(&expected), "{expected}: {item}");
    assert_eq!((local.hour(), local.minute()), (9, 0), "the first active hour of the owner's morning: {local}");
    assert!(when > now && when <= now + Duration::hours(24), "{when} after {now}");

    // Not a minute early; at nine it arrives in the conversation, with why, and as a notification.
    let early = deliver::deliver_and_settle(&deps, when - Duration::minutes(1)).await.unwrap();
    assert_eq!(early.delivered, 0);
    let on_time = deliver::deliver_and_settle(&deps, when).await.unwrap();
    assert_eq!(on_time.delivered, 1);
    let r = a.call(Method::GET, &format!("/conversations/{conversation}/messages"), None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let messages = r.json();
    let last = messages.as_array().unwrap().iter().find(|m| m["meta"]["proactive"].is_object()).expect("the check-in");
    assert_eq!(last["role"], "assistant");
    assert!(last["meta"]["proactive"]["why"].as_str().unwrap().contains("unresolved question"), "{last}");
    let n = a.call(Method::GET, "/notifications", None).await.json();
    assert!(
        n.as_array().unwrap().iter().any(|n| n["kind"] == "check_in" && n["body"].as_str().unwrap().contains("Why:"))
    );

    // The dashboard shows it with why, and the owner can say whether it helped.
    let page = a.app.send(a.app.as_bearer(&a.owner.token, Method::GET, &format!("/agents/{}/proactive", a.id))).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("pharmacy on Elm Street") && page.text.contains("data-testid=\"proactive-accept\""));
    let chat = a
        .app
        .send(a.app.as_bearer(&a.owner.token, Method::GET, &format!("/agents/{}/chat?c={conversation}", a.id)))
        .await;
    assert!(chat.text.contains("data-testid=\"proactive-why\""), "the chat says why it wrote on its own");

    // Left alone for two more days: nothing more, and the unanswered check-in costs trust.
    let later = when + Duration::days(2);
    assert!(proactive::agents_to_scan(a.app.pool(), later).await.unwrap().is_empty(), "an idle agent is not scanned");
    let quiet = deliver::deliver_and_settle(&deps, later).await.unwrap();
    assert_eq!((quiet.delivered, quiet.resolved), (0, 1));
    assert_eq!(items(&a, "ignored").await.len(), 1);
    assert!((summary(&a).await["trust"].as_f64().unwrap() - 0.48).abs() < 1e-6);
}

#[tokio::test]
async fn an_urgent_deadline_goes_out_at_once_even_in_quiet_hours() {
    let now = Utc::now();
    let hm = |t: DateTime<Utc>| t.format("%H:%M").to_string();
    let a = agent(json!({ "timezone": "UTC", "proactiveness": "conservative",
        "quiet_hours": { "start": hm(now - Duration::hours(1)), "end": hm(now + Duration::hours(2)) } }))
    .await;
    let (deps, id) = (deps(&a), agent_id(&a));
    let r = a
        .call(
            Method::POST,
            "/tasks",
            Some(json!({ "title": "Submit the grant report", "due_at": now + Duration::hours(3) })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);

    assert!(
        proactive::agents_to_scan(a.app.pool(), now).await.unwrap().contains(&id),
        "a deadline within a day wakes it"
    );
    scan::scan(&deps, id, now).await.unwrap();
    let sweep = deliver::deliver_and_settle(&deps, now).await.unwrap();
    assert_eq!(sweep.delivered, 1, "{sweep:?}");
    let sent = items(&a, "sent").await;
    assert_eq!((sent[0]["level"].as_str(), sent[0]["timing"].as_str()), (Some("urgent"), Some("urgent_now")));
    assert!(sent[0]["message"].as_str().unwrap().contains("Submit the grant report"));
    let n = a.call(Method::GET, "/notifications", None).await.json();
    assert!(n.as_array().unwrap().iter().any(|n| n["kind"] == "reminder" && n["urgent"] == true), "{n}");
    // Reminded once: the scanner does not wake for the same deadline again.
    assert!(!proactive::agents_to_scan(a.app.pool(), now).await.unwrap().contains(&id));
}

#[tokio::test]
async fn the_dial_holds_speculative_follow_ups_and_distress_suppresses_inner_thoughts() {
    let a = agent(json!({ "proactiveness": "moderate" })).await;
    let (deps, id) = (deps(&a), agent_id(&a));
    say(&a, "I have a job interview tomorrow.", None, 1).await;
    let now = Utc::now();
    let report = scan::scan(&deps, id, now).await.unwrap();
    assert_eq!(report.thoughts, 1, "{report:?}");
    let held = items(&a, "suppressed").await;
    assert_eq!(held[0]["signal"], "follow_up");
    assert!(held[0]["status_reason"].as_str().unwrap().contains("need eager"), "{}", held[0]);

    // Eager lets the next one through: it waits for the owner's next message.
    let r = a.call(Method::PATCH, "", Some(json!({ "proactiveness": "eager" }))).await;
    assert_eq!(r.status, 200);
    say(&a, "My sister visits on Saturday.", None, 0).await;
    let later = now + Duration::hours(7);
    scan::scan(&deps, id, later).await.unwrap();
    let scheduled = items(&a, "scheduled").await;
    assert_eq!(scheduled.len(), 1, "{scheduled:?}");
    assert_eq!((scheduled[0]["timing"].as_str(), scheduled[0]["deliver_at"].as_str()), (Some("next_active"), None));

    // Another agent's owner: cheerful three days ago, miserable now. The to-do they mention is
    // not turned into a suggestion while they seem distressed.
    let b = agent(json!({ "proactiveness": "eager" })).await;
    let (deps, id) = (self::deps(&b), agent_id(&b));
    let c = say(&b, "What a wonderful day, thanks! I love this.", None, 72).await;
    say(&b, "I'm so sad and exhausted, everything is awful. I have to call the bank.", Some(&c), 1).await;
    let report = scan::scan(&deps, id, Utc::now()).await.unwrap();
    assert!(report.distressed, "{report:?}");
    let held = items(&b, "suppressed").await;
    let todo = held.iter().find(|i| i["signal"] == "todo").expect("the to-do, held back");
    assert!(todo["status_reason"].as_str().unwrap().contains("distressed"), "{todo}");
    assert!(items(&b, "scheduled").await.iter().all(|i| i["source"] != "inner_thought"));
}

#[tokio::test]
async fn accepting_and_dismissing_move_trust_and_stop_turns_the_dial_down() {
    let a = agent(json!({ "proactiveness": "eager" })).await;
    let (deps, id) = (deps(&a), agent_id(&a));
    let r = a.call(Method::PATCH, "/proactive", Some(json!({ "daily_max": 10 }))).await;
    assert_eq!((r.status.as_u16(), r.json()["daily_max"].as_i64()), (200, Some(10)), "{}", r.text);
    let r = a.call(Method::PATCH, "/proactive", Some(json!({ "daily_max": 11 }))).await;
    assert_eq!(r.status, 400, "{}", r.text);

    // Three deadlines, three reminders.
    let mut sent = Vec::new();
    for (i, title) in ["Pay the rent", "Renew the car insurance", "Send the birthday card"].iter().enumerate() {
        let now = Utc::now();
        let r =
            a.call(Method::POST, "/tasks", Some(json!({ "title": title, "due_at": now + Duration::hours(5) }))).await;
        assert_eq!(r.status, 201, "{}", r.text);
        scan::scan(&deps, id, now).await.unwrap();
        assert_eq!(deliver::deliver_and_settle(&deps, now).await.unwrap().delivered, 1, "reminder {i}");
        let item = items(&a, "sent").await.into_iter().find(|s| s["gap"] == *title).unwrap();
        sent.push(item);
    }
    let trust = |s: &Value| s["trust"].as_f64().unwrap();

    // Accepted from the dashboard or an app: +0.05; only once.
    let r = a.call(Method::POST, &format!("/proactive/items/{}/accept", sent[0]["id"].as_str().unwrap()), None).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("accepted")), "{}", r.text);
    assert!((trust(&summary(&a).await) - 0.55).abs() < 1e-6);
    let r = a.call(Method::POST, &format!("/proactive/items/{}/dismiss", sent[0]["id"].as_str().unwrap()), None).await;
    assert_eq!(r.status, 409);
    assert!(r.text.contains("accepted"), "{}", r.text);

    // Answered "not now, stop" under the last two reminders (one conversation): both dismissed
    // (−0.05 each), the dial drops to conservative, and the agent says so once.
    let conversation = sent[1]["conversation_id"].as_str().unwrap();
    assert_eq!(sent[2]["conversation_id"].as_str(), Some(conversation));
    say(&a, "Not now please, stop reminding me.", Some(conversation), 0).await;
    let settled = deliver::deliver_and_settle(&deps, Utc::now() + Duration::minutes(1)).await.unwrap();
    assert_eq!(settled.resolved, 2, "{settled:?}");
    let s = summary(&a).await;
    assert!((trust(&s) - 0.45).abs() < 1e-6, "{s}");
    assert_eq!(s["dial"], "conservative");
    assert_eq!(items(&a, "dismissed").await.len(), 2);
    let messages = a.call(Method::GET, &format!("/conversations/{conversation}/messages"), None).await.json();
    let said: Vec<_> = messages
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["content"].as_str().unwrap().contains("only reach out"))
        .collect();
    assert_eq!(said.len(), 1, "{messages}");
    let activity = a.call(Method::GET, "/activity", None).await.json();
    assert!(activity.to_string().contains("proactive_outcome"), "{activity}");
}

#[tokio::test]
async fn a_reminder_the_owner_asked_for_becomes_a_task_suggestion_whose_approval_counts_as_accepted() {
    let a = agent(json!({ "proactiveness": "conservative" })).await;
    let (deps, id) = (deps(&a), agent_id(&a));
    say(&a, "Remind me to water the tomatoes. It has been so dry.", None, 1).await;
    let now = Utc::now();
    let report = scan::scan(&deps, id, now).await.unwrap();
    assert_eq!(report.thoughts, 1, "an explicit reminder passes even the conservative dial: {report:?}");
    assert_eq!(deliver::deliver_and_settle(&deps, now).await.unwrap().delivered, 1);
    let sent = items(&a, "sent").await;
    assert_eq!((sent[0]["kind"].as_str(), sent[0]["signal"].as_str()), (Some("task"), Some("reminder")));
    let task = sent[0]["task_id"].as_str().expect("the suggested task");
    let tasks = a.call(Method::GET, "/tasks", None).await.json();
    let t = tasks.as_array().unwrap().iter().find(|t| t["id"] == task).expect("listed");
    assert_eq!((t["title"].as_str(), t["status"].as_str()), (Some("Water the tomatoes"), Some("pending")));

    // The owner approves it: the suggestion was accepted, trust +0.05.
    let r = a.call(Method::POST, &format!("/tasks/{task}/transition"), Some(json!({ "to": "approved" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(deliver::deliver_and_settle(&deps, Utc::now()).await.unwrap().resolved, 1);
    assert_eq!(items(&a, "accepted").await.len(), 1);
    assert!((summary(&a).await["trust"].as_f64().unwrap() - 0.55).abs() < 1e-6);
}

#[tokio::test]
async fn an_item_that_cannot_be_delivered_is_set_aside_and_the_rest_go_out() {
    let a = agent(json!({})).await;
    let deps = deps(&a);
    // A task suggestion with no title (tasks refuse it) and a check-in, both due now.
    for (kind, gap, key) in [("task", "", "broken"), ("check_in", "The garden plan", "fine")] {
        sqlx::query(
            "INSERT INTO proactive_items (agent_id, id, kind, source, signal, gap, urgency, level, rule, message, timing,
                                          deliver_at, dedup_key, created_at)
             VALUES ($1, $2, $3, 'gap_scanner', 'stale', $4, 'medium', 'information', 'r', 'Still on your mind?',
                     'active_hours', now() - interval '1 minute', $5, now())",
        )
        .bind(a.id.parse::<uuid::Uuid>().unwrap())
        .bind(uuid::Uuid::now_v7())
        .bind(kind)
        .bind(gap)
        .bind(key)
        .execute(a.app.pool())
        .await
        .unwrap();
    }
    let sweep = deliver::deliver_and_settle(&deps, Utc::now()).await.unwrap();
    assert_eq!(sweep.delivered, 1, "{sweep:?}");
    let held = items(&a, "suppressed").await;
    assert!(held[0]["status_reason"].as_str().unwrap().starts_with("could not be delivered"), "{}", held[0]);
}

#[tokio::test]
async fn the_proactive_routes_need_their_scopes_and_check_their_input() {
    let a = agent(json!({})).await;
    let (_, reader) = a.app.create_key(&a.owner, &a.id, &["proactive:read"]).await;
    let (_, other) = a.app.create_key(&a.owner, &a.id, &["chat:read"]).await;
    let get = |key: &str| a.app.request(Method::GET, &a.path("/proactive")).bearer_auth(key.to_string());
    assert_eq!(a.app.send(get(&reader)).await.status, 200);
    assert_eq!(a.app.send(get(&other)).await.status, 403);
    let patch =
        a.app.request(Method::PATCH, &a.path("/proactive")).bearer_auth(&reader).json(&json!({ "daily_max": 3 }));
    assert_eq!(a.app.send(patch).await.status, 403, "the daily cap is the owner's");
    let r = a.call(Method::GET, "/proactive/items?status=bogus", None).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = a.call(Method::POST, &format!("/proactive/items/{}/accept", uuid::Uuid::now_v7()), None).await;
    assert_eq!(r.status, 404, "{}", r.text);
}

#[tokio::test]
async fn only_the_owners_own_words_move_the_scans_not_a_keys_nor_an_email_senders() {
    let a = agent(json!({ "proactiveness": "eager" })).await;
    let (deps, id) = (deps(&a), agent_id(&a));
    // A key acting for no one says what would become a reminder and a follow-up if the owner had.
    let (_, key) = a.app.create_key(&a.owner, &a.id, &["chat:write"]).await;
    let body = json!({ "message": "Remind me to call the bank tomorrow. I have a job interview tomorrow." });
    let r = a.app.send(a.app.as_bearer(&key, Method::POST, &a.path("/chat")).json(&body)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let report = scan::scan(&deps, id, Utc::now() + Duration::hours(7)).await.unwrap();
    assert_eq!((report.found, report.thoughts), (0, 0), "a key's words are not the owner's: {report:?}");
    assert!(items(&a, "scheduled").await.is_empty() && items(&a, "suppressed").await.is_empty());
    // The same words from the owner are.
    say(&a, "I have a job interview tomorrow.", None, 1).await;
    let report = scan::scan(&deps, id, Utc::now() + Duration::hours(7)).await.unwrap();
    assert_eq!(report.thoughts, 1, "{report:?}");
}
