//! SPEC X5: learned traversal. The graph grows from the memories; chat replies store the path
//! their retrieval took; a rating changes what the next similar question retrieves; a
//! correction vetoes the corrected memory on that path; health metrics per agent.

use reqwest::Method;
use serde_json::{Value, json};

use crate::chat_support::Chat;
use crate::common::TestApp;

async fn remember(c: &Chat, content: &str, category: &str) -> String {
    let r = c.app.send(c.post("/memories").json(&json!({ "content": content, "category": category }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    r.json()["id"].as_str().unwrap().to_string()
}

async fn grow(c: &Chat) -> Value {
    let r = c.app.send(c.app.admin(Method::POST, "/v1/admin/run/memory_graph")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()["result"].clone()
}

async fn search(c: &Chat, query: &str) -> Value {
    let r = c.app.send(c.post("/memories/search").json(&json!({ "query": query, "limit": 10 }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

/// The result for memory `id` in a search answer: (rank, score, traversal signal).
fn found(answer: &Value, id: &str) -> Option<(usize, f64, f64)> {
    answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .find(|(_, r)| r["memory"]["id"] == id)
        .map(|(i, r)| (i, r["score"].as_f64().unwrap(), r["signals"]["traversal"].as_f64().unwrap()))
}

async fn feedback(c: &Chat, reply: &Value, body: Value) -> crate::common::Reply {
    let path = format!(
        "/conversations/{}/messages/{}/feedback",
        reply["conversation_id"].as_str().unwrap(),
        reply["message_id"].as_str().unwrap()
    );
    c.app.send(c.post(&path).json(&body)).await
}

/// The family facts of a two-hop question, among people whose jobs are distractors.
async fn family(c: &Chat) -> (String, String, String) {
    let brother = remember(c, "My brother is called Tomas", "context").await;
    let fiancee = remember(c, "Tomas is engaged to Priya", "context").await;
    // Of a category the chat's triage does not search: only traversal brings it into a reply.
    let job = remember(c, "Priya works as a nurse at Saint Anne hospital", "relationship").await;
    for other in [
        "Lena works at the bakery on Elm street",
        "Marco works at the harbour office",
        "Greta works at the town library",
        "Yusuf works at the bike shop",
    ] {
        remember(c, other, "context").await;
    }
    (brother, fiancee, job)
}

#[tokio::test]
async fn the_graph_grows_from_shared_names_and_a_good_rating_strengthens_the_path_it_took() {
    let c = Chat::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let (brother, fiancee, job) = family(&c).await;
    let g = grow(&c).await;
    assert!(g["agents"][0]["added"]["mention"].as_u64().unwrap() >= 4, "Tomas and Priya link both ways: {g}");
    let health = c.get("/memory-graph").await;
    assert_eq!(health["nodes"], 7);
    assert!(health["edges_by_kind"]["mention"].as_i64().unwrap() >= 4, "{health}");
    assert_eq!(health["dormant_pct"]["target"], "70%-95%");
    assert_eq!(health["orphan_nodes"]["target"], "0");

    // The search reaches the answer through the bridge, and says how.
    let question = "Who is my brother engaged to, and where does she work?";
    let before = search(&c, question).await;
    let path = &before["explanation"]["traversal"]["path"];
    assert!(path["steps"].as_array().is_some_and(|s| !s.is_empty()), "{}", before["explanation"]);
    let (_, _, reached_before) = found(&before, &job).expect("the job is reached");
    assert!(reached_before > 0.0, "{before}");

    // The chat reply stores the path its context took.
    let reply = c.say(question, None).await;
    let trace = &reply["traversal"];
    assert!(trace["steps"].as_array().is_some_and(|s| !s.is_empty()), "{reply}");
    let used: Vec<&str> =
        reply["memories_used"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert!(used.contains(&brother.as_str()) || used.contains(&fiancee.as_str()), "{reply}");
    assert!(
        reply["memories_used"].as_array().unwrap().iter().any(|m| m["found_by"] == "traversal" && m["id"] == job),
        "traversal added the answer to the context: {reply}"
    );
    // The edges it followed were refreshed by the statement that finished the turn.
    let refreshed: i64 =
        sqlx::query_scalar("SELECT count(*) FROM memory_edges WHERE stamp > 0").fetch_one(c.app.pool()).await.unwrap();
    assert!(refreshed > 0, "the followed edges' decay restarts");
    let stored = c.get(&format!("/conversations/{}/messages", reply["conversation_id"].as_str().unwrap())).await;
    assert!(stored.to_string().contains("\"traversal\""), "the path is kept with the reply row");

    // A good rating moves every edge out of the path's nodes; the next similar question scores
    // what that path reaches higher.
    let r = feedback(&c, &reply, json!({ "rating": "good" })).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json()["edges_updated"].as_i64().unwrap() > 0, "{}", r.text);
    let after = search(&c, "Where does my brother's fiancée work, and who is she?").await;
    let again = search(&c, question).await;
    let (_, _, reached_after) = found(&again, &job).expect("still reached");
    assert!(reached_after > reached_before, "the path's weights grew: {reached_before} -> {reached_after}");
    assert!(found(&after, &job).is_some(), "a paraphrase reaches it too: {after}");
    let health = c.get("/memory-graph").await;
    assert_eq!(health["feedback_good"], 1);
    assert!(health["queries"].as_i64().unwrap() >= 3, "searches and the turn tick the clock: {health}");

    // One rating per reply.
    let r = feedback(&c, &reply, json!({ "rating": "bad" })).await;
    assert_eq!(r.status, 409, "{}", r.text);
    let got = c
        .get(&format!(
            "/conversations/{}/messages/{}/feedback",
            reply["conversation_id"].as_str().unwrap(),
            reply["message_id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(got["rating"], "good");
}

#[tokio::test]
async fn a_bad_rating_weakens_the_path_so_a_different_route_wins() {
    let c = Chat::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let (_, _, job) = family(&c).await;
    grow(&c).await;
    let question = "Who is my brother engaged to, and where does she work?";
    let before = found(&search(&c, question).await, &job).expect("reached").2;
    let reply = c.say(question, None).await;
    let r = feedback(&c, &reply, json!({ "rating": "bad" })).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let after = found(&search(&c, question).await, &job).map_or(0.0, |f| f.2);
    assert!(after < before, "the path's weights shrank: {before} -> {after}");
}

#[tokio::test]
async fn a_correction_vetoes_the_corrected_memory_on_that_path_until_it_is_deleted() {
    let c = Chat::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let key = remember(&c, "The spare house key hangs in the garden shed", "context").await;
    remember(&c, "The garden shed is painted green", "context").await;
    grow(&c).await;
    let question = "Where is the spare house key?";
    let reply = c.say(question, None).await;
    assert!(reply["memories_used"].to_string().contains(&key), "{reply}");

    // A correction needs memories:write on a key; a good rating cannot carry one.
    let (_, token) = c.app.create_key(&c.owner, &c.id, &["chat:write"]).await;
    let path = format!(
        "/v1/hosted-agents/{}/conversations/{}/messages/{}/feedback",
        c.id,
        reply["conversation_id"].as_str().unwrap(),
        reply["message_id"].as_str().unwrap()
    );
    let r = c.app.send(c.app.as_bearer(&token, Method::POST, &path).json(&json!({ "correction": "x" }))).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = feedback(&c, &reply, json!({ "rating": "good", "correction": "The key is with Tomas" })).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = feedback(&c, &reply, json!({ "correction": "It moved: Ama next door keeps it now", "memory_ids": [c.id] }))
        .await;
    assert_eq!(r.status, 400, "only a memory the reply used: {}", r.text);

    let r = feedback(&c, &reply, json!({ "correction": "It moved: Ama next door keeps it now" })).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let f = r.json();
    assert_eq!(f["rating"], "bad");
    assert_eq!(f["inhibited"], json!([key]), "the used memory most like the correction: {f}");
    let correction = f["correction_memory_id"].as_str().unwrap().to_string();
    let m = c.get(&format!("/memories/{key}")).await;
    assert_eq!(m["status"], "active", "the veto, not supersession, keeps it out: {m}");

    // The same question no longer retrieves the wrong memory, and retrieves the correction.
    let again = c.say(question, None).await;
    let used = again["memories_used"].to_string();
    assert!(!used.contains(&key), "{again}");
    assert!(used.contains(&correction), "{again}");
    assert!(again["traversal"]["suppressed"].to_string().contains(&key), "{again}");
    let s = search(&c, question).await;
    assert!(found(&s, &key).is_none(), "search honours the veto too: {s}");
    assert!(s["explanation"]["traversal"]["path"]["suppressed"].to_string().contains(&key));
    assert_eq!(c.get("/memory-graph").await["corrections"], 1);

    // Deleting the correction lifts the veto.
    let r =
        c.app.send(c.app.as_bearer(&c.owner.token, Method::DELETE, &c.path(&format!("/memories/{correction}")))).await;
    assert_eq!(r.status, 204, "{}", r.text);
    let s = search(&c, question).await;
    assert!(found(&s, &key).is_some(), "{s}");
}

#[tokio::test]
async fn feedback_is_for_finished_replies_of_conversations_the_caller_sees() {
    let c = Chat::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let reply = c.say("Hello there", None).await;
    let conversation = reply["conversation_id"].as_str().unwrap();
    let user_message = reply["user_message_id"].as_str().unwrap();
    let r = c
        .app
        .send(
            c.post(&format!("/conversations/{conversation}/messages/{user_message}/feedback"))
                .json(&json!({ "rating": "good" })),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    for body in [json!({}), json!({ "rating": "great" }), json!({ "correction": "  " })] {
        let r = feedback(&c, &reply, body).await;
        assert_eq!(r.status, 400, "{}", r.text);
    }
    // A reply without a traversal path is rated all the same (nothing to learn on the graph).
    let r = feedback(&c, &reply, json!({ "rating": "bad" })).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["edges_updated"], 0);
    // A bad rating may get its correction afterwards, once.
    let r = feedback(&c, &reply, json!({ "correction": "Say hello back by name" })).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = feedback(&c, &reply, json!({ "correction": "again" })).await;
    assert_eq!(r.status, 409, "{}", r.text);
    // A key does not see the owner's own conversations.
    let (_, token) = c.app.create_key(&c.owner, &c.id, &["chat:write", "memories:write"]).await;
    let path =
        c.path(&format!("/conversations/{conversation}/messages/{}/feedback", reply["message_id"].as_str().unwrap()));
    let r = c.app.send(c.app.as_bearer(&token, Method::POST, &path).json(&json!({ "rating": "good" }))).await;
    assert_eq!(r.status, 404, "{}", r.text);
}
