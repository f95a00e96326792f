//! An [`AppError`] as an HTTP answer: its status, and a clean JSON body (internal detail goes to
//! the log, never to the client).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::service::error::{AppError, Closed, FieldMessage};

/// The status each error answers with.
pub fn status(error: &AppError) -> StatusCode {
    match error {
        AppError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
        AppError::Csrf | AppError::Forbidden(_) => StatusCode::FORBIDDEN,
        AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
        AppError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        AppError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        AppError::NotFound => StatusCode::NOT_FOUND,
        AppError::Conflict
        | AppError::QuoteClosed
        | AppError::HistoryFull
        | AppError::NotApplicable(_)
        | AppError::StepClosed(_) => StatusCode::CONFLICT,
        AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        AppError::Unavailable(_) => StatusCode::BAD_GATEWAY,
        AppError::RateLimited(_) | AppError::SlowDown { .. } => StatusCode::TOO_MANY_REQUESTS,
    }
}

/// The longest text an error answer carries: a message may quote what the caller sent, and an
/// answer stays within its bound whatever that was.
const MAX_MESSAGE_CHARS: usize = 300;

fn bounded(text: &str) -> String {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = status(&self);
        let body = match &self {
            AppError::Validation(errors) => {
                // At most one error per field and fifty in all; no message past its bound.
                let errors: Vec<FieldMessage> = errors
                    .iter()
                    .take(engine::definitions::schema::MAX_FIELD_ERRORS)
                    .map(|e| FieldMessage {
                        field: bounded(&e.field),
                        message: bounded(&e.message),
                    })
                    .collect();
                json!({ "error": "validation", "errors": errors })
            }
            AppError::Csrf => {
                json!({ "error": "csrf", "message": "Your session has expired or this page is out of date. Please reload the page." })
            }
            AppError::BadRequest(m) => json!({ "error": "bad_request", "message": bounded(m) }),
            AppError::PayloadTooLarge => {
                json!({ "error": "payload_too_large", "message": "The request body is too large." })
            }
            AppError::UnsupportedMediaType => {
                json!({ "error": "unsupported_media_type", "message": "Send the body as application/json." })
            }
            AppError::NotFound => {
                json!({ "error": "not_found", "message": "There is no such page." })
            }
            AppError::Conflict => {
                json!({ "error": "conflict", "message": "Your quote was changed in another window. Please reload the page." })
            }
            AppError::QuoteClosed => {
                json!({ "error": "quote_closed", "message": "This quote can no longer be changed." })
            }
            AppError::NotApplicable(m) => {
                json!({ "error": "not_applicable", "message": bounded(m) })
            }
            AppError::HistoryFull => {
                json!({ "error": "history_full", "message": "This quote has been changed more times than we can keep, so nothing more was saved. You can still buy it as it is, or start a new quote." })
            }
            AppError::Internal(detail) => {
                tracing::error!(error = %detail, "internal error");
                json!({ "error": "internal", "message": "Something went wrong on our side. Please try again." })
            }
            AppError::Forbidden(message) => json!({ "error": "forbidden", "message": message }),
            AppError::RateLimited(message) => {
                json!({ "error": "rate_limited", "message": message })
            }
            AppError::SlowDown { message, .. } => {
                json!({ "error": "rate_limited", "message": message })
            }
            AppError::Unavailable(detail) => {
                tracing::warn!(error = %detail, "third party unavailable");
                json!({ "error": "unavailable", "message": "This service is not available just now. Please try again, or enter the details by hand." })
            }
            AppError::StepClosed(closed) => closed_body(closed),
        };
        let mut response = (status, Json(body)).into_response();
        if let AppError::SlowDown { retry_after, .. } = &self {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(*retry_after),
            );
        }
        response
    }
}

/// The answer's body: `step_closed`, what was asked for, the guards that failed, and a
/// message for the developer calling the API (the pages never offer a closed step).
fn closed_body(closed: &Closed) -> serde_json::Value {
    let because = |guards: &[String]| match guards {
        [] => String::new(),
        [one] => format!(": the guard {one:?} does not hold"),
        many => format!(": the guards {many:?} do not hold"),
    };
    match closed {
        Closed::Step { step, guards } => json!({
            "error": "step_closed",
            "step": step,
            "guards": guards,
            "message": format!(
                "The step {step:?} cannot be opened yet{}. Nothing was stored: complete the steps before it first.",
                because(guards)
            ),
        }),
        Closed::Form { form } => json!({
            "error": "step_closed",
            "form": form,
            "guards": [],
            "message": format!(
                "The form {form:?} cannot be changed yet: no step that offers it is open. Nothing was stored: complete the steps before it first."
            ),
        }),
        Closed::Purchase { step, guards } => json!({
            "error": "step_closed",
            "step": step,
            "guards": guards,
            "message": format!(
                "The quote cannot be bought yet: the step {step:?} is not open or not complete{}. Nothing was stored: complete the payment details first.",
                because(guards)
            ),
        }),
    }
}
