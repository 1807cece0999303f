//! Human-verification records (SPEC I3): what a provider (Self.xyz, Talent Protocol) found about
//! the human behind an agent, recorded by the operator or by the provider's signed webhook
//! (`signature`), with its evidence. The latest record per provider is the agent's standing with
//! it; PoC identity counts the current verifications, and the agent JSON carries a summary.

pub mod signature;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_core::vocabulary::{VerificationProvider, VerificationStatus};
use miniclaw_platform::activity::{self, Origin};

/// A verification result as stored.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct VerificationRecord {
    pub id: Uuid,
    pub agent_id: AgentId,
    pub provider: VerificationProvider,
    pub status: VerificationStatus,
    pub evidence_url: Option<String>,
    /// A hash of the evidence (a proof, a credential), as the provider gave it.
    pub evidence_hash: Option<String>,
    /// The provider's own score, when it gives one (Talent Protocol's builder score).
    pub score: Option<f64>,
    pub note: Option<String>,
    /// When the provider reached the result.
    pub checked_at: DateTime<Utc>,
    /// `operator` or `webhook`.
    pub recorded_by: String,
    pub created_at: DateTime<Utc>,
}

/// What the agent JSON says about verification: the providers whose latest record is `verified`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct VerificationSummary {
    pub verified: bool,
    pub providers: Vec<VerificationProvider>,
}

/// The summary as a column of an `agents` row (for the agent's column list).
#[macro_export]
macro_rules! verification_summary_sql {
    () => {
        "(SELECT jsonb_build_object('verified', count(*) > 0,
                 'providers', coalesce(jsonb_agg(latest.provider ORDER BY latest.provider), '[]'::jsonb))
            FROM (SELECT DISTINCT ON (v.provider) v.provider, v.status FROM verification_records v
                   WHERE v.agent_id = agents.id ORDER BY v.provider, v.checked_at DESC, v.id DESC) latest
           WHERE latest.status = 'verified') AS verification"
    };
}

/// A verification result to record.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerificationInput {
    pub provider: VerificationProvider,
    pub status: VerificationStatus,
    /// `http(s)` link to the evidence. A `verified` result needs this or `evidence_hash`.
    pub evidence_url: Option<String>,
    /// Up to 200 visible ASCII characters, e.g. `0x…` or `sha256:…`.
    pub evidence_hash: Option<String>,
    /// 0–10,000.
    pub score: Option<f64>,
    /// Up to 1,000 characters.
    pub note: Option<String>,
    /// When the provider reached the result; default now; from 2000 on, at most 5 minutes ahead.
    pub checked_at: Option<DateTime<Utc>>,
}

/// 2000-01-01T00:00:00Z: no verification is older (and PostgreSQL cannot store every year a
/// client can write).
const EARLIEST_CHECK: i64 = 946_684_800;

/// Who recorded a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordedBy {
    Operator,
    /// The provider's signed webhook; the delivery's signature recognises a repeat.
    Webhook,
}

impl RecordedBy {
    fn as_str(self) -> &'static str {
        match self {
            RecordedBy::Operator => "operator",
            RecordedBy::Webhook => "webhook",
        }
    }
}

impl VerificationInput {
    /// Checks every field; a 400 names the first one that is wrong.
    pub fn validate(&self, now: DateTime<Utc>) -> Result<(), Error> {
        let blank = |s: &Option<String>| s.as_deref().is_none_or(|s| s.trim().is_empty());
        if let Some(u) = self.evidence_url.as_deref().filter(|u| !u.trim().is_empty()) {
            let ok = u.len() <= 2048
                && url::Url::parse(u.trim()).is_ok_and(|p| matches!(p.scheme(), "http" | "https") && p.has_host());
            if !ok {
                return Err(Error::validation(
                    "evidence_url",
                    "evidence_url must be an http(s) URL of at most 2048 characters",
                ));
            }
        }
        if let Some(h) = self.evidence_hash.as_deref().filter(|h| !h.trim().is_empty())
            && (h.trim().len() > 200 || !h.trim().bytes().all(|b| b.is_ascii_graphic()))
        {
            return Err(Error::validation(
                "evidence_hash",
                "evidence_hash must be at most 200 visible ASCII characters (e.g. 0x… or sha256:…)",
            ));
        }
        if self.status == VerificationStatus::Verified && blank(&self.evidence_url) && blank(&self.evidence_hash) {
            return Err(Error::validation("evidence_url", "a verified result needs evidence_url or evidence_hash"));
        }
        if let Some(s) = self.score
            && !(s.is_finite() && (0.0..=10_000.0).contains(&s))
        {
            return Err(Error::validation("score", "score must be a number between 0 and 10000"));
        }
        if self.note.as_deref().is_some_and(|n| n.chars().count() > 1000) {
            return Err(Error::validation("note", "note must be at most 1000 characters"));
        }
        if self.checked_at.is_some_and(|t| t > now + chrono::Duration::minutes(5)) {
            return Err(Error::validation("checked_at", "checked_at may not be in the future"));
        }
        if self.checked_at.is_some_and(|t| t.timestamp() < EARLIEST_CHECK) {
            return Err(Error::validation("checked_at", "checked_at must be after 2000-01-01"));
        }
        Ok(())
    }
}

fn trimmed(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// Records a result for one of the tenant's agents, with its activity entry, in the caller's
/// transaction. Returns the record and whether it is new: a webhook delivery seen before
/// (same `delivery`) returns the record it made then.
pub async fn record(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    by: RecordedBy,
    delivery: Option<&str>,
    input: VerificationInput,
) -> Result<(VerificationRecord, bool), Error> {
    input.validate(Utc::now())?;
    let inserted = sqlx::query_as!(
        VerificationRecord,
        r#"INSERT INTO verification_records
              (id, agent_id, provider, status, evidence_url, evidence_hash, score, note, checked_at, recorded_by, delivery)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9, now()), $10, $11)
           ON CONFLICT (agent_id, delivery) DO NOTHING
           RETURNING id, agent_id, provider AS "provider: VerificationProvider", status AS "status: VerificationStatus",
                     evidence_url, evidence_hash, score, note, checked_at, recorded_by, created_at"#,
        Uuid::now_v7(),
        agent_id as _,
        input.provider as _,
        input.status as _,
        trimmed(&input.evidence_url),
        trimmed(&input.evidence_hash),
        input.score,
        trimmed(&input.note),
        input.checked_at,
        by.as_str(),
        delivery
    )
    .fetch_optional(&mut *conn)
    .await?;
    crate::tenancy::auth::cache::cache().forget_agent_row(agent_id);
    let Some(rec) = inserted else {
        // Only a delivery seen before conflicts (NULLs never do): return what it recorded then.
        let seen = sqlx::query_as!(
            VerificationRecord,
            r#"SELECT id, agent_id, provider AS "provider: VerificationProvider", status AS "status: VerificationStatus",
                      evidence_url, evidence_hash, score, note, checked_at, recorded_by, created_at
                 FROM verification_records WHERE agent_id = $1 AND delivery = $2"#,
            agent_id as _,
            delivery
        )
        .fetch_one(&mut *conn)
        .await?;
        return Ok((seen, false));
    };
    let details = serde_json::json!({
        "record": rec.id, "provider": rec.provider, "status": rec.status, "recorded_by": rec.recorded_by,
    });
    activity::record_agent(conn, tenant_id, agent_id, origin, "verification.recorded", details).await?;
    Ok((rec, true))
}

/// When each provider first verified the agent: (provider, time).
pub async fn first_verified(pool: &PgPool, agent: AgentId) -> sqlx::Result<Vec<(String, DateTime<Utc>)>> {
    let rows = sqlx::query!(
        r#"SELECT provider, min(checked_at) AS "at!" FROM verification_records
            WHERE agent_id = $1 AND status = 'verified' GROUP BY provider"#,
        agent as _
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|r| (r.provider, r.at)).collect())
}

/// The agent's records, most recently recorded first; `before` pages backwards.
pub async fn list(
    pool: &PgPool,
    agent_id: AgentId,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<VerificationRecord>> {
    sqlx::query_as!(
        VerificationRecord,
        r#"SELECT id, agent_id, provider AS "provider: VerificationProvider", status AS "status: VerificationStatus",
                  evidence_url, evidence_hash, score, note, checked_at, recorded_by, created_at
             FROM verification_records WHERE agent_id = $1 AND ($2::uuid IS NULL OR id < $2)
            ORDER BY id DESC LIMIT $3"#,
        agent_id as _,
        before,
        limit
    )
    .fetch_all(pool)
    .await
}

/// The providers whose latest record is `verified`, with their score.
pub async fn current(
    conn: &mut PgConnection,
    agent_id: AgentId,
) -> sqlx::Result<Vec<(VerificationProvider, Option<f64>)>> {
    let rows = sqlx::query!(
        r#"SELECT provider AS "provider: VerificationProvider", status AS "status: VerificationStatus", score
             FROM (SELECT DISTINCT ON (provider) provider, status, score FROM verification_records
                    WHERE agent_id = $1 ORDER BY provider, checked_at DESC, id DESC) latest"#,
        agent_id as _
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().filter(|r| r.status == VerificationStatus::Verified).map(|r| (r.provider, r.score)).collect())
}
