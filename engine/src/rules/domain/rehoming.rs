//! The rehoming flow's rules (journey.md §1 Extra flows): a partner centre, the rehoming date,
//! the rehomed pet's age.

use chrono::NaiveDate;
use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::schema::FieldError;
use crate::rules::context::RuleContext;
use crate::rules::domain::facts::{pets, str_of};
use crate::rules::domain::pets::MIN_AGE_DAYS_WITH_PRODUCTS;

/// The rehoming flow's centre (journeys/rehoming-centres.json): one the quote's brand works with.
pub(super) fn rehoming_centre_known(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let Some(centre) = document.pointer("/rehoming/centre").and_then(Value::as_str) else {
        return Vec::new();
    };
    if defs
        .rehoming_centres(&ctx.brand)
        .iter()
        .any(|c| c.id == centre)
    {
        Vec::new()
    } else {
        vec![FieldError::new(
            "rehoming.centre",
            "rehoming.centre.unknown",
        )]
    }
}

/// The day the pet came home: not after today (UK time), and no more than the cover's
/// activation days before it (journeys/rehoming-centres.json: cover.activation_days).
pub(super) fn rehome_date_window(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let Some(day) = document
        .pointer("/rehoming/rehome_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
    else {
        return Vec::new();
    };
    let field = "rehoming.rehome_date";
    if day > ctx.today {
        return vec![FieldError::new(field, "rehoming.date.future")];
    }
    let days = defs.rehoming().map_or(0, |r| r.cover.activation_days);
    if (ctx.today - day).num_days() > i64::from(days) {
        return vec![
            FieldError::new(field, "rehoming.date.too_late").with_param("days", days.to_string()),
        ];
    }
    Vec::new()
}

/// journey.md §5 Age rule: on rehoming the pet must be at least 56 days (8 weeks) old on the day
/// the free cover starts, which is the day it is activated (today). The free cover has no upper
/// age: it is the rescue's pet whatever its age.
pub(super) fn rehoming_pet_age(
    _: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    pets(document)
        .filter_map(|(i, pet)| {
            let dob = str_of(pet, "pet_date_of_birth")
                .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())?;
            ((ctx.today - dob).num_days() < MIN_AGE_DAYS_WITH_PRODUCTS).then(|| {
                FieldError::new(format!("pets[{i}].pet_date_of_birth"), "pet.dob.too_young")
            })
        })
        .collect()
}
