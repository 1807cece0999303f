//! The generated clients (`clients/`, `make sdk`): current with the OpenAPI document, and each
//! drives a running server through its own calls (sign up, an agent and a key, a chat turn, a
//! memory stored and found, a streamed reply).

use std::time::Duration;

use serde_json::Value;

use crate::common::TestApp;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

async fn run(program: &std::path::Path, args: &[&str]) -> String {
    let out = tokio::time::timeout(
        Duration::from_secs(240),
        tokio::process::Command::new(program).args(args).current_dir(ROOT).kill_on_drop(true).output(),
    )
    .await
    .expect("finished in time")
    .unwrap_or_else(|e| panic!("cannot run {} (scripts/setup.sh --test): {e}", program.display()));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{} {args:?} failed:\n{stdout}\n{stderr}", program.display());
    stdout.into_owned()
}

fn cache(path: &str) -> std::path::PathBuf {
    miniclaw::config::default_cache_dir().join(path)
}

/// What a smoke script printed, checked: the reply, the memory found first, a streamed turn.
fn check(seen: &str) {
    let seen: Value =
        serde_json::from_str(seen.lines().last().unwrap_or_default()).unwrap_or_else(|e| panic!("{e}: {seen}"));
    assert!(!seen["reply"].as_str().unwrap_or_default().is_empty(), "{seen}");
    assert_eq!(seen["memory"], "The user lives in Vienna", "{seen}");
    assert_eq!(seen["found"][0], "The user lives in Vienna", "{seen}");
    let events: Vec<&str> = seen["events"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(events.contains(&"done"), "{seen}");
}

#[tokio::test]
async fn the_committed_clients_are_current() {
    let out = run(&std::path::Path::new(ROOT).join("scripts/sdk.sh"), &["--check"]).await;
    assert!(out.contains("matches"), "{out}");
}

#[tokio::test]
async fn the_python_client_signs_up_chats_searches_and_streams() {
    let app = TestApp::spawn().await;
    let python = crate::email_support::python();
    let base = format!("http://{}", app.addr);
    let seen = run(std::path::Path::new(&python), &["tests/support/sdk_smoke.py", "clients/python", &base]).await;
    check(&seen);
}

#[tokio::test]
async fn the_typescript_client_signs_up_chats_searches_and_streams() {
    let app = TestApp::spawn().await;
    // Compiled as a user would (`npm run build`), into a scratch directory.
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    let tsc = cache("clients/node_modules/.bin/tsc");
    let (project, out) = (format!("{ROOT}/clients/typescript"), dist.to_string_lossy().into_owned());
    run(&tsc, &["-p", &project, "--outDir", &out]).await;
    let base = format!("http://{}", app.addr);
    let seen = run(std::path::Path::new("node"), &["tests/support/sdk_smoke.mjs", &out, &base]).await;
    check(&seen);
}
