//! How fast one quote may be changed: a token bucket per quote, so a script holding a valid
//! session and CSRF token cannot send thousands of saves a second and grow its quote's history
//! without limit. A person sends a save every few seconds; the bucket holds a burst of
//! [`Pace::burst`] and refills at [`Pace::per_minute`]; a call that finds it empty is answered
//! 429 with `Retry-After` and counted in `/metrics`
//! (`pawpath_rate_limited_total{scope="session_saves"}`).
//!
//! The bucket is kept with the quote, in the database (`quote_pace`), and taken from by one
//! atomic statement (`Store::take_saves`) before the save is worked out: a new session (a
//! retrieval, a reset cookie) or a second server behind the balancer gives the quote nothing
//! more, and a refused save costs no engine work. A server takes [`RESERVE`] saves at a time
//! while the bucket holds that many, and spends them for that quote from memory: one statement
//! for ten saves. Saves a server holds are the quote's own and already taken from its bucket, so
//! no server can let a quote make more saves than the bucket gives (a server's unspent few are
//! lost if it stops, or if its table of [`MAX_RESERVED`] quotes fills and is cleared: fewer saves,
//! never more).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::store::Store;
use crate::store::error::StoreError;

/// Saves taken from a quote's bucket at once while it holds that many.
pub const RESERVE: u32 = 10;
/// The most quotes a server holds taken saves for (a few bytes each).
pub const MAX_RESERVED: usize = 100_000;

/// The allowance's settings (`PAWPATH_SESSION_BURST`, `PAWPATH_SESSION_SAVES_PER_MINUTE`) and
/// the saves this server has taken and not yet spent, by quote (each behind a lock of its own,
/// so requests for one quote at once take from its bucket one at a time and share what is taken).
#[derive(Debug)]
pub struct Pace {
    burst: f64,
    per_minute: f64,
    reserved: Mutex<HashMap<String, Arc<tokio::sync::Mutex<u32>>>>,
}

impl Pace {
    /// `burst` calls at once, refilled at `per_minute` a minute (both at least 1).
    pub fn new(burst: u64, per_minute: u64) -> Self {
        Self {
            burst: burst.max(1) as f64,
            per_minute: per_minute.max(1) as f64,
            reserved: Mutex::new(HashMap::new()),
        }
    }

    /// One save for `quote_id`: from what this server holds for it, else from its bucket (ten
    /// at once while it has them, else one). False when the bucket has none.
    pub async fn take(&self, store: &Store, quote_id: &str) -> Result<bool, StoreError> {
        let held = {
            let mut reserved = self.reserved.lock().unwrap_or_else(|e| e.into_inner());
            if reserved.len() >= MAX_RESERVED && !reserved.contains_key(quote_id) {
                reserved.clear();
            }
            Arc::clone(reserved.entry(quote_id.to_owned()).or_default())
        };
        let mut left = held.lock().await;
        if *left > 0 {
            *left -= 1;
            return Ok(true);
        }
        let per_second = self.per_minute / 60.0;
        let batch = RESERVE.min(self.burst as u32).max(1);
        if batch > 1
            && store
                .take_saves(quote_id, self.burst, per_second, batch)
                .await?
        {
            *left = batch - 1;
            return Ok(true);
        }
        store.take_saves(quote_id, self.burst, per_second, 1).await
    }

    pub fn burst(&self) -> f64 {
        self.burst
    }

    pub fn per_minute(&self) -> f64 {
        self.per_minute
    }
}
