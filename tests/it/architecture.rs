//! The direction of dependencies (docs/ARCHITECTURE.md), checked over the source tree: the HTTP
//! surface and the dashboard sit on top and nothing below reaches up into them; the offline
//! engine is an implementation detail of the model gateway; memory sits below the pipeline and
//! the cognition cycles. A new `use` that breaks a rule fails here with the file and the line.

use std::path::{Path, PathBuf};

/// (who may mention it, what) — a path prefix under src/ that may mention the module path.
struct Rule {
    module: &'static str,
    allowed: &'static [&'static str],
    why: &'static str,
}

const RULES: &[Rule] = &[
    Rule {
        module: "api::",
        // The router assembly (`app::serve`) and the printed OpenAPI document (`main`).
        allowed: &["api/", "app.rs", "main.rs"],
        why: "only the router assembly uses the HTTP surface; domain code is called by it, not the other way",
    },
    Rule {
        module: "web::",
        allowed: &["web/", "api/mod.rs"],
        why: "the dashboard is mounted by the router; nothing else uses it",
    },
    Rule {
        module: "llm::offline",
        allowed: &["llm/"],
        why: "the offline engine is the gateway's fallback; domain rules live in their domain modules",
    },
    Rule {
        module: "cognition::",
        allowed: &["cognition/", "api/", "web/", "jobs/", "chat/", "proactive/", "main.rs"],
        why: "memory and the gateway sit below the cognition cycles (memory publishes jobs instead)",
    },
    Rule {
        module: "chat::",
        // Outreach and the messaging channels feed inbound messages into the pipeline.
        allowed: &["chat/", "api/", "web/", "jobs/", "llm/offline/", "outreach/", "telegram/", "app.rs", "main.rs"],
        why: "memory and cognition sit below the chat pipeline",
    },
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
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
                if mentions(line, rule.module) {
                    broken.push(format!("src/{rel}:{}: uses `{}` — {}", n + 1, rule.module, rule.why));
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

/// The HTTP surface and the dashboard hold no SQL: handlers call domain functions. (The
/// readiness probe's `SELECT 1` is the one statement that is about the HTTP layer itself.)
#[test]
fn handlers_hold_no_sql() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["api", "web"] {
        sources(&src.join(dir), &mut files);
    }
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("sqlx::query") && !code.contains("sqlx::query_scalar!(\"SELECT 1\")") {
                found.push(format!("{}:{}", file.strip_prefix(&src).unwrap().display(), n + 1));
            }
        }
    }
    assert!(found.is_empty(), "SQL in handlers (move it to a domain module): {found:?}");
}
