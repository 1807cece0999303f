//! What the scanner and inner thoughts find, before it is acted on: its kind of signal, the dial
//! level it needs, its timing, and what the agent says about it in the owner's words.

use chrono::{DateTime, Datelike, Utc};
use uuid::Uuid;

use super::rules::Level;
use super::scan::STALE_DAYS;
use super::timing::{Day, Timing};

/// Something the scanner found, before diagnosis.
#[derive(Debug, Clone)]
pub struct Found {
    /// `deadline`, `unresolved_question`, `stale`, `distress`, `follow_up`, `todo`, `reminder`.
    pub signal: &'static str,
    pub description: String,
    pub due_in_hours: Option<f64>,
    pub age_days: Option<f64>,
    pub dedup_key: String,
    pub conversation_id: Option<Uuid>,
    /// When the owner said it (questions, follow-ups).
    pub said_at: Option<DateTime<Utc>>,
}

impl Found {
    pub(super) fn level(&self) -> Level {
        match self.signal {
            "deadline" if self.due_in_hours.is_some_and(|h| h <= 24.0) => Level::Urgent,
            "reminder" => Level::Urgent,
            "follow_up" => Level::Speculative,
            _ => Level::Information,
        }
    }

    /// When it goes: a follow-up waits for the owner's next message, unless the owner writes
    /// less than once a day (then it goes in their active hours, while it still matters).
    pub(super) fn timing(&self, level: Level, day: &Day) -> Timing {
        match (level, self.signal) {
            (Level::Urgent, _) => Timing::UrgentNow,
            (_, "unresolved_question") => Timing::NextMorning,
            (_, "follow_up") if day.rarely_writes => Timing::ActiveHours,
            (_, "follow_up") => Timing::NextActive,
            _ => Timing::ActiveHours,
        }
    }

    pub(super) fn kind(&self) -> &'static str {
        if matches!(self.signal, "todo" | "reminder") { "task" } else { "check_in" }
    }

    /// What the agent says (or the task's title), grounded in what the owner said.
    pub(super) fn message(&self, now: DateTime<Utc>, day: &Day) -> String {
        let d = &self.description;
        match self.signal {
            "unresolved_question" => format!(
                "You asked me \u{201c}{d}\u{201d} {} and I could not answer it then. Shall we look at it again?",
                when(self.said_at.unwrap_or(now), now, day)
            ),
            "deadline" => {
                let h = self.due_in_hours.unwrap_or(0.0);
                let due = if h < 1.0 {
                    "within the hour".to_string()
                } else if h <= 24.0 {
                    format!("in about {h:.0} hours")
                } else {
                    format!("in {:.0} days", h / 24.0)
                };
                format!("A reminder: \u{201c}{d}\u{201d} is due {due}. Is there anything I can help with?")
            }
            "stale" => format!(
                "You told me {:.0} days ago: \u{201c}{d}\u{201d}. We have not talked about it since. Is it still on your mind?",
                self.age_days.unwrap_or(STALE_DAYS as f64)
            ),
            "distress" => "You seemed to be having a hard time lately. I am here if you want to talk.".to_string(),
            "follow_up" => format!("You mentioned \u{201c}{d}\u{201d}. How did it go?"),
            _ => d.clone(),
        }
    }
}

/// "today", "yesterday" or "on Monday", in the owner's timezone.
fn when(said: DateTime<Utc>, now: DateTime<Utc>, day: &Day) -> String {
    let (s, n) = (said.with_timezone(&day.tz).date_naive(), now.with_timezone(&day.tz).date_naive());
    match (n - s).num_days() {
        0 => "today".into(),
        1 => "yesterday".into(),
        _ => format!("on {}", s.weekday()),
    }
}

/// A text on one line, cut to `max` characters (with an ellipsis).
pub(super) fn one_line(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follow_up_waits_for_the_next_message_unless_the_owner_rarely_writes() {
        let f = Found {
            signal: "follow_up",
            description: "the job interview".into(),
            due_in_hours: None,
            age_days: None,
            dedup_key: "k".into(),
            conversation_id: None,
            said_at: None,
        };
        let mut counts = [0i64; 24];
        counts[10] = 60;
        let daily = Day::new("UTC", None, &counts);
        counts[10] = 12;
        let rare = Day::new("UTC", None, &counts);
        assert_eq!(f.timing(Level::Speculative, &daily), Timing::NextActive);
        assert_eq!(f.timing(Level::Speculative, &rare), Timing::ActiveHours);
    }
}
