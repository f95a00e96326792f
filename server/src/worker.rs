//! The loop of a background worker that drains a table of due work (the email outbox, the policy
//! events): claim one item, handle it, and again until none is due; then wait for a wake (new
//! work written here), the poll interval (work another server wrote, or a retry come due) or the
//! stop. Failed attempts come back after [`backoff`].

use std::future::Future;
use std::time::Duration;

/// The longest wait before a retry.
pub const MAX_RETRY: Duration = Duration::from_secs(3600);

/// The delay after the `attempts`-th failure: the first retry delay, doubled for each earlier
/// failure, at most an hour.
pub fn backoff(first: Duration, attempts: i64) -> Duration {
    let doublings = u32::try_from(attempts.clamp(0, 20)).unwrap_or(20);
    first
        .checked_mul(1u32 << doublings)
        .unwrap_or(MAX_RETRY)
        .min(MAX_RETRY)
}

/// Drains `claim` into `handle` until the stop is given; `what` names the work in the log when
/// it cannot be read (the loop waits and tries again).
pub async fn drain<T, E, Claim, Claimed, Handle, Handled>(
    what: &str,
    poll: Duration,
    wake: &tokio::sync::Notify,
    mut stop: tokio::sync::watch::Receiver<bool>,
    mut claim: Claim,
    mut handle: Handle,
) where
    E: std::fmt::Display,
    Claim: FnMut() -> Claimed,
    Claimed: Future<Output = Result<Option<T>, E>>,
    Handle: FnMut(T) -> Handled,
    Handled: Future<Output = ()>,
{
    loop {
        while !*stop.borrow() {
            match claim().await {
                Ok(Some(item)) => handle(item).await,
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "{what}: cannot read");
                    break;
                }
            }
        }
        tokio::select! {
            _ = stop.wait_for(|stop| *stop) => return,
            () = wake.notified() => {}
            () = tokio::time::sleep(poll) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_double_up_to_an_hour() {
        let first = Duration::from_secs(30);
        assert_eq!(backoff(first, 0), Duration::from_secs(30));
        assert_eq!(backoff(first, 1), Duration::from_secs(60));
        assert_eq!(backoff(first, 3), Duration::from_secs(240));
        assert_eq!(backoff(first, 7), MAX_RETRY);
        assert_eq!(backoff(first, 1_000_000), MAX_RETRY);
    }
}
