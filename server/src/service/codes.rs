//! The code checks (owner-payment.md §4 Promo code, Nectar card; §5 Existing policy number;
//! §7 Promo code, Nectar card lookup, Existing policy check). Each caller may try a few codes in
//! a window and no more (nobody enumerates promo codes), counted in the database per client
//! address and per session, so every pawpath process shares the count.

use serde_json::{Map, Value, json};

use engine::definitions::Species;
use engine::definitions::postcode::Postcode;
use engine::rules::domain;

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::limits::limit;
use crate::service::quote;
use crate::service::reply::Reply;
use crate::service::state::AppState;

/// A promotional code (`/api/checkoffercode`): `{valid, desc, summ, nectar}`. The brand and
/// species are the quote's when the caller has one; an empty species means the pets on the quote.
pub async fn offer_code(
    state: &AppState,
    caller: &Caller,
    code: &str,
    species_typed: &str,
    brand_typed: &str,
) -> Result<Value, AppError> {
    limit(state, "promo", caller).await?;
    let existing = quote::existing(state, caller).await?;
    let (brand, mut species) = match &existing {
        Some((q, _)) => (q.brand.clone(), domain::species_on_quote(&q.document)),
        None => (
            if brand_typed.is_empty() {
                quote::DEFAULT_BRAND.into()
            } else {
                brand_typed.into()
            },
            Vec::new(),
        ),
    };
    if !species_typed.is_empty() {
        species = vec![Species::parse(species_typed).ok_or_else(|| {
            AppError::BadRequest("species must be dog, cat, rabbit or empty".into())
        })?];
    }
    let today = quote::uk_today();
    let voice = match &existing {
        Some((q, _)) => quote::voice(state, q),
        None => state.defs.voice(&brand, "en-GB"),
    };
    let answer = match domain::promo_offer(&state.defs, code, &brand, &species, today) {
        Some(p) => json!({
            "valid": true,
            "desc": voice.t(&p.description),
            "summ": voice.t(&p.summary),
            "nectar": p.nectar,
        }),
        None => json!({ "valid": false, "desc": "", "summ": "", "nectar": false }),
    };
    Ok(answer)
}

/// A Nectar card number (`/api/getnectarcard`, the 11 digits after 9826 3000): `{valid, desc,
/// summ}`.
pub async fn nectar_card(
    state: &AppState,
    caller: &Caller,
    number: &str,
) -> Result<Value, AppError> {
    limit(state, "nectar", caller).await?;
    let digits: String = number.chars().filter(|c| !c.is_whitespace()).collect();
    let valid = domain::nectar_number_valid(&digits);
    let voice = quote::request_voice(state, caller).await;
    let t = |k: &str| voice.t(k);
    let answer = if valid {
        json!({ "valid": true, "desc": t("nectar.label"), "summ": format!("{} {}", t("nectar.prefix"), digits) })
    } else {
        json!({ "valid": false, "desc": "", "summ": "" })
    };
    Ok(answer)
}

/// What an existing policy check came to.
pub enum PolicyCheck {
    /// A match on the caller's quote, stored there: the new view data.
    Stored(Reply),
    /// `{data: {existing_policy_valid}}`.
    Answer(Value),
}

/// An existing policy number (`/api/CheckExistingPolicy`): the brand is the quote's and the
/// postcode the owner's when the caller has a quote. A match on a quote (with its CSRF token) is
/// stored there, which stops name and address editing (journeys/direct.json `locks`).
pub async fn existing_policy(
    state: &AppState,
    caller: &Caller,
    body: &Map<String, Value>,
    number: &str,
    brand_typed: &str,
    postcode_typed: &str,
) -> Result<PolicyCheck, AppError> {
    let voice = quote::request_voice(state, caller).await;
    let field_error = |field: &str, key: &str| {
        AppError::Validation(vec![crate::service::error::FieldMessage {
            field: field.into(),
            message: voice.t(key),
        }])
    };
    if number.trim().is_empty() {
        return Err(field_error("policyno", "error.required"));
    }
    limit(state, "policy", caller).await?;
    let existing = quote::existing(state, caller).await?;
    let brand = match &existing {
        Some((q, _)) => q.brand.clone(),
        None if brand_typed.is_empty() => quote::DEFAULT_BRAND.into(),
        None => brand_typed.into(),
    };
    let stored_postcode = existing
        .as_ref()
        .and_then(|(q, _)| q.document.pointer("/owner/customer_postcode"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let typed = if postcode_typed.trim().is_empty() {
        stored_postcode.as_str()
    } else {
        postcode_typed
    };
    let postcode =
        Postcode::parse(typed).ok_or_else(|| field_error("postcode", "owner.postcode.invalid"))?;
    let (valid, normalised) =
        crate::service::lookups::existing_policy(state, number, &brand, &postcode);
    tracing::info!(valid, "existing policy check");
    match existing {
        Some(_) if valid && body.contains_key("csrf") => {
            let auth = crate::service::transition::authorise(
                state,
                caller,
                body,
                &["policyno", "brand", "postcode"],
            )
            .await?;
            crate::service::edits::existing_policy(
                state,
                auth,
                &normalised,
                std::time::Instant::now(),
            )
            .await
            .map(PolicyCheck::Stored)
        }
        _ => Ok(PolicyCheck::Answer(
            json!({ "data": { "existing_policy_valid": valid } }),
        )),
    }
}
