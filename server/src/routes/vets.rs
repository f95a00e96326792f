//! POST /api/getvetlist: `{postcode, locale}` → the practices near it (journey.md §7;
//! owner-payment.md §5 Vet). A lookup that changes nothing, so it needs no session; each caller
//! has a budget of lookups.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::fields::{only_fields, optional_text};
use crate::service::state::AppState;

/// At most this many practices come back.
const LIMIT: usize = 10;

pub(super) async fn vet_list(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    only_fields(&body, &["postcode"])?;
    crate::service::limits::limit(&state, "vets", &caller).await?;
    let voice = crate::service::quote::request_voice(&state, &caller).await;
    let typed = optional_text(&body, "postcode", 20)?.unwrap_or_default();
    let (vets, postcode) = crate::service::lookups::vets_near(&state, &voice, typed, LIMIT)?;
    Ok(Json(json!({ "data": vets, "postcode": postcode })).into_response())
}
