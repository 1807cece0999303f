//! The per-provider circuit breaker: after consecutive failures a provider is skipped for a
//! while, then one call is let through (half-open) and a failure opens it again at once.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Consecutive failures that open a provider's breaker, and how long it stays open.
const BREAKER_THRESHOLD: u32 = 5;
const BREAKER_OPEN_FOR: Duration = Duration::from_secs(30);

#[derive(Default)]
struct Breaker {
    consecutive_failures: u32,
    open_until: Option<Instant>,
}

/// The breakers of every provider, by provider name; shared by all calls of one gateway.
#[derive(Default)]
pub(super) struct Breakers(Mutex<HashMap<String, Breaker>>);

impl Breakers {
    /// Whether calls to `provider` are skipped now. Once the open time has passed, the next
    /// call is let through.
    pub(super) fn is_open(&self, provider: &str) -> bool {
        let mut b = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let entry = b.entry(provider.to_string()).or_default();
        match entry.open_until {
            Some(t) if Instant::now() < t => true,
            Some(_) => {
                // Half-open: let one call through; a failure re-opens at once.
                entry.open_until = None;
                entry.consecutive_failures = BREAKER_THRESHOLD - 1;
                false
            }
            None => false,
        }
    }

    /// Counts a failed call; enough in a row open the breaker.
    pub(super) fn record_failure(&self, provider: &str) {
        let mut b = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let entry = b.entry(provider.to_string()).or_default();
        entry.consecutive_failures += 1;
        if entry.consecutive_failures >= BREAKER_THRESHOLD {
            tracing::warn!(provider, "circuit breaker open for {:?}", BREAKER_OPEN_FOR);
            entry.open_until = Some(Instant::now() + BREAKER_OPEN_FOR);
        }
    }

    /// A call went through: the provider's count starts again.
    pub(super) fn record_success(&self, provider: &str) {
        let mut b = self.0.lock().unwrap_or_else(|e| e.into_inner());
        b.insert(provider.to_string(), Breaker::default());
    }
}
