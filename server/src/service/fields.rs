//! What a call's body may carry: the fields it takes besides the call helper's, each of the
//! size it allows.

use serde_json::{Map, Value};

use crate::service::error::AppError;

/// Fields the shared call helper adds to every payload (journey.md §7).
pub const HELPER_FIELDS: [&str; 3] = ["csrf", "locale", "experiment_views"];

/// Refuses a body with a field the call does not take (besides the helper's), naming it.
pub fn only_fields(body: &Map<String, Value>, fields: &[&str]) -> Result<(), AppError> {
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
pub fn optional_text<'a>(
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
