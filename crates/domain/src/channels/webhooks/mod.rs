//! Outbound webhooks: endpoints an owner registers for one agent or the whole account (a key
//! with `webhooks:write` for its own agent), with the event types they want. An event becomes
//! one delivery per matching endpoint in the same transaction as the change that caused it
//! (`emit`, or `ctes` spliced into the change's own statement), and a `webhook_deliver` job
//! sends it (`deliver`): signed as Standard Webhooks / Svix sign (`webhook-id`,
//! `webhook-timestamp`, `webhook-signature` with the endpoint's `whsec_` secret), retried with
//! the queue's backoff for about a day, its attempts kept on the delivery. The `webhook-id` is
//! the delivery's and stays the same across retries and replays: receivers deduplicate on it.
//! An endpoint failing for `DISABLE_AFTER_DAYS` days is disabled and its owner notified.
//! Payloads carry ids and small facts, never message text or secrets.

pub mod deliver;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;

/// Every event type an endpoint can ask for, with what it means.
pub const EVENTS: &[(&str, &str)] = &[
    (
        "reply.completed",
        "A reply of the agent is complete: conversation_id, message_id, user_message_id, channel, finish_reason, engine",
    ),
    ("reply.failed", "A reply failed: conversation_id, message_id, code"),
    (
        "memory.created",
        "A memory was stored: memory_id, category, source, end_user (whose it is; null: the agent's own)",
    ),
    ("memory.updated", "A memory was edited, merged, pinned, restored or changed status: memory_id, change"),
    ("memory.replaced", "A memory was marked no longer true (a newer value replaced it): memory_id"),
    ("memory.forgotten", "A memory was deleted: memory_id"),
    ("task.created", "A task was created or proposed: task_id, status, source"),
    ("task.updated", "A task changed (moved, edited, done): task_id, status"),
    ("outreach.sent", "An outreach email went out: notification_id"),
    ("outreach.reply", "A reply to outreach arrived: notification_id"),
    ("outreach.escalation", "A reply needs the owner: notification_id"),
    ("proactive.check_in", "The agent checked in or suggested something on its own: notification_id"),
    ("proactive.reminder", "An urgent reminder: notification_id"),
    (
        "order.updated",
        "An order of or to the agent took a step (offered, accepted, delivered, settled, disputed, refunded, an escrow state): order, from, to, action",
    ),
    ("payment.made", "A paid call was paid in credits, to or by the agent: transfer, amount, service, to_agent"),
    ("identity.registered", "The agent is registered on chain: erc8004_id, tx_hash"),
    ("identity.updated", "The agent's on-chain URI was refreshed: agent_uri, tx_hash"),
    ("identity.failed", "The on-chain registration failed: notification_id"),
    ("budget.exhausted", "The agent's daily token budget is used up: notification_id"),
    ("email.failed", "An email could not be sent: notification_id"),
    ("webhook.test", "Sent by POST /v1/webhooks/{endpoint}/test"),
];

/// Endpoints an account may have.
pub const MAX_ENDPOINTS: i64 = 20;
/// How long a rotated-out secret still signs (beside the new one).
pub const PREVIOUS_SECRET_HOURS: i64 = 24;
/// An endpoint failing without a success for this long is disabled.
pub const DISABLE_AFTER_DAYS: i64 = 3;
const URL_MAX: usize = 2000;
const DESCRIPTION_MAX: usize = 200;

/// A registered endpoint (its secret is shown once, when created or rotated).
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct Endpoint {
    pub id: Uuid,
    /// The agent whose events it receives; `null`: every agent of the account.
    pub agent_id: Option<Uuid>,
    pub url: String,
    pub description: String,
    /// Event types (`EVENTS`), or `*` for all.
    pub events: Vec<String>,
    pub enabled: bool,
    /// Why it was disabled, when it was by the platform.
    pub disabled_reason: Option<String>,
    /// Failing since (no delivery succeeded after it).
    pub failing_since: Option<DateTime<Utc>>,
    /// Until when the previous secret also signs (after a rotation).
    pub previous_secret_until: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// An endpoint with its signing secret: the only time the secret is shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EndpointWithSecret {
    #[serde(flatten)]
    pub endpoint: Endpoint,
    /// `whsec_…`: verify deliveries with it (any Standard Webhooks or Svix library).
    pub secret: String,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EndpointInput {
    /// Where deliveries are POSTed: http or https, a public address unless the operator allows
    /// it (`MINICLAW_URL_ALLOWLIST`).
    pub url: String,
    /// Event types, or `["*"]` for all.
    pub events: Vec<String>,
    /// One agent's events; omitted: every agent of the account (owner only). A key's endpoint
    /// is always its own agent's.
    pub agent_id: Option<Uuid>,
    pub description: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EndpointPatch {
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    pub description: Option<String>,
    /// true turns a disabled endpoint back on (its failure clock starts again).
    pub enabled: Option<bool>,
}

/// One delivery of an event to an endpoint, with its last attempts.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct Delivery {
    /// Sent as `webhook-id` (`msg_` and this id without dashes), the same on every retry.
    pub id: Uuid,
    pub endpoint_id: Uuid,
    pub agent_id: Option<Uuid>,
    pub event: String,
    #[schema(value_type = Object)]
    pub data: Value,
    /// `pending`, `delivered` or `failed` (every attempt failed, or the endpoint is disabled).
    pub status: String,
    pub attempts: i32,
    /// The last attempts, oldest first: `{at, status, error, ms}`.
    #[schema(value_type = Vec<Object>)]
    pub log: Value,
    pub delivered_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// Who manages endpoints: an owner (every endpoint of the account) or a key (its agent's).
#[derive(Debug, Clone)]
pub struct Manager {
    pub tenant_id: TenantId,
    /// A key's agent: it sees and makes only that agent's endpoints.
    pub key_agent: Option<AgentId>,
    pub origin: Origin,
}

fn vault_name(endpoint: Uuid) -> String {
    format!("webhook_secret:{endpoint}")
}

fn new_secret() -> String {
    use base64::Engine;
    use rand::RngCore;
    let mut key = [0u8; 24];
    rand::rng().fill_bytes(&mut key);
    format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(key))
}

fn check_events(events: &[String]) -> Result<Vec<String>, Error> {
    if events.is_empty() {
        return Err(Error::validation("events", "name at least one event type, or `*`"));
    }
    let mut out: Vec<String> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let e = e.trim();
        if e != "*" && !EVENTS.iter().any(|(name, _)| *name == e) {
            return Err(Error::validation(
                &format!("events[{i}]"),
                format!("unknown event type `{e}` (GET /v1/webhooks/events lists them)"),
            ));
        }
        if !out.iter().any(|o| o == e) {
            out.push(e.to_string());
        }
    }
    Ok(out)
}

async fn check_url(deps: &Deps, url: &str) -> Result<String, Error> {
    let url = url.trim();
    Error::check_length("url", url, URL_MAX)?;
    let parsed: reqwest::Url = url.parse().map_err(|e| Error::validation("url", format!("not a valid URL: {e}")))?;
    miniclaw_platform::addresses::vet(&parsed, &deps.url_allowlist).await?;
    Ok(url.to_string())
}

const COLUMNS: &str = "id, agent_id, url, description, events, enabled, disabled_reason, failing_since,
    CASE WHEN previous_until > now() THEN previous_until END AS previous_secret_until, created_at";

const DELIVERY_COLUMNS: &str =
    "id, endpoint_id, agent_id, event, data, status, attempts, log, delivered_at, created_at";

/// Registers an endpoint; its secret is in the answer, and only there.
pub async fn create(deps: &Deps, who: &Manager, input: EndpointInput) -> Result<EndpointWithSecret, Error> {
    let agent = match (who.key_agent, input.agent_id) {
        (Some(own), None) => Some(own),
        (Some(own), Some(other)) if other == own.0 => Some(own),
        (Some(_), Some(_)) => return Err(Error::not_found("agent")),
        (None, Some(id)) => {
            if crate::tenancy::agents::get(&deps.pool, who.tenant_id, AgentId(id)).await?.is_none() {
                return Err(Error::not_found("agent"));
            }
            Some(AgentId(id))
        }
        (None, None) => None,
    };
    let events = check_events(&input.events)?;
    let description = input.description.unwrap_or_default().trim().to_string();
    Error::check_length("description", &description, DESCRIPTION_MAX)?;
    let url = check_url(deps, &input.url).await?;
    let id = Uuid::now_v7();
    let secret = new_secret();
    let sealed = deps.vault.seal(&vault_name(id), secret.as_bytes());
    let mut tx = deps.pool.begin().await?;
    // Serialises concurrent creations of one account (a lock held to the commit), so the cap
    // holds.
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('webhook_endpoints:' || $1::text))")
        .bind(who.tenant_id)
        .execute(&mut *tx)
        .await?;
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM webhook_endpoints WHERE tenant_id = $1")
        .bind(who.tenant_id)
        .fetch_one(&mut *tx)
        .await?;
    if count >= MAX_ENDPOINTS {
        return Err(Error::Conflict(format!("an account has at most {MAX_ENDPOINTS} webhook endpoints")));
    }
    let endpoint: Endpoint = sqlx::query_as(&format!(
        "INSERT INTO webhook_endpoints (id, tenant_id, agent_id, url, description, events, sealed_secret, created_by_type, created_by_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING {COLUMNS}"
    ))
    .bind(id)
    .bind(who.tenant_id)
    .bind(agent)
    .bind(&url)
    .bind(&description)
    .bind(&events)
    .bind(sealed)
    .bind(who.origin.actor.kind())
    .bind(who.origin.actor.id())
    .fetch_one(&mut *tx)
    .await?;
    record(&mut tx, who, agent, "webhook.created", json!({ "endpoint_id": id, "url": url, "events": events })).await?;
    tx.commit().await?;
    Ok(EndpointWithSecret { endpoint, secret })
}

/// The activity entry of an endpoint change: on its agent's log, or the account's.
async fn record(
    conn: &mut PgConnection,
    who: &Manager,
    agent: Option<AgentId>,
    action: &str,
    details: Value,
) -> sqlx::Result<()> {
    match agent {
        Some(a) => activity::record_agent(conn, who.tenant_id, a, &who.origin, action, details).await,
        None => activity::record_tenant(conn, who.tenant_id, None, &who.origin, action, details).await,
    }
}

/// The endpoints the manager sees, newest first.
pub async fn list(pool: &PgPool, who: &Manager, limit: i64, before: Option<Uuid>) -> Result<Vec<Endpoint>, Error> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM webhook_endpoints
          WHERE tenant_id = $1 AND ($2::uuid IS NULL OR agent_id = $2) AND ($3::uuid IS NULL OR id < $3)
          ORDER BY id DESC LIMIT $4"
    ))
    .bind(who.tenant_id)
    .bind(who.key_agent)
    .bind(before)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// The endpoints that receive agent `agent`'s events: its own and the account's, newest first.
pub async fn for_agent(pool: &PgPool, tenant: TenantId, agent: AgentId) -> Result<Vec<Endpoint>, Error> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM webhook_endpoints
          WHERE tenant_id = $1 AND (agent_id = $2 OR agent_id IS NULL) ORDER BY id DESC LIMIT $3"
    ))
    .bind(tenant)
    .bind(agent)
    .bind(MAX_ENDPOINTS)
    .fetch_all(pool)
    .await?)
}

/// One endpoint the manager sees; 404 otherwise.
pub async fn get(pool: &PgPool, who: &Manager, id: Uuid) -> Result<Endpoint, Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM webhook_endpoints WHERE id = $1 AND tenant_id = $2 AND ($3::uuid IS NULL OR agent_id = $3)"
    ))
    .bind(id)
    .bind(who.tenant_id)
    .bind(who.key_agent)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("webhook endpoint"))
}

/// Changes an endpoint's URL, events, description or state.
pub async fn update(deps: &Deps, who: &Manager, id: Uuid, patch: EndpointPatch) -> Result<Endpoint, Error> {
    let current = get(&deps.pool, who, id).await?;
    let events = patch.events.as_deref().map(check_events).transpose()?;
    let description = patch.description.map(|d| d.trim().to_string());
    if let Some(d) = &description {
        Error::check_length("description", d, DESCRIPTION_MAX)?;
    }
    let url = match &patch.url {
        Some(u) => Some(check_url(deps, u).await?),
        None => None,
    };
    let mut tx = deps.pool.begin().await?;
    let endpoint: Endpoint = sqlx::query_as(&format!(
        "UPDATE webhook_endpoints SET url = coalesce($2, url), events = coalesce($3, events),
                description = coalesce($4, description), enabled = coalesce($5, enabled),
                disabled_reason = CASE WHEN $5 THEN NULL ELSE disabled_reason END,
                failing_since = CASE WHEN $5 THEN NULL ELSE failing_since END, updated_at = now()
          WHERE id = $1 RETURNING {COLUMNS}"
    ))
    .bind(id)
    .bind(&url)
    .bind(&events)
    .bind(&description)
    .bind(patch.enabled)
    .fetch_one(&mut *tx)
    .await?;
    let details = json!({ "endpoint_id": id, "url": url, "events": events, "enabled": patch.enabled });
    record(&mut tx, who, current.agent_id.map(AgentId), "webhook.updated", details).await?;
    tx.commit().await?;
    Ok(endpoint)
}

/// Removes an endpoint with its deliveries.
pub async fn remove(pool: &PgPool, who: &Manager, id: Uuid) -> Result<(), Error> {
    let current = get(pool, who, id).await?;
    let mut tx = pool.begin().await?;
    sqlx::query("DELETE FROM webhook_endpoints WHERE id = $1").bind(id).execute(&mut *tx).await?;
    record(&mut tx, who, current.agent_id.map(AgentId), "webhook.removed", json!({ "endpoint_id": id })).await?;
    tx.commit().await?;
    Ok(())
}

/// A new secret; the previous one goes on signing beside it for `PREVIOUS_SECRET_HOURS`, so
/// receivers can switch without losing a delivery.
pub async fn rotate(deps: &Deps, who: &Manager, id: Uuid) -> Result<EndpointWithSecret, Error> {
    let current = get(&deps.pool, who, id).await?;
    let secret = new_secret();
    let sealed = deps.vault.seal(&vault_name(id), secret.as_bytes());
    let mut tx = deps.pool.begin().await?;
    let endpoint: Endpoint = sqlx::query_as(&format!(
        "UPDATE webhook_endpoints SET sealed_previous = sealed_secret, sealed_secret = $2,
                previous_until = now() + make_interval(hours => $3), updated_at = now()
          WHERE id = $1 RETURNING {COLUMNS}"
    ))
    .bind(id)
    .bind(sealed)
    .bind(PREVIOUS_SECRET_HOURS as i32)
    .fetch_one(&mut *tx)
    .await?;
    record(&mut tx, who, current.agent_id.map(AgentId), "webhook.secret_rotated", json!({ "endpoint_id": id })).await?;
    tx.commit().await?;
    Ok(EndpointWithSecret { endpoint, secret })
}

/// An endpoint's deliveries, newest first.
pub async fn deliveries(
    pool: &PgPool,
    who: &Manager,
    endpoint: Uuid,
    limit: i64,
    before: Option<Uuid>,
) -> Result<Vec<Delivery>, Error> {
    get(pool, who, endpoint).await?;
    Ok(sqlx::query_as(&format!(
        "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries
          WHERE endpoint_id = $1 AND ($2::uuid IS NULL OR id < $2) ORDER BY id DESC LIMIT $3"
    ))
    .bind(endpoint)
    .bind(before)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// Sends a delivery again (with the same `webhook-id`): after the receiver lost it, or once a
/// disabled endpoint is back. 409 while it is still being tried.
pub async fn replay(pool: &PgPool, who: &Manager, endpoint: Uuid, delivery: Uuid) -> Result<Delivery, Error> {
    get(pool, who, endpoint).await?;
    let mut tx = pool.begin().await?;
    manual_send(&mut tx, endpoint).await?;
    let status: Option<(String, i32)> =
        sqlx::query_as("SELECT status, attempts FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2 FOR UPDATE")
            .bind(delivery)
            .bind(endpoint)
            .fetch_optional(&mut *tx)
            .await?;
    let Some((status, attempts)) = status else { return Err(Error::not_found("delivery")) };
    if status == "pending" {
        return Err(Error::Conflict("the delivery is still being tried".into()));
    }
    sqlx::query("UPDATE webhook_deliveries SET status = 'pending' WHERE id = $1")
        .bind(delivery)
        .execute(&mut *tx)
        .await?;
    deliver::enqueue(&mut tx, delivery, (endpoint, who.tenant_id), &format!("webhook:{delivery}:replay:{attempts}"))
        .await?;
    tx.commit().await?;
    Ok(sqlx::query_as(&format!("SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1"))
        .bind(delivery)
        .fetch_one(pool)
        .await?)
}

/// Manual sends (`test`, `replay`) an endpoint may have per minute.
pub const MANUAL_SENDS_PER_MINUTE: i32 = 5;

/// Counts a manual send of `endpoint` in its minute: 429 with the seconds to wait past
/// `MANUAL_SENDS_PER_MINUTE` (a tarpit endpoint sent to by hand cannot fill the queue).
async fn manual_send(conn: &mut PgConnection, endpoint: Uuid) -> Result<(), Error> {
    let (sends, window): (i32, DateTime<Utc>) = sqlx::query_as(
        "UPDATE webhook_endpoints
            SET manual_sends = CASE WHEN coalesce(manual_window > now() - interval '1 minute', false)
                                    THEN manual_sends + 1 ELSE 1 END,
                manual_window = CASE WHEN coalesce(manual_window > now() - interval '1 minute', false)
                                     THEN manual_window ELSE now() END
          WHERE id = $1 RETURNING manual_sends, manual_window",
    )
    .bind(endpoint)
    .fetch_one(&mut *conn)
    .await?;
    if sends > MANUAL_SENDS_PER_MINUTE {
        let reset = window + chrono::Duration::minutes(1);
        return Err(Error::Limited {
            retry_after_secs: (reset - Utc::now()).num_seconds().max(1) as u64,
            message: Some(format!(
                "an endpoint takes {MANUAL_SENDS_PER_MINUTE} test or replayed deliveries a minute; retry after {}",
                reset.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            )),
            reset_at: Some(reset),
        });
    }
    Ok(())
}

/// Sends a `webhook.test` event to this endpoint only.
pub async fn test(pool: &PgPool, who: &Manager, endpoint: Uuid) -> Result<Uuid, Error> {
    let e = get(pool, who, endpoint).await?;
    let id = Uuid::now_v7();
    let mut tx = pool.begin().await?;
    manual_send(&mut tx, endpoint).await?;
    sqlx::query("INSERT INTO webhook_deliveries (id, endpoint_id, agent_id, event, data) VALUES ($1, $2, $3, 'webhook.test', $4)")
        .bind(id)
        .bind(endpoint)
        .bind(e.agent_id)
        .bind(json!({ "endpoint_id": endpoint }))
        .execute(&mut *tx)
        .await?;
    deliver::enqueue(&mut tx, id, (endpoint, who.tenant_id), &format!("webhook:{id}")).await?;
    tx.commit().await?;
    Ok(id)
}

/// Common table expressions, for splicing into another statement's `WITH`, that make the
/// deliveries of event `event` (text) with `data` (jsonb) of agent `agent` (uuid) for every
/// enabled endpoint that wants it, when `guard` holds, and queue their jobs. The last one,
/// `{name}`, returns the jobs' `kind`s: the statement wakes the workers with them
/// (`pg_notify(queue's channel, kind)`). With no endpoint it reads one index entry or two.
pub fn ctes(name: &str, agent: &str, event: &str, data: &str, guard: &str) -> String {
    let jobs = miniclaw_platform::jobs::queue::enqueue_once_sql(&format!(
        "SELECT gen_random_uuid(), '{kind}', NULL::uuid,
                jsonb_build_object('delivery', id, 'fair_key', endpoint_id::text, 'tenant', tenant_id),
                'webhook:' || id::text, {attempts}
           FROM {name}_made",
        kind = deliver::KIND,
        attempts = deliver::MAX_ATTEMPTS,
    ));
    format!(
        "{name}_made AS (
            INSERT INTO webhook_deliveries (id, endpoint_id, agent_id, event, data)
            SELECT gen_random_uuid(), e.id, {agent}, {event}, {data}
              FROM webhook_endpoints e
             WHERE {guard} AND e.enabled
               AND (e.agent_id = {agent} OR (e.agent_id IS NULL AND e.tenant_id = {tenant}))
               AND ({event} = ANY (e.events) OR '*' = ANY (e.events))
            RETURNING id, endpoint_id, (SELECT e.tenant_id FROM webhook_endpoints e WHERE e.id = endpoint_id) AS tenant_id
         ), {name} AS (
            {jobs}
         )",
        tenant = crate::tenancy::agents::sql::tenant(agent),
    )
}

static EMIT_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH {} SELECT count(pg_notify('{}', kind)) FROM w",
        ctes("w", "$1", "$2::text", "$3::jsonb", "true"),
        miniclaw_platform::jobs::NOTIFY_CHANNEL
    )
});

/// Records event `event` of `agent` for every endpoint that wants it, in the caller's
/// transaction: the deliveries exist exactly when the change does.
pub async fn emit(conn: &mut PgConnection, agent: AgentId, event: &str, data: Value) -> sqlx::Result<()> {
    debug_assert!(EVENTS.iter().any(|(e, _)| *e == event), "unknown webhook event {event}");
    sqlx::query_scalar::<_, i64>(&EMIT_SQL).bind(agent).bind(event).bind(data).fetch_one(conn).await?;
    Ok(())
}

/// The event of a memory change (`memory_versions.change`), if it has one.
pub fn memory_event(change: &str) -> Option<&'static str> {
    match change {
        "create" => Some("memory.created"),
        "update" | "merge" | "pin" | "status" | "restore" => Some("memory.updated"),
        "invalidate" | "deprecate" => Some("memory.replaced"),
        "delete" => Some("memory.forgotten"),
        _ => None,
    }
}

/// Deletes deliveries older than 30 days.
pub async fn purge_old(pool: &PgPool) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "DELETE FROM webhook_deliveries WHERE created_at < now() - interval '30 days' AND status <> 'pending'",
    )
    .execute(pool)
    .await?
    .rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channels::notifications::Kind;

    fn listed(event: &str) -> bool {
        EVENTS.iter().any(|(e, _)| *e == event)
    }

    #[test]
    fn every_event_the_code_emits_is_in_the_catalogue() {
        let changes = ["create", "update", "merge", "deprecate", "invalidate", "status", "pin", "delete", "restore"];
        for c in changes {
            let e = memory_event(c).unwrap_or_else(|| panic!("{c} has no event"));
            assert!(listed(e), "{e}");
        }
        assert_eq!(memory_event("mention"), None, "a mention changes nothing a receiver acts on");
        let kinds = [
            Kind::OutreachReply,
            Kind::Escalation,
            Kind::BudgetExhausted,
            Kind::RegistrationFailed,
            Kind::EmailFailed,
            Kind::OutreachSent,
            Kind::CheckIn,
            Kind::Reminder,
        ];
        for k in kinds {
            assert!(listed(k.event().unwrap()), "{k:?}");
        }
        for e in [
            "reply.completed",
            "reply.failed",
            "task.created",
            "task.updated",
            "identity.registered",
            "identity.updated",
        ] {
            assert!(listed(e), "{e}");
        }
        assert_eq!(check_events(&["*".into(), "*".into()]).unwrap(), vec!["*"]);
        assert!(check_events(&["memory.eaten".into()]).is_err());
    }
}
