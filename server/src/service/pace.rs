//! How fast one session may change its quote (issue 55): a token bucket per session, so a
//! script holding a valid session and CSRF token cannot send thousands of saves a second and
//! grow its quote's history without limit. A person sends a save every few seconds; the bucket
//! holds a burst of [`Pace::burst`] and refills at [`Pace::per_minute`]; a call that finds it
//! empty is answered 429 with `Retry-After` and counted in `/metrics`
//! (`pawpath_rate_limited_total{scope="session_saves"}`).
//!
//! Kept in memory, per process: the count is exact for a session served by one process and at
//! most the number of processes times the budget behind a balancer. Bounded by construction: at
//! most [`MAX_TRACKED`] sessions are tracked; when that many are, the full buckets (which hold
//! nothing a new bucket would not) are dropped first, then all of them (a flood of that many
//! sessions, each of which had to make a quote, resets the counts rather than the memory).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most sessions tracked at once (about 100 bytes each).
pub const MAX_TRACKED: usize = 100_000;

/// One session's bucket: the tokens it had at `at`.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The buckets of every session this process has seen lately.
#[derive(Debug)]
pub struct Pace {
    burst: f64,
    per_second: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Pace {
    /// `burst` calls at once, refilled at `per_minute` a minute (both at least 1).
    pub fn new(burst: u64, per_minute: u64) -> Self {
        Self {
            burst: burst.max(1) as f64,
            per_second: per_minute.max(1) as f64 / 60.0,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    pub fn burst(&self) -> f64 {
        self.burst
    }

    pub fn per_minute(&self) -> f64 {
        self.per_second * 60.0
    }

    /// Takes one token from `session`'s bucket: Ok, or how long until one is there.
    pub fn take(&self, session: &str) -> Result<(), Duration> {
        self.take_at(session, Instant::now())
    }

    fn take_at(&self, session: &str, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if !buckets.contains_key(session) && buckets.len() >= MAX_TRACKED {
            let (burst, rate) = (self.burst, self.per_second);
            buckets.retain(|_, b| refilled(b, now, rate, burst) < burst);
            if buckets.len() >= MAX_TRACKED {
                buckets.clear();
            }
        }
        let bucket = buckets.entry(session.to_owned()).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let tokens = refilled(bucket, now, self.per_second, self.burst);
        if tokens >= 1.0 {
            *bucket = Bucket {
                tokens: tokens - 1.0,
                at: now,
            };
            Ok(())
        } else {
            *bucket = Bucket { tokens, at: now };
            Err(Duration::from_secs_f64((1.0 - tokens) / self.per_second))
        }
    }

    /// How many sessions are tracked (for tests).
    pub fn tracked(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// The tokens `bucket` holds at `now`.
fn refilled(bucket: &Bucket, now: Instant, per_second: f64, burst: f64) -> f64 {
    let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
    (bucket.tokens + elapsed * per_second).min(burst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_refill_rate() {
        let pace = Pace::new(3, 60);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(pace.take_at("a", t0).is_ok());
        }
        let wait = pace.take_at("a", t0).expect_err("empty");
        assert!(
            wait <= Duration::from_secs(1) && wait > Duration::from_millis(900),
            "{wait:?}"
        );
        // Another session has its own bucket.
        assert!(pace.take_at("b", t0).is_ok());
        // A second later one token is back, and only one.
        let t1 = t0 + Duration::from_secs(1);
        assert!(pace.take_at("a", t1).is_ok());
        assert!(pace.take_at("a", t1).is_err());
        // Long idle: the bucket is full again, never more than the burst.
        let t2 = t1 + Duration::from_secs(3600);
        for _ in 0..3 {
            assert!(pace.take_at("a", t2).is_ok());
        }
        assert!(pace.take_at("a", t2).is_err());
    }

    #[test]
    fn the_number_of_sessions_tracked_is_bounded() {
        let pace = Pace::new(2, 60);
        let t0 = Instant::now();
        for i in 0..MAX_TRACKED {
            let _ = pace.take_at(&format!("s{i}"), t0);
        }
        assert_eq!(pace.tracked(), MAX_TRACKED);
        // One more: every bucket still holds a spent token, so all are dropped.
        assert!(pace.take_at("new", t0).is_ok());
        assert!(pace.tracked() <= MAX_TRACKED);
        assert!(pace.tracked() >= 1);
    }
}
