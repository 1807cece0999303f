//! Per-key and per-IP rate limits (SPEC A6): a keyed GCRA limiter held in memory. Limits are
//! per process; with N processes behind a balancer the effective limit is up to N times
//! higher (docs/SCALING.md).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::HeaderMap;

use miniclaw_platform::addresses::Allowlist;

/// The rate-limit bucket of a request's client. Behind a trusted proxy (`MINICLAW_TRUSTED_PROXIES`)
/// the client is the right-most `X-Forwarded-For` address that is not itself a trusted proxy;
/// from anyone else the header is ignored (it is trivially forged). IPv6 clients share a bucket
/// per /64, the block one subscriber usually holds, so rotating addresses inside it gains
/// nothing; IPv4-mapped IPv6 addresses count as their IPv4.
pub fn client_bucket(peer: IpAddr, headers: &HeaderMap, trusted: &Allowlist) -> String {
    let mut client = peer;
    if trusted.allows(peer)
        && let Some(chain) = headers.get("x-forwarded-for").and_then(|v| v.to_str().ok())
    {
        for hop in chain.rsplit(',') {
            let Ok(ip) = hop.trim().parse::<IpAddr>() else { break };
            client = ip;
            if !trusted.allows(ip) {
                break;
            }
        }
    }
    match client {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

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
        let (interval, tolerance) = Self::shape(per_minute);
        Some(RateLimiter { interval, tolerance, state: Mutex::new(HashMap::new()) })
    }

    /// `Ok` if a request from `key` is allowed now, else `Err(seconds to wait)`.
    pub fn check(&self, key: &str) -> Result<(), u64> {
        self.check_at(key, Instant::now())
    }

    /// `check` at a rate of the caller's own, `per_minute` sustained with bursts of a quarter of
    /// it, whatever this limiter was made with (a key with a rate of its own).
    pub fn check_rate(&self, key: &str, per_minute: u32) -> Result<(), u64> {
        let (interval, tolerance) = Self::shape(per_minute.max(1));
        self.gcra(key, Instant::now(), interval, tolerance)
    }

    /// The time between requests and the burst's allowance of `per_minute`.
    fn shape(per_minute: u32) -> (Duration, Duration) {
        let interval = Duration::from_secs(60) / per_minute;
        (interval, interval * (per_minute / 4).max(1))
    }

    fn check_at(&self, key: &str, now: Instant) -> Result<(), u64> {
        self.gcra(key, now, self.interval, self.tolerance)
    }

    fn gcra(&self, key: &str, now: Instant, interval: Duration, tolerance: Duration) -> Result<(), u64> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.len() > 100_000 {
            // Forget clients whose allowance is fully restored.
            state.retain(|_, tat| *tat > now);
        }
        let tat = state.get(key).copied().unwrap_or(now).max(now);
        let allow_at = tat.checked_sub(tolerance).unwrap_or(now);
        if now < allow_at {
            return Err((allow_at - now).as_secs().max(1));
        }
        state.insert(key.to_string(), tat + interval);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_is_the_peer_unless_a_trusted_proxy_forwards_it() {
        let peer = |s: &str| s.parse::<IpAddr>().unwrap();
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", "203.0.113.9, 10.0.0.7".parse().unwrap());
        let none = Allowlist::parse("").unwrap();
        let proxies = Allowlist::parse("10.0.0.0/8").unwrap();
        assert_eq!(client_bucket(peer("198.51.100.1"), &h, &none), "198.51.100.1", "header ignored from anyone");
        assert_eq!(client_bucket(peer("10.0.0.1"), &h, &none), "10.0.0.1", "no proxy is trusted by default");
        assert_eq!(client_bucket(peer("198.51.100.1"), &h, &proxies), "198.51.100.1", "untrusted peer");
        assert_eq!(client_bucket(peer("10.0.0.1"), &h, &proxies), "203.0.113.9", "through two trusted hops");
        h.insert("x-forwarded-for", "garbage, 203.0.113.9".parse().unwrap());
        assert_eq!(client_bucket(peer("10.0.0.1"), &h, &proxies), "203.0.113.9");
        // IPv6: one bucket per /64; mapped IPv4 is IPv4.
        let a = client_bucket(peer("2001:db8:1:2:aaaa::1"), &HeaderMap::new(), &none);
        let b = client_bucket(peer("2001:db8:1:2:ffff::9"), &HeaderMap::new(), &none);
        let c = client_bucket(peer("2001:db8:1:3::1"), &HeaderMap::new(), &none);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(client_bucket(peer("::ffff:192.0.2.1"), &HeaderMap::new(), &none), "192.0.2.1");
    }

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

    #[test]
    fn a_key_of_its_own_rate_is_held_to_it() {
        let rl = RateLimiter::per_minute(6000).unwrap();
        let allowed = (0..40).filter(|_| rl.check_rate("k", 8).is_ok()).count();
        assert_eq!(allowed, 3, "a burst of 8/4 and the request itself");
        assert!(rl.check_rate("other", 8).is_ok(), "keys are independent");
    }
}
