//! The direction of dependencies (docs/ARCHITECTURE.md). Between crates the compiler holds it:
//! each crate names only the crates below it in its manifest (checked here, so that a new
//! dependency upward fails with the manifest's name), and nothing below the HTTP layer depends
//! on the web framework. Inside the domain crate, checked over its source tree: memory sits
//! below the pipeline and the cognition cycles. A new `use` that breaks a rule fails here with
//! the file and the line.

use std::path::{Path, PathBuf};

/// (who may mention it, what) — a path prefix under crates/domain/src/ that may mention the
/// module path.
struct Rule {
    module: &'static str,
    allowed: &'static [&'static str],
    /// Paths inside the module that sit lower than the rest of it.
    except: &'static [&'static str],
    why: &'static str,
}

const RULES: &[Rule] = &[
    Rule {
        module: "cognition::",
        // Wisdom reads what the agent has become (an applied reflection, a finished task).
        // Agent bundles (export and import) carry every area's part of an agent.
        allowed: &["cognition/", "cycles.rs", "chat/", "channels/proactive/", "social/wisdom/", "bundle/"],
        // The soul document sits below the cycles that evolve it: every area may read the persona.
        except: &["cognition::soul::"],
        why: "memory and the gateway sit below the cognition cycles (memory publishes jobs instead)",
    },
    Rule {
        module: "chat::",
        // Outreach and the messaging channels feed inbound messages into the pipeline; the
        // runtime holds the hub of streaming replies; the cycle list names the pipeline's cycles.
        // Agent bundles carry the conversations.
        allowed: &["chat/", "cycles.rs", "channels/outreach/", "channels/telegram/", "runtime.rs", "bundle/"],
        // The records of what was said sit below the pipeline: cognition and PoC read them.
        except: &["chat::records::"],
        why: "memory and cognition sit below the chat pipeline",
    },
];

/// Every `.rs` file under `dir`.
pub(crate) fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Mentions of `module` in code (not comments), as `crate::…`, `miniclaw::…` or `super::…`.
fn mentions(line: &str, module: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    ["crate::", "miniclaw::"].iter().any(|root| code.contains(&format!("{root}{module}")))
        || (code.trim_start().starts_with("use ") && code.contains(&format!(" {module}")))
}

#[test]
fn dependencies_point_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/domain/src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 50, "the source tree was found ({} files)", files.len());
    let mut broken = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(file).unwrap();
        for rule in RULES {
            if rule.allowed.iter().any(|a| rel.starts_with(a)) {
                continue;
            }
            for (n, line) in text.lines().enumerate() {
                if mentions(line, rule.module) && !rule.except.iter().any(|e| mentions(line, e)) {
                    broken.push(format!("crates/domain/src/{rel}:{}: uses `{}` — {}", n + 1, rule.module, rule.why));
                }
            }
        }
    }
    assert!(broken.is_empty(), "dependency direction broken:\n{}", broken.join("\n"));
}

#[test]
fn the_check_sees_what_it_forbids() {
    assert!(mentions("use crate::api::auth::create_owner;", "api::"));
    assert!(mentions("    let x = crate::llm::offline::triage::prefilter(m);", "llm::offline"));
    assert!(!mentions("// documented in `crate::llm::offline`", "llm::offline"));
    assert!(!mentions("use crate::apis::x;", "api::"));
}

/// The HTTP crate holds no SQL: handlers call domain functions. (The readiness probe's
/// `SELECT 1` is the one statement that is about the HTTP layer itself.)
#[test]
fn handlers_hold_no_sql() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/http/src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 50, "the HTTP crate was found ({} files)", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if (code.contains("sqlx::query") || code.contains("sqlx::raw_sql"))
                && !code.contains("sqlx::query_scalar!(\"SELECT 1\")")
            {
                found.push(format!("{}:{}", file.strip_prefix(&src).unwrap().display(), n + 1));
            }
        }
    }
    assert!(found.is_empty(), "SQL in handlers (move it to a domain module): {found:?}");
}

/// The miniclaw crates a manifest depends on (its `[dependencies]`, not dev-dependencies).
fn miniclaw_dependencies(manifest: &str) -> Vec<String> {
    let mut section = "";
    let mut out = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        if section == "[dependencies]"
            && let Some(name) = line.split(['.', ' ', '=']).next()
            && name.starts_with("miniclaw")
        {
            out.push(name.to_string());
        }
    }
    out.sort();
    out
}

/// Each layer depends only on the layers below it: the compiler then refuses an import upward
/// (there is no crate to import from): the domain cannot reach the offline engine or the HTTP
/// layer, the services cannot reach the areas. Below the HTTP layer nothing knows the web
/// framework, an HTTP status or the application state.
#[test]
fn the_crates_are_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = |crate_dir: &str| std::fs::read_to_string(root.join(crate_dir).join("Cargo.toml")).unwrap();
    let expected: [(&str, &[&str]); 5] = [
        ("crates/core", &[]),
        ("crates/platform", &["miniclaw-core"]),
        ("crates/domain", &["miniclaw-core", "miniclaw-platform"]),
        ("crates/offline", &["miniclaw-core", "miniclaw-domain", "miniclaw-platform"]),
        ("crates/http", &["miniclaw-core", "miniclaw-domain", "miniclaw-platform"]),
    ];
    for (dir, below) in expected {
        assert_eq!(miniclaw_dependencies(&manifest(dir)), below, "{dir}/Cargo.toml names only the layers below it");
    }
    for dir in ["crates/core", "crates/platform", "crates/domain", "crates/offline"] {
        let m = manifest(dir);
        assert!(
            !m.lines().any(|l| l.trim_start().starts_with("axum") || l.trim_start().starts_with("askama")),
            "{dir} does not depend on the web framework"
        );
        let mut files = Vec::new();
        sources(&root.join(dir).join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                assert!(
                    !code.contains("StatusCode") && !code.contains("AppState"),
                    "{}:{}: the domain knows no HTTP status or application state",
                    file.display(),
                    n + 1
                );
            }
        }
    }
}

#[test]
fn the_layer_check_reads_manifests() {
    let m = "[package]\nname = \"x\"\n[dependencies]\nminiclaw-core.workspace = true\nminiclaw-domain = { path = \"../domain\" }\nserde = \"1\"\n[dev-dependencies]\nminiclaw-http.workspace = true\n";
    assert_eq!(miniclaw_dependencies(m), ["miniclaw-core", "miniclaw-domain"]);
}

/// The area that owns each table: the only place its name may stand in SQL. Paths are what
/// `area_of` gives: a SPEC area's folder under the domain's `src/`, a folder or file directly
/// under the services' `src/`, the crate for the others, `src` for the binary.
const OWNERS: &[(&str, &[&str])] = &[
    (
        "crates/domain/src/tenancy",
        &[
            "tenants",
            "owners",
            "login_failures",
            "agents",
            "agent_spawn_drafts",
            "api_keys",
            "account_keys",
            "owner_sessions",
            "auth_challenges",
            "email_verifications",
            "team_invitations",
            "owner_recovery_codes",
            "owner_devices",
        ],
    ),
    (
        "crates/domain/src/chat",
        &[
            "conversations",
            "chat_messages",
            "conversation_summaries",
            "agent_calibration",
            "extraction_queue",
            "message_feedback",
            "memory_imports",
            "agent_mcp_servers",
            "agent_mcp_calls",
        ],
    ),
    (
        "crates/domain/src/memory",
        &[
            "agent_memories",
            "memory_versions",
            "memory_relations",
            "memory_terms",
            "memory_term_stats",
            "memory_corpus_stats",
            "memory_tombstones",
            "memory_hygiene_events",
            "memory_hits",
            "memory_agent_indexes",
            "memory_access_events",
            "memory_graphs",
            "memory_edges",
        ],
    ),
    (
        "crates/domain/src/cognition",
        &[
            "reflections",
            "agent_dossiers",
            "agent_tasks",
            "agent_milestones",
            "agent_mirrors",
            "agent_live_state",
            "affect_states",
            "behaviour_signals",
            "session_ledger",
            "knowledge_gaps",
            "agent_souls",
            "soul_guard_events",
        ],
    ),
    (
        "crates/domain/src/onchain",
        &[
            "agent_identities",
            "agent_wallets",
            "wallet_transactions",
            "agent_external_wallets",
            "verification_records",
            "poc_scores",
            "credit_accounts",
            "credit_transfers",
            "credit_entries",
            "agent_economy_settings",
            "tips",
            "agent_services",
            "service_orders",
            "payment_requirements",
            "stakes",
            "agent_tokens",
            "token_balances",
            "token_transfers",
            "gas_topups",
        ],
    ),
    (
        "crates/domain/src/channels",
        &[
            "outreach_threads",
            "outreach_messages",
            "inbound_email_deliveries",
            "notifications",
            "notification_flushes",
            "agent_proactive",
            "proactive_items",
            "agent_telegram_bots",
            "telegram_chats",
            "telegram_updates",
            "webhook_endpoints",
            "webhook_deliveries",
        ],
    ),
    (
        "crates/domain/src/analytics",
        &[
            "analytics_hourly",
            "analytics_llm_hourly",
            "analytics_rollup_state",
            "chat_analytics",
            "pipeline_snapshots",
            "quality_evaluations",
        ],
    ),
    (
        "crates/domain/src/social",
        &[
            "feed_posts",
            "feed_likes",
            "feed_comments",
            "skills",
            "skill_versions",
            "skill_installs",
            "skill_purchases",
            "skill_reviews",
        ],
    ),
    ("crates/domain/src/bundle", &["agent_imports"]),
    ("crates/platform/src/jobs", &["jobs", "job_schedules"]),
    (
        "crates/platform/src/llm",
        &[
            "llm_usage_logs",
            "llm_agent_daily_usage",
            "llm_tenant_monthly_usage",
            "llm_platform_daily_usage",
            "llm_platform_spend",
            "llm_tenant_daily_usage",
            "llm_turn_reservations",
            "llm_kill_switches",
            "llm_key_daily_usage",
        ],
    ),
    ("crates/platform/src/email", &["email_outbox", "tenant_email_senders", "email_daily_counts"]),
    ("crates/platform/src/activity.rs", &["agent_activity", "tenant_activity"]),
    ("crates/platform/src/secrets.rs", &["platform_secrets"]),
    ("crates/platform/src/idempotency.rs", &["idempotency_keys"]),
];

/// The area a source file belongs to, for table ownership.
fn area_of(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
    let parts: Vec<&str> = rel.split('/').collect();
    match parts.as_slice() {
        ["crates", layer @ ("domain" | "platform"), "src", first, ..] => format!("crates/{layer}/src/{first}"),
        ["crates", name, ..] => format!("crates/{name}"),
        _ => "src".to_string(),
    }
}

/// The tables the migrations create.
fn tables(root: &Path) -> Vec<String> {
    let create = regex::Regex::new(r"(?i)create table (?:if not exists )?([a-z_][a-z0-9_]*)").unwrap();
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root.join("migrations")).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        out.extend(create.captures_iter(&text).map(|c| c[1].to_lowercase()));
    }
    out.sort();
    out.dedup();
    out
}

/// Every (table, area) where code outside the table's owner names it in SQL.
fn crossings(root: &Path) -> Vec<String> {
    let named =
        regex::Regex::new(r"(?i)\b(?:FROM|JOIN|INTO|UPDATE|TABLE|EXISTS)\s+(?:ONLY\s+)?([a-z_][a-z0-9_]*)").unwrap();
    let owner: std::collections::HashMap<&str, &str> =
        OWNERS.iter().flat_map(|(area, tables)| tables.iter().map(move |t| (*t, *area))).collect();
    let all = tables(root);
    let unowned: Vec<&String> = all.iter().filter(|t| !owner.contains_key(t.as_str())).collect();
    assert!(unowned.is_empty(), "every table has an owning area in OWNERS; these have none: {unowned:?}");
    let mut files = Vec::new();
    sources(&root.join("crates"), &mut files);
    sources(&root.join("src"), &mut files);
    let mut out = std::collections::BTreeSet::new();
    for file in files {
        let area = area_of(root, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        // Test modules (last in a file) are not counted.
        for line in text.lines().take_while(|l| l.trim() != "#[cfg(test)]") {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let code = line.split("//").next().unwrap_or("");
            for c in named.captures_iter(code) {
                let table = c[1].to_string();
                if let Some(own) = owner.get(table.as_str())
                    && area != *own
                {
                    out.insert(format!("{table} {area}"));
                }
            }
        }
    }
    out.into_iter().collect()
}

/// Tables owned by their area: a table is named in SQL only inside the area that owns it
/// (`OWNERS`). Another area goes through the owner's functions, or splices the SQL pieces the
/// owner exports (`agents::sql`, `memory::sql`, `chat::records`, the queue's `enqueue_once_sql`)
/// into a statement of its own, so that hot paths stay one round trip.
#[test]
fn tables_are_named_only_by_their_owner() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = crossings(root);
    assert!(found.is_empty(), "SQL names another area's table (go through the owner's functions):\n{found:#?}");
}

#[test]
fn the_ownership_check_sees_a_crossing() {
    let dir = std::env::temp_dir().join(format!("miniclaw-crossing-{}", std::process::id()));
    let file = dir.join("crates/domain/src/analytics/x.rs");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("migrations")).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(root.join("migrations")).unwrap().flatten() {
        std::fs::copy(entry.path(), dir.join("migrations").join(entry.file_name())).unwrap();
    }
    std::fs::write(&file, "fn f() { sqlx::query!(\"SELECT count(*) FROM agents a JOIN chat_messages m ON true\"); }\n")
        .unwrap();
    let found = crossings(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, ["agents crates/domain/src/analytics", "chat_messages crates/domain/src/analytics"]);
}

/// Tables with an `agent_id` column whose primary key does not lead with it, and why
/// (docs/SCALING.md, "Distribution by agent"): platform tables that stay on the coordinator,
/// rows of two parties or of the account, and rows whose agent comes later or may be none.
const NOT_AGENT_KEYED: &[(&str, &str)] = &[
    ("agent_imports", "an account's upload: the agent is what the import made"),
    ("agent_spawn_drafts", "an account's draft: the agent exists only once it is confirmed"),
    ("auth_challenges", "a miniapp's sign-in challenge, keyed by its nonce"),
    ("credit_accounts", "the ledger's accounts: an account is an agent's, a tenant's or the platform's"),
    ("feed_comments", "written by another agent or an owner on a post"),
    ("feed_likes", "given by another agent or an owner to a post"),
    ("inbound_email_deliveries", "a provider's delivery, keyed by its id before any agent is known"),
    ("job_schedules", "the platform's queue"),
    ("jobs", "the platform's queue"),
    ("llm_usage_logs", "platform-wide calls have no agent"),
    ("skills", "the market's skills: purchases and reviews, the buyers' rows, point at them"),
    ("tenant_activity", "the account's own log"),
    ("webhook_deliveries", "an endpoint may be the whole account's"),
    ("webhook_endpoints", "an endpoint may be the whole account's"),
];

/// docs/SCALING.md says every agent-scoped table leads with `agent_id`: the schema agrees, so
/// that a new table keyed by its id alone fails here unless it is listed above with its reason.
#[tokio::test]
async fn every_agent_scoped_table_is_keyed_by_its_agent() {
    let app = crate::common::TestApp::spawn().await;
    let rows: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT c.relname::text, (SELECT a.attname::text FROM pg_constraint p JOIN pg_attribute a
                                    ON a.attrelid = p.conrelid AND a.attnum = p.conkey[1]
                                  WHERE p.conrelid = c.oid AND p.contype = 'p')
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
            AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'agent_id' AND NOT a.attisdropped)
          ORDER BY 1",
    )
    .fetch_all(app.pool())
    .await
    .unwrap();
    assert!(rows.len() > 40, "the catalog query finds the agent tables: {rows:?}");
    let listed: std::collections::HashMap<&str, &str> = NOT_AGENT_KEYED.iter().copied().collect();
    let mut wrong = Vec::new();
    for (table, first) in &rows {
        let keyed = first.as_deref() == Some("agent_id");
        if keyed == listed.contains_key(table.as_str()) {
            wrong.push(format!("{table} (primary key starts with {first:?})"));
        }
    }
    assert!(
        wrong.is_empty(),
        "key these tables by agent (or list them in NOT_AGENT_KEYED with a reason; a listed table that is keyed \
         comes off the list): {wrong:?}"
    );
}
