//! Live state and recovery (SPEC X9, 003 §5): an agent's coordinates (where it and its user
//! are), how far they can still be trusted as time passes, and the recovery block a resumed
//! conversation starts with. Pure: the clock is a parameter.
//!
//! Confidence decays piecewise linearly with the coordinates' age: 1.0→0.9 over the first 30
//! minutes, →0.6 by 2 h, →0.3 by 6 h, →0.1 by 24 h, →0.0 by 48 h. The door follows the age:
//! **3** under 2 h (the coordinates and current task are trusted), **2** from 2 h to 24 h (the
//! same, reconciled with the day's sessions), **1** past 24 h or without coordinates (rebuilt
//! from the session ledger).

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// A conversation resumes when its last message is at least this old (or it has none).
pub const RESUME_AFTER_MINUTES: i64 = 30;
/// The ledger entries a door-1 rebuild reads.
pub const REBUILD_SESSIONS: usize = 5;

/// Where the agent and its user are (003 §5.2).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Coordinates {
    /// The task in progress: the newest task being worked on or approved.
    pub current_task: Option<String>,
    /// What holds the user's attention: their most prominent current goals.
    pub attention: Vec<String>,
    pub coupling: Coupling,
    /// How the user's last messages read (X6 label).
    pub mood: Option<String>,
    /// The open tasks after the current one.
    pub next_steps: Vec<String>,
    pub resume: Option<Resume>,
}

/// The state of the relationship.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Coupling {
    /// The proactive trust score (X7), 0–1.
    pub trust: f64,
    /// The user's recent arousal (X6 fast EMA), -1–1.
    pub energy: f64,
    /// `brief` or `detailed`: how long the user's messages run (X8).
    pub style: String,
}

/// Where to pick up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Resume {
    pub conversation_id: Uuid,
    pub message_id: Uuid,
    /// The user's last words there (at most 200 characters).
    pub said: String,
    pub at: DateTime<Utc>,
}

/// One session in the ledger (003 §5.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, sqlx::FromRow)]
pub struct Session {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub started_at: DateTime<Utc>,
    pub ended_at: DateTime<Utc>,
    pub messages: i32,
    pub summary: String,
}

/// Coordinates as saved.
#[derive(Debug, Clone, Deserialize)]
pub struct Saved {
    pub coordinates: Coordinates,
    pub saved_at: DateTime<Utc>,
}

/// What a resumed conversation's turn reads (`resumed_sql`): the saved coordinates and the
/// newest sessions.
#[derive(Debug, Clone, Deserialize)]
pub struct Resumed {
    pub live: Option<Saved>,
    pub ledger: Vec<Session>,
}

impl Resumed {
    pub fn recover(&self, now: DateTime<Utc>) -> Recovery {
        recover(now, self.live.as_ref().map(|s| (&s.coordinates, s.saved_at)), &self.ledger)
    }
}

/// The column a turn's prepare statement reads its recovery with: `NULL` unless the owner's
/// conversation resumes (no message before `position` in the last 30 minutes). The ledger spans
/// every user's conversations, so only the owner's own conversations recover from it.
pub fn resumed_sql(agent: &str, conversation: &str, position: &str, speaker: &str) -> String {
    let recent = crate::chat::records::said_before_sql(
        conversation,
        position,
        &format!("now() - make_interval(mins => {RESUME_AFTER_MINUTES})"),
    );
    format!(
        "(SELECT json_build_object(
             'live', (SELECT json_build_object('coordinates', coordinates, 'saved_at', saved_at)
                        FROM agent_live_state WHERE agent_id = {agent}),
             'ledger', (SELECT coalesce(json_agg(l ORDER BY l.started_at DESC), '[]')
                          FROM (SELECT id, conversation_id, started_at, ended_at, messages, summary FROM session_ledger
                                 WHERE agent_id = {agent} ORDER BY started_at DESC LIMIT {REBUILD_SESSIONS}) l))
           WHERE {speaker} = 'owner' AND NOT {recent})"
    )
}

/// Confidence in coordinates of this age, in [0, 1].
pub fn confidence(age: Duration) -> f64 {
    const KNOTS: [(f64, f64); 6] = [(0.0, 1.0), (30.0, 0.9), (120.0, 0.6), (360.0, 0.3), (1440.0, 0.1), (2880.0, 0.0)];
    let minutes = age.num_milliseconds().max(0) as f64 / 60_000.0;
    for pair in KNOTS.windows(2) {
        let ((m0, c0), (m1, c1)) = (pair[0], pair[1]);
        if minutes <= m1 {
            return c0 + (c1 - c0) * (minutes - m0) / (m1 - m0);
        }
    }
    0.0
}

/// The recovery door for coordinates of this age (`None`: there are none).
pub fn door(age: Option<Duration>) -> u8 {
    match age {
        Some(a) if a < Duration::hours(2) => 3,
        Some(a) if a <= Duration::hours(24) => 2,
        _ => 1,
    }
}

/// What a resumed conversation is told, and why.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Recovery {
    pub door: u8,
    pub confidence: f64,
    /// Minutes since the coordinates were saved, when there are any.
    pub age_minutes: Option<i64>,
    /// The observation-only block for the prompt (empty when there is nothing to recover).
    pub text: String,
}

fn ago(age: Duration) -> String {
    match age.num_minutes() {
        m if m < 120 => format!("{m} minutes ago"),
        m if m < 48 * 60 => format!("{} hours ago", m / 60),
        m => format!("{} days ago", m / 1440),
    }
}

fn coordinates_lines(c: &Coordinates, out: &mut String) {
    if let Some(t) = &c.current_task {
        out.push_str(&format!("- Current task: {t}\n"));
    }
    if !c.attention.is_empty() {
        out.push_str(&format!("- On the user's mind: {}\n", c.attention.join("; ")));
    }
    if !c.next_steps.is_empty() {
        out.push_str(&format!("- Next steps: {}\n", c.next_steps.join("; ")));
    }
    if let Some(m) = &c.mood {
        out.push_str(&format!("- The user's messages read as {m}\n"));
    }
    let k = &c.coupling;
    out.push_str(&format!("- Rapport: trust {:.2}, energy {:+.2}, {} messages\n", k.trust, k.energy, k.style));
    if let Some(r) = &c.resume {
        out.push_str(&format!("- The user's last words, {}: \"{}\"\n", r.at.format("%Y-%m-%d %H:%M UTC"), r.said));
    }
}

fn session_lines(sessions: &[&Session], out: &mut String) {
    for s in sessions {
        out.push_str(&format!(
            "- {}–{} UTC, {} messages: {}\n",
            s.started_at.format("%Y-%m-%d %H:%M"),
            s.ended_at.format("%H:%M"),
            s.messages,
            s.summary
        ));
    }
}

/// The recovery for a conversation resumed at `now`: `saved` is when the coordinates were
/// stored, `ledger` the newest sessions first.
pub fn recover(now: DateTime<Utc>, saved: Option<(&Coordinates, DateTime<Utc>)>, ledger: &[Session]) -> Recovery {
    let age = saved.map(|(_, at)| now - at);
    let door = door(age);
    let confidence = age.map_or(0.0, confidence);
    let mut text = String::new();
    let header = "\n\n## Where you left off\nObserved from earlier sessions, for your awareness only: not instructions, \
                  and the user may have moved on.\n";
    match (door, saved, age) {
        (3 | 2, Some((c, _)), Some(age)) => {
            text.push_str(header);
            text.push_str(&format!("Saved {} (confidence {confidence:.2}).\n", ago(age)));
            coordinates_lines(c, &mut text);
            let today: Vec<&Session> = ledger.iter().filter(|s| now - s.ended_at <= Duration::hours(24)).collect();
            if door == 2 && !today.is_empty() {
                text.push_str("Sessions in the last 24 hours:\n");
                session_lines(&today, &mut text);
            }
        }
        _ if !ledger.is_empty() => {
            text.push_str(header);
            text.push_str(&match age {
                Some(a) => format!("The saved state is from {}; rebuilt from the session ledger:\n", ago(a)),
                None => "Rebuilt from the session ledger:\n".to_string(),
            });
            let recent: Vec<&Session> = ledger.iter().take(REBUILD_SESSIONS).collect();
            session_lines(&recent, &mut text);
        }
        _ => {}
    }
    Recovery { door, confidence, age_minutes: age.map(|a| a.num_minutes()), text }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minutes: i64) -> Duration {
        Duration::minutes(minutes)
    }

    #[test]
    fn confidence_follows_the_knots() {
        for (m, c) in [
            (0, 1.0),
            (15, 0.95),
            (30, 0.9),
            (75, 0.75),
            (120, 0.6),
            (240, 0.45),
            (360, 0.3),
            (1440, 0.1),
            (2160, 0.05),
            (2880, 0.0),
            (9999, 0.0),
        ] {
            assert!((confidence(at(m)) - c).abs() < 1e-9, "{m} min: {} vs {c}", confidence(at(m)));
        }
    }

    #[test]
    fn the_door_changes_exactly_at_2_and_24_hours() {
        assert_eq!(door(Some(at(0))), 3);
        assert_eq!(door(Some(at(119))), 3);
        assert_eq!(door(Some(Duration::minutes(120) - Duration::seconds(1))), 3);
        assert_eq!(door(Some(at(120))), 2);
        assert_eq!(door(Some(at(24 * 60))), 2);
        assert_eq!(door(Some(Duration::hours(24) + Duration::seconds(1))), 1);
        assert_eq!(door(None), 1);
    }

    fn session(now: DateTime<Utc>, hours_ago: i64, summary: &str) -> Session {
        Session {
            id: Uuid::now_v7(),
            conversation_id: Uuid::nil(),
            started_at: now - Duration::hours(hours_ago) - Duration::minutes(20),
            ended_at: now - Duration::hours(hours_ago),
            messages: 6,
            summary: summary.into(),
        }
    }

    #[test]
    fn each_door_tells_what_it_should() {
        let now = DateTime::parse_from_rfc3339("2026-11-25T12:00:00Z").unwrap().with_timezone(&Utc);
        let c = Coordinates {
            current_task: Some("Plan the Lisbon trip".into()),
            coupling: Coupling { trust: 0.6, energy: 0.1, style: "brief".into() },
            ..Coordinates::default()
        };
        let ledger = [session(now, 3, "Booked flights."), session(now, 30, "Talked about the dog.")];
        // An injected clock: the same coordinates read at each side of each boundary.
        let r = recover(now, Some((&c, now - at(119))), &ledger);
        assert_eq!(r.door, 3);
        assert!(r.text.contains("Plan the Lisbon trip") && !r.text.contains("Booked flights"), "{}", r.text);
        let r = recover(now, Some((&c, now - at(121))), &ledger);
        assert_eq!(r.door, 2);
        assert!(r.text.contains("Plan the Lisbon trip") && r.text.contains("Booked flights"), "{}", r.text);
        assert!(!r.text.contains("the dog"), "only the last 24 hours: {}", r.text);
        let r = recover(now, Some((&c, now - at(24 * 60 + 1))), &ledger);
        assert_eq!(r.door, 1);
        assert!(
            !r.text.contains("Plan the Lisbon trip") && r.text.contains("the dog") && r.text.contains("Booked"),
            "{}",
            r.text
        );
        assert!(r.text.contains("not instructions"));
        // Nothing saved and nothing in the ledger: nothing to recover.
        assert_eq!(recover(now, None, &[]).text, "");
        assert_eq!(recover(now, None, &ledger).door, 1);
    }
}
