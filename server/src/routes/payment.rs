//! The payment calls (owner-payment.md §7): bank validation, and the payment page's Confirm
//! payment.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::api::{authorise, submit};
use super::body::JsonObject;
use crate::AppState;
use crate::error::AppError;

/// POST /api/bankvalidation: `{csrf, payment: {sort_code, account_number, …}}` (the form's
/// values, the sort code without dashes) → `{data: {payment: {bank_details_valid}}}`
/// (owner-payment.md §4 Bank validation). Vocalink's modulus checks; nothing is stored.
pub(super) async fn bank_validation(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    authorise(&state, &headers, &body, &["payment"]).await?;
    let payment = body
        .get("payment")
        .and_then(Value::as_object)
        .ok_or_else(|| AppError::BadRequest("payment must be an object".into()))?;
    let text = |name: &str| -> Result<&str, AppError> {
        payment
            .get(name)
            .and_then(Value::as_str)
            .filter(|s| s.len() <= 20)
            .ok_or_else(|| AppError::BadRequest(format!("payment.{name} must be text")))
    };
    let valid = state
        .bank
        .check(text("sort_code")?, text("account_number")?)
        .is_ok_and(engine::modulus::Outcome::accepted);
    Ok(Json(json!({ "data": { "payment": { "bank_details_valid": valid } } })).into_response())
}

/// POST /api/setup-payment: `{csrf, payment}`, the payment page's Confirm payment: the Direct
/// Debit details, checked by the payment question set and Vocalink's modulus checks; the account
/// number is kept encrypted, never in the quote document.
pub(super) async fn setup_payment(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    submit(&state, &headers, body, "/api/setup-payment", &["payment"]).await
}
