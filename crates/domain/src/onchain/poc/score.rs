//! The Proof-of-Contribution formula (SPEC I4, seed 001 §6.6), pure:
//!
//! ```text
//! base  = (I·15 + S·20 + E·25 + K·20 + R·20) / 100        each dimension 0–100
//! total = clamp(round(base · (1 + min(totalBacking / 100000, 0.10))), 0, 100)
//! grade = S ≥ 90, A ≥ 75, B ≥ 60, C ≥ 40, D below
//! ```
//!
//! A dimension's score is its sub-signals' points out of the points it could have earned: the sum
//! of the maxima of the signals the platform can measure (100 when it measures all six). A signal
//! whose source does not exist here (a token's market price, badges) is left out of that sum
//! instead of counting a zero, so every dimension can still reach 100. Every sub-signal carries
//! its value, points, maximum and source, so the total can be explained line by line.

use serde::Serialize;
use utoipa::ToSchema;

/// The five dimensions and their weights (percent), in the order of the formula.
pub const WEIGHTS: [(&str, &str, u32); 5] = [
    ("identity", "Identity", 15),
    ("social", "Social", 20),
    ("economy", "Economy", 25),
    ("skills", "Skills", 20),
    ("reputation", "Reputation", 20),
];

/// The divisor of the backing and the boost's cap: 10,000 of backing earns the full 10 %.
pub const BACKING_SCALE: f64 = 100_000.0;
pub const MAX_BOOST: f64 = 0.10;

/// Whether a sub-signal was measured, or left out because its source is not available here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub enum SignalStatus {
    #[serde(rename = "measured")]
    Measured,
    /// Left out of its dimension's weighting (the `rule` says why): its points and maximum do
    /// not count, so the other signals carry the dimension.
    #[serde(rename = "not available")]
    NotAvailable,
}

/// One sub-signal's contribution to its dimension.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Signal {
    pub key: &'static str,
    pub label: &'static str,
    /// What was measured (a count, days, a provider, …); `null` when nothing was.
    #[schema(value_type = Object)]
    pub value: serde_json::Value,
    /// Points earned, 0..=`max`.
    pub points: u32,
    pub max: u32,
    /// Where the value comes from.
    pub source: &'static str,
    pub status: SignalStatus,
    /// How the points follow from the value.
    pub rule: &'static str,
}

/// One dimension: its score (its signals' points out of what it could earn) and its share of the total.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Dimension {
    pub key: &'static str,
    pub label: &'static str,
    /// Percent of the total this dimension weighs.
    pub weight: u32,
    /// 0–100: `round(100 × Σ points / available)`; the sum of the points when all six are measured.
    pub score: u32,
    /// The sum of the maxima of the signals measured (100 when none is left out).
    pub available: u32,
    /// `score × weight / 100`: what this dimension adds to `base`.
    pub weighted: f64,
    pub signals: Vec<Signal>,
}

/// The backing boost: `min(total / 100000, 0.10)`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Backing {
    pub total: f64,
    pub boost: f64,
    /// `1 + boost`.
    pub multiplier: f64,
    pub source: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub enum Grade {
    S,
    A,
    B,
    C,
    D,
}

impl Grade {
    pub fn as_str(self) -> &'static str {
        match self {
            Grade::S => "S",
            Grade::A => "A",
            Grade::B => "B",
            Grade::C => "C",
            Grade::D => "D",
        }
    }
}

/// A whole score with its explanation.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Score {
    /// 0–100.
    pub total: u32,
    pub grade: Grade,
    /// The weighted sum of the dimensions before the backing boost: the sum of their `weighted`.
    pub base: f64,
    pub backing: Backing,
    pub dimensions: Vec<Dimension>,
}

/// `S ≥ 90, A ≥ 75, B ≥ 60, C ≥ 40, D` below.
pub fn grade(total: u32) -> Grade {
    match total {
        90.. => Grade::S,
        75..=89 => Grade::A,
        60..=74 => Grade::B,
        40..=59 => Grade::C,
        _ => Grade::D,
    }
}

/// `min(total_backing / 100000, 0.10)`; no backing (or a negative one) is no boost.
pub fn backing_boost(total_backing: f64) -> f64 {
    if total_backing.is_nan() { 0.0 } else { (total_backing / BACKING_SCALE).clamp(0.0, MAX_BOOST) }
}

/// `clamp(round(base × (1 + boost)), 0, 100)`.
pub fn final_total(base: f64, boost: f64) -> u32 {
    (base * (1.0 + boost)).round().clamp(0.0, 100.0) as u32
}

/// A dimension from its signals: their points out of the maxima of those measured, scaled to
/// 0–100 and rounded (a dimension with nothing measurable scores 0).
pub fn dimension(key: &'static str, label: &'static str, weight: u32, signals: Vec<Signal>) -> Dimension {
    let measured = || signals.iter().filter(|s| s.status == SignalStatus::Measured);
    let available = measured().map(|s| s.max).sum::<u32>();
    let points = measured().map(|s| s.points).sum::<u32>();
    let score = (100 * points + available / 2).checked_div(available).unwrap_or(0).min(100);
    Dimension { key, label, weight, score, available, weighted: f64::from(score * weight) / 100.0, signals }
}

/// Combines the five dimensions (in `WEIGHTS` order) and the backing into the score.
pub fn combine(dimensions: Vec<Dimension>, backing_total: Option<f64>, backing_source: &'static str) -> Score {
    // Summed in integers and divided once, so `base` equals the sum of the `weighted` exactly.
    let base = f64::from(dimensions.iter().map(|d| d.score * d.weight).sum::<u32>()) / 100.0;
    let boost = backing_boost(backing_total.unwrap_or(0.0));
    let total = final_total(base, boost);
    let backing =
        Backing { total: backing_total.unwrap_or(0.0), boost, multiplier: 1.0 + boost, source: backing_source };
    Score { total, grade: grade(total), base, backing, dimensions }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(scores: [u32; 5]) -> Vec<Dimension> {
        WEIGHTS
            .iter()
            .zip(scores)
            .map(|(&(key, label, weight), score)| {
                let s = Signal {
                    key: "x",
                    label: "X",
                    value: serde_json::Value::Null,
                    points: score,
                    max: 100,
                    source: "test",
                    status: SignalStatus::Measured,
                    rule: "",
                };
                dimension(key, label, weight, vec![s])
            })
            .collect()
    }

    #[test]
    fn grade_boundaries() {
        for (total, g) in [
            (100, Grade::S),
            (90, Grade::S),
            (89, Grade::A),
            (75, Grade::A),
            (74, Grade::B),
            (60, Grade::B),
            (59, Grade::C),
            (40, Grade::C),
            (39, Grade::D),
            (0, Grade::D),
        ] {
            assert_eq!(grade(total), g, "{total}");
        }
    }

    #[test]
    fn the_weights_are_15_20_25_20_20() {
        assert_eq!(WEIGHTS.map(|w| w.2), [15, 20, 25, 20, 20]);
        // One dimension at 100, the others at 0: the total is its weight.
        for i in 0..5 {
            let mut s = [0; 5];
            s[i] = 100;
            assert_eq!(combine(dims(s), None, "").total, WEIGHTS[i].2);
        }
        // By hand: (80·15 + 50·20 + 40·25 + 30·20 + 10·20) / 100 = 40.
        let s = combine(dims([80, 50, 40, 30, 10]), None, "");
        assert_eq!((s.base, s.total, s.grade), (40.0, 40, Grade::C));
    }

    #[test]
    fn the_backing_boost_is_capped_at_ten_percent() {
        for (backing, boost) in
            [(0.0, 0.0), (-5.0, 0.0), (f64::NAN, 0.0), (5_000.0, 0.05), (10_000.0, 0.10), (10_000_000.0, 0.10)]
        {
            assert!((backing_boost(backing) - boost).abs() < 1e-12, "{backing}");
        }
        // 60 × 1.05 = 63; 60 × 1.10 = 66 however large the backing.
        assert_eq!(combine(dims([60; 5]), Some(5_000.0), "").total, 63);
        assert_eq!(combine(dims([60; 5]), Some(1e9), "").total, 66);
        let s = combine(dims([60; 5]), Some(1e9), "");
        assert_eq!(s.backing.multiplier, 1.1);
        assert_eq!(combine(dims([60; 5]), None, "").backing.multiplier, 1.0);
    }

    #[test]
    fn rounding_and_the_clamp() {
        // 95 × 1.1 = 104.5: clamped to 100.
        assert_eq!(combine(dims([95; 5]), Some(1e9), "").total, 100);
        assert_eq!(final_total(120.0, 0.0), 100);
        assert_eq!(final_total(-3.0, 0.0), 0);
        // Half rounds away from zero: 44.5 → 45, 44.4 → 44.
        assert_eq!(final_total(44.5, 0.0), 45);
        assert_eq!(final_total(44.4, 0.0), 44);
        // A dimension never exceeds 100 whatever its signals claim.
        let d = dimension("x", "X", 20, dims([100; 5]).into_iter().flat_map(|d| d.signals).collect());
        assert_eq!((d.score, d.weighted), (100, 20.0));
    }

    fn signal(points: u32, max: u32, status: SignalStatus) -> Signal {
        Signal { key: "x", label: "X", value: serde_json::Value::Null, points, max, source: "", status, rule: "" }
    }

    #[test]
    fn a_signal_left_out_does_not_count_against_its_dimension() {
        use SignalStatus::{Measured, NotAvailable};
        // 20 + 25 of the 65 points measurable, the 35 not available left out: round(100 × 45 / 65) = 69.
        let d = dimension(
            "economy",
            "Economy",
            25,
            vec![
                signal(20, 20, Measured),
                signal(25, 25, Measured),
                signal(0, 20, Measured),
                signal(0, 35, NotAvailable),
            ],
        );
        assert_eq!((d.available, d.score), (65, 69));
        // Everything measurable earned in full: the dimension reaches 100, so grade S stays reachable.
        let d = dimension("e", "E", 25, vec![signal(65, 65, Measured), signal(0, 35, NotAvailable)]);
        assert_eq!((d.available, d.score), (65, 100));
        // Nothing measurable: 0, not a division by zero.
        assert_eq!(dimension("e", "E", 25, vec![signal(0, 35, NotAvailable)]).score, 0);
    }

    use proptest::prelude::*;

    fn backing() -> impl Strategy<Value = Option<f64>> {
        proptest::option::of(-1_000.0..1e9f64)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn dimensions_add_up_to_base_and_base_to_the_total(scores in prop::array::uniform5(0u32..=100), backing in backing()) {
            let s = combine(dims(scores), backing, "");
            let sum: f64 = s.dimensions.iter().map(|d| d.weighted).sum();
            prop_assert!((sum - s.base).abs() < 1e-9, "{} vs {}", sum, s.base);
            prop_assert_eq!(s.total, final_total(s.base, backing_boost(backing.unwrap_or(0.0))));
            prop_assert!(s.total <= 100 && (0.0..=100.0).contains(&s.base));
            prop_assert!((1.0..=1.1).contains(&s.backing.multiplier));
            prop_assert_eq!(s.grade, grade(s.total));
            for d in &s.dimensions {
                prop_assert_eq!(d.score, d.signals.iter().map(|x| x.points).sum::<u32>());
            }
        }

        #[test]
        fn more_of_anything_never_lowers_the_total(
            scores in prop::array::uniform5(0u32..=100), which in 0usize..5, more in 1u32..=100, backing in 0.0..20_000.0f64, extra in 0.0..20_000.0f64
        ) {
            let before = combine(dims(scores), Some(backing), "").total;
            let mut higher = scores;
            higher[which] = (higher[which] + more).min(100);
            prop_assert!(combine(dims(higher), Some(backing), "").total >= before);
            prop_assert!(combine(dims(scores), Some(backing + extra), "").total >= before);
        }
    }
}
