//! SPEC A1: owner accounts and sessions.

use reqwest::Method;
use serde_json::json;

use crate::common::{TestApp, external_sign};

#[tokio::test]
async fn signup_login_me_refresh_logout() {
    let app = TestApp::spawn().await;
    let r = app
        .send(app.request(Method::POST, "/v1/auth/signup").json(
            &json!({ "email": "ada@example.com", "password": "correct horse battery", "tenant_name": "Analytical" }),
        ))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let cookies: Vec<&str> = r.headers.get_all("set-cookie").iter().map(|v| v.to_str().unwrap()).collect();
    assert!(
        cookies.iter().any(|c| c.starts_with("mc_session=") && c.contains("HttpOnly") && c.contains("SameSite=Lax")),
        "{cookies:?}"
    );
    let v = r.json();
    assert_eq!(v["tenant"]["name"], "Analytical");
    assert!(v.get("password_hash").is_none() && !r.text.contains("argon2"));

    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/login")
                .json(&json!({ "email": "ADA@example.com", "password": "correct horse battery" })),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let token = r.json()["session_token"].as_str().unwrap().to_string();
    let refresh = r.json()["refresh_token"].as_str().unwrap().to_string();

    let me = app.send(app.as_bearer(&token, Method::GET, "/v1/me")).await;
    assert_eq!(me.status, 200);
    assert_eq!(me.json()["owner"]["email"], "ada@example.com");

    // The cookie works as well as the bearer.
    let me = app.send(app.request(Method::GET, "/v1/me").header("cookie", format!("mc_session={token}"))).await;
    assert_eq!(me.status, 200);

    let r = app.send(app.request(Method::POST, "/v1/auth/refresh").json(&json!({ "refresh_token": refresh }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let token2 = r.json()["session_token"].as_str().unwrap().to_string();
    let refresh2 = r.json()["refresh_token"].as_str().unwrap().to_string();
    assert_ne!(refresh2, refresh, "the refresh token rotates");
    // Presented again at once (a retry, another tab) it yields the same rotation.
    let r = app.send(app.request(Method::POST, "/v1/auth/refresh").json(&json!({ "refresh_token": refresh }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["refresh_token"], refresh2.as_str());

    let r = app.send(app.as_bearer(&token2, Method::POST, "/v1/hosted-agents").json(&json!({ "name": "Ada" }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let conversations = format!("/v1/hosted-agents/{}/conversations", r.json()["id"].as_str().unwrap());
    assert_eq!(app.send(app.as_bearer(&token2, Method::GET, &conversations)).await.status, 200);

    let r = app.send(app.as_bearer(&token2, Method::POST, "/v1/auth/logout")).await;
    assert_eq!(r.status, 204);
    assert_eq!(app.send(app.as_bearer(&token2, Method::GET, "/v1/me")).await.status, 401);
    let r = app.send(app.as_bearer(&token2, Method::GET, &conversations)).await;
    assert_eq!(r.status, 401, "agent routes check the session too: {}", r.text);
    assert_eq!(
        app.send(app.as_bearer(&token, Method::GET, "/v1/me")).await.status,
        401,
        "every token of the session dies"
    );
}

#[tokio::test]
async fn signup_and_login_refuse_bad_input() {
    let app = TestApp::spawn().await;
    app.signup("bob@example.com").await;
    let cases = [
        (json!({ "email": "bob@example.com", "password": "correct horse battery" }), 409),
        (json!({ "email": "not-an-email", "password": "correct horse battery" }), 400),
        (json!({ "email": "c@example.com", "password": "short" }), 400),
        (json!({ "email": "c@example.com" }), 400),
    ];
    for (body, status) in cases {
        let r = app.send(app.request(Method::POST, "/v1/auth/signup").json(&body)).await;
        assert_eq!(r.status, status, "{body}: {}", r.text);
    }
    for (email, pw) in [("bob@example.com", "wrong password!"), ("nobody@example.com", "correct horse battery")] {
        let r = app
            .send(app.request(Method::POST, "/v1/auth/login").json(&json!({ "email": email, "password": pw })))
            .await;
        assert_eq!(r.status, 401);
        assert_eq!(r.json()["error"]["message"], "invalid email or password");
    }
    assert_eq!(app.get("/v1/me").await.status, 401);
    assert_eq!(app.send(app.as_bearer("not.a.jwt", Method::GET, "/v1/me")).await.status, 401);
}

#[tokio::test]
async fn wallet_login_with_an_eth_account_signature() {
    let app = TestApp::spawn().await;
    let key = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
    let address = external_sign(&["evm-address", key], "");

    let ch = app
        .send(app.request(Method::POST, "/v1/auth/wallet/challenge").json(&json!({ "address": address })))
        .await
        .json();
    let message = ch["message"].as_str().unwrap();
    assert!(message.contains(&address.to_lowercase()) && message.contains(ch["nonce"].as_str().unwrap()));
    let signature = external_sign(&["evm-sign", key], message);

    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/wallet/login")
                .json(&json!({ "nonce": ch["nonce"], "signature": signature })),
        )
        .await;
    assert_eq!(r.status, 201, "first login creates the account: {}", r.text);
    assert_eq!(r.json()["owner"]["evm_address"], address.to_lowercase());
    let owner_id = r.json()["owner"]["id"].clone();

    let replay = app
        .send(
            app.request(Method::POST, "/v1/auth/wallet/login")
                .json(&json!({ "nonce": ch["nonce"], "signature": signature })),
        )
        .await;
    assert_eq!(replay.status, 401, "a nonce works once");

    let ch = app
        .send(app.request(Method::POST, "/v1/auth/wallet/challenge").json(&json!({ "address": address })))
        .await
        .json();
    let signature = external_sign(&["evm-sign", key], ch["message"].as_str().unwrap());
    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/wallet/login")
                .json(&json!({ "nonce": ch["nonce"], "signature": signature })),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["owner"]["id"], owner_id, "second login finds the same owner");

    // A signature by another wallet is refused.
    let ch = app
        .send(app.request(Method::POST, "/v1/auth/wallet/challenge").json(&json!({ "address": address })))
        .await
        .json();
    let other = external_sign(
        &["evm-sign", "0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f"],
        ch["message"].as_str().unwrap(),
    );
    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/wallet/login")
                .json(&json!({ "nonce": ch["nonce"], "signature": other })),
        )
        .await;
    assert_eq!(r.status, 401);
}

/// Moves the owner's sessions' last rotation a minute into the past, beyond the grace window.
async fn age_last_rotation(app: &TestApp, owner_id: &str) {
    sqlx::query("UPDATE owner_sessions SET refreshed_at = now() - interval '1 minute' WHERE owner_id = $1::uuid")
        .bind(owner_id)
        .execute(app.pool())
        .await
        .unwrap();
}

async fn refresh_with(app: &TestApp, token: &str) -> crate::common::Reply {
    app.send(app.request(Method::POST, "/v1/auth/refresh").json(&json!({ "refresh_token": token }))).await
}

/// Finding 13: refreshing rotates the token; for a short grace window the token just rotated
/// out yields the same new one (two tabs or a retry refreshing at once stay signed in); after
/// it, presenting a rotated-out token signs the whole session out (a used token coming back
/// means someone copied it). A made-up token naming the session does not.
#[tokio::test]
async fn refresh_rotation_has_a_grace_window_and_reuse_signs_the_session_out() {
    let app = TestApp::spawn().await;
    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/signup")
                .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let owner_id = r.json()["owner"]["id"].as_str().unwrap().to_string();
    let r0 = r.json()["refresh_token"].as_str().unwrap().to_string();

    // Two refreshes with the same token at once: both succeed, with the same new token.
    let (a, b) = tokio::join!(refresh_with(&app, &r0), refresh_with(&app, &r0));
    assert_eq!((a.status.as_u16(), b.status.as_u16()), (200, 200), "{} / {}", a.text, b.text);
    let r1 = a.json()["refresh_token"].as_str().unwrap().to_string();
    assert_eq!(b.json()["refresh_token"], r1.as_str(), "both tabs end up with the same refresh token");
    for reply in [&a, &b] {
        let token = reply.json()["session_token"].as_str().unwrap().to_string();
        assert_eq!(app.send(app.as_bearer(&token, Method::GET, "/v1/me")).await.status, 200);
    }

    // The current token rotates on; a made-up token naming the session changes nothing.
    let r = refresh_with(&app, &r1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r2 = r.json()["refresh_token"].as_str().unwrap().to_string();
    let session = r.json()["session_token"].as_str().unwrap().to_string();
    let sid = r2.split('.').next().unwrap();
    let forged = format!("{sid}.{}.{}", "ab".repeat(32), "cd".repeat(16));
    assert_eq!(refresh_with(&app, &forged).await.status, 401);
    assert_eq!(app.send(app.as_bearer(&session, Method::GET, "/v1/me")).await.status, 200, "still signed in");

    // After the grace window, the rotated-out token is reuse: 401, and the session is over.
    age_last_rotation(&app, &owner_id).await;
    let r = refresh_with(&app, &r1).await;
    assert_eq!(r.status, 401, "{}", r.text);
    assert!(r.text.contains("signed out"), "{}", r.text);
    assert_eq!(app.send(app.as_bearer(&session, Method::GET, "/v1/me")).await.status, 401, "the session is revoked");
    assert_eq!(refresh_with(&app, &r2).await.status, 401, "and so is its newest refresh token");
}

/// Finding 14: the refresh cookie alone (no body) is sent by the browser by itself, also on a
/// request another site makes; it only works with `X-Requested-With`.
#[tokio::test]
async fn refresh_by_cookie_needs_a_custom_header() {
    let app = TestApp::spawn().await;
    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/signup")
                .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" })),
        )
        .await;
    let refresh = r.json()["refresh_token"].as_str().unwrap().to_string();
    let cookie = format!("mc_refresh={refresh}");
    let r = app.send(app.request(Method::POST, "/v1/auth/refresh").header("cookie", &cookie)).await;
    assert_eq!(r.status, 403, "{}", r.text);
    assert_eq!(r.error_code(), "csrf_header_required");
    let r = app
        .send(app.request(Method::POST, "/v1/auth/refresh").header("cookie", &cookie).header("x-requested-with", "app"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}
