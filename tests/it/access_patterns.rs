//! SPEC X11: retrievals leave access events; the nightly mirror reports hot memories, gaps,
//! friction and resonance, promotes a memory used across three conversations, splits a hot
//! swamp, and asks the owner to review a heavy pinned context.

use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::chat_support::Chat;
use crate::common::TestApp;

async fn mirror(c: &Chat) -> Value {
    let r = c.app.send(c.app.admin(Method::POST, &format!("/v1/admin/agents/{}/run/mirror", c.id))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()["result"].clone()
}

async fn remember(c: &Chat, content: &str, category: &str) -> Uuid {
    let r = c.app.send(c.post("/memories").json(&json!({ "content": content, "category": category }))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    r.json()["id"].as_str().unwrap().parse().unwrap()
}

async fn search(c: &Chat, query: &str) -> Value {
    let r = c.app.send(c.post("/memories/search").json(&json!({ "query": query }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

#[tokio::test]
async fn the_mirror_promotes_what_three_conversations_use_and_reports_gaps_friction_and_resonance() {
    let c = Chat::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let cat = remember(&c, "The user's cat is called Miso and loves tuna", "context").await;
    let vet = remember(&c, "Miso sees the vet every March", "context").await;
    // Three conversations, each retrieving the cat (and the vet) in context: the chat turn
    // writes its access event in the statement that finishes it.
    for _ in 0..3 {
        let first = c.say("What does my cat Miso like to eat?", None).await;
        let conversation = first["conversation_id"].as_str().unwrap().to_string();
        c.say("When does Miso see the vet?", Some(&conversation)).await;
    }
    let chat_events: i64 = sqlx::query_scalar("SELECT count(*) FROM memory_access_events WHERE source = 'chat'")
        .fetch_one(c.app.pool())
        .await
        .unwrap();
    assert!(chat_events >= 3, "{chat_events}");
    // A search leaves one too; a question nothing answers is a gap, asked twice it is friction.
    search(&c, "Miso tuna").await;
    for _ in 0..2 {
        search(&c, "Which  train do I take to work?").await;
    }

    let r = mirror(&c).await;
    assert!(r["promoted"].as_array().unwrap().iter().any(|p| p == &json!(cat.to_string())), "{r}");
    let m = c.get(&format!("/memories/{cat}")).await;
    assert_eq!(m["pinned"], true);
    let history = c.get(&format!("/memories/{cat}/history")).await;
    assert!(history.as_array().unwrap().last().unwrap()["reason"].as_str().unwrap().contains("promoted"));
    let hot = r["hot"].as_array().unwrap().iter().find(|h| h["memory_id"] == json!(cat.to_string())).expect("hot");
    assert!(hot["accesses"].as_i64().unwrap() >= 5 && hot["conversations"] == 3, "{hot}");
    let gap = r["gaps"].as_array().unwrap().iter().find(|g| g["query"] == "which train do i take to work?");
    assert!(gap.is_some_and(|g| g["times"] == 2), "{r}");
    assert!(r["friction"].as_array().unwrap().iter().any(|f| f["query"] == "which train do i take to work?"), "{r}");
    let pair = json!({ "a": cat.min(vet).to_string(), "b": cat.max(vet).to_string(), "conversations": 3 });
    assert!(r["resonance"].as_array().unwrap().iter().any(|p| p == &pair), "{r}");
    // Promotion is not repeated, and demotion is never automatic.
    assert!(mirror(&c).await["promoted"].as_array().unwrap().is_empty());
    let api = c.get("/mirror").await;
    assert_eq!(api["report"]["promoted"], json!([]), "the newest report: {api}");
}

#[tokio::test]
async fn a_hot_swamp_is_split_into_focused_memories_and_a_heavy_pinned_context_asks_for_review() {
    let c = Chat::new(TestApp::builder().admin_password("pw").spawn().await).await;
    let swamp_text = "The user's garden has tomatoes along the south fence that need water every evening. \
        The apple tree by the shed was planted in 2019 and gives fruit in September. \
        The compost heap behind the garage is turned on the first Sunday of each month. \
        The herb bed near the kitchen door holds basil, thyme and a stubborn rosemary bush. \
        Slugs are kept off the lettuce with copper tape around the raised beds.";
    let swamp = remember(&c, swamp_text, "context").await;
    for q in ["garden tomatoes water", "apple tree shed", "compost heap garage", "herb bed basil"] {
        search(&c, q).await;
    }
    // Pinned memories heavier than the limit.
    for i in 0..5 {
        let id = remember(
            &c,
            &format!("{i} {}", "a pinned note that the owner wants kept in every chat. ".repeat(16)),
            "context",
        )
        .await;
        let r = c
            .app
            .send(
                c.app
                    .as_bearer(&c.owner.token, Method::PATCH, &c.path(&format!("/memories/{id}")))
                    .json(&json!({ "pinned": true })),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }

    let r = mirror(&c).await;
    let split = r["swamps_split"].as_array().unwrap();
    assert_eq!(split.len(), 1, "{r}");
    assert_eq!(split[0]["memory_id"], json!(swamp.to_string()));
    let chunks = split[0]["chunks"].as_array().unwrap();
    assert!(chunks.len() >= 2, "{r}");
    for id in chunks {
        let m = c.get(&format!("/memories/{}", id.as_str().unwrap())).await;
        assert!(m["embedding_model"].is_string(), "re-embedded: {m}");
        assert!(swamp_text.contains(m["content"].as_str().unwrap().trim_end_matches('.')), "{m}");
    }
    let old = c.get(&format!("/memories/{swamp}")).await;
    assert_eq!(old["status"], "archived");
    let rel = c.get(&format!("/memories/{swamp}/relations")).await;
    assert_eq!(rel["relations"].as_array().unwrap().len(), chunks.len());
    // The pieces answer their own questions now.
    let found = search(&c, "compost heap").await;
    assert!(found["results"][0]["memory"]["content"].as_str().unwrap().contains("compost"), "{found}");

    assert!(r["pinned_chars"].as_i64().unwrap() > 4000 && r["review_requested"] == true, "{r}");
    let notes = c.get("/notifications").await;
    assert!(notes.to_string().contains("memory_review"), "{notes}");
    let pinned: i64 =
        sqlx::query_scalar("SELECT count(*) FROM agent_memories WHERE pinned").fetch_one(c.app.pool()).await.unwrap();
    assert_eq!(pinned, 5, "nothing is unpinned automatically");
}
