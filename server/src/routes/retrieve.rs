//! Retrieve a quote (owner-payment.md §2 Retrieve quote, §4 Session; journey.md §4 Policy start
//! date "A quote retrieved after expiry becomes a new quote with the start date set to today";
//! §8 Quote expired): by quote reference and email. A wrong reference and a wrong email get the
//! same answer after the same work, and each caller may try only a few times in a window, so the
//! call tells a guesser nothing.

use axum::extract::State;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::retrieve::{ANSWER_AFTER, find};
use crate::service::state::AppState;
use crate::service::transition::authorise;

/// POST /api/quoteretrieval: `{csrf, quote_reference, email}` → `{data: {path, expired}}`: the
/// quote joins this browser's session and the page to open is its furthest step.
pub(super) async fn quote_retrieval(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<crate::service::Reply, AppError> {
    let auth = authorise(&state, &caller, &body, &["quote_reference", "email"]).await?;
    crate::service::limits::limit(&state, "retrieve", &caller).await?;
    // Every answer from here leaves at the same moment, whatever was found (a wrong
    // email took longer than a wrong reference, which told a guesser the reference was real).
    let answer_at = tokio::time::Instant::now() + ANSWER_AFTER;
    let answer = find(&state, &caller, &body, auth).await;
    tokio::time::sleep_until(answer_at).await;
    answer
}

/// POST /api/quoteretrieval-link: `{csrf, quote_reference}` → `{data: {sent, message}}`, the
/// same words after the same time whether or not the reference is one of ours.
pub(super) async fn quote_retrieval_link(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<axum::Json<serde_json::Value>, AppError> {
    let answer_at = tokio::time::Instant::now() + ANSWER_AFTER;
    let answer = crate::service::retrieve_link::send(&state, &caller, &body).await;
    tokio::time::sleep_until(answer_at).await;
    answer.map(axum::Json)
}

/// GET /retrieve/continue/{token}: the one-time link from the email opens the quote (a 303 with
/// the new session's cookie).
pub(super) async fn continue_link(
    State(state): State<AppState>,
    axum::extract::Path(token): axum::extract::Path<String>,
) -> Result<axum::response::Response, AppError> {
    let landing = crate::service::retrieve_link::open(&state, &token).await?;
    Ok(crate::http::answers::see_other(&landing.to, landing.cookie))
}
