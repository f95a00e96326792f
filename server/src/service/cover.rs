//! The cover calls' work (journey.md §4 Cover selection, §7): re-quoting one pet with a new
//! excess or claim contribution, the products and each pet's choice, the products a customer was
//! shown, and the working of every price a product team reads. Every change goes through the
//! `cover` question set, as the choose-policy step's own submit does.

use std::time::Instant;

use serde_json::{Map, Value, json};

use engine::journey::runtime::Event;

use crate::service::error::AppError;
use crate::service::quote;
use crate::service::reply::Reply;
use crate::service::state::AppState;
use crate::service::transition::{Authorised, run};

/// The question set every cover call answers.
const COVER: &str = "cover";

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

/// Re-quotes the pets `changed` names (`/api/getFlexProducts`: `[{id, set_excess, set_coins}]`,
/// only the changed pet, the claim contribution as a fraction): the new view data.
pub async fn flex_products(
    state: &AppState,
    auth: Authorised,
    changed: &[Value],
    started: Instant,
) -> Result<Reply, AppError> {
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
    run(state, auth, event, started).await
}

/// The review page's claim contribution for one pet (`/api/changecoins`: `pet_id`, and
/// `co_insurance` as the percentage shown, 0, 10 or 20): the new view data.
pub async fn change_coins(
    state: &AppState,
    auth: Authorised,
    pet_id: Option<&Value>,
    co_insurance: Option<&Value>,
    started: Instant,
) -> Result<Reply, AppError> {
    let mut cover = stored_cover(&auth.quote.document);
    let index = pet_index(pet_id, "pet_id", cover.len())?;
    let percent = co_insurance
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
    run(state, auth, event, started).await
}

/// The quote's products and each pet's chosen one (`/api/get-products`).
pub async fn products(
    state: &AppState,
    quote: &crate::store::QuoteRow,
    token: &crate::session::SessionToken,
) -> Result<Value, AppError> {
    let rules = quote::rule_context(state, quote);
    let products = engine::journey::quoting::products(&state.defs, &quote.document, &rules);
    let pets: Vec<Value> = crate::service::view::pets_with_products(&quote.document, &products)
        .into_iter()
        .map(|p| json!({ "id": p.get("id"), "product": p.get("product") }))
        .collect();
    Ok(json!({ "data": {
        "qidu": quote.quote_ref,
        "csrf": token.csrf(&state.config.secret_key),
        "products": products,
        "pets": pets,
    }}))
}

/// The most keys one beacon may carry (ten pets of eighteen products each, with room).
const MAX_VIEWED_KEYS: usize = 200;

/// The products a customer was shown (`/api/trackViewedProducts`: `key`, a list of
/// "{original pet id}_{product code}"): each must name a pet of the quote and a product it is
/// offered.
pub async fn track_viewed(
    state: &AppState,
    quote: &crate::store::QuoteRow,
    body: &Map<String, Value>,
) -> Result<(), AppError> {
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
    quote::record_product_views(state, &quote.id, &views).await?;
    Ok(())
}

/// The working of every price on the quote with this reference as last priced, factor by factor
/// (the internal pricing page); none for a reference no quote has.
pub async fn pricing(state: &AppState, reference: &str) -> Result<Option<Value>, AppError> {
    let Some(quote) = quote::by_reference(state, reference.trim()).await? else {
        return Ok(None);
    };
    let Some((priced_at, definition_version, pricing)) =
        quote::latest_pricing(state, &quote.id).await?
    else {
        return Ok(Some(json!({ "qidu": quote.quote_ref, "priced": false })));
    };
    // The transition keeps the chosen products' working and a reference to the rest:
    // every price's working is worked again here from the stored answers. It is the working of
    // the quoted prices while the definitions are those they were quoted on (`current`).
    let rules = quote::rule_context(state, &quote);
    let quoted = engine::journey::quoting::Quoted::of(&quote.document);
    let current = quoted
        .as_ref()
        .is_some_and(|q| q.version == state.defs.version());
    Ok(Some(json!({
        "qidu": quote.quote_ref,
        "priced": true,
        "priced_at": priced_at,
        "definition_version": definition_version,
        "quoted_on": quoted.map(|q| q.version),
        "current": current,
        "recorded": pricing,
        "prices": engine::journey::quoting::working(&state.defs, &quote.document, &rules),
    })))
}
