//! Idle SSE streams (SPEC B3): opens N agent event streams against a running server, holds them
//! idle, reads the server's resident memory before and after, then sends one chat turn and
//! times how long every stream takes to hear of it (the fan-out of one LISTEN connection).
//!
//!     scripts/bench_sse.sh                 # builds, serves, raises the descriptor limit, runs this
//!     cargo bench --bench sse_idle -- BASE TOKEN AGENT_ID SERVER_PID N
//!     cargo bench --bench sse_idle -- reference PORT     # the reference server (below)
//!
//! The reference is the smallest server that holds the same streams: axum on the same runtime
//! settings, one route answering every GET with an SSE stream of `ready` and then keep-alives
//! (no auth, no database, no middleware). Against it the reply step is skipped. Prints one JSON
//! line.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;

/// The server's resident set, in KiB, from /proc.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc entry");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Opens one event stream and reads until its `ready` event; the open socket.
async fn open(addr: &str, path: &str, token: &str) -> std::io::Result<TcpStream> {
    let mut socket = TcpStream::connect(addr).await?;
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
    );
    socket.write_all(request.as_bytes()).await?;
    let mut seen = Vec::new();
    let mut buf = [0u8; 2048];
    while !String::from_utf8_lossy(&seen).contains("event: ready") {
        let n = socket.read(&mut buf).await?;
        if n == 0 {
            return Err(std::io::Error::other(format!("closed: {}", String::from_utf8_lossy(&seen))));
        }
        seen.extend_from_slice(&buf[..n]);
        if !seen.starts_with(b"HTTP/1.1 200") && seen.len() > 12 {
            return Err(std::io::Error::other(String::from_utf8_lossy(&seen).into_owned()));
        }
    }
    Ok(socket)
}

/// Waits until `socket` delivers a `reply` event.
async fn hear_reply(mut socket: TcpStream) -> std::io::Result<()> {
    let mut seen = Vec::new();
    let mut buf = [0u8; 2048];
    loop {
        let n = socket.read(&mut buf).await?;
        if n == 0 {
            return Err(std::io::Error::other("closed before the reply event"));
        }
        seen.extend_from_slice(&buf[..n]);
        if String::from_utf8_lossy(&seen).contains("event: reply") {
            return Ok(());
        }
    }
}

/// The reference server: `ready`, then keep-alives, for every GET.
async fn reference(port: u16) {
    use axum::response::sse::{Event, KeepAlive, Sse};
    let app = axum::Router::new().fallback(axum::routing::get(|| async {
        let ready = futures::stream::once(async {
            Ok::<_, std::convert::Infallible>(Event::default().event("ready").data("{}"))
        });
        Sse::new(futures::StreamExt::chain(ready, futures::stream::pending()))
            .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
    }));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    axum::serve(listener, app).await.unwrap();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if let [mode, port] = &args[..]
        && mode == "reference"
    {
        let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        rt.block_on(reference(port.parse().unwrap()));
        return;
    }
    let [base, token, agent, pid, n] = &args[..] else {
        eprintln!("usage: sse_idle BASE TOKEN AGENT_ID SERVER_PID N");
        std::process::exit(2);
    };
    let addr = base.trim_start_matches("http://").to_string();
    let (pid, n): (u32, usize) = (pid.parse().unwrap(), n.parse().unwrap());
    let path = format!("/v1/hosted-agents/{agent}/events");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        // Let the server settle, then measure it before any stream.
        tokio::time::sleep(Duration::from_secs(1)).await;
        let before = rss_kib(pid);
        let opened_at = Instant::now();
        let gate = Arc::new(Semaphore::new(256));
        let tasks: Vec<_> = (0..n)
            .map(|_| {
                let (gate, addr, path, token) = (gate.clone(), addr.clone(), path.clone(), token.clone());
                tokio::spawn(async move {
                    let _permit = gate.acquire_owned().await.unwrap();
                    open(&addr, &path, &token).await
                })
            })
            .collect();
        let mut sockets = Vec::with_capacity(n);
        for t in tasks {
            sockets.push(t.await.unwrap().expect("a stream opens"));
        }
        let open_secs = opened_at.elapsed().as_secs_f64();
        // Idle: nothing is sent but keep-alives.
        tokio::time::sleep(Duration::from_secs(5)).await;
        let after = rss_kib(pid);
        let per_stream_kib = (after.saturating_sub(before)) as f64 / n as f64;

        if agent == "-" {
            println!(
                "{{\"streams\":{n},\"open_s\":{open_secs:.1},\"rss_before_kib\":{before},\"rss_after_kib\":{after},\"per_stream_kib\":{per_stream_kib:.1}}}"
            );
            return;
        }
        // One reply: every stream hears of it.
        let heard = Arc::new(AtomicUsize::new(0));
        let listeners: Vec<_> = sockets
            .into_iter()
            .map(|s| {
                let heard = heard.clone();
                tokio::spawn(async move {
                    if hear_reply(s).await.is_ok() {
                        heard.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        let sent = Instant::now();
        let client = reqwest::Client::new();
        let r = client
            .post(format!("{base}/v1/hosted-agents/{agent}/chat"))
            .bearer_auth(token)
            .json(&serde_json::json!({ "message": "Hello there!" }))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "{}", r.status());
        let all = tokio::time::timeout(Duration::from_secs(60), futures::future::join_all(listeners)).await;
        let fanout_ms = sent.elapsed().as_secs_f64() * 1000.0;
        println!(
            "{{\"streams\":{n},\"open_s\":{open_secs:.1},\"rss_before_kib\":{before},\"rss_after_kib\":{after},\"per_stream_kib\":{per_stream_kib:.1},\"heard_reply\":{},\"fanout_ms\":{fanout_ms:.0},\"all_heard_in_time\":{}}}",
            heard.load(Ordering::Relaxed),
            all.is_ok()
        );
    });
}
