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
    why: &'static str,
}

const RULES: &[Rule] = &[
    Rule {
        module: "cognition::",
        allowed: &["cognition/", "cycles.rs", "chat/", "proactive/"],
        why: "memory and the gateway sit below the cognition cycles (memory publishes jobs instead)",
    },
    Rule {
        module: "chat::",
        // Outreach and the messaging channels feed inbound messages into the pipeline; the
        // runtime holds the hub of streaming replies; the cycle list names the pipeline's cycles.
        allowed: &["chat/", "cycles.rs", "outreach/", "telegram/", "runtime.rs"],
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
                if mentions(line, rule.module) {
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
