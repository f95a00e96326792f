//! Each step's view is one the renderer draws (journeys/views.json), and its modals play roles
//! that view reads: a modal bound to a role the page never reads would never be shown, and a
//! view drawn without a role it needs would break. A definition set without a manifest (one
//! kept from before there was one, replayed) is not checked here.

use std::collections::BTreeSet;

use crate::definitions::RawDefinitions;
use crate::definitions::error::DefinitionError;

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
