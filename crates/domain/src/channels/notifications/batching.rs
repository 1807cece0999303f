//! Smart batching (seed 001 §10.4), as pure rules:
//!
//! | mode          | urgent                | routine                                  |
//! |---------------|-----------------------|------------------------------------------|
//! | `instant`     | at once               | at once (outside quiet hours)            |
//! | `smart`       | at once               | queued; flushed as a digest              |
//! | `digest_only` | queued; in the digest | queued; flushed as a digest              |
//!
//! A queue is flushed when it holds 2 or more items, when its oldest item is older than
//! 8 hours, or when 4 hours have passed since the last flush (since the oldest item, before the
//! first flush). Quiet hours, in the agent's timezone, hold everything but urgent items.

use chrono::{DateTime, Duration, NaiveTime, Utc};
use chrono_tz::Tz;

pub const FLUSH_EVERY: Duration = Duration::hours(4);
pub const FLUSH_AT_COUNT: usize = 2;
pub const FLUSH_OLDEST: Duration = Duration::hours(8);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Instant,
    DigestOnly,
    Smart,
}

impl Mode {
    /// The stored setting; anything unknown is the default, `smart`.
    pub fn parse(s: &str) -> Mode {
        match s {
            "instant" => Mode::Instant,
            "digest_only" => Mode::DigestOnly,
            _ => Mode::Smart,
        }
    }
}

/// Whether an item goes out on its own now (else it waits for a digest).
pub fn goes_alone(mode: Mode, urgent: bool, quiet: bool) -> bool {
    match mode {
        Mode::DigestOnly => false,
        Mode::Smart => urgent,
        Mode::Instant => urgent || !quiet,
    }
}

/// Whether the queued items (their creation times) are flushed as a digest now.
pub fn flush_due(now: DateTime<Utc>, queued: &[DateTime<Utc>], last_flush: Option<DateTime<Utc>>, quiet: bool) -> bool {
    let Some(oldest) = queued.iter().min() else { return false };
    if quiet {
        return false;
    }
    queued.len() >= FLUSH_AT_COUNT || now - *oldest > FLUSH_OLDEST || now - last_flush.unwrap_or(*oldest) >= FLUSH_EVERY
}

/// Whether `now` is inside the quiet hours `start`–`end` (`HH:MM`, in `timezone`); a window
/// whose end is before its start runs overnight. An unknown timezone counts as UTC; a window
/// that does not parse holds nothing.
pub fn quiet(now: DateTime<Utc>, timezone: &str, start: &str, end: &str) -> bool {
    let (Ok(start), Ok(end)) = (NaiveTime::parse_from_str(start, "%H:%M"), NaiveTime::parse_from_str(end, "%H:%M"))
    else {
        return false;
    };
    let tz: Tz = timezone.parse().unwrap_or(chrono_tz::UTC);
    let local = now.with_timezone(&tz).time();
    if start <= end { local >= start && local < end } else { local >= start || local < end }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn urgent_items_go_at_once_except_in_digest_only_mode() {
        assert!(goes_alone(Mode::Smart, true, true), "urgent beats quiet hours");
        assert!(!goes_alone(Mode::Smart, false, false));
        assert!(goes_alone(Mode::Instant, false, false));
        assert!(!goes_alone(Mode::Instant, false, true), "quiet hours hold routine items");
        assert!(!goes_alone(Mode::DigestOnly, true, false));
        assert_eq!(Mode::parse("loud"), Mode::Smart);
    }

    #[test]
    fn a_queue_flushes_at_two_items_after_eight_hours_or_every_four() {
        let now = at("2026-11-24T12:00:00Z");
        let h = |n: i64| now - Duration::hours(n);
        assert!(!flush_due(now, &[], None, false));
        assert!(!flush_due(now, &[h(1)], None, false), "one fresh item waits");
        assert!(flush_due(now, &[h(1), now], None, false), "two items flush");
        assert!(flush_due(now, &[h(4)], None, false), "four hours after the first item");
        assert!(!flush_due(now, &[h(3)], Some(h(2)), false));
        assert!(flush_due(now, &[now], Some(h(4)), false), "four hours since the last flush");
        assert!(flush_due(now, &[h(9)], Some(now), false), "the oldest is over 8 hours old");
        assert!(!flush_due(now, &[h(9), h(1)], None, true), "quiet hours hold the digest");
    }

    #[test]
    fn quiet_hours_are_read_in_the_agents_timezone_and_may_run_overnight() {
        // 23:30 in Vienna (UTC+1 in November).
        let t = at("2026-11-24T22:30:00Z");
        assert!(quiet(t, "Europe/Vienna", "22:00", "07:00"));
        assert!(!quiet(t, "UTC", "23:00", "07:00"), "22:30 UTC is before 23:00");
        assert!(quiet(t, "UTC", "22:00", "23:00"));
        assert!(!quiet(t, "America/New_York", "22:00", "07:00"), "17:30 in New York");
        assert!(quiet(at("2026-11-24T05:00:00Z"), "Europe/Vienna", "22:00", "07:00"), "06:00 the next morning");
        assert!(!quiet(t, "Europe/Vienna", "25:00", "07:00"));
        assert!(quiet(t, "Not/AZone", "22:00", "23:00"), "unknown zones count as UTC");
    }
}
