//! Outreach end to end (SPEC O1–O3): a proposal drafted by the agent, approved by its owner,
//! delivered to a real SMTP server with a Message-ID; a Svix-signed reply to it lands in the
//! same thread, runs through the chat pipeline and is answered or escalated; the limits, the
//! outbox under an SMTP outage, header injection, the webhook's refusals and Resend.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent, Reply, TestApp, TestAppBuilder};
use crate::email_support::{FakeResend, SmtpServer, eventually, svix_sign};

pub const SECRET: &str = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
const FROM: &str = "agents@outreach.example.com";

/// The app configured for email (`SMTP_URL` when given) with Ada, outreach on, at `threshold`.
pub async fn outreach_agent(builder: TestAppBuilder, smtp: Option<&SmtpServer>, threshold: f64) -> OwnedAgent {
    let mut b = builder.env("RESEND_WEBHOOK_SECRET", SECRET).env("MINICLAW_EMAIL_FROM", FROM);
    if let Some(s) = smtp {
        b = b.env("SMTP_URL", &s.url());
    }
    let agent = OwnedAgent::new(b.spawn().await).await;
    // The owner's address counts as proven (the link itself is tested in `verification`), and
    // its link is not mailed, so the SMTP server holds only what a test sends.
    sqlx::query("UPDATE owners SET email_verified_at = now()").execute(agent.app.pool()).await.unwrap();
    sqlx::query("DELETE FROM jobs WHERE kind = 'verification_email'").execute(agent.app.pool()).await.unwrap();
    let r = agent
        .call(Method::PATCH, "", Some(json!({ "outreach_enabled": true, "outreach_auto_reply_confidence": threshold })))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    agent
}

pub async fn propose(agent: &OwnedAgent, body: Value) -> Reply {
    agent.call(Method::POST, "/outreach", Some(body)).await
}

/// Proposes (drafted by the agent) and approves an email to `target`; returns the outreach id.
pub async fn approved(agent: &OwnedAgent, target: &str) -> String {
    let r = propose(
        agent,
        json!({ "target_email": target, "target_name": "Bob", "purpose": "an introduction to the reading club" }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = agent.call(Method::POST, &format!("/outreach/{id}/approve"), None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    id
}

pub async fn thread(agent: &OwnedAgent, id: &str) -> Value {
    let r = agent.call(Method::GET, &format!("/outreach/{id}"), None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

/// Posts a delivery to the inbound webhook, signed by the `svix` package.
pub async fn deliver(app: &TestApp, svix_id: &str, timestamp: i64, body: &Value) -> Reply {
    let raw = body.to_string();
    let sig = svix_sign(SECRET, svix_id, timestamp, &raw);
    app.send(
        app.request(Method::POST, "/webhooks/inbound-email")
            .header("svix-id", svix_id)
            .header("svix-timestamp", timestamp.to_string())
            .header("svix-signature", sig)
            .header("content-type", "application/json")
            .body(raw),
    )
    .await
}

/// What the SMTP server received for Bob (the owner's notifications go to the owner).
fn bob(smtp: &SmtpServer) -> Vec<crate::email_support::Received> {
    smtp.messages().into_iter().filter(|m| m.rcpt_tos == ["bob@example.org"]).collect()
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// A reply from Bob to the message `in_reply_to`.
fn bob_replies(in_reply_to: &str, subject: &str, text: &str) -> Value {
    json!({ "from": "Bob <bob@example.org>", "to": [FROM], "subject": format!("Re: {subject}"), "text": text,
        "message_id": format!("<{}@mail.example.org>", uuid::Uuid::new_v4()), "in_reply_to": format!("<{in_reply_to}>") })
}

#[tokio::test]
async fn a_drafted_proposal_is_approved_sent_answered_by_email_and_auto_replied_in_its_thread() {
    let smtp = SmtpServer::start();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 0.0).await;
    let app = &agent.app;
    agent.remember("The reading club meets on Tuesdays at the library", "fact").await;

    let r = propose(&agent, json!({ "target_email": "Bob@Example.org", "target_name": "Bob", "purpose": "an introduction to the reading club" })).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let proposal = r.json();
    assert_eq!((proposal["status"].as_str(), proposal["drafted_by"].as_str()), (Some("proposed"), Some("offline")));
    assert_eq!(proposal["target_email"], "bob@example.org");
    assert!(proposal["body"].as_str().unwrap().contains("Ada"), "{proposal}");
    let id = proposal["id"].as_str().unwrap().to_string();

    let r = agent.call(Method::POST, &format!("/outreach/{id}/approve"), None).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("approved")), "{}", r.text);
    assert!(bob(&smtp).is_empty(), "nothing is sent before the outbox runs");
    app.run_jobs().await;
    eventually("the first email", || bob(&smtp).len() == 1).await;
    let first = &bob(&smtp)[0];
    let message_id = first.header("Message-ID").expect("a Message-ID");
    assert!(message_id.starts_with('<') && message_id.ends_with("@outreach.example.com>"), "{message_id}");
    assert_eq!(first.header("Subject").as_deref(), proposal["subject"].as_str());
    // The agent's name, marked as carried by the platform: the address is the platform's.
    let from = first.header("From").unwrap();
    assert!(from.contains("Ada via outreach.example.com") && from.ends_with(&format!("<{FROM}>")), "{from}");
    assert_eq!(first.rcpt_tos, ["bob@example.org"]);
    assert!(first.header("In-Reply-To").is_none());
    let t = thread(&agent, &id).await;
    assert_eq!(t["status"], "sent");
    assert_eq!(t["messages"][0]["message_id"].as_str().unwrap(), message_id.trim_matches(['<', '>']));

    // Bob answers; the reply lands in the thread, goes through the pipeline and is answered.
    let reply = bob_replies(
        message_id.trim_matches(['<', '>']),
        proposal["subject"].as_str().unwrap(),
        "When does the club meet?\n\nOn Mon Ada wrote:\n> Hello Bob",
    );
    let r = deliver(app, "msg_reply_1", now(), &reply).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let outcome = r.json();
    assert_eq!((outcome["status"].as_str(), outcome["outreach_id"].as_str()), (Some("received"), Some(id.as_str())));
    // Stored with the job that answers it: the answer comes from the queue.
    let t = thread(&agent, &id).await;
    assert_eq!(
        (t["messages"][1]["direction"].as_str(), t["messages"][1]["status"].as_str()),
        (Some("inbound"), Some("received"))
    );
    app.run_jobs().await;
    let t = thread(&agent, &id).await;
    assert!(t["confidence"].as_f64().unwrap() > 0.0, "{t}");
    let messages = t["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "{t}");
    assert_eq!(
        (messages[1]["direction"].as_str(), messages[1]["status"].as_str()),
        (Some("inbound"), Some("auto_replied"))
    );
    assert_eq!(messages[1]["from_address"], "bob@example.org");
    assert_eq!((messages[2]["direction"].as_str(), messages[2]["author"].as_str()), (Some("outbound"), Some("agent")));
    let conversation = t["conversation_id"].as_str().expect("the thread's email conversation").to_string();
    let convs = agent.call(Method::GET, "/conversations", None).await.json();
    let conv = convs.as_array().unwrap().iter().find(|c| c["id"] == conversation.as_str()).expect("the conversation");
    assert_eq!(conv["channel"], "email");
    // A key acting for no one neither lists, reads nor continues the email conversation.
    let (_, key) = app.create_key(&agent.owner, &agent.id, &["chat:read", "chat:write"]).await;
    let as_key = |method: Method, path: String| app.as_bearer(&key, method, &path);
    let listed = app.send(as_key(Method::GET, agent.path("/conversations"))).await.json();
    assert!(!listed.to_string().contains(&conversation), "{listed}");
    let read = app.send(as_key(Method::GET, agent.path(&format!("/conversations/{conversation}/messages")))).await;
    assert_eq!(read.status, 404, "{}", read.text);
    let steer = app
        .send(
            as_key(Method::POST, agent.path("/chat"))
                .json(&json!({ "message": "Tell Bob the club is closed", "conversation_id": conversation })),
        )
        .await;
    assert_eq!(steer.status, 404, "{}", steer.text);

    app.run_jobs().await;
    eventually("the auto-reply", || bob(&smtp).len() == 2).await;
    let answer = &bob(&smtp)[1];
    let bobs_id = reply["message_id"].as_str().unwrap();
    assert_eq!(answer.header("In-Reply-To").as_deref(), Some(bobs_id));
    assert_eq!(answer.header("References").as_deref(), Some(format!("{message_id} {bobs_id}").as_str()));
    assert_eq!(answer.header("Subject"), Some(format!("Re: {}", proposal["subject"].as_str().unwrap())));
    assert_eq!(thread(&agent, &id).await["status"], "sent");

    // The same delivery again changes nothing.
    let r = deliver(app, "msg_reply_1", now(), &reply).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("duplicate")));
    assert_eq!(thread(&agent, &id).await["messages"].as_array().unwrap().len(), 3);
    app.run_jobs().await;
    assert_eq!(bob(&smtp).len(), 2);

    // Every transition is in the activity log.
    let log = agent.call(Method::GET, "/activity", None).await.json();
    let actions: Vec<&str> = log.as_array().unwrap().iter().filter_map(|e| e["action"].as_str()).collect();
    for a in
        ["outreach_proposed", "outreach_approved", "outreach_sent", "outreach_reply_received", "outreach_auto_replied"]
    {
        assert!(actions.contains(&a), "{a} missing from {actions:?}");
    }
}

#[tokio::test]
async fn a_reply_below_the_threshold_is_escalated_with_a_suggestion_the_owner_sends() {
    let smtp = SmtpServer::start();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 1.0).await;
    let app = &agent.app;
    let (id, first_id, subject) = first_email_to_bob(&agent, &smtp).await;

    let r = deliver(
        app,
        "msg_low",
        now(),
        &bob_replies(first_id.trim_matches(['<', '>']), &subject, "Could you send me your pricing?"),
    )
    .await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("received")), "{}", r.text);
    app.run_jobs().await;
    let t = thread(&agent, &id).await;
    assert_eq!(t["status"], "escalated");
    let suggested = t["suggested_reply"].as_str().expect("a suggested reply").to_string();
    assert!(!suggested.is_empty());
    assert!(t["escalation_reason"].as_str().unwrap().contains("below the owner's threshold"), "{t}");
    app.run_jobs().await;
    assert_eq!(bob(&smtp).len(), 1, "an escalated reply is not sent");

    // The owner sends the suggestion; it goes out threaded.
    let r = agent.call(Method::POST, &format!("/outreach/{id}/reply"), Some(json!({}))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    app.run_jobs().await;
    eventually("the owner's reply", || bob(&smtp).len() == 2).await;
    let sent = &bob(&smtp)[1];
    assert_eq!(sent.body_text().trim_end(), suggested.replace('\n', "\r\n").trim_end(), "{}", sent.raw);
    assert!(sent.header("In-Reply-To").is_some());
    let t = thread(&agent, &id).await;
    assert_eq!((t["status"].as_str(), t["suggested_reply"].as_str()), (Some("sent"), None));
}

#[tokio::test]
async fn illegal_transitions_are_409_naming_the_current_state() {
    let agent = outreach_agent(TestApp::builder(), None, 0.8).await;
    let r = propose(
        &agent,
        json!({ "target_email": "bob@example.org", "purpose": "hello", "subject": "Hi", "body": "Hello Bob" }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json()["drafted_by"], "owner");
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = agent.call(Method::POST, &format!("/outreach/{id}/close"), None).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (409, "conflict".to_string()));
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("is proposed"), "{}", r.text);
    let r = agent.call(Method::POST, &format!("/outreach/{id}/reject"), Some(json!({ "reason": "not now" }))).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("rejected")));
    for (method, action, body) in [
        (Method::POST, "/approve", None),
        (Method::POST, "/reject", Some(json!({}))),
        (Method::PATCH, "", Some(json!({ "subject": "Later" }))),
        (Method::POST, "/reply", Some(json!({ "body": "Hi" }))),
    ] {
        let r = agent.call(method, &format!("/outreach/{id}{action}"), body).await;
        assert_eq!(r.status, 409, "{action}: {}", r.text);
        assert!(r.json()["error"]["message"].as_str().unwrap().contains("is rejected"), "{}", r.text);
    }
    let r = agent.call(Method::GET, &format!("/outreach/{}", uuid::Uuid::now_v7()), None).await;
    assert_eq!(r.status, 404);
    // Without a transport an approval could not leave: 503, and the proposal stays.
    let r = propose(
        &agent,
        json!({ "target_email": "bob@example.org", "purpose": "hello", "subject": "Hi", "body": "Hello Bob" }),
    )
    .await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = agent.call(Method::POST, &format!("/outreach/{id}/approve"), None).await;
    assert_eq!(r.status, 503, "{}", r.text);
    assert!(r.text.contains("SMTP_URL"), "{}", r.text);
    assert_eq!(thread(&agent, &id).await["status"], "proposed");
    let r = agent.call(Method::GET, "/outreach?status=lost", None).await;
    assert_eq!(r.status, 400);
    let r = agent.call(Method::GET, "/outreach?status=rejected", None).await;
    assert_eq!(r.json().as_array().unwrap().len(), 1);
    let r = agent.call(Method::GET, "/outreach?limit=1", None).await;
    assert_eq!(r.json().as_array().unwrap().len(), 1);
    assert!(r.headers.get("x-next-before").is_some(), "paged");
}

#[tokio::test]
async fn outreach_needs_it_enabled_and_its_scopes_and_only_the_owner_approves() {
    let agent = OwnedAgent::new(TestApp::spawn().await).await;
    let app = &agent.app;
    let body = json!({ "target_email": "bob@example.org", "purpose": "hello", "subject": "Hi", "body": "Hello" });
    let r = propose(&agent, body.clone()).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("outreach_enabled"));
    agent.call(Method::PATCH, "", Some(json!({ "outreach_enabled": true }))).await;
    let (_, reader) = app.create_key(&agent.owner, &agent.id, &["outreach:read"]).await;
    let (_, writer) = app.create_key(&agent.owner, &agent.id, &["outreach:read", "outreach:write"]).await;
    let path = agent.path("/outreach");
    let r = app.send(app.as_bearer(&reader, Method::POST, &path).json(&body)).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = app.send(app.as_bearer(&writer, Method::POST, &path).json(&body)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json()["id"].as_str().unwrap().to_string();
    assert_eq!(r.json()["drafted_by"], "agent", "written by the agent through its key");
    let r = app.send(app.as_bearer(&writer, Method::POST, &agent.path(&format!("/outreach/{id}/approve")))).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (403, "owner_session_required".to_string()));
    let r = app.send(app.as_bearer(&reader, Method::GET, &path)).await;
    assert_eq!((r.status.as_u16(), r.json().as_array().unwrap().len()), (200, 1));

    // A correspondence last active over 30 days ago is the owner's alone: a key neither lists
    // nor reads it, and paging stays whole around it.
    let r = app.send(app.as_bearer(&writer, Method::POST, &path).json(&body)).await;
    let recent = r.json()["id"].as_str().unwrap().to_string();
    let r = app.send(app.as_bearer(&writer, Method::POST, &path).json(&body)).await;
    let newest = r.json()["id"].as_str().unwrap().to_string();
    sqlx::query("UPDATE outreach_threads SET updated_at = now() - interval '31 days' WHERE id = $1::uuid")
        .bind(&id)
        .execute(app.pool())
        .await
        .unwrap();
    let r = app.send(app.as_bearer(&reader, Method::GET, &format!("{path}?limit=1"))).await;
    assert_eq!(r.json()[0]["id"].as_str(), Some(newest.as_str()), "{}", r.text);
    let next = r.headers.get("x-next-before").expect("a next page").to_str().unwrap().to_string();
    let r = app.send(app.as_bearer(&reader, Method::GET, &format!("{path}?limit=1&before={next}"))).await;
    assert_eq!(r.json()[0]["id"].as_str(), Some(recent.as_str()), "{}", r.text);
    let r = app.send(app.as_bearer(&reader, Method::GET, &path)).await;
    let ids: Vec<String> =
        r.json().as_array().unwrap().iter().filter_map(|t| t["id"].as_str().map(String::from)).collect();
    assert_eq!(ids, [newest.clone(), recent.clone()], "the old thread is not listed for a key");
    let r = app.send(app.as_bearer(&reader, Method::GET, &agent.path(&format!("/outreach/{id}")))).await;
    assert_eq!(r.status, 404, "{}", r.text);
    assert_eq!(thread(&agent, &id).await["id"].as_str(), Some(id.as_str()), "the owner still reads it");
    let r = agent.call(Method::GET, "/outreach", None).await;
    assert_eq!(r.json().as_array().unwrap().len(), 3, "the owner lists it");
}

#[tokio::test]
async fn the_sixth_email_of_the_day_and_a_second_to_one_target_in_a_week_are_429_with_when() {
    // The emails stay queued (the server is down): queued ones count.
    let mut smtp = SmtpServer::start();
    smtp.stop();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 0.8).await;
    for i in 0..5 {
        approved(&agent, &format!("person{i}@example.org")).await;
    }
    let r = propose(
        &agent,
        json!({ "target_email": "sixth@example.org", "purpose": "hello", "subject": "Hi", "body": "Hello" }),
    )
    .await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = agent.call(Method::POST, &format!("/outreach/{id}/approve"), None).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (429, "rate_limited".to_string()), "{}", r.text);
    let v = r.json();
    assert!(v["error"]["message"].as_str().unwrap().contains("5 emails in the last 24 hours"), "{v}");
    assert!(v["error"]["details"]["reset_at"].is_string(), "{v}");
    assert!(r.headers.get("retry-after").is_some());
    assert_eq!(thread(&agent, &id).await["status"], "proposed", "a refused approval leaves the proposal");
    let quota = agent.call(Method::GET, "/outreach-quota", None).await.json();
    assert_eq!((quota["used"].as_u64(), quota["remaining"].as_u64()), (Some(5), Some(0)));

    // Another agent of the owner has its own 5, but not a second email to the same person in a week.
    let other = agent.app.create_agent(&agent.owner, json!({ "name": "Bea", "outreach_enabled": true })).await;
    let other_path = format!("/v1/hosted-agents/{}", other["id"].as_str().unwrap());
    let post = |rest: &str, body: Option<Value>| {
        let req = agent.app.as_bearer(&agent.owner.token, Method::POST, &format!("{other_path}{rest}"));
        match body {
            Some(b) => req.json(&b),
            None => req,
        }
    };
    let body = json!({ "target_email": "carol@example.org", "purpose": "hello", "subject": "Hi", "body": "Hello" });
    let first = agent.app.send(post("/outreach", Some(body.clone()))).await.json()["id"].as_str().unwrap().to_string();
    assert_eq!(agent.app.send(post(&format!("/outreach/{first}/approve"), None)).await.status, 200);
    let second = agent.app.send(post("/outreach", Some(body))).await.json()["id"].as_str().unwrap().to_string();
    let r = agent.app.send(post(&format!("/outreach/{second}/approve"), None)).await;
    assert_eq!(r.status, 429, "{}", r.text);
    assert!(r.text.contains("one email per target per 7 days"), "{}", r.text);
}

#[tokio::test]
async fn the_outbox_holds_an_email_while_smtp_is_down_and_delivers_it_once_when_it_is_back() {
    let mut smtp = SmtpServer::start();
    smtp.stop();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 0.8).await;
    let app = &agent.app;
    let id = approved(&agent, "bob@example.org").await;
    app.run_jobs().await;
    let row =
        sqlx::query!("SELECT status, attempts, last_error FROM email_outbox").fetch_one(app.pool()).await.unwrap();
    assert_eq!((row.status.as_str(), row.attempts), ("queued", 1));
    assert!(row.last_error.unwrap().to_lowercase().contains("connect"), "the connection error is kept");
    assert_eq!(thread(&agent, &id).await["status"], "approved");

    smtp.run();
    // The retry is due after its backoff; bring it forward instead of waiting.
    sqlx::query!("UPDATE jobs SET run_at = now() WHERE kind = 'email_send' AND status = 'queued'")
        .execute(app.pool())
        .await
        .unwrap();
    app.run_jobs().await;
    eventually("the delivery", || smtp.messages().len() == 1).await;
    sqlx::query!("UPDATE jobs SET run_at = now() WHERE status = 'queued'").execute(app.pool()).await.unwrap();
    app.run_jobs().await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(smtp.messages().len(), 1, "delivered exactly once");
    let row = sqlx::query!("SELECT status, attempts FROM email_outbox").fetch_one(app.pool()).await.unwrap();
    assert_eq!((row.status.as_str(), row.attempts), ("sent", 2));
    assert_eq!(thread(&agent, &id).await["status"], "sent");
}

#[tokio::test]
async fn line_breaks_in_header_fields_are_refused_and_never_reach_the_smtp_server() {
    let smtp = SmtpServer::start();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 0.8).await;
    let app = &agent.app;
    let evil = "evil@attacker.example";
    for body in [
        json!({ "target_email": "bob@example.org", "purpose": "x", "subject": format!("Hi\r\nBcc: {evil}"), "body": "Hello" }),
        json!({ "target_email": "bob@example.org", "purpose": "x", "subject": format!("Hi\nBcc: {evil}"), "body": "Hello" }),
        json!({ "target_email": format!("bob@example.org\r\nBcc: {evil}"), "purpose": "x", "subject": "Hi", "body": "Hello" }),
        json!({ "target_email": "bob@example.org", "target_name": format!("Bob\r\nBcc: {evil}"), "purpose": "x" }),
    ] {
        let r = propose(&agent, body).await;
        assert_eq!((r.status.as_u16(), r.error_code()), (400, "validation_failed".to_string()), "{}", r.text);
    }
    let r = app
        .send(
            app.as_bearer(&agent.owner.token, Method::PUT, "/v1/email/sender")
                .json(&json!({ "from_name": format!("Ada\r\nBcc: {evil}") })),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
    // A proposal cannot be edited into one either.
    let r = propose(&agent, json!({ "target_email": "bob@example.org", "purpose": "x", "subject": "Hi", "body": "Hello\r\nBcc: not a header" })).await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = agent
        .call(Method::PATCH, &format!("/outreach/{id}"), Some(json!({ "subject": format!("Hi\r\nBcc: {evil}") })))
        .await;
    assert_eq!(r.status, 400);
    agent.call(Method::POST, &format!("/outreach/{id}/approve"), None).await;
    app.run_jobs().await;
    eventually("the one email", || smtp.messages().len() == 1).await;
    let m = &smtp.messages()[0];
    assert_eq!(m.rcpt_tos, ["bob@example.org"], "no injected recipient");
    assert!(!m.raw.contains(evil), "{}", m.raw);
    assert_eq!(m.header("Subject").as_deref(), Some("Hi"));
    let names: Vec<String> = m.header_names().into_iter().map(|n| n.to_ascii_lowercase()).collect();
    assert!(!names.contains(&"bcc".to_string()), "{names:?}");
    // A line break in the body stays in the body.
    let body = m.raw.split_once("\r\n\r\n").unwrap().1;
    assert!(body.contains("Bcc: not a header"), "{}", m.raw);
}

#[tokio::test]
async fn the_webhook_refuses_bad_stale_and_unsigned_deliveries_and_gives_unmatched_ones_to_no_agent() {
    let agent = outreach_agent(TestApp::builder(), None, 0.0).await;
    let app = &agent.app;
    let body = json!({ "from": "bob@example.org", "to": [FROM], "subject": "Re: Hi", "text": "Yes", "in_reply_to": "<nothing@x.example>" });
    let raw = body.to_string();
    let post = |id: &str, ts: i64, sig: &str| {
        app.request(Method::POST, "/webhooks/inbound-email")
            .header("svix-id", id)
            .header("svix-timestamp", ts.to_string())
            .header("svix-signature", sig)
            .body(raw.clone())
    };
    let ts = now();
    let good = svix_sign(SECRET, "msg_1", ts, &raw);
    let other_secret = svix_sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_1", ts, &raw);
    for (req, why) in [
        (post("msg_1", ts, &other_secret), "another secret"),
        (post("msg_2", ts, &good), "another delivery's id"),
        (post("msg_1", ts + 1, &good), "another timestamp"),
        (post("msg_1", ts, "v1,bm90IGEgc2lnbmF0dXJl"), "garbage"),
        (app.request(Method::POST, "/webhooks/inbound-email").body(raw.clone()), "no headers"),
    ] {
        let r = app.send(req).await;
        assert_eq!((r.status.as_u16(), r.error_code()), (401, "unauthorized".to_string()), "{why}: {}", r.text);
    }
    let stale = now() - 301;
    let r = app.send(post("msg_1", stale, &svix_sign(SECRET, "msg_1", stale, &raw))).await;
    assert_eq!(r.status, 401);
    assert!(r.text.contains("5 minutes"), "{}", r.text);
    // Several signatures, one of them right.
    let r = app.send(post("msg_1", ts, &format!("{other_secret} {good}"))).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (202, Some("unmatched")), "{}", r.text);
    let delivered = sqlx::query_scalar!("SELECT count(*) FROM inbound_email_deliveries WHERE outcome = 'unmatched'")
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(delivered, Some(1));
    let turns = sqlx::query_scalar!("SELECT count(*) FROM chat_messages").fetch_one(app.pool()).await.unwrap();
    assert_eq!(turns, Some(0), "no agent saw it");
    // A body over the request limit is 413; a malformed one 400.
    let big =
        json!({ "from": "bob@example.org", "to": [FROM], "subject": "Re: Hi", "text": "x".repeat(2 * 1024 * 1024) });
    let r = deliver(app, "msg_big", now(), &big).await;
    assert_eq!(r.status, 413, "{}", &r.text[..r.text.len().min(200)]);
    let r = deliver(app, "msg_bad", now(), &json!({ "subject": "no sender" })).await;
    assert_eq!(r.status, 400, "{}", r.text);

    let unconfigured = TestApp::spawn().await;
    let r = unconfigured.send(unconfigured.request(Method::POST, "/webhooks/inbound-email").body("{}")).await;
    assert_eq!(r.status, 404);
}

#[tokio::test]
async fn resend_sends_with_our_headers_and_an_inbound_event_is_fetched_matched_and_answered() {
    let resend = FakeResend::start().await;
    let builder = TestApp::builder().env("RESEND_API_KEY", "re_test_key").env("RESEND_BASE_URL", &resend.base_url);
    let agent = outreach_agent(builder, None, 0.0).await;
    let app = &agent.app;
    let id = approved(&agent, "bob@example.org").await;
    // Resend is down at first: the email stays queued and the retry sends it once.
    resend.fail_next.store(1, std::sync::atomic::Ordering::SeqCst);
    app.run_jobs().await;
    assert!(resend.sent().is_empty());
    assert_eq!(thread(&agent, &id).await["status"], "approved");
    sqlx::query!("UPDATE jobs SET run_at = now() WHERE kind = 'email_send' AND status = 'queued'")
        .execute(app.pool())
        .await
        .unwrap();
    app.run_jobs().await;
    let sent = resend.sent();
    assert_eq!(sent.len(), 1);
    let t = thread(&agent, &id).await;
    assert_eq!(t["status"], "sent");
    let message_id = t["messages"][0]["message_id"].as_str().unwrap().to_string();
    assert_eq!(sent[0]["body"]["headers"]["Message-ID"], format!("<{message_id}>"));
    assert_eq!(sent[0]["body"]["to"], json!(["bob@example.org"]));
    assert_eq!(sent[0]["body"]["from"], format!("Ada via outreach.example.com <{FROM}>"));
    assert!(sent[0]["body"]["text"].is_string() && sent[0]["body"].get("html").is_none(), "plain text only");
    assert!(sent[0]["headers"]["idempotency-key"].is_string());

    // Bob's reply arrives as an email.received event; its body is fetched from Resend.
    let long_text = format!("Happy to join.\n\n{}", "More words here. ".repeat(2 * 1024 * 1024 / 17));
    resend.receive("in-1", json!({ "from": "Bob <bob@example.org>", "to": [FROM], "subject": format!("Re: {}", t["subject"].as_str().unwrap()),
        "text": long_text, "html": null, "message_id": "<bob-1@mail.example.org>",
        "headers": { "in-reply-to": format!("<{message_id}>"), "references": format!("<{message_id}>") } }));
    let event = json!({ "type": "email.received", "created_at": "2026-11-24T10:00:00.000Z",
        "data": { "email_id": "in-1", "from": "Bob <bob@example.org>", "to": [FROM], "subject": "Re: hello", "message_id": "<bob-1@mail.example.org>", "attachments": [] } });
    // Resend fails to return it: 502, nothing recorded, so Svix's redelivery is handled.
    resend.fail_next.store(1, std::sync::atomic::Ordering::SeqCst);
    let r = deliver(app, "msg_ev_1", now(), &event).await;
    assert_eq!(r.status, 502, "{}", r.text);
    assert_eq!(thread(&agent, &id).await["messages"].as_array().unwrap().len(), 1);
    let r = deliver(app, "msg_ev_1", now(), &event).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("received")), "{}", r.text);
    app.run_jobs().await;
    let t = thread(&agent, &id).await;
    assert_eq!(t["messages"][1]["status"], "auto_replied", "{t}");
    let inbound = &t["messages"][1];
    assert_eq!(
        (inbound["message_id"].as_str(), inbound["truncated"].as_bool()),
        (Some("bob-1@mail.example.org"), Some(true))
    );
    assert_eq!(inbound["body"].as_str().unwrap().chars().count(), 100_000);
    app.run_jobs().await;
    let sent: Vec<Value> =
        resend.sent().into_iter().filter(|e| e["body"]["to"] == json!(["bob@example.org"])).collect();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1]["body"]["headers"]["In-Reply-To"], "<bob-1@mail.example.org>");
    assert_eq!(sent[1]["body"]["headers"]["References"], format!("<{message_id}> <bob-1@mail.example.org>"));

    // Other Resend events are acknowledged and ignored.
    let r = deliver(app, "msg_ev_2", now(), &json!({ "type": "email.delivered", "data": { "email_id": "x" } })).await;
    assert_eq!(r.status, 202);
}

#[tokio::test]
async fn a_reply_without_thread_headers_is_matched_by_sender_and_subject() {
    let smtp = SmtpServer::start();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 1.0).await;
    let app = &agent.app;
    let id = approved(&agent, "bob@example.org").await;
    app.run_jobs().await;
    eventually("the first email", || bob(&smtp).len() == 1).await;
    let subject = bob(&smtp)[0].header("Subject").unwrap();
    let plain = json!({ "from": "Bob <BOB@example.org>", "to": [format!("Ada <{FROM}>")], "subject": format!("RE: Fwd: {subject}"), "text": "Yes please" });
    let r = deliver(app, "msg_plain", now(), &plain).await;
    assert_eq!((r.status.as_u16(), r.json()["outreach_id"].as_str()), (200, Some(id.as_str())), "{}", r.text);
    // From someone else, or about something else: no thread.
    let stranger =
        json!({ "from": "eve@example.org", "to": [FROM], "subject": format!("Re: {subject}"), "text": "Hi" });
    assert_eq!(deliver(app, "msg_eve", now(), &stranger).await.status, 202);
    let other = json!({ "from": "bob@example.org", "to": [FROM], "subject": "Something else", "text": "Hi" });
    assert_eq!(deliver(app, "msg_other", now(), &other).await.status, 202);
}

#[tokio::test]
async fn the_tenant_sets_its_sender_identity() {
    let smtp = SmtpServer::start();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 0.8).await;
    let app = &agent.app;
    let put = |body: Value| app.as_bearer(&agent.owner.token, Method::PUT, "/v1/email/sender").json(&body);
    let r = app.send(put(json!({ "from_name": "Ada at Acme", "from_address": "Hello@Acme.example.com" }))).await;
    assert_eq!((r.status.as_u16(), r.json()["from_address"].as_str()), (200, Some("hello@acme.example.com")));
    assert_eq!(app.send(put(json!({ "from_address": "not an address" }))).await.status, 400);
    assert_eq!(
        app.send(put(json!({ "from_name": "Ada at Acme", "from_address": "hello@acme.example.com" }))).await.status,
        200
    );
    // Proven (as the link mailed to it would; `new_accounts` follows the link itself).
    sqlx::query("UPDATE tenant_email_senders SET verified_at = now()").execute(app.pool()).await.unwrap();
    approved(&agent, "bob@example.org").await;
    app.run_jobs().await;
    let to_bob = || smtp.messages().into_iter().filter(|m| m.rcpt_tos == ["bob@example.org"]).collect::<Vec<_>>();
    eventually("the email", || to_bob().len() == 1).await;
    let m = &to_bob()[0];
    assert!(m.header("From").unwrap().contains("<hello@acme.example.com>"));
    assert!(m.header("From").unwrap().contains("Ada at Acme"));
    assert!(m.header("Message-ID").unwrap().ends_with("@acme.example.com>"));
}

/// The reply is durable before the webhook answers, and so is its answer: a worker that dies
/// while the agent is answering (its lease taken, the job never finished) leaves the job to the
/// next worker once the lease runs out, and the reply is answered once.
#[tokio::test]
async fn a_reply_whose_worker_dies_mid_answer_is_still_answered_once() {
    let smtp = SmtpServer::start();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 0.0).await;
    let app = &agent.app;
    let (id, first_id, subject) = first_email_to_bob(&agent, &smtp).await;
    let reply = bob_replies(first_id.trim_matches(['<', '>']), &subject, "Which day works for you?");
    let r = deliver(app, "msg_dies", now(), &reply).await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("received")), "{}", r.text);

    // A worker leases the answer job and dies: no completion, no failure, only its lease.
    let kinds = ["outreach_answer".to_string()];
    let leased = miniclaw::jobs::queue::lease(app.pool(), "dead-worker", &kinds, 10, std::time::Duration::from_secs(1))
        .await
        .unwrap();
    let answer = leased.first().expect("the answer job was queued");
    assert_eq!(answer.agent_id.map(|a| a.to_string()), Some(agent.id.clone()));
    app.run_jobs().await;
    assert_eq!(thread(&agent, &id).await["messages"][1]["status"], "received", "the lease still holds it");
    tokio::time::sleep(std::time::Duration::from_millis(1_200)).await;
    miniclaw::jobs::queue::reclaim_expired(app.pool()).await.unwrap();
    app.run_jobs().await;

    let t = thread(&agent, &id).await;
    assert_eq!(t["messages"][1]["status"], "auto_replied", "{t}");
    eventually("the auto-reply", || bob(&smtp).len() == 2).await;
    app.run_jobs().await;
    assert_eq!(bob(&smtp).len(), 2, "answered once");
    let job: (String, i32) = sqlx::query_as("SELECT status, attempts FROM jobs WHERE id = $1")
        .bind(answer.id)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(job, ("done".to_string(), 2), "taken over by the second worker");
}

/// An approved outreach to Bob, sent: its id, and the first email's Message-ID and subject.
async fn first_email_to_bob(agent: &OwnedAgent, smtp: &SmtpServer) -> (String, String, String) {
    let id = approved(agent, "bob@example.org").await;
    agent.app.run_jobs().await;
    eventually("the first email", || bob(smtp).len() == 1).await;
    let first = &bob(smtp)[0];
    (id, first.header("Message-ID").unwrap(), first.header("Subject").unwrap())
}

#[tokio::test]
async fn the_agent_proposes_outreach_from_what_it_knows_and_waits_for_the_owner() {
    let agent = outreach_agent(TestApp::builder().admin_password("pw"), None, 0.8).await;
    let app = &agent.app;
    let run = || async {
        let job =
            app.send(app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/outreach_suggest", agent.id))).await;
        let job = job.json();
        assert_eq!(job["status"], "done", "{job}");
        job["result"].clone()
    };
    // Nothing it knows calls for an email yet; an address alone does not either.
    agent.remember("The user's email is dana@example.com", "identity").await;
    assert_eq!(run().await["proposed"], json!([]));

    // Someone the owner wants to reach, with the address: one proposal, drafted, waiting.
    let wish = agent.remember("The user wants to email Maria Lopez (maria@lopez.es) about the venue", "goal").await;
    let result = run().await;
    assert_eq!(result["proposed"].as_array().unwrap().len(), 1, "{result}");
    let list = agent.call(Method::GET, "/outreach", None).await.json();
    let t = &list[0];
    assert_eq!(
        (t["status"].as_str(), t["target_email"].as_str(), t["target_name"].as_str(), t["drafted_by"].as_str()),
        (Some("proposed"), Some("maria@lopez.es"), Some("Maria Lopez"), Some("offline")),
        "{t}"
    );
    assert_eq!(t["proposed_from"], format!("memory:{}", wish["id"].as_str().unwrap()));
    assert!(t["purpose"].as_str().unwrap().contains("about the venue"), "{t}");
    assert!(!t["subject"].as_str().unwrap().is_empty() && !t["body"].as_str().unwrap().is_empty(), "{t}");
    let notes = agent.call(Method::GET, "/notifications", None).await.json();
    let note = notes.as_array().unwrap().iter().find(|n| n["kind"] == "outreach_proposed").expect("the owner is told");
    assert!(note["body"].as_str().unwrap().contains("approve, edit or reject"), "{note}");
    // Proposed once: the next run leaves it.
    assert_eq!(run().await["proposed"], json!([]));
    assert_eq!(agent.call(Method::GET, "/outreach", None).await.json().as_array().unwrap().len(), 1);

    // An email sent six days ago with no answer: a follow-up is proposed, to the same person.
    let sent = propose(
        &agent,
        json!({ "target_email": "bob@example.org", "purpose": "hello", "subject": "The reading club", "body": "Hello Bob" }),
    )
    .await;
    let sent_id = sent.json()["id"].as_str().unwrap().to_string();
    sqlx::query("UPDATE outreach_threads SET status = 'sent', updated_at = now() - interval '6 days' WHERE id = $1")
        .bind(uuid::Uuid::parse_str(&sent_id).unwrap())
        .execute(app.pool())
        .await
        .unwrap();
    let result = run().await;
    assert_eq!(result["proposed"][0]["from"], format!("follow_up:{sent_id}"), "{result}");
    let follow_up = agent.call(Method::GET, "/outreach?status=proposed", None).await.json();
    let f = follow_up.as_array().unwrap().iter().find(|t| t["target_email"] == "bob@example.org").unwrap();
    assert!(f["purpose"].as_str().unwrap().contains("\"The reading club\""), "{f}");
    assert_eq!(run().await["proposed"], json!([]), "one follow-up per email");

    // With outreach off the agent proposes nothing.
    agent.call(Method::PATCH, "", Some(json!({ "outreach_enabled": false }))).await;
    agent.remember("The user needs to get in touch with Tom at tom@example.org", "goal").await;
    assert_eq!(run().await["skipped"], "outreach is disabled");
}
