//! Hosted agents (SPEC A2): what an agent is (`Agent`), the settings it can be given and the
//! rules they follow (settings), and its tenant-scoped storage (store). Every query takes the
//! tenant first; there is no way to load an agent without it.

mod settings;
pub mod spawn;
pub mod sql;
mod store;

use chrono::{DateTime, Utc};
use miniclaw_core::ids::AgentId;
use serde::Serialize;
use utoipa::ToSchema;

pub use settings::{
    AgentInput, BUDGET_RANGE, DEFAULT_CONNECT_SCOPES, DEFAULT_DAILY_TOKEN_BUDGET, NAME_MAX, PERSONA_MAX, QuietHours,
};
pub(crate) use store::COLUMNS;
pub use store::{
    by_id, create, delete, get, get_cached, is_active, list, lock, named, purge_deleted, restore, set_conservative,
    tenant_and_name, tenant_of, update,
};

/// The cycle that purges deleted agents once their retention (`MINICLAW_AGENT_RETENTION_DAYS`)
/// has passed. Registered by the processes that run jobs, with the configured retention.
pub fn purge_cycle(retention_days: u32) -> miniclaw_platform::jobs::Cycle {
    miniclaw_platform::jobs::Cycle::purge(PURGE_CYCLE, PURGE_DESCRIPTION, retention_days, |pool, days| {
        Box::pin(purge_deleted(pool, days))
    })
}

pub const PURGE_CYCLE: &str = "agent_purge";
pub const PURGE_DESCRIPTION: &str =
    "Purges agents deleted longer ago than the retention period, keeping their activity log in the tenant's.";

/// A hosted agent as stored: its settings and when they were set.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Agent {
    pub id: AgentId,
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
    /// The most a self-service connect may grant (owner-set; a connect asking for more is
    /// refused). Default: `agent:read`, `chat:read`, `chat:write`, `memories:read`.
    pub connect_scopes: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Human verification (I3): the providers whose latest record says `verified`. Recorded by
    /// the operator or the provider's webhook; see `GET …/verifications`.
    #[schema(value_type = crate::onchain::verification::VerificationSummary)]
    pub verification: sqlx::types::Json<crate::onchain::verification::VerificationSummary>,
}
