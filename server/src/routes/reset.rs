//! Starting again (journey.md §2 Inactivity timeout, §4 Timers; owner-payment.md §4 Session, §7
//! reset): the quote is reset (its answers cleared, the transition recorded) and parted from the
//! session, so the next page starts a new quote. The customer asks through the timeout modal's
//! "Start a new quote"; the server does the same on its own clock to a quote left idle past the
//! reset time.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::quote::reset_quote;
use crate::service::state::AppState;
use crate::service::transition::authorise_found;

/// POST /api/reset: `{csrf}` → `{data: {success: true, start, retrieve?}}`: `retrieve`, where the
/// quote was kept to be found again (its owner's email is stored), is its retrieve-quote page
/// with the reference filled in; `start` is where the new quote
/// begins, on the old one's journey and brand with its tracking token (a reset starts
/// the journey again, not the brand or the channel). (The spec's reset is a GET; a call that
/// changes the quote takes the CSRF token, so it is a POST here.) A token that is not the
/// session's is refused (403) and resets nothing, but says where the session's quote starts.
pub(super) async fn reset(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let carried = match quote::existing_or_reset(&state, &caller).await? {
        // The server already reset it as idle (just now): the answer is the same.
        quote::Found::Reset(carried) => carried,
        quote::Found::Quote(found, token) => {
            let carried = quote::Carried::of(&found);
            let auth = match authorise_found(&state, found, token, &body, &[]).await {
                Ok(auth) => auth,
                // The page's token is not this session's: another tab (or the server, on a page
                // opened after the quote was left idle) has moved the browser to a newer quote.
                // Nothing is reset; the refusal still says where this browser's quote starts,
                // so the page goes there, on its brand and journey, not to the default brand's.
                Err(AppError::Csrf) => {
                    let start = carried.start(&state);
                    return Ok((
                        axum::http::StatusCode::FORBIDDEN,
                        Json(json!({
                            "error": "csrf",
                            "message": "Your session has expired or this page is out of date. Please reload the page.",
                            "data": { "success": false, "start": start },
                        })),
                    )
                        .into_response());
                }
                Err(e) => return Err(e),
            };
            reset_quote(&state, &auth.quote, &auth.experiment_views).await?;
            carried
        }
        // No quote on this session (none yet, or reset by an earlier request): nothing to
        // reset; the new quote starts on the default brand's direct journey.
        quote::Found::Nothing => quote::Carried {
            brand: quote::DEFAULT_BRAND.into(),
            journey: quote::DEFAULT_JOURNEY.into(),
            tracking_token: None,
            kept: None,
        },
    };
    let start = carried.start(&state);
    let mut data = json!({ "success": true, "start": start });
    if let Some(retrieve) = carried.retrieve(&state) {
        data["retrieve"] = json!(retrieve);
    }
    Ok(Json(json!({ "data": data })).into_response())
}
