//! SPEC X6 through the API: each message is read without a model, the speaker's mood is kept
//! by the statement that finishes the turn, the chat model is told what was observed (never
//! told what to do), and each caller sees only the moods it may see.

use reqwest::Method;
use serde_json::json;

use crate::chat_support::Chat;
use crate::common::TestApp;
use crate::llm_server::{LlmServer, Script};

#[tokio::test]
async fn the_mood_is_kept_per_speaker_and_the_model_gets_it_as_an_observation() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    // A brief message (the pre-filter decides, no triage call): the chat model answers.
    server.push(Script::Stream { pieces: vec!["I'm sorry.".into()], usage: Some((40, 3)), complete: true });
    c.say("I'm so angry, I hate this landlord!", None).await;
    let chat = server.requests().into_iter().find(|b| b["stream"] == true).expect("a chat call");
    let system = chat["messages"][0]["content"].as_str().unwrap().to_string();
    assert!(system.contains("## Observed (for your awareness only; not an instruction)"), "{system}");
    assert!(system.contains("reads as angry"), "{system}");

    let moods = c.get("/affect").await;
    let owner = &moods["speakers"][0];
    assert_eq!(owner["speaker"], "owner");
    assert_eq!(owner["mood"]["label"], "angry");
    assert_eq!(owner["mood"]["messages"], 1);
    assert!(owner["mood"]["fast_valence"].as_f64().unwrap() < -0.3, "{moods}");
    assert_eq!(moods["truncated"], false);

    // A miniapp's end user has a mood of their own; its key sees only that one.
    let body = json!({ "name": "miniapp", "scopes": ["chat:read", "chat:write"], "end_user": "u-42" });
    let key = c.app.send(c.post("/api-keys").json(&body)).await.json()["key"].as_str().unwrap().to_string();
    server.push(Script::Stream { pieces: vec!["Congratulations!".into()], usage: Some((40, 2)), complete: true });
    let as_key = |m: Method, rest: &str| c.app.as_bearer(&key, m, &c.path(rest));
    let r = c.app.send(as_key(Method::POST, "/chat").json(&json!({ "message": "I got the job!!! So happy!" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mine = c.app.send(as_key(Method::GET, "/affect")).await.json();
    let speakers: Vec<&str> =
        mine["speakers"].as_array().unwrap().iter().map(|s| s["speaker"].as_str().unwrap()).collect();
    assert_eq!(speakers, ["user:u-42"]);
    assert!(mine["speakers"][0]["mood"]["fast_valence"].as_f64().unwrap() > 0.3, "{mine}");
    let all = c.get("/affect").await;
    assert_eq!(all["speakers"].as_array().unwrap().len(), 2, "the owner sees every speaker: {all}");

    // A key without `chat:read` is refused.
    let (_, writer) = c.app.create_key(&c.owner, &c.id, &["memories:read"]).await;
    let r = c.app.send(c.app.as_bearer(&writer, Method::GET, &c.path("/affect"))).await;
    assert_eq!(r.status, 403);
}

#[tokio::test]
async fn behavioural_signals_follow_every_turn() {
    let c = Chat::new(TestApp::spawn().await).await;
    assert_eq!(c.get("/signals").await, serde_json::Value::Null, "nothing before the first turn");
    let first = c.say("What time does the bakery on Main Street open tomorrow morning?", None).await;
    let conversation = first["conversation_id"].as_str().unwrap().to_string();
    c.say("And does the bakery on Main Street sell rye bread?", Some(&conversation)).await;
    c.say("Completely unrelated: explain quantum entanglement to a child.", Some(&conversation)).await;
    let s = c.get("/signals").await;
    assert_eq!(s["messages"], 3, "{s}");
    let depth = s["session_depth"].as_f64().unwrap();
    assert!(depth > 1.0 && depth <= 3.0, "turns 1, 2, 3 of one conversation: {s}");
    let chars = s["message_chars"].as_f64().unwrap();
    assert!((49.0..=64.0).contains(&chars), "between the shortest and the longest message: {s}");
    // Three messages in a few seconds are no daily rate: none is shown until they span a day.
    assert!(s["frequency_per_day"].is_null(), "{s}");
    let switch = s["topic_switch_rate"].as_f64().expect("the messages were embedded");
    assert!((0.0..=1.0).contains(&switch), "{s}");
    assert_eq!(s["half_life_days"], 7.0);

    // The Mind tab shows both.
    let page = c.app.send(c.app.as_bearer(&c.owner.token, Method::GET, &format!("/agents/{}/mind", c.id))).await;
    assert_eq!(page.status, 200);
    assert!(
        page.text.contains(r#"data-testid="affect""#) && page.text.contains(r#"data-testid="signals""#),
        "{}",
        page.text
    );
    assert!(page.text.contains("3 messages"), "{}", page.text);
    assert!(page.text.contains(r#"data-testid="rate-too-early""#) && !page.text.contains("messages a day"));

    // A day later the rate is shown.
    sqlx::query("UPDATE behaviour_signals SET first_at = first_at - interval '2 days'")
        .execute(c.app.pool())
        .await
        .unwrap();
    let s = c.get("/signals").await;
    assert!(s["frequency_per_day"].as_f64().unwrap() > 0.0, "{s}");
    let page = c.app.send(c.app.as_bearer(&c.owner.token, Method::GET, &format!("/agents/{}/mind", c.id))).await;
    assert!(page.text.contains("messages a day"), "{}", page.text);
}
