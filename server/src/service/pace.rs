//! How fast one quote may be changed: a token bucket per quote, so a script holding a valid
//! session and CSRF token cannot send thousands of saves a second and grow its quote's history
//! without limit. A person sends a save every few seconds; the bucket holds a burst of
//! [`Pace::burst`] and refills at [`Pace::per_minute`]; a call that finds it empty is answered
//! 429 with `Retry-After` and counted in `/metrics`
//! (`pawpath_rate_limited_total{scope="session_saves"}`).
//!
//! The bucket is kept with the quote, in the database (`quote_pace`), and taken from by one
//! atomic statement (`Store::take_save`) before the save is worked out: a new session (a
//! retrieval, a reset cookie) or a second server behind the balancer gives the quote nothing
//! more, and a refused save costs no engine work.

/// The allowance's settings (`PAWPATH_SESSION_BURST`, `PAWPATH_SESSION_SAVES_PER_MINUTE`).
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    burst: f64,
    per_minute: f64,
}

impl Pace {
    /// `burst` calls at once, refilled at `per_minute` a minute (both at least 1).
    pub fn new(burst: u64, per_minute: u64) -> Self {
        Self {
            burst: burst.max(1) as f64,
            per_minute: per_minute.max(1) as f64,
        }
    }

    pub fn burst(&self) -> f64 {
        self.burst
    }

    pub fn per_minute(&self) -> f64 {
        self.per_minute
    }
}
