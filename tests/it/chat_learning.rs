//! What a conversation leaves behind after the turn: the extraction batch threshold, one flush
//! per agent at a time, conversation summaries written once, and the scopes keys need.

use miniclaw::ids::{AgentId, TenantId};
use reqwest::Method;
use serde_json::json;

use crate::chat_support::Chat;
use crate::common::TestApp;

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
async fn while_an_agents_flush_runs_another_takes_nothing_and_the_message_waits_for_the_next_batch() {
    use miniclaw::chat::calibrate;
    let c = Chat::new(TestApp::spawn().await).await;
    let pool = c.app.pool();
    let agent: AgentId = c.id.parse().unwrap();
    // One save-worthy message: queued, and with the offline engine (extraction costs nothing)
    // a batch of its own, so its extraction job is queued at once.
    c.say("My name is Alice and I live in Vienna.", None).await;
    // The statement that finished the turn queued both: no background task is involved.
    let queued: i64 = sqlx::query_scalar("SELECT count(*) FROM extraction_queue").fetch_one(pool).await.unwrap();
    assert_eq!(queued, 1);
    let jobs: i64 =
        sqlx::query_scalar("SELECT count(*) FROM jobs WHERE kind = 'chat_extract'").fetch_one(pool).await.unwrap();
    assert_eq!(jobs, 1, "with the offline engine one message is a whole batch");
    sqlx::query("DELETE FROM jobs WHERE kind = 'chat_extract'").execute(pool).await.unwrap();
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
    let agent: AgentId = c.id.parse().unwrap();
    let tenant: TenantId =
        sqlx::query_scalar("SELECT tenant_id FROM agents WHERE id = $1").bind(agent).fetch_one(pool).await.unwrap();
    let earlier: Vec<(String, String)> = (0..22)
        .map(|i| ((if i % 2 == 0 { "user" } else { "assistant" }).to_string(), format!("Message {i} about the garden")))
        .collect();
    let everyone = miniclaw::chat::Audience { owner: true, end_user: None };
    let conversation = seed_conversation(pool, agent, &everyone, Channel::Api, &earlier).await.unwrap();
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
async fn a_backlog_is_extracted_in_batches_of_at_most_twenty_one_job_after_the_other() {
    use miniclaw::chat::calibrate::BATCH_MAX;
    let c = Chat::new(TestApp::spawn().await).await;
    let pool = c.app.pool();
    // No worker runs while the messages arrive: the agent's one pending job waits, the batch grows.
    let mut conversation: Option<String> = None;
    for i in 0..25 {
        let r = c
            .say(&format!("I planted {i} rows of carrots in the garden behind the house."), conversation.as_deref())
            .await;
        conversation = r["conversation_id"].as_str().map(str::to_string);
    }
    let queued: i64 = sqlx::query_scalar("SELECT count(*) FROM extraction_queue").fetch_one(pool).await.unwrap();
    assert_eq!(queued, 25);
    let pending: i64 =
        sqlx::query_scalar("SELECT count(*) FROM jobs WHERE kind = 'chat_extract' AND status = 'queued'")
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!(pending, 1, "one pending extraction job per agent");
    // The first job takes the oldest 20 and queues the next at once; that one takes the rest.
    c.app.run_jobs().await;
    let batches: Vec<i64> = sqlx::query_scalar(
        "SELECT (result->>'messages')::bigint FROM jobs WHERE kind = 'chat_extract' AND status = 'done' ORDER BY finished_at",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(batches, [BATCH_MAX, 25 - BATCH_MAX]);
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM extraction_queue").fetch_one(pool).await.unwrap();
    assert_eq!(left, 0);
}
