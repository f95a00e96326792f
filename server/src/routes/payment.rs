//! The payment calls (owner-payment.md §7): bank validation, and the payment page's Confirm
//! payment.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::service::transition::{authorise, submit};

/// POST /api/bankvalidation: `{csrf, payment: {sort_code, account_number, …}}` (the form's
/// values, the sort code without dashes) → `{data: {payment: {bank_details_valid}}}`
/// (owner-payment.md §4 Bank validation). Vocalink's modulus checks; nothing is stored.
pub(super) async fn bank_validation(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    authorise(&state, &caller, &body, &["payment"]).await?;
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
    let valid = crate::service::lookups::bank_details_valid(
        &state,
        text("sort_code")?,
        text("account_number")?,
    );
    Ok(Json(json!({ "data": { "payment": { "bank_details_valid": valid } } })).into_response())
}

/// POST /api/setup-payment: `{csrf, payment}`, the payment page's Confirm payment, checked by the
/// payment question set and its rules. Direct Debit: the bank details, checked with Vocalink's
/// modulus checks; the account number is kept encrypted, never in the quote document. Card (where
/// the brand takes cards): the provider's token, never a card; what pawpath keeps of the card
/// (name, issuer, last four digits, expiry) comes from the provider, whatever the browser sends.
pub(super) async fn setup_payment(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(mut body): JsonObject,
) -> Result<Response, AppError> {
    if let Some(payment) = body.get_mut("payment").and_then(Value::as_object_mut) {
        for name in CARD_FROM_PROVIDER {
            payment.remove(*name);
        }
        if payment.get("payment_method").and_then(Value::as_str) == Some("CC") {
            // A brand that does not take cards (owner-payment.md §1) refuses the method itself
            // before any card is looked for: the engine's rule payment_method_offered, run early.
            crate::service::card_payment::cards_offered(&state, &caller).await?;
            for name in DIRECT_DEBIT_ONLY {
                payment.remove(*name);
            }
            let token = payment
                .get("card_token")
                .and_then(Value::as_str)
                .filter(|t| t.len() <= 100)
                .map(str::to_owned);
            if let Some(token) = token {
                for (name, value) in
                    crate::service::purchase::card_details(&state, &caller, &token).await?
                {
                    payment.insert(name.into(), value);
                }
            }
        } else {
            payment.remove("card_token");
        }
    }
    submit(&state, &caller, body, "/api/setup-payment")
        .await
        .map(IntoResponse::into_response)
}

/// What the server sets from the provider for a card payer, never taken from the browser.
const CARD_FROM_PROVIDER: &[&str] = &["card_name", "card_issuer", "card_last4", "card_expiry"];

/// The Direct Debit answers, which a card payer does not give.
const DIRECT_DEBIT_ONLY: &[&str] = &[
    "account_name",
    "sort_code",
    "account_number",
    "payment_day",
    "dd_confirmation",
];

/// POST /payments/webhook: the card payment provider's webhook, checked by its
/// signature before anything is read. 200 when handled (or nothing was to be done); 503 when
/// the purchase could not be made just now, so the provider sends it again; 400 for a signature
/// or body that does not hold; 404 where the provider sends none (the test provider).
pub(super) async fn provider_webhook(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    use crate::service::card_return::WebhookAnswer;
    use axum::http::StatusCode;
    let answer =
        |status: StatusCode, error: &str| (status, Json(json!({ "error": error }))).into_response();
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    match crate::service::card_return::provider_webhook(&state, &header, &body).await {
        WebhookAnswer::Handled => Json(json!({ "received": true })).into_response(),
        WebhookAnswer::Later => answer(StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        WebhookAnswer::NotTaken => answer(StatusCode::NOT_FOUND, "not_found"),
        WebhookAnswer::Refused(refused) => {
            tracing::warn!(%refused, "payment provider webhook refused");
            answer(StatusCode::BAD_REQUEST, &refused)
        }
    }
}

/// GET /payments/return?payment_intent=…: the customer's bank sends the browser back here after
/// a 3-D Secure challenge (see [`crate::service::card_return::returned_from_bank`]); 303 to the
/// confirmation (with the bought quote's session cookie) or to the page bought from.
pub(super) async fn payment_return(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    axum::extract::Query(query): axum::extract::Query<std::collections::HashMap<String, String>>,
) -> Result<Response, AppError> {
    use axum::http::{HeaderValue, StatusCode, header};
    let payment = query
        .get("payment_intent")
        .filter(|p| {
            (1..=255).contains(&p.len())
                && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
        .ok_or_else(|| {
            AppError::BadRequest("payment_intent must be the provider's payment id".into())
        })?;
    let (location, session) =
        crate::service::card_return::returned_from_bank(&state, &caller, payment).await?;
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&location) {
        headers.insert(header::LOCATION, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(session) = session
        && let Ok(v) = HeaderValue::from_str(&session.set_cookie(state.config.secure_cookies()))
    {
        headers.insert(header::SET_COOKIE, v);
    }
    Ok(response)
}
