//! Hosted agents (SPEC A2): settings, validation, and tenant-scoped storage. Every query takes
//! the tenant first; there is no way to load an agent without it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::activity::{self, Origin};
use crate::auth::signature;
use crate::error::ApiError;
use crate::jobs::{Registry, schedule};

pub const DEFAULT_DAILY_TOKEN_BUDGET: i32 = 100_000;
pub const BUDGET_RANGE: std::ops::RangeInclusive<i32> = 1_000..=100_000_000;
pub const NAME_MAX: usize = 64;
pub const PERSONA_MAX: usize = 4_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct QuietHours {
    /// `HH:MM`, in the agent's timezone.
    pub start: String,
    /// `HH:MM`; may be earlier than `start` (quiet overnight).
    pub end: String,
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Agent {
    pub id: Uuid,
    pub name: String,
    pub persona: String,
    pub emoji: String,
    /// `free` or `premium`.
    pub tier: String,
    pub premium_model: Option<String>,
    pub daily_token_budget: i32,
    pub outreach_enabled: bool,
    pub outreach_auto_reply_confidence: f32,
    /// `instant`, `digest_only` or `smart`.
    pub notification_mode: String,
    /// `conservative`, `moderate` or `eager`.
    pub proactiveness: String,
    #[schema(value_type = Option<QuietHours>)]
    pub quiet_hours: Option<sqlx::types::Json<QuietHours>>,
    /// IANA timezone, e.g. `Europe/Vienna`.
    pub timezone: String,
    pub active: bool,
    /// Owner-held wallet allowed to connect (lower-case 0x address).
    pub evm_address: Option<String>,
    /// Ed25519 public key (hex) allowed to connect.
    pub ed25519_public_key: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Ok(Some(Option::deserialize(d)?))
}

/// Settings to create an agent with, or to change (PATCH: absent fields stay as they are;
/// `null` clears a nullable one).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentInput {
    pub name: Option<String>,
    pub persona: Option<String>,
    pub emoji: Option<String>,
    pub tier: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub premium_model: Option<Option<String>>,
    pub daily_token_budget: Option<i32>,
    pub outreach_enabled: Option<bool>,
    pub outreach_auto_reply_confidence: Option<f32>,
    pub notification_mode: Option<String>,
    pub proactiveness: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<QuietHours>)]
    pub quiet_hours: Option<Option<QuietHours>>,
    pub timezone: Option<String>,
    pub active: Option<bool>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub evm_address: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub ed25519_public_key: Option<Option<String>>,
}

/// The full, validated settings of an agent.
#[derive(Debug, Clone)]
struct Settings {
    name: String,
    persona: String,
    emoji: String,
    tier: String,
    premium_model: Option<String>,
    daily_token_budget: i32,
    outreach_enabled: bool,
    outreach_auto_reply_confidence: f32,
    notification_mode: String,
    proactiveness: String,
    quiet_hours: Option<QuietHours>,
    timezone: String,
    active: bool,
    evm_address: Option<String>,
    ed25519_public_key: Option<String>,
}

impl Settings {
    fn defaults() -> Self {
        Settings {
            name: String::new(),
            persona: String::new(),
            emoji: String::new(),
            tier: "free".into(),
            premium_model: None,
            daily_token_budget: DEFAULT_DAILY_TOKEN_BUDGET,
            outreach_enabled: false,
            outreach_auto_reply_confidence: 0.8,
            notification_mode: "smart".into(),
            proactiveness: "moderate".into(),
            quiet_hours: None,
            timezone: "UTC".into(),
            active: true,
            evm_address: None,
            ed25519_public_key: None,
        }
    }

    fn of(a: &Agent) -> Self {
        Settings {
            name: a.name.clone(),
            persona: a.persona.clone(),
            emoji: a.emoji.clone(),
            tier: a.tier.clone(),
            premium_model: a.premium_model.clone(),
            daily_token_budget: a.daily_token_budget,
            outreach_enabled: a.outreach_enabled,
            outreach_auto_reply_confidence: a.outreach_auto_reply_confidence,
            notification_mode: a.notification_mode.clone(),
            proactiveness: a.proactiveness.clone(),
            quiet_hours: a.quiet_hours.as_ref().map(|q| q.0.clone()),
            timezone: a.timezone.clone(),
            active: a.active,
            evm_address: a.evm_address.clone(),
            ed25519_public_key: a.ed25519_public_key.clone(),
        }
    }

    /// Applies an input on top and validates the result.
    fn apply(mut self, i: AgentInput) -> Result<Self, ApiError> {
        if let Some(v) = i.name {
            self.name = v.trim().to_string();
        }
        if let Some(v) = i.persona {
            self.persona = v.trim().to_string();
        }
        if let Some(v) = i.emoji {
            self.emoji = v.trim().to_string();
        }
        if let Some(v) = i.tier {
            self.tier = v;
        }
        if let Some(v) = i.premium_model {
            self.premium_model = v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        }
        if let Some(v) = i.daily_token_budget {
            self.daily_token_budget = v;
        }
        if let Some(v) = i.outreach_enabled {
            self.outreach_enabled = v;
        }
        if let Some(v) = i.outreach_auto_reply_confidence {
            self.outreach_auto_reply_confidence = v;
        }
        if let Some(v) = i.notification_mode {
            self.notification_mode = v;
        }
        if let Some(v) = i.proactiveness {
            self.proactiveness = v;
        }
        if let Some(v) = i.quiet_hours {
            self.quiet_hours = v;
        }
        if let Some(v) = i.timezone {
            self.timezone = v.trim().to_string();
        }
        if let Some(v) = i.active {
            self.active = v;
        }
        if let Some(v) = i.evm_address {
            self.evm_address = match v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()) {
                None => None,
                Some(s) => Some(signature::normalize_evm_address(&s).ok_or_else(|| {
                    ApiError::validation("evm_address", "evm_address must be a 0x-prefixed 20-byte hex address")
                })?),
            };
        }
        if let Some(v) = i.ed25519_public_key {
            self.ed25519_public_key = match v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()) {
                None => None,
                Some(s) => Some(
                    signature::normalize_ed25519_key(&s).map_err(|e| ApiError::validation("ed25519_public_key", e))?,
                ),
            };
        }
        self.validate()?;
        Ok(self)
    }

    fn validate(&self) -> Result<(), ApiError> {
        let chars = self.name.chars().count();
        if chars == 0 || chars > NAME_MAX {
            return Err(ApiError::validation("name", format!("name must be 1–{NAME_MAX} characters")));
        }
        if self.persona.chars().count() > PERSONA_MAX {
            return Err(ApiError::validation("persona", format!("persona must be at most {PERSONA_MAX} characters")));
        }
        if self.emoji.chars().count() > 8 {
            return Err(ApiError::validation("emoji", "emoji must be at most 8 characters"));
        }
        if !["free", "premium"].contains(&self.tier.as_str()) {
            return Err(ApiError::validation("tier", "tier must be `free` or `premium`"));
        }
        if self.premium_model.as_ref().is_some_and(|m| m.len() > 100) {
            return Err(ApiError::validation("premium_model", "premium_model must be at most 100 characters"));
        }
        if !BUDGET_RANGE.contains(&self.daily_token_budget) {
            return Err(ApiError::validation(
                "daily_token_budget",
                format!("daily_token_budget must be between {} and {}", BUDGET_RANGE.start(), BUDGET_RANGE.end()),
            ));
        }
        if !(0.0..=1.0).contains(&self.outreach_auto_reply_confidence) {
            return Err(ApiError::validation(
                "outreach_auto_reply_confidence",
                "outreach_auto_reply_confidence must be between 0 and 1",
            ));
        }
        if !["instant", "digest_only", "smart"].contains(&self.notification_mode.as_str()) {
            return Err(ApiError::validation(
                "notification_mode",
                "notification_mode must be `instant`, `digest_only` or `smart`",
            ));
        }
        if !["conservative", "moderate", "eager"].contains(&self.proactiveness.as_str()) {
            return Err(ApiError::validation(
                "proactiveness",
                "proactiveness must be `conservative`, `moderate` or `eager`",
            ));
        }
        if let Some(q) = &self.quiet_hours
            && (!is_hh_mm(&q.start) || !is_hh_mm(&q.end))
        {
            return Err(ApiError::validation("quiet_hours", "quiet_hours start and end must be HH:MM (24-hour)"));
        }
        if self.timezone.parse::<chrono_tz::Tz>().is_err() {
            return Err(ApiError::validation(
                "timezone",
                format!("`{}` is not an IANA timezone such as Europe/Vienna", self.timezone),
            ));
        }
        Ok(())
    }
}

fn is_hh_mm(s: &str) -> bool {
    chrono::NaiveTime::parse_from_str(s, "%H:%M").is_ok() && s.len() == 5
}

pub(crate) const COLUMNS: &str = "id, name, persona, emoji, tier, premium_model, daily_token_budget, outreach_enabled,
    outreach_auto_reply_confidence, notification_mode, proactiveness, quiet_hours, timezone, active,
    evm_address, ed25519_public_key, created_at, updated_at";

/// Validates `input` (name required), stores a new agent, schedules its recurring cycles and
/// records the creation — all in the caller's transaction.
pub async fn create(
    conn: &mut PgConnection,
    registry: &Registry,
    tenant_id: Uuid,
    origin: &Origin,
    input: AgentInput,
) -> Result<Agent, ApiError> {
    if input.name.as_deref().is_none_or(|n| n.trim().is_empty()) {
        return Err(ApiError::validation("name", "name is required"));
    }
    let s = Settings::defaults().apply(input)?;
    let agent = sqlx::query_as(&format!(
        "INSERT INTO agents (id, tenant_id, name, persona, emoji, tier, premium_model, daily_token_budget,
            outreach_enabled, outreach_auto_reply_confidence, notification_mode, proactiveness, quiet_hours,
            timezone, active, evm_address, ed25519_public_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         RETURNING {COLUMNS}"
    ))
    .bind(Uuid::now_v7())
    .bind(tenant_id)
    .bind_settings(&s)
    .fetch_one(&mut *conn)
    .await?;
    let agent: Agent = agent;
    schedule::ensure_agent(conn, registry, agent.id).await?;
    let details = serde_json::json!({ "name": agent.name });
    activity::record_agent(conn, tenant_id, agent.id, origin, "agent.created", details).await?;
    Ok(agent)
}

trait BindSettings {
    fn bind_settings(self, s: &Settings) -> Self;
}

impl<'q, O> BindSettings for sqlx::query::QueryAs<'q, sqlx::Postgres, O, sqlx::postgres::PgArguments> {
    fn bind_settings(self, s: &Settings) -> Self {
        self.bind(s.name.clone())
            .bind(s.persona.clone())
            .bind(s.emoji.clone())
            .bind(s.tier.clone())
            .bind(s.premium_model.clone())
            .bind(s.daily_token_budget)
            .bind(s.outreach_enabled)
            .bind(s.outreach_auto_reply_confidence)
            .bind(s.notification_mode.clone())
            .bind(s.proactiveness.clone())
            .bind(s.quiet_hours.clone().map(sqlx::types::Json))
            .bind(s.timezone.clone())
            .bind(s.active)
            .bind(s.evm_address.clone())
            .bind(s.ed25519_public_key.clone())
    }
}

pub async fn list(pool: &PgPool, tenant_id: Uuid) -> sqlx::Result<Vec<Agent>> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agents WHERE tenant_id = $1 ORDER BY created_at DESC"))
        .bind(tenant_id)
        .fetch_all(pool)
        .await
}

pub async fn get(pool: &PgPool, tenant_id: Uuid, id: Uuid) -> sqlx::Result<Option<Agent>> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agents WHERE tenant_id = $1 AND id = $2"))
        .bind(tenant_id)
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// Applies a patch and records which settings changed; `None` if the tenant has no such agent.
pub async fn update(
    conn: &mut PgConnection,
    tenant_id: Uuid,
    id: Uuid,
    origin: &Origin,
    input: AgentInput,
) -> Result<Option<Agent>, ApiError> {
    let before: Option<Agent> =
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM agents WHERE tenant_id = $1 AND id = $2 FOR UPDATE"))
            .bind(tenant_id)
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(before) = before else { return Ok(None) };
    let s = Settings::of(&before).apply(input)?;
    let after = sqlx::query_as(&format!(
        "UPDATE agents SET name = $3, persona = $4, emoji = $5, tier = $6, premium_model = $7, daily_token_budget = $8,
            outreach_enabled = $9, outreach_auto_reply_confidence = $10, notification_mode = $11, proactiveness = $12,
            quiet_hours = $13, timezone = $14, active = $15, evm_address = $16, ed25519_public_key = $17, updated_at = now()
         WHERE tenant_id = $1 AND id = $2 RETURNING {COLUMNS}"
    ))
    .bind(tenant_id)
    .bind(id)
    .bind_settings(&s)
    .fetch_one(&mut *conn)
    .await?;
    let changed = changed_fields(&before, &after);
    if !changed.is_empty() {
        activity::record_agent(conn, tenant_id, id, origin, "agent.updated", serde_json::json!({ "fields": changed }))
            .await?;
    }
    Ok(Some(after))
}

/// Deletes the agent and everything of it (rows cascade; queue rows are removed here) and
/// records that in the tenant's log, which outlives the agent.
pub async fn delete(
    conn: &mut PgConnection,
    tenant_id: Uuid,
    id: Uuid,
    origin: &Origin,
) -> sqlx::Result<Option<Agent>> {
    let gone: Option<Agent> =
        sqlx::query_as(&format!("DELETE FROM agents WHERE tenant_id = $1 AND id = $2 RETURNING {COLUMNS}"))
            .bind(tenant_id)
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    if gone.is_some() {
        sqlx::query("DELETE FROM job_schedules WHERE agent_id = $1").bind(id).execute(&mut *conn).await?;
        sqlx::query("DELETE FROM jobs WHERE agent_id = $1 AND status IN ('queued', 'dead', 'done')")
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    if let Some(a) = &gone {
        activity::record_tenant(
            conn,
            tenant_id,
            Some(id),
            origin,
            "agent.deleted",
            serde_json::json!({ "name": a.name }),
        )
        .await?;
    }
    Ok(gone)
}

/// Names of the settings that differ, for the activity log.
fn changed_fields(before: &Agent, after: &Agent) -> Vec<&'static str> {
    let (b, a) = (serde_json::to_value(before).unwrap_or_default(), serde_json::to_value(after).unwrap_or_default());
    const FIELDS: [&str; 15] = [
        "name",
        "persona",
        "emoji",
        "tier",
        "premium_model",
        "daily_token_budget",
        "outreach_enabled",
        "outreach_auto_reply_confidence",
        "notification_mode",
        "proactiveness",
        "quiet_hours",
        "timezone",
        "active",
        "evm_address",
        "ed25519_public_key",
    ];
    FIELDS.into_iter().filter(|f| b.get(f) != a.get(f)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(v: serde_json::Value) -> AgentInput {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn defaults_follow_the_spec() {
        let s = Settings::defaults().apply(input(serde_json::json!({ "name": "Ada" }))).unwrap();
        assert_eq!(s.daily_token_budget, 100_000);
        assert_eq!(s.tier, "free");
        assert_eq!(s.notification_mode, "smart");
    }

    #[test]
    fn each_invalid_setting_names_its_field() {
        let cases = [
            serde_json::json!({ "name": "" }),
            serde_json::json!({ "name": "x".repeat(65) }),
            serde_json::json!({ "tier": "gold" }),
            serde_json::json!({ "daily_token_budget": 10 }),
            serde_json::json!({ "outreach_auto_reply_confidence": 1.5 }),
            serde_json::json!({ "notification_mode": "loud" }),
            serde_json::json!({ "proactiveness": "pushy" }),
            serde_json::json!({ "quiet_hours": { "start": "25:00", "end": "07:00" } }),
            serde_json::json!({ "timezone": "Mars/Olympus" }),
            serde_json::json!({ "evm_address": "0x12" }),
            serde_json::json!({ "ed25519_public_key": "abc" }),
        ];
        for c in cases {
            let field = c.as_object().unwrap().keys().next().unwrap().clone();
            let mut base = serde_json::json!({ "name": "Ada" });
            base.as_object_mut().unwrap().extend(c.as_object().unwrap().clone());
            let err = Settings::defaults().apply(input(base)).unwrap_err();
            match err {
                ApiError::BadRequest { details: Some(d), .. } => assert_eq!(d["field"], field.as_str()),
                other => panic!("{field}: {other:?}"),
            }
        }
    }

    #[test]
    fn null_clears_and_absent_keeps() {
        let s = Settings::defaults()
            .apply(input(
                serde_json::json!({ "name": "Ada", "evm_address": "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }),
            ))
            .unwrap();
        assert_eq!(s.evm_address.as_deref(), Some("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"));
        let kept = s.clone().apply(input(serde_json::json!({ "persona": "kind" }))).unwrap();
        assert!(kept.evm_address.is_some());
        let cleared = s.apply(input(serde_json::json!({ "evm_address": null }))).unwrap();
        assert!(cleared.evm_address.is_none());
    }
}
