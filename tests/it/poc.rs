//! SPEC I3–I4 over HTTP: verification records from the operator and from the signed webhook
//! (bad signature, stale timestamp, replay, unconfigured), shown on the agent; the PoC score
//! whose sub-signals add up to its dimensions and total; the daily history; reflection sees it.

use hmac::{Hmac, Mac};
use reqwest::Method;
use serde_json::{Value, json};
use sha2::Sha256;

use crate::common::{OwnedAgent, TestApp};
use crate::llm_server::{LlmServer, Script};

const SECRET: &str = "provider-shared-secret-0123456789";

/// What a provider sends: the HMAC-SHA256 of `"{timestamp}.{body}"`, computed here with the
/// `hmac` crate directly rather than with miniclaw's own signing code.
fn signed(app: &TestApp, body: &str, timestamp: i64, secret: &str) -> reqwest::RequestBuilder {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{timestamp}.{body}").as_bytes());
    let sig = format!("sha256={}", hex::encode(mac.finalize().into_bytes()));
    app.request(Method::POST, "/webhooks/verification")
        .header("content-type", "application/json")
        .header("x-miniclaw-timestamp", timestamp.to_string())
        .header("x-miniclaw-signature", sig)
        .body(body.to_string())
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

fn signal<'a>(poc: &'a Value, key: &str) -> &'a Value {
    poc["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["signals"].as_array().unwrap())
        .find(|s| s["key"] == key)
        .unwrap_or_else(|| panic!("no signal {key}"))
}

/// The response explains itself: signals add up to dimensions, dimensions to base, base to total.
fn assert_adds_up(poc: &Value) {
    let dims = poc["dimensions"].as_array().unwrap();
    assert_eq!(dims.iter().map(|d| d["weight"].as_u64().unwrap()).collect::<Vec<_>>(), [15, 20, 25, 20, 20]);
    let mut base = 0.0;
    for d in dims {
        let signals = d["signals"].as_array().unwrap();
        assert_eq!(signals.len(), 6, "{d}");
        let measured = signals.iter().filter(|s| s["status"] == "measured");
        let (points, available) =
            measured.fold((0, 0), |(p, a), s| (p + s["points"].as_u64().unwrap(), a + s["max"].as_u64().unwrap()));
        assert_eq!(d["available"].as_u64().unwrap(), available, "{}", d["key"]);
        let score = (100.0 * points as f64 / available as f64).round() as u64;
        assert_eq!(d["score"].as_u64().unwrap(), score, "{}", d["key"]);
        for s in signals {
            assert!(s["points"].as_u64().unwrap() <= s["max"].as_u64().unwrap(), "{s}");
            assert!(s["source"].as_str().is_some_and(|x| !x.is_empty()), "{s}");
            assert!(s.get("value").is_some(), "{s}");
            match s["status"].as_str().unwrap() {
                "measured" => {}
                "not available" => {
                    assert_eq!((s["points"].as_u64(), &s["value"]), (Some(0), &Value::Null), "{s}");
                    assert!(s["rule"].as_str().unwrap().starts_with("left out of the weighting: "), "{s}");
                }
                other => panic!("status {other}"),
            }
        }
        let weighted = d["score"].as_f64().unwrap() * d["weight"].as_f64().unwrap() / 100.0;
        assert!((d["weighted"].as_f64().unwrap() - weighted).abs() < 1e-9);
        base += weighted;
    }
    assert!((poc["base"].as_f64().unwrap() - base).abs() < 1e-9, "{poc}");
    let total = (base * poc["backing"]["multiplier"].as_f64().unwrap()).round().clamp(0.0, 100.0) as u64;
    assert_eq!(poc["total"].as_u64().unwrap(), total);
    let grade = match total {
        90.. => "S",
        75..=89 => "A",
        60..=74 => "B",
        40..=59 => "C",
        _ => "D",
    };
    assert_eq!(poc["grade"], grade);
}

#[tokio::test]
async fn operator_records_show_on_the_agent_and_count_for_poc_identity() {
    let a = OwnedAgent::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let app = &a.app;
    let record = |body: Value| {
        app.send(app.admin(Method::POST, &format!("/v1/admin/agents/{}/verifications", a.id)).json(&body))
    };

    let before = a.call(Method::GET, "/poc", None).await.json();
    assert_eq!(signal(&before, "verification_level")["points"], 0);
    assert_eq!(
        a.call(Method::GET, "", None).await.json()["verification"],
        json!({ "verified": false, "providers": [] })
    );

    // Refused: no evidence for a verified result, an unknown provider, a time ahead, no bearer.
    for (body, field) in [
        (json!({ "provider": "self_xyz", "status": "verified" }), "evidence_url"),
        (
            json!({ "provider": "self_xyz", "status": "verified", "evidence_url": "javascript:alert(1)" }),
            "evidence_url",
        ),
        (json!({ "provider": "talent_protocol", "status": "verified", "evidence_hash": "0xab", "score": -1 }), "score"),
        (json!({ "provider": "self_xyz", "status": "pending", "checked_at": "2999-01-01T00:00:00Z" }), "checked_at"),
        (json!({ "provider": "self_xyz", "status": "failed", "checked_at": "1999-12-31T23:59:59Z" }), "checked_at"),
    ] {
        let r = record(body).await;
        assert_eq!(r.status, 400, "{}", r.text);
        assert_eq!(r.json()["error"]["details"]["field"], field, "{}", r.text);
    }
    // Years PostgreSQL cannot store are refused before they reach it.
    for at in ["-5000-01-01T00:00:00Z", "+200000-01-01T00:00:00Z", "0001-01-01T00:00:00Z"] {
        let r = record(json!({ "provider": "self_xyz", "status": "failed", "checked_at": at })).await;
        assert_eq!(r.status, 400, "{at}: {}", r.text);
    }
    let r = record(json!({ "provider": "worldcoin", "status": "verified", "evidence_hash": "0xab" })).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.text.contains("self_xyz"), "the allowed providers are named: {}", r.text);
    let unknown = app
        .send(
            app.admin(Method::POST, "/v1/admin/agents/7f0c3a70-3b0a-4d59-a9b5-0c1f0f9f6a11/verifications")
                .json(&json!({ "provider": "self_xyz", "status": "pending" })),
        )
        .await;
    assert_eq!(unknown.status, 404);
    let anonymous = app
        .send(
            app.request(Method::POST, &format!("/v1/admin/agents/{}/verifications", a.id))
                .json(&json!({ "provider": "self_xyz", "status": "pending" })),
        )
        .await;
    assert_eq!(anonymous.status, 401);

    let r = record(json!({ "provider": "self_xyz", "status": "verified",
        "evidence_url": "https://self.xyz/proofs/123", "evidence_hash": "sha256:9f86d081" }))
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let rec = r.json();
    assert_eq!((rec["recorded_by"].as_str(), rec["status"].as_str()), (Some("operator"), Some("verified")));
    let r =
        record(json!({ "provider": "talent_protocol", "status": "verified", "evidence_hash": "0xfeed", "score": 87 }))
            .await;
    assert_eq!(r.status, 201, "{}", r.text);

    let listed = a.call(Method::GET, "/verifications", None).await.json();
    assert_eq!(listed.as_array().unwrap().len(), 2);
    assert_eq!(listed[0]["provider"], "talent_protocol", "most recently recorded first");
    assert_eq!(listed[1]["evidence_url"], "https://self.xyz/proofs/123");
    let first = a.call(Method::GET, "/verifications?limit=1", None).await;
    let next = first.headers["x-next-before"].to_str().unwrap().to_string();
    assert_eq!(
        (first.json()[0]["id"].as_str(), next.as_str()),
        (listed[0]["id"].as_str(), listed[0]["id"].as_str().unwrap())
    );
    let rest = a.call(Method::GET, &format!("/verifications?limit=1&before={next}"), None).await;
    assert_eq!(rest.json()[0]["id"], listed[1]["id"]);
    assert!(rest.headers.get("x-next-before").is_none(), "the last page");
    assert_eq!(
        a.call(Method::GET, "", None).await.json()["verification"],
        json!({ "verified": true, "providers": ["self_xyz", "talent_protocol"] })
    );
    let poc = a.call(Method::GET, "/poc", None).await.json();
    assert_adds_up(&poc);
    let level = signal(&poc, "verification_level");
    assert_eq!((level["points"].as_u64(), level["value"].as_str()), (Some(30), Some("self_xyz")));
    assert_eq!(signal(&poc, "talent_score")["points"], 8);
    let logged: Vec<(String, String)> = sqlx::query_as(
        "SELECT actor_type, details->>'provider' FROM agent_activity WHERE action = 'verification.recorded' ORDER BY id",
    )
    .fetch_all(app.pool())
    .await
    .unwrap();
    assert_eq!(logged, [("admin".into(), "self_xyz".into()), ("admin".into(), "talent_protocol".into())]);

    // A later revocation ends the Self.xyz verification: Talent Protocol's level remains.
    let r = record(json!({ "provider": "self_xyz", "status": "revoked", "note": "passport withdrawn" })).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(a.call(Method::GET, "", None).await.json()["verification"]["providers"], json!(["talent_protocol"]));
    let poc = a.call(Method::GET, "/poc", None).await.json();
    assert_eq!(signal(&poc, "verification_level")["points"], 20);
}

#[tokio::test]
async fn the_webhook_records_only_fresh_correctly_signed_deliveries() {
    let a = OwnedAgent::new(TestApp::builder().env("MINICLAW_VERIFICATION_WEBHOOK_SECRET", SECRET).spawn().await).await;
    let app = &a.app;
    let body = json!({ "agent_id": a.id, "provider": "self_xyz", "status": "verified",
        "evidence_hash": "0x5e1f", "checked_at": "2026-11-20T10:00:00Z" })
    .to_string();
    let records = || async { a.call(Method::GET, "/verifications", None).await.json().as_array().unwrap().len() };

    // A wrong secret, a changed body, a stale or future timestamp, no headers: 401, nothing recorded.
    let stale = app.send(signed(app, &body, now() - 6 * 60, SECRET)).await;
    assert_eq!(stale.status, 401, "{}", stale.text);
    assert!(stale.text.contains("5 minutes"), "{}", stale.text);
    let future = app.send(signed(app, &body, now() + 6 * 60, SECRET)).await;
    assert_eq!(future.status, 401);
    let wrong = app.send(signed(app, &body, now(), "another-secret-0123456789")).await;
    assert_eq!(wrong.status, 401);
    assert!(wrong.text.contains("does not match"), "{}", wrong.text);
    let ts = now();
    let tampered = signed(app, &body, ts, SECRET).body(body.replace("verified", "revoked"));
    assert_eq!(app.send(tampered).await.status, 401);
    let bare = app.request(Method::POST, "/webhooks/verification").header("content-type", "application/json");
    let r = app.send(bare.body(body.clone())).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (401, "unauthorized"));
    assert_eq!(records().await, 0);

    let r = app.send(signed(app, &body, ts, SECRET)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let rec = r.json();
    assert_eq!(
        (rec["recorded_by"].as_str(), rec["checked_at"].as_str()),
        (Some("webhook"), Some("2026-11-20T10:00:00Z"))
    );
    // The same delivery again (a retry or a replay within the window) is not a second record.
    let again = app.send(signed(app, &body, ts, SECRET)).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json()["id"], rec["id"]);
    assert_eq!(records().await, 1);
    assert_eq!(a.call(Method::GET, "", None).await.json()["verification"]["verified"], true);
    let actor: String =
        sqlx::query_scalar("SELECT actor_type FROM agent_activity WHERE action = 'verification.recorded'")
            .fetch_one(app.pool())
            .await
            .unwrap();
    assert_eq!(actor, "system");

    // Signed but wrong inside: an unknown agent, a bad body, a field out of range.
    let ghost =
        json!({ "agent_id": "7f0c3a70-3b0a-4d59-a9b5-0c1f0f9f6a11", "provider": "self_xyz", "status": "pending" });
    assert_eq!(app.send(signed(app, &ghost.to_string(), now(), SECRET)).await.status, 404);
    let r = app.send(signed(app, "{not json", now(), SECRET)).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (400, "invalid_json"));
    let verified_without_evidence = json!({ "agent_id": a.id, "provider": "talent_protocol", "status": "verified" });
    assert_eq!(app.send(signed(app, &verified_without_evidence.to_string(), now(), SECRET)).await.status, 400);
    assert_eq!(records().await, 1);
}

#[tokio::test]
async fn without_a_secret_the_webhook_is_not_there() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let body = json!({ "agent_id": a.id, "provider": "self_xyz", "status": "pending" }).to_string();
    let r = a.app.send(signed(&a.app, &body, now(), SECRET)).await;
    assert_eq!(r.status, 404, "{}", r.text);
    assert!(r.text.contains("MINICLAW_VERIFICATION_WEBHOOK_SECRET"), "{}", r.text);
}

#[tokio::test]
async fn the_poc_score_adds_up_and_follows_the_agent() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let poc = a.call(Method::GET, "/poc", None).await;
    assert_eq!(poc.status, 200, "{}", poc.text);
    let poc = poc.json();
    assert_adds_up(&poc);
    assert_eq!(poc["agent_id"], a.id.as_str());
    // A new agent has a name and nothing else: profile 1/4, no activity, no backing.
    assert_eq!(signal(&poc, "profile_completeness")["points"], 3);
    assert_eq!(signal(&poc, "recent_activity")["points"], 0);
    assert_eq!(
        (signal(&poc, "posts")["status"].as_str(), signal(&poc, "posts")["points"].as_u64()),
        (Some("measured"), Some(0))
    );
    for key in ["wallet", "erc8004"] {
        assert_eq!(
            (signal(&poc, key)["status"].as_str(), signal(&poc, key)["points"].as_u64()),
            (Some("measured"), Some(0))
        );
    }
    assert_eq!(
        (signal(&poc, "token_deployment")["status"].as_str(), signal(&poc, "token_deployment")["value"].clone()),
        (Some("measured"), Value::Null),
        "no token yet"
    );
    assert_eq!(signal(&poc, "liquidity_pools")["status"], "not available");
    assert_eq!(signal(&poc, "badges")["status"], "not available");
    // No wallet: nothing to fund, a measured zero. Reviews: none yet, a measured zero.
    for key in ["wallet_funding", "average_review"] {
        assert_eq!(
            (signal(&poc, key)["status"].as_str(), signal(&poc, key)["points"].as_u64()),
            (Some("measured"), Some(0)),
            "{key}"
        );
    }
    assert_eq!(poc["backing"]["multiplier"].as_f64(), Some(1.0));
    assert_eq!((poc["total"].as_u64(), poc["grade"].as_str()), (Some(0), Some("D")));

    // A persona, an avatar, a soul and a conversation today move identity and social.
    let r = a.call(Method::PATCH, "", Some(json!({ "persona": "A patient running coach", "emoji": "🏃" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = a.call(Method::PUT, "/soul", Some(json!({ "content": "I am Ada, a patient running coach." }))).await;
    assert!(r.status.is_success(), "{}", r.text);
    let r = a.call(Method::POST, "/chat", Some(json!({ "message": "Plan my week of training, please" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // An agent created 45 days ago, with a message on another day this week.
    sqlx::query("UPDATE agents SET created_at = now() - interval '45 days'").execute(a.app.pool()).await.unwrap();
    sqlx::query(
        "UPDATE chat_messages SET created_at = now() - interval '3 days'
          WHERE id = (SELECT id FROM chat_messages WHERE role = 'user' LIMIT 1)",
    )
    .execute(a.app.pool())
    .await
    .unwrap();
    let r = a.call(Method::POST, "/chat", Some(json!({ "message": "And the week after?" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let poc = a.call(Method::GET, "/poc", None).await.json();
    assert_adds_up(&poc);
    assert_eq!(signal(&poc, "profile_completeness")["points"], 15);
    assert_eq!(signal(&poc, "account_age")["value"], 45);
    assert_eq!(signal(&poc, "account_age")["points"], 5);
    assert_eq!(signal(&poc, "recent_activity")["value"], 2);
    assert_eq!(signal(&poc, "recent_activity")["points"], 7); // floor(25 × 2 / 7)
    // Identity 15 + 5 = 20 → 3.0; social 7 → 1.4: 4.4 → 4.
    assert_eq!((poc["base"].as_f64(), poc["total"].as_u64()), (Some(4.4), Some(4)));

    // An owner-held wallet listed by address earns the wallet's 15; a registration earns 20
    // once registered, nothing while pending.
    let r = a
        .call(
            Method::POST,
            "/wallet/external",
            Some(json!({ "address": "0x00000000000000000000000000000000000000aa" })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let poc = a.call(Method::GET, "/poc", None).await.json();
    assert_eq!(
        (signal(&poc, "wallet")["value"].as_str(), signal(&poc, "wallet")["points"].as_u64()),
        (Some("owner-held"), Some(15))
    );
    // With no chain configured its balance cannot be read: left out, not counted as a zero.
    assert_eq!(signal(&poc, "wallet_funding")["status"], "not available");
    assert_eq!(poc["dimensions"][2]["available"], 45);
    let id = uuid::Uuid::parse_str(&a.id).unwrap();
    sqlx::query("INSERT INTO agent_identities (agent_id, status) VALUES ($1, 'pending')")
        .bind(id)
        .execute(a.app.pool())
        .await
        .unwrap();
    let poc = a.call(Method::GET, "/poc", None).await.json();
    assert_eq!(
        (signal(&poc, "erc8004")["value"].as_str(), signal(&poc, "erc8004")["points"].as_u64()),
        (Some("pending"), Some(0))
    );
    sqlx::query("UPDATE agent_identities SET status = 'registered', erc8004_id = 7 WHERE agent_id = $1")
        .bind(id)
        .execute(a.app.pool())
        .await
        .unwrap();
    let poc = a.call(Method::GET, "/poc", None).await.json();
    assert_adds_up(&poc);
    assert_eq!(
        (signal(&poc, "erc8004")["value"].as_str(), signal(&poc, "erc8004")["points"].as_u64()),
        (Some("registered, agentId 7"), Some(20))
    );
    // Identity 15 + 5 + 15 + 20 = 55 → 8.25; social 7 → 1.4: 9.65 → 10.
    assert_eq!((poc["base"].as_f64(), poc["total"].as_u64()), (Some(9.65), Some(10)));

    // Keys: `agent:read` reads it, another scope does not; another tenant's agent is a 404.
    let (_, reader) = a.app.create_key(&a.owner, &a.id, &["agent:read"]).await;
    let r = a.app.send(a.app.as_bearer(&reader, Method::GET, &a.path("/poc"))).await;
    assert_eq!(r.status, 200);
    let (_, chatter) = a.app.create_key(&a.owner, &a.id, &["chat:write"]).await;
    let r = a.app.send(a.app.as_bearer(&chatter, Method::GET, &a.path("/poc"))).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "missing_scope"));
    let mallory = a.app.signup("mallory@example.com").await;
    for rest in ["/poc", "/poc/history", "/verifications"] {
        let r = a.app.send(a.app.as_bearer(&mallory.token, Method::GET, &a.path(rest))).await;
        assert_eq!(r.status, 404, "{rest}: {}", r.text);
        assert!(!r.text.contains("Ada"));
    }
}

#[tokio::test]
async fn the_daily_cycle_keeps_one_score_per_day() {
    let a = OwnedAgent::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let app = &a.app;
    let scheduled: i64 =
        sqlx::query_scalar("SELECT count(*) FROM job_schedules WHERE cycle = 'poc_score' AND interval_secs = 86400")
            .fetch_one(app.pool())
            .await
            .unwrap();
    assert_eq!(scheduled, 1, "every agent gets the daily cycle");
    assert_eq!(a.call(Method::GET, "/poc/history", None).await.json(), json!([]));

    let run = || app.send(app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/poc_score", a.id)));
    let job = run().await.json();
    assert_eq!(job["status"], "done", "{job}");
    a.call(Method::PATCH, "", Some(json!({ "persona": "A patient running coach" }))).await;
    let job = run().await.json();
    assert_eq!(job["status"], "done", "{job}");

    let history = a.call(Method::GET, "/poc/history", None).await.json();
    let days = history.as_array().unwrap();
    assert_eq!(days.len(), 1, "one entry per day, the later run replaces it: {history}");
    let today = chrono::Utc::now().date_naive().to_string();
    assert_eq!(days[0]["day"], today.as_str());
    let now = a.call(Method::GET, "/poc", None).await.json();
    assert_eq!(days[0]["total"], now["total"]);
    assert_eq!(days[0]["grade"], now["grade"]);
    assert_eq!(days[0]["dimensions"]["identity"], now["dimensions"][0]["score"]);
    assert_eq!(job["result"]["day"], today.as_str());

    // Yesterday's entry stays next to today's.
    sqlx::query("UPDATE poc_scores SET day = day - 1").execute(app.pool()).await.unwrap();
    run().await;
    let history = a.call(Method::GET, "/poc/history", None).await.json();
    assert_eq!(history.as_array().unwrap().len(), 2);
    assert_eq!(history[0]["day"], today.as_str(), "newest first");
    let first = a.call(Method::GET, "/poc/history?limit=1", None).await;
    assert_eq!(first.json()[0]["day"], today.as_str());
    let next = first.headers["x-next-before"].to_str().unwrap().to_string();
    assert_eq!(next, today);
    let rest = a.call(Method::GET, &format!("/poc/history?limit=1&before={next}"), None).await;
    assert_eq!(rest.json()[0]["day"], history[1]["day"]);
    assert!(rest.headers.get("x-next-before").is_none());
    for bad in ["limit=0", "limit=501", "before=yesterday"] {
        let r = a.call(Method::GET, &format!("/poc/history?{bad}"), None).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.text);
    }
}

#[tokio::test]
async fn reflection_is_given_the_latest_score() {
    let server = LlmServer::start().await;
    let a = OwnedAgent::new(
        TestApp::builder().admin_password("pw").env("OPENAI_BASE_URL", &server.base_url()).spawn().await,
    )
    .await;
    let app = &a.app;
    for i in 0..10 {
        a.remember(&format!("The user has hobby number {i}"), "interest").await;
    }
    for i in 0..5 {
        sqlx::query("INSERT INTO conversations (id, agent_id, title, channel) VALUES ($1, $2, $3, 'api')")
            .bind(uuid::Uuid::now_v7())
            .bind(a.id.parse::<uuid::Uuid>().unwrap())
            .bind(format!("talk {i}"))
            .execute(app.pool())
            .await
            .unwrap();
    }
    let job = app.send(app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/poc_score", a.id))).await.json();
    assert_eq!(job["status"], "done", "{job}");

    // The owner's mood, as the affect engine keeps it, reaches reflection too.
    sqlx::query(
        "INSERT INTO affect_states (agent_id, speaker, fast_valence, slow_valence, fast_arousal, slow_arousal, label,
                                    distress, messages, observed_at)
         VALUES ($1, 'owner', -0.6, 0.2, 0.3, 0.3, 'sad', true, 4, now())",
    )
    .bind(a.id.parse::<uuid::Uuid>().unwrap())
    .execute(app.pool())
    .await
    .unwrap();
    server.push(Script::reply(r#"{"actions":[],"calibration":{"triage_hints":["a","b"]},"clarity":60}"#));
    let n = server.requests().len();
    let r = a.call(Method::POST, "/reflection", None).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json()["status"], "applied", "{}", r.text);
    let prompt = server.requests()[n]["messages"][1]["content"].as_str().unwrap().to_string();
    let today = chrono::Utc::now().date_naive().to_string();
    assert!(
        prompt.contains(&format!(
            "\"poc_score\":{{\"day\":\"{today}\",\"dimensions\":{{\"economy\":0,\"identity\":3,\"reputation\":0,\"skills\":0,\"social\":0}},\"grade\":\"D\",\"total\":0}}"
        )),
        "{prompt}"
    );
    assert!(
        prompt.contains(
            r#"{"behaviour":null,"owner_mood":{"distress":true,"label":"sad","recent_valence":-0.6,"usual_valence":0.2}}"#
        ),
        "{prompt}"
    );
    let stored: Value =
        sqlx::query_scalar("SELECT input->'poc_score' FROM reflections").fetch_one(app.pool()).await.unwrap();
    assert_eq!(stored, json!(0));
}
