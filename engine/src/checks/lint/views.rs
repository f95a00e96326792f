//! Each step's view is one the renderer draws (journeys/views.json), and its modals play roles
//! that view reads: a modal bound to a role the page never reads would never be shown, and a
//! view drawn without a role it needs would break. A definition set without a manifest (one
//! kept from before there was one, replayed) is not checked here.

use std::collections::BTreeSet;

use crate::definitions::RawDefinitions;
use crate::definitions::error::DefinitionError;
use crate::definitions::schema::CompiledSchema;

pub(super) fn lint_views(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) {
    let Some(manifest) = defs.views.first() else {
        return;
    };
    for extra in defs.views.iter().skip(1) {
        errors.push(DefinitionError::new(
            &extra.file,
            "",
            format!(
                "a second views manifest ({} is the first) Fix: keep one views file, journeys/views.json.",
                manifest.file
            ),
        ));
    }
    let views = &manifest.value.views;
    for journey in &defs.journeys {
        for (i, step) in journey.value.steps.iter().enumerate() {
            let view = serde_json::to_value(step.view)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            let Some(spec) = views.get(&view) else {
                errors.push(DefinitionError::new(
                    &journey.file,
                    format!("/steps/{i}/view"),
                    format!(
                        "view {view:?} is not in {} Fix: add it there with the roles it reads (the renderer must draw it too), or use one of: {}.",
                        manifest.file,
                        views.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
                continue;
            };
            let mut bound = BTreeSet::new();
            for (j, edit) in step.edits.iter().enumerate() {
                lint_sets_on_pet(defs, &journey.file, i, j, edit, errors);
                let role = edit.role();
                let at = if edit.role.is_some() {
                    format!("/steps/{i}/edits/{j}/role")
                } else {
                    format!("/steps/{i}/edits/{j}/questions")
                };
                if !spec.roles.contains_key(role) {
                    let reads = spec.roles.keys().cloned().collect::<Vec<_>>();
                    errors.push(DefinitionError::new(
                        &journey.file,
                        at,
                        format!(
                            "the {view} view reads no modal in the role {role:?}, so the page would never show it (it reads: {}) Fix: bind the set to one of those roles with \"role\", or add the role to {} with the renderer code that reads it.",
                            if reads.is_empty() { "none".to_owned() } else { reads.join(", ") },
                            manifest.file
                        ),
                    ));
                } else if !bound.insert(role) {
                    errors.push(DefinitionError::new(
                        &journey.file,
                        at,
                        format!("two modals of step {:?} play the role {role:?}, and the page reads one Fix: give one of them another role, or remove it.", step.id.to_string()),
                    ));
                }
            }
            for (role, needed) in spec.roles.iter().filter(|(_, r)| r.required) {
                if !bound.contains(role.as_str()) {
                    errors.push(DefinitionError::new(
                        &journey.file,
                        format!("/steps/{i}/edits"),
                        format!(
                            "the {view} view cannot be drawn without a modal in the role {role:?} ({}) Fix: add {{\"questions\": \"<set>\", \"role\": \"{role}\"}} to the step's edits.",
                            needed.description
                        ),
                    ));
                }
            }
        }
    }
}

/// What a modal sets on the pet it edits (`sets_on_pet`) must be answers to the set's own pet
/// questions, each one its question accepts: the page sends them with the modal's answers.
fn lint_sets_on_pet(
    defs: &RawDefinitions,
    file: &str,
    step: usize,
    index: usize,
    edit: &crate::definitions::Edit,
    errors: &mut Vec<DefinitionError>,
) {
    let Some(set) = defs
        .question_sets
        .iter()
        .find(|q| q.value.id == edit.questions)
    else {
        return; // an unknown set is refused with its own message
    };
    for (key, value) in &edit.sets_on_pet {
        let at = format!("/steps/{step}/edits/{index}/sets_on_pet/{key}");
        let pointer = format!("/properties/pets/items/properties/{key}");
        let Some(question) = set.value.schema.pointer(&pointer) else {
            errors.push(DefinitionError::new(
                file,
                at,
                format!(
                    "the question set {:?} asks no pet question {key:?} ({}), so the pet would carry an answer nobody asked Fix: name one of its pet questions, or add {key:?} to the set's pets.items.properties.",
                    edit.questions.to_string(),
                    set.file
                ),
            ));
            continue;
        };
        let accepted = CompiledSchema::new(question.clone())
            .map(|c| c.field_errors(value).is_empty())
            .unwrap_or(true); // a refused schema has its own message
        if !accepted {
            errors.push(DefinitionError::new(
                file,
                at,
                format!(
                    "{value} is not an answer the question {key:?} of {:?} accepts Fix: set a value its schema ({}{pointer}) allows.",
                    edit.questions.to_string(),
                    set.file
                ),
            ));
        }
    }
}
