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

/// Where `word` stands in the database, whatever the case: `table.column (rows)` for every
/// column that can hold text (text, JSON, arrays, bytes), read from the catalog so that a new
/// table is searched too.
async fn where_in_database(pool: &sqlx::PgPool, word: &str) -> Vec<String> {
    let columns: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, data_type::text FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name NOT LIKE '\\_sqlx%'
            AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'bytea')",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut found = Vec::new();
    for (table, column, kind) in columns {
        let as_text =
            if kind == "bytea" { format!("encode(\"{column}\", 'escape')") } else { format!("\"{column}\"::text") };
        let n: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM \"{table}\" WHERE strpos(lower({as_text}), lower($1)) > 0"
        ))
        .bind(word)
        .fetch_one(pool)
        .await
        .unwrap();
        if n > 0 {
            found.push(format!("{table}.{column} ({n})"));
        }
    }
    found
}

#[tokio::test]
async fn an_end_user_takes_their_data_out_and_an_erase_leaves_no_word_of_theirs() {
    let app = TestApp::builder().env("MINICLAW_URL_ALLOWLIST", "127.0.0.1").spawn().await;
    let c = Chat::new(app).await;
    let scopes = ["chat:read", "chat:write", "memories:read", "memories:write"];
    let r = c.app.send(c.post("/api-keys").json(&json!({ "name": "miniapp", "scopes": scopes }))).await;
    let key = r.json()["key"].as_str().unwrap().to_string();
    let bound =
        c.app.send(c.post("/api-keys").json(&json!({ "name": "bob's phone", "scopes": scopes, "end_user": "bob" })));
    let bobs_key = bound.await.json()["key"].as_str().unwrap().to_string();
    let (c, key) = (&c, key.as_str());
    // A webhook endpoint that answers nothing: its deliveries keep their payloads.
    let hook = c
        .app
        .as_bearer(&c.owner.token, Method::POST, "/v1/webhooks")
        .json(&json!({ "url": "http://127.0.0.1:9/hook", "events": ["*"], "agent_id": c.id }));
    assert_eq!(c.app.send(hook).await.status, 201);

    // Alice leaves her words everywhere: chat (one turn retried with an idempotency key),
    // memories learned, one she changed, one she deleted, and an imported transcript.
    say(c, key, "alice", "My name is Alice and I live in Zanzibar with my quokka Pemberton.").await;
    let retried = as_user(c, key, "alice", Method::POST, "/chat")
        .header("idempotency-key", "alice-1")
        .json(&json!({ "message": "I work as a glassblower in Stonetown." }));
    assert_eq!(c.app.send(retried).await.status, 200);
    say(c, key, "bob", "My name is Bob and I live in Tromso with my husky Fjordwulf.").await;
    let added = c
        .app
        .send(
            as_user(c, key, "alice", Method::POST, "/memories")
                .json(&json!({ "content": "Alice collects Quetzalcoatl figurines", "category": "interest" })),
        )
        .await;
    let added = added.json()["id"].as_str().unwrap().to_string();
    let changed = as_user(c, key, "alice", Method::PATCH, &format!("/memories/{added}"))
        .json(&json!({ "content": "Alice collects Quetzalcoatl and Xochipilli figurines" }));
    assert_eq!(c.app.send(changed).await.status, 200);
    let gone = c
        .app
        .send(
            as_user(c, key, "alice", Method::POST, "/memories")
                .json(&json!({ "content": "Alice fears Ouroboros tattoos", "category": "preference" })),
        )
        .await;
    let gone = gone.json()["id"].as_str().unwrap().to_string();
    assert_eq!(c.app.send(as_user(c, key, "alice", Method::DELETE, &format!("/memories/{gone}"))).await.status, 204);
    let import = as_user(c, key, "alice", Method::POST, "/memories/import").json(&json!({
        "messages": [{ "role": "user", "content": "My cousin Barnabus plays the xylophone", "created_at": "2025-03-01T10:00:00Z" }]
    }));
    assert_eq!(c.app.send(import).await.status, 202);
    c.app.run_jobs().await;
    let alices_words = ["Zanzibar", "Pemberton", "glassblower", "Quetzalcoatl", "Xochipilli", "Ouroboros", "Barnabus"];
    for word in alices_words {
        assert!(!where_in_database(c.app.pool(), word).await.is_empty(), "{word} was stored before the erase");
    }

    // The export holds her conversations, memories with history and log; never Bob's.
    let r = c.app.send(c.app.as_bearer(&c.owner.token, Method::GET, &c.path("/end-users/alice/export"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let export = r.json();
    assert_eq!(export["format"], "miniclaw.end_user");
    assert!(export["conversations"][0]["messages"].to_string().contains("Zanzibar"), "{export}");
    let memories = export["memories"].to_string();
    assert!(memories.contains("Quetzalcoatl") && memories.contains("Xochipilli"), "{export}");
    assert!(export["memories"].as_array().unwrap().iter().any(|m| m["history"].as_array().unwrap().len() >= 2));
    assert!(!export.to_string().contains("Fjordwulf"), "{export}");
    // A key bound to Bob reaches Bob only.
    let r = c.app.send(c.app.as_bearer(&bobs_key, Method::GET, &c.path("/end-users/alice/export"))).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "end_user_mismatch"));
    let r = c.app.send(c.app.as_bearer(&bobs_key, Method::DELETE, &c.path("/end-users/alice"))).await;
    assert_eq!(r.status, 403);

    // The erase answers counts, and afterwards no table holds a word of hers; Bob's stay.
    let r = c.app.send(c.app.as_bearer(&c.owner.token, Method::DELETE, &c.path("/end-users/alice"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let erased = r.json();
    assert!(erased["conversations"].as_u64() >= Some(1) && erased["memories"].as_u64() >= Some(2), "{erased}");
    for word in alices_words {
        let left = where_in_database(c.app.pool(), word).await;
        assert!(left.is_empty(), "{word} is still in {left:?}");
    }
    assert!(!where_in_database(c.app.pool(), "Fjordwulf").await.is_empty(), "the scan finds what is there");
    assert!(search(c, key, "bob", "Fjordwulf").await.iter().any(|m| m.contains("Fjordwulf")));
    assert!(list(c, key, "alice").await.is_empty());
    let log = c.get("/activity?limit=200").await;
    let entry = log.as_array().unwrap().iter().find(|e| e["action"] == "end_user.erased").unwrap();
    assert_eq!(entry["details"]["conversations"], erased["conversations"]);
    assert!(!entry.to_string().to_lowercase().contains("alice"), "{entry}");
    // Her export is empty now.
    let after = c.app.send(c.app.as_bearer(&c.owner.token, Method::GET, &c.path("/end-users/alice/export"))).await;
    assert_eq!(after.json()["conversations"], json!([]));
}

#[tokio::test]
async fn a_closed_account_stops_at_once_reopens_and_after_its_grace_is_gone_without_a_word_left() {
    let app = TestApp::builder().cycle(miniclaw::tenancy::closing::purge_cycle(1)).spawn().await;
    let other = app.signup("other@example.com").await;
    app.create_agent(&other, json!({ "name": "Fjordwulf" })).await;
    let c = Chat::new(app).await;
    let owner = c.owner.token.clone();
    let rename = c.app.as_bearer(&owner, Method::PATCH, &c.path("")).json(&json!({ "name": "Wintermute" }));
    assert_eq!(c.app.send(rename).await.status, 200);
    let r = c.app.send(c.post("/api-keys").json(&json!({ "name": "app", "scopes": ["*"] }))).await;
    let key = r.json()["key"].as_str().unwrap().to_string();
    say(&c, &key, "carol", "My name is Carol and my cat is called Quillfeather.").await;
    let memory =
        c.post("/memories").json(&json!({ "content": "The owner's project is Zephyrine", "category": "context" }));
    assert_eq!(c.app.send(memory).await.status, 201);
    c.app.run_jobs().await;
    let second = c
        .app
        .send(
            c.app
                .request(Method::POST, "/v1/auth/login")
                .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" })),
        )
        .await
        .json()["session_token"]
        .as_str()
        .unwrap()
        .to_string();

    // Closing needs the password; then every other session ends and keys are refused.
    let close = |password: &str| {
        c.app.as_bearer(&owner, Method::POST, "/v1/account/close").json(&json!({ "password": password }))
    };
    assert_eq!(c.app.send(close("not it")).await.error_code(), "wrong_password");
    let r = c.app.send(close("correct horse battery")).await;
    assert_eq!(r.status, 202, "{}", r.text);
    assert!(r.json()["purge_after"].is_string());
    assert_eq!(c.app.send(c.app.as_bearer(&second, Method::GET, "/v1/me")).await.status, 401);
    let refused = c.app.send(c.app.as_bearer(&key, Method::GET, &c.path(""))).await;
    assert_eq!((refused.status.as_u16(), refused.error_code().as_str()), (403, "account_closing"));
    let state = c.app.send(c.app.as_bearer(&owner, Method::GET, "/v1/account")).await.json();
    assert!(state["closing"]["purge_after"].is_string(), "{state}");
    // An owner may reopen it within the grace period: the key works again.
    assert_eq!(c.app.send(c.app.as_bearer(&owner, Method::POST, "/v1/account/reopen")).await.status, 204);
    assert_eq!(c.app.send(c.app.as_bearer(&key, Method::GET, &c.path(""))).await.status, 200);

    // Closed again and left past its grace, the purge takes every trace of it.
    assert_eq!(c.app.send(close("correct horse battery")).await.status, 202);
    let pool = c.app.pool();
    assert_eq!(miniclaw::tenancy::closing::purge_closed(pool, 1).await.unwrap(), 0, "within the grace period");
    sqlx::query("UPDATE tenants SET closing_at = now() - interval '2 days' WHERE closing_at IS NOT NULL")
        .execute(pool)
        .await
        .unwrap();
    let job =
        miniclaw::jobs::worker::run_cycle_now(pool, &c.app.registry, miniclaw::tenancy::closing::PURGE_CYCLE, None)
            .await
            .unwrap_or_else(|e| panic!("the purge cycle runs: {e}"));
    assert_eq!((job.status.as_str(), job.result), ("done", Some(json!({ "purged": 1 }))));
    for word in ["Wintermute", "Quillfeather", "Zephyrine", "ada@example.com", "carol"] {
        let left = where_in_database(pool, word).await;
        assert!(left.is_empty(), "{word} is still in {left:?}");
    }
    assert!(!where_in_database(pool, "Fjordwulf").await.is_empty(), "another account is untouched");
    let login = c
        .app
        .request(Method::POST, "/v1/auth/login")
        .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" }));
    assert_eq!(c.app.send(login).await.status, 401);
}
