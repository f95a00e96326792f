//! POST /api/getvetlist: `{postcode, locale}` → the practices near it (journey.md §7;
//! owner-payment.md §5 Vet). A lookup that changes nothing, so it needs no session; each caller
//! has a budget of lookups (issue 21).

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::body::JsonObject;
use crate::service::error::{AppError, FieldMessage};
use crate::service::fields::{only_fields, optional_text};
use crate::service::state::AppState;
use crate::vets::{VetPostcode, VetPostcodeError};

/// At most this many practices come back.
const LIMIT: usize = 10;

pub(super) async fn vet_list(
    State(state): State<AppState>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    headers: axum::http::HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    only_fields(&body, &["postcode"])?;
    crate::service::limits::limit(&state, "vets", peer, &headers).await?;
    let voice = crate::service::quote::request_voice(&state, &headers).await;
    let typed = optional_text(&body, "postcode", 20)?.unwrap_or_default();
    let postcode = VetPostcode::parse(typed).map_err(|e| {
        let key = match e {
            VetPostcodeError::Required => "vet.postcode.required",
            VetPostcodeError::Invalid => "vet.postcode.invalid",
        };
        AppError::Validation(vec![FieldMessage {
            field: "postcode".into(),
            message: voice.t(key),
        }])
    })?;
    let vets = state.vets.near(&postcode, LIMIT);
    Ok(Json(json!({ "data": vets, "postcode": postcode.as_str() })).into_response())
}
