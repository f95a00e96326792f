//! Starting again (journey.md §2 Inactivity timeout, §4 Timers; owner-payment.md §4 Session): a
//! quote reset (its answers cleared, the transition recorded) and parted from its session, and
//! when the server does so on its own clock for a quote left idle.

use std::time::Instant;

use engine::journey::runtime::{self, Event, Lifecycle};

use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;
use crate::store::{QuoteRow, TransitionMeta};

/// Resets a quote and parts it from its session. A bought quote keeps its answers (its policies
/// stand); it is parted from the session all the same.
pub async fn reset_quote(
    state: &AppState,
    quote: &QuoteRow,
    experiment_views: &[String],
) -> Result<(), AppError> {
    let started = Instant::now();
    if quote.lifecycle == Lifecycle::Active {
        let journey = quote::journey(state, quote)?;
        let rules = quote::rule_context(state, quote);
        let result = runtime::transition(
            &state.defs,
            &journey.id,
            &quote.document,
            quote.lifecycle,
            &Event::Reset,
            rules,
        )?;
        let meta = TransitionMeta::of(quote, started, experiment_views);
        state
            .store
            .record(
                quote,
                Some((&result.document, result.lifecycle)),
                &result.record,
                meta,
                &[],
            )
            .await?;
    }
    state.store.detach_session(&quote.id).await?;
    tracing::info!(quote = %quote.id, "quote reset and parted from its session");
    Ok(())
}

/// Whether a quote has been idle past the reset time (the server's own clock). Opening a page
/// records activity at most once per [`activity_slack_ms`] (issue 22: a page view writes
/// nothing when the quote was active moments ago), so the server waits that much longer: it
/// never resets a quote before the browser's own timer would.
pub fn idle_past_reset(state: &AppState, quote: &QuoteRow) -> bool {
    let reset = crate::service::quote::timeouts(state, quote).1;
    idle_ms(quote).is_some_and(|idle| {
        idle >= i64::try_from(reset.saturating_add(activity_slack_ms(reset))).unwrap_or(i64::MAX)
    })
}

/// How long ago the quote was last active, by the server's clock.
fn idle_ms(quote: &QuoteRow) -> Option<i64> {
    let last = chrono::DateTime::parse_from_rfc3339(&quote.updated_at).ok()?;
    Some(
        chrono::Utc::now()
            .signed_duration_since(last)
            .num_milliseconds(),
    )
}

/// How stale the recorded activity may be: a twentieth of the reset time, at most 30 seconds.
pub fn activity_slack_ms(reset_ms: u64) -> u64 {
    (reset_ms / 20).min(30_000)
}

/// Whether opening a page should record activity: the last recorded is older than the slack.
pub fn activity_due(state: &AppState, quote: &QuoteRow) -> bool {
    let slack = activity_slack_ms(crate::service::quote::timeouts(state, quote).1);
    idle_ms(quote).is_none_or(|idle| idle >= i64::try_from(slack).unwrap_or(i64::MAX))
}
