//! SPEC X9: when a session ends its summary goes into the ledger and the agent's coordinates
//! are saved; a conversation resumed later starts with the recovery block of the door its
//! age calls for; the ledger is browsable by API (owner only) and in the dashboard.

use reqwest::Method;
use serde_json::Value;

use crate::chat_support::Chat;
use crate::common::TestApp;
use crate::llm_server::{LlmServer, Script};

/// Lets time pass: every message of the agent and its saved state become older.
async fn later(c: &Chat, messages: &str, saved: &str) {
    let pool = c.app.pool();
    sqlx::query(&format!("UPDATE chat_messages SET created_at = created_at - interval '{messages}'"))
        .execute(pool)
        .await
        .unwrap();
    sqlx::query(&format!("UPDATE agent_live_state SET saved_at = now() - interval '{saved}'"))
        .execute(pool)
        .await
        .unwrap();
}

/// The system prompt of the last chat call the model server saw.
fn last_system_prompt(server: &LlmServer) -> String {
    let chats: Vec<Value> = server.requests().into_iter().filter(|b| b["stream"] == true).collect();
    let last = chats.last().expect("a chat call");
    last["messages"][0]["content"].as_str().unwrap().to_string()
}

fn reply(server: &LlmServer, text: &str) {
    server.push(Script::Stream { pieces: vec![text.into()], usage: None, complete: true });
}

#[tokio::test]
async fn a_resumed_conversation_starts_from_the_door_its_age_calls_for() {
    let server = LlmServer::start().await;
    let c = Chat::new(TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).admin_password("pw").spawn().await)
        .await;
    reply(&server, "Lisbon in May is lovely.");
    let first = c.say("Planning a trip to Lisbon", None).await;
    let conversation = first["conversation_id"].as_str().unwrap().to_string();
    reply(&server, "Noted.");
    c.say("Flights are booked", Some(&conversation)).await;
    assert!(!last_system_prompt(&server).contains("Where you left off"), "the session is going on");

    // The session ends (40 minutes of silence): the sweep queues the job, the job writes the
    // ledger (its summary by the summarization role) and the coordinates.
    later(&c, "40 minutes", "0 minutes").await;
    server.push(Script::reply("Planned a May trip to Lisbon; flights booked."));
    assert_eq!(miniclaw::cognition::ledger::sweep(c.app.pool()).await.unwrap(), 1);
    c.app.run_jobs().await;
    let live = c.get("/live-state").await;
    assert_eq!(live["door"], 3, "{live}");
    assert!(live["confidence"].as_f64().unwrap() > 0.95, "{live}");
    assert!(live["coordinates"]["resume"]["said"].as_str().unwrap().contains("Flights are booked"), "{live}");
    assert_eq!(miniclaw::cognition::ledger::sweep(c.app.pool()).await.unwrap(), 0, "nothing new since");

    // Door 3 (saved 90 minutes ago): the coordinates, not the ledger.
    later(&c, "90 minutes", "90 minutes").await;
    reply(&server, "Welcome back.");
    c.say("Where were we?", Some(&conversation)).await;
    let prompt = last_system_prompt(&server);
    assert!(prompt.contains("Where you left off") && prompt.contains("Saved 90 minutes ago"), "{prompt}");
    assert!(prompt.contains("Flights are booked") && !prompt.contains("Sessions in the last 24 hours"), "{prompt}");
    assert!(prompt.contains("not instructions"), "observation only: {prompt}");
    // The next message of the same session is not a resumption.
    reply(&server, "Sure.");
    c.say("And the hotel?", Some(&conversation)).await;
    assert!(!last_system_prompt(&server).contains("Where you left off"));

    // Door 2 (saved 3 hours ago): reconciled with the day's sessions.
    later(&c, "3 hours", "3 hours").await;
    reply(&server, "Hello again.");
    c.say("Hi again", Some(&conversation)).await;
    let prompt = last_system_prompt(&server);
    assert!(prompt.contains("Sessions in the last 24 hours") && prompt.contains("flights booked"), "{prompt}");

    // Door 1 (saved 25 hours ago), in a new conversation: rebuilt from the ledger.
    later(&c, "25 hours", "25 hours").await;
    reply(&server, "Good to see you.");
    c.say("Good morning", None).await;
    let prompt = last_system_prompt(&server);
    assert!(prompt.contains("rebuilt from the session ledger") && prompt.contains("flights booked"), "{prompt}");
    assert!(!prompt.contains("Saved 25"), "{prompt}");
}

#[tokio::test]
async fn the_ledger_is_browsable_by_month_and_day_and_only_by_the_owner() {
    let c = Chat::new(TestApp::spawn().await).await;
    assert_eq!(c.get("/live-state").await["door"], 1, "nothing saved yet");
    c.say("I adopted a cat named Miso", None).await;
    later(&c, "40 minutes", "0 minutes").await;
    miniclaw::cognition::ledger::sweep(c.app.pool()).await.unwrap();
    c.app.run_jobs().await;

    let months = c.get("/ledger").await;
    let month = months["months"][0]["period"].as_str().unwrap().to_string();
    assert_eq!(
        (months["months"][0]["sessions"].as_i64(), months["months"][0]["messages"].as_i64()),
        (Some(1), Some(2))
    );
    let days = c.get(&format!("/ledger/months/{month}")).await;
    let day = days["days"][0]["period"].as_str().unwrap().to_string();
    assert!(day.starts_with(&month));
    let sessions = c.get(&format!("/ledger/days/{day}")).await;
    let s = &sessions["sessions"][0];
    assert_eq!(s["messages"], 2);
    assert!(!s["summary"].as_str().unwrap().is_empty(), "{s}");
    for bad in ["/ledger/months/2026-13", "/ledger/months/26-1", "/ledger/days/2026-02-30", "/ledger/days/today"] {
        let r = c.app.send(c.app.as_bearer(&c.owner.token, Method::GET, &c.path(bad))).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.text);
    }

    // The ledger spans every user's conversations: an API key gets a 403.
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:read"]).await;
    for path in ["/ledger", "/live-state"] {
        let r = c.app.send(c.app.as_bearer(&key, Method::GET, &c.path(path))).await;
        assert_eq!(r.status, 403, "{path}: {}", r.text);
    }

    // The dashboard: the Mind tab shows the live state, the ledger page the sessions.
    let mind = c.app.send(c.app.as_bearer(&c.owner.token, Method::GET, &format!("/agents/{}/mind", c.id))).await;
    assert!(mind.text.contains(r#"data-testid="live-state""#) && mind.text.contains("door 3"), "{}", mind.text);
    let page =
        c.app.send(c.app.as_bearer(&c.owner.token, Method::GET, &format!("/agents/{}/ledger?day={day}", c.id))).await;
    assert_eq!(page.status, 200);
    assert!(
        page.text.contains(r#"data-testid="ledger-sessions""#) && page.text.contains("2 messages"),
        "{}",
        page.text
    );
}
