//! Traces (issue 41, item 4): with `OTEL_EXPORTER_OTLP_ENDPOINT` set, the real binary exports
//! OpenTelemetry spans over OTLP/HTTP to a receiver that decodes them with the official
//! `opentelemetry-proto` package. One chat turn is one trace, joined to the caller's span by W3C
//! trace context: the request, the turn, its four stages and the model calls, with the tenant and
//! agent as attributes and never the message's text.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::TestDb;
use crate::email_support::python_server;
use crate::processes::{ada_and_agent, free_port, miniclaw, terminate, wait_ready};

/// The spans the receiver has written so far.
fn spans(file: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn a_chat_turn_is_one_trace_from_the_callers_span_to_the_model_calls() {
    let db = TestDb::new().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("spans.jsonl");
    let (_receiver, hello) = python_server("otlp_receiver.py", &[file.to_str().unwrap()]).await;
    let otlp = format!("http://127.0.0.1:{}", hello["port"]);
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let env = [
        ("DATABASE_URL", db.url.as_str()),
        ("MINICLAW_ADDR", addr.as_str()),
        ("MINICLAW_EMBEDDER", "hash"),
        ("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.as_str()),
        ("OTEL_BSP_SCHEDULE_DELAY", "100"),
    ];
    let mut server = miniclaw(&["serve"], &env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    wait_ready(port, &mut server).await;
    let base = format!("http://{addr}");
    let http = reqwest::Client::new();
    let (token, tenant, agent) = ada_and_agent(&http, &base).await;

    let (trace, caller) = ("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    // Words, not digits: a span's ids and nanosecond times are full of digit runs.
    let secret = "my locker code is quokka violet";
    let r = http
        .post(format!("{base}/v1/hosted-agents/{agent}/chat"))
        .bearer_auth(&token)
        .header("traceparent", format!("00-{trace}-{caller}-01"))
        .json(&json!({ "message": format!("Remember this: {secret}. What do you know about me?") }))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());

    // The batch processor sends within a fraction of a second; a stopping server flushes the rest.
    let mut waited = Duration::ZERO;
    let done = |all: &[Value]| {
        all.iter().any(|s| s["name"] == "chat.finish")
            && all.iter().any(|s| s["attributes"]["job.kind"] == "chat_extract")
    };
    while !done(&spans(&file)) && waited < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += Duration::from_millis(100);
    }
    assert!(terminate(&mut server).success());
    let all = spans(&file);
    let ours: Vec<&Value> = all.iter().filter(|s| s["trace_id"] == trace).collect();
    let one = |pred: &dyn Fn(&Value) -> bool, what: &str| -> Value {
        let found: Vec<&&Value> = ours.iter().filter(|s| pred(s)).collect();
        assert_eq!(found.len(), 1, "one {what} in the trace: {ours:#?}");
        (*found[0]).clone()
    };

    // The request, a server span under the caller's span, with the route, status and ids.
    let request = one(&|s| s["attributes"]["http.route"] == "/v1/hosted-agents/{id}/chat", "request");
    assert_eq!(request["name"], "POST /v1/hosted-agents/{id}/chat");
    assert_eq!(request["parent_span_id"], caller);
    assert_eq!(request["kind"], 2, "SPAN_KIND_SERVER");
    assert_eq!(request["attributes"]["http.response.status_code"], 200);
    assert_eq!(
        (request["attributes"]["tenant.id"].as_str(), request["attributes"]["agent.id"].as_str()),
        (Some(tenant.as_str()), Some(agent.as_str()))
    );
    assert_eq!(request["resource"]["service.name"], "miniclaw");

    // The turn under the request; its four stages under the turn.
    let turn = one(&|s| s["name"] == "chat.turn", "chat.turn");
    assert_eq!(turn["parent_span_id"], request["span_id"]);
    assert_eq!(turn["attributes"]["agent.id"].as_str(), Some(agent.as_str()));
    let mut stages = Vec::new();
    for stage in ["chat.triage", "chat.context", "chat.generation", "chat.finish"] {
        let s = one(&|s| s["name"] == stage, stage);
        assert_eq!(s["parent_span_id"], turn["span_id"], "{stage} under the turn");
        assert!(s["start"].as_u64() >= turn["start"].as_u64() && s["end"].as_u64() <= turn["end"].as_u64(), "{stage}");
        stages.push(s);
    }
    // Generation runs after triage and context, and finish after generation.
    assert!(stages[2]["start"].as_u64() >= stages[1]["end"].as_u64());
    assert!(stages[3]["start"].as_u64() >= stages[2]["end"].as_u64());

    // The reply's model calls (one, or two when tools were offered first), client spans under
    // generation, with provider, model, tokens and cost; triage's call under triage.
    let calls: Vec<&&Value> = ours
        .iter()
        .filter(|s| s["attributes"]["gen_ai.operation.name"] == "chat" && s["parent_span_id"] == stages[2]["span_id"])
        .collect();
    assert!(!calls.is_empty(), "a model call under generation: {ours:#?}");
    for call in calls {
        let a = &call["attributes"];
        assert_eq!(call["kind"], 3, "SPAN_KIND_CLIENT");
        assert_eq!(call["name"], format!("chat {}", a["gen_ai.request.model"].as_str().unwrap()));
        assert_eq!((a["gen_ai.system"].as_str(), a["miniclaw.role"].as_str()), (Some("offline"), Some("chat")), "{a}");
        assert!(a["gen_ai.usage.input_tokens"].as_i64() > Some(0) && a["gen_ai.usage.output_tokens"].is_i64(), "{a}");
        assert!(a["miniclaw.cost_usd"].is_f64() && a["tenant.id"] == tenant.as_str(), "{a}");
    }
    let triage = one(&|s| s["attributes"]["miniclaw.role"] == "triage", "triage model call");
    assert_eq!(triage["parent_span_id"], stages[0]["span_id"]);

    // The learning the turn queued ran as a job, a trace of its own, with the model call it made.
    let job = all.iter().find(|s| s["attributes"]["job.kind"] == "chat_extract").expect("the extraction job's span");
    assert_eq!(job["attributes"]["agent.id"].as_str(), Some(agent.as_str()));
    assert_eq!(job["name"], "job chat_extract");

    // Ids, never what was said or a secret.
    let dump = serde_json::to_string(&all).unwrap();
    assert!(!dump.contains("quokka") && !dump.contains("locker"), "message text in a span");
    assert!(!dump.contains(&token), "a session token in a span");
}

#[test]
fn an_endpoint_that_is_not_plain_http_is_refused_at_start() {
    let out = miniclaw(&["serve"], &[("OTEL_EXPORTER_OTLP_ENDPOINT", "grpc://collector:4317")]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("OTEL_EXPORTER_OTLP_ENDPOINT"), "{out:?}");
}
