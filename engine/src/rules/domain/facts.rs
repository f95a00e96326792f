//! What the rules read of a quote document: its pets, a field as text, a pet's breed, the species
//! on the quote.

use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::{Breed, Species};

pub(super) fn pets(document: &Value) -> impl Iterator<Item = (usize, &Value)> {
    document
        .get("pets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

pub(super) fn str_of<'a>(pet: &'a Value, field: &str) -> Option<&'a str> {
    pet.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The breed a pet names, if it names a real one of its own species.
pub fn breed_of<'d>(defs: &'d Definitions, pet: &Value) -> Option<&'d Breed> {
    let species = str_of(pet, "pet_type").and_then(Species::parse)?;
    defs.breed(str_of(pet, "pet_breed")?)
        .filter(|b| b.species == species)
}

/// The species of the pets on the quote.
pub fn species_on_quote(document: &Value) -> Vec<Species> {
    pets(document)
        .filter_map(|(_, p)| str_of(p, "pet_type").and_then(Species::parse))
        .collect()
}

pub(super) fn format_years(months: u32) -> String {
    if months.is_multiple_of(12) {
        (months / 12).to_string()
    } else {
        let hundredths = u64::from(months) * 100 / 12;
        format!("{}.{:02}", hundredths / 100, hundredths % 100)
    }
}

/// The common maxima of journey.md §5 when a pet's breed is not known yet.
pub(super) fn species_max_months(species: Option<Species>) -> u32 {
    match species {
        Some(Species::Cat) => 120,
        Some(Species::Rabbit) => 60,
        _ => 96,
    }
}

/// The age in months a pet must be younger than at cover start (journey.md §5, §9 Maximum pet
/// age): the brand's own maximum where it sets one (ptp: 833.25 years), else the breed's
/// max_age_mths, else the species' usual maximum.
pub(super) fn max_age_months(defs: &Definitions, pet: &Value, brand: &str) -> u32 {
    if let Some(months) = defs.brand(brand).and_then(|b| b.max_pet_age_months) {
        return months;
    }
    let species = str_of(pet, "pet_type").and_then(Species::parse);
    breed_of(defs, pet).map_or_else(|| species_max_months(species), |b| b.max_age_mths)
}
