//! Hardening (42, items 6, 7 and 11) over HTTP: a signup address and a sender address are
//! proven by a mailed link before mail goes to or from them, accounts and the platform have
//! daily send caps, an agent's domain is its own only once a TXT record proves it (a real DNS
//! server on loopback), and new accounts spend within their own allowance and, together,
//! within a share of the global cap that leaves the rest to established accounts.

use miniclaw::channels::notifications::{Kind, notify};
use miniclaw::ids::AgentId;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent, Session, TestApp};
use crate::email_support::{DnsServer, Received, SmtpServer, eventually};
use crate::llm_server::{LlmServer, Script};
use crate::outreach::{approved, outreach_agent};

/// The token of the link in a verification email.
fn token_in(mail: &Received) -> String {
    let body = mail.body_text();
    let (_, rest) = body.split_once("/verify-email?token=").unwrap_or_else(|| panic!("a link: {body}"));
    rest.chars().take_while(char::is_ascii_hexdigit).collect()
}

fn to(smtp: &SmtpServer, address: &str) -> Vec<Received> {
    smtp.messages().into_iter().filter(|m| m.rcpt_tos == [address]).collect()
}

async fn me(app: &TestApp, owner: &Session) -> Value {
    let r = app.send(app.as_bearer(&owner.token, Method::GET, "/v1/me")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

#[tokio::test]
async fn a_signup_address_gets_mail_only_once_its_link_is_followed() {
    let smtp = SmtpServer::start();
    let app =
        TestApp::builder().env("SMTP_URL", &smtp.url()).env("MINICLAW_EMAIL_FROM", "agents@claw.example").spawn().await;
    let agent = OwnedAgent::new(app).await;
    let app = &agent.app;
    assert_eq!(me(app, &agent.owner).await["email_verified"], false);
    app.run_jobs().await;
    eventually("the signup's link", || to(&smtp, "ada@example.com").len() == 1).await;
    let link = to(&smtp, "ada@example.com").remove(0);
    assert_eq!(link.header("Subject").as_deref(), Some("Confirm your email address"));
    assert!(link.header("From").unwrap().contains("<agents@claw.example>"), "{}", link.raw);

    // An urgent notification reaches the dashboard, not the unproven address.
    let id = AgentId(agent.id.parse().unwrap());
    let mut conn = app.pool().acquire().await.unwrap();
    notify(&mut conn, id, Kind::EmailFailed, "An email bounced", "details", None).await.unwrap();
    drop(conn);
    app.run_jobs().await;
    let listed = agent.call(Method::GET, "/notifications", None).await.json();
    let channels = &listed[0]["channels"];
    assert_eq!(channels["email"]["reason"], "the owner has no verified email address", "{listed}");
    assert_eq!(to(&smtp, "ada@example.com").len(), 1, "only the link went to the address");

    // A wrong or malformed token proves nothing; the mailed one does, once.
    let verify = |token: &str| app.request(Method::POST, "/v1/auth/verify-email").json(&json!({ "token": token }));
    for bad in ["0".repeat(64), "not a token".into(), String::new()] {
        let r = app.send(verify(&bad)).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.text);
    }
    let token = token_in(&link);
    let r = app.send(verify(&token)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (r.json()["purpose"].as_str(), r.json()["address"].as_str()),
        (Some("owner_email"), Some("ada@example.com"))
    );
    assert_eq!(app.send(verify(&token)).await.status, 400, "a link works once");
    assert_eq!(me(app, &agent.owner).await["email_verified"], true);
    let again = app.send(app.as_bearer(&agent.owner.token, Method::POST, "/v1/auth/verify-email/send")).await;
    assert_eq!(again.status, 409, "{}", again.text);

    // Now notifications are mailed to it.
    let mut conn = app.pool().acquire().await.unwrap();
    notify(&mut conn, id, Kind::EmailFailed, "Another bounce", "details", None).await.unwrap();
    drop(conn);
    app.run_jobs().await;
    eventually("the notification", || to(&smtp, "ada@example.com").len() == 2).await;

    // The dashboard's page confirms with a POST (a mail scanner fetching the link proves
    // nothing); a second signup's link is asked for again once a minute at most.
    let bob = app.signup("bob@example.com").await;
    let page = app.send(app.request(Method::GET, "/verify-email?token=abc")).await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains(r#"action="/verify-email""#) && page.text.contains("abc"), "{}", page.text);
    let resend = app.send(app.as_bearer(&bob.token, Method::POST, "/v1/auth/verify-email/send")).await;
    assert_eq!(resend.status, 429, "a link went out at signup: {}", resend.text);
}

#[tokio::test]
async fn an_address_signed_up_with_and_never_proven_is_freed_once_its_link_expired() {
    let smtp = SmtpServer::start();
    let app =
        TestApp::builder().env("SMTP_URL", &smtp.url()).env("MINICLAW_EMAIL_FROM", "agents@claw.example").spawn().await;
    let signup = |password: &str| {
        app.request(Method::POST, "/v1/auth/signup").json(&json!({ "email": "Bob@Example.com", "password": password }))
    };
    let login = |password: &str| {
        app.request(Method::POST, "/v1/auth/login").json(&json!({ "email": "bob@example.com", "password": password }))
    };
    // Mallory signs up with Bob's address and never proves it: while the link is alive, the
    // address is taken.
    let r = app.send(signup("mallory's password")).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let mallory = r.json()["session_token"].as_str().unwrap().to_string();
    let mallory_tenant = r.json()["tenant"]["id"].as_str().unwrap().to_string();
    let r = app.send(signup("bob's own password")).await;
    assert_eq!(r.status, 409, "{}", r.text);

    // Two days on, the link expired unused: Bob's signup takes the address. Mallory's account
    // keeps what it holds but no longer signs in with it, and its activity says why.
    let aged = "UPDATE owners SET created_at = now() - interval '49 hours' WHERE tenant_id = $1::uuid";
    sqlx::query(aged).bind(&mallory_tenant).execute(app.pool()).await.unwrap();
    let r = app.send(signup("bob's own password")).await;
    assert_eq!(r.status, 409, "a link still valid keeps the address: {}", r.text);
    sqlx::query("UPDATE email_verifications SET expires_at = now() - interval '1 hour' WHERE tenant_id = $1::uuid")
        .bind(&mallory_tenant)
        .execute(app.pool())
        .await
        .unwrap();
    let r = app.send(signup("bob's own password")).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(app.send(login("mallory's password")).await.status, 401);
    assert_eq!(app.send(login("bob's own password")).await.status, 200);
    let me = app.send(app.as_bearer(&mallory, Method::GET, "/v1/me")).await;
    assert_eq!(me.status, 401, "the earlier account's sessions ended: {}", me.text);
    let released: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM tenant_activity WHERE tenant_id = $1::uuid AND action = 'owner.email_released'",
    )
    .bind(&mallory_tenant)
    .fetch_one(app.pool())
    .await
    .unwrap();
    assert_eq!(released, 1, "its activity says why");
    let tenants: i64 = sqlx::query_scalar("SELECT count(*) FROM tenants WHERE id = $1::uuid")
        .bind(&mallory_tenant)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(tenants, 1, "nothing of the earlier account is deleted");

    // A proven address is never taken, however old.
    app.run_jobs().await;
    // Mallory's expired link is never mailed; Bob's is, and proves the address.
    eventually("Bob's link", || to(&smtp, "Bob@Example.com").len() == 1).await;
    let link = to(&smtp, "Bob@Example.com").remove(0);
    let verify = app.request(Method::POST, "/v1/auth/verify-email").json(&json!({ "token": token_in(&link) }));
    assert_eq!(app.send(verify).await.status, 200);
    sqlx::query("UPDATE owners SET created_at = now() - interval '30 days' WHERE email IS NOT NULL")
        .execute(app.pool())
        .await
        .unwrap();
    sqlx::query("UPDATE email_verifications SET expires_at = now() - interval '1 hour'")
        .execute(app.pool())
        .await
        .unwrap();
    assert_eq!(app.send(signup("a third password")).await.status, 409);
}

#[tokio::test]
async fn without_mail_an_unproven_address_stays_with_its_account() {
    let app = TestApp::spawn().await;
    app.signup("carol@example.com").await;
    sqlx::query("UPDATE owners SET created_at = now() - interval '30 days'").execute(app.pool()).await.unwrap();
    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/signup")
                .json(&json!({ "email": "carol@example.com", "password": "another password" })),
        )
        .await;
    assert_eq!(r.status, 409, "no link can ever prove it, so the account keeps it: {}", r.text);
}

#[tokio::test]
async fn a_sender_address_is_the_from_only_once_proven_and_never_the_platforms_domain() {
    let smtp = SmtpServer::start();
    let agent = outreach_agent(TestApp::builder(), Some(&smtp), 0.8).await;
    let app = &agent.app;
    let put = |body: Value| app.as_bearer(&agent.owner.token, Method::PUT, "/v1/email/sender").json(&body);
    for own in ["ada@outreach.example.com", "ada@mail.outreach.example.com", "ADA@Outreach.Example.com"] {
        let r = app.send(put(json!({ "from_address": own }))).await;
        assert_eq!((r.status.as_u16(), r.error_code().as_str()), (422, "platform_domain"), "{own}: {}", r.text);
    }
    let r = app.send(put(json!({ "from_name": "Ada at Acme", "from_address": "hello@acme.example" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (r.json()["from_address"].as_str(), r.json()["verified"].as_bool()),
        (Some("hello@acme.example"), Some(false))
    );

    // Unproven: from the platform's address under the account's name, replies to the asked one.
    approved(&agent, "bob@example.org").await;
    app.run_jobs().await;
    eventually("the link and the email", || smtp.messages().len() == 2).await;
    let bob = to(&smtp, "bob@example.org").remove(0);
    let from = bob.header("From").unwrap();
    assert!(
        from.contains("Ada at Acme via outreach.example.com") && from.contains("<agents@outreach.example.com>"),
        "{}",
        bob.raw
    );
    assert_eq!(bob.header("Reply-To").as_deref(), Some("hello@acme.example"), "{}", bob.raw);

    // Proven by the link mailed to it: the From from then on.
    let link = to(&smtp, "hello@acme.example").remove(0);
    assert_eq!(link.header("Subject").as_deref(), Some("Confirm this sender address"));
    let r =
        app.send(app.request(Method::POST, "/v1/auth/verify-email").json(&json!({ "token": token_in(&link) }))).await;
    assert_eq!((r.status.as_u16(), r.json()["purpose"].as_str()), (200, Some("sender")), "{}", r.text);
    let view = app.send(app.as_bearer(&agent.owner.token, Method::GET, "/v1/email/sender")).await.json();
    assert_eq!(view["verified"], true, "{view}");
    approved(&agent, "carol@example.org").await;
    app.run_jobs().await;
    eventually("the second email", || to(&smtp, "carol@example.org").len() == 1).await;
    let carol = to(&smtp, "carol@example.org").remove(0);
    assert!(carol.header("From").unwrap().contains("<hello@acme.example>"), "{}", carol.raw);
    assert!(carol.header("Reply-To").is_none(), "{}", carol.raw);

    // Another address starts unproven again.
    let r = app.send(put(json!({ "from_address": "other@acme.example" }))).await;
    assert_eq!(r.json()["verified"], false, "{}", r.text);
}

#[tokio::test]
async fn an_account_and_the_platform_send_at_most_their_daily_caps() {
    let smtp = SmtpServer::start();
    // The owner's signup link is the account's first email of the day (never the platform's).
    let builder = TestApp::builder()
        .env("MINICLAW_EMAIL_ACCOUNT_DAILY", "3")
        .env("MINICLAW_EMAIL_PLATFORM_DAILY", "3")
        .env("MINICLAW_EMAIL_UNPROVEN_DAILY", "2");
    let agent = outreach_agent(builder, Some(&smtp), 0.8).await;
    let app = &agent.app;
    approved(&agent, "bob@example.org").await;
    approved(&agent, "carol@example.org").await;
    let dan = || async {
        let r = crate::outreach::propose(
            &agent,
            json!({ "target_email": "dan@example.org", "purpose": "x", "subject": "Hi", "body": "Hello" }),
        )
        .await;
        let id = r.json()["id"].as_str().unwrap().to_string();
        (agent.call(Method::POST, &format!("/outreach/{id}/approve"), None).await, id)
    };
    let (r, id) = dan().await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (429, "email_daily_cap"), "{}", r.text);
    assert!(r.text.contains("the account sent its 3 emails of today"), "{}", r.text);
    assert_eq!(agent.call(Method::GET, &format!("/outreach/{id}"), None).await.json()["status"], "proposed");

    // The platform's day spent by others: mail is refused (503), links still go out.
    let set = |tenant: Option<&str>, sent: i32| {
        let pool = app.pool().clone();
        let tenant = tenant.map(str::to_string);
        async move {
            sqlx::query(
                "UPDATE email_daily_counts SET sent = $2
                  WHERE tenant_id = coalesce($1::uuid, '00000000-0000-0000-0000-000000000000')",
            )
            .bind(tenant)
            .bind(sent)
            .execute(&pool)
            .await
            .unwrap();
        }
    };
    set(None, 3).await;
    set(Some(&agent.owner.tenant_id), 0).await;
    let (r, _) = dan().await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (503, "email_daily_cap"), "{}", r.text);
    assert!(r.text.contains("the platform sent its 3 emails of today"), "{}", r.text);

    // A new account's links go out whatever the platform's day, two a day here until an address
    // of the account is proven: a crowd of signups neither spends the day nor blocks the links.
    let eve = app.signup("eve@example.com").await;
    let r = app
        .send(
            app.as_bearer(&eve.token, Method::PUT, "/v1/email/sender")
                .json(&json!({ "from_address": "eve1@eve.example" })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = app
        .send(
            app.as_bearer(&eve.token, Method::PUT, "/v1/email/sender")
                .json(&json!({ "from_address": "eve5@eve.example" })),
        )
        .await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (429, "email_daily_cap"), "{}", r.text);
    assert!(r.text.contains("the account sent its 2 emails of today"), "{}", r.text);
    app.run_jobs().await;
    eventually("two outreach emails and eve's two links", || smtp.messages().len() == 4).await;
}

#[tokio::test]
async fn a_domain_is_the_agents_only_once_a_txt_record_proves_it() {
    let dns = DnsServer::start().await;
    let app = TestApp::builder().env("MINICLAW_DNS_SERVER", &dns.addr()).spawn().await;
    let ada = OwnedAgent::new(app).await;
    let app = &ada.app;
    let r = ada.call(Method::PATCH, "/identity", Some(json!({ "domain": "Ada.Example" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let proof = r.json()["domain_proof"].clone();
    assert_eq!((proof["verified"].as_bool(), proof["txt_name"].as_str()), (Some(false), Some("_miniclaw.ada.example")));
    let value = proof["txt_value"].as_str().unwrap().to_string();
    assert!(value.starts_with("miniclaw-verify=") && value.len() > 40, "{value}");
    // Registration asked for (the file is public), but the unproven domain serves nothing.
    sqlx::query("UPDATE agent_identities SET status = 'pending', requested_at = now() WHERE agent_id = $1::uuid")
        .bind(&ada.id)
        .execute(app.pool())
        .await
        .unwrap();
    let by_host = || app.request(Method::GET, "/.well-known/agent-registration.json").header("host", "ada.example");
    assert_eq!(app.send(by_host()).await.status, 404);

    // Someone else may claim the same name meanwhile: an unproven claim reserves nothing.
    let eve = app.signup("eve@example.com").await;
    let eves = app.create_agent(&eve, json!({ "name": "Eve" })).await["id"].as_str().unwrap().to_string();
    let eve_patch = |domain: &str| {
        app.as_bearer(&eve.token, Method::PATCH, &format!("/v1/hosted-agents/{eves}/identity"))
            .json(&json!({ "domain": domain }))
    };
    assert_eq!(app.send(eve_patch("ada.example")).await.status, 200);

    // No record, a wrong one, then the right one (among others).
    let r = ada.call(Method::POST, "/identity/domain/verify", None).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (422, "domain_unproven"), "{}", r.text);
    assert_eq!(r.json()["error"]["details"]["txt_value"], value.as_str());
    dns.set_txt("_miniclaw.ada.example", &["miniclaw-verify=0000"]);
    let r = ada.call(Method::POST, "/identity/domain/verify", None).await;
    assert_eq!(r.status, 422, "{}", r.text);
    dns.set_txt("_miniclaw.ada.example", &["v=spf1 -all", &value]);
    let r = ada.call(Method::POST, "/identity/domain/verify", None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["domain_proof"]["verified"], true);
    let served = app.send(by_host()).await;
    assert_eq!((served.status.as_u16(), served.json()["name"].as_str()), (200, Some("Ada")), "{}", served.text);

    // Proven, it is Ada's: Eve's claim cannot be proven, nor made again; Eve's own record at the
    // same name (she does not control the zone) would not carry her token anyway.
    let r = app
        .send(app.as_bearer(&eve.token, Method::POST, &format!("/v1/hosted-agents/{eves}/identity/domain/verify")))
        .await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert_eq!(app.send(eve_patch("ada.example")).await.status, 409);

    // A new domain starts over; a DNS server that does not answer proves nothing (422, saying
    // why), and is no 500.
    let r = ada.call(Method::PATCH, "/identity", Some(json!({ "domain": "ada.example.org" }))).await;
    assert_eq!(r.json()["domain_proof"]["verified"], false, "{}", r.text);
    assert_eq!(app.send(by_host()).await.status, 404, "the old domain serves nothing any more");
    drop(dns);
    let r = ada.call(Method::POST, "/identity/domain/verify", None).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (422, "domain_unproven"), "{}", r.text);
    assert!(r.json()["error"]["details"]["lookup_error"].is_string(), "{}", r.text);
}

/// Makes `owner`'s account established: its email verified and its tenant older than a week.
async fn establish(app: &TestApp, owner: &Session) {
    sqlx::query("UPDATE owners SET email_verified_at = now() WHERE id = $1::uuid")
        .bind(&owner.owner_id)
        .execute(app.pool())
        .await
        .unwrap();
    sqlx::query("UPDATE tenants SET created_at = now() - interval '8 days' WHERE id = $1::uuid")
        .bind(&owner.tenant_id)
        .execute(app.pool())
        .await
        .unwrap();
}

async fn chat(app: &TestApp, owner: &Session, agent: &str) -> crate::common::Reply {
    let path = format!("/v1/hosted-agents/{agent}/chat");
    app.send(app.as_bearer(&owner.token, Method::POST, &path).json(&json!({ "message": "hello" }))).await
}

async fn owner_with_agent(app: &TestApp, email: &str) -> (Session, String) {
    let owner = app.signup(email).await;
    let agent = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
    (owner, agent)
}

#[tokio::test]
async fn new_accounts_spend_their_own_allowance_and_together_only_their_share_of_the_day() {
    let server = LlmServer::start().await;
    // One turn of the scripted model (gpt-5-mini, 1,000 + 100 tokens) costs $0.00045: above a
    // new account's allowance here ($0.0001), and above new accounts' share of the day
    // (1% of $0.02) once one of them has had a turn.
    let app = TestApp::builder()
        .env("OPENAI_BASE_URL", &server.base_url())
        .env("MINICLAW_NEW_ACCOUNT_DAILY_USD", "0.0001")
        .env("MINICLAW_GLOBAL_DAILY_USD", "0.02")
        .env("MINICLAW_NEW_ACCOUNTS_SHARE", "0.01")
        .spawn()
        .await;
    let turn = || Script::Stream { pieces: vec!["Hi!".into()], usage: Some((1_000, 100)), complete: true };
    let (ada, adas) = owner_with_agent(&app, "ada@example.com").await;
    server.push(turn());
    assert_eq!(chat(&app, &ada, &adas).await.status, 200);
    let spent = || async {
        sqlx::query_as::<_, (f64, f64)>(
            "SELECT (SELECT sum(new_cost_usd) FROM llm_platform_spend), (SELECT sum(cost_usd) FROM llm_usage_logs)",
        )
        .fetch_one(app.pool())
        .await
        .unwrap()
    };
    let (new_spent, logged) = spent().await;
    assert!(new_spent > 0.0 && (new_spent - logged).abs() < 1e-12, "a new account's spend: {new_spent} vs {logged}");
    // Ada's own allowance is spent: 429 until midnight, with the reason.
    let r = chat(&app, &ada, &adas).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (429, "new_account_allowance"), "{}", r.text);
    assert!(r.text.contains("until its email is verified and it is 7 days old"), "{}", r.text);
    assert!(r.headers.contains_key("retry-after"));

    // Another new account finds new accounts' share spent (503), while an established account
    // still has the rest of the day; a verified but young account is still new.
    let (bob, bobs) = owner_with_agent(&app, "bob@example.com").await;
    let r = chat(&app, &bob, &bobs).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (503, "global_spend_cap"), "{}", r.text);
    assert!(r.text.contains("new accounts have used their share"), "{}", r.text);
    sqlx::query("UPDATE owners SET email_verified_at = now() WHERE id = $1::uuid")
        .bind(&bob.owner_id)
        .execute(app.pool())
        .await
        .unwrap();
    assert_eq!(chat(&app, &bob, &bobs).await.status, 503, "verified, but a day old");
    let (carol, carols) = owner_with_agent(&app, "carol@example.com").await;
    establish(&app, &carol).await;
    for _ in 0..2 {
        server.push(turn());
        let r = chat(&app, &carol, &carols).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    // Ada, established, is held to neither.
    establish(&app, &ada).await;
    server.push(turn());
    assert_eq!(chat(&app, &ada, &adas).await.status, 200);
    let (after, _) = spent().await;
    assert!((after - new_spent).abs() < 1e-12, "established accounts' spend is not new accounts': {after}");
}
