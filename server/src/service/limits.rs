//! How often a caller may try what a guesser would try (nobody enumerates promo codes or
//! quote references) or what costs a paid lookup: counted in the database per client address and
//! per session, in a sliding window, so every pawpath process shares the count.

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;

/// Attempts allowed in any window of [`WINDOW_SECONDS`], by what is attempted and who counts:
/// a code is a guess, so few, from an address or a session alike; a retrieval is a guess too,
/// few a session and a quote reference ([`RETRIEVALS_PER_REFERENCE`]), but many customers share
/// one address behind a mobile network or an office, so `PAWPATH_RETRIEVALS_PER_ADDRESS` from
/// one, and the same for asking for a one-time retrieval link; an address or vet lookup is a
/// customer typing (and, with Loqate, a paid lookup): 60 a session, and from one address
/// `PAWPATH_LOOKUPS_PER_ADDRESS`; a page-fault report, 10 a session and 100 an address.
fn budget(state: &AppState, scope: &str, per_address: bool) -> i64 {
    match (scope, per_address) {
        ("address" | "vets", true) => {
            i64::try_from(state.config.lookups_per_address).unwrap_or(i64::MAX)
        }
        ("retrieve" | "retrieve_link", true) => {
            i64::try_from(state.config.retrievals_per_address).unwrap_or(i64::MAX)
        }
        // A page that could not be drawn reports it: a few a session, more from an address many
        // customers share.
        ("render_error", true) => 100,
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

/// Counts an attempt at `scope` by this caller (its address and its session); refuses once
/// either is over the scope's budget in the sliding window.
pub async fn limit(state: &AppState, scope: &str, caller: &Caller) -> Result<(), AppError> {
    let ip = caller.ip;
    let mut keys = vec![(format!("{scope}:ip:{ip}"), budget(state, scope, true))];
    if let Some(token) = &caller.session {
        keys.push((
            format!("{scope}:session:{}", token.hash()),
            budget(state, scope, false),
        ));
    }
    counted(state, scope, caller, &keys).await
}

/// The most retrievals of one quote reference in any window of [`WINDOW_SECONDS`], whoever asks
///: a guesser of a customer's email address gets as few tries as from one session.
pub const RETRIEVALS_PER_REFERENCE: i64 = 10;

/// Counts a retrieval of `reference` (kept only as a digest), beside [`limit`]'s counts of the
/// caller's address and session; refuses once it is over its budget.
pub async fn limit_reference(
    state: &AppState,
    caller: &Caller,
    reference: &str,
) -> Result<(), AppError> {
    let keys = [(
        format!("retrieve:ref:{}", digest_hex(reference)),
        RETRIEVALS_PER_REFERENCE,
    )];
    counted(state, "retrieve", caller, &keys).await
}

/// The SHA-256 of a value, in hex: what a count is kept under instead of the value.
fn digest_hex(value: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(value.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The most emails about quotes one address may be sent in any window of [`WINDOW_SECONDS`],
/// however many quotes name it (a quote's email address is whatever its visitor typed,
/// so nobody may use quotes to mail someone else over and over).
pub const QUOTE_EMAILS_PER_RECIPIENT: i64 = 5;

/// Counts a quote email asked for by this caller (its address and session, as [`limit`]) to
/// `recipient` (kept only as a digest); refuses once any is over its budget.
pub async fn limit_quote_email(
    state: &AppState,
    caller: &Caller,
    recipient: &str,
) -> Result<(), AppError> {
    let scope = "quote_email";
    let ip = caller.ip;
    let digest = digest_hex(&recipient.trim().to_lowercase());
    let mut keys = vec![
        (format!("{scope}:ip:{ip}"), budget(state, scope, true)),
        (format!("{scope}:to:{digest}"), QUOTE_EMAILS_PER_RECIPIENT),
    ];
    if let Some(token) = &caller.session {
        keys.push((
            format!("{scope}:session:{}", token.hash()),
            budget(state, scope, false),
        ));
    }
    counted(state, scope, caller, &keys).await
}

/// Sign-ins to the studio one client address may try in any window of [`WINDOW_SECONDS`], and
/// of those, for one account: a guesser gets a few tries at a password from each address, and
/// nobody can lock a member of staff out from anywhere but the address they share.
pub const STAFF_SIGN_INS_PER_ADDRESS: i64 = 100;
pub const STAFF_SIGN_INS_PER_ACCOUNT_AND_ADDRESS: i64 = 10;

/// Counts a studio sign-in to `email` (kept only as a digest) from this caller's address;
/// refuses once either count is over its budget.
pub async fn limit_staff_sign_in(
    state: &AppState,
    caller: &Caller,
    email: &str,
) -> Result<(), AppError> {
    let scope = "staff_sign_in";
    let ip = caller.ip;
    let digest = digest_hex(&email.trim().to_lowercase());
    let keys = [
        (format!("{scope}:ip:{ip}"), STAFF_SIGN_INS_PER_ADDRESS),
        (
            format!("{scope}:account:{digest}:ip:{ip}"),
            STAFF_SIGN_INS_PER_ACCOUNT_AND_ADDRESS,
        ),
    ];
    counted(state, scope, caller, &keys).await
}

/// Counts one attempt against each key and refuses when any is over its budget.
async fn counted(
    state: &AppState,
    scope: &str,
    caller: &Caller,
    keys: &[(String, i64)],
) -> Result<(), AppError> {
    // The fixed window this moment is in, and how far into it.
    let now = chrono::Utc::now().timestamp();
    let elapsed = now.rem_euclid(WINDOW_SECONDS);
    let window = now - elapsed;
    let names: Vec<String> = keys.iter().map(|(k, _)| k.clone()).collect();
    let counts = state
        .store
        .count_attempt(&names, window, WINDOW_SECONDS)
        .await?;
    let over = counts
        .iter()
        .zip(keys)
        .any(|((current, previous), (_, budget))| {
            sliding_count(*current, *previous, elapsed, WINDOW_SECONDS) > *budget
        });
    if over {
        tracing::warn!(scope, "over the rate limit");
        crate::metrics::rate_limited(scope);
        let voice = quote::request_voice(state, caller).await;
        return Err(AppError::RateLimited(voice.t("error.rate_limited")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::sliding_count;

    /// A fixed window allowed double the budget around its edge.
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
