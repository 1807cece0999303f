//! The moment of one agent, read from the platform: its local time, its growth phase and the
//! owner's mood from the affect the proactive scanner keeps.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use sqlx::PgPool;

use super::{Moment, Mood, Phase};
use miniclaw_core::ids::AgentId;

/// The fast affect EMA above this, and not below the slow one, reads as success.
const SUCCESS_VALENCE: f32 = 0.3;

/// The agent's moment at `now`; `None` if there is no such agent.
pub async fn of_agent(pool: &PgPool, agent: AgentId, now: DateTime<Utc>) -> sqlx::Result<Option<Moment>> {
    let Some(row) = sqlx::query!(
        r#"SELECT a.timezone,
                  EXISTS (SELECT 1 FROM reflections r WHERE r.agent_id = a.id AND r.status = 'applied') AS "reflected!",
                  (EXISTS (SELECT 1 FROM agent_tasks t WHERE t.agent_id = a.id AND t.status = 'done')
                   OR EXISTS (SELECT 1 FROM outreach_messages o WHERE o.agent_id = a.id AND o.direction = 'outbound')
                   OR EXISTS (SELECT 1 FROM feed_posts f WHERE f.agent_id = a.id)) AS "acted!",
                  p.affect_fast AS "affect_fast?", p.affect_slow AS "affect_slow?", p.affect_at
             FROM agents a LEFT JOIN agent_proactive p ON p.agent_id = a.id
            WHERE a.id = $1"#,
        agent as _
    )
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    let tz: Tz = row.timezone.parse().unwrap_or(chrono_tz::UTC);
    let phase = match (row.reflected, row.acted) {
        (_, true) => Phase::Agent,
        (true, false) => Phase::Opinion,
        (false, false) => Phase::Mirror,
    };
    let mood = match (row.affect_fast, row.affect_slow, row.affect_at) {
        (Some(fast), Some(slow), Some(_)) => Some(mood_of(fast, slow)),
        _ => None,
    };
    Ok(Some(Moment::new(now.with_timezone(&tz).naive_local(), phase, mood)))
}

/// Distress (a fast EMA well below the slow one) or a low mood is struggle; a clearly positive
/// fast EMA is success.
pub fn mood_of(fast: f32, slow: f32) -> Mood {
    if crate::proactive::rules::distressed(fast, slow) || fast < -0.2 {
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
        assert_eq!(mood_of(-0.6, 0.1), Mood::Struggle);
        assert_eq!(mood_of(-0.3, -0.3), Mood::Struggle);
        assert_eq!(mood_of(0.5, 0.2), Mood::Success);
        assert_eq!(mood_of(0.1, 0.0), Mood::Steady);
    }
}
