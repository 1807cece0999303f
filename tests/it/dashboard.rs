//! The dashboard's extractors over HTTP: every state-changing form post needs the session's
//! CSRF token, every agent page is 404 for anyone but the agent's owner (and for ids that are
//! not ids), and signed-out visitors are sent to sign in.

use reqwest::Method;
use reqwest::header::{CONTENT_TYPE, LOCATION};
use serde_json::json;
use uuid::Uuid;

use crate::common::{Reply, Session, TestApp};

/// Every dashboard POST that needs a session; `{id}` is the agent, the rest need not exist
/// (the CSRF check comes before the handler looks anything up). Sign-in and sign-up are not
/// here: they have no session yet and use their double-submit cookie.
const POSTS: &[&str] = &[
    "/logout",
    "/agents",
    "/agents/{id}",
    "/agents/{id}/delete",
    "/agents/{id}/keys",
    "/agents/{id}/keys/{x}/revoke",
    "/agents/{id}/chat",
    "/agents/{id}/chat/{x}/regenerate/{x}",
    "/agents/{id}/soul",
    "/agents/{id}/mind/compile",
    "/agents/{id}/mind/reflect",
    "/agents/{id}/mind/gaps/{x}",
    "/agents/{id}/memories",
    "/agents/{id}/memories/{x}",
    "/agents/{id}/memories/{x}/pin",
    "/agents/{id}/memories/{x}/delete",
    "/agents/{id}/knowledge",
    "/agents/{id}/knowledge/url",
];

/// Posts a urlencoded form with the owner's session, without following redirects (so a
/// redirect's target can be checked).
async fn post(app: &TestApp, who: &Session, path: &str, form: &str) -> Reply {
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    app.send(
        client
            .request(Method::POST, app.url(path))
            .bearer_auth(&who.token)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form.to_string()),
    )
    .await
}

/// The session's CSRF token, as the agents page renders it into its forms.
async fn csrf_of(app: &TestApp, who: &Session) -> String {
    let page = app.send(app.as_bearer(&who.token, Method::GET, "/agents")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    let (_, rest) = page.text.split_once(r#"name="csrf" value=""#).expect("the page has a form with a CSRF token");
    rest.split('"').next().unwrap().to_string()
}

/// An app with two tenants' owners, Alice (who has an agent, whose id comes last) and Mallory.
async fn alice_and_mallory() -> (TestApp, Session, Session, String) {
    let app = TestApp::spawn().await;
    let alice = app.signup("alice@example.com").await;
    let mallory = app.signup("mallory@example.com").await;
    let agent = app.create_agent(&alice, json!({ "name": "Alice's" })).await["id"].as_str().unwrap().to_string();
    (app, alice, mallory, agent)
}

#[tokio::test]
async fn every_session_form_post_needs_the_sessions_csrf_token() {
    let (app, alice, mallory, agent) = alice_and_mallory().await;
    let mallorys_token = csrf_of(&app, &mallory).await;
    for path in POSTS {
        let url = path.replace("{id}", &agent).replace("{x}", &Uuid::now_v7().to_string());
        for body in [String::new(), "csrf=".into(), format!("csrf={mallorys_token}")] {
            let r = post(&app, &alice, &url, &body).await;
            assert_eq!(r.status, 403, "POST {path} with body {body:?}: {}", r.text);
        }
    }
    // Nothing was done: the agent is still there and unchanged, the session still works.
    let r = app.send(app.as_bearer(&alice.token, Method::GET, &format!("/v1/hosted-agents/{agent}"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["name"], "Alice's");

    // With the token the same posts go through.
    let token = csrf_of(&app, &alice).await;
    let r =
        post(&app, &alice, &format!("/agents/{agent}/soul"), &format!("csrf={token}&content=Calm+and+curious")).await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(r.headers[LOCATION], format!("/agents/{agent}/soul?saved=true"));
    let r = post(&app, &alice, "/logout", &format!("csrf={token}")).await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(r.headers[LOCATION], "/login");
}

#[tokio::test]
async fn agent_pages_are_404_for_other_tenants_and_for_ids_that_are_not_ids() {
    let (app, alice, mallory, agent) = alice_and_mallory().await;
    let memory = Uuid::now_v7().to_string();
    for page in ["", "/keys", "/activity", "/chat", "/soul", "/mind", "/memories", &format!("/memories/{memory}")] {
        let r = app.send(app.as_bearer(&mallory.token, Method::GET, &format!("/agents/{agent}{page}"))).await;
        assert_eq!(r.status, 404, "Mallory GET {page}: {}", r.text);
        assert!(!r.text.contains("Alice"), "the 404 leaks data: {}", r.text);
        let r = app.send(app.as_bearer(&alice.token, Method::GET, &format!("/agents/not-an-id{page}"))).await;
        assert_eq!(r.status, 404, "Alice GET not-an-id{page}: {}", r.text);
    }
    // Mallory's own, valid token does not let her post to Alice's agent.
    let token = csrf_of(&app, &mallory).await;
    for path in POSTS.iter().filter(|p| p.contains("{id}")) {
        let url = path.replace("{id}", &agent).replace("{x}", &Uuid::now_v7().to_string());
        let r = post(&app, &mallory, &url, &format!("csrf={token}&name=Mallory's&content=x&status=dismissed")).await;
        assert_eq!(r.status, 404, "Mallory POST {path}: {}", r.text);
    }
    let r = app.send(app.as_bearer(&alice.token, Method::GET, &format!("/v1/hosted-agents/{agent}"))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["name"], "Alice's");

    // Signed out: sent to sign in, back to the page afterwards.
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let r = app.send(client.get(app.url(&format!("/agents/{agent}/soul")))).await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(r.headers[LOCATION], format!("/login?next=%2Fagents%2F{agent}%2Fsoul"));
}
