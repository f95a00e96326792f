//! Journeys and question sets: references that lead nowhere, steps nobody can reach, steps with
//! no way out, blocking rules without a message.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::Value;

use crate::checks::lint::common::{CopyRef, UI_COPY_KEYS, walk};
use crate::definitions::error::DefinitionError;
use crate::definitions::schema;
use crate::definitions::{Journey, RawDefinitions, Sourced};

pub(super) fn guard_names(
    defs: &RawDefinitions,
    errors: &mut Vec<DefinitionError>,
) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for file in &defs.guards {
        for name in file.value.guards.keys() {
            if !names.insert(name.clone()) {
                errors.push(DefinitionError::new(
                    &file.file,
                    format!("/guards/{name}"),
                    format!("guard {name:?} is defined twice Fix: rename or remove one of them."),
                ));
            }
        }
    }
    names
}

pub(super) fn question_ids(
    defs: &RawDefinitions,
    errors: &mut Vec<DefinitionError>,
) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for qs in &defs.question_sets {
        if !ids.insert(qs.value.id.to_string()) {
            errors.push(DefinitionError::new(
                &qs.file,
                "/id",
                format!(
                    "question set id {:?} is used twice Fix: rename one of the question sets.",
                    qs.value.id
                ),
            ));
        }
    }
    ids
}

pub(super) fn lint_journey(
    journey: &Sourced<Journey>,
    guards: &BTreeSet<String>,
    questions: &BTreeSet<String>,
    errors: &mut Vec<DefinitionError>,
    copy_refs: &mut Vec<CopyRef>,
) {
    let file = &journey.file;
    let j = &journey.value;
    let mut err =
        |path: String, problem: String| errors.push(DefinitionError::new(file, path, problem));

    let mut step_index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut paths: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, step) in j.steps.iter().enumerate() {
        if let Some(first) = step_index.insert(&step.id, i) {
            err(
                format!("/steps/{i}/id"),
                format!(
                    "step id {:?} is already used by /steps/{first}. Fix: give the step an id of its own.",
                    step.id
                ),
            );
        }
        if let Some(first) = paths.insert(&step.path, i) {
            err(
                format!("/steps/{i}/path"),
                format!(
                    "path {:?} is already used by /steps/{first}. Fix: give the step a path of its own.",
                    step.path
                ),
            );
        }
    }
    let known_guard = |name: &str| guards.contains(name);

    if !step_index.contains_key(j.start.as_str()) {
        err(
            "/start".into(),
            format!(
                "unknown step {:?} Fix: name a step of this journey.",
                j.start
            ),
        );
    }
    let mut in_bar: BTreeMap<&str, usize> = BTreeMap::new();
    for (b, item) in j.step_bar.iter().enumerate() {
        copy_refs.push(CopyRef {
            file: file.clone(),
            path: format!("/step_bar/{b}/label"),
            key: item.label.clone(),
        });
        for (k, s) in item.steps.iter().enumerate() {
            if !step_index.contains_key(s.as_str()) {
                err(
                    format!("/step_bar/{b}/steps/{k}"),
                    format!("unknown step {s:?} Fix: name a step of this journey."),
                );
            }
            if let Some(other) = in_bar.insert(s, b) {
                err(
                    format!("/step_bar/{b}/steps/{k}"),
                    format!(
                        "step {s:?} is already in /step_bar/{other} Fix: keep the step in one step bar item."
                    ),
                );
            }
        }
        if let Some(entry) = &item.entry
            && !item.steps.contains(entry)
        {
            err(
                format!("/step_bar/{b}/entry"),
                format!(
                    "step {entry:?} is not one of the item's steps Fix: name one of the item's steps as its entry."
                ),
            );
        }
    }

    for (i, lock) in j.locks.iter().enumerate() {
        if !known_guard(&lock.when) {
            err(format!("/locks/{i}/when"), guard_problem(&lock.when));
        }
    }
    let steps = Steps {
        file,
        guards,
        questions,
        index: &step_index,
        in_bar: &in_bar,
    };
    for (i, step) in j.steps.iter().enumerate() {
        lint_step(&steps, i, step, &mut err, copy_refs);
    }

    // Reachability from the start over the exits.
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from([j.start.as_str()]);
    while let Some(id) = queue.pop_front() {
        if !seen.insert(id) {
            continue;
        }
        if let Some(step) = j.step(id) {
            queue.extend(step.exits.iter().map(|e| e.to.as_str()));
        }
    }
    for (i, step) in j.steps.iter().enumerate() {
        if !seen.contains(step.id.as_str()) {
            err(
                format!("/steps/{i}"),
                format!(
                    "step {:?} cannot be reached from the start step {:?}. Fix: add an exit to it from a reachable step, or remove it.",
                    step.id, j.start
                ),
            );
        }
    }
}

/// What a step is checked against: the journey's file, the guards and question sets there are,
/// and the journey's steps by id and by step bar item.
struct Steps<'a> {
    file: &'a str,
    guards: &'a BTreeSet<String>,
    questions: &'a BTreeSet<String>,
    index: &'a BTreeMap<&'a str, usize>,
    in_bar: &'a BTreeMap<&'a str, usize>,
}

/// What a guard name that is not in journeys/guards.json is told.
fn guard_problem(name: &str) -> String {
    format!(
        "unknown guard {name:?} (guards are defined in journeys/guards.json) Fix: name a guard from journeys/guards.json, or add it there."
    )
}

/// One step: its title, question set, rules, edits, guards, blocking answers and exits, and
/// that it is in the step bar.
fn lint_step(
    cx: &Steps<'_>,
    i: usize,
    step: &crate::definitions::Step,
    err: &mut impl FnMut(String, String),
    copy_refs: &mut Vec<CopyRef>,
) {
    let file = cx.file;
    let known_guard = |name: &str| cx.guards.contains(name);
    copy_refs.push(CopyRef {
        file: file.to_owned(),
        path: format!("/steps/{i}/title"),
        key: step.title.clone(),
    });
    if let Some(q) = &step.questions {
        if !cx.questions.contains(q.as_str()) {
            err(
                format!("/steps/{i}/questions"),
                format!(
                    "unknown question set {q:?} Fix: name a question set from questions/, or add it there."
                ),
            );
        }
    } else if !matches!(
        step.view,
        crate::definitions::View::Pending
            | crate::definitions::View::Review
            | crate::definitions::View::PaymentConfirmation
            | crate::definitions::View::CardConfirmation
            | crate::definitions::View::Confirmation
            | crate::definitions::View::RescueConfirmation
    ) {
        err(
            format!("/steps/{i}/questions"),
            format!(
                "a {:?} step needs a question set Fix: set the step's `questions`.",
                step.view
            ),
        );
    }
    for (k, rule) in step.rules.iter().enumerate() {
        if crate::definitions::vocabulary::DomainRuleName::parse(rule).is_none() {
            err(
                format!("/steps/{i}/rules/{k}"),
                format!(
                    "unknown rule {rule:?} (known rules: {}) Fix: name one of the known rules.",
                    crate::definitions::vocabulary::DomainRuleName::names().join(", ")
                ),
            );
        }
    }
    for (k, edit) in step.edits.iter().enumerate() {
        if !cx.questions.contains(edit.questions.as_str()) {
            err(
                format!("/steps/{i}/edits/{k}/questions"),
                format!(
                    "unknown question set {:?} Fix: name a question set from questions/, or add it there.",
                    edit.questions
                ),
            );
        }
        for (r, rule) in edit.rules.iter().enumerate() {
            if crate::definitions::vocabulary::DomainRuleName::parse(rule).is_none() {
                err(
                    format!("/steps/{i}/edits/{k}/rules/{r}"),
                    format!(
                        "unknown rule {rule:?} (known rules: {}) Fix: name one of the known rules.",
                        crate::definitions::vocabulary::DomainRuleName::names().join(", ")
                    ),
                );
            }
        }
    }
    for (k, g) in step.requires.iter().enumerate() {
        if !known_guard(g) {
            err(format!("/steps/{i}/requires/{k}"), guard_problem(g));
        }
    }
    if let Some(g) = &step.complete_when
        && !known_guard(g)
    {
        err(format!("/steps/{i}/complete_when"), guard_problem(g));
    }
    for (k, rule) in step.blocking.iter().enumerate() {
        if !known_guard(&rule.when) {
            err(
                format!("/steps/{i}/blocking/{k}/when"),
                guard_problem(&rule.when),
            );
        }
        match &rule.message {
            Some(m) if !m.trim().is_empty() => copy_refs.push(CopyRef {
                file: file.to_owned(),
                path: format!("/steps/{i}/blocking/{k}/message"),
                key: m.clone(),
            }),
            _ => err(
                format!("/steps/{i}/blocking/{k}"),
                format!(
                    "blocking rule {:?} has no message: a customer must be told why they cannot go on. Fix: give it a `message` copy key.",
                    rule.id
                ),
            ),
        }
    }
    for (k, exit) in step.exits.iter().enumerate() {
        if !cx.index.contains_key(exit.to.as_str()) {
            err(
                format!("/steps/{i}/exits/{k}/to"),
                format!(
                    "unknown step {:?} Fix: name a step of this journey.",
                    exit.to
                ),
            );
        }
        if let Some(g) = &exit.when
            && !known_guard(g)
        {
            err(format!("/steps/{i}/exits/{k}/when"), guard_problem(g));
        }
    }
    if step.terminal && !step.exits.is_empty() {
        err(
            format!("/steps/{i}/exits"),
            "a terminal step cannot have exits Fix: remove the exits, or the `terminal` flag."
                .into(),
        );
    }
    if !step.terminal && step.exits.is_empty() {
        err(
            format!("/steps/{i}"),
            format!(
                "step {:?} has no exits and is not marked terminal: customers would be stuck. Fix: add an exit, or mark the step terminal.",
                step.id
            ),
        );
    }
    if !step.terminal && !step.exits.is_empty() && step.exits.iter().all(|e| e.when.is_some()) {
        err(
            format!("/steps/{i}/exits"),
            format!(
                "every exit of step {:?} has a guard, so a valid answer for which none holds has no way forward. Fix: add a last exit without `when`.",
                step.id
            ),
        );
    }
    if !cx.in_bar.contains_key(step.id.as_str()) {
        err(
            format!("/steps/{i}"),
            format!(
                "step {:?} is in no step bar item Fix: add the step to an item of the journey's step_bar.",
                step.id
            ),
        );
    }
}

/// A journey's pricing scheme is one of the rate table's; its status pages are pages of
/// pages.json at paths no step has; a journey made only from policy links has the page for a
/// link that cannot be used.
pub(super) fn lint_journey_extras(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) {
    use crate::definitions::PageId;
    let pages: BTreeSet<PageId> = defs
        .pages
        .iter()
        .flat_map(|f| f.value.pages.iter().map(|p| p.id))
        .collect();
    for journey in &defs.journeys {
        let j = &journey.value;
        let mut problem = |path: String, message: String| {
            errors.push(DefinitionError::new(&journey.file, path, message));
        };
        if let Some(scheme) = &j.rate_scheme
            && !defs
                .rates
                .iter()
                .any(|r| r.value.schemes.contains_key(scheme))
        {
            problem(
                "/rate_scheme".into(),
                format!(
                    "the rate table has no scheme {scheme:?} (journeys/products/rates.json schemes) Fix: add the scheme to journeys/products/rates.json `schemes`, or name one there."
                ),
            );
        }
        let mut paths = BTreeSet::new();
        for (i, status) in j.status_pages.iter().enumerate() {
            if !pages.contains(&status.page) {
                problem(
                    format!("/status_pages/{i}/page"),
                    format!(
                        "journeys/pages.json has no page {:?} Fix: add the page to journeys/pages.json, or remove the status page.",
                        status.page.as_str()
                    ),
                );
            }
            if j.steps.iter().any(|s| s.path == status.path) || !paths.insert(&status.path) {
                problem(
                    format!("/status_pages/{i}/path"),
                    format!(
                        "{} is already the path of a step or another page Fix: give the page a path of its own.",
                        status.path
                    ),
                );
            }
        }
        if j.linked_only
            && !j
                .status_pages
                .iter()
                .any(|p| p.page == PageId::PolicyLinkExpired)
        {
            problem(
                "/linked_only".into(),
                "a journey made only from policy links needs the policy_link_expired status page for visitors without one Fix: add {\"page\": \"policy_link_expired\", \"path\": ...} to the journey's status_pages.".into(),
            );
        }
    }
}

pub(super) fn lint_question_set(
    qs: &Sourced<crate::definitions::QuestionSet>,
    errors: &mut Vec<DefinitionError>,
    copy_refs: &mut Vec<CopyRef>,
) {
    let file = &qs.file;
    let expected_id = format!("pawpath:questions/{}", qs.value.id);
    if qs.value.schema.get("$id").and_then(Value::as_str) != Some(expected_id.as_str()) {
        errors.push(DefinitionError::new(
            file,
            "/schema/$id",
            format!("must be {expected_id:?} so both validators find this schema Fix: set the schema's $id to that value."),
        ));
    }
    if let Err(e) = schema::compile_draft7(&qs.value.schema) {
        errors.push(DefinitionError::new(
            file,
            "/schema",
            format!("not a valid JSON Schema: {e} Fix: correct the schema as the message says (the guard or question schema must compile as JSON Schema draft 7)."),
        ));
    }
    super::schema_keywords::lint_schema_keywords(file, &qs.value.schema, errors);
    walk(&qs.value.schema, "/schema", &mut |path, value| {
        if let Some(Value::Object(map)) = value.get("x-errors") {
            for (keyword, key) in map {
                match key.as_str() {
                    Some(k) => copy_refs.push(CopyRef {
                        file: file.clone(),
                        path: format!("{path}/x-errors/{keyword}"),
                        key: k.to_owned(),
                    }),
                    None => errors.push(DefinitionError::new(
                        file,
                        format!("{path}/x-errors/{keyword}"),
                        "must be a copy key",
                    )),
                }
            }
        }
    });
    walk(&qs.value.ui, "/ui", &mut |path, value| {
        if let Value::Object(map) = value {
            for (k, v) in map {
                if UI_COPY_KEYS.contains(&k.as_str())
                    && let Some(key) = v.as_str()
                {
                    copy_refs.push(CopyRef {
                        file: file.clone(),
                        path: format!("{path}/{k}"),
                        key: key.to_owned(),
                    });
                }
                // Widget options whose name ends in "Label" are copy keys too (the currency
                // widget's nothingLabel, for example).
                if k == "ui:options"
                    && let Value::Object(options) = v
                {
                    for (name, value) in options {
                        if name.ends_with("Label")
                            && let Some(key) = value.as_str()
                        {
                            copy_refs.push(CopyRef {
                                file: file.clone(),
                                path: format!("{path}/ui:options/{name}"),
                                key: key.to_owned(),
                            });
                        }
                    }
                }
                if k == "ui:enumNames"
                    && let Value::Array(items) = v
                {
                    for (n, item) in items.iter().enumerate() {
                        if let Some(key) = item.as_str() {
                            copy_refs.push(CopyRef {
                                file: file.clone(),
                                path: format!("{path}/{k}/{n}"),
                                key: key.to_owned(),
                            });
                        }
                    }
                }
            }
        }
    });
}
