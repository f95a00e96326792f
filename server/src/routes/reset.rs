//! Starting again (journey.md §2 Inactivity timeout, §4 Timers; owner-payment.md §4 Session, §7
//! reset): the quote is reset (its answers cleared, the transition recorded) and parted from the
//! session, so the next page starts a new quote. The customer asks through the timeout modal's
//! "Start a new quote"; the server does the same on its own clock to a quote left idle past the
//! reset time.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::quote::reset_quote;
use crate::service::state::AppState;
use crate::service::transition::authorise;

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
