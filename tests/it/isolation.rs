//! Tenant isolation: every route that takes an id, read from the OpenAPI document so new routes
//! are covered automatically, answers 404 to a second tenant, with sessions and with keys.

use reqwest::Method;
use serde_json::json;

use crate::common::TestApp;

#[tokio::test]
async fn another_tenants_ids_are_404_on_every_route() {
    // The walk sends hundreds of requests from one address: no per-address limit here.
    let app = TestApp::builder().env("MINICLAW_RATE_LIMIT_IP", "0").spawn().await;
    let alice = app.signup("alice@example.com").await;
    let mallory = app.signup("mallory@example.com").await;
    let a_agent = app.create_agent(&alice, json!({ "name": "Alice's" })).await["id"].as_str().unwrap().to_string();
    let (a_key_id, _) = app.create_key(&alice, &a_agent, &["*"]).await;
    let a_memory = app
        .send(
            app.as_bearer(&alice.token, Method::POST, &format!("/v1/hosted-agents/{a_agent}/memories"))
                .json(&json!({ "content": "Alice lives in Vienna", "category": "identity" })),
        )
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let a_import = app
        .send(
            app.as_bearer(&alice.token, Method::POST, &format!("/v1/hosted-agents/{a_agent}/memories/import")).json(
                &json!({ "messages": [{ "role": "user", "content": "I live in Vienna", "created_at": "2025-01-02T10:00:00Z" }] }),
            ),
        )
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let a_chat = app
        .send(
            app.as_bearer(&alice.token, Method::POST, &format!("/v1/hosted-agents/{a_agent}/chat"))
                .json(&json!({ "message": "My name is Alice" })),
        )
        .await
        .json();
    let a_conversation = a_chat["conversation_id"].as_str().unwrap().to_string();
    // Lint finds gaps; one is made here so the route has an id to try.
    let a_gap = uuid::Uuid::now_v7();
    sqlx::query("INSERT INTO knowledge_gaps (id, agent_id, question) VALUES ($1, $2, 'What is Alice''s job?')")
        .bind(a_gap)
        .bind(a_agent.parse::<uuid::Uuid>().unwrap())
        .execute(app.pool())
        .await
        .unwrap();
    let a_draft = app
        .send(
            app.as_bearer(&alice.token, reqwest::Method::POST, "/v1/agents/spawn")
                .json(&json!({ "brief": "A chess coach" })),
        )
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let a_task = uuid::Uuid::now_v7();
    sqlx::query("INSERT INTO agent_tasks (id, agent_id, title, source) VALUES ($1, $2, 'Call the vet', 'owner')")
        .bind(a_task)
        .bind(a_agent.parse::<uuid::Uuid>().unwrap())
        .execute(app.pool())
        .await
        .unwrap();
    // A wallet transaction and an owner-held wallet of Alice's agent, for the wallet routes.
    let (a_tx, a_external) = (uuid::Uuid::now_v7(), uuid::Uuid::now_v7());
    sqlx::query(
        "INSERT INTO wallet_transactions (id, agent_id, purpose, chain_id, from_address, to_address, value_wei, status)
         VALUES ($1, $2, 'send', 31337, '0x01', '0x02', '1', 'awaiting_confirmation')",
    )
    .bind(a_tx)
    .bind(a_agent.parse::<uuid::Uuid>().unwrap())
    .execute(app.pool())
    .await
    .unwrap();
    sqlx::query("INSERT INTO agent_external_wallets (id, agent_id, address) VALUES ($1, $2, '0x02')")
        .bind(a_external)
        .bind(a_agent.parse::<uuid::Uuid>().unwrap())
        .execute(app.pool())
        .await
        .unwrap();
    // An outreach proposal of Alice's agent, for the outreach routes.
    let a_outreach = uuid::Uuid::now_v7();
    sqlx::query(
        "INSERT INTO outreach_threads (agent_id, id, tenant_id, status, target_email, purpose, subject, body, drafted_by)
         SELECT id, $1, tenant_id, 'proposed', 'bob@example.org', 'hello', 'Hi', 'Hello', 'owner' FROM agents WHERE id = $2",
    )
    .bind(a_outreach)
    .bind(a_agent.parse::<uuid::Uuid>().unwrap())
    .execute(app.pool())
    .await
    .unwrap();
    let a_notification = uuid::Uuid::now_v7();
    sqlx::query("INSERT INTO notifications (agent_id, id, kind, urgent, title, body) VALUES ($1, $2, 'escalation', true, 'Alice', 'x')")
        .bind(a_agent.parse::<uuid::Uuid>().unwrap())
        .bind(a_notification)
        .execute(app.pool())
        .await
        .unwrap();
    // A sent proactive check-in of Alice's agent, for the proactive routes.
    let a_proactive = uuid::Uuid::now_v7();
    sqlx::query(
        "INSERT INTO proactive_items (agent_id, id, kind, source, signal, gap, urgency, level, rule, message, timing,
                                      status, dedup_key, created_at, sent_at)
         VALUES ($1, $2, 'check_in', 'gap_scanner', 'stale', 'Alice', 'medium', 'information', 'r', 'Alice?',
                 'active_hours', 'sent', 'isolation', now(), now())",
    )
    .bind(a_agent.parse::<uuid::Uuid>().unwrap())
    .bind(a_proactive)
    .execute(app.pool())
    .await
    .unwrap();
    // A post of Alice's agent with a comment, for the feed routes.
    let (a_post, a_comment) = (uuid::Uuid::now_v7(), uuid::Uuid::now_v7());
    sqlx::query(
        "INSERT INTO feed_posts (id, tenant_id, agent_id, body, source) SELECT $1, tenant_id, id, 'Alice posts', 'owner' FROM agents WHERE id = $2",
    )
    .bind(a_post)
    .bind(a_agent.parse::<uuid::Uuid>().unwrap())
    .execute(app.pool())
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO feed_comments (id, post_id, tenant_id, agent_id, body) SELECT $1, $2, tenant_id, id, 'Alice comments' FROM agents WHERE id = $3",
    )
    .bind(a_comment)
    .bind(a_post)
    .bind(a_agent.parse::<uuid::Uuid>().unwrap())
    .execute(app.pool())
    .await
    .unwrap();
    // A webhook endpoint of Alice's (a public address: it is never called here) with a delivery.
    let a_endpoint = app
        .send(
            app.as_bearer(&alice.token, Method::POST, "/v1/webhooks")
                .json(&json!({ "url": "https://93.184.216.34/hook", "events": ["webhook.test"], "agent_id": a_agent })),
        )
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let a_delivery = uuid::Uuid::now_v7();
    sqlx::query(
        "INSERT INTO webhook_deliveries (id, endpoint_id, agent_id, event, data, status) VALUES ($1, $2::uuid, $3::uuid, 'webhook.test', '{}', 'failed')",
    )
    .bind(a_delivery)
    .bind(&a_endpoint)
    .bind(&a_agent)
    .execute(app.pool())
    .await
    .unwrap();
    // An open invitation to Alice's team (made here: this app mails nothing).
    let a_invitation = uuid::Uuid::now_v7();
    sqlx::query(
        "WITH link AS (INSERT INTO email_verifications (token_hash, tenant_id, purpose, address, expires_at)
                       VALUES (sha256('isolation'), $2::uuid, 'invitation', 'ivy@example.com', now() + interval '1 day')
                       RETURNING token_hash)
         INSERT INTO team_invitations (id, tenant_id, token_hash, email, role) SELECT $1, $2::uuid, token_hash, 'ivy@example.com', 'member' FROM link",
    )
    .bind(a_invitation)
    .bind(&alice.tenant_id)
    .execute(app.pool())
    .await
    .unwrap();
    let m_agent = app.create_agent(&mallory, json!({ "name": "Mallory's" })).await["id"].as_str().unwrap().to_string();
    let (_, m_key) = app.create_key(&mallory, &m_agent, &["*"]).await;
    // An account key of each: Alice's to be named, Mallory's (every agent of hers) to ask.
    let account_key = |who: &crate::common::Session| {
        app.as_bearer(&who.token, Method::POST, "/v1/api-keys").json(&json!({ "name": "all", "scopes": ["*"] }))
    };
    let a_account_key = app.send(account_key(&alice)).await.json()["id"].as_str().unwrap().to_string();
    let m_account_key = app.send(account_key(&mallory)).await.json()["key"].as_str().unwrap().to_string();

    let doc = miniclaw::api::openapi();
    let mut checked = 0;
    for (path, item) in &doc.paths.paths {
        if !path.contains('{')
            || path.starts_with("/v1/admin")
            || path.starts_with("/v1/vertical-metrics/")
            || path.starts_with("/webhooks/")
            || path.starts_with("/v1/commerce/")
        {
            // No ids; operator routes (not tenant-scoped); a vertical's name, which always
            // answers for the caller's own tenant (`analytics::vertical_metrics_…`); or provider
            // webhooks (authenticated by their own secrets, not by tenant credentials; their
            // own tests refuse a wrong secret); or public commerce (an agent's services and paid
            // calls are open to any client by design, like the skill marketplace).
            continue;
        }
        let url = path
            .replace("{id}", &a_agent)
            // An OpenAI model is an agent id.
            .replace("{model}", &a_agent)
            .replace("{kid}", &a_key_id)
            .replace("{account_key}", &a_account_key)
            .replace("{mid}", &a_memory)
            .replace("{cid}", &a_conversation)
            .replace("{gid}", &a_gap.to_string())
            .replace("{task}", &a_task.to_string())
            .replace("{draft}", &a_draft)
            .replace("{tid}", &a_tx.to_string())
            .replace("{eid}", &a_external.to_string())
            .replace("{oid}", &a_outreach.to_string())
            .replace("{nid}", &a_notification.to_string())
            .replace("{pid}", &a_proactive.to_string())
            // A skill's name: the marketplace is platform-wide by design (its own test shows
            // another tenant buying a skill), so only the agent part of these paths is Alice's.
            .replace("{slug}", "weather")
            .replace("{post}", &a_post.to_string())
            // Economy: the agent part of these paths is Alice's (an order or stake of hers
            // would be 404 for the same reason).
            .replace("{tip}", &uuid::Uuid::now_v7().to_string())
            .replace("{import_id}", &a_import)
            .replace("{order}", &uuid::Uuid::now_v7().to_string())
            .replace("{stake}", &uuid::Uuid::now_v7().to_string())
            .replace("{comment}", &a_comment.to_string())
            // An MCP server or call of Alice's agent would be 404 as well: the agent part is hers.
            .replace("{server}", &uuid::Uuid::now_v7().to_string())
            .replace("{call}", &uuid::Uuid::now_v7().to_string())
            // A period of the session ledger: the agent part is Alice's.
            .replace("{endpoint}", &a_endpoint)
            .replace("{delivery}", &a_delivery.to_string())
            // Team routes: Alice's invitation, and Alice as a member.
            .replace("{invitation}", &a_invitation.to_string())
            .replace("{member}", &alice.owner_id)
            .replace("{end_user}", "alice")
            .replace("{month}", "2026-11")
            .replace("{day}", "2026-11-25");
        assert!(!url.contains('{'), "isolation test does not know how to fill {path}; extend it");
        let methods = [
            (item.get.is_some(), Method::GET),
            (item.post.is_some(), Method::POST),
            (item.put.is_some(), Method::PUT),
            (item.patch.is_some(), Method::PATCH),
            (item.delete.is_some(), Method::DELETE),
        ];
        for (present, method) in methods {
            if !present {
                continue;
            }
            for (who, token) in [("session", &mallory.token), ("key", &m_key), ("account key", &m_account_key)] {
                let r = app.send(app.as_bearer(token, method.clone(), &url).json(&json!({}))).await;
                let ok = r.status == 404
                    || (who != "session" && r.status == 403 && r.json()["error"]["code"] == "owner_session_required")
                    // An account key is not an agent's: refused before any lookup.
                    || (who == "account key" && r.status == 403 && r.json()["error"]["code"] == "agent_key_required")
                    // Operator-gated (admin bearer or DEBUG_SHADOW): refused before any lookup.
                    || (r.status == 403 && r.json()["error"]["code"] == "shadow_disabled");
                assert!(ok, "{method} {path} with Mallory's {who}: {} {}", r.status, r.text);
                if r.status == 404 {
                    assert!(!r.text.contains("Alice"), "404 leaks data: {}", r.text);
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 12, "only {checked} route/credential pairs checked");
    // The OpenAI-compatible route names the agent in the body.
    for token in [&mallory.token, &m_key, &m_account_key] {
        let r = app
            .send(app.as_bearer(token, Method::POST, "/v1/chat/completions").json(&json!({
                "model": a_agent, "messages": [{ "role": "user", "content": "What is Alice's name?" }]
            })))
            .await;
        assert_eq!(r.status, 404, "{}", r.text);
        // ...and its model list holds only Mallory's agent.
        let r = app.send(app.as_bearer(token, Method::GET, "/v1/models")).await;
        assert_eq!(r.status, 200, "{}", r.text);
        let models = r.json();
        let ids: Vec<&str> = models["data"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
        assert_eq!(ids, [m_agent.as_str()]);
    }
    // Through the MCP server, Mallory's key names Alice's memory and finds nothing of hers.
    for (tool, arguments) in [
        ("update_memory", json!({ "memory_id": a_memory, "content": "Mallory lives here now" })),
        ("forget_memory", json!({ "memory_id": a_memory })),
    ] {
        let r = crate::mcp::raw_tool_call(&app, &m_key, tool, arguments).await;
        assert_eq!(r["result"]["isError"], true, "{tool}: {r}");
        assert_eq!(r["result"]["structuredContent"]["error"]["code"], "not_found", "{tool}: {r}");
    }
    let r =
        crate::mcp::raw_tool_call(&app, &m_key, "search_memories", json!({ "query": "Alice lives in Vienna" })).await;
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert!(!r.to_string().contains("Vienna"), "{r}");
    // Alice's agent is untouched.
    let r = app.send(app.as_bearer(&alice.token, Method::GET, &format!("/v1/hosted-agents/{a_agent}"))).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["name"], "Alice's");
    let memory = app
        .send(app.as_bearer(&alice.token, Method::GET, &format!("/v1/hosted-agents/{a_agent}/memories/{a_memory}")))
        .await;
    assert_eq!(memory.json()["content"], "Alice lives in Vienna");
}
