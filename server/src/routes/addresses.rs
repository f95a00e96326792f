//! POST /api/AddressSearch (owner-payment.md §7): `{address, text?}` finds the addresses at a
//! postcode (sent without spaces), narrowed by a house name or number; `{id}` retrieves one. A
//! lookup that changes nothing, so it needs no session. The postcode rule is the owner's
//! (engine::definitions::postcode), with the address search's messages (§5 Address search).

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use engine::definitions::postcode::Postcode;

use crate::http::body::JsonObject;
use crate::service::error::{AppError, FieldMessage};
use crate::service::fields::{only_fields, optional_text};
use crate::service::state::AppState;

pub(super) async fn address_search(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    only_fields(&body, &["address", "text", "id"])?;
    // Each lookup may be a paid one (Loqate): a budget per caller.
    crate::service::limits::limit(&state, "address", &caller).await?;
    if let Some(id) = optional_text(&body, "id", 200)? {
        if id.is_empty() {
            return Err(AppError::BadRequest(
                "id must be 1 to 200 characters".into(),
            ));
        }
        let found = crate::service::lookups::address(&state, id).await?;
        return Ok(Json(json!({ "data": found })).into_response());
    }
    let voice = crate::service::quote::request_voice(&state, &caller).await;
    let message = |key: &str| {
        AppError::Validation(vec![FieldMessage {
            field: "postcode".into(),
            message: voice.t(key),
        }])
    };
    let typed = optional_text(&body, "address", 20)?.unwrap_or_default();
    if typed.trim().is_empty() {
        return Err(message("address.postcode_required"));
    }
    let postcode = Postcode::parse(typed).ok_or_else(|| message("address.postcode_invalid"))?;
    let house = optional_text(&body, "text", 50)?;
    let items = crate::service::lookups::addresses_at(&state, &postcode, house).await?;
    Ok(Json(json!({ "data": items, "postcode": postcode.as_str() })).into_response())
}
