//! Per-key and per-IP rate limits (SPEC A6): a keyed GCRA limiter held in memory. Limits are
//! per process; with N processes behind a balancer the effective limit is up to N times
//! higher (docs/SCALING.md).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct RateLimiter {
    /// Time between requests at the sustained rate.
    interval: Duration,
    /// How far ahead of the sustained rate a client may run (the burst).
    tolerance: Duration,
    state: Mutex<HashMap<String, Instant>>,
}

impl RateLimiter {
    /// `per_minute` requests per minute sustained, with bursts of up to `per_minute / 4`.
    /// `None` when `per_minute` is 0 (limits disabled).
    pub fn per_minute(per_minute: u32) -> Option<Self> {
        if per_minute == 0 {
            return None;
        }
        let interval = Duration::from_secs(60) / per_minute;
        let burst = (per_minute / 4).max(1);
        Some(RateLimiter { interval, tolerance: interval * burst, state: Mutex::new(HashMap::new()) })
    }

    /// `Ok` if a request from `key` is allowed now, else `Err(seconds to wait)`.
    pub fn check(&self, key: &str) -> Result<(), u64> {
        self.check_at(key, Instant::now())
    }

    fn check_at(&self, key: &str, now: Instant) -> Result<(), u64> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.len() > 100_000 {
            // Forget clients whose allowance is fully restored.
            state.retain(|_, tat| *tat > now);
        }
        let tat = state.get(key).copied().unwrap_or(now).max(now);
        let allow_at = tat.checked_sub(self.tolerance).unwrap_or(now);
        if now < allow_at {
            return Err((allow_at - now).as_secs().max(1));
        }
        state.insert(key.to_string(), tat + self.interval);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_the_burst_then_throttles_then_recovers() {
        let rl = RateLimiter::per_minute(60).unwrap(); // 1/s, burst 15
        let t0 = Instant::now();
        let allowed = (0..40).filter(|_| rl.check_at("a", t0).is_ok()).count();
        assert_eq!(allowed, 16, "burst + the request itself");
        assert!(rl.check_at("b", t0).is_ok(), "keys are independent");
        let wait = rl.check_at("a", t0).unwrap_err();
        assert!(wait >= 1);
        assert!(rl.check_at("a", t0 + Duration::from_secs(2)).is_ok());
        assert!(RateLimiter::per_minute(0).is_none());
    }
}
