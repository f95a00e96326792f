//! The cover calls (journey.md §7): saving each pet's cover, re-quoting one pet with a new excess
//! (`/api/getFlexProducts`), changing the claim contribution on review (`/api/changecoins`),
//! loading the products (`/api/get-products`), the viewed-products beacon
//! (`/api/trackViewedProducts`), and the internal pricing working a product team reads.

use std::time::Instant;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use engine::journey::runtime::Event;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;
use crate::service::transition::{authorise, run, submit};

/// The question set every cover call answers.
const COVER: &str = "cover";

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

/// The cover answers the quote holds, one object per pet, for a call that changes one pet's: the
/// cover question set replaces what it declares, so every pet's current choice is sent with it.
fn stored_cover(document: &Value) -> Vec<Map<String, Value>> {
    document
        .get("pets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|pet| {
            let mut out = Map::new();
            if let Some(code) = pet.pointer("/product/Code") {
                out.insert("product".into(), json!({ "Code": code }));
            }
            for field in ["set_excess", "set_coins"] {
                if let Some(v) = pet.get(field) {
                    out.insert(field.into(), v.clone());
                }
            }
            out
        })
        .collect()
}

/// The 1-based pet id of a request, checked against the quote.
fn pet_index(value: Option<&Value>, field: &str, pets: usize) -> Result<usize, AppError> {
    let id = match value {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => s.trim().parse::<u64>().ok(),
        _ => None,
    }
    .and_then(|n| usize::try_from(n).ok())
    .ok_or_else(|| AppError::BadRequest(format!("{field} must be the pet's id, 1 or more")))?;
    if id == 0 || id > pets {
        return Err(AppError::BadRequest(format!(
            "{field}: the quote has no pet {id} (it has {pets})"
        )));
    }
    Ok(id - 1)
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
    let mut cover = stored_cover(&auth.quote.document);
    for (i, pet) in changed.iter().enumerate() {
        let Value::Object(fields) = pet else {
            return Err(AppError::BadRequest(format!("pets[{i}] must be an object")));
        };
        let index = pet_index(fields.get("id"), &format!("pets[{i}].id"), cover.len())?;
        for field in ["set_excess", "set_coins"] {
            match fields.get(field) {
                Some(v) => {
                    cover[index].insert(field.into(), v.clone());
                }
                None => {
                    cover[index].remove(field);
                }
            }
        }
    }
    let event = Event::Edit {
        questions: COVER.into(),
        answers: json!({ "pets": cover }),
    };
    run(&state, auth, event, started)
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
    let mut cover = stored_cover(&auth.quote.document);
    let index = pet_index(body.get("pet_id"), "pet_id", cover.len())?;
    let percent = body
        .get("co_insurance")
        .and_then(engine::definitions::money::decimal_of)
        .ok_or_else(|| AppError::BadRequest("co_insurance must be a percentage".into()))?;
    let fraction = (percent / rust_decimal::Decimal::from(100)).normalize();
    // The cover question set takes the fraction as a JSON number (0, 0.1, 0.2); any other
    // percentage is refused there with the field's message.
    let number: Value = serde_json::from_str(&fraction.to_string())
        .map_err(|_| AppError::BadRequest("co_insurance must be a percentage".into()))?;
    cover[index].insert("set_coins".into(), number);
    let event = Event::Edit {
        questions: COVER.into(),
        answers: json!({ "pets": cover }),
    };
    run(&state, auth, event, started)
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
    let rules = quote::rule_context(&state, &quote);
    let products = engine::journey::quoting::products(&state.defs, &quote.document, &rules);
    let pets: Vec<Value> = crate::service::view::pets_with_products(&quote.document, &products)
        .into_iter()
        .map(|p| json!({ "id": p.get("id"), "product": p.get("product") }))
        .collect();
    Ok(Json(json!({ "data": {
        "qidu": quote.quote_ref,
        "csrf": token.csrf(&state.config.secret_key),
        "products": products,
        "pets": pets,
    }}))
    .into_response())
}

/// The most keys one beacon may carry (ten pets of eighteen products each, with room).
const MAX_VIEWED_KEYS: usize = 200;

/// POST /api/trackViewedProducts (a beacon): `{csrf, key: ["{original pet id}_{product code}"]}`
/// (journey.md §7). Each key must name a pet of the quote and a product it is offered.
pub(super) async fn track_viewed_products(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let quote = authorise(&state, &caller, &body, &["key"]).await?.quote;
    let Some(Value::Array(keys)) = body.get("key") else {
        return Err(AppError::BadRequest(
            "key must be a list of \"{pet}_{code}\"".into(),
        ));
    };
    if keys.len() > MAX_VIEWED_KEYS {
        return Err(AppError::BadRequest(format!(
            "key: at most {MAX_VIEWED_KEYS} products at once"
        )));
    }
    let pets = quote.document.get("pets").and_then(Value::as_array);
    let quoted = engine::journey::quoting::Quoted::of(&quote.document);
    let mut views = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let parsed = key
            .as_str()
            .and_then(|k| k.split_once('_'))
            .and_then(|(pet, code)| pet.parse::<i64>().ok().map(|p| (p, code.to_owned())));
        let Some((original, code)) = parsed else {
            return Err(AppError::BadRequest(format!(
                "key[{i}] must be \"{{pet}}_{{code}}\", for example 1_LT04000"
            )));
        };
        let index = pets
            .into_iter()
            .flatten()
            .position(|p| p.get("original_id").and_then(Value::as_i64) == Some(original));
        let offered = index
            .zip(quoted.as_ref())
            .is_some_and(|(i, q)| q.premiums(i, &code).is_some());
        if !offered {
            return Err(AppError::BadRequest(format!(
                "key[{i}]: the quote offers no {code} to pet {original}"
            )));
        }
        views.push((original, code));
    }
    quote::record_product_views(&state, &quote.id, &views).await?;
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
    let Some(quote) = quote::by_reference(&state, reference.trim()).await? else {
        return Err(AppError::NotFound);
    };
    let Some((priced_at, definition_version, pricing)) =
        quote::latest_pricing(&state, &quote.id).await?
    else {
        return Ok(Json(json!({ "qidu": quote.quote_ref, "priced": false })).into_response());
    };
    // The transition keeps the chosen products' working and a reference to the rest:
    // every price's working is worked again here from the stored answers. It is the working of
    // the quoted prices while the definitions are those they were quoted on (`current`).
    let rules = quote::rule_context(&state, &quote);
    let quoted = engine::journey::quoting::Quoted::of(&quote.document);
    let current = quoted
        .as_ref()
        .is_some_and(|q| q.version == state.defs.version());
    Ok(Json(json!({
        "qidu": quote.quote_ref,
        "priced": true,
        "priced_at": priced_at,
        "definition_version": definition_version,
        "quoted_on": quoted.map(|q| q.version),
        "current": current,
        "recorded": pricing,
        "prices": engine::journey::quoting::working(&state.defs, &quote.document, &rules),
    }))
    .into_response())
}
