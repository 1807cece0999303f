//! The container image builds from what the Dockerfile copies: every path the manifest declares
//! (binaries, benches) and every directory the crate reads at compile time (migrations,
//! templates, static files) must be copied into the build stage, and none of them ignored.

use std::path::Path;

/// The first path component of every source the build stage copies.
fn copied(dockerfile: &str) -> Vec<String> {
    // The lines of the first stage: from the first FROM to the next.
    let mut stages = 0;
    dockerfile
        .lines()
        .filter(|l| {
            if l.trim_start().starts_with("FROM ") {
                stages += 1;
            }
            stages == 1
        })
        .filter_map(|l| l.trim().strip_prefix("COPY "))
        .filter(|l| !l.starts_with("--from"))
        .flat_map(|l| {
            let parts: Vec<&str> = l.split_whitespace().collect();
            parts[..parts.len().saturating_sub(1)]
                .iter()
                .map(|p| p.trim_end_matches('/').to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Top-level paths the build needs: the manifest's own and those read at compile time.
fn needed(root: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut need = vec!["Cargo.toml".to_string(), "Cargo.lock".to_string(), "src".to_string()];
    for line in manifest.lines() {
        if let Some(path) = line.trim().strip_prefix("path = \"") {
            need.push(path.split('/').next().unwrap().to_string());
        }
        if line.trim() == "[[bench]]" {
            need.push("benches".into());
        }
    }
    // `sqlx::migrate!` embeds migrations/, askama reads templates/, `include_str!` reads static/,
    // the `query!` macros read .sqlx/ (offline, as .cargo/config.toml says).
    for dir in ["migrations", "templates", "static", ".sqlx", ".cargo"] {
        assert!(root.join(dir).is_dir(), "{dir}/ exists");
        need.push(dir.into());
    }
    need.sort();
    need.dedup();
    need
}

#[test]
fn the_image_copies_everything_the_build_needs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dockerfile = std::fs::read_to_string(root.join("Dockerfile")).unwrap();
    let ignored = std::fs::read_to_string(root.join(".dockerignore")).unwrap_or_default();
    let copied = copied(&dockerfile);
    for path in needed(root) {
        assert!(copied.contains(&path), "the Dockerfile's build stage does not copy `{path}` (copies {copied:?})");
        assert!(!ignored.lines().any(|l| l.trim().trim_end_matches('/') == path), ".dockerignore excludes `{path}`");
    }
}

#[test]
fn the_check_reads_copies_and_needs() {
    let got = copied(
        "FROM rust AS build\nCOPY Cargo.toml Cargo.lock ./\nCOPY src ./src\nFROM debian\nCOPY --from=build /a /b\nCOPY x /y\n",
    );
    assert_eq!(got, ["Cargo.toml", "Cargo.lock", "src"]);
    let need = needed(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(need.contains(&"benches".to_string()) && need.contains(&"migrations".to_string()), "{need:?}");
}
