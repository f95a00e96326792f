//! The code checks' calls (owner-payment.md §7 Promo code, Nectar card lookup, Existing policy
//! check): `POST /api/checkoffercode`, `POST /api/getnectarcard` and `POST
//! /api/CheckExistingPolicy`, each taken apart here and answered by `service::codes`.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::fields::{only_fields, optional_text};
use crate::service::state::AppState;

/// POST /api/checkoffercode: `{offercode, species, token, brand}` → `{valid, desc, summ, nectar}`.
/// The brand and species are the quote's when the caller has one; an empty species means the
/// pets on the quote.
pub(super) async fn check_offer_code(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    only_fields(&body, &["offercode", "species", "token", "brand"])?;
    let code = optional_text(&body, "offercode", 40)?.unwrap_or_default();
    let species_typed = optional_text(&body, "species", 10)?.unwrap_or_default();
    let _token = optional_text(&body, "token", 100)?.unwrap_or_default();
    let brand_typed = optional_text(&body, "brand", 10)?.unwrap_or_default();
    if code.trim().is_empty() {
        return Err(AppError::BadRequest("offercode is required".into()));
    }
    let answer =
        crate::service::codes::offer_code(&state, &caller, code, species_typed, brand_typed)
            .await?;
    Ok(Json(json!({ "data": answer })).into_response())
}

/// POST /api/getnectarcard: `{nectarcard}` (the 11 digits after 9826 3000) →
/// `{nectarCard: {valid, desc, summ}}`.
pub(super) async fn get_nectar_card(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    only_fields(&body, &["nectarcard"])?;
    let number = optional_text(&body, "nectarcard", 30)?.unwrap_or_default();
    let answer = crate::service::codes::nectar_card(&state, &caller, number).await?;
    Ok(Json(json!({ "nectarCard": answer })).into_response())
}

/// POST /api/CheckExistingPolicy: `{policyno, brand, postcode}` → `{existing_policy_valid}`
/// (owner-payment.md §5 Existing policy number, §7 Existing policy check). The brand is the
/// quote's and the postcode the owner's when the caller has a quote. A match on a quote (with its
/// CSRF token) is stored there, which stops name and address editing (journeys/direct.json
/// `locks`); the answer is then the new view data.
pub(super) async fn check_existing_policy(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    only_fields(&body, &["policyno", "brand", "postcode"])?;
    let number = optional_text(&body, "policyno", 40)?.unwrap_or_default();
    let brand_typed = optional_text(&body, "brand", 10)?.unwrap_or_default();
    let postcode_typed = optional_text(&body, "postcode", 20)?.unwrap_or_default();
    Ok(
        match crate::service::codes::existing_policy(
            &state,
            &caller,
            &body,
            number,
            brand_typed,
            postcode_typed,
        )
        .await?
        {
            crate::service::codes::PolicyCheck::Stored(reply) => reply.into_response(),
            crate::service::codes::PolicyCheck::Answer(answer) => Json(answer).into_response(),
        },
    )
}
