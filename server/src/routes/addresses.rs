//! POST /api/AddressSearch (owner-payment.md §7): `{address, text?}` finds the addresses at a
//! postcode (sent without spaces), narrowed by a house name or number; `{id}` retrieves one. A
//! lookup that changes nothing, so it needs no session. The postcode is read as the owner's is,
//! with the address search's messages (§5 Address search): `service::lookups`.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
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
    let typed = optional_text(&body, "address", 20)?.unwrap_or_default();
    let house = optional_text(&body, "text", 50)?;
    let (postcode, items) =
        crate::service::lookups::addresses_typed(&state, &caller, typed, house).await?;
    Ok(Json(json!({ "data": items, "postcode": postcode })).into_response())
}
