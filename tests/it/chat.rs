//! SPEC P1–P8 through the API: a conversation that remembers across conversations, small talk
//! that costs nothing, a slow triage model that still gets a reply, a dropped SSE stream that
//! resumes, failures that keep the user's message, and the official OpenAI SDK as a client.

use std::time::Duration;

use futures::StreamExt;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Session, TestApp};
use crate::llm_server::{LlmServer, Script};

struct Chat {
    app: TestApp,
    owner: Session,
    id: String,
}

impl Chat {
    async fn new(app: TestApp) -> Chat {
        let owner = app.signup("ada@example.com").await;
        let id = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
        Chat { app, owner, id }
    }

    fn path(&self, rest: &str) -> String {
        format!("/v1/hosted-agents/{}{rest}", self.id)
    }

    fn post(&self, rest: &str) -> reqwest::RequestBuilder {
        self.app.as_bearer(&self.owner.token, Method::POST, &self.path(rest))
    }

    async fn get(&self, rest: &str) -> Value {
        let r = self.app.send(self.app.as_bearer(&self.owner.token, Method::GET, &self.path(rest))).await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()
    }

    async fn say(&self, message: &str, conversation: Option<&str>) -> Value {
        let r = self
            .app
            .send(self.post("/chat").json(&json!({ "message": message, "conversation_id": conversation })))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()
    }

    /// The agent's memories once the learning jobs its turns queued have run: at least `n`.
    async fn memories_at_least(&self, n: usize) -> Vec<Value> {
        self.app.run_jobs().await;
        let list = self.get("/memories").await.as_array().unwrap().clone();
        assert!(list.len() >= n, "the agent has {} memories, expected at least {n}: {list:?}", list.len());
        list
    }
}

/// Parses a text/event-stream body into (event, id, data) triples.
fn parse_sse(body: &str) -> Vec<(String, Option<String>, String)> {
    body.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .filter_map(|block| {
            let (mut event, mut id, mut data) = ("message".to_string(), None, Vec::new());
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event:") {
                    event = v.trim().to_string();
                } else if let Some(v) = line.strip_prefix("id:") {
                    id = Some(v.trim().to_string());
                } else if let Some(v) = line.strip_prefix("data:") {
                    data.push(v.strip_prefix(' ').unwrap_or(v).to_string());
                }
            }
            (!data.is_empty()).then(|| (event, id, data.join("\n")))
        })
        .collect()
}

fn tokens_text(events: &[(String, Option<String>, String)]) -> String {
    events
        .iter()
        .filter(|(e, _, _)| e == "token")
        .map(|(_, _, d)| serde_json::from_str::<Value>(d).unwrap()["text"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_new_conversation_remembers_what_the_user_said_in_an_earlier_one() {
    let c = Chat::new(TestApp::spawn().await).await;
    let first = c.say("My name is Alice and I live in Vienna.", None).await;
    assert_eq!(first["engine"], "offline");
    assert_eq!(first["triage_skipped"], true);
    assert_eq!(first["skip_reason"], "brief");
    let conversation = first["conversation_id"].as_str().unwrap().to_string();
    // A second save-worthy message fills the batch (dense conversation: threshold 2).
    c.say("I really enjoy playing chess with my friends on weekends.", Some(&conversation)).await;
    let memories = c.memories_at_least(3).await;
    let contents: Vec<&str> = memories.iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert!(contents.contains(&"The user's name is Alice"), "{contents:?}");

    // A different conversation, later.
    let answer = c.say("What is my name?", None).await;
    assert_ne!(answer["conversation_id"], first["conversation_id"]);
    assert!(answer["reply"].as_str().unwrap().contains("Alice"), "{answer}");
    let used: Vec<&str> =
        answer["memories_used"].as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert!(used.contains(&"The user's name is Alice"), "{used:?}");
    let name = answer["memories_used"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["content"] == "The user's name is Alice")
        .unwrap();
    assert_eq!(name["section"], "certain", "identity is pinned context");
    assert!(name["rank"].as_f64().unwrap() > 0.0);
    // The hit is recorded with the reply (a job folds it into `mention_count`).
    let mentions: i64 =
        sqlx::query_scalar("SELECT count(*) FROM memory_hits WHERE kind = 'mention' AND memory_id = $1")
            .bind(uuid::Uuid::parse_str(name["id"].as_str().unwrap()).unwrap())
            .fetch_one(c.app.pool())
            .await
            .unwrap();
    assert_eq!(mentions, 1);

    // History, analytics and the dedup buckets of the extraction.
    let convs = c.get("/conversations").await;
    assert_eq!(convs.as_array().unwrap().len(), 2);
    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    let msgs = msgs.as_array().unwrap();
    assert_eq!(msgs.len(), 4);
    assert!(msgs.iter().all(|m| m["status"] == "complete"));
    assert_eq!((msgs[0]["role"].as_str(), msgs[1]["role"].as_str()), (Some("user"), Some("assistant")));
    assert_eq!(msgs[1]["meta"]["intent"], first["intent"]);
    let rows: Vec<(bool, i32, Value, Option<i32>, String)> = sqlx::query_as(
        "SELECT extraction_triggered, facts_extracted, dedup, batch_size, channel FROM chat_analytics ORDER BY created_at",
    )
    .fetch_all(c.app.pool())
    .await
    .unwrap();
    assert_eq!(rows.len(), 3, "one analytics row per message");
    assert!(rows[0].0 && rows[1].0);
    assert_eq!(rows[1].1, 3, "name, city and chess");
    assert_eq!(rows[1].2["no_existing"], 3, "{:?}", rows[1].2);
    assert_eq!(rows[1].3, Some(2));
    assert_eq!(rows[0].4, "api");
}

#[tokio::test]
async fn the_batch_threshold_follows_save_worthy_density() {
    // The rule runs in the database, inside the after-turn statement: check it there.
    let db = crate::common::TestDb::new().await;
    let sql = format!("SELECT ({})::bigint", miniclaw::chat::calibrate::threshold_sql("$1::float8"));
    for (share, threshold) in [(None, 3), (Some(0.71), 2), (Some(0.7), 3), (Some(0.3), 3), (Some(0.29), 5)] {
        let got: i64 = sqlx::query_scalar(&sql).bind(share).fetch_one(&db.pool).await.unwrap();
        assert_eq!(got, threshold, "share {share:?}");
    }
}

#[tokio::test]
async fn small_talk_skips_triage_and_touches_no_memory() {
    let c = Chat::new(TestApp::spawn().await).await;
    let r = c
        .app
        .send(c.post("/memories").json(&json!({ "content": "The user's name is Alice", "category": "identity" })))
        .await;
    assert_eq!(r.status, 201);
    let hi = c.say("hey!", None).await;
    assert_eq!((hi["intent"].as_str(), hi["triage_skipped"].as_bool()), (Some("small_talk"), Some(true)));
    assert_eq!(hi["skip_reason"], "trivial");
    assert_eq!(hi["searched"]["memory_queries"], 0, "small talk makes no memory query");
    assert_eq!(hi["memories_used"], json!([]));
    let question = c.say("What is my name?", None).await;
    assert!(question["searched"]["memory_queries"].as_u64().unwrap() > 0);
    let (queries, triage_calls): (Vec<i32>, i64) = (
        sqlx::query_scalar("SELECT memory_queries FROM chat_analytics ORDER BY created_at")
            .fetch_all(c.app.pool())
            .await
            .unwrap(),
        sqlx::query_scalar("SELECT count(*) FROM llm_usage_logs WHERE role = 'triage'")
            .fetch_one(c.app.pool())
            .await
            .unwrap(),
    );
    assert_eq!(queries[0], 0);
    assert!(queries[1] > 0);
    assert_eq!(triage_calls, 0, "both messages were decided by the pre-filter");
    // Trivial messages never reach extraction.
    let queued: i64 =
        sqlx::query_scalar("SELECT count(*) FROM extraction_queue").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(queued, 0);
}

#[tokio::test]
async fn a_triage_timeout_fails_open_and_the_reply_still_comes() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    // Longer than 12 words: the triage model is asked, and takes longer than its 3 s.
    server.push(Script::Delay(Duration::from_secs(5), Box::new(Script::reply(r#"{"intent":"small_talk"}"#))));
    server.push(Script::Stream {
        pieces: vec!["Here ".into(), "you ".into(), "go.".into()],
        usage: Some((50, 3)),
        complete: true,
    });
    let r = c
        .say("Could you help me think through the plan for moving my small bakery to a bigger place next spring?", None)
        .await;
    assert_eq!(r["reply"], "Here you go.");
    assert_eq!(r["triage_skipped"], false);
    assert!(r["triage_error"].as_str().is_some(), "{r}");
    assert_eq!(r["intent"], "project_question", "fail-open defaults");
    assert_eq!(r["engine"], "model");
    assert_eq!(r["usage"]["completion_tokens"], 3);
    // The chat model got the fail-open budget.
    let chat = server.requests().into_iter().find(|b| b["stream"] == true).unwrap();
    assert_eq!(chat["max_completion_tokens"].as_u64().or(chat["max_tokens"].as_u64()), Some(2500));
}

#[tokio::test]
async fn triage_model_output_is_used_when_valid() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    server.push(Script::reply(
        r#"{"intent":"creative_brainstorm","relevantCategories":[],"includeKnowledge":false,"includeSummaries":false,
            "saveWorthy":false,"responseStyle":"creative","maxTokens":9000,"toolsNeeded":false,"emotionalTone":"enthusiastic"}"#,
    ));
    server.push(Script::Stream { pieces: vec!["A ".into(), "dragon!".into()], usage: None, complete: true });
    let r = c
        .say("Give me three wild ideas for a birthday party theme for my daughter who loves dragons and space", None)
        .await;
    assert_eq!(r["intent"], "creative_brainstorm");
    assert_eq!(r["response_style"], "creative");
    assert_eq!(r["searched"]["memory_queries"], 0, "no categories, no knowledge, no summaries");
    let chat = server.requests().into_iter().find(|b| b["stream"] == true).unwrap();
    assert_eq!(chat["max_completion_tokens"].as_u64().or(chat["max_tokens"].as_u64()), Some(4000), "clamped");
    let triage = &server.requests()[0];
    assert_eq!(triage["response_format"]["type"], "json_object");
}

#[tokio::test]
async fn the_chat_model_gets_the_conversation_so_far_in_order_and_cut() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    // Brief messages: no triage call, each scripted answer is a chat stream.
    for reply in ["Once upon a time", "Noted", "You told me a long one"] {
        server.push(Script::Stream { pieces: vec![reply.into()], usage: None, complete: true });
    }
    let first = c.say("Tell me a story", None).await;
    let conversation = first["conversation_id"].as_str().unwrap().to_string();
    let long = "a".repeat(1500);
    c.say(&long, Some(&conversation)).await;
    c.say("What did I say?", Some(&conversation)).await;
    let chats: Vec<Value> = server.requests().into_iter().filter(|b| b["stream"] == true).collect();
    assert_eq!(chats.len(), 3);
    let turns: Vec<(String, String)> = chats[2]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] != "system")
        .map(|m| (m["role"].as_str().unwrap().to_string(), m["content"].as_str().unwrap().to_string()))
        .collect();
    let expected: Vec<(String, String)> = [
        ("user", "Tell me a story".to_string()),
        ("assistant", "Once upon a time".to_string()),
        ("user", "a".repeat(1000)),
        ("assistant", "Noted".to_string()),
        ("user", "What did I say?".to_string()),
    ]
    .into_iter()
    .map(|(r, t)| (r.to_string(), t))
    .collect();
    assert_eq!(turns, expected, "earlier messages oldest first, each cut at 1,000 characters");
}

#[tokio::test]
async fn knowledge_and_summaries_reach_the_prompt_when_triage_asks_and_the_agent_has_them() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    let triage = r#"{"intent":"question","relevantCategories":[],"includeKnowledge":true,"includeSummaries":true,
        "saveWorthy":false,"responseStyle":"brief","maxTokens":300,"toolsNeeded":false,"emotionalTone":"neutral"}"#;
    let question =
        "Could you remind me when the studio is open and what we decided about the museum workshop last time?";

    // Nothing to find but memories: the probe, the vector search and the recency read; no
    // knowledge or summary search.
    server.push(Script::reply(triage));
    server.push(Script::Stream { pieces: vec!["I do not know yet.".into()], usage: None, complete: true });
    let r = c.say(question, None).await;
    assert_eq!(r["searched"]["knowledge"], true);
    assert_eq!(r["searched"]["memory_queries"], 3, "{}", r["searched"]);
    assert!(r["memories_used"].as_array().unwrap().is_empty());

    // A knowledge text and a summary of an earlier conversation.
    let k = c
        .app
        .send(
            c.post("/knowledge")
                .json(&json!({ "text": "The studio is open from nine to five on weekdays.", "title": "Studio" })),
        )
        .await;
    assert_eq!(k.status, 201, "{}", k.text);
    let conversation = uuid::Uuid::parse_str(r["conversation_id"].as_str().unwrap()).unwrap();
    let first = uuid::Uuid::parse_str(r["user_message_id"].as_str().unwrap()).unwrap();
    sqlx::query(
        "INSERT INTO conversation_summaries (id, conversation_id, agent_id, content, first_message_id, last_message_id,
                                             first_position, last_position, message_count)
         VALUES (gen_random_uuid(), $1, $2::uuid, 'We agreed to run the museum workshop on Tuesday.', $3, $3, 0, 0, 1)",
    )
    .bind(conversation)
    .bind(&c.id)
    .bind(first)
    .execute(c.app.pool())
    .await
    .unwrap();

    server.push(Script::reply(triage));
    server.push(Script::Stream { pieces: vec!["Nine to five; Tuesday.".into()], usage: None, complete: true });
    let r = c.say(question, None).await;
    let used = r["memories_used"].as_array().unwrap();
    assert!(
        used.iter().any(|m| m["section"] == "knowledge" && m["content"].as_str().unwrap().contains("nine to five")),
        "{used:?}"
    );
    assert_eq!(r["searched"]["memory_queries"], 5, "and the knowledge and summary searches: {}", r["searched"]);
    let chat = server.requests().into_iter().rfind(|b| b["stream"] == true).unwrap();
    let system = chat["messages"][0]["content"].as_str().unwrap().to_string();
    assert!(system.contains("We agreed to run the museum workshop on Tuesday."), "{system}");
    assert!(system.contains("nine to five"), "{system}");
}

#[tokio::test]
async fn a_dropped_sse_stream_resumes_from_its_last_event_id() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    let pieces: Vec<String> = (0..30).map(|i| format!("piece{i} ")).collect();
    let full: String = pieces.concat();
    server.push(Script::Stream { pieces, usage: Some((40, 30)), complete: true });

    // Brief message: no triage call, the first scripted answer is the chat stream.
    let resp = c
        .post("/chat")
        .header("accept", "text/event-stream")
        .json(&json!({ "message": "Tell me a story" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut body = resp.bytes_stream();
    let mut seen = String::new();
    // Read until a few tokens have arrived, then drop the connection.
    for _ in 0..200 {
        let chunk = tokio::time::timeout(Duration::from_secs(10), body.next()).await.unwrap().unwrap().unwrap();
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if parse_sse(&seen).iter().filter(|(e, _, _)| e == "token").count() >= 3 && seen.ends_with("\n\n") {
            break;
        }
    }
    drop(body);
    let before = parse_sse(&seen);
    assert_eq!(before[0].0, "start");
    let start: Value = serde_json::from_str(&before[0].2).unwrap();
    let reply_id = start["message_id"].as_str().unwrap().to_string();
    let last_id = before.iter().rev().find_map(|(_, id, _)| id.clone()).unwrap();
    assert!(last_id.starts_with(&reply_id));
    let got_before = tokens_text(&before);
    assert!(!got_before.is_empty() && got_before.len() < full.len(), "dropped mid-stream: {got_before:?}");

    // Reconnect with Last-Event-ID: the rest, exactly once, then `done`.
    let resumed = c
        .app
        .send(
            c.app
                .as_bearer(&c.owner.token, Method::GET, &c.path(&format!("/chat/replies/{reply_id}/stream")))
                .header("last-event-id", &last_id),
        )
        .await;
    assert_eq!(resumed.status, 200, "{}", resumed.text);
    let after = parse_sse(&resumed.text);
    assert_eq!(format!("{got_before}{}", tokens_text(&after)), full);
    let done = after.last().unwrap();
    assert_eq!(done.0, "done");
    let meta: Value = serde_json::from_str(&done.2).unwrap();
    assert_eq!(meta["message_id"], reply_id.as_str());
    assert_eq!(meta["usage"]["completion_tokens"], 30);

    // The same resume through the chat endpoint's Last-Event-ID, after completion.
    let again = c
        .app
        .send(c.post("/chat").header("last-event-id", format!("{reply_id}:0")).json(&json!({ "message": "ignored" })))
        .await;
    assert_eq!(tokens_text(&parse_sse(&again.text)), full);
    let bad = c.app.send(c.post("/chat").header("last-event-id", "nonsense").json(&json!({ "message": "x" }))).await;
    assert_eq!(bad.status, 400);
    let conversation = start["conversation_id"].as_str().unwrap();
    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    assert_eq!(msgs.as_array().unwrap().len(), 2, "resuming started no new turn");
    assert_eq!(msgs[1]["content"], full.as_str());
}

#[tokio::test]
async fn a_failed_generation_keeps_the_message_and_it_can_be_regenerated() {
    let server = LlmServer::start().await;
    let app = TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await;
    let c = Chat::new(app).await;
    // The streamed call falls back only to other providers (none here): one 500 fails it.
    server.push(Script::Status { code: 500, retry_after: None });
    let r = c.app.send(c.post("/chat").json(&json!({ "message": "Tell me a story" }))).await;
    assert_eq!(r.status, 502, "{}", r.text);
    let conversations = c.get("/conversations").await;
    let conversation = conversations[0]["id"].as_str().unwrap().to_string();
    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    assert_eq!(msgs[0]["content"], "Tell me a story");
    assert_eq!(msgs[0]["status"], "error", "the user's message is kept, marked failed");
    assert_eq!(msgs[1]["status"], "error");
    let user_id = msgs[0]["id"].as_str().unwrap();

    server.push(Script::Stream { pieces: vec!["Once ".into(), "upon a time.".into()], usage: None, complete: true });
    let r = c.app.send(c.post(&format!("/conversations/{conversation}/messages/{user_id}/regenerate"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["reply"], "Once upon a time.");
    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    let statuses: Vec<&str> = msgs.as_array().unwrap().iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["complete", "complete"], "the failed reply is superseded and hidden");
    let all = c.get(&format!("/conversations/{conversation}/messages?include_superseded=true")).await;
    assert_eq!(all.as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn bad_messages_and_an_exhausted_budget_are_refused_before_anything_is_stored() {
    let c = Chat::new(TestApp::spawn().await).await;
    let empty = c.app.send(c.post("/chat").json(&json!({ "message": "   " }))).await;
    assert_eq!((empty.status.as_u16(), empty.error_code().as_str()), (400, "validation_failed"));
    let long = c.app.send(c.post("/chat").json(&json!({ "message": "x".repeat(2001) }))).await;
    assert_eq!(long.status, 400);
    assert!(long.text.contains("2000"), "{}", long.text);
    let unknown =
        c.app.send(c.post("/chat").json(&json!({ "message": "hi", "conversation_id": uuid::Uuid::now_v7() }))).await;
    assert_eq!(unknown.status, 404);

    sqlx::query("INSERT INTO llm_agent_daily_usage (agent_id, day, tokens) VALUES ($1, (now() AT TIME ZONE 'utc')::date, 10000000)")
        .bind(c.id.parse::<uuid::Uuid>().unwrap())
        .execute(c.app.pool())
        .await
        .unwrap();
    let over = c.app.send(c.post("/chat").json(&json!({ "message": "hello there" }))).await;
    assert_eq!(over.status, 429, "{}", over.text);
    assert!(over.headers.contains_key("retry-after"));
    assert!(over.json()["error"]["details"]["reset_at"].is_string());
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM chat_messages").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(stored, 0);

    // Within budget again, a conversation starts; over the tenant's monthly budget, a message to
    // it is refused and nothing of it is stored either.
    let pool = c.app.pool();
    sqlx::query("DELETE FROM llm_agent_daily_usage").execute(pool).await.unwrap();
    let ok = c.say("hello there", None).await;
    let conversation = ok["conversation_id"].as_str().unwrap().to_string();
    sqlx::query("UPDATE tenants SET monthly_budget_usd = 1").execute(pool).await.unwrap();
    sqlx::query(
        "INSERT INTO llm_tenant_monthly_usage (tenant_id, month, cost_usd)
         SELECT id, date_trunc('month', now() AT TIME ZONE 'utc')::date, 5 FROM tenants",
    )
    .execute(pool)
    .await
    .unwrap();
    let over =
        c.app.send(c.post("/chat").json(&json!({ "message": "and again", "conversation_id": conversation }))).await;
    assert_eq!(over.status, 429, "{}", over.text);
    assert!(over.text.contains("monthly budget"), "{}", over.text);
    let (messages, count): (i64, i32) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM chat_messages), (SELECT message_count FROM conversations WHERE id = $1::uuid)",
    )
    .bind(&conversation)
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!((messages, count), (2, 2));

    // The OpenAI format too, with and without earlier messages to seed: 429, nothing stored.
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    for messages in [
        json!([{ "role": "user", "content": "hi" }]),
        json!([{ "role": "user", "content": "hi" }, { "role": "assistant", "content": "hello" },
               { "role": "user", "content": "again" }]),
    ] {
        let r = c
            .app
            .send(
                c.app
                    .as_bearer(&key, Method::POST, "/v1/chat/completions")
                    .json(&json!({ "model": c.id, "messages": messages })),
            )
            .await;
        assert_eq!(r.status, 429, "{}", r.text);
    }
    let (messages, conversations): (i64, i64) =
        sqlx::query_as("SELECT (SELECT count(*) FROM chat_messages), (SELECT count(*) FROM conversations)")
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!((messages, conversations), (2, 1));
}

#[tokio::test]
async fn long_conversations_are_summarised_and_keys_need_their_scopes() {
    let c = Chat::new(TestApp::spawn().await).await;
    let first = c.say("We are planning the garden: tomatoes along the south wall.", None).await;
    let conversation = first["conversation_id"].as_str().unwrap().to_string();
    for i in 0..10 {
        c.say(&format!("Note {i}: the beans need a trellis near the shed."), Some(&conversation)).await;
    }
    // 22 messages: the 8 before the last 14 are summarised once there are 6 or more.
    c.app.run_jobs().await;
    let summaries: Vec<(i32, i32, String)> =
        sqlx::query_as("SELECT first_position, last_position, content FROM conversation_summaries")
            .fetch_all(c.app.pool())
            .await
            .unwrap();
    assert!(!summaries.is_empty(), "a summary was written");
    assert_eq!(summaries[0].0, 0);
    assert!(summaries[0].1 >= 5 && summaries[0].1 < 22 - 14, "{summaries:?}");

    let (_, read_only) = c.app.create_key(&c.owner, &c.id, &["chat:read"]).await;
    let r =
        c.app.send(c.app.as_bearer(&read_only, Method::POST, &c.path("/chat")).json(&json!({ "message": "hi" }))).await;
    assert_eq!(r.status, 403);
    let r = c.app.send(c.app.as_bearer(&read_only, Method::GET, &c.path("/conversations"))).await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn a_reply_regenerated_later_is_listed_after_the_message_it_answers() {
    let c = Chat::new(TestApp::spawn().await).await;
    let first = c.say("Which bulbs flower first in spring?", None).await;
    let conversation = first["conversation_id"].as_str().unwrap().to_string();
    c.say("And which ones flower last?", Some(&conversation)).await;
    let question = first["user_message_id"].as_str().unwrap();
    let r = c.app.send(c.post(&format!("/conversations/{conversation}/messages/{question}/regenerate"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let regenerated = r.json()["message_id"].as_str().unwrap().to_string();

    let msgs = c.get(&format!("/conversations/{conversation}/messages")).await;
    let order: Vec<(&str, &str)> = msgs
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["role"].as_str().unwrap(), m["content"].as_str().unwrap()))
        .take(3)
        .collect();
    assert_eq!(order[0], ("user", "Which bulbs flower first in spring?"));
    assert_eq!(msgs[1]["id"], regenerated.as_str(), "the new reply follows its question: {msgs}");
    assert_eq!(order[2], ("user", "And which ones flower last?"));
    let all = c.get(&format!("/conversations/{conversation}/messages?include_superseded=true")).await;
    let statuses: Vec<&str> = all.as_array().unwrap().iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["complete", "superseded", "complete", "complete", "complete"], "{all}");
}

#[tokio::test]
async fn while_an_agents_flush_runs_another_takes_nothing_and_the_message_waits_for_the_next_batch() {
    use miniclaw::chat::calibrate;
    let c = Chat::new(TestApp::spawn().await).await;
    let pool = c.app.pool();
    let agent: uuid::Uuid = c.id.parse().unwrap();
    // One save-worthy message: queued, below the batch threshold (2 in a dense conversation).
    c.say("My name is Alice and I live in Vienna.", None).await;
    // The statement that finished the turn queued it: no background task is involved.
    let queued: i64 = sqlx::query_scalar("SELECT count(*) FROM extraction_queue").fetch_one(pool).await.unwrap();
    assert_eq!(queued, 1);
    let jobs: i64 =
        sqlx::query_scalar("SELECT count(*) FROM jobs WHERE kind = 'chat_extract'").fetch_one(pool).await.unwrap();
    assert_eq!(jobs, 0, "a batch below its threshold queues no extraction job");
    let deps = c.app.registry.deps().expect("the app's services").clone();

    // A flush of this agent is running (it holds the agent's flush lock).
    let mut running = pool.begin().await.unwrap();
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('extraction:' || $1::text, 0))")
        .bind(agent)
        .execute(&mut *running)
        .await
        .unwrap();
    let report = calibrate::flush(&deps, agent, None).await.unwrap();
    assert_eq!(report.messages, 0, "a second flush of the agent takes nothing");
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM extraction_queue").fetch_one(pool).await.unwrap();
    assert_eq!(left, 1);
    // An extraction job that meets the running flush takes nothing either, and leaves one
    // follow-up job (shortly, with the agent's pending key) for what it could not take.
    miniclaw::jobs::queue::enqueue(pool, miniclaw::jobs::NewJob::new(calibrate::EXTRACT_JOB).agent(agent))
        .await
        .unwrap();
    c.app.run_jobs().await;
    let follow_up: Vec<(String, Option<String>, bool)> = sqlx::query_as(
        "SELECT status, idempotency_key, run_at > now() FROM jobs WHERE kind = 'chat_extract' ORDER BY created_at",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let pending_key = format!("chat_extract:{agent}:pending");
    assert_eq!(follow_up.len(), 2, "{follow_up:?}");
    assert_eq!(follow_up[0].0, "done");
    assert_eq!(
        (follow_up[1].0.as_str(), follow_up[1].1.as_deref(), follow_up[1].2),
        ("queued", Some(pending_key.as_str()), true)
    );
    sqlx::query("DELETE FROM jobs WHERE kind = 'chat_extract'").execute(pool).await.unwrap();

    // Once it has finished, the next flush takes the message.
    running.rollback().await.unwrap();
    let report = calibrate::flush(&deps, agent, None).await.unwrap();
    assert_eq!(report.messages, 1);
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM extraction_queue").fetch_one(pool).await.unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn two_summary_passes_over_one_conversation_write_one_summary() {
    use miniclaw::chat::{Channel, calibrate, seed_conversation};
    let c = Chat::new(TestApp::spawn().await).await;
    let pool = c.app.pool();
    let agent: uuid::Uuid = c.id.parse().unwrap();
    let tenant: uuid::Uuid =
        sqlx::query_scalar("SELECT tenant_id FROM agents WHERE id = $1").bind(agent).fetch_one(pool).await.unwrap();
    let earlier: Vec<(String, String)> = (0..22)
        .map(|i| ((if i % 2 == 0 { "user" } else { "assistant" }).to_string(), format!("Message {i} about the garden")))
        .collect();
    let conversation = seed_conversation(pool, agent, Channel::Api, &earlier).await.unwrap();
    let deps = c.app.registry.deps().expect("the app's services").clone();
    // Both passes read the same unsummarised range before either writes.
    let (a, b) = tokio::join!(
        calibrate::summarize(&deps, agent, tenant, conversation),
        calibrate::summarize(&deps, agent, tenant, conversation),
    );
    assert_eq!(u8::from(a.unwrap()) + u8::from(b.unwrap()), 1, "exactly one pass writes");
    let ranges: Vec<(i32, i32)> = sqlx::query_as("SELECT first_position, last_position FROM conversation_summaries")
        .fetch_all(pool)
        .await
        .unwrap();
    assert_eq!(ranges, [(0, 7)], "the 8 messages before the last 14, once");
}

#[tokio::test]
async fn the_openai_sdk_talks_to_an_agent_with_its_key() {
    let c = Chat::new(TestApp::spawn().await).await;
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    let python = std::env::var("MINICLAW_TEST_PYTHON").unwrap_or_else(|_| {
        miniclaw::config::default_cache_dir().join("venv/bin/python").to_string_lossy().into_owned()
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/openai_client.py");
    let base = c.app.url("/v1");
    let (id, message) = (c.id.clone(), "My name is Alice and I love sailing.".to_string());
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(&python).args([script, &base, &key, &id, &message]).output()
    })
    .await
    .unwrap()
    .unwrap_or_else(|e| panic!("cannot run the OpenAI client (run scripts/setup.sh --test): {e}"));
    assert!(out.status.success(), "openai_client.py failed: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["plain"]["object"], "chat.completion");
    assert!(v["plain"]["id"].as_str().unwrap().starts_with("chatcmpl-"));
    assert_eq!(v["plain"]["finish_reason"], "stop");
    assert!(v["plain"]["content"].as_str().unwrap().starts_with("[offline engine"));
    assert!(v["plain"]["total_tokens"].as_u64().unwrap() > 0);
    assert!(v["stream"]["content"].as_str().unwrap().starts_with("[offline engine"));
    assert!(v["stream"]["chunks"].as_u64().unwrap() >= 3, "role chunk, content, finish");
    assert_eq!(v["stream"]["finish_reason"], "stop");
    assert!(v["stream"]["total_tokens"].as_u64().unwrap() > 0);
    // Both calls are recorded with the openai channel; the streamed one carried its history.
    let rows: Vec<(String, i32)> =
        sqlx::query_as("SELECT c.channel, c.message_count FROM conversations c ORDER BY c.created_at")
            .fetch_all(c.app.pool())
            .await
            .unwrap();
    assert_eq!(rows, vec![("openai".to_string(), 2), ("openai".to_string(), 4)]);

    // A key of another agent, or no agent id, is refused.
    let wrong = c
        .app
        .send(
            c.app
                .request(Method::POST, "/v1/chat/completions")
                .json(&json!({ "model": "gpt-4o", "messages": [{ "role": "user", "content": "hi" }] })),
        )
        .await;
    assert_eq!(wrong.status, 400);
}
