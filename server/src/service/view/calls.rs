//! The addresses a page names: the spec's named calls that take answers, the question sets the
//! definitions send through each call, the step's URL, and the definitions' files at their
//! version's address.

use engine::Definitions;
use engine::definitions::{Edit, Journey, Step};

/// The spec's named calls that take a question set's answers through the one submission path
/// (journey.md §7, owner-payment.md §7), each with the body fields its answers come in. A journey
/// names the call of a step or a modal (`call`); one it names none for is taken by the generic
/// call, `POST /api/steps/{step}`, whose fields are its question set's own.
pub const ANSWER_CALLS: &[(&str, &[&str])] = &[
    ("/api/petdetails", &["pets"]),
    ("/api/petownerdetails", &["owner", "pets"]),
    ("/api/saveDeclaration", &["pets"]),
    ("/api/ownerdetail", &["owner"]),
    ("/api/saveCover", &["pets"]),
    ("/api/setup-payment", &["payment"]),
    ("/api/rehomingeligibility", &["rehoming"]),
    ("/api/postpetdetails", &["pets"]),
];

/// The spec's calls that save one modal's question set from a body of their own (owner-payment.md
/// §7: the quote reminder opt-out, the portal password, the existing policy check): a journey
/// may name each for its own set only.
pub const OWN_CALLS: &[(&str, &str)] = &[
    ("/api/noquotechaseemail", "quote_reminder"),
    ("/api/saveportalpassword", "portal_password"),
    ("/api/CheckExistingPolicy", "existing_policy"),
];

/// The body fields a named call takes its answers in; `None` for a call that is not one.
pub fn answer_fields(call: &str) -> Option<&'static [&'static str]> {
    ANSWER_CALLS
        .iter()
        .find(|(path, _)| *path == call)
        .map(|(_, fields)| *fields)
}

/// The body fields a question set's answers come in through the generic call: its schema's own
/// top-level properties.
pub fn set_fields(defs: &Definitions, questions: &str) -> Vec<String> {
    defs.question_schema(questions)
        .and_then(|s| s.schema.get("properties"))
        .and_then(serde_json::Value::as_object)
        .map(|props| props.keys().cloned().collect())
        .unwrap_or_default()
}

/// The question sets the definitions send through `call`, each once, in the order of the journeys
/// and their steps: the steps' own (`forms`) and the modals' (`modals`).
#[derive(Debug, Default)]
pub struct SetsTaken {
    pub forms: Vec<String>,
    pub modals: Vec<String>,
}

pub fn sets_taken_by(defs: &Definitions, call: &str) -> SetsTaken {
    sets_taken(
        defs,
        |step| step.takes_call(call),
        |step, edit| step.edit_takes_call(edit, call),
    )
}

/// The question sets the definitions send through the generic call (`POST /api/steps/{step}`):
/// those of every step and modal that names no call of its own.
pub fn sets_taken_by_generic_call(defs: &Definitions) -> SetsTaken {
    sets_taken(
        defs,
        |step| step.named_call.is_none(),
        |_, edit| edit.named_call.is_none(),
    )
}

fn sets_taken(
    defs: &Definitions,
    step_takes: impl Fn(&Step) -> bool,
    edit_takes: impl Fn(&Step, &Edit) -> bool,
) -> SetsTaken {
    let mut taken = SetsTaken::default();
    for journey in defs.journeys() {
        for step in &journey.steps {
            if let Some(questions) = step.questions.as_deref()
                && step_takes(step)
                && !taken.forms.iter().any(|q| q == questions)
            {
                taken.forms.push(questions.to_owned());
            }
            for edit in &step.edits {
                if edit_takes(step, edit) && !taken.modals.iter().any(|q| *q == *edit.questions) {
                    taken.modals.push(edit.questions.to_string());
                }
            }
        }
    }
    taken
}

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
