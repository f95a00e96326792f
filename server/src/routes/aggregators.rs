//! The aggregator channel's calls (journey.md §1–§2, owner-payment.md §2 and §7): the inbound
//! quote API price-comparison sites call with a customer's risk, the click-through link that
//! opens that quote at review in the aggregator journey, and /api/fakeaggs, which makes such a
//! quote on a test host.
//!
//! The risk goes through the aggregator journey exactly as a customer's answers would: the same
//! question schemas, the same domain rules, the same engine, each step recorded as a transition.
//! Nothing is stored unless every step passes; then the quote and its transitions are stored in
//! one transaction.

use axum::Json;
use axum::extract::Query;
use axum::extract::{Path, State};
use axum::http::header::{AUTHORIZATION, LOCATION, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::http::body::JsonObject;
use crate::service::aggregators::{field_error, make_quote};
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;

/// POST /api/aggregators/quotes (`Authorization: Bearer <the aggregator's key>`): a comparison
/// site's request for prices. Body: `{brand, pets, owner, cover_start, crossbreed?,
/// tracking_token?}`, where `pets` are the aggregator journey's pet details (microchipped instead
/// of injury or illness), `owner` the your-details answers, `cover_start` the policy start date
/// (YYYY-MM-DD) and `crossbreed` the crossbreed confirmations when a pet needs one. Answers 201
/// with the quote reference, every pet's price for every product, and an offer per product every
/// pet is offered, each with its click-through link; 422 with field errors (named by the
/// request's own fields) when the risk fails a question or a rule, storing nothing.
pub(super) async fn inbound_quote(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    if state.config.aggregator_keys.is_empty() {
        return Err(AppError::NotFound);
    }
    let Some(code) = authenticate(&state, &headers) else {
        return Ok((
            StatusCode::UNAUTHORIZED,
            [
                (WWW_AUTHENTICATE, "Bearer"),
                (axum::http::header::CACHE_CONTROL, "no-store"),
            ],
            Json(json!({ "error": "unauthorised" })),
        )
            .into_response());
    };
    let made = make_quote(&state, &code, body).await?;
    Ok(created(made))
}

/// The aggregator code whose key the request carries, compared in constant time over digests so
/// neither a key's content nor its length shows in the timing.
fn authenticate(state: &AppState, headers: &HeaderMap) -> Option<String> {
    let given = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))?;
    let given = Sha256::digest(given.trim().as_bytes());
    let mut found = None;
    for (code, key) in &state.config.aggregator_keys {
        let expected = Sha256::digest(key.0.as_bytes());
        if bool::from(given.ct_eq(&expected)) {
            found = Some(code.clone());
        }
    }
    found
}

/// The inbound quote's answer as a response: 201 and its JSON.
fn created(body: Vec<u8>) -> Response {
    (
        StatusCode::CREATED,
        [(
            axum::http::header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// POST /api/fakeaggs (test hosts only, `PAWPATH_TEST_MODE=1`; owner-payment.md §7 lists the
/// call): makes an inbound quote as comparison site `aggregator` (default ctm) would, without a
/// key, for QA and the browser tests. The body is the inbound request's, plus `aggregator`;
/// omitted parts take a sample risk (one dog, an owner who passes every rule, cover from
/// tomorrow). Answers as the inbound API does.
pub(super) async fn fake_aggregator(
    State(state): State<AppState>,
    JsonObject(mut body): JsonObject,
) -> Result<Response, AppError> {
    let code = match body.remove("aggregator") {
        None | Some(Value::Null) => "ctm".to_owned(),
        Some(Value::String(c)) if crate::config::AGGREGATOR_CODES.contains(&c.as_str()) => c,
        Some(_) => {
            return Err(field_error(
                "aggregator",
                format!(
                    "must be one of {}",
                    crate::config::AGGREGATOR_CODES.join(", ")
                ),
            ));
        }
    };
    for (field, sample) in sample_risk() {
        body.entry(field).or_insert(sample);
    }
    let made = make_quote(&state, &code, body).await?;
    Ok(created(made))
}

/// GET /api/fakeaggs?brand=&aggregator=&product=&email=&dob= (test hosts only): the sample risk made as an
/// inbound quote, then straight through its click-through link (the first offer, or `product`),
/// as a customer coming from a comparison site.
pub(super) async fn fake_aggregator_visit(
    State(state): State<AppState>,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Result<Response, AppError> {
    let mut body: Map<String, Value> = sample_risk().into_iter().collect();
    let code = query
        .get("aggregator")
        .cloned()
        .unwrap_or_else(|| "ctm".into());
    if !crate::config::AGGREGATOR_CODES.contains(&code.as_str()) {
        return Err(field_error("aggregator", "is not an aggregator code"));
    }
    if let Some(brand) = query.get("brand") {
        body.insert("brand".into(), Value::from(brand.as_str()));
    }
    if let Some(email) = query.get("email") {
        body["owner"]["email_address"] = Value::from(email.as_str());
    }
    // A younger pet, for the date-of-birth confirmation (journey.md §4): its birth date as given.
    if let Some(dob) = query.get("dob") {
        body["pets"][0]["pet_date_of_birth"] = Value::from(dob.as_str());
    }
    let made: Value = serde_json::from_slice(&make_quote(&state, &code, body).await?)
        .map_err(|e| AppError::Internal(format!("inbound quote answer not read: {e}")))?;
    let offers = made["offers"].as_array().cloned().unwrap_or_default();
    let offer = match query.get("product") {
        Some(p) => offers.iter().find(|o| o["code"] == p.as_str()),
        None => offers.first(),
    }
    .ok_or_else(|| field_error("product", "is not one of the quote's offers"))?;
    let link = offer["click_through"].as_str().unwrap_or_default();
    let path = link
        .find("/aggregators/continue/")
        .map_or(link, |at| &link[at..]);
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(path) {
        response.headers_mut().insert(LOCATION, v);
    }
    Ok(response)
}

/// A risk that passes every rule: one pedigree dog two years old, an owner of 40 in London,
/// cover from tomorrow.
fn sample_risk() -> Vec<(String, Value)> {
    let today = quote::uk_today();
    let born = today - chrono::Duration::days(730);
    vec![
        (
            "pets".into(),
            json!([{
                "pet_name": "Biscuit",
                "pet_type": "dog",
                "dog_breed_type": "breed",
                "pet_breed": "D173",
                "pet_date_of_birth": born.to_string(),
                "pet_sex": "f",
                "pet_neutered": "yes",
                "pet_microchipped": "yes",
                "pet_cost": "450.00",
            }]),
        ),
        (
            "owner".into(),
            json!({
                "customer_title": "Ms",
                "customer_first_name": "Ada",
                "customer_last_name": "Lovelace",
                "customer_date_of_birth": "1985-03-27",
                "email_address": "ada@example.com",
                "customer_contact_number": "01632960123",
                "houseNumberName": "12",
                "customer_address_line_1": "12 Kings Road",
                "customer_town": "London",
                "customer_postcode": "SW1A 1AA",
                "marketing_preferences": { "optin_email": false, "optin_post": false, "optin_sms": false, "optin_phone": false },
            }),
        ),
        (
            "cover_start".into(),
            Value::from((today + chrono::Duration::days(1)).to_string()),
        ),
    ]
}

/// GET /aggregators/continue/{token}: a comparison site's click-through, landing where the
/// service says (a 303 no cache keeps, with the new session's cookie).
pub(super) async fn click_through(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Response, AppError> {
    let landing = crate::service::aggregators::click_through(&state, &token).await?;
    Ok(crate::http::answers::see_other(&landing.to, landing.cookie))
}
