//! SPEC H3 over HTTP, with a real SMTP server on loopback: a forgotten password is reset by a
//! single-use link mailed to the account's address (asking says the same for any address);
//! changing a password needs the current one and ends the owner's other sessions.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Reply, TestApp};
use crate::email_support::{Received, SmtpServer, eventually};

fn to(smtp: &SmtpServer, address: &str) -> Vec<Received> {
    smtp.messages().into_iter().filter(|m| m.rcpt_tos.iter().any(|r| r.eq_ignore_ascii_case(address))).collect()
}

/// The token of the link to `page` in a mail.
fn token_in(mail: &Received, page: &str) -> String {
    let body = mail.body_text();
    let (_, rest) = body.split_once(&format!("{page}?token=")).unwrap_or_else(|| panic!("a {page} link: {body}"));
    rest.chars().take_while(char::is_ascii_hexdigit).collect()
}

async fn login(app: &TestApp, password: &str) -> Reply {
    let body = json!({ "email": "ada@example.com", "password": password });
    app.send(app.request(Method::POST, "/v1/auth/login").json(&body)).await
}

fn token(r: &Reply) -> String {
    r.json()["session_token"].as_str().unwrap().to_string()
}

async fn me(app: &TestApp, session: &str) -> u16 {
    app.send(app.as_bearer(session, Method::GET, "/v1/me")).await.status.as_u16()
}

#[tokio::test]
async fn a_forgotten_password_is_reset_by_a_mailed_link_and_a_change_ends_other_sessions() {
    let smtp = SmtpServer::start();
    let app =
        TestApp::builder().env("SMTP_URL", &smtp.url()).env("MINICLAW_EMAIL_FROM", "agents@claw.example").spawn().await;
    let ada = app.signup("ada@example.com").await;
    let other = token(&login(&app, "correct horse battery").await);
    app.run_jobs().await;
    eventually("the signup's link", || to(&smtp, "ada@example.com").len() == 1).await;
    let signup_link = token_in(&to(&smtp, "ada@example.com")[0], "/verify-email");

    // Asking answers the same for any address; only an account's gets a link.
    let ask = |email: &str| app.request(Method::POST, "/v1/auth/password/reset").json(&json!({ "email": email }));
    let unknown = app.send(ask("nobody@example.com")).await;
    let known = app.send(ask("ADA@example.com")).await;
    assert_eq!((unknown.status.as_u16(), known.status.as_u16()), (202, 202));
    assert_eq!(unknown.json(), known.json(), "nothing says whether the address has an account");
    app.run_jobs().await;
    eventually("the reset link", || to(&smtp, "ada@example.com").len() == 2).await;
    assert!(to(&smtp, "nobody@example.com").is_empty());
    let mail = to(&smtp, "ada@example.com").remove(1);
    assert_eq!(mail.header("Subject").as_deref(), Some("Reset your password"));
    let reset_token = token_in(&mail, "/reset-password");

    // The dashboard's page for the link is a form that posts it.
    let page = app.send(app.request(Method::GET, &format!("/reset-password?token={reset_token}"))).await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains(r#"data-testid="reset-form""#) && page.text.contains(&reset_token), "{}", page.text);
    let login_page = app.send(app.request(Method::GET, "/login")).await;
    assert!(login_page.text.contains(r#"href="/forgot-password""#));

    let confirm = |token: &str, password: &str| {
        app.request(Method::POST, "/v1/auth/password/reset/confirm")
            .json(&json!({ "token": token, "password": password }))
    };
    // A link of another purpose resets nothing; a short password is refused and the link kept.
    assert_eq!(app.send(confirm(&signup_link, "a brand new passphrase")).await.status, 400);
    assert_eq!(app.send(confirm(&reset_token, "short")).await.status, 400);
    let r = app.send(confirm(&reset_token, "a brand new passphrase")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(app.send(confirm(&reset_token, "yet another passphrase")).await.status, 400, "once");
    assert_eq!(login(&app, "correct horse battery").await.status, 401);
    assert_eq!((me(&app, &ada.token).await, me(&app, &other).await), (401, 401), "every session ended");
    let first = token(&login(&app, "a brand new passphrase").await);
    let me_now: Value = app.send(app.as_bearer(&first, Method::GET, "/v1/me")).await.json();
    assert_eq!(me_now["email_verified"], true, "following the link proved the address");

    // Changing it needs the current password, and ends the other sessions.
    let second = token(&login(&app, "a brand new passphrase").await);
    let change = |current: &str| {
        app.as_bearer(&first, Method::POST, "/v1/auth/password")
            .json(&json!({ "current_password": current, "new_password": "the third passphrase" }))
    };
    let r = app.send(change("not it at all")).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (403, "wrong_password"), "{}", r.text);
    let r = app.send(change("a brand new passphrase")).await;
    assert_eq!((r.status.as_u16(), r.json()["sessions_ended"].as_u64()), (200, Some(1)), "{}", r.text);
    assert_eq!((me(&app, &first).await, me(&app, &second).await), (200, 401));
    assert_eq!(login(&app, "the third passphrase").await.status, 200);

    let log = app.send(app.as_bearer(&first, Method::GET, "/v1/activity")).await;
    assert!(log.text.contains("owner.password_reset") && log.text.contains("owner.password_changed"), "{}", log.text);
}
