//! SPEC H1 over HTTP: end users are principals. Two people talk to one agent through one
//! miniapp key; what each tells it is theirs: their chats, their memory searches and lists
//! never show the other's facts, the owner sees both (and can filter by person), and one
//! person's statement never replaces or suppresses another's.

use reqwest::Method;
use serde_json::{Value, json};

use crate::chat_support::Chat;
use crate::common::TestApp;

const USER: &str = "x-miniclaw-user";

/// A request with `key`, acting for `user`.
fn as_user(c: &Chat, key: &str, user: &str, method: Method, rest: &str) -> reqwest::RequestBuilder {
    c.app.as_bearer(key, method, &c.path(rest)).header(USER, user)
}

/// The contents of a memory list or search answer.
fn contents(v: &Value) -> Vec<String> {
    let items = v.get("results").and_then(Value::as_array).or_else(|| v.as_array()).cloned().unwrap_or_default();
    items.iter().map(|m| m.get("memory").unwrap_or(m)["content"].as_str().unwrap_or_default().to_string()).collect()
}

fn mentions(texts: &[String], word: &str) -> bool {
    texts.iter().any(|t| t.contains(word))
}

/// A chat turn as `user`: the reply and the memories it used, as one text.
async fn say(c: &Chat, key: &str, user: &str, message: &str) -> String {
    let r = c.app.send(as_user(c, key, user, Method::POST, "/chat").json(&json!({ "message": message }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = r.json();
    let used = v["memories_used"].as_array().cloned().unwrap_or_default();
    let used: Vec<&str> = used.iter().filter_map(|m| m["content"].as_str()).collect();
    format!("{}\n{}", v["reply"].as_str().unwrap_or_default(), used.join("\n"))
}

/// The memories `user` lists.
async fn list(c: &Chat, key: &str, user: &str) -> Vec<String> {
    contents(&c.app.send(as_user(c, key, user, Method::GET, "/memories?limit=200")).await.json())
}

/// What a memory search as `user` finds.
async fn search(c: &Chat, key: &str, user: &str, query: &str) -> Vec<String> {
    let r = c.app.send(as_user(c, key, user, Method::POST, "/memories/search").json(&json!({ "query": query }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    contents(&r.json())
}

#[tokio::test]
async fn two_end_users_of_one_agent_each_keep_their_own_memories() {
    let c = Chat::new(TestApp::spawn().await).await;
    let scopes = ["chat:read", "chat:write", "memories:read", "memories:write"];
    let r = c.app.send(c.post("/api-keys").json(&json!({ "name": "miniapp", "scopes": scopes }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let key = r.json()["key"].as_str().unwrap().to_string();
    let (c, key) = (&c, key.as_str());

    // Each tells the agent about themselves in chat; extraction learns it.
    say(c, key, "alice", "My name is Alice and I live in Vienna.").await;
    say(c, key, "bob", "My name is Bob and I live in Oslo.").await;
    say(c, key, "alice", "I work as a nurse at the city hospital.").await;
    say(c, key, "bob", "I work as a carpenter in my own workshop.").await;
    c.app.run_jobs().await;

    let alice = list(c, key, "alice").await;
    let bob = list(c, key, "bob").await;
    assert!(mentions(&alice, "Vienna") && !mentions(&alice, "Oslo") && !mentions(&alice, "carpenter"), "{alice:?}");
    assert!(mentions(&bob, "Oslo") && !mentions(&bob, "Vienna") && !mentions(&bob, "nurse"), "{bob:?}");
    for (user, theirs, other) in [("alice", "Vienna", "Oslo"), ("bob", "Oslo", "Vienna")] {
        let found = search(c, key, user, "where do I live?").await;
        assert!(mentions(&found, theirs) && !mentions(&found, other), "{user}: {found:?}");
        let found = search(c, key, user, "Oslo Vienna nurse carpenter").await;
        assert!(!mentions(&found, other), "{user}: {found:?}");
    }

    // In chat ("what do you know about me?"), what the agent remembers for each is theirs alone.
    for question in ["What is my name?", "What do you know about me?", "Where do I live and what is my job?"] {
        let answer = say(c, key, "alice", question).await;
        assert!(!answer.contains("Bob") && !answer.contains("Oslo") && !answer.contains("carpenter"), "{answer}");
        let answer = say(c, key, "bob", question).await;
        assert!(!answer.contains("Alice") && !answer.contains("Vienna") && !answer.contains("nurse"), "{answer}");
    }
    let answer = say(c, key, "alice", "What is my name?").await;
    assert!(answer.contains("Alice"), "her own memory is used: {answer}");

    // The owner sees both, says whose each is, and can ask for one person's.
    let all = c.get("/memories?limit=200").await;
    let whose = |word: &str| {
        all.as_array()
            .unwrap()
            .iter()
            .find(|m| m["content"].as_str().unwrap().contains(word))
            .map(|m| m["end_user"].clone())
    };
    assert_eq!((whose("Vienna"), whose("Oslo")), (Some(json!("alice")), Some(json!("bob"))), "{all}");
    let page = c.app.send(c.app.as_bearer(&c.owner.token, Method::GET, &format!("/agents/{}/memories", c.id))).await;
    assert!(page.text.contains(r#"data-testid="memory-whose""#) && page.text.contains("from alice"), "{}", page.text);
    let only_bob = contents(&c.get("/memories?limit=200&end_user=bob").await);
    assert!(mentions(&only_bob, "Oslo") && !mentions(&only_bob, "Vienna"), "{only_bob:?}");
    let agent_own = contents(&c.get("/memories?limit=200&end_user=-").await);
    assert!(!mentions(&agent_own, "Oslo") && !mentions(&agent_own, "Vienna"), "{agent_own:?}");

    // A person cannot ask for another's memories, read one by id, or change one.
    let r = c.app.send(as_user(c, key, "alice", Method::GET, "/memories?end_user=bob")).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "end_user_mismatch"), "{}", r.text);
    let bobs =
        all.as_array().unwrap().iter().find(|m| m["end_user"] == "bob").unwrap()["id"].as_str().unwrap().to_string();
    for (method, rest) in [(Method::GET, ""), (Method::GET, "/history"), (Method::DELETE, "")] {
        let r = c.app.send(as_user(c, key, "alice", method.clone(), &format!("/memories/{bobs}{rest}"))).await;
        assert_eq!(r.status, 404, "{method} {rest}: {}", r.text);
    }
    let r = c
        .app
        .send(as_user(c, key, "alice", Method::PATCH, &format!("/memories/{bobs}")).json(&json!({ "content": "x" })))
        .await;
    assert_eq!(r.status, 404, "{}", r.text);

    // A memory a person adds through the API is theirs; the same words from another person are
    // a memory of their own (neither reinforces nor is suppressed by the other's).
    let add = |user: &'static str| {
        let body = json!({ "content": "I am allergic to peanuts", "category": "identity" });
        as_user(c, key, user, Method::POST, "/memories").json(&body)
    };
    let r = c.app.send(add("alice")).await;
    assert_eq!((r.status.as_u16(), r.json()["end_user"].as_str()), (201, Some("alice")), "{}", r.text);
    let alices = r.json()["id"].as_str().unwrap().to_string();
    let r = c.app.send(as_user(c, key, "alice", Method::DELETE, &format!("/memories/{alices}"))).await;
    assert_eq!(r.status, 204, "{}", r.text);
    let r = c.app.send(add("bob")).await;
    assert_eq!((r.status.as_u16(), r.json()["end_user"].as_str()), (201, Some("bob")), "{}", r.text);
    assert!(mentions(&list(c, key, "bob").await, "peanuts"));
    assert!(!mentions(&list(c, key, "alice").await, "peanuts"));
}

#[tokio::test]
async fn a_retried_write_with_an_idempotency_key_runs_once() {
    let c = Chat::new(TestApp::spawn().await).await;
    let turn =
        |key: &str, message: &str| c.post("/chat").header("Idempotency-Key", key).json(&json!({ "message": message }));
    let first = c.app.send(turn("turn-1", "Hello there, how are you?")).await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert!(first.headers.get("idempotent-replayed").is_none());
    // The client lost the answer and sends the same request again: the first turn's reply.
    let again = c.app.send(turn("turn-1", "Hello there, how are you?")).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.headers.get("idempotent-replayed").and_then(|v| v.to_str().ok()), Some("true"));
    assert_eq!(again.json()["user_message_id"], first.json()["user_message_id"]);
    assert_eq!(again.json()["reply"], first.json()["reply"]);
    let said: i64 = sqlx::query_scalar("SELECT count(*) FROM chat_messages WHERE role = 'user'")
        .fetch_one(c.app.pool())
        .await
        .unwrap();
    assert_eq!(said, 1, "one turn ran");

    // The key belongs to that request: another body under it is refused, nothing runs.
    let other = c.app.send(turn("turn-1", "Something else entirely")).await;
    assert_eq!((other.status.as_u16(), other.error_code().as_str()), (422, "idempotency_key_reused"), "{}", other.text);
    // A new key is a new turn; another credential's same key is its own.
    assert_eq!(c.app.send(turn("turn-2", "Hello there, how are you?")).await.status, 200);
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    let as_key = c
        .app
        .as_bearer(&key, Method::POST, &c.path("/chat"))
        .header("Idempotency-Key", "turn-1")
        .json(&json!({ "message": "Hello from the miniapp" }));
    let r = c.app.send(as_key).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.headers.get("idempotent-replayed").is_none());
    let said: i64 = sqlx::query_scalar("SELECT count(*) FROM chat_messages WHERE role = 'user'")
        .fetch_one(c.app.pool())
        .await
        .unwrap();
    assert_eq!(said, 3);

    // Any write: a memory added twice under one key is one memory; a refusal is kept too.
    let add = || {
        c.post("/memories")
            .header("Idempotency-Key", "m-1")
            .json(&json!({ "content": "Likes tea", "category": "preference" }))
    };
    let (a, b) = (c.app.send(add()).await, c.app.send(add()).await);
    assert_eq!((a.status.as_u16(), b.status.as_u16()), (201, 201));
    assert_eq!(a.json()["id"], b.json()["id"]);
    let bad = || {
        c.post("/memories").header("Idempotency-Key", "m-2").json(&json!({ "content": "" , "category": "preference" }))
    };
    let (a, b) = (c.app.send(bad()).await, c.app.send(bad()).await);
    assert_eq!((a.status.as_u16(), b.status.as_u16()), (400, 400), "{} {}", a.text, b.text);
    assert_eq!(
        b.headers.get("idempotent-replayed").and_then(|v| v.to_str().ok()),
        Some("true"),
        "a refusal is kept too"
    );
    let r = c.app.send(c.post("/memories").header("Idempotency-Key", "").json(&json!({}))).await;
    assert_eq!(r.status, 400, "an empty key is refused: {}", r.text);
}
