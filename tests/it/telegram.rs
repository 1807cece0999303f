//! Telegram (SPEC O6) against a loopback fake of the Bot API that follows its documented
//! shapes (`POST /bot<token>/<method>`, `{"ok": true, "result": …}`): connect with
//! `setWebhook` and a secret token, a message round-trips through the chat pipeline, the
//! owner's chat is linked and gets notifications, wrong secrets are refused.

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use miniclaw::channels::notifications::{Kind, notify};
use miniclaw::ids::AgentId;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent, TestApp};
use crate::email_support::eventually;

pub const TOKEN: &str = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";

/// The fake Bot API: the calls it got, as (method, body).
#[derive(Clone, Default)]
pub struct FakeBot {
    calls: Arc<Mutex<Vec<(String, Value)>>>,
    /// How many of the next `sendMessage` calls answer 502 (Telegram's side failing).
    failing_sends: Arc<Mutex<usize>>,
}

async fn bot_method(
    State(f): State<FakeBot>,
    Path((bot, method)): Path<(String, String)>,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    if bot != format!("bot{TOKEN}") {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({ "ok": false, "error_code": 401, "description": "Unauthorized" })),
        );
    }
    if method == "sendMessage" {
        let mut failing = f.failing_sends.lock().unwrap();
        if *failing > 0 {
            *failing -= 1;
            return (
                StatusCode::BAD_GATEWAY,
                Json(json!({ "ok": false, "error_code": 502, "description": "Bad Gateway" })),
            );
        }
    }
    f.calls.lock().unwrap().push((method.clone(), body.clone()));
    let result = match method.as_str() {
        "getMe" => json!({ "id": 123456789, "is_bot": true, "first_name": "Ada", "username": "ada_test_bot" }),
        "setWebhook" | "deleteWebhook" => json!(true),
        "sendMessage" => {
            json!({ "message_id": 7, "date": 1795000000, "chat": { "id": body["chat_id"], "type": "private" }, "text": body["text"] })
        }
        _ => {
            return (
                StatusCode::NOT_FOUND,
                Json(json!({ "ok": false, "error_code": 404, "description": "Not Found" })),
            );
        }
    };
    (StatusCode::OK, Json(json!({ "ok": true, "result": result })))
}

impl FakeBot {
    pub async fn start() -> (FakeBot, String) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let fake = FakeBot::default();
        let app = axum::Router::new().route("/{bot}/{method}", post(bot_method)).with_state(fake.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.ok() });
        (fake, base)
    }

    pub fn fail_next_sends(&self, n: usize) {
        *self.failing_sends.lock().unwrap() = n;
    }

    pub fn calls(&self, method: &str) -> Vec<Value> {
        self.calls.lock().unwrap().iter().filter(|(m, _)| m == method).map(|(_, b)| b.clone()).collect()
    }
}

fn update(update_id: i64, chat: i64, text: &str) -> Value {
    json!({ "update_id": update_id, "message": { "message_id": update_id, "date": 1795000000, "text": text,
        "from": { "id": chat, "is_bot": false, "first_name": "Sam" }, "chat": { "id": chat, "type": "private" } } })
}

#[tokio::test]
async fn a_telegram_message_round_trips_through_the_bot_api_and_the_owner_gets_notifications() {
    let (bot, base) = FakeBot::start().await;
    let agent = OwnedAgent::new(TestApp::builder().env("TELEGRAM_API_BASE", &base).spawn().await).await;
    let app = &agent.app;

    let r = agent.call(Method::PUT, "/telegram", Some(json!({ "bot_token": "not a token" }))).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = agent
        .call(Method::PUT, "/telegram", Some(json!({ "bot_token": "987654321:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDxxx" })))
        .await;
    assert_eq!((r.status.as_u16(), r.error_code()), (422, "telegram_refused".to_string()), "{}", r.text);

    let r = agent.call(Method::PUT, "/telegram", Some(json!({ "bot_token": TOKEN }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(!r.text.contains(TOKEN) && !r.text.contains("AAHdqTcv"), "the token is never returned");
    let status = r.json();
    assert_eq!((status["connected"].as_bool(), status["bot_username"].as_str()), (Some(true), Some("ada_test_bot")));
    let link_code = status["link_code"].as_str().unwrap().to_string();
    let hook = bot.calls("setWebhook").pop().expect("setWebhook was called");
    let webhook_path = format!("/webhooks/telegram/{}", agent.id);
    assert_eq!(hook["url"], app.url(&webhook_path));
    let secret = hook["secret_token"].as_str().unwrap().to_string();
    assert!(secret.len() >= 32);
    let sealed =
        sqlx::query_scalar!("SELECT sealed_token FROM agent_telegram_bots").fetch_one(app.pool()).await.unwrap();
    assert!(!String::from_utf8_lossy(&sealed).contains("AAHdqTcv"), "stored sealed");

    // Without the secret, or with another, nothing reaches the agent.
    let post = |secret: Option<&str>, body: &Value| {
        let req = app.request(Method::POST, &webhook_path).json(body);
        match secret {
            Some(s) => req.header("X-Telegram-Bot-Api-Secret-Token", s),
            None => req,
        }
    };
    for s in [None, Some("wrong"), Some("")] {
        let r = app.send(post(s, &update(1, 555, "Hello there"))).await;
        assert_eq!(r.status, 401, "{}", r.text);
    }
    assert!(bot.calls("sendMessage").is_empty());

    let r = app.send(post(Some(&secret), &update(1, 555, "Hello there"))).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("received")), "{}", r.text);
    // Recorded with the job that answers it: the answer comes from the queue.
    assert!(bot.calls("sendMessage").is_empty());
    app.run_jobs().await;
    let sent = bot.calls("sendMessage");
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["chat_id"], 555);
    assert!(!sent[0]["text"].as_str().unwrap().is_empty());
    let row = sqlx::query!(
        "SELECT c.channel, c.end_user FROM conversations c JOIN telegram_chats t ON t.conversation_id = c.id"
    )
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert_eq!((row.channel.as_str(), row.end_user.as_deref()), ("telegram", Some("telegram:555")));
    let messages = sqlx::query_scalar!("SELECT count(*) FROM chat_messages WHERE channel = 'telegram'")
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(messages, Some(2));
    // Telegram delivers the same update again: nothing new.
    let r = app.send(post(Some(&secret), &update(1, 555, "Hello there"))).await;
    assert_eq!(r.json()["status"], "duplicate");
    app.run_jobs().await;
    assert_eq!(bot.calls("sendMessage").len(), 1);
    // The next message continues the chat's conversation.
    app.send(post(Some(&secret), &update(2, 555, "And another thing"))).await;
    app.run_jobs().await;
    let messages = sqlx::query_scalar!("SELECT count(*) FROM chat_messages WHERE channel = 'telegram'")
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(messages, Some(4));
    assert_eq!(bot.calls("sendMessage").len(), 2);

    // The owner links their chat; an urgent notification goes there, with the agent's name.
    let r = app.send(post(Some(&secret), &update(3, 777, &format!("/start {link_code}")))).await;
    assert_eq!(r.json()["status"], "linked");
    assert!(agent.call(Method::GET, "/telegram", None).await.json()["owner_linked"].as_bool().unwrap());
    let id = AgentId(agent.id.parse().unwrap());
    let mut conn = app.pool().acquire().await.unwrap();
    notify(
        &mut conn,
        id,
        Kind::Escalation,
        "bob@example.org replied; your answer is needed",
        "Suggested reply: …",
        None,
    )
    .await
    .unwrap();
    app.run_jobs().await;
    eventually("the Telegram notification", || {
        bot.calls("sendMessage").iter().any(|m| m["chat_id"] == 777 && m["text"].as_str().unwrap().contains("Urgent"))
    })
    .await;
    let note = bot.calls("sendMessage").into_iter().find(|m| m["text"].as_str().unwrap().contains("Urgent")).unwrap();
    assert!(note["text"].as_str().unwrap().contains("Ada: Urgent: bob@example.org replied"), "{note}");
    let list = agent.call(Method::GET, "/notifications", None).await.json();
    assert_eq!(list[0]["channels"]["telegram"]["status"], "sent", "{list}");

    // A send Telegram refuses is not dropped: the job tries again and the notification says so.
    bot.fail_next_sends(1);
    notify(&mut conn, id, Kind::Escalation, "carol@example.org replied", "Suggested reply: …", None).await.unwrap();
    app.run_jobs().await;
    let list = agent.call(Method::GET, "/notifications", None).await.json();
    assert_eq!(list[0]["channels"]["telegram"]["status"], "retrying", "{list}");
    assert!(!bot.calls("sendMessage").iter().any(|m| m["text"].as_str().unwrap().contains("carol@")));
    sqlx::query("UPDATE jobs SET run_at = now() WHERE kind = 'telegram_notify' AND status = 'queued'")
        .execute(app.pool())
        .await
        .unwrap();
    app.run_jobs().await;
    assert_eq!(bot.calls("sendMessage").iter().filter(|m| m["text"].as_str().unwrap().contains("carol@")).count(), 1);
    let list = agent.call(Method::GET, "/notifications", None).await.json();
    assert_eq!(list[0]["channels"]["telegram"]["status"], "sent", "{list}");

    let r = agent.call(Method::DELETE, "/telegram", None).await;
    assert_eq!(r.status, 204);
    assert_eq!(bot.calls("deleteWebhook").len(), 1);
    let r = app.send(post(Some(&secret), &update(4, 555, "Anyone?"))).await;
    assert_eq!(r.status, 404);
    assert_eq!(agent.call(Method::DELETE, "/telegram", None).await.status, 404);
}

/// A message whose answer could not be sent (or whose worker died after the turn) is answered
/// by the job's next run with the reply already made: one turn, one message in Telegram; a run
/// after the answer went out sends nothing.
#[tokio::test]
async fn a_failed_send_is_retried_with_the_same_reply_and_never_answered_twice() {
    let (bot, base) = FakeBot::start().await;
    let agent = OwnedAgent::new(TestApp::builder().env("TELEGRAM_API_BASE", &base).spawn().await).await;
    let app = &agent.app;
    let r = agent.call(Method::PUT, "/telegram", Some(json!({ "bot_token": TOKEN }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let secret = bot.calls("setWebhook").pop().unwrap()["secret_token"].as_str().unwrap().to_string();
    let webhook_path = format!("/webhooks/telegram/{}", agent.id);
    let messages = || async {
        sqlx::query_scalar!("SELECT count(*) FROM chat_messages WHERE channel = 'telegram'")
            .fetch_one(app.pool())
            .await
            .unwrap()
            .unwrap_or(0)
    };
    let due_now = || async {
        sqlx::query!("UPDATE jobs SET run_at = now(), status = 'queued' WHERE kind = 'telegram_answer'")
            .execute(app.pool())
            .await
            .unwrap();
    };

    bot.fail_next_sends(1);
    let r = app
        .send(
            app.request(Method::POST, &webhook_path).header("X-Telegram-Bot-Api-Secret-Token", &secret).json(&update(
                10,
                555,
                "Hello there",
            )),
        )
        .await;
    assert_eq!(r.json()["status"], "received", "{}", r.text);
    app.run_jobs().await;
    assert!(bot.calls("sendMessage").is_empty(), "the first send failed");
    assert_eq!(messages().await, 2, "the turn ran once");

    due_now().await;
    app.run_jobs().await;
    let sent = bot.calls("sendMessage");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(messages().await, 2, "the retry sent the reply already made, without a second turn");
    let reply =
        sqlx::query_scalar!("SELECT content FROM chat_messages WHERE channel = 'telegram' AND role = 'assistant'")
            .fetch_one(app.pool())
            .await
            .unwrap();
    assert_eq!(sent[0]["text"].as_str(), Some(reply.as_str()));

    // The job runs once more (a worker that died after sending, before finishing the job).
    due_now().await;
    app.run_jobs().await;
    assert_eq!(bot.calls("sendMessage").len(), 1, "answered once");
    assert_eq!(messages().await, 2);
}
