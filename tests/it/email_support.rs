//! What the email tests talk to: a real SMTP server on loopback (aiosmtpd, in the test
//! virtualenv), webhook signatures made by the official `svix` package, and a loopback fake of
//! the Resend API (`POST /emails`, `GET /emails/receiving/{id}`) following Resend's documented
//! request and response shapes.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use serde_json::{Value, json};

/// The test virtualenv's Python (scripts/setup.sh --test).
pub fn python() -> String {
    std::env::var("MINICLAW_TEST_PYTHON").unwrap_or_else(|_| {
        miniclaw::config::default_cache_dir().join("venv/bin/python").to_string_lossy().into_owned()
    })
}

/// Starts `tests/support/<script>` with `args` under the test Python and reads the one JSON
/// line it prints once it listens (its ports): the process (killed when dropped) and that line.
pub async fn python_server(script: &str, args: &[&str]) -> (tokio::process::Child, Value) {
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(python())
        .arg(support(script))
        .args(args)
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {script} (run scripts/setup.sh --test): {e}"));
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let first = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .unwrap_or_else(|_| panic!("{script} started within 30 s"))
        .unwrap()
        .unwrap_or_else(|| panic!("{script} printed its ports"));
    (child, serde_json::from_str(&first).unwrap())
}

fn support(script: &str) -> String {
    format!("{}/tests/support/{script}", env!("CARGO_MANIFEST_DIR"))
}

/// A loopback port nobody listens on (yet).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The `svix-signature` of a delivery, computed by the official `svix` package.
pub fn svix_sign(secret: &str, id: &str, timestamp: i64, body: &str) -> String {
    let mut child = Command::new(python())
        .arg(support("svix_sign.py"))
        .args([secret, id, &timestamp.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run the test Python (run scripts/setup.sh --test): {e}"));
    child.stdin.take().unwrap().write_all(body.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "svix_sign.py failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// One message as the SMTP server received it.
#[derive(Debug, Clone)]
pub struct Received {
    /// The DATA bytes exactly as received.
    pub raw: String,
    pub rcpt_tos: Vec<String>,
}

impl Received {
    /// A header's value (the first one of that name), unfolded.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.raw.split("\r\n\r\n").next().unwrap_or("");
        let mut lines = head.split("\r\n").peekable();
        while let Some(line) = lines.next() {
            if let Some((n, v)) = line.split_once(':')
                && n.eq_ignore_ascii_case(name)
            {
                let mut value = v.trim().to_string();
                while lines.peek().is_some_and(|l| l.starts_with([' ', '\t'])) {
                    value.push(' ');
                    value.push_str(lines.next().unwrap().trim());
                }
                return Some(value);
            }
        }
        None
    }

    /// The body, decoded when it is quoted-printable (soft line breaks joined, `=XX` decoded).
    pub fn body_text(&self) -> String {
        let body = self.raw.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
        let qp = self.header("Content-Transfer-Encoding").is_some_and(|e| e.eq_ignore_ascii_case("quoted-printable"));
        if !qp {
            return body.to_string();
        }
        let joined = body.replace("=\r\n", "");
        let bytes = joined.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'='
                && i + 3 <= bytes.len()
                && let Ok(b) = u8::from_str_radix(&joined[i + 1..i + 3], 16)
            {
                out.push(b);
                i += 3;
                continue;
            }
            out.push(bytes[i]);
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The header names, in order.
    pub fn header_names(&self) -> Vec<String> {
        let head = self.raw.split("\r\n\r\n").next().unwrap_or("");
        head.split("\r\n")
            .filter(|l| !l.starts_with([' ', '\t']))
            .filter_map(|l| l.split_once(':'))
            .map(|(n, _)| n.to_string())
            .collect()
    }
}

/// The aiosmtpd server, listening on `port` while it runs.
pub struct SmtpServer {
    pub port: u16,
    dir: tempfile::TempDir,
    child: Option<Child>,
}

impl SmtpServer {
    /// A server on a free port.
    pub fn start() -> SmtpServer {
        SmtpServer::on(free_port())
    }

    pub fn on(port: u16) -> SmtpServer {
        let mut s = SmtpServer { port, dir: tempfile::tempdir().unwrap(), child: None };
        s.run();
        s
    }

    /// Starts listening (keeping what was received before).
    pub fn run(&mut self) {
        let mut child = Command::new(python())
            .arg(support("smtp_server.py"))
            .arg(self.port.to_string())
            .arg(self.dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run the test Python (run scripts/setup.sh --test): {e}"));
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "ready", "the SMTP server did not start");
        self.child = Some(child);
    }

    /// Stops listening.
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            drop(c.stdin.take());
            let _ = c.wait();
        }
    }

    /// The folder the messages are saved in (`<n>.eml` with `<n>.json`, its envelope).
    pub fn dir(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// `SMTP_URL` for this server (plain text on loopback).
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}?tls=none", self.port)
    }

    /// Every message received so far, in order.
    pub fn messages(&self) -> Vec<Received> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|p| {
                let envelope: Value =
                    serde_json::from_str(&std::fs::read_to_string(p.with_extension("json")).unwrap()).unwrap();
                Received {
                    raw: String::from_utf8(std::fs::read(&p).unwrap()).unwrap(),
                    rcpt_tos: serde_json::from_value(envelope["rcpt_tos"].clone()).unwrap(),
                }
            })
            .collect()
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The loopback fake of Resend's API: what it was sent, and the inbound emails it serves.
#[derive(Clone, Default)]
pub struct FakeResend {
    /// Each `POST /emails`: `{"headers": {...request headers...}, "body": {...}}`.
    pub sent: Arc<Mutex<Vec<Value>>>,
    /// Inbound emails by id, as `GET /emails/receiving/{id}` returns them.
    pub inbound: Arc<Mutex<HashMap<String, Value>>>,
    /// Answer this many of the next requests with 500.
    pub fail_next: Arc<AtomicUsize>,
    pub base_url: String,
}

async fn send_email(
    State(f): State<FakeResend>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    if f.fail_next.load(Ordering::SeqCst) > 0 {
        f.fail_next.fetch_sub(1, Ordering::SeqCst);
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({ "name": "internal_server_error", "message": "down" })),
        );
    }
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer re_test_key") {
        return (StatusCode::UNAUTHORIZED, Json(json!({ "name": "missing_api_key", "message": "Missing API key" })));
    }
    for field in ["from", "to", "subject"] {
        if body.get(field).is_none() {
            return (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({ "name": "validation_error", "message": field })));
        }
    }
    let request_headers: HashMap<String, String> =
        headers.iter().map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string())).collect();
    let mut sent = f.sent.lock().unwrap();
    // Resend's idempotency: the same key again is the same email.
    let key = request_headers.get("idempotency-key").cloned();
    if let Some(prev) =
        sent.iter().find(|s| key.is_some() && s["headers"]["idempotency-key"].as_str() == key.as_deref())
    {
        return (StatusCode::OK, Json(json!({ "id": prev["id"] })));
    }
    let id = uuid::Uuid::new_v4().to_string();
    sent.push(json!({ "id": id, "headers": request_headers, "body": body }));
    (StatusCode::OK, Json(json!({ "id": id })))
}

async fn received_email(
    State(f): State<FakeResend>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> (StatusCode, Json<Value>) {
    if f.fail_next.load(Ordering::SeqCst) > 0 {
        f.fail_next.fetch_sub(1, Ordering::SeqCst);
        return (StatusCode::BAD_GATEWAY, Json(json!({ "name": "internal_server_error", "message": "down" })));
    }
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer re_test_key") {
        return (StatusCode::UNAUTHORIZED, Json(json!({ "name": "missing_api_key", "message": "Missing API key" })));
    }
    match f.inbound.lock().unwrap().get(&id) {
        Some(email) => (StatusCode::OK, Json(email.clone())),
        None => (StatusCode::NOT_FOUND, Json(json!({ "name": "not_found", "message": "Email not found" }))),
    }
}

impl FakeResend {
    pub async fn start() -> FakeResend {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let fake = FakeResend { base_url: format!("http://{}", listener.local_addr().unwrap()), ..Default::default() };
        let app = axum::Router::new()
            .route("/emails", post(send_email))
            .route("/emails/receiving/{id}", get(received_email))
            .with_state(fake.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.ok() });
        fake
    }

    /// Makes an inbound email available under `id` (the shape of `GET /emails/receiving/{id}`).
    pub fn receive(&self, id: &str, email: Value) {
        let mut e = json!({ "object": "email", "id": id, "created_at": "2026-11-24T10:00:00.000Z", "bcc": [], "cc": [],
            "reply_to": [], "attachments": [] });
        for (k, v) in email.as_object().unwrap() {
            e[k] = v.clone();
        }
        self.inbound.lock().unwrap().insert(id.to_string(), e);
    }

    pub fn sent(&self) -> Vec<Value> {
        self.sent.lock().unwrap().clone()
    }
}

/// Waits until `f` holds (the SMTP server writes files as messages arrive).
pub async fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    for _ in 0..100 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

/// A real DNS server on loopback (dnslib) answering TXT questions from records the test sets
/// while it runs, over UDP and TCP; `MINICLAW_DNS_SERVER` points the app at it.
pub struct DnsServer {
    pub port: u16,
    records: tempfile::NamedTempFile,
    _child: tokio::process::Child,
}

impl DnsServer {
    pub async fn start() -> DnsServer {
        let records = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(records.path(), "{}").unwrap();
        let port = free_port();
        let path = records.path().to_string_lossy().into_owned();
        let (child, _) = python_server("dns_server.py", &[&path, &port.to_string()]).await;
        DnsServer { port, records, _child: child }
    }

    /// `MINICLAW_DNS_SERVER` for this server.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Serves `texts` as the TXT records of `name` from now on.
    pub fn set_txt(&self, name: &str, texts: &[&str]) {
        let mut all: Value = serde_json::from_str(&std::fs::read_to_string(self.records.path()).unwrap()).unwrap();
        all[name.to_ascii_lowercase()] = json!(texts);
        std::fs::write(self.records.path(), all.to_string()).unwrap();
    }
}
