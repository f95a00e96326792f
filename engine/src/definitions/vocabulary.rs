//! The engine's vocabulary that definitions may name: its domain rules and the copy keys its own
//! messages use. The checks hold definitions to these names; `rules::domain` implements each rule
//! (and a test there holds the two lists together).

/// Every copy key the engine's Rust code gives as a message: the lint checks each exists in every
/// language, as it does for the keys in definitions.
pub const ENGINE_COPY_KEYS: &[&str] = &[
    "pet.dob.too_young",
    "pet.dob.too_old",
    "pet.breed.unknown",
    "pet.breed.excluded",
    "pet.xl_bully.refused",
    "pet.remove.not_allowed",
    "pet.add.blank_waiting",
    "pet.add.too_many",
    "start_date.invalid",
    "assumptions.confirm.required",
    "owner.dob.too_young",
    "owner.dob.too_old",
    "error.required",
    "error.invalid",
    "cover.no_product",
    "cover.product.not_offered",
    "cover.excess.not_offered",
    "payment.bank.invalid",
    "payment.method.not_offered",
    "pet.type.not_offered",
    "rehoming.centre.unknown",
    "rehoming.date.future",
    "rehoming.date.too_late",
    "pet.dob.confirm_mismatch",
    "language.not_offered",
];

/// Names of every domain rule, for the lint's messages.
pub const DOMAIN_RULES: &[&str] = &[
    "pet_age_window",
    "pet_breed_eligibility",
    "start_date_window",
    "assumptions_ticked",
    "owner_age",
    "promo_code_valid",
    "cover_chosen",
    "cover_offered",
    "bank_details_valid",
    "payment_method_offered",
    "pet_species_offered",
    "rehoming_centre_known",
    "rehome_date_window",
    "rehoming_pet_age",
    "saved_dob_matches",
];
