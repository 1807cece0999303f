//! Sending limits (seed 001 §10.2): at most 5 emails per agent in any 24 hours, and at most one
//! first-contact email per target address per 7 days. Replies in a thread the target answered
//! count toward the daily 5 but not toward the per-target rule (they are not unsolicited).
//! A refusal says when sending is possible again (429 with `reset_at`).

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use sqlx::PgConnection;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use miniclaw_platform::email::outbox;

pub const PER_DAY: usize = 5;
pub const TARGET_DAYS: i64 = 7;

/// Which limit refused a send, and when it allows one again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Daily { retry_at: DateTime<Utc> },
    Target { retry_at: DateTime<Utc> },
}

impl Limit {
    pub fn retry_at(self) -> DateTime<Utc> {
        match self {
            Limit::Daily { retry_at } | Limit::Target { retry_at } => retry_at,
        }
    }

    pub fn into_error(self, now: DateTime<Utc>) -> Error {
        let at = self.retry_at();
        let message = match self {
            Limit::Daily { .. } => format!(
                "the agent has sent {PER_DAY} emails in the last 24 hours (the limit); the next one can go at {}",
                at.to_rfc3339()
            ),
            Limit::Target { .. } => format!(
                "this address was written to in the last {TARGET_DAYS} days (one email per target per {TARGET_DAYS} days); the next one can go at {}",
                at.to_rfc3339()
            ),
        };
        Error::Limited {
            retry_after_secs: (at - now).num_seconds().max(1) as u64,
            message: Some(message),
            reset_at: Some(at),
        }
    }
}

/// The limits' verdict at `now` given the agent's emails of the last 24 hours (oldest first)
/// and its last first-contact email to the target (if `first_contact`).
pub fn check(
    now: DateTime<Utc>,
    last_day: &[DateTime<Utc>],
    last_to_target: Option<DateTime<Utc>>,
) -> Result<(), Limit> {
    let window: Vec<_> = last_day.iter().filter(|t| **t > now - Duration::hours(24)).collect();
    if window.len() >= PER_DAY {
        // The oldest email that must leave the window for one more to fit.
        return Err(Limit::Daily { retry_at: *window[window.len() - PER_DAY] + Duration::hours(24) });
    }
    if let Some(t) = last_to_target.filter(|t| *t > now - Duration::days(TARGET_DAYS)) {
        return Err(Limit::Target { retry_at: t + Duration::days(TARGET_DAYS) });
    }
    Ok(())
}

/// The agent's sending quota now.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Quota {
    pub limit_per_day: usize,
    /// Emails sent or queued in the last 24 hours.
    pub used: usize,
    pub remaining: usize,
    /// When the oldest of them leaves the 24-hour window (`null` when none is counted).
    pub next_slot_at: Option<DateTime<Utc>>,
}

/// When the agent's emails of the last 24 hours were queued, oldest first (failed ones do not count).
async fn last_day(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<Vec<DateTime<Utc>>> {
    outbox::queued_since(conn, agent, "outreach", Utc::now() - Duration::hours(24)).await
}

/// Checks the limits for one more email of `agent` (to `target` when it is a first contact),
/// under a per-agent lock held until the caller's transaction ends, so two approvals at once
/// cannot both take the last slot.
pub async fn claim(
    conn: &mut PgConnection,
    agent: AgentId,
    target: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    sqlx::query!("SELECT pg_advisory_xact_lock(hashtextextended('outreach-send:' || $1::uuid::text, 0))", agent as _)
        .execute(&mut *conn)
        .await?;
    let day = last_day(conn, agent).await?;
    let last_to_target = match target {
        None => None,
        Some(t) => {
            // First contacts only: emails whose outreach message answers none.
            let sent = outbox::queued_to(conn, agent, "outreach", t, Utc::now() - Duration::days(TARGET_DAYS)).await?;
            let ids: Vec<Uuid> = sent.iter().filter_map(|(m, _)| *m).collect();
            let first = sqlx::query_scalar!(
                "SELECT id FROM outreach_messages WHERE agent_id = $1 AND id = ANY($2) AND in_reply_to IS NULL",
                agent as _,
                &ids
            )
            .fetch_all(&mut *conn)
            .await?;
            sent.into_iter().filter(|(m, _)| m.is_some_and(|m| first.contains(&m))).map(|(_, at)| at).max()
        }
    };
    check(now, &day, last_to_target).map_err(|l| l.into_error(now))
}

pub async fn quota(conn: &mut PgConnection, agent: AgentId, now: DateTime<Utc>) -> sqlx::Result<Quota> {
    let day = last_day(conn, agent).await?;
    let used = day.len();
    Ok(Quota {
        limit_per_day: PER_DAY,
        used,
        remaining: PER_DAY.saturating_sub(used),
        next_slot_at: day.first().map(|t| *t + Duration::hours(24)).filter(|t| *t > now),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: i64) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-20T00:00:00Z").unwrap().with_timezone(&Utc) + Duration::hours(h)
    }

    #[test]
    fn the_sixth_email_in_24_hours_waits_for_the_first_to_age_out() {
        let sent: Vec<_> = (0..5).map(at).collect();
        assert_eq!(check(at(10), &sent[..4], None), Ok(()));
        assert_eq!(check(at(10), &sent, None), Err(Limit::Daily { retry_at: at(24) }));
        // Once the first is older than 24 hours, there is room again.
        assert_eq!(check(at(24) + Duration::seconds(1), &sent, None), Ok(()));
    }

    #[test]
    fn one_first_contact_per_target_per_seven_days() {
        assert_eq!(check(at(48), &[], Some(at(0))), Err(Limit::Target { retry_at: at(7 * 24) }));
        assert_eq!(check(at(7 * 24 + 1), &[], Some(at(0))), Ok(()));
    }

    #[test]
    fn a_refusal_says_when_and_is_a_rate_limit() {
        let e = Limit::Daily { retry_at: at(24) }.into_error(at(23));
        match e {
            Error::Limited { retry_after_secs, reset_at, message } => {
                assert_eq!((retry_after_secs, reset_at), (3600, Some(at(24))));
                assert!(message.unwrap().contains("2026-11-21T00:00:00+00:00"));
            }
            other => panic!("{other:?}"),
        }
    }
}
