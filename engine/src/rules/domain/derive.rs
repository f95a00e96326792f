//! What the engine works out from the answers and stores beside them: a pet's breed facts and
//! referral, the quote's, the vet's.

use chrono::NaiveDate;
use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::rules::context::RuleContext;
use crate::rules::domain::dates::start_date_window;
use crate::rules::domain::facts::breed_of;
use crate::rules::domain::owner::{normalise_owner, normalise_payment, plain_amount};

/// Fields the server owns, derived after every change to the pets, so that guards over the
/// document can see them: `id`, the pet's 1-based position (journey.md §3); `original_id`, given
/// once and kept through removals; and from the breed data `petBreedName` and `breed_category`
/// (which decides the crossbreed confirmation). A pet without a known breed has neither.
pub fn derive_pet_fields(defs: &Definitions, document: &mut Value) {
    let Some(pets) = document.get_mut("pets").and_then(Value::as_array_mut) else {
        return;
    };
    let mut next_original = pets
        .iter()
        .filter_map(|p| p.get("original_id").and_then(Value::as_u64))
        .max()
        .unwrap_or(0)
        + 1;
    for (i, pet) in pets.iter_mut().enumerate() {
        let breed = breed_of(defs, pet).map(|b| (b.desc.clone(), b.category.clone()));
        let Some(map) = pet.as_object_mut() else {
            continue;
        };
        map.insert("id".into(), Value::from(i + 1));
        if !map.get("original_id").is_some_and(Value::is_u64) {
            map.insert("original_id".into(), Value::from(next_original));
            next_original += 1;
        }
        match breed {
            Some((desc, category)) => {
                map.insert("petBreedName".into(), Value::String(desc));
                map.insert("breed_category".into(), Value::String(category));
            }
            None => {
                map.remove("petBreedName");
                map.remove("breed_category");
            }
        }
    }
}

/// journey.md §4 Pet details ("Changing the dog type resets crossbreed confirmation to false")
/// and §5 (the confirmation is for the breed insured): a pet whose species, dog type or breed
/// changed since `before` loses its crossbreed confirmation, so the declaration is made again
/// for the breed now on the quote. Pets are matched by `original_id`.
pub fn forget_stale_confirmations(before: &Value, candidate: &mut Value) {
    let earlier: Vec<&Value> = before
        .get("pets")
        .and_then(Value::as_array)
        .map(|p| p.iter().collect())
        .unwrap_or_default();
    let Some(pets) = candidate.get_mut("pets").and_then(Value::as_array_mut) else {
        return;
    };
    for pet in pets {
        let Some(id) = pet.get("original_id").and_then(Value::as_u64) else {
            continue;
        };
        let Some(was) = earlier
            .iter()
            .find(|p| p.get("original_id").and_then(Value::as_u64) == Some(id))
        else {
            continue;
        };
        let changed = ["pet_type", "dog_breed_type", "pet_breed"]
            .iter()
            .any(|f| was.get(*f) != pet.get(*f));
        if changed && let Some(map) = pet.as_object_mut() {
            map.remove("confirm_crossbreed");
        }
    }
}

/// The underwriting referral code for a pet whose owner reports an injury or illness: the
/// pre-existing conditions prompt follows it (journey.md §4 Assumptions and health questions).
pub const REFER_PRE_EXISTING: &str = "RA008";

/// Fields the server owns over the whole quote, derived after every change: each pet's
/// `refer_code` (RA008 while its owner answers yes to injury or illness, none otherwise; the
/// rating engine may refer for other reasons later), and the cover start date lifted to the
/// earliest allowed when it falls before it (journey.md §4 Policy start date: "A chosen date
/// earlier than the minimum is lifted to the minimum").
pub fn derive_quote_fields(defs: &Definitions, document: &mut Value, ctx: &RuleContext) {
    if let Some(owner) = document.get_mut("owner").and_then(Value::as_object_mut) {
        normalise_owner(owner);
    }
    if let Some(payment) = document.get_mut("payment").and_then(Value::as_object_mut) {
        normalise_payment(payment);
    }
    let currency = defs.brand(&ctx.brand).map(|b| b.currency);
    if let Some(pets) = document.get_mut("pets").and_then(Value::as_array_mut) {
        for pet in pets.iter_mut().filter_map(Value::as_object_mut) {
            if let (Some(currency), Some(Value::String(cost))) = (currency, pet.get_mut("pet_cost"))
                && let Some(amount) = plain_amount(cost, currency)
            {
                *cost = amount;
            }
            derive_vet_fields(pet);
            let ill = pet.get("pet_any_injury_illness").and_then(Value::as_str) == Some("yes");
            if ill {
                pet.insert("refer_code".into(), Value::from(REFER_PRE_EXISTING));
            } else if pet.get("refer_code").and_then(Value::as_str) == Some(REFER_PRE_EXISTING) {
                pet.remove("refer_code");
            }
        }
    }
    let stored = document
        .pointer("/owner/pet_policy_start_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok());
    if let Some(stored) = stored {
        let window = start_date_window(defs, document, ctx.today, &ctx.brand);
        if stored < window.earliest
            && let Some(owner) = document.get_mut("owner").and_then(Value::as_object_mut)
        {
            owner.insert(
                "pet_policy_start_date".into(),
                Value::from(window.earliest.format("%Y-%m-%d").to_string()),
            );
        }
    }
}

/// owner-payment.md §3 Vet and §4 Pre-existing conditions: a vet_name of notFound sets
/// provide_vet_later; a vet provided later has no address or id (journey.md §4: "vet address
/// fields are blanked if the vet is provided later").
pub(super) fn derive_vet_fields(pet: &mut serde_json::Map<String, Value>) {
    if pet.get("vet_name").and_then(Value::as_str) == Some("notFound") {
        pet.insert("provide_vet_later".into(), Value::Bool(true));
    }
    if pet.get("provide_vet_later").and_then(Value::as_bool) == Some(true) {
        pet.insert("vet_name".into(), Value::from("notFound"));
        for field in [
            "vet_id",
            "vet_address_line_1",
            "vet_address_line_2",
            "vet_town",
            "vet_county",
            "vet_postcode",
        ] {
            pet.remove(field);
        }
    }
}
