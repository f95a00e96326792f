//! POST /api/AddressSearch (owner-payment.md §7): `{address, text?}` finds the addresses at a
//! postcode (sent without spaces), narrowed by a house name or number; `{id}` retrieves one. A
//! lookup that changes nothing, so it needs no session. The postcode rule is the owner's
//! (engine::postcode), with the address search's messages (§5 Address search).

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use engine::postcode::Postcode;

use super::body::JsonObject;
use super::quote::LANGUAGE;
use crate::AppState;
use crate::error::{AppError, FieldMessage};

const FIELDS: [&str; 6] = [
    "address",
    "text",
    "id",
    "locale",
    "csrf",
    "experiment_views",
];

fn text_field<'a>(
    body: &'a serde_json::Map<String, Value>,
    name: &str,
) -> Result<Option<&'a str>, AppError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(AppError::BadRequest(format!("{name} must be text"))),
    }
}

pub(super) async fn address_search(
    State(state): State<AppState>,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    if let Some(unknown) = body.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(AppError::BadRequest(format!(
            "unknown field {unknown:?}; this call takes address and text, or id"
        )));
    }
    if let Some(id) = text_field(&body, "id")? {
        if id.is_empty() || id.len() > 200 {
            return Err(AppError::BadRequest(
                "id must be 1 to 200 characters".into(),
            ));
        }
        let found = state
            .addresses
            .retrieve(id)
            .await
            .map_err(|e| AppError::Unavailable(e.to_string()))?;
        return Ok(Json(json!({ "data": found })).into_response());
    }
    let message = |key: &str| {
        AppError::Validation(vec![FieldMessage {
            field: "postcode".into(),
            message: state.defs.text(LANGUAGE, key, &Default::default()),
        }])
    };
    let typed = text_field(&body, "address")?.unwrap_or_default();
    if typed.trim().is_empty() {
        return Err(message("address.postcode_required"));
    }
    let postcode = Postcode::parse(typed).ok_or_else(|| message("address.postcode_invalid"))?;
    let house = text_field(&body, "text")?;
    if house.is_some_and(|h| h.chars().count() > 50) {
        return Err(AppError::BadRequest(
            "text must be at most 50 characters".into(),
        ));
    }
    let items = state
        .addresses
        .find(&postcode, house)
        .await
        .map_err(|e| AppError::Unavailable(e.to_string()))?;
    Ok(Json(json!({ "data": items, "postcode": postcode.as_str() })).into_response())
}
