//! Time in a query: the window a question speaks of ("last week", "yesterday", "in May",
//! "on 29 Dec 2023", "on 25.01.2024", "3 days ago"), so that search can prefer memories that
//! were said or happened then (`occurred_at`). Pure: the caller passes the clock. Dates without a year are
//! the most recent such date not after now; all windows are whole UTC days, widened by a day on
//! each side for dates, since a message sent late one evening is stamped the next day elsewhere.

use std::sync::LazyLock;

use chrono::{DateTime, Datelike, Days, Duration, Months, NaiveDate, Utc, Weekday};
use regex::Regex;
use serde::Serialize;
use utoipa::ToSchema;

/// The time a query speaks of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Window {
    /// The words that named it.
    pub phrase: String,
    pub from: DateTime<Utc>,
    /// Exclusive.
    pub to: DateTime<Utc>,
}

impl Window {
    pub fn contains(&self, t: DateTime<Utc>) -> bool {
        self.from <= t && t < self.to
    }

    /// The time signal of a memory within the window: 1 for a named day (at most three days
    /// wide, with the day given on each side), `score::WIDE_TIME` for a longer time.
    pub fn signal(&self) -> f64 {
        if self.to - self.from <= Duration::days(3) { 1.0 } else { crate::memory::score::WIDE_TIME }
    }
}

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH: &str = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?";

fn month_number(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_lowercase();
    MONTHS.iter().position(|m| w.starts_with(m)).map(|i| i as u32 + 1)
}

static ISO: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b").expect("static"));
/// A numeric date with the year last: `25.01.2024` and `25-01-2024` read day first (as they are
/// written where dots and dashes are used), `01/25/2024` month first unless the first number
/// cannot be a month (`25/01/2024`).
static NUMERIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(\d{1,2})([./-])(\d{1,2})[./-](\d{4})\b").expect("static"));
static DAY_MONTH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i)\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? {MONTH}(?:,? (\d{{4}}))?\b")).expect("static")
});
static MONTH_DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i)\b{MONTH} (\d{{1,2}})(?:st|nd|rd|th)?\b(?:,? (\d{{4}}))?")).expect("static")
});
static MONTH_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i)\b(?:in|during|since|of|last) {MONTH}(?:,? (\d{{4}}))?\b")).expect("static")
});
static AGO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(a|an|one|two|three|four|five|six|seven|\d{1,2}) (day|week|month)s? ago\b").expect("static")
});
static RELATIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(today|tonight|yesterday|last night|this week|last week|past week|this month|last month|this year|last year|last weekend|this weekend|(?:last|on) (monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
    )
    .expect("static")
});

fn day_start(d: NaiveDate) -> DateTime<Utc> {
    d.and_hms_opt(0, 0, 0).expect("midnight").and_utc()
}

/// A window of whole days `[first, last]`, widened by `pad` days each side.
fn days(phrase: &str, first: NaiveDate, last: NaiveDate, pad: u64) -> Window {
    Window {
        phrase: phrase.to_string(),
        from: day_start(first - Days::new(pad)),
        to: day_start(last + Days::new(1 + pad)),
    }
}

/// The most recent date with this month and day not after `today` (or in `year`).
fn dated(today: NaiveDate, month: u32, day: u32, year: Option<i32>) -> Option<NaiveDate> {
    match year {
        Some(y) => NaiveDate::from_ymd_opt(y, month, day),
        None => {
            let this = NaiveDate::from_ymd_opt(today.year(), month, day)?;
            if this <= today { Some(this) } else { NaiveDate::from_ymd_opt(today.year() - 1, month, day) }
        }
    }
}

fn number(word: &str) -> Option<u32> {
    match word.to_lowercase().as_str() {
        "a" | "an" | "one" => Some(1),
        "two" => Some(2),
        "three" => Some(3),
        "four" => Some(4),
        "five" => Some(5),
        "six" => Some(6),
        "seven" => Some(7),
        n => n.parse().ok(),
    }
}

fn weekday(word: &str) -> Option<Weekday> {
    word.parse().ok()
}

static PAST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:before|used? to|previous|previously|formerly|former|originally|at first|no longer|any ?more|until)\b")
        .expect("static")
});

/// Whether `query` asks about what was true before ("where did I live before Lisbon?", "what
/// car did I use to drive?"): then what a newer value replaced is an answer too.
pub fn asks_about_the_past(query: &str) -> bool {
    PAST.is_match(query)
}

/// The window `query` speaks of, if it names one.
pub fn window(query: &str, now: DateTime<Utc>) -> Option<Window> {
    let today = now.date_naive();
    if let Some(c) = ISO.captures(query) {
        let d = NaiveDate::from_ymd_opt(c[1].parse().ok()?, c[2].parse().ok()?, c[3].parse().ok()?)?;
        return Some(days(&c[0], d, d, 1));
    }
    if let Some(c) = NUMERIC.captures(query) {
        let (a, b): (u32, u32) = (c[1].parse().ok()?, c[3].parse().ok()?);
        let (day, month) = if &c[2] == "/" && a <= 12 { (b, a) } else { (a, b) };
        let d = NaiveDate::from_ymd_opt(c[4].parse().ok()?, month, day)?;
        return Some(days(&c[0], d, d, 1));
    }
    if let Some(c) = DAY_MONTH.captures(query) {
        let year = c.get(3).and_then(|y| y.as_str().parse().ok());
        if let Some(d) = dated(today, month_number(&c[2])?, c[1].parse().ok()?, year) {
            return Some(days(&c[0], d, d, 1));
        }
    }
    if let Some(c) = MONTH_DAY.captures(query) {
        let year = c.get(3).and_then(|y| y.as_str().parse().ok());
        if let Some(d) = dated(today, month_number(&c[1])?, c[2].parse().ok()?, year) {
            return Some(days(c[0].trim(), d, d, 1));
        }
    }
    if let Some(c) = MONTH_ONLY.captures(query) {
        let month = month_number(&c[1])?;
        let year = c.get(2).and_then(|y| y.as_str().parse().ok());
        let first = dated(today, month, 1, year)?;
        let last = first.checked_add_months(Months::new(1))? - Days::new(1);
        return Some(days(&c[0], first, last, 1));
    }
    if let Some(c) = AGO.captures(query) {
        let n = number(&c[1])?;
        let (first, last) = match c[2].to_lowercase().as_str() {
            "day" => (today - Days::new(u64::from(n)), today - Days::new(u64::from(n))),
            "week" => (today - Days::new(7 * u64::from(n) + 3), today - Days::new(7 * u64::from(n) - 3)),
            _ => {
                let mid = today.checked_sub_months(Months::new(n))?;
                (mid - Days::new(15), mid + Days::new(15))
            }
        };
        return Some(days(&c[0], first, last.min(today), 1));
    }
    if let Some(c) = RELATIVE.captures(query) {
        let phrase = c[0].to_lowercase();
        let monday = today - Days::new(u64::from(today.weekday().num_days_from_monday()));
        let month_start = today.with_day(1)?;
        let (first, last) = match phrase.as_str() {
            "today" | "tonight" => (today, today),
            "yesterday" | "last night" => (today - Days::new(1), today - Days::new(1)),
            "this week" => (monday, today),
            "last week" | "past week" => (monday - Days::new(7), monday - Days::new(1)),
            "this weekend" | "last weekend" => {
                let saturday = if phrase == "this weekend" && today.weekday().num_days_from_monday() >= 5 {
                    monday + Days::new(5)
                } else {
                    monday - Days::new(2)
                };
                (saturday, saturday + Days::new(1))
            }
            "this month" => (month_start, today),
            "last month" => {
                let first = month_start.checked_sub_months(Months::new(1))?;
                (first, month_start - Days::new(1))
            }
            "this year" => (NaiveDate::from_ymd_opt(today.year(), 1, 1)?, today),
            "last year" => {
                (NaiveDate::from_ymd_opt(today.year() - 1, 1, 1)?, NaiveDate::from_ymd_opt(today.year() - 1, 12, 31)?)
            }
            _ => {
                let wd = weekday(c.get(2)?.as_str())?;
                let back = (7 + today.weekday().num_days_from_monday() - wd.num_days_from_monday()) % 7;
                let back = if back == 0 { 7 } else { back };
                let d = today - Days::new(u64::from(back));
                (d, d)
            }
        };
        let pad = u64::from(last - first < Duration::days(2));
        return Some(days(&c[0], first, last, pad));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_about_the_past() {
        for q in [
            "Where did I live before Lisbon?",
            "what car did I use to drive",
            "my previous job",
            "Is Ana no longer in Porto?",
        ] {
            assert!(asks_about_the_past(q), "{q}");
        }
        for q in ["Where do I live?", "What did I do last week?", "beforehand"] {
            assert!(!asks_about_the_past(q), "{q}");
        }
    }

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn span(q: &str, now: &str) -> Option<(String, String)> {
        window(q, at(now)).map(|w| (w.from.date_naive().to_string(), w.to.date_naive().to_string()))
    }

    fn pair(a: &str, b: &str) -> Option<(String, String)> {
        Some((a.to_string(), b.to_string()))
    }

    #[test]
    fn absolute_dates_are_that_day_give_or_take_one() {
        let now = "2026-11-27T12:00:00Z";
        assert_eq!(span("What pasta did Kate make on 29 Dec 2023?", now), pair("2023-12-28", "2023-12-31"));
        assert_eq!(span("what happened on March 3rd", now), pair("2026-03-02", "2026-03-05"));
        assert_eq!(span("the meeting on 2024-01-12", now), pair("2024-01-11", "2024-01-14"));
        assert_eq!(span("Which meeting did Paola have on 25.01.2024?", now), pair("2024-01-24", "2024-01-27"));
        assert_eq!(span("on 04-03-2024", now), pair("2024-03-03", "2024-03-06"));
        assert_eq!(span("on 02/03/2024", now), pair("2024-02-02", "2024-02-05"));
        assert_eq!(span("on 25/01/2024", now), pair("2024-01-24", "2024-01-27"));
        // no year: the most recent such day
        assert_eq!(span("what did I do on December 20", now), pair("2025-12-19", "2025-12-22"));
    }

    #[test]
    fn months_and_relative_words() {
        let now = "2026-11-27T12:00:00Z"; // a Friday
        assert_eq!(span("where did I travel in May", now), pair("2026-04-30", "2026-06-02"));
        assert_eq!(span("in December 2023", now), pair("2023-11-30", "2024-01-02"));
        assert_eq!(span("what did I eat yesterday", now), pair("2026-11-25", "2026-11-28"));
        assert_eq!(span("what did I do last week", now), pair("2026-11-16", "2026-11-23"));
        assert_eq!(span("who did I meet last Tuesday", now), pair("2026-11-23", "2026-11-26"));
        assert_eq!(span("something from 3 days ago", now), pair("2026-11-23", "2026-11-26"));
        assert_eq!(span("last month", now), pair("2026-10-01", "2026-11-01"));
    }

    #[test]
    fn no_time_no_window() {
        let now = at("2026-11-27T12:00:00Z");
        assert_eq!(window("where does Dana live", now), None);
        assert_eq!(window("may I ask what you like", now), None);
        assert_eq!(window("I have 12 cats", now), None);
        // not a day of any calendar, nor a date without its year
        assert_eq!(window("the score was 31.13.2024", now), None);
        assert_eq!(window("reading \"11/22/63\" by Stephen King", now), None);
    }
}
