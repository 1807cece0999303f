//! SPEC D7: the dashboard in a real headless browser (Debian's Chromium driven by
//! playwright-core). The flows live in tests/browser/*.mjs; each test gives its flow a fresh
//! app and fails with the script's output (and a screenshot path) when it fails.

use crate::chain_support::{Anvil, chain_env};
use crate::common::TestApp;

async fn run_flow(app: &TestApp, script: &str, done: &str) {
    run_flow_with(app, script, done, &[]).await
}

async fn run_flow_with(app: &TestApp, script: &str, done: &str, env: &[(&str, &str)]) {
    let root = env!("CARGO_MANIFEST_DIR");
    let shots = std::env::var("SCREENSHOT_DIR").unwrap_or_else(|_| format!("{root}/tests/browser/screenshots"));
    let mut node = tokio::process::Command::new("node");
    node.arg(format!("{root}/tests/browser/{script}"))
        .env("BASE_URL", format!("http://{}", app.addr))
        .env("SCREENSHOT_DIR", &shots)
        .envs(env.iter().copied())
        .kill_on_drop(true);
    // Flows that act as the operator (recording a verification) get the admin bearer.
    if let Some(pw) = &app.config.admin_password {
        node.env("ADMIN_PASSWORD", pw.expose());
    }
    let out = tokio::time::timeout(std::time::Duration::from_secs(180), node.output())
        .await
        .expect("browser flow finished within 180 s")
        .expect("node runs (scripts/setup.sh --test installs it, Chromium and playwright-core)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "browser flow {script} failed\n{stdout}\n{stderr}");
    assert!(stdout.contains(done), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signup_create_agent_create_key_revoke_in_a_browser() {
    let app = TestApp::spawn().await;
    run_flow(&app, "dashboard.mjs", "dashboard flow: ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_tour_fits_a_laptop_and_a_phone_and_chat_outlives_its_session_token_in_a_browser() {
    // Session tokens of 10 s: the flow waits for one to expire and chats on.
    let app = TestApp::builder().env("MINICLAW_SESSION_SECS", "10").spawn().await;
    run_flow(&app, "tour.mjs", "tour flow: ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memories_search_pin_edit_delete_and_knowledge_in_a_browser() {
    let app = TestApp::spawn().await;
    run_flow(&app, "memories.mjs", "memories flow: ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_streams_a_reply_that_uses_an_earlier_conversation_in_a_browser() {
    // As `serve` runs by default: the worker inside learns from the turns (extraction jobs).
    let app = TestApp::builder().with_worker().spawn().await;
    run_flow(&app, "chat.mjs", "chat flow: ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reflection_and_dossier_from_the_mind_tab_in_a_browser() {
    let app = TestApp::spawn().await;
    run_flow(&app, "mind.mjs", "mind flow: ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_poc_card_and_verification_records_in_a_browser() {
    let app = TestApp::builder().admin_password("browser-admin").spawn().await;
    run_flow(&app, "poc.mjs", "poc flow: ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identity_and_wallet_tabs_register_and_send_on_a_real_chain_in_a_browser() {
    let anvil = Anvil::start().await;
    let registry = anvil.deploy_registry().await;
    let app = chain_env(TestApp::builder().with_worker(), &anvil.url, registry).spawn().await;
    run_flow_with(&app, "identity.mjs", "identity flow: ok", &[("ANVIL_URL", anvil.url.as_str())]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analytics_charts_over_seeded_days_in_a_browser() {
    let a = crate::common::OwnedAgent::new(TestApp::spawn().await).await;
    // Four turns five days ago, six two days ago (see `analytics::seed_days_ago`).
    crate::analytics::seed_days_ago(&a, 5, 4, 0.002, 300).await;
    crate::analytics::seed_days_ago(&a, 2, 6, 0.001, 100).await;
    // One judged exchange two days ago, in that day's snapshot: the quality trend has a point.
    let agent = uuid::Uuid::parse_str(&a.id).unwrap();
    sqlx::query(
        "INSERT INTO quality_evaluations (agent_id, message_id, reply_id, exchanged_at, relevance, coherence, personality,
                context_utilization, overall, reasoning, judge, model)
         VALUES ($1, gen_random_uuid(), gen_random_uuid(), now() - interval '2 days', 8, 7, 6, 5, 6.65, 'seeded', 'heuristic', 'offline')",
    )
    .bind(agent)
    .execute(a.app.pool())
    .await
    .unwrap();
    miniclaw::analytics::snapshots::run(a.app.pool(), miniclaw::ids::AgentId(agent), chrono::Utc::now()).await.unwrap();
    let env = [("AGENT_ID", a.id.as_str()), ("EMAIL", "ada@example.com"), ("PASSWORD", "correct horse battery")];
    run_flow_with(&a.app, "analytics.mjs", "analytics flow: ok", &env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_brain_graph_rotates_zooms_and_opens_a_memory_in_a_browser() {
    let app = TestApp::spawn().await;
    run_flow(&app, "brain.mjs", "brain flow: ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_spawned_from_a_brief_in_a_browser() {
    let app = TestApp::spawn().await;
    run_flow(&app, "spawn.mjs", "spawn flow: ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outreach_escalation_notifications_and_telegram_in_a_browser() {
    use crate::email_support::{SmtpServer, python};
    use crate::outreach::SECRET;
    use crate::telegram::{FakeBot, TOKEN};
    let smtp = SmtpServer::start();
    let (bot, bot_base) = FakeBot::start().await;
    let app = TestApp::builder()
        .with_worker()
        .env("SMTP_URL", &smtp.url())
        .env("RESEND_WEBHOOK_SECRET", SECRET)
        .env("MINICLAW_EMAIL_FROM", "agents@outreach.example.com")
        .env("TELEGRAM_API_BASE", &bot_base)
        .spawn()
        .await;
    let python = python();
    let env = [("SVIX_SECRET", SECRET), ("PYTHON", python.as_str()), ("BOT_TOKEN", TOKEN)];
    run_flow_with(&app, "outreach.mjs", "outreach flow: ok", &env).await;

    // What reached the SMTP server for Bob: the approved proposal with its edited subject, then
    // the owner's rewritten reply, threaded on the first.
    let bob: Vec<_> = smtp.messages().into_iter().filter(|m| m.rcpt_tos == ["bob@example.org"]).collect();
    assert_eq!(bob.len(), 2, "{bob:#?}");
    assert_eq!(bob[0].header("Subject").as_deref(), Some("The reading club on Thursday"));
    let first = bob[0].header("Message-ID").expect("a Message-ID");
    assert_eq!(bob[1].header("Subject").as_deref(), Some("Re: The reading club on Thursday"));
    assert!(bob[1].header("References").is_some_and(|r| r.contains(&first)), "{}", bob[1].raw);
    assert!(bob[1].body_text().contains("Middlemarch this month"), "{}", bob[1].raw);
    // The bot was checked, its webhook registered with a secret, then removed.
    assert_eq!(bot.calls("getMe").len(), 1, "the malformed token never reached Telegram");
    let hooks = bot.calls("setWebhook");
    assert_eq!(hooks.len(), 1);
    assert!(hooks[0]["url"].as_str().unwrap().contains("/webhooks/telegram/"), "{hooks:?}");
    assert!(hooks[0]["secret_token"].as_str().is_some_and(|s| s.len() >= 32));
    assert_eq!(bot.calls("deleteWebhook").len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invitation_second_factor_password_change_and_reset_in_a_browser() {
    use crate::email_support::SmtpServer;
    let smtp = SmtpServer::start();
    let app = TestApp::builder()
        .with_worker()
        .env("SMTP_URL", &smtp.url())
        .env("MINICLAW_EMAIL_FROM", "agents@claw.example")
        .spawn()
        .await;
    let dir = smtp.dir().to_string_lossy().to_string();
    run_flow_with(&app, "account.mjs", "account flow: ok", &[("SMTP_DIR", dir.as_str())]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tips_orders_and_stakes_on_the_economy_tab_in_a_browser() {
    let app = TestApp::spawn().await;
    run_flow(&app, "economy.mjs", "economy flow: ok").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_bought_with_credits_and_a_feed_with_its_digest_in_a_browser() {
    let app = TestApp::spawn().await;
    run_flow(&app, "social.mjs", "social flow: ok").await;
}
