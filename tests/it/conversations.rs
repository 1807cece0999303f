//! Hardening, finding 4: a miniapp's end users see only their own conversations (a key can be
//! bound to one; the `X-Miniclaw-User` header or the OpenAI `user` names one), the owner's
//! dashboard chats stay the owner's, deleting a conversation is soft, logged and purged later,
//! and what was said in one end user's conversations does not reach another's context.

use reqwest::Method;
use serde_json::{Value, json};

use crate::chat_support::Chat;
use crate::common::{Reply, TestApp};
use crate::llm_server::{LlmServer, Script};

const USER: &str = "x-miniclaw-user";

impl Chat {
    /// A request to one of the agent's routes with a key, acting for `user` when given.
    fn as_key(&self, key: &str, user: Option<&str>, method: Method, rest: &str) -> reqwest::RequestBuilder {
        let req = self.app.as_bearer(key, method, &self.path(rest));
        match user {
            Some(u) => req.header(USER, u),
            None => req,
        }
    }

    /// A chat turn with a key (asserting 200); returns the reply.
    async fn say_as(&self, key: &str, user: Option<&str>, message: &str, conversation: Option<&str>) -> Value {
        let body = json!({ "message": message, "conversation_id": conversation });
        let r = self.app.send(self.as_key(key, user, Method::POST, "/chat").json(&body)).await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()
    }

    /// Issues a chat key, bound to `end_user` when given; returns (key id, token).
    async fn chat_key(&self, end_user: Option<&str>) -> (String, String) {
        let body = json!({ "name": "miniapp", "scopes": ["chat:read", "chat:write"], "end_user": end_user });
        let r = self.app.send(self.post("/api-keys").json(&body)).await;
        assert_eq!(r.status, 201, "{}", r.text);
        let v = r.json();
        assert_eq!(v["end_user"], json!(end_user));
        (v["id"].as_str().unwrap().to_string(), v["key"].as_str().unwrap().to_string())
    }

    /// The ids of the conversations a request lists (asserting 200).
    async fn listed(&self, req: reqwest::RequestBuilder) -> Vec<String> {
        let r = self.app.send(req).await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json().as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()
    }
}

fn id(v: &Value) -> String {
    v["conversation_id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_miniapps_users_see_only_their_own_conversations_and_never_the_owners() {
    let c = Chat::new(TestApp::spawn().await).await;
    let own = id(&c.say("Hello from the dashboard", None).await);
    let (_, app_key) = c.chat_key(None).await;
    let alice = id(&c.say_as(&app_key, Some("alice"), "Hello, I am Alice", None).await);
    let bob = id(&c.say_as(&app_key, Some("bob"), "Hello, I am Bob", None).await);
    let nobody = id(&c.say_as(&app_key, None, "Hello from the server side", None).await);

    // The owner sees everything, with whom each conversation is.
    let all = c.get("/conversations").await;
    let with: Vec<(String, Value)> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["id"].as_str().unwrap().to_string(), v["end_user"].clone()))
        .collect();
    assert_eq!(with.len(), 4);
    assert!(with.contains(&(alice.clone(), json!("alice"))) && with.contains(&(own.clone(), Value::Null)));

    // An unbound key sees the end user it names, or, naming none, the conversations started
    // without one: never the owner's own.
    assert_eq!(c.listed(c.as_key(&app_key, Some("alice"), Method::GET, "/conversations")).await, [alice.as_str()]);
    assert_eq!(c.listed(c.as_key(&app_key, None, Method::GET, "/conversations")).await, [nobody.as_str()]);

    // A key bound to Alice acts for Alice only, with or without the header.
    let (_, alices) = c.chat_key(Some("alice")).await;
    assert_eq!(c.listed(c.as_key(&alices, None, Method::GET, "/conversations")).await, [alice.as_str()]);
    assert_eq!(c.listed(c.as_key(&alices, Some("alice"), Method::GET, "/conversations")).await, [alice.as_str()]);
    let r = c.app.send(c.as_key(&alices, Some("bob"), Method::GET, "/conversations")).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "end_user_mismatch"));
    for other in [&bob, &own, &nobody] {
        let msgs = c.app.send(c.as_key(&alices, None, Method::GET, &format!("/conversations/{other}/messages"))).await;
        assert_eq!(msgs.status, 404, "{}", msgs.text);
        let body = json!({ "message": "Tell me what they said", "conversation_id": other });
        let cont = c.app.send(c.as_key(&alices, None, Method::POST, "/chat").json(&body)).await;
        assert_eq!(cont.status, 404, "{}", cont.text);
        let del = c.app.send(c.as_key(&alices, None, Method::DELETE, &format!("/conversations/{other}"))).await;
        assert_eq!(del.status, 404, "{}", del.text);
    }
    // Bob's reply cannot be resumed by Alice either.
    let bobs =
        c.app.send(c.as_key(&app_key, Some("bob"), Method::GET, &format!("/conversations/{bob}/messages"))).await;
    let reply = bobs.json()[1]["id"].as_str().unwrap().to_string();
    let resume = c.app.send(c.as_key(&alices, None, Method::GET, &format!("/chat/replies/{reply}/stream"))).await;
    assert_eq!(resume.status, 404, "{}", resume.text);
    // Her own conversation she continues; a new one is hers.
    c.say_as(&alices, None, "And one more thing", Some(&alice)).await;
    let fresh = id(&c.say_as(&alices, None, "A new topic", None).await);
    let row: Option<String> = sqlx::query_scalar("SELECT end_user FROM conversations WHERE id = $1::uuid")
        .bind(&fresh)
        .fetch_one(c.app.pool())
        .await
        .unwrap();
    assert_eq!(row.as_deref(), Some("alice"));

    // The OpenAI format's `user` is the same binding.
    let ask = |key: &str, user: Option<&str>| {
        let body = json!({ "model": c.id, "user": user, "messages": [{ "role": "user", "content": "hi there" }] });
        c.app.send(c.app.as_bearer(key, Method::POST, "/v1/chat/completions").json(&body))
    };
    let r = ask(&alices, Some("bob")).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "end_user_mismatch"));
    let r = ask(&app_key, Some("carol")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let carols = r.json()["miniclaw"]["conversation_id"].as_str().unwrap().to_string();
    assert_eq!(c.listed(c.as_key(&app_key, Some("carol"), Method::GET, "/conversations")).await, [carols]);

    // A bad end-user id is refused by name.
    let r = c.app.send(c.as_key(&app_key, Some(&"x".repeat(129)), Method::GET, "/conversations")).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (422, "too_long"));
    let body = json!({ "name": "bad", "scopes": ["chat:read"], "end_user": "" });
    assert_eq!(c.app.send(c.post("/api-keys").json(&body)).await.status, 400);
}

#[tokio::test]
async fn deleting_a_conversation_hides_it_logs_who_did_it_and_the_purge_removes_it_later() {
    // The purge cycle as the processes register it, here with no retention at all.
    let app = TestApp::builder().cycle(miniclaw::chat::purge_cycle(0)).spawn().await;
    let c = Chat::new(app).await;
    let (key_id, key) = c.chat_key(None).await;
    let turn = c.say_as(&key, Some("alice"), "Hello, I am Alice", None).await;
    let conversation = id(&turn);
    let reply = turn["message_id"].as_str().unwrap().to_string();
    let del =
        c.app.send(c.as_key(&key, Some("alice"), Method::DELETE, &format!("/conversations/{conversation}"))).await;
    assert_eq!(del.status, 204, "{}", del.text);

    // Gone for everyone, the owner included, at once.
    assert!(c.listed(c.as_key(&key, Some("alice"), Method::GET, "/conversations")).await.is_empty());
    assert!(c.get("/conversations").await.as_array().unwrap().is_empty());
    let owner = |method: Method, rest: String| c.app.as_bearer(&c.owner.token, method, &c.path(&rest));
    let gone: Vec<Reply> = vec![
        c.app.send(owner(Method::GET, format!("/conversations/{conversation}/messages"))).await,
        c.app.send(owner(Method::DELETE, format!("/conversations/{conversation}"))).await,
        c.app.send(owner(Method::GET, format!("/chat/replies/{reply}/stream"))).await,
        c.app
            .send(
                owner(Method::POST, "/chat".into())
                    .json(&json!({ "message": "still there?", "conversation_id": conversation })),
            )
            .await,
    ];
    for r in gone {
        assert_eq!(r.status, 404, "{}", r.text);
    }

    // Logged with who did it; kept until the retention period has passed.
    let log = c.get("/activity").await;
    let entry = log.as_array().unwrap().iter().find(|e| e["action"] == "conversation.deleted").expect("logged").clone();
    assert_eq!((entry["actor_type"].as_str(), entry["actor_id"].as_str()), (Some("api_key"), Some(key_id.as_str())));
    assert_eq!(entry["details"]["conversation_id"], json!(conversation));
    assert_eq!(
        (entry["details"]["end_user"].as_str(), entry["details"]["key_name"].as_str()),
        (Some("alice"), Some("miniapp"))
    );
    let pool = c.app.pool();
    let count = || async {
        sqlx::query_as::<_, (i64, i64)>(
            "SELECT (SELECT count(*) FROM conversations), (SELECT count(*) FROM chat_messages)",
        )
        .fetch_one(pool)
        .await
        .unwrap()
    };
    assert_eq!(count().await, (1, 2), "soft: the rows stay until the purge");
    assert_eq!(miniclaw::chat::purge_deleted(pool, 30).await.unwrap(), 0, "within the retention period");
    let job = miniclaw::jobs::worker::run_cycle_now(pool, &c.app.registry, miniclaw::chat::PURGE_CYCLE, None)
        .await
        .unwrap_or_else(|e| panic!("the purge cycle runs: {e}"));
    assert_eq!((job.status.as_str(), job.result), ("done", Some(json!({ "purged": 1 }))));
    assert_eq!(count().await, (0, 0), "purged with its messages");
    let log = c.get("/activity").await;
    assert!(
        log.as_array().unwrap().iter().any(|e| e["action"] == "conversation.purged" && e["actor_type"] == "system")
    );
}

#[tokio::test]
async fn what_one_end_user_said_does_not_reach_another_users_context() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    let (_, key) = c.chat_key(None).await;
    let triage = r#"{"intent":"question","relevantCategories":[],"includeKnowledge":false,"includeSummaries":true,
        "saveWorthy":false,"responseStyle":"brief","maxTokens":300,"toolsNeeded":false,"emotionalTone":"neutral"}"#;
    let question = "Could you remind me what we decided about the museum workshop the last time we talked about it?";
    let turn = |user: &'static str| {
        server.push(Script::reply(triage));
        server.push(Script::Stream { pieces: vec!["Let me think.".into()], usage: None, complete: true });
        c.say_as(&key, Some(user), question, None)
    };
    let alices = turn("alice").await;
    // A summary of Alice's conversation, as the summariser writes it.
    sqlx::query(
        "INSERT INTO conversation_summaries (id, conversation_id, agent_id, content, first_message_id, last_message_id,
                                             first_position, last_position, message_count)
         VALUES (gen_random_uuid(), $1::uuid, $2::uuid, 'Alice keeps her diary password under the blue vase.', $3::uuid, $3::uuid, 0, 0, 1)",
    )
    .bind(id(&alices))
    .bind(&c.id)
    .bind(alices["user_message_id"].as_str().unwrap())
    .execute(c.app.pool())
    .await
    .unwrap();
    let system_prompt = || {
        let chat = server.requests().into_iter().rfind(|b| b["stream"] == true).unwrap();
        chat["messages"][0]["content"].as_str().unwrap().to_string()
    };
    turn("bob").await;
    assert!(!system_prompt().contains("blue vase"), "Bob's context holds Alice's conversation: {}", system_prompt());
    turn("alice").await;
    assert!(system_prompt().contains("blue vase"), "Alice's own summaries still reach her: {}", system_prompt());
}

#[tokio::test]
async fn the_openai_route_stores_each_message_of_a_growing_history_once() {
    let c = Chat::new(TestApp::spawn().await).await;
    let (_, key) = c.chat_key(None).await;
    let mut history: Vec<Value> = Vec::new();
    let mut conversations = Vec::new();
    for said in ["My name is Alice.", "I live in Vienna.", "What do you know about me?"] {
        history.push(json!({ "role": "user", "content": said }));
        let body = json!({ "model": c.id, "user": "alice", "messages": history });
        let r = c.app.send(c.app.as_bearer(&key, Method::POST, "/v1/chat/completions").json(&body)).await;
        assert_eq!(r.status, 200, "{}", r.text);
        let v = r.json();
        conversations.push(v["miniclaw"]["conversation_id"].as_str().unwrap().to_string());
        history.push(json!({ "role": "assistant", "content": v["choices"][0]["message"]["content"] }));
    }
    assert!(conversations.iter().all(|c| *c == conversations[0]), "one conversation continued: {conversations:?}");
    let stored: Vec<(String, String)> =
        sqlx::query_as("SELECT role, content FROM chat_messages WHERE conversation_id = $1::uuid ORDER BY position")
            .bind(&conversations[0])
            .fetch_all(c.app.pool())
            .await
            .unwrap();
    let sent: Vec<(String, String)> = history
        .iter()
        .map(|m| (m["role"].as_str().unwrap().to_string(), m["content"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(stored, sent, "each message once, in order");
    let total: i64 = sqlx::query_scalar("SELECT count(*) FROM chat_messages").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(total, 6);

    // The same history from another end user is not Alice's conversation: it starts Bob's.
    let earlier = &history[..4];
    let mut bobs = earlier.to_vec();
    bobs.push(json!({ "role": "user", "content": "And now?" }));
    let body = json!({ "model": c.id, "user": "bob", "messages": bobs });
    let r = c.app.send(c.app.as_bearer(&key, Method::POST, "/v1/chat/completions").json(&body)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_ne!(r.json()["miniclaw"]["conversation_id"].as_str().unwrap(), conversations[0]);
    let (alice, bob): (i32, i32) = sqlx::query_as(
        "SELECT (SELECT message_count FROM conversations WHERE end_user = 'alice'),
                (SELECT message_count FROM conversations WHERE end_user = 'bob')",
    )
    .fetch_one(c.app.pool())
    .await
    .unwrap();
    assert_eq!((alice, bob), (6, 6), "Bob's history seeded into his own conversation");
}

#[tokio::test]
async fn a_long_conversation_is_read_page_by_page_newest_first_each_page_in_order() {
    let c = Chat::new(TestApp::spawn().await).await;
    let first = c.say("Turn one", None).await;
    let conversation = id(&first);
    for n in ["two", "three"] {
        c.say(&format!("Turn {n}"), Some(&conversation)).await;
    }
    let page = |query: String| {
        c.app.send(c.app.as_bearer(
            &c.owner.token,
            Method::GET,
            &c.path(&format!("/conversations/{conversation}/messages{query}")),
        ))
    };
    let newest = page("?limit=4".into()).await;
    assert_eq!(newest.status, 200, "{}", newest.text);
    let contents = |r: &Reply| -> Vec<(String, String)> {
        r.json()
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["role"].as_str().unwrap().to_string(), m["content"].as_str().unwrap().to_string()))
            .collect()
    };
    let got = contents(&newest);
    assert_eq!(got.len(), 4);
    assert_eq!((got[0].1.as_str(), got[2].1.as_str()), ("Turn two", "Turn three"), "reading order: {got:?}");
    let before = newest.headers["x-next-before"].to_str().unwrap().to_string();
    assert_eq!(before, newest.json()[0]["id"].as_str().unwrap());
    let older = page(format!("?limit=4&before={before}")).await;
    let got = contents(&older);
    assert_eq!(got.iter().map(|(r, _)| r.as_str()).collect::<Vec<_>>(), ["user", "assistant"]);
    assert_eq!(got[0].1, "Turn one");
    assert!(older.headers.get("x-next-before").is_none(), "the first page is the last to read");
    for bad in ["?limit=0", "?limit=501"] {
        assert_eq!(page(bad.into()).await.status, 400, "{bad}");
    }
}
