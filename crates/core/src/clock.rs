//! Where "now" comes from for rules computed in Rust (the database keeps its own `now()`).

use chrono::{DateTime, Utc};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    System,
    /// A fixed instant, for tests of time-dependent rules.
    Fixed(DateTime<Utc>),
}

impl Clock {
    pub fn now(&self) -> DateTime<Utc> {
        match self {
            Clock::System => Utc::now(),
            Clock::Fixed(t) => *t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_stands_still_and_the_system_clock_moves_on() {
        let t = DateTime::parse_from_rfc3339("2026-01-02T03:04:05Z").unwrap().with_timezone(&Utc);
        assert_eq!(Clock::Fixed(t).now(), t);
        let (a, b) = (Clock::System.now(), Clock::System.now());
        assert!(b >= a && a > t);
    }
}
