//! The moment of one agent, read from the platform: its local time, its growth phase and the
//! owner's mood from the affect engine (`cognition::affect`), the one every chat turn keeps.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use sqlx::PgPool;

use super::{Moment, Mood, Phase};
use miniclaw_core::ids::AgentId;

/// The fast valence average above this, and not below the slow one, reads as success.
const SUCCESS_VALENCE: f64 = 0.3;
/// The fast valence average below this reads as struggle, distressed or not.
const STRUGGLE_VALENCE: f64 = -0.2;

/// The agent's moment at `now`; `None` if there is no such agent. Each fact comes from the
/// area that owns it, read concurrently.
pub async fn of_agent(pool: &PgPool, agent: AgentId, now: DateTime<Utc>) -> sqlx::Result<Option<Moment>> {
    let Some(a) = crate::tenancy::agents::by_id(pool, agent).await? else {
        return Ok(None);
    };
    let (reflected, tasks_done, wrote, posted, affect) = tokio::try_join!(
        crate::cognition::reflection::any_applied(pool, agent),
        crate::cognition::tasks::any_done(pool, agent),
        crate::channels::outreach::any_outbound(pool, agent),
        crate::social::feed::any_post(pool, agent),
        crate::cognition::affect::owner_mood(pool, agent),
    )?;
    let tz: Tz = a.timezone.parse().unwrap_or(chrono_tz::UTC);
    let phase = match (reflected, tasks_done || wrote || posted) {
        (_, true) => Phase::Agent,
        (true, false) => Phase::Opinion,
        (false, false) => Phase::Mirror,
    };
    let mood = affect.map(|m| mood_of(m.fast_valence, m.slow_valence, m.distress));
    Ok(Some(Moment::new(now.with_timezone(&tz).naive_local(), phase, mood)))
}

/// Distress (the affect engine's: the fast average well below the slow one) or a low mood is
/// struggle; a clearly positive fast average is success.
pub fn mood_of(fast: f64, slow: f64, distress: bool) -> Mood {
    if distress || fast < STRUGGLE_VALENCE {
        Mood::Struggle
    } else if fast > SUCCESS_VALENCE && fast >= slow {
        Mood::Success
    } else {
        Mood::Steady
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affect_reads_as_a_mood() {
        assert_eq!(mood_of(-0.6, 0.1, true), Mood::Struggle);
        assert_eq!(mood_of(-0.1, 0.1, true), Mood::Struggle, "the affect engine's distress");
        assert_eq!(mood_of(-0.3, -0.3, false), Mood::Struggle);
        assert_eq!(mood_of(0.5, 0.2, false), Mood::Success);
        assert_eq!(mood_of(0.1, 0.0, false), Mood::Steady);
    }
}
