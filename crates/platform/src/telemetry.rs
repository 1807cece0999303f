//! Logs, traces and metrics. Log field names follow docs/API-DESIGN.md (`request_id`,
//! `agent.id`, `duration_ms`, ...). Metrics are Prometheus text, rendered by `/metrics`.
//!
//! Traces are OpenTelemetry spans, exported over OTLP/HTTP (protobuf) when
//! `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, and not at all
//! otherwise: then no span is handed to an exporter and an inbound `traceparent` is not read.
//! The spans: each HTTP request (`request`, joined to the caller's trace by W3C trace context),
//! each chat turn (`chat.turn`) with its stages (`chat.triage`, `chat.context`,
//! `chat.generation`, `chat.finish`), each model call (`llm.call`: provider, model, tokens,
//! cost), each job (`job`) and each outbound delivery (`webhook.deliver`, `email.send`). They
//! carry ids (tenant, agent, conversation, job), never message text or secrets.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, Layer};

use crate::config::LogFormat;

static PROVIDER: OnceLock<SdkTracerProvider> = OnceLock::new();
static EXPORTING: AtomicBool = AtomicBool::new(false);

/// The OTLP endpoint traces go to, if one is configured.
fn endpoint() -> Option<String> {
    ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"]
        .iter()
        .find_map(|k| std::env::var(k).ok().map(|v| v.trim().to_string()).filter(|v| !v.is_empty()))
}

/// Installs the global tracing subscriber (once; later calls are ignored): logs to stderr and,
/// when an OTLP endpoint is configured, spans to it. Call it outside the async runtime (the
/// exporter's HTTP client is a blocking one, on the batch processor's own thread). An endpoint
/// that is not `http://` is refused: spans go to a collector on the host or in the cluster.
pub fn init_tracing(format: LogFormat) -> Result<(), String> {
    const DEFAULT: &str = "miniclaw=info,tower_http=warn,sqlx=warn";
    let fmt = || tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let Some(url) = endpoint() else {
        // No exporter: the one global filter, as ever.
        let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT));
        let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
        let _ = match format {
            LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
            LogFormat::Text => builder.compact().try_init(),
        };
        return Ok(());
    };
    if !url.starts_with("http://") {
        return Err(format!(
            "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// URL of a collector (OTLP/HTTP, protobuf); got `{url}`"
        ));
    }
    // Beside another layer, the logs are filtered by target and level (`RUST_LOG` as
    // `target=level` directives): an `EnvFilter` there would hide spans from the exporter.
    let wanted = std::env::var("RUST_LOG").unwrap_or_else(|_| DEFAULT.into());
    let levels: Targets = wanted
        .parse()
        .map_err(|e| format!("RUST_LOG must be `target=level` directives when traces are exported: {e}"))?;
    let logs: Box<dyn Layer<_> + Send + Sync> = match format {
        LogFormat::Json => fmt().json().flatten_event(true).with_current_span(true).with_filter(levels).boxed(),
        LogFormat::Text => fmt().compact().with_filter(levels).boxed(),
    };
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_protocol(opentelemetry_otlp::Protocol::HttpBinary)
        .build()
        .map_err(|e| format!("the OTLP exporter could not be built: {e}"))?;
    let service = std::env::var("OTEL_SERVICE_NAME").unwrap_or_else(|_| "miniclaw".into());
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(opentelemetry_sdk::Resource::builder().with_service_name(service).build())
        .build();
    let tracer = provider.tracer("miniclaw");
    let _ = PROVIDER.set(provider);
    EXPORTING.store(true, Ordering::Relaxed);
    // Only the platform's own spans (and events at info and above inside them), no library
    // internals.
    let ours = Targets::new().with_target("miniclaw", tracing::Level::INFO);
    let traces = tracing_opentelemetry::layer().with_tracer(tracer).with_filter(ours);
    let _ = tracing_subscriber::registry().with(logs).with(traces).try_init();
    Ok(())
}

/// Whether spans are exported (an OTLP endpoint is configured).
pub fn exporting() -> bool {
    EXPORTING.load(Ordering::Relaxed)
}

/// Makes `span` a child of the caller's span named by W3C trace context (`traceparent`, and
/// `tracestate`), when spans are exported; a malformed header is ignored (a new trace starts).
pub fn adopt_remote_parent(span: &tracing::Span, traceparent: Option<&str>, tracestate: Option<&str>) {
    let (true, Some(parent)) = (exporting(), traceparent) else { return };
    let mut carrier = std::collections::HashMap::new();
    carrier.insert("traceparent".to_string(), parent.to_string());
    if let Some(state) = tracestate {
        carrier.insert("tracestate".to_string(), state.to_string());
    }
    let cx = TraceContextPropagator::new().extract(&carrier);
    let _ = span.set_parent(cx);
}

/// Names `span` anew once what names it is known (a request's route, a model call's model),
/// when spans are exported.
pub fn rename(span: &tracing::Span, name: String) {
    if exporting() {
        use opentelemetry::trace::TraceContextExt as _;
        span.context().span().update_name(name);
    }
}

/// Sends the spans still buffered (at the end of the process).
pub fn shutdown_tracing() {
    if let Some(p) = PROVIDER.get()
        && let Err(e) = p.shutdown()
    {
        eprintln!("miniclaw: spans could not all be exported: {e}");
    }
}

/// The process-wide Prometheus recorder. Metrics are per process, so every app in one
/// process (as in tests) shares it.
pub fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let latency = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
            let lag = [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0];
            let model = [0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0];
            let batch = [1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0];
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full("http_request_duration_seconds".into()), &latency)
                .and_then(|b| b.set_buckets_for_metric(Matcher::Full("miniclaw_job_duration_seconds".into()), &latency))
                .and_then(|b| b.set_buckets_for_metric(Matcher::Full("miniclaw_job_lag_seconds".into()), &lag))
                .and_then(|b| b.set_buckets_for_metric(Matcher::Full("llm_call_duration_seconds".into()), &model))
                .and_then(|b| b.set_buckets_for_metric(Matcher::Full("chat_stage_duration_seconds".into()), &latency))
                .and_then(|b| b.set_buckets_for_metric(Matcher::Full("chat_extraction_batch_size".into()), &batch))
                .expect("static bucket lists are valid")
                .build_recorder();
            let handle = recorder.handle();
            // Another recorder may already be installed (e.g. by an embedding program); then
            // our handle still renders what we record through it directly.
            let _ = metrics::set_global_recorder(recorder);
            handle
        })
        .clone()
}
