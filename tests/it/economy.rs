//! SPEC I6–I8 on platform credits: tips and gifts with idempotency, service orders through
//! their state machine with the price held, the books balanced under 100 concurrent transfers
//! and a double-spend attempt, conviction stakes with validations, slashes and signal pools,
//! x402 paid calls that serve once per verified payment, and PoC moving with all of it.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Reply, Session, TestApp};

async fn call(app: &TestApp, token: &str, method: Method, path: &str, body: Option<Value>) -> Reply {
    let req = app.as_bearer(token, method, path);
    app.send(match body {
        Some(b) => req.json(&b),
        None => req,
    })
    .await
}

pub async fn books(app: &TestApp) -> Value {
    let r = app.send(app.admin(Method::GET, "/v1/admin/credits/books")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let b = r.json();
    assert_eq!((b["balance_sum"].as_i64(), b["entry_sum"].as_i64()), (Some(0), Some(0)), "{b}");
    assert_eq!(b["unbalanced_transfers"], 0, "{b}");
    b
}

async fn agent_credits(app: &TestApp, token: &str, agent: &str) -> i64 {
    let r = call(app, token, Method::GET, &format!("/v1/hosted-agents/{agent}/credits"), None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()["balance"].as_i64().unwrap()
}

async fn owner_credits(app: &TestApp, who: &Session) -> i64 {
    call(app, &who.token, Method::GET, "/v1/credits", None).await.json()["balance"].as_i64().unwrap()
}

async fn agent(app: &TestApp, who: &Session, name: &str) -> String {
    app.create_agent(who, json!({ "name": name })).await["id"].as_str().unwrap().to_string()
}

/// The owner tips `agent` `amount` credits.
async fn fund(app: &TestApp, who: &Session, agent: &str, amount: i64, key: &str) {
    let body = json!({ "from": "owner", "amount": amount.to_string(), "idempotency_key": key });
    let r = call(app, &who.token, Method::POST, &format!("/v1/hosted-agents/{agent}/tips"), Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.text);
}

fn signal(poc: &Value, key: &str) -> Value {
    poc["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["signals"].as_array().unwrap())
        .find(|s| s["key"] == key)
        .unwrap()
        .clone()
}

#[tokio::test]
async fn tips_gifts_and_orders_move_credits_exactly_once() {
    let app = TestApp::builder().admin_password("admin-pw-123").spawn().await;
    let alice = app.signup("alice@example.com").await;
    let bob = app.signup("bob@example.com").await;
    let (ada, ann) = (agent(&app, &alice, "Ada").await, agent(&app, &alice, "Ann").await);
    let bea = agent(&app, &bob, "Bea").await;
    let (_, ada_key) = app.create_key(&alice, &ada, &["economy:write"]).await;
    let (_, reader) = app.create_key(&alice, &ada, &["economy:read"]).await;
    let tips = format!("/v1/hosted-agents/{ada}/tips");

    // The owner tips Ada from the owner's 100 signup credits; a retry moves nothing.
    let body = json!({ "from": "owner", "amount": "60", "memo": "for the good work", "idempotency_key": "t-1" });
    let first = call(&app, &alice.token, Method::POST, &tips, Some(body.clone())).await;
    assert_eq!(first.status, 201, "{}", first.text);
    assert_eq!((first.json()["status"].as_str(), first.json()["kind"].as_str()), (Some("completed"), Some("tip")));
    let again = call(&app, &alice.token, Method::POST, &tips, Some(body)).await;
    assert_eq!((again.status.as_u16(), again.json()["id"].clone()), (200, first.json()["id"].clone()));
    let other = json!({ "from": "owner", "amount": "61", "idempotency_key": "t-1" });
    assert_eq!(call(&app, &alice.token, Method::POST, &tips, Some(other)).await.status, 409);
    assert_eq!((owner_credits(&app, &alice).await, agent_credits(&app, &alice.token, &ada).await), (40, 60));

    // A key spends as the agent, never as the owner; a read key cannot tip at all.
    let as_owner = json!({ "from": "owner", "amount": "1", "idempotency_key": "k-0" });
    let r = call(&app, &ada_key, Method::POST, &tips, Some(as_owner)).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (403, "owner_only".into()));
    let to_bea = json!({ "from": "agent", "to_agent_id": bea, "amount": "10", "idempotency_key": "k-1" });
    let r = call(&app, &reader, Method::POST, &tips, Some(to_bea.clone())).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (403, "missing_scope".into()));
    // Ada tips Bob's agent Bea (another tenant), and gives Alice a gift.
    let r = call(&app, &ada_key, Method::POST, &tips, Some(to_bea)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let gift = json!({ "from": "agent", "amount": "5", "idempotency_key": "k-2" });
    let r = call(&app, &ada_key, Method::POST, &tips, Some(gift)).await;
    assert_eq!((r.status.as_u16(), r.json()["kind"].as_str()), (201, Some("gift")), "{}", r.text);
    assert_eq!(agent_credits(&app, &bob.token, &bea).await, 10);
    assert_eq!((owner_credits(&app, &alice).await, agent_credits(&app, &alice.token, &ada).await), (45, 45));
    // Short of credits: 402, nothing moves. Bad input: 400, never a 500.
    let too_much = json!({ "from": "agent", "to_agent_id": ann, "amount": "46", "idempotency_key": "k-3" });
    let r = call(&app, &ada_key, Method::POST, &tips, Some(too_much)).await;
    assert_eq!((r.status.as_u16(), r.error_code()), (402, "insufficient_credits".into()));
    for bad in [
        json!({ "from": "agent", "to_agent_id": ann, "amount": "-3", "idempotency_key": "b" }),
        json!({ "from": "agent", "to_agent_id": ann, "amount": "1.5", "idempotency_key": "b" }),
        json!({ "from": "agent", "to_agent_id": ada, "amount": "1", "idempotency_key": "b" }),
        json!({ "from": "agent", "to_agent_id": ann, "amount": "1", "idempotency_key": "" }),
        json!({ "from": "agent", "to_agent_id": uuid::Uuid::now_v7(), "amount": "1", "idempotency_key": "b" }),
        json!({ "from": "someone", "amount": "1", "idempotency_key": "b" }),
    ] {
        let r = call(&app, &ada_key, Method::POST, &tips, Some(bad.clone())).await;
        assert!(matches!(r.status.as_u16(), 400 | 404 | 422), "{bad}: {} {}", r.status, r.text);
    }
    let listed = call(&app, &ada_key, Method::GET, &tips, None).await.json();
    assert_eq!(listed.as_array().unwrap().len(), 3, "{listed}");
    // Bea sees the tip she received, and nothing of Ada's otherwise.
    let bea_tips = call(&app, &bob.token, Method::GET, &format!("/v1/hosted-agents/{bea}/tips"), None).await.json();
    assert_eq!(bea_tips.as_array().unwrap().len(), 1);
    assert_eq!(call(&app, &bob.token, Method::GET, &format!("/v1/hosted-agents/{ada}/tips"), None).await.status, 404);

    // Bea sells reviews; Ada orders two. The price is held from the offer on.
    let service = json!({ "title": "Code review", "description": "I review one pull request.", "price": 20 });
    let r =
        call(&app, &bob.token, Method::PUT, &format!("/v1/hosted-agents/{bea}/services/review"), Some(service)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let offer = app.get(&format!("/v1/commerce/{bea}/services")).await.json();
    assert_eq!(offer[0]["slug"], "review", "{offer}");
    let orders = format!("/v1/hosted-agents/{ada}/orders");
    let order =
        |key: &str| json!({ "seller_agent_id": bea, "service": "review", "request": "PR #7", "idempotency_key": key });
    let one = call(&app, &ada_key, Method::POST, &orders, Some(order("o-1"))).await;
    assert_eq!((one.status.as_u16(), one.json()["status"].as_str()), (201, Some("offered")), "{}", one.text);
    let retry = call(&app, &ada_key, Method::POST, &orders, Some(order("o-1"))).await;
    assert_eq!((retry.status.as_u16(), retry.json()["id"].clone()), (200, one.json()["id"].clone()));
    let two = call(&app, &ada_key, Method::POST, &orders, Some(order("o-2"))).await.json();
    assert_eq!(agent_credits(&app, &alice.token, &ada).await, 5, "45 less two held prices of 20");
    let held = call(&app, &reader, Method::GET, &format!("/v1/hosted-agents/{ada}/economy"), None).await.json();
    assert_eq!(
        (held["held_in_orders"].as_i64(), held["orders_as_buyer"]["offered"].as_i64()),
        (Some(40), Some(2)),
        "{held}"
    );
    let r = call(&app, &ada_key, Method::POST, &orders, Some(order("o-3"))).await;
    assert_eq!(r.status, 402, "the third order is not covered: {}", r.text);

    let step = |who: &str, agent: &str, order: &Value, body: Value| {
        let (app, who, agent) = (&app, who.to_string(), agent.to_string());
        let id = order["id"].as_str().unwrap().to_string();
        async move {
            call(app, &who, Method::POST, &format!("/v1/hosted-agents/{agent}/orders/{id}/steps"), Some(body)).await
        }
    };
    let one = one.json();
    // Illegal steps are 409 and say what is allowed.
    let r = step(&ada_key, &ada, &one, json!({ "action": "deliver", "delivery": "x" })).await;
    assert_eq!(r.status, 409);
    assert!(r.text.contains("the buyer can cancel"), "{}", r.text);
    assert_eq!(step(&bob.token, &bea, &one, json!({ "action": "settle" })).await.status, 409);
    assert_eq!(step(&bob.token, &bea, &one, json!({ "action": "accept" })).await.json()["status"], "accepted");
    assert_eq!(step(&bob.token, &bea, &one, json!({ "action": "accept" })).await.status, 409, "accepting twice");
    let r = step(&bob.token, &bea, &one, json!({ "action": "deliver" })).await;
    assert_eq!(r.status, 400, "a delivery needs its result: {}", r.text);
    let r = step(&bob.token, &bea, &one, json!({ "action": "deliver", "delivery": "LGTM with two nits" })).await;
    assert_eq!(r.json()["status"], "delivered", "{}", r.text);
    let r = step(&ada_key, &ada, &one, json!({ "action": "settle", "rating": 5 })).await;
    assert_eq!((r.json()["status"].as_str(), r.json()["rating"].as_i64()), (Some("settled"), Some(5)), "{}", r.text);
    assert_eq!(step(&ada_key, &ada, &one, json!({ "action": "dispute", "reason": "late" })).await.status, 409);
    assert_eq!(agent_credits(&app, &bob.token, &bea).await, 30, "10 tipped and 20 for the review");

    // The second order is disputed and the operator refunds it.
    step(&bob.token, &bea, &two, json!({ "action": "accept" })).await;
    step(&bob.token, &bea, &two, json!({ "action": "deliver", "delivery": "done" })).await;
    let r = step(&ada_key, &ada, &two, json!({ "action": "dispute" })).await;
    assert_eq!(r.status, 400, "a dispute needs its reason");
    let r = step(&ada_key, &ada, &two, json!({ "action": "dispute", "reason": "nothing was reviewed" })).await;
    assert_eq!(r.json()["status"], "disputed");
    assert_eq!(step(&ada_key, &ada, &two, json!({ "action": "settle" })).await.status, 409, "the operator's now");
    let resolution = format!("/v1/admin/orders/{}/resolution", two["id"].as_str().unwrap());
    let r = app
        .send(app.admin(Method::POST, &resolution).json(&json!({ "ruling": "refund", "note": "no review found" })))
        .await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("refunded")), "{}", r.text);
    let r = app.send(app.admin(Method::POST, &resolution).json(&json!({ "ruling": "settle", "note": "again" }))).await;
    assert_eq!(r.status, 409, "a refunded order is final");
    assert_eq!(agent_credits(&app, &alice.token, &ada).await, 25);
    // Another tenant's agent that is no party sees no order.
    let ann_view = format!("/v1/hosted-agents/{ann}/orders/{}", one["id"].as_str().unwrap());
    assert_eq!(call(&app, &alice.token, Method::GET, &ann_view, None).await.status, 404);

    // Everything is in both agents' activity logs; PoC moves; the books balance.
    let log = call(&app, &bob.token, Method::GET, &format!("/v1/hosted-agents/{bea}/activity"), None).await.json();
    let actions: Vec<&str> = log.as_array().unwrap().iter().filter_map(|e| e["action"].as_str()).collect();
    for a in ["economy.tip", "economy.order_offered", "economy.order_settled", "economy.order_refunded"] {
        assert!(actions.contains(&a), "{a} missing from {actions:?}");
    }
    let poc = call(&app, &bob.token, Method::GET, &format!("/v1/hosted-agents/{bea}/poc"), None).await.json();
    assert_eq!(signal(&poc, "commerce_revenue")["value"], 30, "{poc}");
    assert_eq!(signal(&poc, "service_fulfillment")["value"], json!({ "settled": 1, "refunded": 1 }));
    assert_eq!(signal(&poc, "commerce_ratings")["points"], 10);
    assert_eq!(poc["dimensions"][3]["key"], "skills");
    assert!(poc["dimensions"][3]["score"].as_u64().unwrap() >= 22, "services, fulfilment, ratings: {poc}");
    // An owner tips in credits only; a leading zero is the same amount.
    let owner_token = json!({ "from": "owner", "rail": "token", "amount": "1", "idempotency_key": "o-t" });
    assert_eq!(call(&app, &alice.token, Method::POST, &tips, Some(owner_token)).await.status, 400);
    let padded = json!({ "from": "agent", "to_agent_id": ann, "amount": "01", "idempotency_key": "k-pad" });
    let r = call(&app, &ada_key, Method::POST, &tips, Some(padded.clone())).await;
    assert_eq!((r.status.as_u16(), r.json()["amount"].as_str()), (201, Some("1")), "{}", r.text);
    let mut unpadded = padded;
    unpadded["amount"] = json!("1");
    assert_eq!(call(&app, &ada_key, Method::POST, &tips, Some(unpadded)).await.status, 200, "the same tip");
    let b = books(&app).await;
    assert_eq!(b["issued"], 200, "two signups; tips and orders create nothing: {b}");
}

#[tokio::test]
async fn a_hundred_concurrent_transfers_keep_the_books_and_never_double_spend() {
    // The ledger is under test, not the per-address rate limit, which a hundred requests at
    // once from one address can reach on a loaded machine.
    let app = TestApp::builder().admin_password("admin-pw-123").env("MINICLAW_RATE_LIMIT_IP", "0").spawn().await;
    let alice = app.signup("alice@example.com").await;
    let agents = [agent(&app, &alice, "A").await, agent(&app, &alice, "B").await, agent(&app, &alice, "C").await];
    for (i, a) in agents.iter().enumerate() {
        fund(&app, &alice, a, 30, &format!("fund-{i}")).await;
    }
    // 100 tips of 1 to 3 credits in every direction at once: each lands whole or not at all.
    let tips = (0..100).map(|i| {
        let (from, to) = (&agents[i % 3], &agents[(i + 1 + i / 3 % 2) % 3]);
        let body = json!({ "from": "agent", "to_agent_id": to, "amount": (1 + i % 3).to_string(), "idempotency_key": format!("p-{i}") });
        let (app, token, path) = (&app, alice.token.clone(), format!("/v1/hosted-agents/{from}/tips"));
        async move { call(app, &token, Method::POST, &path, Some(body)).await.status.as_u16() }
    });
    let statuses = futures::future::join_all(tips).await;
    assert!(statuses.iter().all(|s| matches!(s, 201 | 402)), "{statuses:?}");
    let mut total = 0;
    for a in &agents {
        let b = agent_credits(&app, &alice.token, a).await;
        assert!(b >= 0);
        total += b;
    }
    assert_eq!(total, 90, "credits only moved between the three");
    books(&app).await;

    // A double spend: 40 parallel tips of 1 from an agent holding 25. Exactly 25 land.
    let d = agent(&app, &alice, "D").await;
    fund(&app, &alice, &d, 10, "fund-d").await;
    let spends = (0..40).map(|i| {
        let body = json!({ "from": "agent", "to_agent_id": agents[0], "amount": "1", "idempotency_key": format!("d-{}", i % 30) });
        let (app, token, path) = (&app, alice.token.clone(), format!("/v1/hosted-agents/{d}/tips"));
        async move { call(app, &token, Method::POST, &path, Some(body)).await.status.as_u16() }
    });
    let statuses = futures::future::join_all(spends).await;
    // 30 distinct keys (10 retried): 10 credits pay for 10 tips, the retries of a made tip answer
    // 200 and move nothing, everything else is 402.
    let made = statuses.iter().filter(|s| **s == 201).count();
    assert_eq!(made, 10, "{statuses:?}");
    assert!(statuses.iter().all(|s| matches!(s, 200 | 201 | 402)), "{statuses:?}");
    assert_eq!(agent_credits(&app, &alice.token, &d).await, 0);
    books(&app).await;
}

#[tokio::test]
async fn stakes_grow_conviction_and_validations_and_slashes_move_reputation() {
    let app = TestApp::builder().admin_password("admin-pw-123").spawn().await;
    let alice = app.signup("alice@example.com").await;
    let bob = app.signup("bob@example.com").await;
    let ada = agent(&app, &alice, "Ada").await;
    let bea = agent(&app, &bob, "Bea").await;
    fund(&app, &bob, &bea, 50, "f").await;
    let stakes = format!("/v1/hosted-agents/{ada}/stakes");
    let stake = |from: &str, amount: i64, topic: &str, key: &str| json!({ "from": from, "target": "agent", "topic": topic, "amount": amount, "idempotency_key": key });
    // Alice backs her own agent; Bea (another tenant's agent) backs Ada too.
    let mine = call(&app, &alice.token, Method::POST, &stakes, Some(stake("owner", 40, "research", "s-1"))).await;
    assert_eq!(mine.status, 201, "{}", mine.text);
    let mut theirs = stake("agent", 30, "research", "s-2");
    theirs["agent_id"] = json!(ada);
    let r =
        call(&app, &bob.token, Method::POST, &format!("/v1/hosted-agents/{bea}/stakes"), Some(theirs.clone())).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let theirs_id = r.json()["id"].as_str().unwrap().to_string();
    let r = call(&app, &bob.token, Method::POST, &format!("/v1/hosted-agents/{bea}/stakes"), Some(theirs)).await;
    assert_eq!(r.status, 200, "a retry stakes nothing more");
    let third =
        call(&app, &alice.token, Method::POST, &stakes, Some(stake("owner", 10, "writing", "s-3"))).await.json();
    assert_eq!(owner_credits(&app, &alice).await, 50);
    assert_eq!(agent_credits(&app, &bob.token, &bea).await, 20);
    let r = call(&app, &alice.token, Method::POST, &stakes, Some(stake("owner", 5, "Not A Topic!", "s-4"))).await;
    assert_eq!(r.status, 400);
    // A skill is backed through its publisher: Bea publishes one, Alice stakes on it.
    let md = "---\nname: haiku\ndescription: Writes haiku\nversion: 1.0.0\n---\nWrite a haiku.\n";
    let r = call(
        &app,
        &bob.token,
        Method::POST,
        &format!("/v1/hosted-agents/{bea}/skills/publish"),
        Some(json!({ "skill_md": md })),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let on_skill = json!({ "from": "owner", "target": "skill", "skill": "haiku", "topic": "poetry", "amount": 1, "idempotency_key": "s-5" });
    let r = call(&app, &alice.token, Method::POST, &stakes, Some(on_skill)).await;
    assert_eq!((r.status.as_u16(), r.json()["target_agent_id"].as_str()), (201, Some(bea.as_str())), "{}", r.text);
    assert!(r.json()["target_skill_id"].is_string());
    let missing = json!({ "from": "owner", "target": "skill", "skill": "nope", "topic": "poetry", "amount": 1, "idempotency_key": "s-6" });
    assert_eq!(call(&app, &alice.token, Method::POST, &stakes, Some(missing)).await.status, 404);
    let skill_stake = r.json()["id"].as_str().unwrap().to_string();
    let r =
        call(&app, &alice.token, Method::POST, &format!("/v1/hosted-agents/{bea}/stakes/{skill_stake}/withdraw"), None)
            .await;
    assert_eq!(r.status, 404, "another tenant's agent in the path");
    let r = app
        .send(
            app.admin(Method::POST, "/v1/admin/stakes/resolutions")
                .json(&json!({ "stake_id": skill_stake, "outcome": "validated", "note": "good poems" })),
        )
        .await;
    assert_eq!(r.json()[0]["status"], "validated", "{}", r.text);
    // The owner's stake on another tenant's agent is the owner's to list and withdraw.
    let mut on_bea = stake("owner", 1, "poetry", "s-7");
    on_bea["agent_id"] = json!(bea);
    let r = call(&app, &alice.token, Method::POST, &stakes, Some(on_bea)).await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    let listed = call(&app, &alice.token, Method::GET, &stakes, None).await.json();
    assert!(listed.as_array().unwrap().iter().any(|s| s["id"] == json!(id)), "{listed}");
    let r = call(&app, &alice.token, Method::POST, &format!("{stakes}/{id}/withdraw"), None).await;
    assert_eq!(r.json()["status"], "withdrawn", "{}", r.text);

    // A stake made now has no conviction yet; one a week old has half its amount.
    sqlx::query("UPDATE stakes SET created_at = now() - interval '7 days' WHERE id = $1")
        .bind(mine.json()["id"].as_str().unwrap().parse::<uuid::Uuid>().unwrap())
        .execute(app.pool())
        .await
        .unwrap();
    let pools = call(&app, &alice.token, Method::GET, "/v1/signals?topic=research", None).await.json();
    let research = &pools[0];
    assert_eq!((research["active_stakes"].as_i64(), research["staked"].as_i64()), (Some(2), Some(70)), "{pools}");
    let conviction = research["conviction"].as_f64().unwrap();
    assert!(
        (20.0..20.1).contains(&conviction),
        "40 staked a week ago: half, plus a sliver of the fresh 30: {conviction}"
    );
    assert_eq!(research["leaders"][0]["agent_id"], json!(ada));

    // The operator slashes Bea's stake (it goes to the sink) and validates the research outcome.
    let slash = json!({ "stake_id": theirs_id, "outcome": "slashed", "note": "the research was plagiarised" });
    let r = app.send(app.admin(Method::POST, "/v1/admin/stakes/resolutions").json(&slash)).await;
    assert_eq!((r.status.as_u16(), r.json()[0]["status"].as_str()), (200, Some("slashed")), "{}", r.text);
    assert_eq!(app.send(app.admin(Method::POST, "/v1/admin/stakes/resolutions").json(&slash)).await.status, 409);
    let outcome =
        json!({ "agent_id": ada, "topic": "research", "outcome": "validated", "note": "the paper was accepted" });
    let r = app.send(app.admin(Method::POST, "/v1/admin/stakes/resolutions").json(&outcome)).await;
    assert_eq!(r.json().as_array().unwrap().len(), 1, "{}", r.text);
    assert_eq!(owner_credits(&app, &alice).await, 90, "the validated stake came back");
    assert_eq!(agent_credits(&app, &bob.token, &bea).await, 20, "the slashed one did not");
    // The owner withdraws the last one.
    let r =
        call(&app, &alice.token, Method::POST, &format!("{stakes}/{}/withdraw", third["id"].as_str().unwrap()), None)
            .await;
    assert_eq!((r.status.as_u16(), r.json()["status"].as_str()), (200, Some("withdrawn")), "{}", r.text);
    assert_eq!(owner_credits(&app, &alice).await, 100);

    let poc = call(&app, &alice.token, Method::GET, &format!("/v1/hosted-agents/{ada}/poc"), None).await.json();
    assert_eq!(signal(&poc, "stake_count")["value"], 1, "{poc}");
    assert_eq!(signal(&poc, "validation_rate")["value"], json!({ "validated": 1, "slashed": 1 }));
    assert_eq!(signal(&poc, "validation_rate")["points"], 12);
    assert_eq!(signal(&poc, "slash_penalties")["value"], 1);
    assert_eq!(poc["backing"]["source"], "credits in active stakes backing the agent");
    // Badges have no source here: left out of the reputation's weighting, not counted as zero.
    assert_eq!(signal(&poc, "badges")["status"], "not available");
    let b = books(&app).await;
    let sink: i64 = sqlx::query_scalar("SELECT balance FROM credit_accounts WHERE kind = 'sink'")
        .fetch_one(app.pool())
        .await
        .unwrap();
    let holds: i64 = sqlx::query_scalar("SELECT balance FROM credit_accounts WHERE kind = 'holds'")
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!((sink, holds), (30, 0), "{b}");
}

#[tokio::test]
async fn a_paid_call_serves_after_a_verified_payment_and_refuses_a_replay() {
    let app = TestApp::builder().admin_password("admin-pw-123").spawn().await;
    let alice = app.signup("alice@example.com").await;
    let bob = app.signup("bob@example.com").await;
    let ada = agent(&app, &alice, "Ada").await;
    let bea = agent(&app, &bob, "Bea").await;
    fund(&app, &alice, &ada, 50, "f").await;
    let (_, ada_key) = app.create_key(&alice, &ada, &["economy:write"]).await;
    let service = json!({ "title": "Haiku", "description": "I write a haiku about your topic.", "price": 7 });
    call(&app, &bob.token, Method::PUT, &format!("/v1/hosted-agents/{bea}/services/haiku"), Some(service)).await;
    let url = format!("/v1/commerce/{bea}/services/haiku/call");
    let input = json!({ "input": "autumn rain" });

    // No payment: 402 with the requirements in the body and base64 in the header.
    let r = app.send(app.request(Method::POST, &url).json(&input)).await;
    assert_eq!(r.status, 402, "{}", r.text);
    let required = r.json();
    use base64::Engine as _;
    let header = r.headers.get("payment-required").expect("PAYMENT-REQUIRED").to_str().unwrap();
    let decoded: Value =
        serde_json::from_slice(&base64::engine::general_purpose::STANDARD.decode(header).unwrap()).unwrap();
    assert_eq!(decoded, required);
    let accept = &required["accepts"][0];
    assert_eq!((required["x402Version"].as_i64(), accept["network"].as_str()), (Some(2), Some("miniclaw:credits")));
    assert_eq!(
        (accept["amount"].as_str(), accept["asset"].as_str(), accept["scheme"].as_str()),
        (Some("7"), Some("credits"), Some("exact"))
    );
    assert!(
        accept["payTo"].is_string()
            && accept["maxTimeoutSeconds"].is_number()
            && accept["extra"]["expiresAt"].is_string()
    );
    let nonce = accept["extra"]["nonce"].as_str().unwrap().to_string();

    // Ada pays it; paying the same nonce again moves nothing.
    let pay = format!("/v1/hosted-agents/{ada}/payments");
    let paid = call(&app, &ada_key, Method::POST, &pay, Some(json!({ "nonce": nonce }))).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    let again = call(&app, &ada_key, Method::POST, &pay, Some(json!({ "nonce": nonce }))).await.json();
    assert_eq!(
        (again["replayed"].as_bool(), again["transfer_id"].clone()),
        (Some(true), paid.json()["transfer_id"].clone())
    );
    assert_eq!(agent_credits(&app, &alice.token, &ada).await, 43);
    let proof = paid.json()["payment_header"].as_str().unwrap().to_string();

    // A forged proof (someone else's transfer under this nonce) does not pay.
    let forged =
        json!({ "network": "miniclaw:credits", "payload": { "nonce": nonce, "transferId": uuid::Uuid::now_v7() } });
    let forged = base64::engine::general_purpose::STANDARD.encode(forged.to_string());
    let r = app.send(app.request(Method::POST, &url).header("X-PAYMENT", forged).json(&input)).await;
    assert_eq!(r.status, 402);
    assert_eq!(
        app.send(app.request(Method::POST, &url).header("X-PAYMENT", "not base64!").json(&input)).await.status,
        400
    );

    // The real proof serves once, even sent twice at the same moment.
    let send = || app.send(app.request(Method::POST, &url).header("PAYMENT-SIGNATURE", &proof).json(&input));
    let (a, b) = futures::join!(send(), send());
    let mut statuses = [a.status.as_u16(), b.status.as_u16()];
    statuses.sort();
    assert_eq!(statuses, [200, 402], "{} / {}", a.text, b.text);
    let r = if a.status == 200 { a } else { b };
    let answer = r.json();
    assert!(!answer["output"].as_str().unwrap().is_empty());
    assert_eq!(
        (answer["payment"]["success"].as_bool(), answer["payment"]["payer"].as_str()),
        (Some(true), Some(ada.as_str()))
    );
    assert!(r.headers.get("payment-response").is_some());
    let replay = app.send(app.request(Method::POST, &url).header("PAYMENT-SIGNATURE", &proof).json(&input)).await;
    assert_eq!(replay.status, 402, "a replayed proof is refused: {}", replay.text);
    assert!(replay.json()["error"].as_str().unwrap().contains("already used"), "{}", replay.text);
    assert_eq!(agent_credits(&app, &bob.token, &bea).await, 7, "paid once");
    let poc = call(&app, &bob.token, Method::GET, &format!("/v1/hosted-agents/{bea}/poc"), None).await.json();
    assert_eq!(signal(&poc, "commerce_revenue")["value"], 7);
    // An expired requirement is not paid.
    let r = app.send(app.request(Method::POST, &url).json(&input)).await;
    let late = r.json()["accepts"][0]["extra"]["nonce"].as_str().unwrap().to_string();
    sqlx::query("UPDATE payment_requirements SET expires_at = now() - interval '1 second' WHERE nonce = $1")
        .bind(&late)
        .execute(app.pool())
        .await
        .unwrap();
    assert_eq!(call(&app, &ada_key, Method::POST, &pay, Some(json!({ "nonce": late }))).await.status, 409);
    // Expired requirements are swept a day later; unknown agents, services and withdrawn ones are 404.
    sqlx::query("UPDATE payment_requirements SET expires_at = now() - interval '2 days' WHERE nonce = $1")
        .bind(&late)
        .execute(app.pool())
        .await
        .unwrap();
    assert_eq!(miniclaw::onchain::economy::payments::purge_expired(app.pool()).await.unwrap(), 1);
    assert_eq!(app.get(&format!("/v1/commerce/{}/services", uuid::Uuid::now_v7())).await.status, 404);
    assert_eq!(
        app.send(app.request(Method::POST, &format!("/v1/commerce/{bea}/services/nope/call")).json(&input))
            .await
            .status,
        404
    );
    call(&app, &bob.token, Method::DELETE, &format!("/v1/hosted-agents/{bea}/services/haiku"), None).await;
    assert_eq!(app.send(app.request(Method::POST, &url).json(&input)).await.status, 404);
    books(&app).await;
}

#[tokio::test]
async fn a_chat_tip_waits_for_the_owner_above_the_auto_approve_limit() {
    use crate::llm_server::{LlmServer, Script};
    let server = LlmServer::start().await;
    let c = crate::chat_support::Chat::new(TestApp::builder().env("OPENAI_BASE_URL", &server.base_url()).spawn().await)
        .await;
    let (app, owner) = (&c.app, &c.owner);
    let bea = agent(app, owner, "Bea").await;
    fund(app, owner, &c.id, 20, "f").await;
    let tip_call = |amount: i64| Script::ToolCall {
        name: "tip_agent".into(),
        arguments: json!({ "to": "Bea", "amount": amount, "memo": "thanks" }).to_string(),
    };
    let said = || Script::Stream { pieces: vec!["Done.".into()], usage: None, complete: true };

    // Above the limit (0 by default): the tip waits for the owner.
    server.push(tip_call(5));
    server.push(said());
    c.say("Please tip Bea 5 credits for the help", None).await;
    let offered = server.requests().into_iter().find(|b| b["tools"].is_array()).expect("a call with tools");
    let names: Vec<&str> =
        offered["tools"].as_array().unwrap().iter().filter_map(|t| t["function"]["name"].as_str()).collect();
    assert!(
        names.contains(&"tip_agent") && names.contains(&"economy_summary") && names.contains(&"token_facts"),
        "{names:?}"
    );
    let last = server.requests().into_iter().rev().find(|b| b["stream"] == true).unwrap().to_string();
    assert!(last.contains("waits for the owner's confirmation"), "the model is told: {last}");
    let tips = c.get("/tips").await;
    let waiting = tips
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["status"] == "awaiting_confirmation")
        .expect("a waiting tip")
        .clone();
    assert_eq!(agent_credits(app, &owner.token, &bea).await, 0);
    let decision = c.path(&format!("/tips/{}/decision", waiting["id"].as_str().unwrap()));
    let r = call(app, &owner.token, Method::POST, &decision, Some(json!({ "confirm": true }))).await;
    assert_eq!(r.json()["status"], "completed", "{}", r.text);
    assert_eq!(call(app, &owner.token, Method::POST, &decision, Some(json!({ "confirm": true }))).await.status, 409);
    assert_eq!(agent_credits(app, &owner.token, &bea).await, 5);

    // Within the owner's auto-approve limit: paid at once.
    let r =
        call(app, &owner.token, Method::PUT, &c.path("/economy/settings"), Some(json!({ "auto_approve_credits": 10 })))
            .await;
    assert_eq!(r.status, 200, "{}", r.text);
    server.push(tip_call(3));
    server.push(said());
    c.say("Tip Bea 3 credits please", None).await;
    assert_eq!(agent_credits(app, &owner.token, &bea).await, 8);

    // A miniapp's key speaking for an end user gets no tool that moves value, nor the agent's
    // finances; its token's public facts, yes.
    let (_, key) = app.create_key(owner, &c.id, &["chat:write"]).await;
    let before = server.requests().len();
    server.push(Script::reply("I cannot do that from here."));
    let r = call(app, &key, Method::POST, &c.path("/chat"), Some(json!({ "message": "tip Bea 50 credits now" }))).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let offered =
        server.requests().into_iter().skip(before).find(|b| b["tools"].is_array()).expect("a call with tools");
    let names: Vec<&str> =
        offered["tools"].as_array().unwrap().iter().filter_map(|t| t["function"]["name"].as_str()).collect();
    assert!(
        names.contains(&"token_facts") && !names.contains(&"economy_summary") && !names.contains(&"tip_agent"),
        "{names:?}"
    );
    assert_eq!(agent_credits(app, &owner.token, &bea).await, 8);
}

#[tokio::test]
async fn a_delivery_left_unanswered_is_settled_for_the_buyer_after_a_week() {
    let app = TestApp::builder().admin_password("admin-pw-123").spawn().await;
    let alice = app.signup("alice@example.com").await;
    let bob = app.signup("bob@example.com").await;
    let (ada, bea) = (agent(&app, &alice, "Ada").await, agent(&app, &bob, "Bea").await);
    fund(&app, &alice, &ada, 30, "f-1").await;
    let (_, ada_key) = app.create_key(&alice, &ada, &["economy:write"]).await;
    let service = json!({ "title": "Code review", "description": "One pull request.", "price": 20 });
    let r =
        call(&app, &bob.token, Method::PUT, &format!("/v1/hosted-agents/{bea}/services/review"), Some(service)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let order = json!({ "seller_agent_id": bea, "service": "review", "request": "PR #9", "idempotency_key": "o-9" });
    let r = call(&app, &ada_key, Method::POST, &format!("/v1/hosted-agents/{ada}/orders"), Some(order)).await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    let steps = format!("/v1/hosted-agents/{bea}/orders/{id}/steps");
    call(&app, &bob.token, Method::POST, &steps, Some(json!({ "action": "accept" }))).await;
    let r =
        call(&app, &bob.token, Method::POST, &steps, Some(json!({ "action": "deliver", "delivery": "LGTM" }))).await;
    assert_eq!(r.json()["status"], "delivered", "{}", r.text);

    let age_and_run = |days: i32| {
        let app = &app;
        let id = id.clone();
        async move {
            sqlx::query("UPDATE service_orders SET updated_at = now() - make_interval(days => $2) WHERE id = $1::uuid")
                .bind(&id)
                .bind(days)
                .execute(app.pool())
                .await
                .unwrap();
            miniclaw::jobs::queue::enqueue(app.pool(), miniclaw::jobs::NewJob::new("order_auto_settle")).await.unwrap();
            app.run_jobs().await;
        }
    };
    let status = || async {
        sqlx::query_scalar::<_, String>("SELECT status FROM service_orders WHERE id = $1::uuid")
            .bind(&id)
            .fetch_one(app.pool())
            .await
            .unwrap()
    };
    // Within the week the buyer may still settle or dispute: nothing happens.
    age_and_run(6).await;
    assert_eq!(status().await, "delivered");
    // Past it, the delivery is settled as the buyer would: the seller is paid, once.
    age_and_run(8).await;
    assert_eq!(status().await, "settled");
    assert_eq!(agent_credits(&app, &bob.token, &bea).await, 20);
    age_and_run(9).await;
    assert_eq!(agent_credits(&app, &bob.token, &bea).await, 20);
    let log = call(&app, &bob.token, Method::GET, &format!("/v1/hosted-agents/{bea}/activity"), None).await.json();
    let settled =
        log.as_array().unwrap().iter().find(|e| e["action"] == "economy.order_settled").expect("logged").clone();
    assert_eq!(settled["actor_type"], "job", "{settled}");
    books(&app).await;
}
