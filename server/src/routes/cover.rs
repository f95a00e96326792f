//! The cover calls (journey.md §7): saving each pet's cover, re-quoting one pet with a new excess
//! (`/api/getFlexProducts`), changing the claim contribution on review (`/api/changecoins`),
//! loading the products (`/api/get-products`), the viewed-products beacon
//! (`/api/trackViewedProducts`), and the internal pricing working a product team reads.

use std::time::Instant;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;
use crate::service::transition::{authorise, submit};

/// POST /api/saveCover: `{csrf, pets: [{product: {Code}, set_excess, set_coins}]}`, the
/// choose-policy step's Continue (journey.md §4 Cover selection: "The last pet shows Continue and
/// submits"). The spec does not name this call; it is the cover form's own.
pub(super) async fn save_cover(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    submit(&state, &caller, body, "/api/saveCover")
        .await
        .map(IntoResponse::into_response)
}

/// POST /api/getFlexProducts: `{csrf, pets: [{id, set_excess, set_coins}]}` (journey.md §7: only
/// the changed pet, the claim contribution as a fraction). Re-quotes that pet; the answer is the
/// new view data, products included.
pub(super) async fn get_flex_products(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let started = Instant::now();
    let auth = authorise(&state, &caller, &body, &["pets"]).await?;
    let Some(Value::Array(changed)) = body.get("pets") else {
        return Err(AppError::BadRequest("pets must be an array".into()));
    };
    crate::service::cover::flex_products(&state, auth, changed, started)
        .await
        .map(IntoResponse::into_response)
}

/// POST /api/changecoins: `{csrf, pet_id, co_insurance}`, the review page's claim contribution
/// chooser (journey.md §4: "Choosing a co-insurance option on the review page immediately updates
/// the view data"). `co_insurance` is the percentage shown (0, 10 or 20).
pub(super) async fn change_coins(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let started = Instant::now();
    let auth = authorise(&state, &caller, &body, &["pet_id", "co_insurance"]).await?;
    crate::service::cover::change_coins(
        &state,
        auth,
        body.get("pet_id"),
        body.get("co_insurance"),
        started,
    )
    .await
    .map(IntoResponse::into_response)
}

/// GET /api/get-products: the quote's products and each pet's chosen one (journey.md §7).
pub(super) async fn get_products(
    State(state): State<AppState>,
    caller: crate::service::Caller,
) -> Result<Response, AppError> {
    let Some((quote, token)) = quote::existing(&state, &caller).await? else {
        return Err(AppError::NotFound);
    };
    let answer = crate::service::cover::products(&state, &quote, &token).await?;
    Ok(Json(answer).into_response())
}

/// POST /api/trackViewedProducts (a beacon): `{csrf, key: ["{original pet id}_{product code}"]}`
/// (journey.md §7). Each key must name a pet of the quote and a product it is offered.
pub(super) async fn track_viewed_products(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let quote = authorise(&state, &caller, &body, &["key"]).await?.quote;
    crate::service::cover::track_viewed(&state, &quote, &body).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// GET /internal/quotes/{reference}/pricing (`Authorization: Bearer <PAWPATH_ADMIN_TOKEN>`): the
/// working of every price on the quote as last priced, factor by factor. Off (404)
/// when no admin token is configured; a wrong or missing token is 401 and reveals nothing.
pub(super) async fn internal_pricing(
    State(state): State<AppState>,
    Path(reference): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    if let Some(refused) = crate::http::admin::refusal(&state, &headers) {
        return Ok(refused);
    }
    match crate::service::cover::pricing(&state, &reference).await? {
        Some(working) => Ok(Json(working).into_response()),
        None => Err(AppError::NotFound),
    }
}
