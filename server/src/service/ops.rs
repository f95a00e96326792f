//! What the people running pawpath ask of it: is it ready for traffic, and what it
//! has been doing (`/metrics`).

use crate::service::state::AppState;

/// A new request id: 96 random bits, URL-safe base64 (16 characters).
pub fn request_id() -> String {
    use base64::Engine as _;
    use rand::Rng as _;
    let bytes: [u8; 12] = rand::rng().random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Ready for traffic: not shutting down, the database answers, and its schema holds every
/// migration this build knows. `Err` says why not.
pub async fn ready(state: &AppState) -> Result<(), String> {
    if state.running.draining() {
        return Err("shutting down".into());
    }
    state.store.ready().await
}

/// Everything recorded since the process started, in Prometheus's text format, with what is
/// read at scrape time (the outbox's backlog, the database pools) read now. A database that does
/// not answer leaves the outbox figures as last read and is logged; the rest is still served.
pub async fn scrape(state: &AppState) -> String {
    match state.store.outbox_backlog().await {
        Ok((waiting, oldest)) => {
            let age = oldest
                .and_then(|at| (chrono::Utc::now() - at).to_std().ok())
                .unwrap_or_default();
            crate::metrics::outbox(u64::try_from(waiting).unwrap_or(0), age);
        }
        Err(e) => tracing::warn!(error = %e, "metrics: the outbox cannot be read"),
    }
    match state.store.event_backlog().await {
        Ok(b) => {
            let age = b
                .oldest
                .and_then(|at| (chrono::Utc::now() - at).to_std().ok())
                .unwrap_or_default();
            let count = |n: i64| u64::try_from(n).unwrap_or(0);
            crate::metrics::policy_events(
                count(b.waiting),
                age,
                count(b.most_attempts),
                count(b.over_a_day),
            );
        }
        Err(e) => tracing::warn!(error = %e, "metrics: the policy events cannot be read"),
    }
    match state.store.card_attempts_waiting().await {
        Ok((waiting, oldest)) => {
            let age = oldest
                .and_then(|at| (chrono::Utc::now() - at).to_std().ok())
                .unwrap_or_default();
            crate::metrics::card_payments_authenticating(u64::try_from(waiting).unwrap_or(0), age);
        }
        Err(e) => tracing::warn!(error = %e, "metrics: the card attempts cannot be read"),
    }
    match state.store.card_attempts_unsettled_count().await {
        Ok((unsettled, oldest)) => {
            let age = oldest
                .and_then(|at| (chrono::Utc::now() - at).to_std().ok())
                .unwrap_or_default();
            crate::metrics::card_attempts_unsettled(u64::try_from(unsettled).unwrap_or(0), age);
        }
        Err(e) => tracing::warn!(error = %e, "metrics: the card attempts cannot be read"),
    }
    for (pool, in_use, idle) in state.store.pool_use() {
        crate::metrics::pool(pool, in_use, idle);
    }
    crate::metrics::render()
}

/// Starts the outbox's and the policy events' delivery workers over the state's store.
pub fn start_workers(state: &AppState) -> Vec<tokio::task::JoinHandle<()>> {
    let mut jobs: Vec<_> = state
        .mailer
        .spawn(state.store.clone(), state.running.subscribe())
        .into_iter()
        .collect();
    jobs.extend(
        state
            .events
            .spawn(state.store.clone(), state.running.subscribe()),
    );
    jobs
}

/// Which database the state's store is on, for the start-up log.
pub fn backend(state: &AppState) -> String {
    format!("{:?}", state.store.backend)
}

/// Closes the store's connections (what is written is written): the last step of stopping.
pub async fn close(state: &AppState) {
    state.store.close().await;
}
