//! Latency histograms that survive a rollup: log buckets of 10 % width, stored as
//! `{bucket: count}`, merged by adding counts. A percentile read from them is within 5 % of the
//! exact one (the bucket's geometric middle), whatever the range: an hour of rows and a quarter
//! of hourly rollups answer alike.

use std::collections::BTreeMap;

/// Each bucket is this much wider than the one before.
pub const RATIO: f64 = 1.1;
/// Bucket `i` holds `[RATIO^i, RATIO^(i+1))` ms (bucket 0 also holds 0 ms); the last one holds
/// everything from about 10 minutes on.
pub const BUCKETS: i32 = 140;

/// The SQL of the bucket of a millisecond column (the same rule as [`bucket`]).
pub fn bucket_sql(column: &str) -> String {
    format!("least({last}, floor(ln(greatest({column}, 1)::float8) / ln({RATIO}))::int)", last = BUCKETS - 1)
}

/// The bucket of `ms`.
pub fn bucket(ms: f64) -> i32 {
    ((ms.max(1.0)).ln() / RATIO.ln()).floor().min(f64::from(BUCKETS - 1)) as i32
}

/// A histogram: bucket → count.
pub type Hist = BTreeMap<i32, i64>;

/// Adds a stored `{bucket: count}` object into `into`.
pub fn merge(into: &mut Hist, stored: &serde_json::Value) {
    if let Some(o) = stored.as_object() {
        for (k, v) in o {
            if let (Ok(b), Some(n)) = (k.parse::<i32>(), v.as_i64()) {
                *into.entry(b).or_default() += n;
            }
        }
    }
}

/// The `q` quantile (0–1) in ms: the geometric middle of the bucket holding the
/// `ceil(q × count)`-th value; `None` for an empty histogram.
pub fn quantile(h: &Hist, q: f64) -> Option<f64> {
    let total: i64 = h.values().sum();
    if total == 0 {
        return None;
    }
    let rank = ((q.clamp(0.0, 1.0) * total as f64).ceil() as i64).max(1);
    let mut seen = 0;
    for (b, n) in h {
        seen += n;
        if seen >= rank {
            let middle = RATIO.powf(f64::from(*b) + 0.5);
            return Some((middle * 10.0).round() / 10.0);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_ten_percent_wide_and_quantiles_within_five_percent() {
        assert_eq!(bucket(0.0), 0);
        assert_eq!(bucket(1.0), 0);
        assert_eq!(bucket(1.1), 1);
        assert_eq!(bucket(1e9), BUCKETS - 1);
        let mut h = Hist::new();
        // 1..=1000 ms, one each: the exact median is 500, p95 950.
        for ms in 1..=1000 {
            *h.entry(bucket(f64::from(ms))).or_default() += 1;
        }
        let p50 = quantile(&h, 0.5).unwrap();
        let p95 = quantile(&h, 0.95).unwrap();
        assert!((p50 / 500.0 - 1.0).abs() < 0.05, "{p50}");
        assert!((p95 / 950.0 - 1.0).abs() < 0.05, "{p95}");
        assert_eq!(quantile(&Hist::new(), 0.5), None);
        let mut merged = Hist::new();
        merge(&mut merged, &serde_json::json!({ "3": 2, "7": 1 }));
        merge(&mut merged, &serde_json::json!({ "3": 1, "x": 5 }));
        assert_eq!(merged, Hist::from([(3, 3), (7, 1)]));
    }
}
