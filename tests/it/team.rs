//! SPEC H4 over HTTP, with a real SMTP server on loopback: a tenant is a team. Members join by a
//! mailed invitation with a role; every write route refuses a viewer (the walk reads the
//! OpenAPI document, so new routes are covered); admins manage members but not ownership; the
//! last owner cannot leave; the activity names the member. SPEC H3: a new address is the
//! account's only once a link mailed to it is followed.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Reply, Session, TestApp};
use crate::email_support::{Received, SmtpServer, eventually};

fn to(smtp: &SmtpServer, address: &str) -> Vec<Received> {
    smtp.messages().into_iter().filter(|m| m.rcpt_tos.iter().any(|r| r.eq_ignore_ascii_case(address))).collect()
}

/// The token of the link to `page` in the newest mail to `address`.
async fn link_to(app: &TestApp, smtp: &SmtpServer, address: &str, page: &str, nth: usize) -> String {
    app.run_jobs().await;
    eventually("the mailed link", || to(smtp, address).len() > nth).await;
    let body = to(smtp, address)[nth].body_text();
    let (_, rest) = body.split_once(&format!("{page}?token=")).unwrap_or_else(|| panic!("a {page} link: {body}"));
    rest.chars().take_while(char::is_ascii_hexdigit).collect()
}

async fn mailing_app(smtp: &SmtpServer) -> TestApp {
    TestApp::builder()
        .env("SMTP_URL", &smtp.url())
        .env("MINICLAW_EMAIL_FROM", "agents@claw.example")
        // The walk sends a request per route from one address.
        .env("MINICLAW_RATE_LIMIT_IP", "0")
        .spawn()
        .await
}

async fn invite(app: &TestApp, by: &str, email: &str, role: &str) -> Reply {
    app.send(app.as_bearer(by, Method::POST, "/v1/team/invitations").json(&json!({ "email": email, "role": role })))
        .await
}

/// Invites `email` as `role` and follows the mailed link: the new member's session token.
async fn join(app: &TestApp, smtp: &SmtpServer, by: &str, email: &str, role: &str) -> String {
    let r = invite(app, by, email, role).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let token = link_to(app, smtp, email, "/join", 0).await;
    let r = app
        .send(
            app.request(Method::POST, "/v1/team/join")
                .json(&json!({ "token": token, "password": "a member's passphrase" })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    r.json()["session_token"].as_str().unwrap().to_string()
}

fn member_id(team: &Value, email: &str) -> String {
    team["members"].as_array().unwrap().iter().find(|m| m["email"] == email).unwrap()["id"].as_str().unwrap().into()
}

#[tokio::test]
async fn members_join_by_mailed_invitation_and_roles_decide_what_they_may_do() {
    let smtp = SmtpServer::start();
    let app = mailing_app(&smtp).await;
    let ada = app.signup("ada@example.com").await;
    let agent = app.create_agent(&ada, json!({ "name": "Shared" })).await["id"].as_str().unwrap().to_string();

    // The invitation's link shows what it offers, then makes a viewer of the address.
    let r = invite(&app, &ada.token, "bob@example.com", "viewer").await;
    assert_eq!((r.status.as_u16(), r.json()["role"].as_str()), (201, Some("viewer")), "{}", r.text);
    let link = link_to(&app, &smtp, "bob@example.com", "/join", 0).await;
    let mail = &to(&smtp, "bob@example.com")[0];
    assert_eq!(mail.header("Subject").as_deref(), Some("You are invited to a miniclaw team"));
    let offer = app.send(app.request(Method::GET, &format!("/v1/team/join?token={link}"))).await;
    assert_eq!(offer.status, 200, "{}", offer.text);
    assert_eq!(
        (offer.json()["role"].as_str(), offer.json()["email"].as_str()),
        (Some("viewer"), Some("bob@example.com"))
    );
    let page = app.send(app.request(Method::GET, &format!("/join?token={link}"))).await;
    assert!(page.text.contains(r#"data-testid="join-form""#), "{}", page.text);
    let join_with = |password: &str| {
        app.request(Method::POST, "/v1/team/join").json(&json!({ "token": link, "password": password }))
    };
    assert_eq!(app.send(join_with("short")).await.status, 400, "a short password; the link is kept");
    let joined = app.send(join_with("bob's own passphrase")).await;
    assert_eq!(joined.status, 201, "{}", joined.text);
    assert_eq!(app.send(join_with("bob's own passphrase")).await.status, 400, "a link works once");
    let bob = joined.json()["session_token"].as_str().unwrap().to_string();

    // A viewer sees the team's agents and may not change them; their own password is theirs.
    assert_eq!(app.send(app.as_bearer(&bob, Method::GET, &format!("/v1/hosted-agents/{agent}"))).await.status, 200);
    let write = app
        .send(
            app.as_bearer(&bob, Method::POST, &format!("/v1/hosted-agents/{agent}/memories"))
                .json(&json!({ "content": "x", "category": "identity" })),
        )
        .await;
    assert_eq!((write.status.as_u16(), write.error_code().as_str()), (403, "role_forbidden"), "{}", write.text);
    let search = app.send(
        app.as_bearer(&bob, Method::POST, &format!("/v1/hosted-agents/{agent}/memories/search"))
            .json(&json!({ "query": "x" })),
    );
    assert_eq!(search.await.status, 200, "searching is reading");
    let change = app
        .as_bearer(&bob, Method::POST, "/v1/auth/password")
        .json(&json!({ "current_password": "bob's own passphrase", "new_password": "bob's second passphrase" }));
    assert_eq!(app.send(change).await.status, 200);

    // Each member takes out what the platform holds about them; the agents go with the
    // account's owners and admins only.
    let mine: Value = app.send(app.as_bearer(&bob, Method::GET, "/v1/account/export")).await.json();
    assert_eq!(
        (mine["format"].as_str(), mine["member"]["email"].as_str()),
        (Some("miniclaw.account"), Some("bob@example.com"))
    );
    assert_eq!((mine["role"].as_str(), mine["agents"].as_array().map(Vec::len)), (Some("viewer"), Some(0)), "{mine}");
    assert!(mine["devices"].as_array().is_some_and(|d| !d.is_empty()), "{mine}");
    let whole: Value = app.send(app.as_bearer(&ada.token, Method::GET, "/v1/account/export")).await.json();
    assert_eq!(whole["agents"][0]["agent"]["name"], "Shared", "{whole}");
    assert!(whole["activity"].to_string().contains("team.joined"));

    // An address that signs in to an account already cannot be invited.
    app.signup("eve@example.com").await;
    assert_eq!(invite(&app, &ada.token, "eve@example.com", "member").await.status, 409);
    // A viewer invites nobody; an admin invites, but no owner.
    assert_eq!(invite(&app, &bob, "dan@example.com", "viewer").await.status, 403);
    let carol = join(&app, &smtp, &ada.token, "carol@example.com", "admin").await;
    assert_eq!(invite(&app, &carol, "dan@example.com", "owner").await.status, 403);

    let team: Value = app.send(app.as_bearer(&carol, Method::GET, "/v1/team")).await.json();
    assert_eq!(team["members"].as_array().unwrap().len(), 3, "{team}");
    let (ada_id, bob_id) = (member_id(&team, "ada@example.com"), member_id(&team, "bob@example.com"));
    let set = |by: &str, member: &str, role: &str| {
        app.as_bearer(by, Method::PATCH, &format!("/v1/team/members/{member}")).json(&json!({ "role": role }))
    };
    assert_eq!(app.send(set(&carol, &bob_id, "owner")).await.status, 403, "only an owner makes an owner");
    assert_eq!(app.send(set(&carol, &ada_id, "viewer")).await.status, 403, "only an owner unmakes one");
    let r = app.send(set(&carol, &bob_id, "member")).await;
    assert_eq!((r.status.as_u16(), r.json()["role"].as_str()), (200, Some("member")), "{}", r.text);
    // The new role holds at once, in the same session.
    let write = app
        .send(
            app.as_bearer(&bob, Method::POST, &format!("/v1/hosted-agents/{agent}/memories"))
                .json(&json!({ "content": "Bob wrote this", "category": "identity" })),
        )
        .await;
    assert_eq!(write.status, 201, "{}", write.text);
    let keys = app
        .as_bearer(&bob, Method::POST, &format!("/v1/hosted-agents/{agent}/api-keys"))
        .json(&json!({ "name": "k", "scopes": ["*"] }));
    assert_eq!(app.send(keys).await.status, 403, "keys are an admin's");

    // The last owner cannot leave or step down; with a second owner, they can.
    let leave = |who: &str| app.as_bearer(who, Method::POST, "/v1/team/leave");
    assert_eq!(app.send(leave(&ada.token)).await.status, 409);
    assert_eq!(app.send(set(&ada.token, &ada_id, "admin")).await.status, 409);
    let carol_id = member_id(&team, "carol@example.com");
    assert_eq!(app.send(set(&ada.token, &carol_id, "owner")).await.status, 200);
    assert_eq!(app.send(leave(&ada.token)).await.status, 204);
    assert_eq!(app.send(app.as_bearer(&ada.token, Method::GET, "/v1/me")).await.status, 401, "sessions ended");
    let login = app
        .request(Method::POST, "/v1/auth/login")
        .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" }));
    assert_eq!(app.send(login).await.status, 401, "a member who left signs in no more");
    // An admin removes a member; the member's session ends.
    let r = app.send(app.as_bearer(&carol, Method::DELETE, &format!("/v1/team/members/{bob_id}"))).await;
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(app.send(app.as_bearer(&bob, Method::GET, "/v1/me")).await.status, 401);

    // The activity names each member who acted, including those who left.
    let log: Value = app.send(app.as_bearer(&carol, Method::GET, "/v1/activity?limit=100")).await.json();
    let named = |action: &str| {
        log.as_array()
            .unwrap()
            .iter()
            .find(|e| e["action"] == action)
            .and_then(|e| e["actor_name"].as_str())
            .map(String::from)
    };
    assert_eq!(named("team.invited").as_deref(), Some("ada@example.com (left the team)"), "{log}");
    assert_eq!(named("team.removed").as_deref(), Some("carol@example.com"));
    let agent_log = app.send(app.as_bearer(&carol, Method::GET, &format!("/v1/hosted-agents/{agent}/activity"))).await;
    assert!(agent_log.text.contains("bob@example.com (left the team)"), "{}", agent_log.text);
}

#[tokio::test]
async fn a_viewer_is_refused_on_every_write_route() {
    let smtp = SmtpServer::start();
    let app = mailing_app(&smtp).await;
    let ada = app.signup("ada@example.com").await;
    let viewer = join(&app, &smtp, &ada.token, "vic@example.com", "viewer").await;
    let any_id = uuid::Uuid::now_v7().to_string();
    let ids = regex::Regex::new(r"\{[a-z_]+\}").unwrap();

    let doc = miniclaw::api::openapi();
    let mut refused = 0;
    for (path, item) in &doc.paths.paths {
        let url = ids.replace_all(path, any_id.as_str()).to_string();
        let methods = [
            (Method::POST, item.post.is_some()),
            (Method::PUT, item.put.is_some()),
            (Method::PATCH, item.patch.is_some()),
            (Method::DELETE, item.delete.is_some()),
        ];
        for (method, _) in methods.into_iter().filter(|(_, has)| *has) {
            // The member's own account and sign-in, joining and leaving; searching is reading.
            let own = path.starts_with("/v1/auth/") || matches!(path.as_str(), "/v1/team/join" | "/v1/team/leave");
            let reads = matches!(path.as_str(), "/v1/hosted-agents/{id}/memories/search" | "/v1/skills/validate");
            if own || reads {
                continue;
            }
            let r = app.send(app.as_bearer(&viewer, method.clone(), &url).json(&json!({}))).await;
            assert_eq!(
                (r.status.as_u16(), r.error_code().as_str()),
                (403, "role_forbidden"),
                "{method} {path} answered a viewer {}: {}",
                r.status,
                r.text
            );
            refused += 1;
        }
    }
    assert!(refused > 100, "the walk covered {refused} write routes");

    // The dashboard's forms too: a page that says why.
    let csrf_page = app.send(app.as_bearer(&viewer, Method::GET, "/agents")).await;
    assert_eq!(csrf_page.status, 200);
    for form in ["/agents", "/team/invitations", &format!("/agents/{any_id}/chat"), &format!("/agents/{any_id}/keys")] {
        let r = app.send(app.as_bearer(&viewer, Method::POST, form).form(&[("csrf", "x")])).await;
        assert_eq!(r.status, 403, "POST {form}: {}", r.text);
        assert!(r.text.contains("viewer"), "POST {form} says why: {}", r.text);
    }
    // What a viewer may still do: look, and their own account.
    assert_eq!(app.send(app.as_bearer(&viewer, Method::GET, "/v1/team")).await.status, 200);
    let logout = app.send(app.as_bearer(&viewer, Method::POST, "/v1/auth/logout")).await;
    assert_eq!(logout.status, 204, "{}", logout.text);
}

#[tokio::test]
async fn a_new_address_is_the_accounts_once_the_mailed_link_is_followed() {
    let smtp = SmtpServer::start();
    let app = mailing_app(&smtp).await;
    let ada: Session = app.signup("ada@example.com").await;
    app.signup("taken@example.com").await;
    let ask = |email: &str, password: &str| {
        app.as_bearer(&ada.token, Method::POST, "/v1/auth/email")
            .json(&json!({ "new_email": email, "current_password": password }))
    };
    assert_eq!(app.send(ask("new@example.com", "not the password")).await.error_code(), "wrong_password");
    assert_eq!(app.send(ask("taken@example.com", "correct horse battery")).await.status, 409);
    let r = app.send(ask("new@example.com", "correct horse battery")).await;
    assert_eq!((r.status.as_u16(), r.json()["sent_to"].as_str()), (202, Some("new@example.com")), "{}", r.text);
    let link = link_to(&app, &smtp, "new@example.com", "/verify-email", 0).await;
    // Nothing changes before the link is followed.
    let me: Value = app.send(app.as_bearer(&ada.token, Method::GET, "/v1/me")).await.json();
    assert_eq!(me["owner"]["email"], "ada@example.com", "{me}");
    let r = app.send(app.request(Method::POST, "/v1/auth/verify-email").json(&json!({ "token": link }))).await;
    assert_eq!((r.status.as_u16(), r.json()["purpose"].as_str()), (200, Some("email_change")), "{}", r.text);
    let me: Value = app.send(app.as_bearer(&ada.token, Method::GET, "/v1/me")).await.json();
    assert_eq!((me["owner"]["email"].as_str(), me["email_verified"].as_bool()), (Some("new@example.com"), Some(true)));
    let login = |email: &str| {
        app.request(Method::POST, "/v1/auth/login")
            .json(&json!({ "email": email, "password": "correct horse battery" }))
    };
    assert_eq!(app.send(login("ada@example.com")).await.status, 401);
    assert_eq!(app.send(login("new@example.com")).await.status, 200);
    let page = app.send(app.as_bearer(&ada.token, Method::GET, "/account")).await;
    assert!(
        page.text.contains("new@example.com") && page.text.contains(r#"data-testid="email-form""#),
        "{}",
        page.text
    );
}
