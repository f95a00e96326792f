//! The addresses a page names: each question set's call, each modal's, the step's URL, and the
//! definitions' files at their version's address.

use engine::Definitions;
use engine::definitions::{Journey, Step};

/// The call that takes each question set's answers (journey.md §7), so the renderer needs no
/// list of its own.
pub const SUBMIT_CALLS: &[(&str, &str)] = &[
    ("pet_details", "/api/petdetails"),
    ("pet_details_aggregator", "/api/petdetails"),
    ("annual_rehoming_pet", "/api/petdetails"),
    ("crossbreed", "/api/petownerdetails"),
    ("assumptions", "/api/saveDeclaration"),
    ("your_details", "/api/ownerdetail"),
    ("cover", "/api/saveCover"),
    ("payment", "/api/setup-payment"),
    ("rehoming_eligibility", "/api/rehomingeligibility"),
    ("rehoming_pet", "/api/postpetdetails"),
];

/// The call that saves each question set a page edits in place (a modal), named in the payload's
/// `form` field: the pet update for the assumptions and the pre-existing conditions (journey.md
/// §4: "sends the pet update", "Saving sends the pets with vet and details fields"), the owner
/// update for the start date (§4 Policy start date).
pub const EDIT_CALLS: &[(&str, &str)] = &[
    ("assumptions", "/api/petdetails"),
    ("pre_existing", "/api/petdetails"),
    // The review page's edit-pet modal (journey.md §2 Modals: edit pet details).
    ("pet_details", "/api/petdetails"),
    ("pet_details_aggregator", "/api/petdetails"),
    ("start_date", "/api/ownerdetail"),
    ("promo_code", "/api/ownerdetail"),
    ("referral_code", "/api/ownerdetail"),
    // The review page's owner modals (owner-payment.md §2: address only, full, add phone).
    ("your_details", "/api/ownerdetail"),
    ("quote_reminder", "/api/noquotechaseemail"),
    // The aggregator review's date-of-birth confirmation (journey.md §4).
    ("dob_confirmation", "/api/petdetails"),
    // The payment page's keeping in touch and policy communications (owner-payment.md §2).
    ("communications", "/api/ownerdetail"),
    // The confirmation page's pet portal password (owner-payment.md §7).
    ("portal_password", "/api/saveportalpassword"),
    // The review page's change-cover modal (journey.md §2 Modals: choose cover).
    ("cover", "/api/saveCover"),
];

/// The full URL path of a step on a brand (journeys/brands: step_paths; journey.md §2: one
/// brand's confirmation is /success).
pub fn step_url(
    journey: &Journey,
    step: &Step,
    brand: Option<&engine::definitions::Brand>,
) -> String {
    let path = brand.map_or(step.path.as_str(), |b| b.step_path(step));
    if path == "/" {
        journey.base_path.clone()
    } else {
        format!("{}{path}", journey.base_path)
    }
}

/// The address of something that never changes for the definitions being served (`kind`: copy,
/// questions), for a brand, under `rest` (routes::resources). An unknown brand speaks as the
/// default one, as its voice does.
pub(super) fn definitions_url(defs: &Definitions, kind: &str, brand: &str, rest: &str) -> String {
    let brand = defs
        .brand(brand)
        .map_or(engine::definitions::DEFAULT_BRAND, |b| b.id.as_str());
    format!(
        "/quote/definitions/{}/{kind}/{brand}/{rest}",
        defs.version()
    )
}

/// Where the breed lists are for the definitions being served (the same for every brand).
pub fn breeds_url(defs: &Definitions) -> String {
    format!("/quote/definitions/{}/breeds", defs.version())
}

/// Where the brand's copy catalogue in `language` is, for the definitions being served.
pub fn copy_url(defs: &Definitions, brand: &str, language: &str) -> String {
    definitions_url(defs, "copy", brand, language)
}

/// Where a question set's form is, for the brand in the language, for the definitions being
/// served.
pub fn form_url(defs: &Definitions, brand: &str, language: &str, questions: &str) -> String {
    definitions_url(defs, "questions", brand, &format!("{language}/{questions}"))
}
