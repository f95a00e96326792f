//! What start-up checks before anything is served, shared by serving, the development reload and
//! `pawpath check`: the definitions loaded and linted with everything rendered from them, and the
//! reference data read. Any problem is a [`StartError`] naming the file.

use std::sync::Arc;

use engine::Definitions;
use engine::definitions::FsLoader;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{0}")]
    Definitions(#[from] engine::DefinitionErrors),
    #[error("{0}")]
    Store(#[from] crate::store::StoreError),
    #[error("{0}")]
    Data(String),
    #[error("cannot listen on port {port}: {source}")]
    Listen { port: u16, source: std::io::Error },
}

/// The definitions under `root`, linted, and everything rendered from them checked as start-up
/// checks it (`pawpath check` runs exactly this): the copy keys the server uses, the default
/// brand, every product document in every language and the email templates with a sample in
/// every brand's languages. Any problem is an error naming the file.
pub fn load_definitions(
    root: &std::path::Path,
) -> Result<(Arc<Definitions>, crate::mail::MailTemplates), StartError> {
    let defs = Definitions::load(&FsLoader::new(root))?;
    check_server_copy(&defs)?;
    check_calls(&defs)?;
    if defs.brand(engine::definitions::DEFAULT_BRAND).is_none() {
        return Err(StartError::Definitions(engine::DefinitionErrors(vec![
            engine::DefinitionError::new(
                "journeys/brands",
                "",
                format!(
                    "no brand {:?}: the brand a quote gets when none is asked for needs journeys/brands/{}.json",
                    engine::definitions::DEFAULT_BRAND,
                    engine::definitions::DEFAULT_BRAND
                ),
            ),
        ])));
    }
    let defs = Arc::new(defs);
    crate::service::documents::check_all(&defs).map_err(|e| {
        StartError::Data(format!(
            "{e}. Fix: add the copy key to every language, or correct the template"
        ))
    })?;
    let mail_templates =
        crate::mail::MailTemplates::load(&root.join("journeys/emails"), Arc::clone(&defs)).map_err(
            |e| {
                StartError::Data(format!(
                    "{e}. Fix: correct the template at that line, or add the copy key it names to every language"
                ))
            },
        )?;
    Ok((defs, mail_templates))
}

/// Reads Vocalink's weight and substitution tables; a missing file or a bad line stops start-up
/// naming the file and line.
pub fn load_modulus_tables(
    dir: &std::path::Path,
) -> Result<engine::rules::modulus::ModulusTables, StartError> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path)
            .map_err(|e| StartError::Data(format!("{}: cannot read: {e}", path.display())))
    };
    let weights = read("valacdos.txt")?;
    let substitutions = read("scsubtab.txt")?;
    engine::rules::modulus::ModulusTables::parse(&weights, &substitutions).map_err(|errors| {
        StartError::Data(format!(
            "{}: {}",
            dir.display(),
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ))
    })
}

/// Copy keys the server's own code gives as messages; like the definitions' keys, each must
/// exist in every language, or pawpath does not start.
pub const SERVER_COPY_KEYS: &[&str] = &[
    "vet.postcode.required",
    "vet.postcode.invalid",
    "address.postcode_required",
    "address.postcode_invalid",
    "error.rate_limited",
    "error.too_fast",
    "app.name",
    "app.no_script",
    "email.confirmation.subject",
    "app.brand",
    "header.hours",
    "unsupported.title",
    "unsupported.body",
    "retrieve.title",
];

fn check_server_copy(defs: &Definitions) -> Result<(), StartError> {
    let mut problems = Vec::new();
    for language in defs.languages() {
        for key in SERVER_COPY_KEYS {
            if defs
                .catalogue(language)
                .is_none_or(|c| !c.contains_key(*key))
            {
                problems.push(engine::DefinitionError::new(
                    format!("questions/copy/{language}.json"),
                    "/messages",
                    format!("copy key {key:?}, which the server uses, is missing. Fix: add it to the catalogue"),
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(StartError::Definitions(engine::DefinitionErrors(problems)))
    }
}

/// Every call a journey names for a step or a modal is one the server has and takes that question
/// set's answers in the fields the set asks (`view::ANSWER_CALLS`, `view::OWN_CALLS`), and no two
/// steps of a journey name one call (it could not tell which step the answers are for). A step or
/// modal that names none is taken by the generic call, which always fits.
fn check_calls(defs: &Definitions) -> Result<(), StartError> {
    use crate::service::view::{ANSWER_CALLS, OWN_CALLS, answer_fields, set_fields};
    let mut problems = Vec::new();
    let named: Vec<&str> = ANSWER_CALLS
        .iter()
        .map(|(call, _)| *call)
        .chain(OWN_CALLS.iter().map(|(call, _)| *call))
        .collect();
    let check = |file: &str, at: String, call: &str, questions: &str| {
        let problem = |text: String| Some(engine::DefinitionError::new(file, at.clone(), text));
        if let Some(fields) = answer_fields(call) {
            let asked = set_fields(defs, questions);
            let missing: Vec<&str> = asked
                .iter()
                .map(String::as_str)
                .filter(|f| !fields.contains(f))
                .collect();
            if !missing.is_empty() {
                return problem(format!(
                    "{call} takes its answers in {}, but question set {questions:?} asks {}. Fix: remove \"call\" (the step's generic call takes any set), or name a call that takes them",
                    fields.join(", "),
                    missing.join(", ")
                ));
            }
        } else if let Some((_, own)) = OWN_CALLS.iter().find(|(c, _)| *c == call) {
            if *own != questions {
                return problem(format!(
                    "{call} saves question set {own:?} only, not {questions:?}. Fix: remove \"call\" (the step's generic call takes any set), or name a call that takes it"
                ));
            }
        } else {
            return problem(format!(
                "no call {call:?} takes answers. Fix: remove \"call\" (the step's generic call, POST /api/steps/{{step}}, takes them), or name one of: {}",
                named.join(", ")
            ));
        }
        None
    };
    for sourced in &defs.raw.journeys {
        let journey = &sourced.value;
        for (i, step) in journey.steps.iter().enumerate() {
            if let (Some(call), Some(questions)) = (&step.named_call, step.questions.as_deref()) {
                problems.extend(check(
                    &sourced.file,
                    format!("/steps/{i}/call"),
                    call,
                    questions,
                ));
            }
            for (j, edit) in step.edits.iter().enumerate() {
                if let Some(call) = &edit.named_call {
                    problems.extend(check(
                        &sourced.file,
                        format!("/steps/{i}/edits/{j}/call"),
                        call,
                        &edit.questions,
                    ));
                }
            }
        }
        for (i, step) in journey.steps.iter().enumerate() {
            if step.questions.is_none() {
                continue;
            }
            let call = step.call();
            if let Some(first) = journey.steps[..i]
                .iter()
                .find(|s| s.questions.is_some() && s.takes_call(&call))
            {
                problems.push(engine::DefinitionError::new(
                    &sourced.file,
                    format!("/steps/{i}/call"),
                    format!(
                        "steps {:?} and {:?} both take their answers through {call}, which could not tell them apart. Fix: give one of them another call, or none (its generic call)",
                        first.id.to_string(),
                        step.id.to_string()
                    ),
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(StartError::Definitions(engine::DefinitionErrors(problems)))
    }
}
