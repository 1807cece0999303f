//! SPEC §13 faults, on the real binary: the server killed (SIGKILL) while a reply streams, and a
//! worker killed while it runs a job. Nothing acknowledged is lost, nothing is done twice.

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use futures::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::TestDb;
use crate::llm_server::{LlmServer, Script};
use crate::processes::{free_port, miniclaw, terminate, wait_ready};

/// A `miniclaw serve` on its own port; killed outright when dropped. Its data directory (the
/// master key file) is `data`, shared by the servers of one test.
pub(crate) struct Server {
    pub child: Child,
    pub base: String,
}

impl Server {
    pub async fn start(data: &tempfile::TempDir, env: &[(&str, &str)]) -> Server {
        let port = free_port();
        let addr = format!("127.0.0.1:{port}");
        let data = data.path().to_str().unwrap();
        let mut all: Vec<(&str, &str)> =
            vec![("MINICLAW_ADDR", addr.as_str()), ("MINICLAW_EMBEDDER", "hash"), ("MINICLAW_DATA_DIR", data)];
        all.extend_from_slice(env);
        let mut child = miniclaw(&["serve"], &all).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        wait_ready(port, &mut child).await;
        Server { child, base: format!("http://{addr}") }
    }

    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A child process killed when dropped (a failing test leaves none behind).
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Signs up, creates agent "Ada"; returns (session token, agent id).
pub(crate) async fn owner_and_agent(http: &reqwest::Client, base: &str) -> (String, String) {
    let signup = http
        .post(format!("{base}/v1/auth/signup"))
        .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" }))
        .send()
        .await
        .unwrap();
    assert_eq!(signup.status(), StatusCode::CREATED);
    let token = signup.json::<Value>().await.unwrap()["session_token"].as_str().unwrap().to_string();
    let agent = http
        .post(format!("{base}/v1/hosted-agents"))
        .bearer_auth(&token)
        .json(&json!({ "name": "Ada" }))
        .send()
        .await
        .unwrap();
    assert_eq!(agent.status(), StatusCode::CREATED);
    (token, agent.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_string())
}

async fn count(db: &TestDb, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql).fetch_one(&db.pool).await.unwrap()
}

/// Waits (bounded) until `sql` counts at least `n`.
async fn wait_count(db: &TestDb, sql: &str, n: i64, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while count(db, sql).await < n {
        assert!(Instant::now() < deadline, "{what}: not within 30 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// kill -9 of the server while tokens flow: the user's message is kept, the reply (and the
/// message it answers) end `error` once a fresh server's sweep sees no progress, regenerate
/// answers, and nothing is stored twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_stream_keeps_the_message_and_the_reply_ends_failed_and_regenerable() {
    let db = TestDb::new().await;
    let llm = LlmServer::start().await;
    let llm_url = llm.base_url();
    // 400 pieces 20 ms apart: the reply streams for 8 s, the kill comes after the first few.
    let pieces: Vec<String> = (0..400).map(|i| format!("w{i} ")).collect();
    let full = pieces.concat();
    llm.push(Script::Stream { pieces, usage: Some((40, 400)), complete: true });
    let api_only =
        [("DATABASE_URL", db.url.as_str()), ("OPENAI_BASE_URL", llm_url.as_str()), ("MINICLAW_WORKER", "false")];
    let data = tempfile::tempdir().unwrap();
    let mut first = Server::start(&data, &api_only).await;
    let http = reqwest::Client::new();
    let (token, agent) = owner_and_agent(&http, &first.base).await;

    let resp = http
        .post(format!("{}/v1/hosted-agents/{agent}/chat", first.base))
        .bearer_auth(&token)
        .header("accept", "text/event-stream")
        .json(&json!({ "message": "Tell me a story" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let mut body = resp.bytes_stream();
    let mut seen = String::new();
    while seen.matches("event: token").count() < 5 {
        let chunk = tokio::time::timeout(Duration::from_secs(10), body.next()).await.expect("tokens flow");
        seen.push_str(&String::from_utf8_lossy(&chunk.unwrap().unwrap()));
    }
    first.kill();
    drop(body);

    // What the kill left: the question, and a reply with part of the text, still `streaming`.
    let (status, partial): (String, String) =
        sqlx::query_as("SELECT status, content FROM chat_messages WHERE role = 'assistant'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(status, "streaming");
    assert!(partial.starts_with("w0 w1 ") && full.starts_with(&partial) && partial != full, "{partial:?}");
    assert_eq!(count(&db, "SELECT count(*) FROM chat_messages WHERE role = 'user'").await, 1);

    // A fresh server on the same database, with a short staleness threshold for its sweep.
    let env = [
        ("DATABASE_URL", db.url.as_str()),
        ("OPENAI_BASE_URL", llm_url.as_str()),
        ("MINICLAW_STREAM_STALE_SECS", "2"),
        ("MINICLAW_WORKER_POLL_MS", "100"),
    ];
    let second = Server::start(&data, &env).await;
    wait_count(&db, "SELECT count(*) FROM chat_messages WHERE status = 'error'", 2, "the sweep ended the turn").await;
    let conversation: String =
        sqlx::query_scalar("SELECT id::text FROM conversations").fetch_one(&db.pool).await.unwrap();
    let messages = format!("{}/v1/hosted-agents/{agent}/conversations/{conversation}/messages", second.base);
    let msgs: Value = http.get(&messages).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    let msgs = msgs.as_array().unwrap();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert_eq!((msgs[0]["content"].as_str(), msgs[0]["status"].as_str()), (Some("Tell me a story"), Some("error")));
    assert_eq!(msgs[1]["status"], "error");
    assert_eq!(msgs[1]["content"], partial.as_str(), "the text written before the kill is kept");

    llm.push(Script::Stream { pieces: vec!["Once ".into(), "upon a time.".into()], usage: None, complete: true });
    let question = msgs[0]["id"].as_str().unwrap();
    let r = http.post(format!("{messages}/{question}/regenerate")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap()["reply"], "Once upon a time.");

    let msgs: Value = http.get(&messages).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    let shown: Vec<(&str, &str)> = msgs
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["content"].as_str().unwrap(), m["status"].as_str().unwrap()))
        .collect();
    assert_eq!(shown, [("Tell me a story", "complete"), ("Once upon a time.", "complete")]);
    // Nothing twice: one question, one live reply (the interrupted one superseded, kept aside).
    assert_eq!(count(&db, "SELECT count(*) FROM chat_messages WHERE role = 'user'").await, 1);
    let replies: Vec<(String,)> =
        sqlx::query_as("SELECT status FROM chat_messages WHERE role = 'assistant' ORDER BY created_at")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(replies, [("superseded".to_string(),), ("complete".to_string(),)]);
    assert_eq!(count(&db, "SELECT message_count::bigint FROM conversations").await, 3);
}

const EXTRACTED: &str = r#"{"facts":[{"content":"The user's name is Alice","category":"identity","confidence":0.9},
    {"content":"The user plays chess on weekends","category":"interest","confidence":0.8}],"insights":[]}"#;

/// kill -9 of a worker while its job waits on a model call: once the lease runs out another
/// worker takes the job over and finishes it, once: two attempts, one set of memories.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_job_leaves_it_to_another_worker_that_finishes_it_once() {
    let db = TestDb::new().await;
    // Two turns on an API-only server (no model: the built-in engine answers) fill the
    // extraction batch and queue its job.
    let data = tempfile::tempdir().unwrap();
    let api = Server::start(&data, &[("DATABASE_URL", db.url.as_str()), ("MINICLAW_WORKER", "false")]).await;
    let http = reqwest::Client::new();
    let (token, agent) = owner_and_agent(&http, &api.base).await;
    let mut conversation = Value::Null;
    for message in
        ["My name is Alice and I live in Vienna.", "I really enjoy playing chess with my friends on weekends."]
    {
        let r = http
            .post(format!("{}/v1/hosted-agents/{agent}/chat", api.base))
            .bearer_auth(&token)
            .json(&json!({ "message": message, "conversation_id": conversation }))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        conversation = r.json::<Value>().await.unwrap()["conversation_id"].clone();
    }
    drop(api);
    let job = "SELECT count(*) FROM jobs WHERE kind = 'chat_extract'";
    assert_eq!(count(&db, &format!("{job} AND status = 'queued'")).await, 1);

    // The first extraction call hangs; the second answers at once.
    let llm = LlmServer::start().await;
    llm.push(Script::Delay(Duration::from_secs(120), Box::new(Script::reply(EXTRACTED))));
    llm.push(Script::reply(EXTRACTED));
    let llm_url = llm.base_url();
    let env = [
        ("DATABASE_URL", db.url.as_str()),
        ("MINICLAW_EMBEDDER", "hash"),
        ("MINICLAW_DATA_DIR", data.path().to_str().unwrap()),
        ("OPENAI_BASE_URL", llm_url.as_str()),
        ("MINICLAW_JOB_LEASE_SECS", "5"),
        ("MINICLAW_WORKER_POLL_MS", "100"),
    ];
    let mut a = Guard(miniclaw(&["worker"], &env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    while llm.requests().is_empty() {
        assert!(Instant::now() < deadline, "worker A did not call the model within 30 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (attempts, locked_by): (i32, String) =
        sqlx::query_as("SELECT attempts, locked_by FROM jobs WHERE kind = 'chat_extract' AND status = 'running'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(attempts, 1);
    assert!(locked_by.contains(&format!(":{}:", a.0.id())), "{locked_by}");
    // A live worker keeps its job past the lease: it renews it (every third of it).
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert_eq!(count(&db, &format!("{job} AND status = 'running' AND attempts = 1")).await, 1);
    a.0.kill().unwrap();
    a.0.wait().unwrap();

    let mut b = Guard(miniclaw(&["worker"], &env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap());
    wait_count(&db, &format!("{job} AND status = 'done'"), 1, "worker B finished the job").await;
    assert!(terminate(&mut b.0).success());

    let (attempts, locked_by, last_error): (i32, String, Option<String>) =
        sqlx::query_as("SELECT attempts, locked_by, last_error FROM jobs WHERE kind = 'chat_extract'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(attempts, 2, "leased once by each worker");
    assert!(locked_by.contains(&format!(":{}:", b.0.id())), "finished by B: {locked_by}");
    assert!(last_error.unwrap_or_default().starts_with("lease expired"), "the takeover is on record");
    assert_eq!(count(&db, job).await, 1, "no second job for the batch");
    let extraction_calls = llm.requests().len();
    assert_eq!(extraction_calls, 2, "one model call per attempt");
    let memories: Vec<(String, i64)> =
        sqlx::query_as("SELECT content, count(*) FROM agent_memories GROUP BY content ORDER BY content")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(
        memories,
        [("The user plays chess on weekends".to_string(), 1), ("The user's name is Alice".to_string(), 1)],
        "each extracted fact stored once"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM extraction_queue").await, 0, "the batch left the queue");
}
