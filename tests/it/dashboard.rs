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
    "/agents/{id}/settings",
    "/agents/{id}/delete",
    "/agents/import",
    "/agents/{id}/keys",
    "/agents/{id}/keys/{x}/revoke",
    "/agents/{id}/tools",
    "/agents/{id}/tools/{x}/remove",
    "/agents/{id}/tools/{x}/refresh",
    "/agents/{id}/tools/calls/{x}",
    "/agents/{id}/chat",
    "/agents/{id}/chat/{x}/regenerate/{x}",
    "/agents/{id}/chat/{x}/feedback/{x}",
    "/agents/{id}/soul",
    "/agents/{id}/mind/compile",
    "/agents/{id}/mind/reflect",
    "/agents/{id}/mind/gaps/{x}",
    "/agents/{id}/memories",
    "/agents/{id}/memories/{x}",
    "/agents/{id}/memories/{x}/pin",
    "/agents/{id}/memories/{x}/restore",
    "/agents/{id}/memories/{x}/delete",
    "/agents/{id}/knowledge",
    "/agents/{id}/knowledge/url",
    "/agents/{id}/outreach",
    "/agents/{id}/outreach/sender",
    "/agents/{id}/outreach/{x}",
    "/agents/{id}/outreach/{x}/approve",
    "/agents/{id}/outreach/{x}/reject",
    "/agents/{id}/outreach/{x}/reply",
    "/agents/{id}/outreach/{x}/close",
    "/agents/{id}/notifications/read-all",
    "/agents/{id}/notifications/{x}/read",
    "/agents/{id}/telegram",
    "/agents/{id}/telegram/disconnect",
    "/agents/{id}/proactive",
    "/agents/{id}/proactive/{x}/accept",
    "/agents/{id}/proactive/{x}/dismiss",
    "/agents/{id}/feed/posts",
    "/agents/{id}/feed/digest",
    "/agents/{id}/feed/{x}/like",
    "/agents/{id}/feed/{x}/comments",
    "/agents/{id}/feed/{x}/moderate",
    "/agents/{id}/feed/{x}/comments/{x}/delete",
    "/agents/{id}/skills/install",
    "/agents/{id}/skills/publish",
    "/agents/{id}/skills/{x}/remove",
    "/agents/{id}/skills/{x}/rate",
    "/agents/{id}/economy/tip",
    "/agents/{id}/economy/tips/{x}",
    "/agents/{id}/economy/settings",
    "/agents/{id}/economy/services",
    "/agents/{id}/economy/orders",
    "/agents/{id}/economy/orders/{x}",
    "/agents/{id}/economy/stakes",
    "/agents/{id}/economy/stakes/{x}/withdraw",
    "/agents/{id}/economy/token",
];

/// Posts a urlencoded form with the owner's session, without following redirects (so a
/// redirect's target can be checked).
/// A form value, encoded for a form body or a query string.
pub fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

pub async fn post(app: &TestApp, who: &Session, path: &str, form: &str) -> Reply {
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

/// The CSRF token a page renders into its forms.
pub fn csrf_in(page: &str) -> String {
    let (_, rest) = page.split_once(r#"name="csrf" value=""#).expect("the page has a form with a CSRF token");
    rest.split('"').next().unwrap().to_string()
}

/// A form body: the CSRF token, then `fields`, encoded.
pub fn form_body(csrf: &str, fields: &[(&str, &str)]) -> String {
    std::iter::once(("csrf", csrf))
        .chain(fields.iter().copied())
        .map(|(k, v)| format!("{k}={}", urlencode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The session's CSRF token, as the agents page renders it into its forms.
async fn csrf_of(app: &TestApp, who: &Session) -> String {
    let page = app.send(app.as_bearer(&who.token, Method::GET, "/agents")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    csrf_in(&page.text)
}

/// An app with two tenants' owners, Alice (who has an agent, whose id comes last) and Mallory.
async fn alice_and_mallory() -> (TestApp, Session, Session, String) {
    // Every dashboard post, three times, from one address: no per-address limit here.
    let app = TestApp::builder().env("MINICLAW_RATE_LIMIT_IP", "0").spawn().await;
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
            // A page with a way back, not the API's JSON.
            assert!(r.text.contains("<h1>Not allowed</h1>") && r.text.contains("href=/agents"), "{path}: {}", r.text);
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
    let pages = [
        "",
        "/settings",
        "/keys",
        "/activity",
        "/chat",
        "/soul",
        "/mind",
        "/poc",
        "/memories",
        &format!("/memories/{memory}"),
        "/outreach",
        &format!("/outreach/{memory}"),
        "/notifications",
        "/proactive",
        "/feed",
        "/skills",
        "/tools",
        "/economy",
    ];
    for page in pages {
        let r = app.send(app.as_bearer(&mallory.token, Method::GET, &format!("/agents/{agent}{page}"))).await;
        assert_eq!(r.status, 404, "Mallory GET {page}: {}", r.text);
        assert!(!r.text.contains("Alice"), "the 404 leaks data: {}", r.text);
        let r = app.send(app.as_bearer(&alice.token, Method::GET, &format!("/agents/not-an-id{page}"))).await;
        assert_eq!(r.status, 404, "Alice GET not-an-id{page}: {}", r.text);
    }
    // Alice's own agent with a thread id it does not have: the same not-found page.
    let r = app.send(app.as_bearer(&alice.token, Method::GET, &format!("/agents/{agent}/outreach/{memory}"))).await;
    assert_eq!(r.status, 404, "{}", r.text);
    // The not-found page is a page with a way back (not JSON); an unknown address is the same
    // page for a browser and JSON for an API client; the icon is there.
    assert!(r.headers[CONTENT_TYPE].to_str().unwrap().starts_with("text/html"), "{:?}", r.headers);
    assert!(r.text.contains("href=/agents") && r.text.contains("not yours to see"), "{}", r.text);
    let browser = |path: &str| app.request(Method::GET, path).header("accept", "text/html,application/xhtml+xml");
    let r = app.send(browser("/no/such/page")).await;
    assert_eq!((r.status.as_u16(), r.text.contains("Back to your agents")), (404, true), "{}", r.text);
    let r = app.send(browser("/v1/no/such/route")).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (404, "not_found"), "{}", r.text);
    let r = app.send(app.request(Method::GET, "/no/such/page")).await;
    assert_eq!((r.status.as_u16(), r.error_code().as_str()), (404, "not_found"), "{}", r.text);
    let icon = app.send(app.request(Method::GET, "/favicon.ico")).await;
    assert_eq!((icon.status.as_u16(), icon.headers[CONTENT_TYPE].to_str().unwrap()), (200, "image/svg+xml"));
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

/// A client that does not follow redirects.
fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// The value of the hidden input `name` in a page.
fn hidden(page: &str, name: &str) -> String {
    let (_, rest) =
        page.split_once(&format!(r#"name="{name}" value=""#)).unwrap_or_else(|| panic!("no {name}: {page}"));
    rest.split('"').next().unwrap().to_string()
}

/// The `Set-Cookie` value of cookie `name`, if the reply sets it.
fn set_cookie(r: &Reply, name: &str) -> Option<String> {
    r.headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with(&format!("{name}=")))
        .map(|c| c[name.len() + 1..].split(';').next().unwrap().to_string())
}

/// Finding 13: `next` is a plain same-site path or nothing. Browsers drop tabs and newlines
/// (`/\t/evil.example` is `//evil.example` to them), so no whitespace, control character,
/// backslash or `//`, encoded or not; a newline is no longer a 500.
#[tokio::test]
async fn sign_in_goes_only_to_plain_same_site_paths() {
    let app = TestApp::spawn().await;
    app.signup("ada@example.com").await;
    let client = no_redirects();
    for next in ["/%09/evil.example", "/%0a", "/%0d%0aSet-Cookie:x=1", "/%5Cevil.example", "/%252F%252Fevil.example"] {
        let page = app.send(client.get(app.url(&format!("/login?next={next}")))).await;
        assert_eq!(page.status, 200, "{next}: {}", page.text);
        assert_eq!(hidden(&page.text, "next"), "/agents", "{next}");
    }
    for next in ["/\t/evil.example", "/\n", "/agents\r\nX: y", "/%2F/evil.example", "/ /evil.example"] {
        let page = app.send(client.get(app.url("/login"))).await;
        let csrf = hidden(&page.text, "csrf");
        let form: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("csrf", &csrf)
            .append_pair("next", next)
            .append_pair("email", "ada@example.com")
            .append_pair("password", "correct horse battery")
            .finish();
        let r = app
            .send(
                client
                    .post(app.url("/login"))
                    .header("cookie", format!("mc_csrf={csrf}"))
                    .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
                    .body(form),
            )
            .await;
        assert_eq!(r.status, 303, "{next:?}: {}", r.text);
        assert_eq!(r.headers[LOCATION], "/agents", "{next:?}");
    }
}

/// Signs up through the API; returns the refresh token.
async fn refresh_token_of_new_owner(app: &TestApp) -> String {
    let r = app
        .send(
            app.request(Method::POST, "/v1/auth/signup")
                .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    r.json()["refresh_token"].as_str().unwrap().to_string()
}

/// Posts the refresh form with the refresh cookie.
async fn post_refresh(app: &TestApp, refresh: &str, form: &str) -> Reply {
    app.send(
        no_redirects()
            .post(app.url("/refresh"))
            .header("cookie", format!("mc_refresh={refresh}"))
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form.to_string()),
    )
    .await
}

/// Finding 13: refreshing is a POST with a CSRF token (the GET page only renders a form that
/// posts itself), `next` is checked strictly, and two tabs refreshing at once both stay signed in.
#[tokio::test]
async fn refresh_is_a_post_and_two_tabs_refreshing_at_once_stay_signed_in() {
    let app = TestApp::spawn().await;
    let refresh = refresh_token_of_new_owner(&app).await;
    let client = no_redirects();

    // The page changes nothing: no new cookies, and the refresh token is still the current one.
    let page = app
        .send(client.get(app.url("/refresh?next=/%09/evil.example")).header("cookie", format!("mc_refresh={refresh}")))
        .await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains(r#"method="post" action="/refresh""#), "{}", page.text);
    assert_eq!(hidden(&page.text, "next"), "/agents");
    assert_eq!(set_cookie(&page, "mc_session"), None);
    assert_eq!(set_cookie(&page, "mc_refresh"), None);
    let csrf = hidden(&page.text, "csrf");
    let r = app.send(client.get(app.url("/refresh?next=%0a")).header("cookie", format!("mc_refresh={refresh}"))).await;
    assert_eq!(r.status, 200, "a newline in next: {}", r.text);
    // Without a refresh cookie there is nothing to refresh.
    let r = app.send(client.get(app.url("/refresh?next=/agents/x"))).await;
    assert_eq!(r.status, 303);
    assert_eq!(r.headers[LOCATION], "/login?next=%2Fagents%2Fx");

    // Without the CSRF token, or with another, the post is refused.
    for form in ["next=%2Fagents".to_string(), format!("csrf={}&next=%2Fagents", "0".repeat(32))] {
        let r = post_refresh(&app, &refresh, &form).await;
        assert_eq!(r.status, 403, "{form}: {}", r.text);
    }

    // Two tabs at once, with the same cookie and a hostile next: both signed in, same cookie.
    let form = format!("csrf={csrf}&next=%2F%09%2Fevil.example");
    let (a, b) = tokio::join!(post_refresh(&app, &refresh, &form), post_refresh(&app, &refresh, &form));
    for r in [&a, &b] {
        assert_eq!(r.status, 303, "{}", r.text);
        assert_eq!(r.headers[LOCATION], "/agents");
    }
    let new_refresh = set_cookie(&a, "mc_refresh").expect("a new refresh cookie");
    assert_eq!(set_cookie(&b, "mc_refresh"), Some(new_refresh.clone()));
    for r in [&a, &b] {
        let session = set_cookie(r, "mc_session").unwrap();
        let page = app.send(client.get(app.url("/agents")).header("cookie", format!("mc_session={session}"))).await;
        assert_eq!(page.status, 200, "{}", page.text);
    }
    // The new cookie goes on to the page that was asked for.
    let r = post_refresh(&app, &new_refresh, &format!("csrf={csrf}&next=%2Fagents%2Fnew")).await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(r.headers[LOCATION], "/agents/new");
}
