//! The container image builds from what the Dockerfile copies. What the build needs is derived
//! from the code, not listed by hand: the workspace's manifests and members, every path a
//! `[[bin]]`/`[[bench]]`/`build` entry names, every file an `include_str!`/`include_bytes!`
//! embeds and every directory a `migrate!` embeds (outside test modules, which the image does
//! not compile), the templates of each crate that renders with askama, and the query data and
//! cargo settings the offline build reads. Each must be copied into the build stage and none of
//! them ignored.

use std::path::{Component, Path, PathBuf};

use crate::architecture::sources;

/// Every source the build stage copies, as written (without a trailing slash).
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
                .map(|p| p.trim_end_matches('/').trim_start_matches("./").to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `a/./b/../c` → `a/c`, relative to the repository root.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The quoted string of a macro call's first literal: `include_str!("a/b")` → `a/b`; with
/// `concat!(env!("CARGO_MANIFEST_DIR"), "/x")`, the path is the manifest's folder joined to `x`.
fn embedded(line: &str, file: &Path, manifest_dir: &Path) -> Option<PathBuf> {
    let code = line.split("//").next().unwrap_or("");
    let at =
        ["include_str!(", "include_bytes!(", "migrate!("].iter().find_map(|m| code.find(m).map(|i| i + m.len()))?;
    let args = &code[at..];
    if code.contains("migrate!(") && args.trim_start().starts_with(')') {
        return Some(manifest_dir.join("migrations"));
    }
    let literals: Vec<&str> = args.split('"').skip(1).step_by(2).collect();
    if args.contains("CARGO_MANIFEST_DIR") {
        let rest = literals.iter().find(|l| **l != "CARGO_MANIFEST_DIR")?;
        return Some(manifest_dir.join(rest.trim_start_matches('/')));
    }
    let path = literals.first()?;
    Some(if code.contains("migrate!(") { manifest_dir.join(path) } else { file.parent()?.join(path) })
}

/// The manifests of the workspace: the root's and each member's folder.
fn members(root: &Path) -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let list = manifest.split("members = [").nth(1).and_then(|r| r.split(']').next()).unwrap_or("");
    let mut dirs = vec![root.to_path_buf()];
    dirs.extend(list.split('"').skip(1).step_by(2).map(|m| root.join(m)));
    dirs
}

/// Every path (relative to the root) the release build of the binary reads.
fn needed(root: &Path) -> Vec<PathBuf> {
    let mut need: Vec<PathBuf> = vec![".sqlx".into(), ".cargo".into(), "Cargo.lock".into()];
    for dir in members(root) {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let rel = |p: &Path| normalize(p.strip_prefix(root).unwrap());
        need.push(rel(&dir.join("Cargo.toml")));
        need.push(rel(&dir.join("src")));
        let mut section = "";
        for line in manifest.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line;
            }
            for key in ["path = \"", "build = \""] {
                if let Some(path) = line.strip_prefix(key) {
                    need.push(rel(&dir.join(path.trim_end_matches('"'))));
                }
            }
            if line == "[[bench]]" {
                need.push(rel(&dir.join("benches")));
            }
            // A crate that renders with askama reads its templates/ (dev-dependencies do not count).
            if section == "[dependencies]" && line.starts_with("askama") {
                need.push(rel(&dir.join("templates")));
            }
        }
        if dir.join("build.rs").is_file() {
            need.push(rel(&dir.join("build.rs")));
        }
        let mut files = Vec::new();
        sources(&dir.join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            // Test modules (last in a file, after `#[cfg(test)]`) are not part of the image.
            for line in text.lines().take_while(|l| l.trim() != "#[cfg(test)]") {
                if let Some(path) = embedded(line, &file, &dir) {
                    need.push(rel(&path));
                }
            }
        }
    }
    for path in &need {
        assert!(root.join(path).exists(), "the build reads `{}`, which is not in the repository", path.display());
    }
    need.sort();
    need.dedup();
    need
}

/// Whether a COPY source covers `path` (is it, or a folder above it).
fn covers(copied: &[String], path: &Path) -> bool {
    copied.iter().any(|c| c == "." || path.starts_with(c))
}

#[test]
fn the_image_copies_everything_the_build_needs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dockerfile = std::fs::read_to_string(root.join("Dockerfile")).unwrap();
    let ignored = std::fs::read_to_string(root.join(".dockerignore")).unwrap_or_default();
    let copied = copied(&dockerfile);
    let need = needed(root);
    for path in &need {
        assert!(
            covers(&copied, path),
            "the Dockerfile's build stage does not copy `{}` (copies {copied:?})",
            path.display()
        );
        assert!(
            !ignored.lines().map(|l| l.trim().trim_end_matches('/')).any(|l| !l.is_empty() && path.starts_with(l)),
            ".dockerignore excludes `{}`",
            path.display()
        );
    }
}

#[test]
fn the_check_derives_what_the_code_embeds() {
    let got = copied(
        "FROM rust AS build\nCOPY Cargo.toml Cargo.lock ./\nCOPY src ./src\nFROM debian\nCOPY --from=build /a /b\nCOPY x /y\n",
    );
    assert_eq!(got, ["Cargo.toml", "Cargo.lock", "src"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let need = needed(root);
    for path in
        ["migrations", "data/wisdom/teachings.json", "contracts/AgentToken.json", "benches", "crates/http/templates"]
    {
        assert!(need.contains(&PathBuf::from(path)), "{path} is derived: {need:?}");
    }
    assert!(!need.iter().any(|p| p.starts_with("tests")), "test fixtures are not part of the image: {need:?}");
    let file = root.join("crates/domain/src/chain/contracts.rs");
    let dir = root.join("crates/domain");
    let line = r#"bytecode(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../contracts/A.json")))"#;
    assert_eq!(embedded(line, &file, &dir).map(|p| normalize(&p)), Some(normalize(&root.join("contracts/A.json"))));
    assert_eq!(embedded("sqlx::migrate!()", &file, &dir), Some(dir.join("migrations")));
    assert!(!covers(&["crates/http".into()], Path::new("crates/domain/src")));
    assert!(covers(&["crates".into()], Path::new("crates/domain/src")));
}
