//! How often a caller may try what a guesser would try (issue 4: nobody enumerates promo codes or
//! quote references) or what costs a paid lookup: counted in the database per client address and
//! per session, in a sliding window, so every pawpath process shares the count.

use std::net::SocketAddr;

use axum::http::HeaderMap;

use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;
use crate::session::SessionToken;

/// Attempts allowed in any window of [`WINDOW_SECONDS`], by what is attempted and who counts:
/// a code or a retrieval is a guess, so few, from an address or a session alike; an address or
/// vet lookup is a customer typing (and, with Loqate, a paid lookup): 60 a session, and from
/// one address (many customers share one behind a mobile network) `PAWPATH_LOOKUPS_PER_ADDRESS`.
fn budget(state: &AppState, scope: &str, per_address: bool) -> i64 {
    match (scope, per_address) {
        ("address" | "vets", true) => {
            i64::try_from(state.config.lookups_per_address).unwrap_or(i64::MAX)
        }
        ("address" | "vets", false) => 60,
        _ => 10,
    }
}
pub const WINDOW_SECONDS: i64 = 15 * 60;

/// The attempts counted over the last `window` seconds, `elapsed` seconds into the current
/// fixed window: the previous window's count weighted by how much of it the sliding window still
/// covers, plus the current one's (rounded up). So no burst at a window's edge gets double the
/// budget.
pub fn sliding_count(current: i64, previous: i64, elapsed: i64, window: i64) -> i64 {
    let covered = (window - elapsed.clamp(0, window)).max(0);
    current + (previous * covered + window - 1) / window
}

/// The caller's address: the connection's own, or behind our proxies the entry the outermost of
/// them wrote into the configured header (that many from the right). Entries to its left were
/// written by the client and are never believed (issue 21).
pub fn client_ip(state: &AppState, peer: SocketAddr, headers: &HeaderMap) -> std::net::IpAddr {
    let Some(name) = state.config.client_ip_header.as_ref() else {
        return peer.ip();
    };
    let entries: Vec<&str> = headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    entries
        .len()
        .checked_sub(state.config.trusted_proxies)
        .and_then(|i| entries.get(i))
        .and_then(|ip| ip.parse().ok())
        .unwrap_or_else(|| peer.ip())
}

/// Counts an attempt at `scope` by this caller (its address and its session); refuses once
/// either is over the scope's budget in the sliding window.
pub async fn limit(
    state: &AppState,
    scope: &str,
    peer: SocketAddr,
    headers: &HeaderMap,
) -> Result<(), AppError> {
    let now = chrono::Utc::now().timestamp();
    let elapsed = now.rem_euclid(WINDOW_SECONDS);
    let window = now - elapsed;
    let ip = client_ip(state, peer, headers);
    let mut keys = vec![format!("{scope}:ip:{ip}")];
    if let Some(token) = SessionToken::from_headers(headers) {
        keys.push(format!("{scope}:session:{}", token.hash()));
    }
    let counts = state
        .store
        .count_attempt(&keys, window, WINDOW_SECONDS)
        .await?;
    // The first key is the address's, the second the session's.
    let over = counts.iter().enumerate().any(|(i, (current, previous))| {
        sliding_count(*current, *previous, elapsed, WINDOW_SECONDS) > budget(state, scope, i == 0)
    });
    if over {
        tracing::warn!(scope, "over the rate limit");
        let voice = quote::request_voice(state, headers).await;
        return Err(AppError::RateLimited(voice.t("error.rate_limited")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::sliding_count;

    /// Issue 21: a fixed window allowed double the budget around its edge.
    #[test]
    fn the_window_slides() {
        let w = 900;
        // Ten attempts just before the edge; just after it they still count in full.
        assert_eq!(sliding_count(1, 10, 0, w), 11);
        // Halfway through the next window, half of them.
        assert_eq!(sliding_count(1, 10, 450, w), 6);
        // A whole window later, none.
        assert_eq!(sliding_count(1, 10, 900, w), 1);
        assert_eq!(sliding_count(3, 0, 10, w), 3);
    }
}
