//! What an operator scrapes: counters and histograms recorded with the `metrics`
//! crate as things happen, rendered in Prometheus's text format by `/metrics`.
//!
//! Every label takes its values from a small, known set (a route's template, not its path; a
//! journey's step ids; a rule's id), so no visitor can grow the set of series. One recorder per
//! process: tests that start several apps in one process share it, as the series they read are
//! counted, never compared exactly.

use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Request latency buckets, in seconds: a page is a few milliseconds, a priced quote tens.
const LATENCY_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// How often recorded latencies are drained into their buckets when nobody scrapes. The
/// recorder keeps every sample recorded since the last drain, so without this a server that is
/// not scraped (no Prometheus yet, or one that stopped) would grow by eight bytes a request,
/// without end.
const UPKEEP_EVERY: Duration = Duration::from_secs(if cfg!(test) { 1 } else { 5 });

/// How many times the upkeep thread has drained the recorder (for the test that it runs).
static UPKEEPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Installs the process's recorder (once; later calls do nothing).
pub fn install() {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), LATENCY_BUCKETS)
            .map(PrometheusBuilder::build_recorder);
        match recorder {
            Ok(recorder) => {
                let handle = recorder.handle();
                if ::metrics::set_global_recorder(recorder).is_err() {
                    tracing::warn!("a metrics recorder was already installed; /metrics is empty");
                    return None;
                }
                describe();
                zeroes();
                upkeep(handle.clone());
                Some(handle)
            }
            Err(e) => {
                tracing::error!(error = %e, "the metrics recorder cannot be built");
                None
            }
        }
    });
}

/// Drains the recorder every [`UPKEEP_EVERY`] on a thread of its own, for the life of the
/// process (one recorder a process, whatever runtimes come and go).
fn upkeep(handle: PrometheusHandle) {
    let started = std::thread::Builder::new()
        .name("metrics-upkeep".into())
        .spawn(move || {
            loop {
                std::thread::sleep(UPKEEP_EVERY);
                handle.run_upkeep();
                UPKEEPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        });
    if let Err(e) = started {
        tracing::error!(error = %e, "the metrics upkeep thread cannot start; latencies are drained only when /metrics is scraped");
    }
}

/// Everything recorded, in Prometheus's text format.
pub fn render() -> String {
    HANDLE
        .get()
        .and_then(Option::as_ref)
        .map(|h| {
            // Histograms are kept as buckets; upkeep drains what was recorded since last time.
            h.run_upkeep();
            h.render()
        })
        .unwrap_or_default()
}

fn describe() {
    use ::metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        "pawpath_http_requests_total",
        "Requests answered, by route template, method and status"
    );
    describe_histogram!(
        "pawpath_http_request_duration_seconds",
        Unit::Seconds,
        "Time to answer a request (headers sent), by route template, method and status"
    );
    describe_counter!(
        "pawpath_transitions_total",
        "Step transitions, by journey, step, event and outcome"
    );
    describe_counter!(
        "pawpath_render_errors_total",
        "Pages the browser could not draw and reported (POST /api/render-errors): the customer saw the brand's message and phone number instead"
    );
    describe_counter!(
        "pawpath_screening_referrals_total",
        "Purchases stopped because a party to them (policyholder, account holder, cardholder, rehoming owner) may be on the sanctions list (OFSI's consolidated list), by journey: each is in the quote's transition log for staff"
    );
    describe_counter!(
        "pawpath_retrieve_links_total",
        "One-time links that open a quote, by outcome: sent, not_sent (one still live, or the day's spent), opened, refused"
    );
    describe_counter!(
        "pawpath_slow_bodies_total",
        "Request bodies answered 408 for arriving slower than PAWPATH_BODY_MIN_RATE"
    );
    describe_counter!(
        "pawpath_slow_senders_evicted_total",
        "Connections closed to make room because each was the slowest sender of a request body"
    );
    describe_counter!(
        "pawpath_connections_refused_total",
        "New connections closed unanswered: the server or the client's address at its limit with every connection busy"
    );
    describe_counter!(
        "pawpath_blocked_answers_total",
        "Answers that stopped a quote (a blocking answer), by rule"
    );
    describe_counter!(
        "pawpath_purchases_total",
        "Purchases, by journey, payment method and outcome"
    );
    describe_counter!(
        "pawpath_card_declines_total",
        "Card payments the provider declined"
    );
    describe_gauge!(
        "pawpath_outbox_depth",
        "Emails waiting in the outbox (not sent, not failed for good), at scrape time"
    );
    describe_gauge!(
        "pawpath_outbox_oldest_undelivered_seconds",
        Unit::Seconds,
        "Age of the oldest email waiting in the outbox, at scrape time (0 when none)"
    );
    describe_gauge!(
        "pawpath_card_payments_authenticating",
        "Card payments waiting on the customer's bank (3-D Secure), at scrape time"
    );
    describe_gauge!(
        "pawpath_card_payments_oldest_authenticating_seconds",
        Unit::Seconds,
        "Age of the oldest card payment waiting on the customer's bank, at scrape time (0 when none): hours mean the provider's webhook is not arriving"
    );
    describe_gauge!(
        "pawpath_policy_events_waiting",
        "Policy events not yet delivered to the insurer's systems, at scrape time"
    );
    describe_gauge!(
        "pawpath_policy_events_oldest_undelivered_seconds",
        Unit::Seconds,
        "Age of the oldest policy event not yet delivered, at scrape time (0 when none)"
    );
    describe_gauge!(
        "pawpath_policy_events_most_attempts",
        "The most delivery attempts any undelivered policy event has had, at scrape time"
    );
    describe_gauge!(
        "pawpath_policy_events_undelivered_over_a_day",
        "Policy events written over a day ago and still not delivered, at scrape time: alert on any"
    );
    describe_counter!(
        "pawpath_policy_event_deliveries_total",
        "Policy event delivery attempts, by outcome (delivered, retry)"
    );
    describe_counter!(
        "pawpath_email_deliveries_total",
        "Email delivery attempts, by outcome (sent, retry, refused)"
    );
    describe_histogram!(
        "pawpath_provider_duration_seconds",
        Unit::Seconds,
        "Calls to the address, vet and bank-check providers, by provider, operation and outcome"
    );
    describe_counter!(
        "pawpath_provider_errors_total",
        "Failed calls to a provider, by provider and operation"
    );
    describe_counter!(
        "pawpath_rate_limited_total",
        "Requests refused by a rate limit, by scope"
    );
    describe_counter!(
        "pawpath_log_lines_dropped_total",
        "Log lines dropped because standard output was not taking them (the log's bound was full)"
    );
    describe_gauge!(
        "pawpath_db_pool_connections",
        "Database connections, by pool and state (in use, idle), at scrape time"
    );
}

/// The series whose labels are known in advance start at zero, so a scraper sees them (and a
/// rate of change) before the first event: an error that has never happened reads 0, not
/// missing.
fn zeroes() {
    for (provider, operation) in [
        ("address", "find"),
        ("address", "retrieve"),
        ("vet", "near"),
        ("bank_check", "modulus"),
    ] {
        ::metrics::counter!(
            "pawpath_provider_errors_total",
            "provider" => provider,
            "operation" => operation,
        )
        .absolute(0);
    }
    for outcome in ["sent", "retry", "refused"] {
        ::metrics::counter!("pawpath_email_deliveries_total", "outcome" => outcome).absolute(0);
    }
    for outcome in ["delivered", "retry"] {
        ::metrics::counter!("pawpath_policy_event_deliveries_total", "outcome" => outcome)
            .absolute(0);
    }
    for scope in [
        "address",
        "vets",
        "retrieve",
        "promo",
        "nectar",
        "policy",
        "quote_email",
        "quote_email_per_quote",
        "session_saves",
    ] {
        ::metrics::counter!("pawpath_rate_limited_total", "scope" => scope).absolute(0);
    }
    ::metrics::counter!("pawpath_card_declines_total").absolute(0);
    ::metrics::counter!("pawpath_log_lines_dropped_total").absolute(0);
}

/// A request answered: `route` is the route's template (`/quote/{*rest}`), never the path;
/// `method` one of HTTP's own, else `other` ([`method_label`]).
pub fn request(route: &str, method: &str, status: u16, took: Duration) {
    let labels = [
        ("route", route.to_owned()),
        ("method", method_label(method).to_owned()),
        ("status", status.to_string()),
    ];
    ::metrics::counter!("pawpath_http_requests_total", &labels).increment(1);
    ::metrics::histogram!("pawpath_http_request_duration_seconds", &labels)
        .record(took.as_secs_f64());
}

/// A request's method as a label: HTTP's own methods by name, any other `other`. A visitor can
/// send any word as a method (`FOO1`, `FOO2`, …), and each would otherwise be a series of its own,
/// kept for the life of the process. The request log names methods the same way.
pub(crate) fn method_label(method: &str) -> &'static str {
    match method {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        "PUT" => "PUT",
        "PATCH" => "PATCH",
        "DELETE" => "DELETE",
        "OPTIONS" => "OPTIONS",
        "CONNECT" => "CONNECT",
        "TRACE" => "TRACE",
        _ => "other",
    }
}

/// A step transition recorded.
pub fn transition(journey: &str, step: &str, event: &str, outcome: &str) {
    ::metrics::counter!(
        "pawpath_transitions_total",
        "journey" => journey.to_owned(),
        "step" => step.to_owned(),
        "event" => event.to_owned(),
        "outcome" => outcome.to_owned(),
    )
    .increment(1);
}

/// A blocking answer, by the rule (the blocking answer's id) that stopped the quote.
pub fn blocked(rule: &str) {
    ::metrics::counter!("pawpath_blocked_answers_total", "rule" => rule.to_owned()).increment(1);
}

/// A purchase attempt's outcome (`bought`, `declined`, `refused`, `failed`).
pub fn purchase(journey: &str, method: &str, outcome: &'static str) {
    ::metrics::counter!(
        "pawpath_purchases_total",
        "journey" => journey.to_owned(),
        "method" => method.to_owned(),
        "outcome" => outcome,
    )
    .increment(1);
}

/// A purchase stopped because the policyholder may be on the sanctions list.
pub fn screening_referral(journey: &str) {
    ::metrics::counter!("pawpath_screening_referrals_total", "journey" => journey.to_owned())
        .increment(1);
}

/// A one-time retrieval link: `sent`, `not_sent` (a live one already waits in the owner's inbox,
/// or the day's are spent), `opened`, or `refused` (expired, used, or its quote no longer open).
pub fn retrieve_link(outcome: &'static str) {
    ::metrics::counter!("pawpath_retrieve_links_total", "outcome" => outcome).increment(1);
}

/// A request body answered 408 for arriving slower than the minimum rate.
pub fn slow_body() {
    ::metrics::counter!("pawpath_slow_bodies_total").increment(1);
}

/// A connection closed to make room because it was the slowest sender of a request body.
pub fn slow_sender_evicted() {
    ::metrics::counter!("pawpath_slow_senders_evicted_total").increment(1);
}

/// A new connection closed unanswered: the server, or its address, at its limit with every
/// connection busy.
pub fn connection_refused() {
    ::metrics::counter!("pawpath_connections_refused_total").increment(1);
}

/// A card the provider declined.
pub fn card_declined() {
    ::metrics::counter!("pawpath_card_declines_total").increment(1);
}

/// A card payment taken that bought nothing, given back.
pub fn card_refunded() {
    ::metrics::counter!("pawpath_card_refunds_total").increment(1);
}

/// A pass of the card payments' reconciliation that could not finish.
pub fn card_reconcile_failed() {
    ::metrics::counter!("pawpath_card_reconcile_failures_total").increment(1);
}

/// Card attempts whose payment is not settled, whatever they wait on, and the oldest's age
/// (set at scrape time): one unsettled for longer than the reconciliation's delay is money that
/// may have been taken without a policy.
pub fn card_attempts_unsettled(unsettled: u64, oldest: Duration) {
    #[allow(clippy::cast_precision_loss)]
    ::metrics::gauge!("pawpath_card_attempts_unsettled").set(unsettled as f64);
    ::metrics::gauge!("pawpath_card_attempts_oldest_unsettled_seconds").set(oldest.as_secs_f64());
}

/// An email delivery attempt: `sent`, `retry` (not sent, tried again later) or `refused` (for good).
/// A page the browser could not draw, as it reported it.
pub fn render_error() {
    ::metrics::counter!("pawpath_render_errors_total").increment(1);
}

pub fn email_delivery(outcome: &'static str) {
    ::metrics::counter!("pawpath_email_deliveries_total", "outcome" => outcome).increment(1);
}

/// A call to a provider (`address`, `vet`, `bank_check`): how long it took and whether it failed.
pub fn provider(provider: &'static str, operation: &'static str, ok: bool, took: Duration) {
    ::metrics::histogram!(
        "pawpath_provider_duration_seconds",
        "provider" => provider,
        "operation" => operation,
        "outcome" => if ok { "ok" } else { "error" },
    )
    .record(took.as_secs_f64());
    if !ok {
        ::metrics::counter!(
            "pawpath_provider_errors_total",
            "provider" => provider,
            "operation" => operation,
        )
        .increment(1);
    }
}

/// A request refused by the rate limit of `scope`.
pub fn rate_limited(scope: &str) {
    ::metrics::counter!("pawpath_rate_limited_total", "scope" => scope.to_owned()).increment(1);
}

/// A policy event delivery attempt: `delivered` or `retry`.
pub fn policy_event_delivery(outcome: &'static str) {
    ::metrics::counter!("pawpath_policy_event_deliveries_total", "outcome" => outcome).increment(1);
}

/// The policy events waiting (set at scrape time): how many, the oldest's age, the most
/// attempts, and how many are over a day old.
#[allow(clippy::cast_precision_loss)]
pub fn policy_events(waiting: u64, oldest: Duration, most_attempts: u64, over_a_day: u64) {
    ::metrics::gauge!("pawpath_policy_events_waiting").set(waiting as f64);
    ::metrics::gauge!("pawpath_policy_events_oldest_undelivered_seconds").set(oldest.as_secs_f64());
    ::metrics::gauge!("pawpath_policy_events_most_attempts").set(most_attempts as f64);
    ::metrics::gauge!("pawpath_policy_events_undelivered_over_a_day").set(over_a_day as f64);
}

/// Card payments waiting on the customer's bank (set at scrape time): how many, and the
/// oldest's age.
pub fn card_payments_authenticating(waiting: u64, oldest: Duration) {
    #[allow(clippy::cast_precision_loss)]
    ::metrics::gauge!("pawpath_card_payments_authenticating").set(waiting as f64);
    ::metrics::gauge!("pawpath_card_payments_oldest_authenticating_seconds")
        .set(oldest.as_secs_f64());
}

/// The outbox as it stands (set at scrape time).
pub fn outbox(depth: u64, oldest: Duration) {
    #[allow(clippy::cast_precision_loss)]
    ::metrics::gauge!("pawpath_outbox_depth").set(depth as f64);
    ::metrics::gauge!("pawpath_outbox_oldest_undelivered_seconds").set(oldest.as_secs_f64());
}

/// A connection pool's use (set at scrape time).
pub fn pool(pool: &'static str, in_use: u32, idle: u32) {
    ::metrics::gauge!("pawpath_db_pool_connections", "pool" => pool, "state" => "in_use")
        .set(f64::from(in_use));
    ::metrics::gauge!("pawpath_db_pool_connections", "pool" => pool, "state" => "idle")
        .set(f64::from(idle));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    /// Recorded latencies are drained on their own, with nobody scraping /metrics: the
    /// recorder's memory does not grow with every request answered.
    #[test]
    fn the_recorder_is_drained_without_a_scrape() {
        install();
        for _ in 0..10_000 {
            request("/healthz", "GET", 200, Duration::from_micros(300));
        }
        let before = UPKEEPS.load(Ordering::Relaxed);
        let deadline = std::time::Instant::now() + 5 * UPKEEP_EVERY;
        while UPKEEPS.load(Ordering::Relaxed) == before {
            assert!(
                std::time::Instant::now() < deadline,
                "no upkeep in {:?}",
                5 * UPKEEP_EVERY
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
