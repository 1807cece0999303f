//! The `webhook_deliver` job: one attempt at one delivery. The body is
//! `{"type", "timestamp", "agent_id", "data"}`; the headers are Standard Webhooks' (`webhook-id`
//! `msg_…`, the same on every attempt; `webhook-timestamp`, Unix seconds of this attempt;
//! `webhook-signature`, `v1,<base64 HMAC-SHA256>` with the current secret, and with the
//! previous one beside it for a day after a rotation). A 2xx within `TIMEOUT` delivers it;
//! anything else is recorded on the delivery and the queue retries (5 s doubling, capped at
//! an hour, `MAX_ATTEMPTS` in all: about a day). The address is checked against the SSRF rules
//! at every attempt (a name may move) and the connection pinned to the checked address.

use std::time::{Duration, Instant};
use tracing::Instrument as _;

use chrono::Utc;
use serde_json::{Value, json};
use sqlx::PgConnection;
use uuid::Uuid;

use miniclaw_core::ids::AgentId;
use miniclaw_platform::email::svix;
use miniclaw_platform::jobs::queue::{self, NewJob};
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};

pub const KIND: &str = "webhook_deliver";
/// With the queue's backoff (5 s doubling, capped at an hour): about 24 hours of attempts.
pub const MAX_ATTEMPTS: i32 = 33;
/// How long a receiver has to answer.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// How long a receiver has to accept the connection.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// Failed attempts in a row after which the endpoint's breaker opens: no connection is tried
/// for a minute, doubling with each further failure up to an hour.
pub const BREAKER_AFTER: i32 = 3;
/// Attempts kept on a delivery.
const LOG_KEPT: usize = 10;
/// How much of a failed answer's body is kept.
const ERROR_CHARS: usize = 300;

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            KIND,
            CycleScope::Platform,
            "Sends one webhook delivery (queued with the event that caused it).",
            run,
        )
        .max_attempts(MAX_ATTEMPTS)
        .outbound(),
        Cycle::new(
            "webhook_retention",
            CycleScope::Platform,
            "Deletes webhook deliveries older than 30 days.",
            |ctx: JobContext| async move {
                let deleted = super::purge_old(&ctx.pool).await?;
                Ok(json!({ "deleted": deleted }))
            },
        )
        .every(Duration::from_secs(24 * 3600)),
    ]
}

/// Queues an attempt at `delivery` to `endpoint` of `tenant` (in the caller's transaction); one
/// endpoint's deliveries run one at a time (`fair_key`), none while the tenant is suspended.
pub async fn enqueue(
    conn: &mut PgConnection,
    delivery: Uuid,
    (endpoint, tenant): (Uuid, miniclaw_core::ids::TenantId),
    key: &str,
) -> sqlx::Result<()> {
    let job = NewJob::new(KIND)
        .payload(json!({ "delivery": delivery, "fair_key": endpoint.to_string(), "tenant": tenant }))
        .idempotency_key(key)
        .max_attempts(MAX_ATTEMPTS);
    queue::enqueue_in(conn, job).await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct Target {
    endpoint_id: Uuid,
    agent_id: Option<Uuid>,
    event: String,
    data: Value,
    status: String,
    log: Value,
    created_at: chrono::DateTime<Utc>,
    url: String,
    enabled: bool,
    sealed_secret: Vec<u8>,
    sealed_previous: Option<Vec<u8>>,
    previous_valid: bool,
    /// Until when the endpoint's breaker is open (no connection tried).
    breaker_open_until: Option<chrono::DateTime<Utc>>,
}

/// The value of `webhook-id` for a delivery.
pub fn message_id(delivery: Uuid) -> String {
    format!("msg_{}", delivery.simple())
}

async fn run(ctx: JobContext) -> anyhow::Result<Value> {
    let deps = ctx.deps()?;
    let pool = &ctx.pool;
    let id: Uuid = serde_json::from_value(ctx.job.payload["delivery"].clone())?;
    let target: Option<Target> = sqlx::query_as(
        "SELECT d.endpoint_id, d.agent_id, d.event, d.data, d.status, d.log, d.created_at, e.url, e.enabled,
                e.sealed_secret, e.sealed_previous, coalesce(e.previous_until > now(), false) AS previous_valid,
                CASE WHEN e.breaker_open_until > now() THEN e.breaker_open_until END AS breaker_open_until
           FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    let Some(t) = target else { return Ok(json!({ "skipped": "the endpoint or the delivery was removed" })) };
    if t.status != "pending" {
        return Ok(json!({ "skipped": format!("the delivery is {}", t.status) }));
    }
    if !t.enabled {
        attempt_failed(pool, id, &t, None, "the endpoint is disabled", 0, true).await?;
        return Ok(json!({ "failed": "the endpoint is disabled" }));
    }
    let last = ctx.job.attempts >= ctx.job.max_attempts;
    if let Some(until) = t.breaker_open_until {
        // The receiver failed the last attempts in a row: no connection until the breaker
        // closes; the queue's backoff brings the delivery back.
        let error = format!("not tried: the endpoint's last attempts failed; the next is tried after {until}");
        attempt_failed(pool, id, &t, None, &error, 0, last).await?;
        anyhow::ensure!(last, "{error}");
        return Ok(json!({ "failed": error }));
    }
    let vault_name = super::vault_name(t.endpoint_id);
    let mut keys = vec![deps.vault.open(&vault_name, &t.sealed_secret)?.plain];
    if let (true, Some(previous)) = (t.previous_valid, &t.sealed_previous) {
        keys.push(deps.vault.open(&vault_name, previous)?.plain);
    }
    let body = json!({
        "type": t.event,
        "timestamp": t.created_at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        "agent_id": t.agent_id,
        "data": t.data,
    })
    .to_string();
    let msg_id = message_id(id);
    let timestamp = Utc::now().timestamp();
    let signature = keys
        .iter()
        .filter_map(|k| std::str::from_utf8(k).ok().and_then(svix::key_of))
        .map(|k| svix::sign(&k, &msg_id, timestamp, body.as_bytes()))
        .collect::<Vec<_>>()
        .join(" ");
    let started = Instant::now();
    let outcome = send(deps, &t.url, &msg_id, timestamp, &signature, body).await;
    let ms = started.elapsed().as_millis() as i64;
    match outcome {
        Ok(status) if (200..300).contains(&status) => {
            let entry = json!({ "at": Utc::now(), "status": status, "ms": ms });
            let mut tx = pool.begin().await?;
            sqlx::query(
                "UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = now(), log = $2
                  WHERE id = $1",
            )
            .bind(id)
            .bind(appended(&t.log, entry))
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE webhook_endpoints SET failing_since = NULL, consecutive_failures = 0, breaker_open_until = NULL
                  WHERE id = $1 AND (failing_since IS NOT NULL OR consecutive_failures > 0)",
            )
            .bind(t.endpoint_id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(json!({ "delivered": status, "ms": ms }))
        }
        Ok(status) => {
            attempt_failed(pool, id, &t, Some(status), &format!("the receiver answered {status}"), ms, last).await?;
            breaker_failure(pool, t.endpoint_id).await?;
            anyhow::ensure!(last, "the receiver answered {status}");
            Ok(json!({ "failed": status }))
        }
        Err(error) => {
            attempt_failed(pool, id, &t, None, &error, ms, last).await?;
            breaker_failure(pool, t.endpoint_id).await?;
            anyhow::ensure!(last, "{error}");
            Ok(json!({ "failed": error }))
        }
    }
}

/// POSTs the delivery to the checked address; the answer's status, or why there was none.
async fn send(
    deps: &miniclaw_platform::deps::Deps,
    url: &str,
    msg_id: &str,
    timestamp: i64,
    signature: &str,
    body: String,
) -> Result<u16, String> {
    let parsed: reqwest::Url = url.parse().map_err(|e| format!("not a valid URL: {e}"))?;
    let addr = miniclaw_platform::addresses::vet(&parsed, &deps.url_allowlist).await.map_err(|e| e.to_string())?;
    let host = parsed.host_str().unwrap_or_default().trim_start_matches('[').trim_end_matches(']').to_string();
    let client = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TIMEOUT)
        .connect_timeout(CONNECT_TIMEOUT)
        .resolve(&host, addr)
        .user_agent(concat!("miniclaw-webhooks/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| e.to_string())?;
    let span = tracing::info_span!(
        "webhook.deliver",
        otel.kind = "client",
        server.address = %host,
        webhook.id = %msg_id,
        http.response.status_code = tracing::field::Empty,
    );
    let response = client
        .post(parsed)
        .header("content-type", "application/json")
        .header("webhook-id", msg_id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .body(body)
        .send()
        .instrument(span.clone())
        .await
        .map_err(
            |e| if e.is_timeout() { format!("no answer within {} s", TIMEOUT.as_secs()) } else { e.to_string() },
        )?;
    span.record("http.response.status_code", i64::from(response.status().as_u16()));
    Ok(response.status().as_u16())
}

/// Counts a failed attempt on the endpoint's breaker: from `BREAKER_AFTER` in a row it opens
/// for a minute, doubling with each further failure up to an hour.
async fn breaker_failure(pool: &sqlx::PgPool, endpoint: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1,
                breaker_open_until = CASE WHEN consecutive_failures + 1 >= $2
                    THEN now() + least(interval '1 hour', interval '1 minute' * power(2, least(consecutive_failures + 1 - $2, 6)))
                    ELSE breaker_open_until END
          WHERE id = $1",
    )
    .bind(endpoint)
    .bind(BREAKER_AFTER)
    .execute(pool)
    .await?;
    Ok(())
}

fn appended(log: &Value, entry: Value) -> Value {
    let mut entries = log.as_array().cloned().unwrap_or_default();
    entries.push(entry);
    let skip = entries.len().saturating_sub(LOG_KEPT);
    Value::Array(entries.into_iter().skip(skip).collect())
}

/// Records a failed attempt; the endpoint's failure clock starts (or goes on), and an endpoint
/// failing for `DISABLE_AFTER_DAYS` is disabled, its owner told once.
async fn attempt_failed(
    pool: &sqlx::PgPool,
    id: Uuid,
    t: &Target,
    status: Option<u16>,
    error: &str,
    ms: i64,
    last: bool,
) -> anyhow::Result<()> {
    let error: String = error.chars().take(ERROR_CHARS).collect();
    let entry = json!({ "at": Utc::now(), "status": status, "error": error, "ms": ms });
    let mut tx = pool.begin().await?;
    sqlx::query(
        "UPDATE webhook_deliveries SET attempts = attempts + 1, log = $2,
                status = CASE WHEN $3 THEN 'failed' ELSE status END WHERE id = $1",
    )
    .bind(id)
    .bind(appended(&t.log, entry))
    .bind(last)
    .execute(&mut *tx)
    .await?;
    let disabled: Option<(bool, Option<Uuid>, Uuid, String)> = sqlx::query_as(
        "WITH before AS (SELECT enabled, failing_since FROM webhook_endpoints WHERE id = $1 FOR UPDATE)
         UPDATE webhook_endpoints e SET failing_since = coalesce(e.failing_since, now()),
                enabled = e.enabled AND NOT coalesce(e.failing_since < now() - make_interval(days => $2), false),
                disabled_reason = CASE WHEN e.failing_since < now() - make_interval(days => $2)
                                       THEN 'no delivery succeeded for ' || $2 || ' days' ELSE e.disabled_reason END,
                updated_at = now()
           FROM before b
          WHERE e.id = $1
         RETURNING b.enabled AND NOT e.enabled, e.agent_id, e.tenant_id, e.url",
    )
    .bind(t.endpoint_id)
    .bind(super::DISABLE_AFTER_DAYS as i32)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((true, agent, tenant, url)) = disabled {
        let origin = miniclaw_platform::activity::Origin::new(miniclaw_core::actor::Actor::Job(KIND.into()), None);
        let details = json!({ "endpoint_id": t.endpoint_id, "url": url, "days": super::DISABLE_AFTER_DAYS });
        let tenant = miniclaw_core::ids::TenantId(tenant);
        match agent.map(AgentId) {
            Some(agent) => {
                miniclaw_platform::activity::record_agent(&mut tx, tenant, agent, &origin, "webhook.disabled", details)
                    .await?;
                let body = format!(
                    "No delivery to {url} succeeded for {} days, so it was disabled. Deliveries are kept: turn the \
                     endpoint back on and replay them once the receiver answers.",
                    super::DISABLE_AFTER_DAYS
                );
                let kind = crate::channels::notifications::Kind::WebhookDisabled;
                let key = format!("webhook_disabled:{}:{}", t.endpoint_id, Utc::now().format("%Y-%m-%d"));
                crate::channels::notifications::notify(
                    &mut tx,
                    agent,
                    kind,
                    "A webhook endpoint was disabled",
                    &body,
                    Some(&key),
                )
                .await?;
            }
            None => {
                miniclaw_platform::activity::record_tenant(&mut tx, tenant, None, &origin, "webhook.disabled", details)
                    .await?;
            }
        }
    }
    tx.commit().await?;
    Ok(())
}
