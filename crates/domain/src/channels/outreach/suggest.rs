//! Outreach the agent proposes on its own (SPEC O1): once a day, an agent with outreach enabled
//! looks at what it knows and proposes an email where one is called for, always as a
//! `proposed` thread that waits for the owner's approval:
//!
//! - **someone the owner wants to reach**: a memory of the last 30 days saying the owner wants
//!   or needs to email, contact, write to, reach out to or follow up with someone, with their
//!   address ("The user wants to email Maria at maria@example.com about the venue");
//! - **a follow-up that is due**: an email sent 5 days ago or more that got no answer (never a
//!   follow-up of a follow-up).
//!
//! Each source is proposed from once (`proposed_from`, unique per agent), at most two a day;
//! the owner is notified of each proposal.

use std::sync::LazyLock;

use chrono::{DateTime, Duration, Utc};
use regex::Regex;
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use super::PURPOSE_MAX;
use super::draft::{self, ProposalInput};
use crate::channels::notifications::{self, Kind};
use crate::tenancy::auth::Actor;
use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};

pub const CYCLE: &str = "outreach_suggest";
/// How far back a wish to reach someone is still acted on.
pub const INTENT_DAYS: i64 = 30;
/// How long a sent email waits for an answer before a follow-up is proposed.
pub const FOLLOW_UP_DAYS: i64 = 5;
/// The most proposals one run makes.
pub const PER_RUN: usize = 2;

pub fn cycle() -> Cycle {
    Cycle::new(
        CYCLE,
        CycleScope::Agent,
        "Outreach the agent proposes on its own (O1), daily: an email to someone the owner said they want to reach, or a follow-up to one that got no answer; each waits for the owner's approval.",
        run,
    )
    .every(std::time::Duration::from_secs(24 * 3600))
}

/// Something the agent could write, and what it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// `memory:<id>` or `follow_up:<thread id>`.
    pub from: String,
    pub target_email: String,
    pub target_name: Option<String>,
    pub purpose: String,
}

static EMAIL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+\b").expect("static pattern"));
/// A wish to reach someone, as extraction writes it ("wants to email", "needs to get in touch
/// with", "should follow up with") or as it was said.
static INTENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:want|wants|need|needs|should|has|have|is going|am going|plans?|planning|would like|'d like|hopes?|hoping|meant|means|remind (?:me|them)|must)\s+to\s+(?:e-?mail|write to|contact|reach out to|reach|get in touch with|introduce (?:myself|themselves|ourselves) to|follow up with|ask)\b",
    )
    .expect("static pattern")
});
/// The capitalised name just before an address: "Maria Lopez (maria@…)", "Maria at maria@…".
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(\p{Lu}[\p{L}'-]+(?: \p{Lu}[\p{L}'-]+)?)\s*(?:\(|<|,|:|\bat\b|\bon\b|\bvia\b)?\s*$")
        .expect("static pattern")
});

/// A memory as a candidate: it must say the owner wants to reach someone, and name the address.
pub fn from_memory(id: Uuid, content: &str) -> Option<Candidate> {
    if !INTENT.is_match(content) {
        return None;
    }
    let email = EMAIL.find(content)?;
    let target_email = miniclaw_platform::email::headers::address(email.as_str()).ok()?;
    let target_name = NAME
        .captures(&content[..email.start()])
        .map(|c| c[1].to_string())
        .filter(|n| !matches!(n.as_str(), "The" | "User" | "The User"));
    let said = content.trim().trim_end_matches('.');
    let purpose: String = format!("From what the owner told me: {said}.").chars().take(PURPOSE_MAX).collect();
    Some(Candidate { from: format!("memory:{id}"), target_email, target_name, purpose })
}

/// The emails sent at least `FOLLOW_UP_DAYS` ago still waiting for an answer (follow-ups
/// themselves excepted), the oldest first.
async fn follow_ups(pool: &PgPool, agent: AgentId, before: DateTime<Utc>) -> sqlx::Result<Vec<Candidate>> {
    let rows = sqlx::query!(
        "SELECT id, target_email, target_name, subject, updated_at FROM outreach_threads
          WHERE agent_id = $1 AND status = 'sent' AND updated_at < $2
            AND (proposed_from IS NULL OR proposed_from NOT LIKE 'follow_up:%')
          ORDER BY updated_at LIMIT 5",
        agent as _,
        before
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Candidate {
            from: format!("follow_up:{}", r.id),
            target_email: r.target_email,
            target_name: r.target_name,
            purpose: format!(
                "A friendly follow-up to my email \"{}\" of {}, which has had no answer yet.",
                r.subject,
                r.updated_at.format("%Y-%m-%d")
            )
            .chars()
            .take(PURPOSE_MAX)
            .collect(),
        })
        .collect())
}

/// The sources among `keys` the agent already proposed from.
async fn proposed_already(pool: &PgPool, agent: AgentId, keys: &[String]) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        r#"SELECT proposed_from AS "from!" FROM outreach_threads WHERE agent_id = $1 AND proposed_from = ANY($2)"#,
        agent as _,
        keys
    )
    .fetch_all(pool)
    .await
}

async fn run(ctx: JobContext) -> anyhow::Result<Value> {
    let (agent, tenant) = ctx.agent().await?;
    let deps = ctx.deps()?;
    let pool = &deps.pool;
    let Some(row) = crate::tenancy::agents::get(pool, tenant, agent).await? else {
        return Ok(json!({ "skipped": "the agent no longer exists" }));
    };
    if !row.outreach_enabled {
        return Ok(json!({ "skipped": "outreach is disabled" }));
    }
    let now = Utc::now();
    let mut candidates: Vec<Candidate> =
        crate::memory::contact_intents(pool, agent, now - Duration::days(INTENT_DAYS), 10)
            .await?
            .into_iter()
            .filter_map(|(id, content)| from_memory(id, &content))
            .collect();
    candidates.extend(follow_ups(pool, agent, now - Duration::days(FOLLOW_UP_DAYS)).await?);
    let keys: Vec<String> = candidates.iter().map(|c| c.from.clone()).collect();
    let known = proposed_already(pool, agent, &keys).await?;
    let origin = Origin::new(Actor::Job(CYCLE.into()), None);
    let (mut proposed, mut refused) = (Vec::new(), Vec::new());
    for c in candidates.into_iter().filter(|c| !known.contains(&c.from)).take(PER_RUN) {
        let input = ProposalInput {
            target_email: c.target_email.clone(),
            target_name: c.target_name.clone(),
            purpose: c.purpose.clone(),
            subject: None,
            body: None,
        };
        match draft::propose_from(deps, tenant, agent, &origin, input, Some(&c.from)).await {
            Ok(Some(thread)) => {
                let mut conn = pool.acquire().await?;
                let title = format!("{} proposes an email to {}", row.name, thread.target_email);
                let body = format!(
                    "{}\n\nSubject: {}\n\nIt waits for you: approve, edit or reject it on the Outreach tab.",
                    thread.purpose, thread.subject
                );
                let key = format!("outreach_proposed:{}", thread.id);
                notifications::notify(&mut conn, agent, Kind::OutreachProposed, &title, &body, Some(&key)).await?;
                proposed.push(json!({ "outreach_id": thread.id, "from": c.from }));
            }
            Ok(None) => {}
            // A source the agent cannot act on (a draft the model got wrong, an address a header
            // would refuse) is reported and left; the next run tries again.
            Err(
                e @ (Error::Invalid { .. }
                | Error::Unprocessable { .. }
                | Error::Upstream(_)
                | Error::Exhausted { .. }
                | Error::Conflict(_)),
            ) => refused.push(json!({ "from": c.from, "error": e.public_message() })),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(json!({ "proposed": proposed, "refused": refused }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wish_to_reach_someone_with_their_address_is_a_candidate() {
        let id = Uuid::nil();
        let c = from_memory(id, "The user wants to email Maria Lopez (maria@lopez.es) about the venue").unwrap();
        assert_eq!(
            (c.from.as_str(), c.target_email.as_str(), c.target_name.as_deref()),
            ("memory:00000000-0000-0000-0000-000000000000", "maria@lopez.es", Some("Maria Lopez"))
        );
        assert_eq!(
            c.purpose,
            "From what the owner told me: The user wants to email Maria Lopez (maria@lopez.es) about the venue."
        );
        let c = from_memory(id, "The user needs to get in touch with Tom at TOM@Example.org before Friday").unwrap();
        assert_eq!((c.target_email.as_str(), c.target_name.as_deref()), ("tom@example.org", Some("Tom")));
        // An address without a wish, or a wish without an address, is nothing to act on.
        assert_eq!(from_memory(id, "The user's email is dana@example.com"), None);
        assert_eq!(from_memory(id, "The user wants to email the landlord about the heating"), None);
    }
}
