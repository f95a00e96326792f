//! A JSON body extractor whose every failure is a JSON error naming the problem.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use serde_json::{Map, Value};

use crate::error::AppError;

/// A request body that is a JSON object.
pub(super) struct JsonObject(pub Map<String, Value>);

impl<S: Send + Sync> FromRequest<S> for JsonObject {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            });
        if !is_json {
            return Err(AppError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e: BytesRejection| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    AppError::PayloadTooLarge
                } else {
                    AppError::BadRequest(e.body_text())
                }
            })?;
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(map)) => Ok(Self(map)),
            Ok(_) => Err(AppError::BadRequest(
                "the body must be a JSON object".into(),
            )),
            Err(e) => Err(AppError::BadRequest(format!(
                "the body is not valid JSON: {e}"
            ))),
        }
    }
}

/// Fields the shared call helper adds to every payload (journey.md §7).
pub(super) const HELPER_FIELDS: [&str; 3] = ["csrf", "locale", "experiment_views"];

/// Refuses a body with a field the call does not take (besides the helper's), naming it.
pub(super) fn only_fields(body: &Map<String, Value>, fields: &[&str]) -> Result<(), AppError> {
    match body
        .keys()
        .find(|k| !HELPER_FIELDS.contains(&k.as_str()) && !fields.contains(&k.as_str()))
    {
        Some(unknown) => Err(AppError::BadRequest(format!(
            "unknown field {unknown:?}; this call takes {}",
            fields.join(", ")
        ))),
        None => Ok(()),
    }
}

/// A text field that may be absent (or null); anything but text, or text longer than `max`
/// characters, is refused naming the field.
pub(super) fn optional_text<'a>(
    body: &'a Map<String, Value>,
    name: &str,
    max: usize,
) -> Result<Option<&'a str>, AppError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.chars().count() <= max => Ok(Some(s.as_str())),
        Some(Value::String(_)) => Err(AppError::BadRequest(format!(
            "{name} must be at most {max} characters"
        ))),
        Some(_) => Err(AppError::BadRequest(format!("{name} must be text"))),
    }
}
