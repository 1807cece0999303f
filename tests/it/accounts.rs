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

/// A TOTP code for `secret` (base32) at now + `ahead` seconds, made by Python's standard
/// library: an implementation of RFC 6238 that shares nothing with the server's.
fn totp_code(secret: &str, ahead: i64) -> String {
    let script = "import base64,hashlib,hmac,struct,sys,time\n\
        s=sys.argv[1]; key=base64.b32decode(s + '=' * (-len(s) % 8))\n\
        step=int((time.time() + int(sys.argv[2])) // 30)\n\
        d=hmac.new(key, struct.pack('>Q', step), hashlib.sha1).digest(); o=d[-1] & 15\n\
        print('%06d' % ((struct.unpack('>I', d[o:o+4])[0] & 0x7fffffff) % 1000000))";
    let out = std::process::Command::new("python3").args(["-c", script, secret, &ahead.to_string()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[tokio::test]
async fn a_second_factor_guards_every_sign_in_and_each_sign_in_is_in_the_activity() {
    let app = TestApp::builder().spawn().await;
    let ada = app.signup("ada@example.com").await;
    let login_from = |agent: &str, password: &str| {
        let body = json!({ "email": "ada@example.com", "password": password });
        app.request(Method::POST, "/v1/auth/login").header("user-agent", agent).json(&body)
    };
    assert_eq!(app.send(login_from("Phone/1.0", "correct horse battery")).await.status, 200);
    assert_eq!(app.send(login_from("Phone/1.0", "correct horse battery")).await.status, 200);
    assert_eq!(app.send(login_from("Laptop/2.0", "not the password")).await.status, 401);

    // Set up: a secret, taken only once a code made from it is confirmed.
    let setup = app.send(app.as_bearer(&ada.token, Method::POST, "/v1/auth/second-factor")).await;
    assert_eq!(setup.status, 201, "{}", setup.text);
    let secret = setup.json()["secret"].as_str().unwrap().to_string();
    assert!(
        setup.json()["otpauth_url"]
            .as_str()
            .unwrap()
            .starts_with("otpauth://totp/miniclaw%3Aada%40example.com?secret=")
    );
    let confirm = |code: &str| {
        app.as_bearer(&ada.token, Method::POST, "/v1/auth/second-factor/confirm").json(&json!({ "code": code }))
    };
    let wrong = if totp_code(&secret, 0) == "000000" { "111111" } else { "000000" };
    assert_eq!(app.send(confirm(wrong)).await.error_code(), "wrong_code");
    let on = app.send(confirm(&totp_code(&secret, 0))).await;
    assert_eq!(on.status, 200, "{}", on.text);
    let recovery: Vec<String> =
        on.json()["recovery_codes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
    assert_eq!(recovery.len(), 10);

    // A password alone starts no session now: it answers a token that asks for a code.
    let asked = app.send(login_from("Laptop/2.0", "correct horse battery")).await;
    assert_eq!(asked.status, 202, "{}", asked.text);
    assert!(asked.json().get("session_token").is_none());
    let pending = asked.json()["second_factor_token"].as_str().unwrap().to_string();
    let finish = |token: &str, code: &str| {
        app.request(Method::POST, "/v1/auth/login/second-factor")
            .header("user-agent", "Laptop/2.0")
            .json(&json!({ "second_factor_token": token, "code": code }))
    };
    assert_eq!(app.send(finish(&pending, wrong)).await.error_code(), "wrong_code");
    // The code that turned it on was used: its step is spent.
    assert_eq!(app.send(finish(&pending, &totp_code(&secret, 0))).await.error_code(), "wrong_code");
    assert_eq!(app.send(finish("forged.token", &totp_code(&secret, 30))).await.status, 401);
    let signed = app.send(finish(&pending, &totp_code(&secret, 30))).await;
    assert_eq!(signed.status, 200, "{}", signed.text);
    assert_eq!(me(&app, &token(&signed)).await, 200);

    // A recovery code works once in place of a code.
    let again = app.send(login_from("Laptop/2.0", "correct horse battery")).await.json();
    let pending = again["second_factor_token"].as_str().unwrap();
    assert_eq!(app.send(finish(pending, &recovery[0])).await.status, 200);
    assert_eq!(app.send(finish(pending, &recovery[0])).await.error_code(), "wrong_code");
    let status: Value = app.send(app.as_bearer(&ada.token, Method::GET, "/v1/auth/second-factor")).await.json();
    assert_eq!((status["enabled"].as_bool(), status["recovery_codes_left"].as_i64()), (Some(true), Some(9)));

    // Turning it off needs a code too; then a password signs in alone again.
    let off = |code: &str| {
        app.as_bearer(&ada.token, Method::POST, "/v1/auth/second-factor/disable").json(&json!({ "code": code }))
    };
    assert_eq!(app.send(off(wrong)).await.status, 403);
    assert_eq!(app.send(off(&recovery[1])).await.status, 204);
    assert_eq!(app.send(login_from("Laptop/2.0", "correct horse battery")).await.status, 200);

    // Every sign-in is in the activity: successes with the device, failures with the reason.
    let log: Value = app.send(app.as_bearer(&ada.token, Method::GET, "/v1/activity?limit=100")).await.json();
    let entries: Vec<&Value> = log.as_array().unwrap().iter().rev().collect();
    let signed_in: Vec<(&str, bool)> = entries
        .iter()
        .filter(|e| e["action"] == "owner.signed_in")
        .map(|e| (e["details"]["user_agent"].as_str().unwrap(), e["details"]["new_device"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        signed_in[1..],
        [("Phone/1.0", true), ("Phone/1.0", false), ("Laptop/2.0", true), ("Laptop/2.0", false), ("Laptop/2.0", false)],
        "{log}"
    );
    let reasons: Vec<&str> = entries
        .iter()
        .filter(|e| e["action"] == "owner.sign_in_failed")
        .map(|e| e["details"]["reason"].as_str().unwrap())
        .collect();
    assert_eq!(
        reasons,
        ["wrong password", "wrong second factor", "wrong second factor", "wrong second factor"],
        "{log}"
    );
    assert!(log.to_string().contains("owner.second_factor_on") && log.to_string().contains("owner.second_factor_off"));
}
