//! SPEC P1–P8 through the API: a conversation that remembers across conversations, small talk
//! that costs nothing, a slow triage model that still gets a reply, what the chat model is
//! given, refusals before anything is stored, and the official OpenAI SDK as a client.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::chat_support::Chat;
use crate::common::TestApp;
use crate::llm_server::{LlmServer, Script};

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
async fn the_offline_engine_answers_plain_questions_from_the_agents_tools() {
    let c = Chat::new(TestApp::spawn().await).await;
    let reply = |v: &Value| v["reply"].as_str().unwrap().to_string();

    // No tasks yet, then one: the answer is the task list the tool read, not the prompt's guess.
    let none = c.say("What are my tasks?", None).await;
    assert!(reply(&none).ends_with("You have no tasks."), "{none}");
    let r =
        c.app.send(c.post("/tasks").json(&json!({ "title": "Book the vet", "due_at": "2026-12-01T09:00:00Z" }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let tasks = c.say("What are my tasks?", None).await;
    assert!(reply(&tasks).contains("Your tasks:\n- Book the vet (pending, due 2026-12-01)"), "{tasks}");
    assert_eq!(tasks["engine"], "offline");
    // The tasks are the owner's to hear: a key (a miniapp, acting for no one or for an end user)
    // asking the same gets no task list.
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    let r = c
        .app
        .send(c.app.as_bearer(&key, Method::POST, &c.path("/chat")).json(&json!({ "message": "What are my tasks?" })))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(!r.json()["reply"].as_str().unwrap().contains("Book the vet"), "{}", r.text);

    // The wallet: none, then the address the wallet route made.
    let before = c.say("What is your wallet address?", None).await;
    assert!(reply(&before).contains("- wallet: none yet"), "{before}");
    let address = "0x00000000000000000000000000000000000000aa";
    let r = c.app.send(c.post("/wallet/external").json(&json!({ "address": address }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let after = c.say("What is your wallet address?", None).await;
    assert!(reply(&after).contains(&format!("- wallet address: {address} (held by the owner)")), "{after}");
    assert!(reply(&after).contains("- ERC-8004: not registered"), "{after}");

    // What the user said: found by the memory search tool, said back in the second person.
    let r =
        c.app
            .send(c.post("/memories").json(
                &json!({ "content": "The user works as a nurse at Saint Anne hospital", "category": "identity" }),
            ))
            .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let told = c.say("What did I tell you about the hospital?", None).await;
    assert!(reply(&told).contains("- You work as a nurse at Saint Anne hospital"), "{told}");
    let settings = c.say("What are your settings?", None).await;
    assert!(reply(&settings).contains("- name: Ada") && reply(&settings).contains("- tier: free"), "{settings}");
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
    let queued: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM extraction_queue q JOIN chat_messages m ON m.id = q.message_id WHERE m.content = 'hi'",
    )
    .fetch_one(c.app.pool())
    .await
    .unwrap();
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
async fn bad_messages_and_an_exhausted_budget_are_refused_before_anything_is_stored() {
    let c = Chat::new(TestApp::spawn().await).await;
    let empty = c.app.send(c.post("/chat").json(&json!({ "message": "   " }))).await;
    assert_eq!((empty.status.as_u16(), empty.error_code().as_str()), (400, "validation_failed"));
    let long = c.app.send(c.post("/chat").json(&json!({ "message": "x".repeat(2001) }))).await;
    assert_eq!((long.status.as_u16(), long.error_code().as_str()), (422, "too_long"));
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
async fn the_openai_node_sdk_talks_to_an_agent_with_its_key() {
    let c = Chat::new(TestApp::spawn().await).await;
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/openai_client.mjs");
    let out = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        tokio::process::Command::new("node")
            .args([script, &c.app.url("/v1"), &key, &c.id, "I grow tomatoes on my balcony."])
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the Node client finished within 60 s")
    .unwrap_or_else(|e| panic!("cannot run node (run scripts/setup.sh --test): {e}"));
    assert!(out.status.success(), "openai_client.mjs failed: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["models"], json!([{ "id": c.id, "object": "model", "owned_by": "miniclaw" }]));
    assert_eq!(v["plain"]["object"], "chat.completion");
    assert!(v["plain"]["content"].as_str().unwrap().starts_with("[offline engine"), "{v}");
    assert_eq!(v["stream"]["finish_reason"], "stop");
    assert!(v["stream"]["content"].as_str().unwrap().starts_with("[offline engine"));
    assert!(v["stream"]["total_tokens"].as_u64().unwrap() > 0);
    assert_eq!(
        v["refused"],
        json!({ "class": "BadRequestError", "status": 400, "type": "invalid_request_error", "param": "model", "code": "validation_failed" })
    );
}

/// A client's own functions (`tools`) reach the agent's model; its calls go back to the client,
/// whose results continue the same turn; the offline engine refuses to be made to call one.
#[tokio::test]
async fn the_openai_sdk_passes_its_functions_to_the_agents_model() {
    let llm = LlmServer::start().await;
    let c = Chat::new(TestApp::builder().env("OPENAI_BASE_URL", &llm.base_url()).spawn().await).await;
    let (_, key) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    llm.push(Script::ToolCall { name: "get_weather".into(), arguments: r#"{"city":"Oslo"}"#.into() });
    llm.push(Script::reply("It is 4 degrees and snowing in Oslo."));
    llm.push(Script::ToolCall { name: "get_weather".into(), arguments: r#"{"city":"Bergen"}"#.into() });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/openai_tools.py");
    let (base, id) = (c.app.url("/v1"), c.id.clone());
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(crate::email_support::python()).args([script, &base, &key, &id]).output()
    })
    .await
    .unwrap()
    .unwrap_or_else(|e| panic!("cannot run the OpenAI client (run scripts/setup.sh --test): {e}"));
    assert!(out.status.success(), "openai_tools.py failed: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The model's call reaches the SDK as its own `tool_calls`.
    assert_eq!(v["call"]["finish_reason"], "tool_calls", "{v}");
    assert_eq!(v["call"]["content"], Value::Null);
    assert_eq!(v["call"]["calls"], json!([{ "id": "call_1", "name": "get_weather", "arguments": { "city": "Oslo" } }]));
    assert_eq!(
        v["answer"],
        json!({ "finish_reason": "stop", "content": "It is 4 degrees and snowing in Oslo.",
                                    "conversation_id": v["answer"]["conversation_id"] })
    );
    assert_eq!(
        v["stream"],
        json!({ "id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Bergen\"}",
                                    "finish_reason": "tool_calls" })
    );
    assert_eq!(
        v["refused"],
        json!({ "class": "BadRequestError", "status": 400, "param": "tool_choice",
                                     "code": "validation_failed" })
    );
    // The model got the functions, the choice, and then the call with its result.
    let calls = llm.requests();
    assert_eq!(calls.len(), 3, "one model call per request; the refused one made none");
    assert_eq!(calls[0]["tools"][0]["function"]["name"], "get_weather");
    assert_eq!(calls[0]["tool_choice"], "auto");
    let followed: Vec<&Value> = calls[1]["messages"].as_array().unwrap().iter().rev().take(2).collect();
    assert_eq!(followed[0], &json!({ "role": "tool", "tool_call_id": "call_1", "content": "4 degrees and snowing" }));
    assert_eq!(followed[1]["tool_calls"][0]["function"]["name"], "get_weather", "{}", calls[1]);
    assert_eq!(calls[2]["tool_choice"], json!({ "type": "function", "function": { "name": "get_weather" } }));
    // The result continued the turn: the question stored once, the reply that called
    // superseded by the answer.
    let conversation = v["answer"]["conversation_id"].as_str().unwrap();
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT role, status, content FROM chat_messages WHERE conversation_id = $1::uuid ORDER BY position",
    )
    .bind(conversation)
    .fetch_all(c.app.pool())
    .await
    .unwrap();
    let rows: Vec<(&str, &str, &str)> = rows.iter().map(|(r, s, t)| (r.as_str(), s.as_str(), t.as_str())).collect();
    assert_eq!(
        rows,
        vec![
            ("user", "complete", "What is the weather in Oslo?"),
            ("assistant", "superseded", ""),
            ("assistant", "complete", "It is 4 degrees and snowing in Oslo."),
        ]
    );

    // Bad functions and results are refused before anything is stored, naming the field.
    let send = |body: Value| {
        let body = json!({ "model": c.id, "messages": [{ "role": "user", "content": "hi" }] })
            .as_object()
            .unwrap()
            .clone()
            .into_iter()
            .chain(body.as_object().unwrap().clone())
            .collect::<serde_json::Map<_, _>>();
        c.app.send(c.app.as_bearer(&c.owner.token, Method::POST, "/v1/chat/completions").json(&body))
    };
    for (body, param) in [
        (json!({ "tools": [{ "type": "retrieval" }] }), "tools[0].type"),
        (json!({ "tools": [{ "type": "function", "function": { "name": "a b" } }] }), "tools[0].function.name"),
        (json!({ "tools": {} }), "tools"),
        (json!({ "tool_choice": "required" }), "tool_choice"),
        (
            json!({ "messages": [{ "role": "user", "content": "hi" }, { "role": "tool", "tool_call_id": "x", "content": "1" }] }),
            "messages[1].tool_call_id",
        ),
    ] {
        let r = send(body.clone()).await;
        assert_eq!((r.status.as_u16(), r.json()["error"]["param"].as_str()), (400, Some(param)), "{body}: {}", r.text);
    }
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM chat_messages").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(stored, 5, "the three messages above and the streamed question with its reply");
    // An empty `tool_calls` (some clients send one on every assistant message) is no call.
    let r = send(json!({ "messages": [{ "role": "user", "content": "hi" },
                                      { "role": "assistant", "content": "Let me think.", "tool_calls": [] }] }))
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
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
    // The key's agent is its one model.
    assert_eq!(v["models"], json!([{ "id": c.id, "object": "model", "owned_by": "miniclaw" }]));
    assert_eq!(v["model"], json!({ "id": c.id, "object": "model" }));
    // Refusals reach the SDK as its own error classes, with OpenAI's fields.
    let e = &v["errors"];
    assert_eq!(e[0]["class"], "BadRequestError", "{e}");
    assert_eq!((e[0]["type"].as_str(), e[0]["param"].as_str()), (Some("invalid_request_error"), Some("model")));
    assert!(e[0]["message"].as_str().unwrap().contains("id of one of your hosted agents"));
    assert_eq!((e[1]["status"].as_u64(), e[1]["param"].as_str()), (Some(400), Some("messages")), "{e}");
    assert_eq!(e[2]["class"], "AuthenticationError", "{e}");
    assert_eq!(e[2]["type"], "authentication_error");
    assert_eq!(v["plain"]["object"], "chat.completion");
    assert!(v["plain"]["id"].as_str().unwrap().starts_with("chatcmpl-"));
    assert_eq!(v["plain"]["finish_reason"], "stop");
    assert!(v["plain"]["content"].as_str().unwrap().starts_with("[offline engine"));
    assert!(v["plain"]["total_tokens"].as_u64().unwrap() > 0);
    assert!(v["stream"]["content"].as_str().unwrap().starts_with("[offline engine"));
    assert!(v["stream"]["chunks"].as_u64().unwrap() >= 3, "role chunk, content, finish");
    assert_eq!(v["stream"]["finish_reason"], "stop");
    assert!(v["stream"]["total_tokens"].as_u64().unwrap() > 0);
    // Both calls are recorded with the openai channel; the streamed one carried the first call
    // as its history, so it continued that conversation instead of storing it again.
    let rows: Vec<(String, i32)> =
        sqlx::query_as("SELECT c.channel, c.message_count FROM conversations c ORDER BY c.created_at")
            .fetch_all(c.app.pool())
            .await
            .unwrap();
    assert_eq!(rows, vec![("openai".to_string(), 4)]);

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

    // Without a model the offline engine answers in text, and refuses to be made to call.
    let weather = json!([{ "type": "function", "function": { "name": "get_weather" } }]);
    let ask = |choice: Value| {
        let body = json!({ "model": c.id, "messages": [{ "role": "user", "content": "Weather in Oslo?" }],
                           "tools": weather, "tool_choice": choice });
        c.app.send(c.app.as_bearer(&c.owner.token, Method::POST, "/v1/chat/completions").json(&body))
    };
    let auto = ask(json!("auto")).await;
    assert_eq!(auto.status, 200, "{}", auto.text);
    assert_eq!(auto.json()["choices"][0]["finish_reason"], "stop");
    let required = ask(json!("required")).await;
    assert_eq!((required.status.as_u16(), required.json()["error"]["param"].as_str()), (400, Some("tool_choice")));
    assert!(required.text.contains("offline engine"), "{}", required.text);
}
