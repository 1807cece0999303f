//! Findings of the security review (issue: hardening) that are not covered next to the feature
//! they concern: each test failed before its fix.

use reqwest::Method;
use serde_json::json;

use crate::common::{Reply, TestApp};
use miniclaw::ids::{TenantId, UserId};
use miniclaw::tenancy::auth::session::SessionKeys;

/// Finding 5: a session token is only as good as the live session it names, and that session
/// must belong to the token's owner and tenant. A token naming one owner with another owner's
/// live session id is refused.
#[tokio::test]
async fn a_token_naming_another_owners_session_is_refused() {
    let app = TestApp::spawn().await;
    let ada = app.signup("ada@example.com").await;
    let eve = app.signup("eve@example.com").await;
    let sealed: Vec<u8> = sqlx::query_scalar("SELECT value FROM platform_secrets WHERE name = 'session_hmac'")
        .fetch_one(app.pool())
        .await
        .unwrap();
    // The key is sealed at rest: whoever forges needs the master key too (the test has it).
    let vault = miniclaw::secrets::Vault::from_config(&app.config).unwrap();
    let keys = SessionKeys::from_secret(&vault.open("session_hmac", &sealed).unwrap().plain);
    let eve_session: uuid::Uuid =
        sqlx::query_scalar("SELECT id FROM owner_sessions WHERE owner_id = $1::uuid AND revoked_at IS NULL")
            .bind(&eve.owner_id)
            .fetch_one(app.pool())
            .await
            .unwrap();
    let ada_session: uuid::Uuid =
        sqlx::query_scalar("SELECT id FROM owner_sessions WHERE owner_id = $1::uuid AND revoked_at IS NULL")
            .bind(&ada.owner_id)
            .fetch_one(app.pool())
            .await
            .unwrap();
    let (owner, tenant): (UserId, TenantId) = (ada.owner_id.parse().unwrap(), ada.tenant_id.parse().unwrap());
    let agent = app.create_agent(&ada, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();

    // A token for Ada's own session works (the keys above are the server's)...
    let own = keys.issue(owner, tenant, ada_session);
    let r = app.send(app.as_bearer(&own, Method::GET, &format!("/v1/hosted-agents/{agent}"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // ...one that names Eve's live session does not, on any route.
    let forged = keys.issue(owner, tenant, eve_session);
    for path in [format!("/v1/hosted-agents/{agent}"), "/v1/hosted-agents".to_string(), "/v1/activity".to_string()] {
        let r = app.send(app.as_bearer(&forged, Method::GET, &path)).await;
        assert_eq!(r.status, 401, "{path}: {}", r.text);
    }
}

/// Finding 15: when a key cannot be checked because the database is down, the answer is 503 (try
/// again), not 401 (a client would throw its valid key away).
#[tokio::test]
async fn a_key_that_cannot_be_checked_is_a_503_not_a_401() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let id = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let (_, used) = app.create_key(&owner, &id, &["agent:read"]).await;
    let r = app.send(app.as_bearer(&used, Method::GET, &format!("/v1/hosted-agents/{id}"))).await;
    assert_eq!(r.status, 200);
    // A key this process has not verified yet (one it has may be answered from its cache until
    // it notices the database is gone, and a cached agent row with it).
    let (_, key) = app.create_key(&owner, &id, &["agent:read"]).await;
    // The database refuses the server's connections (and drops the ones it has).
    let admin = sqlx::PgPool::connect("postgres://postgres@127.0.0.1:5432/postgres").await.unwrap();
    let name = &app.db.name;
    sqlx::query(&format!("ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false")).execute(&admin).await.unwrap();
    sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1")
        .bind(name)
        .execute(&admin)
        .await
        .unwrap();
    let r = app.send(app.as_bearer(&key, Method::GET, &format!("/v1/hosted-agents/{id}"))).await;
    sqlx::query(&format!("ALTER DATABASE {name} WITH ALLOW_CONNECTIONS true")).execute(&admin).await.unwrap();
    assert_eq!(r.status, 503, "{}", r.text);
    assert!(!r.text.to_lowercase().contains("connection"), "no internal detail: {}", r.text);
}

/// Finding 16: `premium_model` was accepted and ignored. A premium agent's own model now runs
/// instead of the premium route's primary model.
#[tokio::test]
async fn a_premium_agents_own_model_answers_its_chat() {
    let server = crate::llm_server::LlmServer::start().await;
    // A model of the operator's own: it may be chosen once the operator prices it.
    let app = TestApp::builder()
        .env("OPENAI_BASE_URL", &server.base_url())
        .env("MINICLAW_LLM_PRICES", r#"{"house-model-7": {"input": 1, "output": 2}}"#)
        .spawn()
        .await;
    let owner = app.signup("ada@example.com").await;
    let agent =
        app.create_agent(&owner, json!({ "name": "Ada", "tier": "premium", "premium_model": "house-model-7" })).await;
    let id = agent["id"].as_str().unwrap();
    // The streamed reply (this message is triaged by the rules, not a model).
    server.push(crate::llm_server::Script::Stream { pieces: vec!["The sea.".into()], usage: None, complete: true });
    let r = app
        .send(
            app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{id}/chat"))
                .json(&json!({ "message": "Write me a long and thoughtful essay about the sea, please" })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let models: Vec<String> =
        server.requests().iter().map(|q| q["model"].as_str().unwrap_or_default().to_string()).collect();
    assert_eq!(models, ["house-model-7"]);
}

/// Finding 16: `active: false` was accepted and ignored. A paused agent takes no chat turns
/// (409, nothing stored) and its cycles are skipped, not failed.
#[tokio::test]
async fn a_paused_agent_neither_chats_nor_runs_cycles() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let id =
        app.create_agent(&owner, json!({ "name": "Ada", "active": false })).await["id"].as_str().unwrap().to_string();
    let r = app
        .send(
            app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{id}/chat"))
                .json(&json!({ "message": "Hello there" })),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM chat_messages").fetch_one(app.pool()).await.unwrap();
    assert_eq!(stored, 0);

    let agent: miniclaw::ids::AgentId = id.parse().unwrap();
    let job = miniclaw::jobs::queue::enqueue(app.pool(), miniclaw::jobs::NewJob::new("reflection").agent(agent))
        .await
        .unwrap();
    app.run_jobs().await;
    let done = miniclaw::jobs::queue::get(app.pool(), job.id).await.unwrap().unwrap();
    assert_eq!(done.status, "done");
    assert_eq!(done.result.as_ref().unwrap()["reason"], "agent_inactive", "{:?}", done.result);

    let r = app
        .send(
            app.as_bearer(&owner.token, Method::PATCH, &format!("/v1/hosted-agents/{id}"))
                .json(&json!({ "active": true })),
        )
        .await;
    assert_eq!(r.status, 200);
    let r = app
        .send(
            app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{id}/chat"))
                .json(&json!({ "message": "Hello there" })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

async fn login(app: &TestApp, email: &str, password: &str) -> crate::common::Reply {
    app.send(app.request(Method::POST, "/v1/auth/login").json(&json!({ "email": email, "password": password }))).await
}

/// Finding 9: 80 bad passwords for one account in a row all got 401. After five failures an
/// account waits before its next attempt (doubling), whatever the password, and a success clears it.
#[tokio::test]
async fn failed_sign_ins_make_the_account_wait_longer_each_time() {
    let app = TestApp::spawn().await;
    app.signup("ada@example.com").await;
    for _ in 0..5 {
        assert_eq!(login(&app, "ada@example.com", "wrong password!").await.status, 401);
    }
    let r = login(&app, "ADA@example.com ", "wrong password!").await;
    assert_eq!(r.status, 429, "{}", r.text);
    assert_eq!(r.headers["retry-after"], "1");
    let r = login(&app, "ada@example.com", "correct horse battery").await;
    assert_eq!(r.status, 429, "the right password waits too");
    // An unknown email is throttled the same way: the throttle does not tell which emails exist.
    for _ in 0..5 {
        assert_eq!(login(&app, "nobody@example.com", "whatever it is").await.status, 401);
    }
    assert_eq!(login(&app, "nobody@example.com", "whatever it is").await.status, 429);
    // Once the wait is over the right password works and the count starts again.
    sqlx::query("UPDATE login_failures SET locked_until = now() - interval '1 second'")
        .execute(app.pool())
        .await
        .unwrap();
    assert_eq!(login(&app, "ada@example.com", "correct horse battery").await.status, 200);
    assert_eq!(login(&app, "ada@example.com", "wrong password!").await.status, 401);
    assert_eq!(miniclaw::tenancy::accounts::lock_secs(5), 1);
    assert_eq!(miniclaw::tenancy::accounts::lock_secs(8), 8);
    assert_eq!(miniclaw::tenancy::accounts::lock_secs(60), miniclaw::tenancy::accounts::MAX_LOCK_SECS);
}

/// Finding 8: parallel sign-ins from one address queued unbounded password hashing (19 MiB
/// each) on the blocking pool. Now at most one runs per core; the rest wait briefly, then get
/// 429 with Retry-After, and the health check answers all along.
#[tokio::test]
async fn a_flood_of_sign_ins_is_bounded_and_health_stays_up() {
    let app = TestApp::builder().env("MINICLAW_RATE_LIMIT_IP", "0").spawn().await;
    let attempts = (0..48).map(|i| {
        let app = &app;
        async move { login(app, &format!("flood{i}@example.com"), "not the password").await }
    });
    let health = async {
        let mut statuses = Vec::new();
        for _ in 0..5 {
            statuses.push(app.get("/healthz").await.status);
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        statuses
    };
    let (replies, health) = tokio::join!(futures::future::join_all(attempts), health);
    assert!(health.iter().all(|s| *s == 200), "{health:?}");
    for r in &replies {
        assert!(r.status == 401 || r.status == 429, "{} {}", r.status, r.text);
        if r.status == 429 {
            assert!(r.headers.contains_key("retry-after"));
        }
    }
}

/// Finding 9: behind a proxy every client shared the proxy's bucket, and anyone could pick a
/// bucket with `X-Forwarded-For`. The header counts only from `MINICLAW_TRUSTED_PROXIES`.
#[tokio::test]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    async fn limited(app: &TestApp, forwarded: &str, n: usize) -> usize {
        let mut limited = 0;
        for _ in 0..n {
            let r = app.send(app.request(Method::GET, "/v1/hosted-agents").header("x-forwarded-for", forwarded)).await;
            limited += usize::from(r.status == 429);
        }
        limited
    }
    // 60 a minute: a burst of 16, then 429.
    let direct = TestApp::builder().env("MINICLAW_RATE_LIMIT_IP", "60").spawn().await;
    assert!(limited(&direct, "203.0.113.1", 20).await > 0);
    assert!(limited(&direct, "203.0.113.2", 1).await == 1, "a forged header does not buy a new bucket");

    let proxied = TestApp::builder()
        .env("MINICLAW_RATE_LIMIT_IP", "60")
        .env("MINICLAW_TRUSTED_PROXIES", "127.0.0.1")
        .spawn()
        .await;
    assert!(limited(&proxied, "203.0.113.1", 20).await > 0);
    assert_eq!(limited(&proxied, "203.0.113.2", 5).await, 0, "another client behind the proxy has its own bucket");
    assert_eq!(limited(&proxied, "2001:db8:5:6::1", 16).await, 0);
    assert!(limited(&proxied, "2001:db8:5:6::99", 4).await > 0, "the same IPv6 /64 shares one bucket");
}

/// Finding 15: a reply whose process died while writing it stayed `streaming` forever. The
/// sweep ends it (and its question) as failed; regenerating then answers.
#[tokio::test]
async fn replies_interrupted_by_a_crash_are_swept_to_failed_and_can_be_regenerated() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let id = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let r = app
        .send(
            app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{id}/chat"))
                .json(&json!({ "message": "Tell me about the sea" })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let conversation = r.json()["conversation_id"].as_str().unwrap().to_string();
    // As a process killed mid-stream leaves them.
    sqlx::query(
        "UPDATE chat_messages SET status = CASE role WHEN 'user' THEN 'pending' ELSE 'streaming' END,
                updated_at = now() - interval '10 minutes'",
    )
    .execute(app.pool())
    .await
    .unwrap();
    assert_eq!(miniclaw::chat::stream::sweep_interrupted(app.pool()).await.unwrap(), 1);
    assert_eq!(miniclaw::chat::stream::sweep_interrupted(app.pool()).await.unwrap(), 0);
    let path = format!("/v1/hosted-agents/{id}/conversations/{conversation}/messages");
    let msgs = app.send(app.as_bearer(&owner.token, Method::GET, &path)).await.json();
    let statuses: Vec<&str> = msgs.as_array().unwrap().iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["error", "error"]);
    let question = msgs[0]["id"].as_str().unwrap();
    let r = app.send(app.as_bearer(&owner.token, Method::POST, &format!("{path}/{question}/regenerate"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
}

/// Finding 14: every response, page or API, error or not, refuses to be framed by another site
/// and to be content-sniffed.
#[tokio::test]
async fn every_response_refuses_framing_and_sniffing() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let mut replies = Vec::new();
    for path in ["/login", "/agents", "/healthz", "/openapi.json", "/docs", "/static/app.css", "/v1/me", "/nowhere"] {
        replies.push((path.to_string(), app.send(client.get(app.url(path))).await));
    }
    replies.push(("/agents (signed in)".into(), app.send(app.as_bearer(&owner.token, Method::GET, "/agents")).await));
    replies.push((
        "POST /v1/auth/login (401)".into(),
        app.send(
            app.request(Method::POST, "/v1/auth/login")
                .json(&json!({ "email": "x@example.com", "password": "nope nope" })),
        )
        .await,
    ));
    for (what, r) in replies {
        assert_eq!(r.headers.get("x-frame-options").map(|v| v.to_str().unwrap()), Some("DENY"), "{what}");
        assert_eq!(r.headers.get("x-content-type-options").map(|v| v.to_str().unwrap()), Some("nosniff"), "{what}");
        let csp = r.headers.get("content-security-policy").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp:?}");
    }
}

fn no_store(r: &Reply) -> bool {
    r.headers.get("cache-control").is_some_and(|v| v.to_str().unwrap().contains("no-store"))
}

fn cookies(r: &Reply) -> Vec<String> {
    r.headers.get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_string()).collect()
}

/// Finding 14: responses that carry credentials (sessions, refresh tokens, API keys, the
/// sign-in forms' CSRF cookie) are never stored by a browser or proxy cache.
#[tokio::test]
async fn credentials_are_never_cached() {
    let app = TestApp::spawn().await;
    let body = json!({ "email": "ada@example.com", "password": "correct horse battery" });
    let signup = app.send(app.request(Method::POST, "/v1/auth/signup").json(&body)).await;
    assert_eq!(signup.status, 201);
    let login = app.send(app.request(Method::POST, "/v1/auth/login").json(&body)).await;
    let refresh_token = login.json()["refresh_token"].as_str().unwrap().to_string();
    let token = login.json()["session_token"].as_str().unwrap().to_string();
    let refresh =
        app.send(app.request(Method::POST, "/v1/auth/refresh").json(&json!({ "refresh_token": refresh_token }))).await;
    assert_eq!(refresh.status, 200);
    let agent =
        app.send(app.as_bearer(&token, Method::POST, "/v1/hosted-agents").json(&json!({ "name": "Ada" }))).await;
    let keys = format!("/v1/hosted-agents/{}/api-keys", agent.json()["id"].as_str().unwrap());
    let key = app
        .send(app.as_bearer(&token, Method::POST, &keys).json(&json!({ "name": "k", "scopes": ["agent:read"] })))
        .await;
    assert_eq!(key.status, 201, "{}", key.text);
    let login_page = app.get("/login").await;
    let signup_page = app.get("/signup").await;
    let logout = app.send(app.as_bearer(&token, Method::POST, "/v1/auth/logout")).await;
    assert_eq!(logout.status, 204);
    for (what, r) in [
        ("signup", &signup),
        ("login", &login),
        ("refresh", &refresh),
        ("api key", &key),
        ("login page", &login_page),
        ("signup page", &signup_page),
        ("logout", &logout),
    ] {
        assert!(no_store(r), "{what}: {:?}", r.headers);
    }
}

/// Finding 14: with an `https://` public URL every cookie is `Secure` without further settings.
#[tokio::test]
async fn cookies_are_secure_when_the_public_url_is_https() {
    let app = TestApp::builder().env("MINICLAW_PUBLIC_URL", "https://miniclaw.example").spawn().await;
    let signup = app
        .send(
            app.request(Method::POST, "/v1/auth/signup")
                .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" })),
        )
        .await;
    assert_eq!(signup.status, 201, "{}", signup.text);
    let token = signup.json()["session_token"].as_str().unwrap().to_string();
    let login_page = app.get("/login").await;
    let logout = app.send(app.as_bearer(&token, Method::POST, "/v1/auth/logout")).await;
    let all: Vec<String> = [&signup, &login_page, &logout].into_iter().flat_map(cookies).collect();
    assert!(all.len() >= 5, "{all:?}");
    for c in &all {
        assert!(c.contains("; Secure"), "{c}");
    }
    // Plain http: not Secure (browsers would drop them).
    let app = TestApp::spawn().await;
    let signup = app
        .send(
            app.request(Method::POST, "/v1/auth/signup")
                .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" })),
        )
        .await;
    assert!(cookies(&signup).iter().all(|c| !c.contains("Secure")), "{:?}", cookies(&signup));
}

/// Finding 14: `?notice=` shows only notices the dashboard itself sends (codes); any other
/// text in a link is not shown.
#[tokio::test]
async fn notices_are_codes_not_text_from_the_link() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let page = |path: String| {
        let app = &app;
        let token = owner.token.clone();
        async move { app.send(app.as_bearer(&token, Method::GET, &path)).await }
    };
    for tab in ["memories", "mind"] {
        let r = page(format!("/agents/{agent}/{tab}?notice=Your+account+is+locked.+Call+555-0100")).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert!(!r.text.contains("Your account is locked"), "{tab} shows the link's text");
    }
    let r = page(format!("/agents/{agent}/memories?notice=stored:3")).await;
    assert!(r.text.contains("Stored as 3 chunk(s)."), "{}", r.text);
    let r = page(format!("/agents/{agent}/mind?notice=compiled:12:340")).await;
    assert!(r.text.contains("Dossier compiled from 12 memories (340 words)."), "{}", r.text);
}

/// Finding 14: an API request that changes something and is authenticated only by the session
/// cookie (which a browser attaches by itself, also to a request another site makes) needs
/// `X-Requested-With` or the session's `X-CSRF-Token`. Bearer requests and reads need neither.
#[tokio::test]
async fn cookie_authenticated_api_writes_need_a_custom_header() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let x = uuid::Uuid::now_v7();
    let cookie = format!("mc_session={}", owner.token);
    let routes: Vec<(Method, String, Option<serde_json::Value>)> = vec![
        (Method::POST, "/v1/auth/logout".into(), None),
        (Method::POST, "/v1/hosted-agents".into(), Some(json!({ "name": "Eve's" }))),
        (Method::PATCH, format!("/v1/hosted-agents/{agent}"), Some(json!({ "name": "Eve's" }))),
        (Method::DELETE, format!("/v1/hosted-agents/{agent}"), None),
        (Method::POST, format!("/v1/hosted-agents/{agent}/api-keys"), Some(json!({ "name": "k", "scopes": ["*"] }))),
        (Method::DELETE, format!("/v1/hosted-agents/{agent}/api-keys/{x}"), None),
        (Method::POST, format!("/v1/hosted-agents/{agent}/chat"), Some(json!({ "message": "hi" }))),
        (Method::DELETE, format!("/v1/hosted-agents/{agent}/conversations/{x}"), None),
        (Method::POST, format!("/v1/hosted-agents/{agent}/conversations/{x}/messages/{x}/regenerate"), None),
        (Method::POST, format!("/v1/hosted-agents/{agent}/dossier/compile"), None),
        (Method::POST, format!("/v1/hosted-agents/{agent}/reflection"), None),
        (
            Method::POST,
            format!("/v1/hosted-agents/{agent}/memories"),
            Some(json!({ "content": "x", "category": "fact" })),
        ),
        (Method::DELETE, format!("/v1/hosted-agents/{agent}/memories/{x}"), None),
        (Method::POST, format!("/v1/hosted-agents/{agent}/knowledge"), Some(json!({ "text": "x" }))),
        (Method::PUT, format!("/v1/hosted-agents/{agent}/soul"), Some(json!({ "content": "x" }))),
        (
            Method::POST,
            "/v1/chat/completions".into(),
            Some(json!({ "model": agent, "messages": [{ "role": "user", "content": "hi" }] })),
        ),
    ];
    for (method, path, body) in &routes {
        for extra in [None, Some(("x-csrf-token", "0".repeat(32)))] {
            let mut req = app.request(method.clone(), path).header("cookie", &cookie);
            if let Some(b) = body {
                req = req.json(b);
            }
            if let Some((name, value)) = &extra {
                req = req.header(*name, value);
            }
            let r = app.send(req).await;
            assert_eq!(r.status, 403, "{method} {path} {extra:?}: {}", r.text);
            assert_eq!(r.error_code(), "csrf_header_required", "{method} {path}");
        }
    }
    // Nothing happened: the agent is still there, under its name, and the session still works.
    let r = app.send(app.request(Method::GET, &format!("/v1/hosted-agents/{agent}")).header("cookie", &cookie)).await;
    assert_eq!(r.status, 200, "reads need no header: {}", r.text);
    assert_eq!(r.json()["name"], "Ada");

    // With the header (as the dashboard's script sends it), or the session's CSRF token, or a
    // bearer token, the same requests go through.
    let r = app
        .send(
            app.request(Method::POST, &format!("/v1/hosted-agents/{agent}/memories"))
                .header("cookie", &cookie)
                .header("x-requested-with", "miniclaw")
                .json(&json!({ "content": "The user likes jazz", "category": "preference" })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let r = app
        .send(
            app.as_bearer(&owner.token, Method::POST, &format!("/v1/hosted-agents/{agent}/memories"))
                .json(&json!({ "content": "The user lives in Vienna", "category": "fact" })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let agents_page = app.send(app.as_bearer(&owner.token, Method::GET, "/agents")).await;
    let (_, rest) = agents_page.text.split_once(r#"name="csrf" value=""#).unwrap();
    let csrf = rest.split('"').next().unwrap();
    let r = app
        .send(app.request(Method::POST, "/v1/auth/logout").header("cookie", &cookie).header("x-csrf-token", csrf))
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
}

/// Finding 6: unlimited agents per account and no default budget. A tenant has at most
/// `MINICLAW_AGENTS_PER_TENANT` agents (deleted ones awaiting their purge count) and starts with
/// `MINICLAW_TENANT_MONTHLY_USD` of monthly model budget.
#[tokio::test]
async fn accounts_start_with_a_budget_and_a_bounded_number_of_agents() {
    let app = TestApp::builder().env("MINICLAW_AGENTS_PER_TENANT", "2").spawn().await;
    let owner = app.signup("ada@example.com").await;
    let budget: Option<f64> = sqlx::query_scalar("SELECT monthly_budget_usd FROM tenants WHERE id = $1::uuid")
        .bind(&owner.tenant_id)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(budget, Some(20.0));
    let first = app.create_agent(&owner, json!({ "name": "One" })).await["id"].as_str().unwrap().to_string();
    app.create_agent(&owner, json!({ "name": "Two" })).await;
    let create =
        || app.send(app.as_bearer(&owner.token, Method::POST, "/v1/hosted-agents").json(&json!({ "name": "Three" })));
    let r = create().await;
    assert_eq!(r.status, 409, "{}", r.text);
    let r = app.send(app.as_bearer(&owner.token, Method::DELETE, &format!("/v1/hosted-agents/{first}"))).await;
    assert_eq!(r.status, 204);
    assert_eq!(create().await.status, 409, "a deleted agent counts until it is purged");
    miniclaw::tenancy::agents::purge_deleted(app.pool(), 0).await.unwrap();
    assert_eq!(create().await.status, 201);

    let unlimited = TestApp::builder().env("MINICLAW_TENANT_MONTHLY_USD", "0").spawn().await;
    let owner = unlimited.signup("bob@example.com").await;
    let budget: Option<f64> = sqlx::query_scalar("SELECT monthly_budget_usd FROM tenants WHERE id = $1::uuid")
        .bind(&owner.tenant_id)
        .fetch_one(unlimited.pool())
        .await
        .unwrap();
    assert_eq!(budget, None);
}

/// Finding 15: two first sign-ins with the same new wallet at once gave a 500 (the second
/// account insert met the unique address). The loser now signs in to the account the winner made.
#[tokio::test]
async fn concurrent_first_wallet_sign_ins_end_in_one_account() {
    let app = TestApp::spawn().await;
    let key = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
    let address = crate::common::external_sign(&["evm-address", key], "");
    let mut bodies = Vec::new();
    for _ in 0..4 {
        let ch = app
            .send(app.request(Method::POST, "/v1/auth/wallet/challenge").json(&json!({ "address": address })))
            .await
            .json();
        let sig = crate::common::external_sign(&["evm-sign", key], ch["message"].as_str().unwrap());
        bodies.push(json!({ "nonce": ch["nonce"], "signature": sig }));
    }
    let logins = bodies.iter().map(|b| app.send(app.request(Method::POST, "/v1/auth/wallet/login").json(b)));
    let replies = futures::future::join_all(logins).await;
    let statuses: Vec<u16> = replies.iter().map(|r| r.status.as_u16()).collect();
    assert!(statuses.iter().all(|s| *s == 200 || *s == 201), "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 1, "{statuses:?}");
    let tenants: std::collections::HashSet<String> =
        replies.iter().map(|r| r.json()["tenant"]["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(tenants.len(), 1);
}

/// Issue 60 (T2): the owner's settings are the owner's, whatever scopes a key holds. A key with
/// `identity:write` could re-point the on-chain identity at a domain of its holder's, and one
/// with `memories:write` could mark memories shareable (then digested into the public feed).
#[tokio::test]
async fn a_key_cannot_set_the_owners_settings() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let (_, key) = app.create_key(&owner, &agent, &["*"]).await;
    let as_key = |method: Method, rest: &str| app.as_bearer(&key, method, &format!("/v1/hosted-agents/{agent}{rest}"));
    let owned = |r: Reply| {
        assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "owner_only"), "{}", r.text);
    };
    owned(app.send(as_key(Method::PATCH, "/identity").json(&json!({ "domain": "mallory.example" }))).await);
    let r = app.send(as_key(Method::PATCH, "/identity").json(&json!({ "description": "A helpful agent" }))).await;
    assert_eq!(r.status, 200, "the rest of the profile stays the key's: {}", r.text);
    let memory = app
        .send(as_key(Method::POST, "/memories").json(&json!({ "content": "Ada likes tea", "category": "preference" })))
        .await
        .json();
    let path = format!("/memories/{}", memory["id"].as_str().unwrap());
    owned(app.send(as_key(Method::PATCH, &path).json(&json!({ "shareable": true }))).await);
    let mine = app.as_bearer(&owner.token, Method::PATCH, &format!("/v1/hosted-agents/{agent}{path}"));
    let r = app.send(mine.json(&json!({ "shareable": true }))).await;
    assert_eq!((r.status.as_u16(), r.json()["shareable"].as_bool()), (200, Some(true)), "{}", r.text);
}

/// Issue 60: a paused agent's keys moved its value. Paused, the agent tips and gifts nothing
/// (409), while its owner may still give it credits; turned back on, it tips again.
#[tokio::test]
async fn a_paused_agent_moves_no_value() {
    let app = TestApp::spawn().await;
    let owner = app.signup("ada@example.com").await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    let (_, key) = app.create_key(&owner, &agent, &["economy:write"]).await;
    let tips = format!("/v1/hosted-agents/{agent}/tips");
    let fund = json!({ "from": "owner", "amount": "20", "idempotency_key": "fund" });
    let r = app.send(app.as_bearer(&owner.token, Method::POST, &tips).json(&fund)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let settings = format!("/v1/hosted-agents/{agent}");
    let pause = |active: bool| app.as_bearer(&owner.token, Method::PATCH, &settings).json(&json!({ "active": active }));
    assert_eq!(app.send(pause(false)).await.status, 200);
    let gift = |k: &str| json!({ "from": "agent", "amount": "5", "idempotency_key": k });
    let r = app.send(app.as_bearer(&key, Method::POST, &tips).json(&gift("g-1"))).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("paused"), "{}", r.text);
    let more = json!({ "from": "owner", "amount": "1", "idempotency_key": "fund-2" });
    assert_eq!(app.send(app.as_bearer(&owner.token, Method::POST, &tips).json(&more)).await.status, 201);
    assert_eq!(app.send(pause(true)).await.status, 200);
    let r = app.send(app.as_bearer(&key, Method::POST, &tips).json(&gift("g-2"))).await;
    assert_eq!(r.status, 201, "{}", r.text);
}
