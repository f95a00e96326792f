//! Starting again (journey.md §2 Inactivity timeout, §4 Timers; owner-payment.md §4 Session, §7
//! reset): the quote is reset (its answers cleared, the transition recorded) and parted from the
//! session, so the next page starts a new quote. The customer asks through the timeout modal's
//! "Start a new quote"; the server does the same on its own clock to a quote left idle past the
//! reset time.

use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use engine::runtime::{self, Event, Lifecycle};

use super::api::authorise;
use super::body::JsonObject;
use super::quote;
use crate::AppState;
use crate::error::AppError;
use crate::store::{QuoteRow, TransitionMeta};

/// POST /api/reset: `{csrf}` → `{data: {success: true}}`. (The spec's reset is a GET; a call that
/// changes the quote takes the CSRF token, so it is a POST here.)
pub(super) async fn reset(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    // No quote on this session (none yet, or the server already reset it as idle): there is
    // nothing to reset, and the answer is the same.
    if quote::existing(&state, &headers).await?.is_none() {
        return Ok(Json(json!({ "data": { "success": true } })).into_response());
    }
    let auth = authorise(&state, &headers, &body, &[]).await?;
    reset_quote(&state, &auth.quote, &auth.experiment_views).await?;
    Ok(Json(json!({ "data": { "success": true } })).into_response())
}

/// Resets a quote and parts it from its session. A bought quote keeps its answers (its policies
/// stand); it is parted from the session all the same.
pub(super) async fn reset_quote(
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
pub(super) fn idle_past_reset(state: &AppState, quote: &QuoteRow) -> bool {
    let reset = super::quote::timeouts(state, quote).1;
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
pub(super) fn activity_slack_ms(reset_ms: u64) -> u64 {
    (reset_ms / 20).min(30_000)
}

/// Whether opening a page should record activity: the last recorded is older than the slack.
pub(super) fn activity_due(state: &AppState, quote: &QuoteRow) -> bool {
    let slack = activity_slack_ms(super::quote::timeouts(state, quote).1);
    idle_ms(quote).is_none_or(|idle| idle >= i64::try_from(slack).unwrap_or(i64::MAX))
}
