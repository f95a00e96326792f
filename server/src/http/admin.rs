//! The internal pages' door: the admin token, as a bearer token or a Basic password.

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use subtle::ConstantTimeEq as _;

use crate::config::ApiKey;
use crate::service::error::AppError;
use crate::service::state::AppState;

/// The response refusing a request without the admin token (404 when the internal pages are
/// off, 401 otherwise); `None` when the request carries it.
pub fn refusal(state: &AppState, headers: &HeaderMap) -> Option<Response> {
    refusal_for(state.config.admin_token.as_ref(), headers)
}

/// The response refusing a request without `expected` as its bearer token or Basic password
/// (404 when there is no such token, so the endpoint is off; 401 otherwise).
pub fn refusal_for(expected: Option<&ApiKey>, headers: &HeaderMap) -> Option<Response> {
    let Some(expected) = expected else {
        return Some(AppError::NotFound.into_response());
    };
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let given = if let Some(token) = value.strip_prefix("Bearer ") {
        token.to_owned()
    } else if let Some(encoded) = value.strip_prefix("Basic ") {
        base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .and_then(|pair| {
                pair.split_once(':')
                    .map(|(_, password)| password.to_owned())
            })
            .unwrap_or_default()
    } else {
        String::new()
    };
    if bool::from(given.as_bytes().ct_eq(expected.0.as_bytes())) {
        None
    } else {
        Some(
            (
                StatusCode::UNAUTHORIZED,
                [
                    (
                        header::WWW_AUTHENTICATE,
                        "Basic realm=\"pawpath internal\", charset=\"UTF-8\"",
                    ),
                    // A refusal is no more to be kept than what it guards.
                    (header::CACHE_CONTROL, "no-store"),
                ],
                axum::Json(serde_json::json!({ "error": "unauthorised" })),
            )
                .into_response(),
        )
    }
}
