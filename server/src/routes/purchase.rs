//! Buying (owner-payment.md §2 Bank details panel "continue goes to /confirmation", §4
//! Confirmation): the policies, the Direct Debit mandate and its collection schedule, made in
//! one database transaction, exactly once. A double click, a retry after a dropped connection,
//! two tabs or fifty identical requests at once make one purchase and get the same answer: the
//! database allows one purchase per quote, and every request after the first is answered with
//! that purchase.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::body::JsonObject;
use crate::service::emails::Confirmation;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::quote::confirmation;
use crate::service::state::AppState;
use crate::service::transition::{Authorised, authorise};

/// POST /api/purchase: `{csrf, idempotency_key}` (a key the page makes for each purchase attempt
/// and sends again on a retry). Answers the confirmation page's view data, with the new session
/// the purchase moved the quote to (`service::purchase::purchase`).
pub(super) async fn purchase(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    crate::service::purchase::purchase(&state, &caller, &body)
        .await
        .map(IntoResponse::into_response)
}

/// GET /api/confirmation (owner-payment.md §7 Confirmation: "reads csrf"): the confirmation
/// page's view data for this session's bought quote; 404 when the session has none.
pub(super) async fn confirmation_data(
    State(state): State<AppState>,
    caller: crate::service::Caller,
) -> Result<Response, AppError> {
    let Some((quote, token)) = quote::existing(&state, &caller).await? else {
        return Err(AppError::NotFound);
    };
    if !quote.is_bought() {
        return Err(AppError::NotFound);
    }
    confirmation(&state, &quote, &token)
        .await
        .map(IntoResponse::into_response)
}

/// POST /api/sendquoteemail `{csrf}` (owner-payment.md §7): the quote emailed to its owner
/// (`service::reminders::send_quote`).
pub(super) async fn send_quote_email(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let answer = crate::service::reminders::send_quote(&state, &caller, &body).await?;
    Ok(axum::Json(answer).into_response())
}

/// POST /api/confirmationEmail `{csrf, send_confirmation_email: 1}` (owner-payment.md §4
/// Confirmation, §7 Confirmation email): the confirmation page asks for the confirmation email.
/// The purchase already wrote it to the outbox, so asking again, from a reload or a second tab,
/// never sends a second one; the answer says where it stands, and the worker is woken to send it
/// now.
pub(super) async fn confirmation_email(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let Authorised { quote, .. } =
        authorise(&state, &caller, &body, &["send_confirmation_email"]).await?;
    match body.get("send_confirmation_email") {
        Some(v) if v == &json!(1) => {}
        _ => {
            return Err(AppError::BadRequest(
                "send_confirmation_email must be 1".into(),
            ));
        }
    }
    if !quote.is_bought() {
        return Err(AppError::NotApplicable(
            "the quote has not been bought: there is no confirmation to email".into(),
        ));
    }
    let status =
        crate::service::emails::confirmation_email(&state, &quote, Confirmation::Purchase).await?;
    Ok(Json(json!({ "data": { "confirmation_email": status } })).into_response())
}
