//! SPEC R7, X1, X3 `updates`, P6: a newer value of a fact replaces the older one in search while
//! the older stays in history and behind the relation, and a question about the past finds it;
//! owners' and pinned memories stay; the search threshold follows the query; with the offline
//! engine every message is learned from at once, and small talk is not; a move said in chat is
//! the user's home; a question through two people reaches its three memories by bridging.

use reqwest::Method;
use serde_json::{Value, json};

use crate::chat_support::Chat;
use crate::common::{OwnedAgent, TestApp, minilm};

fn contents(search: &Value) -> Vec<String> {
    search["results"].as_array().unwrap().iter().map(|r| r["memory"]["content"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn a_newer_value_replaces_the_older_in_search_and_the_older_stays_in_history() {
    let a = OwnedAgent::new(TestApp::spawn().await).await;
    let porto = a.remember("I live in Porto, near the river.", "identity").await;
    a.remember("I love hiking in the mountains.", "interest").await;
    let lisbon = a.remember("We moved again, I live in Lisbon now.", "identity").await;
    // A second interest is not a newer value of the first.
    a.remember("I also love climbing.", "interest").await;

    let found = a.search(json!({ "query": "where do I live?" })).await;
    let got = contents(&found);
    assert_eq!(got.first().map(String::as_str), Some("We moved again, I live in Lisbon now."), "{got:?}");
    assert!(!got.iter().any(|c| c.contains("Porto")), "the replaced value is out of search: {got:?}");
    let hobbies = contents(&a.search(json!({ "query": "hiking climbing" })).await);
    assert_eq!(hobbies.len(), 2, "{hobbies:?}");
    // A question about the past finds the value that was replaced, ahead of what replaced it.
    let before = a.search(json!({ "query": "where did I live before Lisbon?" })).await;
    let got = contents(&before);
    assert_eq!(got.first().map(String::as_str), Some("I live in Porto, near the river."), "{got:?}");
    assert_eq!(before["results"][0]["found_by"], json!(["history"]), "{before}");
    assert_eq!(before["explanation"]["history"]["candidates"], 1, "{before}");

    // The old value is still there, marked, with the relation and the reason in its history.
    let (porto_id, lisbon_id) = (porto["id"].as_str().unwrap(), lisbon["id"].as_str().unwrap());
    let old = a.call(Method::GET, &format!("/memories/{porto_id}"), None).await.json();
    assert!(old["invalid_at"].is_string(), "{old}");
    let rel = a.call(Method::GET, &format!("/memories/{lisbon_id}/relations"), None).await;
    assert_eq!(rel.status, 200, "{}", rel.text);
    let rel = rel.json();
    assert_eq!(rel["memory"]["id"], lisbon["id"]);
    assert_eq!(rel["truncated"], false);
    let r = &rel["relations"][0];
    assert_eq!((r["kind"].as_str(), r["direction"].as_str()), (Some("updates"), Some("outgoing")));
    assert_eq!(r["memory"]["content"], "I live in Porto, near the river.");
    assert!(r["reason"].as_str().unwrap().contains("home"), "{r}");
    // What was it before? The old memory names what replaced it.
    let back = a.call(Method::GET, &format!("/memories/{porto_id}/relations"), None).await.json();
    assert_eq!(back["relations"][0]["direction"], "incoming");
    assert_eq!(back["relations"][0]["memory"]["id"], lisbon["id"]);
    let history = a.call(Method::GET, &format!("/memories/{porto_id}/history"), None).await.json();
    let last = history.as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["change"], "invalidate");
    assert!(last["reason"].as_str().unwrap().contains(lisbon_id), "{last}");

    // The dashboard's memory page shows the relation both ways.
    for (id, other) in
        [(lisbon_id, "I live in Porto, near the river."), (porto_id, "We moved again, I live in Lisbon now.")]
    {
        let page =
            a.app.send(a.app.as_bearer(&a.owner.token, Method::GET, &format!("/agents/{}/memories/{id}", a.id))).await;
        assert_eq!(page.status, 200);
        assert!(page.text.contains(r#"data-testid="relations""#) && page.text.contains(other), "{}", page.text);
        // Only the replaced one offers to make it current again.
        assert_eq!(page.text.contains(r#"data-testid="restore""#), id == porto_id, "{}", page.text);
    }

    // The dashboard's list of live memories leaves the replaced one out; the list of active
    // ones shows it, marked.
    let list = a.app.send(a.app.as_bearer(&a.owner.token, Method::GET, &format!("/agents/{}/memories", a.id))).await;
    assert!(
        !list.text.contains(r#"data-testid="replaced""#) && !list.text.contains("I live in Porto"),
        "{}",
        list.text
    );
    let list = a
        .app
        .send(a.app.as_bearer(&a.owner.token, Method::GET, &format!("/agents/{}/memories?status=active", a.id)))
        .await;
    assert_eq!(list.text.matches(r#"data-testid="replaced""#).count(), 1, "{}", list.text);

    // The detector was wrong, say: the old value is made current again, once.
    let r = a
        .call(Method::POST, &format!("/memories/{porto_id}/restore"), Some(json!({ "reason": "both are true" })))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json()["invalid_at"].is_null());
    let again = a.call(Method::POST, &format!("/memories/{porto_id}/restore"), Some(json!({}))).await;
    assert_eq!(again.status, 409, "{}", again.text);
    let both = contents(&a.search(json!({ "query": "where do I live?" })).await);
    assert!(both.iter().any(|c| c.contains("Porto")) && both.iter().any(|c| c.contains("Lisbon")), "{both:?}");
    let rel = a.call(Method::GET, &format!("/memories/{porto_id}/relations"), None).await.json();
    assert_eq!(rel["relations"], json!([]));
    let history = a.call(Method::GET, &format!("/memories/{porto_id}/history"), None).await.json();
    let last = history.as_array().unwrap().last().unwrap().clone();
    assert_eq!((last["change"].as_str(), last["reason"].as_str()), (Some("restore"), Some("both are true")));

    // Unknown and foreign ids are 404.
    let missing = a.call(Method::GET, &format!("/memories/{}/relations", uuid::Uuid::now_v7()), None).await;
    assert_eq!(missing.status, 404);
}

#[tokio::test]
async fn pinned_memories_and_the_owners_word_are_not_replaced_by_what_chat_learns() {
    let c = Chat::new(TestApp::spawn().await).await;
    let c = &c;
    let add = |body: Value| {
        let req = c.app.as_bearer(&c.owner.token, Method::POST, &c.path("/memories")).json(&body);
        async move { c.app.send(req).await.json() }
    };
    // Written by the owner (source `owner`): authoritative.
    let owner_fact = add(json!({ "content": "I live in Porto.", "category": "identity" })).await;
    let pinned =
        add(json!({ "content": "My favourite band is Radiohead.", "category": "preference", "pinned": true })).await;
    c.say("We moved to Lisbon last month, I live in Lisbon now.", None).await;
    c.say("Wilco has replaced Radiohead as my favourite band.", None).await;
    c.app.run_jobs().await;
    let memories = c.memories_at_least(4).await;
    let learned: Vec<&str> =
        memories.iter().filter(|m| m["source"] == "conversation").map(|m| m["content"].as_str().unwrap()).collect();
    assert!(learned.iter().any(|m| m.contains("Lisbon")) && learned.iter().any(|m| m.contains("Wilco")), "{learned:?}");
    for kept in [&owner_fact, &pinned] {
        let m = c.get(&format!("/memories/{}", kept["id"].as_str().unwrap())).await;
        assert!(m["invalid_at"].is_null(), "{m}");
    }
}

#[tokio::test]
async fn with_the_offline_engine_each_message_is_learned_at_once_and_small_talk_is_not() {
    let c = Chat::new(TestApp::spawn().await).await;
    c.say("Oh btw I adopted a beagle called Pixel last weekend.", None).await;
    c.app.run_jobs().await;
    let memories = c.memories_at_least(1).await;
    let got: Vec<&str> = memories.iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert_eq!(got, ["The user adopted a beagle called Pixel last weekend"]);
    let queued: i64 =
        sqlx::query_scalar("SELECT count(*) FROM extraction_queue").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(queued, 0, "one message is a whole batch when extraction is free");

    for talk in ["I'm so tired today", "haha that's hilarious", "can you tell me a joke?", "I think so"] {
        c.say(talk, None).await;
    }
    c.app.run_jobs().await;
    let after = c.get("/memories").await;
    assert_eq!(after.as_array().unwrap().len(), 1, "{after}");
}

#[tokio::test]
async fn a_question_in_other_words_still_finds_the_memory_that_answers_it() {
    let a = OwnedAgent::new(minilm().await).await;
    a.remember("Please keep your answers short and skip the emojis.", "preference").await;
    a.remember("My sister Ana lives in Lisbon with her husband.", "identity").await;
    a.remember("I'm allergic to peanuts.", "identity").await;
    let found = a.search(json!({ "query": "how should you format your replies to me?" })).await;
    let got = contents(&found);
    assert_eq!(got.first().map(String::as_str), Some("Please keep your answers short and skip the emojis."), "{found}");
    // The threshold is relative to the nearest memory, and the explanation says which it was.
    assert_eq!(found["explanation"]["vector"]["searched"], true);
    let food = contents(&a.search(json!({ "query": "is there any food I must avoid?" })).await);
    assert_eq!(food.first().map(String::as_str), Some("I'm allergic to peanuts."), "{food:?}");
}

#[tokio::test]
async fn a_move_said_in_chat_updates_where_the_user_lives_and_the_reply_knows_it() {
    let c = Chat::new(minilm().await).await;
    c.say("Hi! My name is Dana and I live in Vienna.", None).await;
    c.app.run_jobs().await;
    c.say("Actually I moved to Lisbon last week.", None).await;
    c.app.run_jobs().await;

    let memories = c.memories_at_least(2).await;
    let current: Vec<&str> =
        memories.iter().filter(|m| m["invalid_at"].is_null()).map(|m| m["content"].as_str().unwrap()).collect();
    assert!(current.contains(&"The user lives in Lisbon"), "{current:?}");
    assert!(!current.iter().any(|m| m.contains("Vienna")), "the old home is replaced: {current:?}");

    let reply = c.say("Where do I live?", None).await;
    let text = reply["reply"].as_str().unwrap();
    assert!(text.contains("Lisbon") && !text.contains("Vienna"), "{reply}");

    let c = &c;
    let search = |query: &'static str| async move {
        let found = c.app.send(c.post("/memories/search").json(&json!({ "query": query }))).await;
        assert_eq!(found.status, 200, "{}", found.text);
        contents(&found.json())
    };
    let got = search("Where do I live?").await;
    assert_eq!(got.first().map(String::as_str), Some("The user lives in Lisbon"), "{got:?}");
    // Asked by the user's name, the name and the home are the two best.
    let got = search("where does Dana live").await;
    assert!(got.iter().take(2).any(|m| m == "The user lives in Lisbon"), "{got:?}");
}

#[tokio::test]
async fn a_question_through_two_people_reaches_all_three_memories_by_bridging() {
    let a = OwnedAgent::new(minilm().await).await;
    for fact in [
        "Brimar's sister is Turimar",
        "Turimar is married to Zeritek",
        "Zeritek is employed as a nurse at the Cedar Clinic",
        "Turimar lives in Aldmere",
        "Zeritek plays the cello",
        "Brimar works at the Harbour Bakery",
        "Kalo's sister is Renmo",
        "Renmo works at the Maple Library",
    ] {
        a.remember(fact, "context").await;
    }
    let question = "Where does the spouse of Brimar's sister work?";
    let chain = [
        "Brimar's sister is Turimar",
        "Turimar is married to Zeritek",
        "Zeritek is employed as a nurse at the Cedar Clinic",
    ];

    let found = a.search(json!({ "query": question, "limit": 3 })).await;
    let got = contents(&found);
    assert_eq!(got, chain, "{found}");
    assert_eq!(found["explanation"]["bridge"]["candidates"], 2, "{found}");
    assert!(found["results"][1]["found_by"].as_array().unwrap().contains(&json!("bridge")), "{found}");

    // Without traversal the question reaches only what shares its words.
    let plain = a.search(json!({ "query": question, "limit": 3, "traversal": false })).await;
    assert!(!contents(&plain).contains(&chain[2].to_string()), "{plain}");
    assert_eq!(plain["explanation"]["bridge"]["searched"], false);
}
