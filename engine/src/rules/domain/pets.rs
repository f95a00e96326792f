//! The pet rules (journey.md §5): its age at cover start, its species offered by the brand, its
//! breed insurable, a confirmed date of birth.

use chrono::NaiveDate;
use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::Species;
use crate::definitions::schema::FieldError;
use crate::rules::context::{RuleContext, months_between};
use crate::rules::domain::dates::cover_start;
use crate::rules::domain::facts::{format_years, max_age_months, pets, str_of};

/// Days old a pet must be at cover start: 26, or 56 once it has products (journey.md §5 Age rule).
pub(super) const MIN_AGE_DAYS: i64 = 26;

pub(super) const MIN_AGE_DAYS_WITH_PRODUCTS: i64 = 56;

/// journey.md §5 Age rule: at cover start the pet is at least 26 days old (56 once it has
/// products) and younger than its breed's max_age_mths / 12 years, the maximum age named in
/// the message.
pub(super) fn pet_age_window(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let start = cover_start(document, ctx);
    let mut errors = Vec::new();
    for (i, pet) in pets(document) {
        let Some(dob) = str_of(pet, "pet_date_of_birth")
            .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        else {
            continue;
        };
        let field = format!("pets[{i}].pet_date_of_birth");
        let has_product = pet.get("product").is_some_and(|p| !p.is_null());
        let min_days = if has_product {
            MIN_AGE_DAYS_WITH_PRODUCTS
        } else {
            MIN_AGE_DAYS
        };
        if (start - dob).num_days() < min_days {
            errors.push(FieldError::new(field, "pet.dob.too_young"));
            continue;
        }
        let max_months = max_age_months(defs, pet, &ctx.brand);
        if months_between(dob, start) >= i64::from(max_months) {
            errors.push(
                FieldError::new(field, "pet.dob.too_old")
                    .with_param("maxAge", format_years(max_months)),
            );
        }
    }
    errors
}

/// journey.md §1 "Rabbits are offered in some brand variants only": each pet is a species the
/// quote's brand insures (journeys/brands: species). A brand the definitions do not know
/// insures dogs and cats.
pub(super) fn pet_species_offered(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let brand = defs.brand(&ctx.brand);
    pets(document)
        .filter_map(|(i, pet)| {
            let species = Species::parse(str_of(pet, "pet_type")?)?;
            let offered = match brand {
                Some(b) => b.offers(species),
                None => species != Species::Rabbit,
            };
            (!offered)
                .then(|| FieldError::new(format!("pets[{i}].pet_type"), "pet.type.not_offered"))
        })
        .collect()
}

/// journey.md §3 and §4 Pet details: the breed is a real, active breed of the pet's species and
/// of the type chosen (a cat or rabbit type, or a mongrel size, is its own breed); a banned breed
/// cannot be insured; an at-risk dog must answer the XL Bully question, and "yes" cannot be
/// insured.
pub(super) fn pet_breed_eligibility(
    defs: &Definitions,
    document: &Value,
    _ctx: &RuleContext,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (i, pet) in pets(document) {
        let Some(species) = str_of(pet, "pet_type").and_then(Species::parse) else {
            continue;
        };
        let Some(breed_id) = str_of(pet, "pet_breed") else {
            continue;
        };
        let field = format!("pets[{i}].pet_breed");
        let Some(breed) = defs
            .breed(breed_id)
            .filter(|b| b.species == species && b.active)
        else {
            errors.push(FieldError::new(field, "pet.breed.unknown"));
            continue;
        };
        let fits_type = match species {
            Species::Dog => match str_of(pet, "dog_breed_type") {
                Some("mongrel") => {
                    str_of(pet, "mongrel_size") == Some(breed_id) && breed.breed_type == "mongrel"
                }
                Some(kind) => breed.breed_type == kind,
                None => true,
            },
            Species::Cat => match str_of(pet, "cat_breed_type") {
                Some("pedigree") => breed.breed_type == "pedigree",
                Some(kind) => kind == breed_id,
                None => true,
            },
            Species::Rabbit => match str_of(pet, "rabbit_breed_type") {
                Some("other") => breed.breed_type == "other",
                Some(kind) => kind == breed_id,
                None => true,
            },
        };
        if !fits_type {
            errors.push(FieldError::new(field, "pet.breed.unknown"));
            continue;
        }
        if breed.exclude {
            errors.push(FieldError::new(field, "pet.breed.excluded"));
            continue;
        }
        if species == Species::Dog && breed.at_risk {
            let xl = format!("pets[{i}].xl_bully_at_risk");
            match str_of(pet, "xl_bully_at_risk") {
                None => errors.push(FieldError::new(xl, "error.required")),
                Some("yes") => errors.push(FieldError::new(xl, "pet.xl_bully.refused")),
                Some(_) => {}
            }
        }
    }
    errors
}

/// journey.md §4: a confirmed date of birth (saved_dob) is the date held for the pet; a stale or
/// different one is refused, so the prompt shows again after the date changes.
pub(super) fn saved_dob_matches(
    _: &Definitions,
    document: &Value,
    _: &RuleContext,
) -> Vec<FieldError> {
    pets(document)
        .filter_map(|(i, pet)| {
            let saved = str_of(pet, "saved_dob")?;
            (Some(saved) != str_of(pet, "pet_date_of_birth")).then(|| {
                FieldError::new(format!("pets[{i}].saved_dob"), "pet.dob.confirm_mismatch")
            })
        })
        .collect()
}
