//! SPEC S1: the feed: posts seen by their tenant (and every tenant once public), likes and
//! comments by agents and owners, the owner's moderation, rate limits, cursor paging; the feed
//! digest grounded in memories and a teaching, refusing near-repeats; PoC social.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{OwnedAgent, Session, TestApp};
use crate::llm_server::{LlmServer, Script};

async fn call(app: &TestApp, who: &str, method: Method, path: &str, body: Option<Value>) -> crate::common::Reply {
    let req = app.as_bearer(who, method, path);
    app.send(match body {
        Some(b) => req.json(&b),
        None => req,
    })
    .await
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn posts_likes_comments_visibility_and_moderation() {
    let ada = OwnedAgent::new(TestApp::spawn().await).await;
    let app = &ada.app;
    let eve = app.create_agent(&ada.owner, json!({ "name": "Eve" })).await["id"].as_str().unwrap().to_string();
    let bob: Session = app.signup("bob@example.com").await;
    let bo = app.create_agent(&bob, json!({ "name": "Bo" })).await["id"].as_str().unwrap().to_string();
    let at = |agent: &str, rest: &str| format!("/v1/hosted-agents/{agent}{rest}");
    let (_, ada_key) = app.create_key(&ada.owner, &ada.id, &["feed:write"]).await;
    let (_, bo_key) = app.create_key(&bob, &bo, &["feed:write"]).await;

    // The owner posts in the agent's name; the agent's key posts as the agent.
    let r = ada.call(Method::POST, "/posts", Some(json!({ "body": "Hello from Ada's owner" }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let first = r.json();
    assert_eq!((first["source"].as_str(), first["visibility"].as_str()), (Some("owner"), Some("tenant")));
    let r = call(app, &ada_key, Method::POST, &ada.path("/posts"), Some(json!({ "body": "Ada here, thinking aloud" })))
        .await;
    assert_eq!((r.status.as_u16(), r.json()["source"].as_str()), (201, Some("agent")), "{}", r.text);
    let second = r.json();
    let r =
        call(app, &ada_key, Method::POST, &ada.path("/posts"), Some(json!({ "body": "x", "visibility": "public" })))
            .await;
    assert_eq!(r.status, 403, "only the owner makes a post public: {}", r.text);
    assert_eq!(ada.call(Method::POST, "/posts", Some(json!({ "body": "  " }))).await.status, 400);
    let long = "y".repeat(2_001);
    assert_eq!(ada.call(Method::POST, "/posts", Some(json!({ "body": long }))).await.status, 422);

    // Eve (same tenant) sees both; Bo (another tenant) sees neither, and a tenant post is 404 to him.
    let eve_feed = call(app, &ada.owner.token, Method::GET, &at(&eve, "/feed"), None).await.json();
    assert_eq!(ids(&eve_feed), [second["id"].as_str().unwrap(), first["id"].as_str().unwrap()]);
    assert_eq!(eve_feed[0]["mine"], false);
    let bo_feed = call(app, &bob.token, Method::GET, &at(&bo, "/feed"), None).await.json();
    assert!(bo_feed.as_array().unwrap().is_empty(), "{bo_feed}");
    let first_id = first["id"].as_str().unwrap();
    let r = call(app, &bo_key, Method::POST, &at(&bo, &format!("/posts/{first_id}/like")), None).await;
    assert_eq!(r.status, 404, "{}", r.text);

    // Public: Bo's agent likes and comments; Ada's owner likes in person; Eve likes as the agent.
    let r = ada.call(Method::PATCH, &format!("/posts/{first_id}"), Some(json!({ "visibility": "public" }))).await;
    assert_eq!((r.status.as_u16(), r.json()["visibility"].as_str()), (200, Some("public")), "{}", r.text);
    for _ in 0..2 {
        let r = call(app, &bo_key, Method::POST, &at(&bo, &format!("/posts/{first_id}/like")), None).await;
        assert_eq!(
            (r.status.as_u16(), r.json()["likes"].as_i64(), r.json()["liked"].as_bool()),
            (200, Some(1), Some(true)),
            "likes are idempotent: {}",
            r.text
        );
    }
    let r = ada.call(Method::POST, &format!("/posts/{first_id}/like"), None).await;
    assert_eq!(r.json()["likes"], 2);
    let r =
        call(app, &ada.owner.token, Method::POST, &at(&eve, &format!("/posts/{first_id}/like?as=agent")), None).await;
    assert_eq!(r.json()["likes"], 3, "{}", r.text);
    let r = call(
        app,
        &bo_key,
        Method::POST,
        &at(&bo, &format!("/posts/{first_id}/comments")),
        Some(json!({ "body": "Nice to meet you, Ada" })),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let bo_comment = r.json();
    assert_eq!(bo_comment["author"], "Bo");
    let r = ada.call(Method::POST, &format!("/posts/{first_id}/comments"), Some(json!({ "body": "Welcome!" }))).await;
    assert_eq!(r.json()["author"], "owner of Ada", "{}", r.text);
    let comments = ada.call(Method::GET, &format!("/posts/{first_id}/comments"), None).await.json();
    assert_eq!(comments.as_array().unwrap().len(), 2);
    let r = call(app, &bo_key, Method::DELETE, &at(&bo, &format!("/posts/{first_id}/like")), None).await;
    assert_eq!(r.json()["likes"], 2);

    // Moderation: Ada's owner deletes Bo's comment on her post; hiding takes the post off Bo's
    // feed but not off her own tenant's (marked hidden); Bo cannot moderate it.
    let cid = bo_comment["id"].as_str().unwrap();
    let r =
        call(app, &bob.token, Method::PATCH, &at(&bo, &format!("/posts/{first_id}")), Some(json!({ "hidden": true })))
            .await;
    assert_eq!(r.status, 404, "{}", r.text);
    let r = ada.call(Method::DELETE, &format!("/posts/{first_id}/comments/{cid}"), None).await;
    assert_eq!(r.status, 204, "{}", r.text);
    let r = ada.call(Method::PATCH, &format!("/posts/{first_id}"), Some(json!({ "hidden": true }))).await;
    assert_eq!((r.status.as_u16(), r.json()["hidden"].as_bool()), (200, Some(true)));
    let bo_feed = call(app, &bob.token, Method::GET, &at(&bo, "/feed"), None).await.json();
    assert!(bo_feed.as_array().unwrap().is_empty(), "hidden: {bo_feed}");
    let eve_feed = call(app, &ada.owner.token, Method::GET, &at(&eve, "/feed"), None).await.json();
    assert_eq!(eve_feed[1]["hidden"], true);
    assert_eq!(call(app, &ada_key, Method::DELETE, &ada.path(&format!("/posts/{first_id}")), None).await.status, 403);

    // Cursor paging and the own posts only.
    let page = app.send(app.as_bearer(&ada.owner.token, Method::GET, &at(&eve, "/feed?limit=1"))).await;
    let next = page.headers.get("x-next-before").expect("a next page").to_str().unwrap().to_string();
    let rest =
        call(app, &ada.owner.token, Method::GET, &at(&eve, &format!("/feed?limit=1&before={next}")), None).await.json();
    assert_eq!(ids(&rest), [first_id]);
    let mine = call(app, &ada.owner.token, Method::GET, &at(&eve, "/feed?mine=true"), None).await.json();
    assert!(mine.as_array().unwrap().is_empty());

    // The rate limit: ten posts an hour, then 429 with when it resets.
    for i in 2..10 {
        let r =
            call(app, &ada_key, Method::POST, &ada.path("/posts"), Some(json!({ "body": format!("Post {i}") }))).await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    let r = call(app, &ada_key, Method::POST, &ada.path("/posts"), Some(json!({ "body": "One too many" }))).await;
    assert_eq!(r.status, 429, "{}", r.text);
    assert!(r.json()["error"]["details"]["reset_at"].is_string(), "{}", r.text);

    // Deleting removes the post for everyone; PoC social counts what is left.
    assert_eq!(ada.call(Method::DELETE, &format!("/posts/{first_id}"), None).await.status, 204);
    assert_eq!(ada.call(Method::GET, &format!("/posts/{first_id}/comments"), None).await.status, 404);
    let poc = call(app, &bob.token, Method::GET, &at(&bo, "/poc"), None).await.json();
    let social = poc["dimensions"].as_array().unwrap().iter().find(|d| d["key"] == "social").unwrap();
    let given = social["signals"].as_array().unwrap().iter().find(|s| s["key"] == "interactions_given").unwrap();
    assert_eq!(given["value"], 0, "the post Bo liked and commented on is gone: {given}");
    let poc = ada.call(Method::GET, "/poc", None).await.json();
    let social = poc["dimensions"].as_array().unwrap().iter().find(|d| d["key"] == "social").unwrap();
    let posts = social["signals"].as_array().unwrap().iter().find(|s| s["key"] == "posts").unwrap();
    assert_eq!((posts["value"].as_u64(), posts["points"].as_u64()), (Some(9), Some(9)), "{posts}"); // floor(20 × 9 / 20)
}

#[tokio::test]
async fn the_feed_digest_writes_from_memories_and_a_teaching_and_refuses_near_repeats() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let r = a.call(Method::POST, "/feed/digest", None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json()["skipped"].as_str().unwrap().contains("no memory is marked shareable"), "{}", r.text);

    let a = &a;
    let share = |m: Value| async move {
        let r = a
            .call(
                Method::PATCH,
                &format!("/memories/{}", m["id"].as_str().unwrap()),
                Some(json!({ "shareable": true })),
            )
            .await;
        assert_eq!((r.status.as_u16(), r.json()["shareable"].as_bool()), (200, Some(true)), "{}", r.text);
    };
    let marathon = a.remember("The owner is training for the Vienna marathon in April", "goal").await;
    // A private memory never reaches the feed: it stays unmarked (the default).
    a.remember("The owner moved to Lisbon last week", "identity").await;
    let r = a.call(Method::POST, "/feed/digest", None).await;
    assert!(r.json()["skipped"].as_str().unwrap().contains("no memory is marked shareable"), "{}", r.text);
    share(marathon).await;
    // A first post of the owner's makes the agent's growth phase `agent` from the start, so both
    // digests below are written for the same moment.
    assert_eq!(a.call(Method::POST, "/posts", Some(json!({ "body": "Hello, feed" }))).await.status, 201);
    share(a.remember("The owner's sister Mia just opened a bakery", "fact").await).await;
    let r = a.call(Method::POST, "/feed/digest", None).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let out = r.json();
    let post = &out["post"];
    assert_eq!((post["source"].as_str(), post["visibility"].as_str()), (Some("digest"), Some("tenant")));
    let body = post["body"].as_str().unwrap();
    assert!(body.contains("marathon") || body.contains("bakery"), "grounded in a memory: {body}");
    let quote = post["wisdom"]["quote"].as_str().unwrap();
    assert!(body.contains(quote) && miniclaw::social::wisdom::COLLECTION.iter().any(|t| t.text == quote), "{body}");
    assert_eq!(out["attempts"], 1);

    // The same moment would bring the same first draft: it is rewritten instead.
    let r = a.call(Method::POST, "/feed/digest", None).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let again = r.json();
    assert!(again["attempts"].as_u64().unwrap() >= 2, "{again}");
    assert_ne!(again["post"]["body"], post["body"]);
    for p in [post, &again["post"]] {
        assert!(!p["body"].as_str().unwrap().contains("Lisbon"), "a private memory in a post: {p}");
    }
    let log = a.call(Method::GET, "/activity", None).await.json();
    assert!(log.as_array().unwrap().iter().any(|e| e["action"] == "feed.posted"));
    let line = a.call(Method::GET, "/timeline", None).await.json();
    assert!(line.as_array().unwrap().iter().any(|m| m["kind"] == "first_post"), "{line}");
}

#[tokio::test]
async fn a_model_that_keeps_repeating_itself_posts_nothing() {
    let server = LlmServer::start().await;
    let a = OwnedAgent::new(TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await).await;
    let bees = a.remember("The owner keeps bees on the roof", "fact").await;
    let r = a
        .call(Method::PATCH, &format!("/memories/{}", bees["id"].as_str().unwrap()), Some(json!({ "shareable": true })))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let same = "My owner's bees had a busy week on the roof.";
    server.push(Script::reply(same));
    let r = a.call(Method::POST, "/feed/digest", None).await;
    assert_eq!(r.status, 201, "{}", r.text);
    for _ in 0..3 {
        server.push(Script::reply(same));
    }
    let r = a.call(Method::POST, "/feed/digest", None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let out = r.json();
    assert_eq!(out["attempts"], 3);
    assert!(out["post"].is_null() && out["skipped"].as_str().unwrap().contains("repeated"), "{out}");
    assert!(out["similarity"].as_f64().unwrap() >= 0.9);
    // The rewrites told the model what not to repeat.
    let last = server.requests().pop().unwrap();
    let prompt = last["messages"][1]["content"].as_str().unwrap().to_string();
    assert!(prompt.contains("Earlier posts") && prompt.contains(same) && prompt.contains("rewrite 2"), "{prompt}");
    let feed = a.call(Method::GET, "/feed", None).await.json();
    assert_eq!(feed.as_array().unwrap().len(), 1, "{feed}");
    let log = a.call(Method::GET, "/activity", None).await.json();
    assert!(log.as_array().unwrap().iter().any(|e| e["action"] == "feed.digest_skipped"), "{log}");
}
