//! The memory lifecycle (SPEC X2, 000 §4.2): prominence, the tiers it puts memories in,
//! and forgetting by utility. The folding of fading clusters into one memory (fusion) is a
//! cognition cycle (`cognition::fusion`).
//!
//! - **Prominence** in [0, 1]: `0.30*age + 0.25*frequency + 0.25*recency + 0.20*importance`,
//!   where age and recency are `0.5^(days / half-life)` with the category's half-life, frequency
//!   is `ln(1 + accesses) / ln(21)` (saturating at 20 accesses) and importance is the stored
//!   0–10 over 10. The same formula is the SQL function `memory_prominence` (migration
//!   `..._memory_lifecycle.sql`); a test holds the two together.
//! - **Tiers:** `active` above 0.5, `dormant` from 0.1 to 0.5. Both are live; the breath cycle
//!   moves memories between them without a version (the tier is derived, not an edit).
//! - **Forgetting:** `utility = prominence * ln(1 + accesses)`. A learned memory below 0.1
//!   prominence and 0.1 utility is archived (`fade`: out of search, restorable) and pruned
//!   `PRUNE_AFTER_DAYS` later, its relations with it.
//! - **Constitutional** memories (pinned, or identity) keep prominence 1: they never fade,
//!   fuse or get pruned (002 §5.9). What an owner or a miniapp wrote, and uploaded knowledge,
//!   decay in rank but are never forgotten or fused: only their authors remove them.

use miniclaw_core::ids::{AgentId, MemoryId};
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;

use super::{Memory, MemorySource, MemoryStatus, query_memories};
use miniclaw_core::Error;
use miniclaw_platform::activity::Origin;

pub const W_AGE: f64 = 0.30;
pub const W_FREQUENCY: f64 = 0.25;
pub const W_RECENCY: f64 = 0.25;
pub const W_IMPORTANCE: f64 = 0.20;
/// Accesses at which the frequency factor reaches 1.
pub const FREQUENCY_SATURATION: u32 = 20;
/// Prominence above which a memory is `active`.
pub const ACTIVE_ABOVE: f64 = 0.5;
/// Prominence below which a memory is in the archived zone (X2), where forgetting looks.
pub const ARCHIVED_BELOW: f64 = 0.1;
/// Utility below which a memory in the archived zone is forgotten.
pub const UTILITY_FLOOR: f64 = 0.1;
/// Days a forgotten memory stays restorable before it is pruned.
pub const PRUNE_AFTER_DAYS: i32 = 90;
/// At most this many memories fade per agent and breath.
const FADE_BATCH: i64 = 500;

/// The half-life of a category's memories in days (X2: 14 for events to 346 for
/// relationships). The SQL function `memory_half_life_days` is the same table.
pub fn half_life_days(category: &str) -> f64 {
    match category {
        "event" => 14.0,
        "context" => 60.0,
        "goal" => 90.0,
        "insight" => 120.0,
        "interest" | "preference" => 180.0,
        "knowledge" | "identity" | "relationship" => 346.0,
        _ => 120.0,
    }
}

/// Pinned and identity memories: they never decay, fade, fuse or get pruned.
pub fn constitutional(pinned: bool, category: &str) -> bool {
    pinned || category == "identity"
}

/// Whether forgetting and fusion may touch a memory of this source: what the agent learned,
/// not what an owner, a miniapp or an upload wrote.
pub fn forgettable(source: MemorySource) -> bool {
    matches!(
        source,
        MemorySource::Conversation | MemorySource::Derived | MemorySource::Reflection | MemorySource::Fusion
    )
}

/// What prominence is computed from.
#[derive(Debug, Clone, Copy)]
pub struct Usage<'a> {
    pub category: &'a str,
    pub constitutional: bool,
    /// 0–10.
    pub importance: f64,
    pub access_count: u32,
    /// Since it was created.
    pub age_days: f64,
    /// Since it was last retrieved or used in chat (since creation if never).
    pub idle_days: f64,
}

/// Prominence in [0, 1] (X2).
pub fn prominence(u: &Usage<'_>) -> f64 {
    if u.constitutional {
        return 1.0;
    }
    let half_life = half_life_days(u.category);
    let fading = |days: f64| 0.5f64.powf(days.max(0.0) / half_life);
    let frequency = ((1.0 + f64::from(u.access_count)).ln() / (1.0 + f64::from(FREQUENCY_SATURATION)).ln()).min(1.0);
    W_AGE * fading(u.age_days)
        + W_FREQUENCY * frequency
        + W_RECENCY * fading(u.idle_days)
        + W_IMPORTANCE * u.importance.clamp(0.0, 10.0) / 10.0
}

/// `prominence * ln(1 + accesses)`: a memory that was used survives its decay.
pub fn utility(prominence: f64, access_count: u32) -> f64 {
    prominence * (1.0 + f64::from(access_count)).ln()
}

/// The live tier of a prominence.
pub fn tier(prominence: f64) -> MemoryStatus {
    if prominence > ACTIVE_ABOVE { MemoryStatus::Active } else { MemoryStatus::Dormant }
}

/// Whether forgetting archives a memory with this prominence and use.
pub fn fades(prominence: f64, access_count: u32) -> bool {
    prominence < ARCHIVED_BELOW && utility(prominence, access_count) < UTILITY_FLOOR
}

/// What one breath did to an agent's memories.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Retiered {
    /// Active memories that became dormant.
    pub dormant: u64,
    /// Dormant memories that became active again.
    pub active: u64,
}

/// Moves the agent's live memories between `active` and `dormant` by their prominence now.
pub async fn retier(conn: &mut PgConnection, agent_id: AgentId) -> sqlx::Result<Retiered> {
    let rows = sqlx::query_scalar!(
        r#"WITH p AS (
             SELECT id, memory_prominence(category, pinned, importance, access_count, created_at,
                                          greatest(last_retrieved_at, last_mentioned_at), now()) AS prominence
               FROM agent_memories WHERE agent_id = $1 AND status IN ('active', 'dormant'))
           UPDATE agent_memories m
              SET status = CASE WHEN p.prominence > $2 THEN 'active' ELSE 'dormant' END
             FROM p
            WHERE m.agent_id = $1 AND m.id = p.id
              AND m.status <> CASE WHEN p.prominence > $2 THEN 'active' ELSE 'dormant' END
           RETURNING m.status AS "status!""#,
        agent_id as _,
        ACTIVE_ABOVE
    )
    .fetch_all(&mut *conn)
    .await?;
    let dormant = rows.iter().filter(|s| *s == "dormant").count() as u64;
    Ok(Retiered { dormant, active: rows.len() as u64 - dormant })
}

/// Archives the agent's learned memories whose prominence and utility fell below the floors
/// (X2 forgetting), each with a `fade` version naming its figures. Returns them.
pub async fn fade(conn: &mut PgConnection, agent_id: AgentId, origin: &Origin) -> sqlx::Result<Vec<Memory>> {
    let forgettable: Vec<&str> =
        MemorySource::ALL.iter().copied().filter(|s| forgettable(*s)).map(|s| s.as_str()).collect();
    let candidates = query_memories!(
        "SELECT",
        "FROM agent_memories
          WHERE agent_id = $1 AND status IN ('active', 'dormant') AND NOT pinned AND category <> 'identity'
            AND source = ANY($2)
            AND memory_prominence(category, pinned, importance, access_count, created_at,
                                  greatest(last_retrieved_at, last_mentioned_at), now()) < $3
          ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED",
        agent_id as _,
        &forgettable as _,
        ARCHIVED_BELOW,
        FADE_BATCH
    )
    .fetch_all(&mut *conn)
    .await?;
    let now = chrono::Utc::now();
    let mut faded = Vec::new();
    for m in candidates {
        let (p, n) = (m.prominence(now), m.access_count.max(0) as u32);
        if !fades(p, n) {
            continue;
        }
        let reason = format!(
            "forgotten: prominence {p:.3} below {ARCHIVED_BELOW} and utility {:.3} below {UTILITY_FLOOR}; \
             restorable for {PRUNE_AFTER_DAYS} days",
            utility(p, n)
        );
        let after = set_aside(conn, agent_id, m.id, Aside::Faded, origin, &reason).await?;
        faded.push(after);
    }
    if !faded.is_empty() {
        super::hits::forget(conn, &[agent_id]).await?;
    }
    Ok(faded)
}

/// Why a memory is archived by the lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aside {
    /// Forgetting: pruned `PRUNE_AFTER_DAYS` later unless restored.
    Faded,
    /// Folded into a fusion memory: kept, as the fusion's sources.
    Fused,
    /// Split into focused memories (X11): kept, as their source.
    Split,
}

/// Archives a memory (out of search and the BM25 corpus) with a `fade`, `fuse` or `split`
/// version.
pub async fn set_aside(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    why: Aside,
    origin: &Origin,
    reason: &str,
) -> sqlx::Result<Memory> {
    let faded = why == Aside::Faded;
    let after = query_memories!(
        "UPDATE agent_memories SET status = 'archived', faded_at = CASE WHEN $3 THEN now() END
          WHERE agent_id = $1 AND id = $2 RETURNING",
        "",
        agent_id as _,
        id as _,
        faded
    )
    .fetch_one(&mut *conn)
    .await?;
    let change = match why {
        Aside::Faded => "fade",
        Aside::Fused => "fuse",
        Aside::Split => "split",
    };
    super::settle(conn, &after, change, origin, Some(reason)).await?;
    Ok(after)
}

/// Brings an archived memory back into search: `active`, counted as used now (so the next
/// breath does not forget it again), with a `restore` version. 409 when it is not archived.
pub async fn revive(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    origin: &Origin,
    reason: Option<&str>,
) -> Result<Memory, Error> {
    let after = query_memories!(
        "UPDATE agent_memories SET status = 'active', faded_at = NULL, last_retrieved_at = now(), updated_at = now()
          WHERE agent_id = $1 AND id = $2 AND status = 'archived' RETURNING",
        "",
        agent_id as _,
        id as _
    )
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| Error::Conflict("the memory is not archived".into()))?;
    super::settle(conn, &after, "restore", origin, reason.or(Some("brought back from the archive"))).await?;
    Ok(after)
}

/// Deletes memories forgetting archived more than `PRUNE_AFTER_DAYS` ago (the second phase
/// of X2 forgetting), their relations with them. Returns how many.
pub async fn prune(pool: &PgPool) -> sqlx::Result<u64> {
    let mut tx = pool.begin().await?;
    let gone = query_memories!(
        "SELECT",
        "FROM agent_memories
          WHERE status = 'archived' AND faded_at < now() - make_interval(days => $1)
          ORDER BY faded_at LIMIT 10000 FOR UPDATE SKIP LOCKED",
        PRUNE_AFTER_DAYS
    )
    .fetch_all(&mut *tx)
    .await?;
    let reason = format!("pruned: forgotten more than {PRUNE_AFTER_DAYS} days ago");
    let n = super::hits::delete_all(&mut tx, &gone, "memory_prune", &reason).await?;
    tx.commit().await?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(category: &str, importance: f64, access_count: u32, age_days: f64, idle_days: f64) -> Usage<'_> {
        Usage { category, constitutional: false, importance, access_count, age_days, idle_days }
    }

    #[test]
    fn prominence_by_hand() {
        // New, never used, importance 5: 0.3 + 0 + 0.25 + 0.1.
        assert!((prominence(&usage("interest", 5.0, 0, 0.0, 0.0)) - 0.65).abs() < 1e-12);
        // One half-life on, 20 accesses at creation: 0.15 + 0.25 + 0.125 + 0.1.
        assert!((prominence(&usage("event", 5.0, 20, 14.0, 14.0)) - 0.625).abs() < 1e-12);
        // Constitutional memories hold 1 whatever their age.
        let old = Usage { constitutional: true, ..usage("goal", 0.0, 0, 9e3, 9e3) };
        assert_eq!(prominence(&old), 1.0);
    }

    #[test]
    fn an_unused_event_goes_dormant_within_days_and_a_relationship_within_months() {
        let days_to_dormant = |category: &str| {
            (0..2000)
                .map(f64::from)
                .find(|d| tier(prominence(&usage(category, 5.0, 0, *d, *d))) == MemoryStatus::Dormant)
        };
        let event = days_to_dormant("event").unwrap();
        let relationship = days_to_dormant("relationship").unwrap();
        assert!((5.0..=8.0).contains(&event), "{event}");
        assert!((150.0..=170.0).contains(&relationship), "{relationship}");
    }

    #[test]
    fn forgetting_spares_what_was_used_and_what_matters() {
        // Importance 2, a year after a 14-day event: in the archived zone.
        let p = prominence(&usage("event", 2.0, 0, 365.0, 365.0));
        assert!(p < ARCHIVED_BELOW && fades(p, 0));
        // The same memory retrieved 5 times: utility p*ln 6 ≥ 0.1 keeps it.
        assert!(!fades(0.09, 5));
        // Importance 5 never leaves prominence 0.1.
        assert!(prominence(&usage("event", 5.0, 0, 1e5, 1e5)) >= ARCHIVED_BELOW - 1e-12);
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn prominence_is_a_unit_score_that_falls_with_time_and_rises_with_use(
            category in prop::sample::select(vec!["event", "context", "goal", "interest", "relationship", "x"]),
            importance in 0.0..=10.0f64, n in 0u32..10_000, age in 0.0..5000.0f64, idle in 0.0..5000.0f64, later in 0.0..500.0f64
        ) {
            let u = Usage { category, constitutional: false, importance, access_count: n, age_days: age, idle_days: idle };
            let p = prominence(&u);
            prop_assert!((0.0..=1.0).contains(&p), "{p}");
            let older = Usage { age_days: age + later, idle_days: idle + later, ..u };
            let used = Usage { access_count: n + 1, ..u };
            let pinned = Usage { constitutional: true, ..u };
            prop_assert!(prominence(&older) <= p);
            prop_assert!(prominence(&used) >= p);
            prop_assert!(prominence(&pinned) == 1.0);
            prop_assert!(utility(p, n + 1) >= utility(p, n));
            // Forgetting only ever looks in the archived zone.
            prop_assert!(!fades(p, n) || p < ARCHIVED_BELOW);
        }
    }
}
