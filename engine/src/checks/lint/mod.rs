//! The lint run at every load: references that lead nowhere, steps nobody can reach, steps with
//! no way out, blocking rules without a message, copy keys missing from a language.

use std::collections::BTreeSet;

use crate::definitions::RawDefinitions;
use crate::definitions::error::DefinitionError;
use crate::definitions::schema;
use crate::definitions::schema::{DEFAULT_INVALID_KEY, DEFAULT_REQUIRED_KEY};

mod brands;
mod catalogues;
mod common;
mod journeys;
mod products;
pub mod schema_keywords;
mod views;

use brands::{lint_brands, lint_pages};
use catalogues::{lint_breeds, lint_copy, lint_experiments};
use common::{CopyRef, is_breed_id, walk};
use journeys::{guard_names, lint_journey, lint_question_set, question_ids};
use products::{lint_documents, lint_promotions, lint_rates, lint_rehoming};

/// Every problem in the set; empty when the set is fit to serve.
pub fn lint(defs: &RawDefinitions) -> Vec<DefinitionError> {
    let mut errors = Vec::new();
    let guard_names = guard_names(defs, &mut errors);
    let question_ids = question_ids(defs, &mut errors);
    let mut copy_refs: Vec<CopyRef> = Vec::new();

    if defs.copy.is_empty() {
        errors.push(DefinitionError::new(
            "questions/copy",
            "",
            "no copy catalogue: at least one language is needed",
        ));
    }
    let mut journey_ids = BTreeSet::new();
    for journey in &defs.journeys {
        if !journey_ids.insert(journey.value.id.clone()) {
            errors.push(DefinitionError::new(
                &journey.file,
                "/id",
                format!(
                    "journey id {:?} is used twice Fix: rename one of the journeys (its `id`).",
                    journey.value.id
                ),
            ));
        }
        lint_journey(
            journey,
            &guard_names,
            &question_ids,
            &mut errors,
            &mut copy_refs,
        );
    }
    for qs in &defs.question_sets {
        lint_question_set(qs, &mut errors, &mut copy_refs);
    }
    for guards in &defs.guards {
        for (name, guard) in &guards.value.guards {
            if let Err(e) = schema::compile_draft7(&guard.schema) {
                errors.push(DefinitionError::new(
                    &guards.file,
                    format!("/guards/{name}/schema"),
                    format!("not a valid JSON Schema: {e} Fix: correct the schema as the message says (the guard or question schema must compile as JSON Schema draft 7)."),
                ));
            }
        }
    }
    for key in crate::definitions::vocabulary::ENGINE_COPY_KEYS {
        copy_refs.push(CopyRef {
            file: "(engine)".into(),
            path: String::new(),
            key: (*key).to_owned(),
        });
    }
    let breed_ids = lint_breeds(defs, &mut errors);
    for qs in &defs.question_sets {
        // A breed id a question offers (a mongrel size, a cat or rabbit type) must exist.
        walk(&qs.value.schema, "/schema", &mut |path, value| {
            if let Some(id) = value.as_str()
                && path.contains("/enum/")
                && is_breed_id(id)
                && !breed_ids.contains(id)
            {
                errors.push(DefinitionError::new(
                    &qs.file,
                    path,
                    format!("breed {id:?} is in no breed list (questions/breeds/) Fix: use a breed id from questions/breeds/, or add the breed there."),
                ));
            }
        });
    }
    copy_refs.push(CopyRef {
        file: "(built in)".into(),
        path: String::new(),
        key: DEFAULT_REQUIRED_KEY.into(),
    });
    copy_refs.push(CopyRef {
        file: "(built in)".into(),
        path: String::new(),
        key: DEFAULT_INVALID_KEY.into(),
    });
    lint_promotions(defs, &mut errors, &mut copy_refs);
    lint_rehoming(defs, &mut errors);
    lint_rates(defs, &mut errors, &mut copy_refs);
    lint_documents(defs, &mut errors, &mut copy_refs);
    lint_experiments(defs, &mut errors);
    lint_brands(defs, &mut errors);
    lint_pages(defs, &mut errors, &mut copy_refs);
    views::lint_views(defs, &mut errors);
    lint_copy(defs, &copy_refs, &mut errors);
    errors
}
