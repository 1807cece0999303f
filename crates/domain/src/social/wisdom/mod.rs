//! The wisdom engine (SPEC S2, seed 001 §10.1): a curated collection of real, attributed
//! teachings kept as data (`data/wisdom/teachings.json`, public-domain works only, each with the
//! work it is from), and a choice among them that costs no model call.
//!
//! A teaching is scored against the moment: the part of the day in the agent's timezone
//! (morning → motivation, evening → reflection, night → philosophy), the agent's growth phase
//! (mirror → curiosity, opinion → confidence, agent → leadership) and, when the owner's affect is
//! known, their mood (struggle → resilience, success → legacy). A rotation seed made of the day
//! and the ISO week breaks ties differently each day, so the same moment does not always bring the
//! same words; and no two teachings of one batch share an author.

pub mod context;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use chrono::{Datelike, NaiveDateTime, Timelike};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One teaching, as the collection holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Teaching {
    pub text: String,
    /// Who said or wrote it.
    pub author: String,
    /// The work it is from, with the translator and year for a translation.
    pub source: String,
    /// When the work was written or first published (negative: BCE).
    pub year: i32,
    /// One to three of `THEMES`, the most fitting first.
    pub themes: Vec<String>,
}

/// Every theme a teaching may carry.
pub const THEMES: [&str; 24] = [
    "motivation",
    "discipline",
    "courage",
    "resilience",
    "patience",
    "curiosity",
    "learning",
    "confidence",
    "leadership",
    "legacy",
    "reflection",
    "philosophy",
    "change",
    "time",
    "simplicity",
    "friendship",
    "kindness",
    "work",
    "creativity",
    "purpose",
    "gratitude",
    "humility",
    "focus",
    "nature",
];

/// The collection, parsed once from the data the binary carries (checked by the tests below).
pub static COLLECTION: LazyLock<Vec<Teaching>> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../../../../data/wisdom/teachings.json"))
        .expect("data/wisdom/teachings.json is valid (checked by the wisdom tests)")
});

/// The part of the day, in the agent's timezone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DayPart {
    /// 05:00–11:59
    Morning,
    /// 12:00–17:59
    Afternoon,
    /// 18:00–21:59
    Evening,
    /// 22:00–04:59
    Night,
}

impl DayPart {
    pub fn of(hour: u32) -> DayPart {
        match hour {
            5..=11 => DayPart::Morning,
            12..=17 => DayPart::Afternoon,
            18..=21 => DayPart::Evening,
            _ => DayPart::Night,
        }
    }

    fn themes(self) -> &'static [&'static str] {
        match self {
            DayPart::Morning => &["motivation", "discipline", "courage", "focus"],
            DayPart::Afternoon => &["work", "focus", "learning", "creativity"],
            DayPart::Evening => &["reflection", "gratitude", "friendship", "kindness"],
            DayPart::Night => &["philosophy", "time", "nature", "simplicity"],
        }
    }
}

/// How far the agent has grown: `mirror` before its first reflection, `opinion` once it has
/// reflected, `agent` once it acts on its own (a task done, an email sent, a post).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Mirror,
    Opinion,
    Agent,
}

impl Phase {
    fn themes(self) -> &'static [&'static str] {
        match self {
            Phase::Mirror => &["curiosity", "learning"],
            Phase::Opinion => &["confidence", "courage", "reflection"],
            Phase::Agent => &["leadership", "purpose", "legacy"],
        }
    }
}

/// The owner's mood, read from the affect the platform keeps (seed 000 §4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mood {
    Struggle,
    Steady,
    Success,
}

impl Mood {
    fn themes(self) -> &'static [&'static str] {
        match self {
            Mood::Struggle => &["resilience", "patience", "courage"],
            Mood::Steady => &[],
            Mood::Success => &["legacy", "humility", "gratitude"],
        }
    }
}

/// The moment a choice is made for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct Moment {
    /// The agent's local time.
    #[schema(value_type = String, example = "2026-11-25T08:30:00")]
    pub local: NaiveDateTime,
    pub day_part: DayPart,
    pub phase: Phase,
    /// `null` when the owner's affect is not known yet.
    pub mood: Option<Mood>,
}

impl Moment {
    pub fn new(local: NaiveDateTime, phase: Phase, mood: Option<Mood>) -> Moment {
        Moment { local, day_part: DayPart::of(local.hour()), phase, mood }
    }

    /// The rotation seed: the day of the year and the ISO week together.
    fn seed(&self) -> u64 {
        let date = self.local.date();
        let week = date.iso_week();
        (i64::from(week.year()) * 100_000 + i64::from(week.week()) * 1_000 + i64::from(date.ordinal())) as u64
    }
}

/// A chosen teaching and why it was chosen.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Pick {
    #[serde(flatten)]
    pub teaching: Teaching,
    /// Which parts of the moment it matched: `theme`, `day_part`, `phase`, `mood`.
    pub matched: Vec<&'static str>,
    pub score: f64,
}

/// A theme name that is not one of `THEMES`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTheme(pub String);

/// Points for what a teaching matches; the rotation adds less than one match is worth, so it
/// reorders teachings of equal fit and never puts a poorer fit first by more than a step.
const DAY_PART_POINTS: f64 = 2.0;
const PHASE_POINTS: f64 = 2.0;
const MOOD_POINTS: f64 = 3.0;
const ROTATION_SPAN: f64 = 1.5;

/// A number in [0, 1) from the seed and the teaching's place (splitmix64).
fn rotation(seed: u64, index: usize) -> f64 {
    let mut z = seed.wrapping_add((index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// `count` teachings for the moment, best first, no two by the same author; only teachings of
/// `theme` when one is given (fewer than `count` when the theme has fewer authors).
pub fn choose(moment: &Moment, theme: Option<&str>, count: usize) -> Result<Vec<Pick>, UnknownTheme> {
    choose_from(&COLLECTION, moment, theme, count)
}

pub fn choose_from(
    teachings: &[Teaching],
    moment: &Moment,
    theme: Option<&str>,
    count: usize,
) -> Result<Vec<Pick>, UnknownTheme> {
    if let Some(t) = theme
        && !THEMES.contains(&t)
    {
        return Err(UnknownTheme(t.to_string()));
    }
    let seed = moment.seed();
    let has = |t: &Teaching, set: &[&str]| t.themes.iter().any(|x| set.contains(&x.as_str()));
    // Scored by reference; only the chosen teachings are cloned.
    let mut scored: Vec<(&Teaching, Vec<&'static str>, f64)> = teachings
        .iter()
        .enumerate()
        .filter(|(_, t)| theme.is_none_or(|th| t.themes.iter().any(|x| x == th)))
        .map(|(i, t)| {
            let mut matched = Vec::new();
            let mut score = rotation(seed, i) * ROTATION_SPAN;
            if theme.is_some() {
                matched.push("theme");
            }
            if has(t, moment.day_part.themes()) {
                matched.push("day_part");
                score += DAY_PART_POINTS;
            }
            if has(t, moment.phase.themes()) {
                matched.push("phase");
                score += PHASE_POINTS;
            }
            if let Some(m) = moment.mood
                && has(t, m.themes())
            {
                matched.push("mood");
                score += MOOD_POINTS;
            }
            (t, matched, score)
        })
        .collect();
    scored.sort_by(|a, b| b.2.total_cmp(&a.2));
    let mut authors = BTreeSet::new();
    Ok(scored
        .into_iter()
        .filter(|(t, _, _)| authors.insert(t.author.as_str()))
        .take(count)
        .map(|(t, matched, score)| Pick { teaching: t.clone(), matched, score })
        .collect())
}

/// What the collection holds.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Stats {
    pub teachings: usize,
    pub figures: usize,
    /// Distinct source works.
    pub works: usize,
    /// Teachings per theme, every theme listed.
    pub themes: BTreeMap<String, usize>,
    /// Teachings per figure.
    pub per_figure: BTreeMap<String, usize>,
    pub earliest_year: i32,
    pub latest_year: i32,
}

pub fn stats() -> Stats {
    stats_of(&COLLECTION)
}

fn stats_of(teachings: &[Teaching]) -> Stats {
    let mut themes: BTreeMap<String, usize> = THEMES.iter().map(|t| (t.to_string(), 0)).collect();
    let mut per_figure = BTreeMap::new();
    for t in teachings {
        for th in &t.themes {
            *themes.entry(th.clone()).or_default() += 1;
        }
        *per_figure.entry(t.author.clone()).or_default() += 1;
    }
    let works: BTreeSet<&str> = teachings.iter().map(|t| t.source.as_str()).collect();
    Stats {
        teachings: teachings.len(),
        figures: per_figure.len(),
        works: works.len(),
        themes,
        per_figure,
        earliest_year: teachings.iter().map(|t| t.year).min().unwrap_or(0),
        latest_year: teachings.iter().map(|t| t.year).max().unwrap_or(0),
    }
}

/// The one teaching a digest or a post closes with, if the collection has one for the moment.
pub fn one_for(moment: &Moment) -> Option<Teaching> {
    choose(moment, None, 1).ok()?.into_iter().next().map(|p| p.teaching)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn at(y: i32, m: u32, d: u32, h: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, m, d).unwrap().and_hms_opt(h, 0, 0).unwrap()
    }

    #[test]
    fn the_collection_is_large_attributed_and_diverse() {
        let s = stats();
        assert!(s.teachings >= 150, "{} teachings", s.teachings);
        assert!(s.figures >= 50, "{} figures", s.figures);
        let used = s.themes.values().filter(|&&n| n > 0).count();
        assert!(used >= 20, "{used} themes used");
        assert!(s.per_figure.values().all(|&n| n <= 6), "a figure has more than 6 teachings");
        let mut texts = BTreeSet::new();
        for t in COLLECTION.iter() {
            assert!(!t.text.trim().is_empty() && t.text.chars().count() <= 300, "text of {t:?}");
            assert!(!t.author.trim().is_empty(), "author of {t:?}");
            assert!(t.source.trim().chars().count() >= 3, "source of {t:?}");
            assert!(t.year <= 1930, "{t:?} is not from a public-domain era");
            assert!((1..=3).contains(&t.themes.len()), "themes of {t:?}");
            assert!(t.themes.iter().all(|th| THEMES.contains(&th.as_str())), "unknown theme in {t:?}");
            assert!(texts.insert(t.text.to_lowercase()), "{:?} is in the collection twice", t.text);
        }
    }

    #[test]
    fn a_batch_never_repeats_an_author() {
        for h in [3, 8, 14, 20] {
            for phase in [Phase::Mirror, Phase::Opinion, Phase::Agent] {
                let m = Moment::new(at(2026, 11, 25, h), phase, Some(Mood::Struggle));
                let picks = choose(&m, None, 10).unwrap();
                assert_eq!(picks.len(), 10);
                let authors: BTreeSet<_> = picks.iter().map(|p| &p.teaching.author).collect();
                assert_eq!(authors.len(), picks.len());
            }
        }
    }

    #[test]
    fn the_moment_steers_the_choice() {
        let morning = Moment::new(at(2026, 11, 25, 8), Phase::Mirror, None);
        let top = &choose(&morning, None, 1).unwrap()[0];
        assert_eq!(top.matched, vec!["day_part", "phase"], "{top:?}");
        let struggling = Moment::new(at(2026, 11, 25, 23), Phase::Agent, Some(Mood::Struggle));
        let top = &choose(&struggling, None, 3).unwrap();
        assert!(top.iter().all(|p| p.matched.contains(&"mood")), "{top:?}");
        for p in choose(&struggling, Some("friendship"), 5).unwrap() {
            assert!(p.teaching.themes.iter().any(|t| t == "friendship"));
        }
        assert_eq!(choose(&struggling, Some("astrology"), 5).unwrap_err(), UnknownTheme("astrology".into()));
    }

    #[test]
    fn the_rotation_changes_with_the_day_and_holds_within_it() {
        let pick = |d: u32, h: u32| {
            choose(&Moment::new(at(2026, 11, d, h), Phase::Opinion, None), None, 3)
                .unwrap()
                .into_iter()
                .map(|p| p.teaching.text)
                .collect::<Vec<_>>()
        };
        assert_eq!(pick(25, 8), pick(25, 9), "the same day part of one day brings the same teachings");
        let days: BTreeSet<_> = (1..=14).map(|d| pick(d, 8)).collect();
        assert!(days.len() >= 10, "two weeks of mornings brought only {} different batches", days.len());
    }

    #[test]
    fn stats_list_every_theme() {
        let s = stats_of(&[]);
        assert_eq!(s.themes.len(), THEMES.len());
        assert_eq!((s.teachings, s.figures), (0, 0));
    }
}
