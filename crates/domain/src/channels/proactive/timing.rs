//! When a proactive item goes (seed 000 §5.4.3), pure: `urgent_now` at once, even in quiet
//! hours; `next_morning` at the first active hour after the night; `active_hours` in the next
//! hour the owner usually writes in; `next_active` when the owner next writes. Quiet hours in
//! the agent's timezone hold everything but urgent.

use chrono::{DateTime, Duration, NaiveTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    UrgentNow,
    NextMorning,
    ActiveHours,
    NextActive,
}

impl Timing {
    pub fn as_str(self) -> &'static str {
        match self {
            Timing::UrgentNow => "urgent_now",
            Timing::NextMorning => "next_morning",
            Timing::ActiveHours => "active_hours",
            Timing::NextActive => "next_active",
        }
    }
}

/// Fewer owner messages than this in the learning window: the default day (09–21) stands in
/// for the owner's active hours.
pub const MIN_MESSAGES_TO_LEARN: i64 = 10;
const DEFAULT_ACTIVE: std::ops::Range<usize> = 9..21;

/// The owner's day as the agent knows it: timezone, quiet hours and the hours they write in.
#[derive(Debug, Clone)]
pub struct Day {
    pub tz: Tz,
    pub quiet: Option<(NaiveTime, NaiveTime)>,
    pub active: [bool; 24],
    /// The owner writes less than once a day on average (learned over the window; unknown
    /// below `MIN_MESSAGES_TO_LEARN` messages): what waits for their next message could wait
    /// for days, so it goes in their active hours instead.
    pub rarely_writes: bool,
}

/// The days the owner's messages per hour are counted over (`Day::new`'s `counts`).
pub const LEARNING_DAYS: i64 = 30;

impl Day {
    /// From the agent's settings and the owner's messages per local hour (`counts[h]`).
    pub fn new(timezone: &str, quiet: Option<(&str, &str)>, counts: &[i64; 24]) -> Day {
        let tz: Tz = timezone.parse().unwrap_or(chrono_tz::UTC);
        let quiet = quiet.and_then(|(s, e)| {
            Some((NaiveTime::parse_from_str(s, "%H:%M").ok()?, NaiveTime::parse_from_str(e, "%H:%M").ok()?))
        });
        let total: i64 = counts.iter().sum();
        let mut active = [false; 24];
        if total < MIN_MESSAGES_TO_LEARN {
            for h in DEFAULT_ACTIVE {
                active[h] = true;
            }
        } else {
            // An hour with at least 4% of the owner's messages is one they are usually around.
            let floor = (total as f64 * 0.04).ceil().max(1.0) as i64;
            for (h, c) in counts.iter().enumerate() {
                active[h] = *c >= floor;
            }
        }
        let rarely_writes = (MIN_MESSAGES_TO_LEARN..LEARNING_DAYS).contains(&total);
        Day { tz, quiet, active, rarely_writes }
    }

    pub fn is_quiet(&self, at: DateTime<Utc>) -> bool {
        let Some((start, end)) = self.quiet else { return false };
        let local = at.with_timezone(&self.tz).time();
        if start <= end { local >= start && local < end } else { local >= start || local < end }
    }

    fn local_hour(&self, at: DateTime<Utc>) -> usize {
        at.with_timezone(&self.tz).hour() as usize
    }

    /// The start of the local hour after `at`.
    fn next_hour(&self, at: DateTime<Utc>) -> DateTime<Utc> {
        let local = at.with_timezone(&self.tz);
        let top = local.date_naive().and_hms_opt(local.hour(), 0, 0).expect("a valid hour");
        let start = self.tz.from_local_datetime(&top).earliest().map(|t| t.with_timezone(&Utc)).unwrap_or(at);
        start + Duration::hours(1)
    }

    /// The first hour of the owner's day (after the night), 9 when nothing is learned.
    pub fn first_active_hour(&self) -> usize {
        // The day starts at the first active hour after the longest inactive run.
        let mut best = (0usize, 0usize); // (run length, hour after the run)
        for start in 0..24 {
            if self.active[start] {
                continue;
            }
            let mut len = 0;
            while len < 24 && !self.active[(start + len) % 24] {
                len += 1;
            }
            if len > best.0 && len < 24 {
                best = (len, (start + len) % 24);
            }
        }
        if best.0 == 0 { 9 } else { best.1 }
    }

    /// When an item with this timing goes, seen at `now`; `None` for `next_active` (it waits for
    /// the owner's next message).
    pub fn deliver_at(&self, timing: Timing, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let first = match timing {
            Timing::UrgentNow => return Some(now),
            Timing::NextActive => return None,
            Timing::NextMorning => {
                let h = self.first_active_hour();
                let mut at = self.next_hour(now);
                for _ in 0..48 {
                    if self.local_hour(at) == h {
                        break;
                    }
                    at += Duration::hours(1);
                }
                at
            }
            Timing::ActiveHours => {
                if self.active[self.local_hour(now)] && !self.is_quiet(now) {
                    return Some(now);
                }
                let mut at = self.next_hour(now);
                for _ in 0..48 {
                    if self.active[self.local_hour(at)] && !self.is_quiet(at) {
                        break;
                    }
                    at += Duration::hours(1);
                }
                at
            }
        };
        Some(self.outside_quiet(first))
    }

    /// `at`, or the end of the quiet hours it falls in.
    pub fn outside_quiet(&self, at: DateTime<Utc>) -> DateTime<Utc> {
        let mut t = at;
        for _ in 0..48 {
            if !self.is_quiet(t) {
                return t;
            }
            t = self.next_hour(t);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn an_owner_who_writes_less_than_daily_is_known_only_from_enough_messages() {
        let counts = |total: i64| {
            let mut c = [0i64; 24];
            c[10] = total;
            c
        };
        // Too few to tell (a new owner), at least one a day, and fewer: 12 in 30 days.
        assert!(!Day::new("UTC", None, &counts(5)).rarely_writes);
        assert!(!Day::new("UTC", None, &counts(45)).rarely_writes);
        assert!(Day::new("UTC", None, &counts(12)).rarely_writes);
    }

    #[test]
    fn next_morning_is_the_first_active_hour_in_the_owners_timezone() {
        let day = Day::new("America/New_York", Some(("22:00", "07:00")), &[0; 24]);
        // 23:30 in New York (04:30 UTC): the morning is 09:00 New York, 13:00 UTC (EST, UTC-5).
        assert_eq!(day.deliver_at(Timing::NextMorning, at("2026-11-25T04:30:00Z")), Some(at("2026-11-25T14:00:00Z")));
        // 08:10 New York: still this morning's 09:00.
        assert_eq!(day.deliver_at(Timing::NextMorning, at("2026-11-25T13:10:00Z")), Some(at("2026-11-25T14:00:00Z")));
        // 10:00 New York: tomorrow's.
        assert_eq!(day.deliver_at(Timing::NextMorning, at("2026-11-25T15:00:00Z")), Some(at("2026-11-26T14:00:00Z")));
    }

    #[test]
    fn urgent_ignores_quiet_hours_the_rest_waits_for_them_to_end() {
        let day = Day::new("UTC", Some(("22:00", "07:00")), &[0; 24]);
        let night = at("2026-11-25T23:15:00Z");
        assert!(day.is_quiet(night));
        assert_eq!(day.deliver_at(Timing::UrgentNow, night), Some(night));
        assert_eq!(day.deliver_at(Timing::ActiveHours, night), Some(at("2026-11-26T09:00:00Z")));
        assert_eq!(day.deliver_at(Timing::NextActive, night), None);
        // Active in the afternoon: at once.
        let afternoon = at("2026-11-25T15:20:00Z");
        assert_eq!(day.deliver_at(Timing::ActiveHours, afternoon), Some(afternoon));
    }

    #[test]
    fn active_hours_are_learned_from_when_the_owner_writes() {
        let mut counts = [0i64; 24];
        // Mornings before work and evenings; the longest silence is the night.
        for h in [7, 8, 9, 17, 18, 19, 20, 21, 22] {
            counts[h] = 10;
        }
        let day = Day::new("UTC", None, &counts);
        assert_eq!(day.first_active_hour(), 7, "the owner's day starts at seven");
        assert_eq!(day.deliver_at(Timing::ActiveHours, at("2026-11-25T12:00:00Z")), Some(at("2026-11-25T17:00:00Z")));
        assert_eq!(day.deliver_at(Timing::NextMorning, at("2026-11-25T12:00:00Z")), Some(at("2026-11-26T07:00:00Z")));
        // Too few messages to learn from: the default day.
        let mut few = [0i64; 24];
        few[3] = 5;
        let day = Day::new("UTC", None, &few);
        assert!(day.active[9] && !day.active[3]);
    }
}
