//! Logs and metrics. Log field names follow docs/API-DESIGN.md (`request_id`, `agent.id`,
//! `duration_ms`, ...). Metrics are Prometheus text, rendered by `/metrics`.

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Installs the global tracing subscriber (once; later calls are ignored).
pub fn init_tracing(format: LogFormat) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("miniclaw=info,tower_http=warn,sqlx=warn"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
        LogFormat::Text => builder.compact().try_init(),
    };
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
