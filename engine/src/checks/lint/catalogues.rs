//! Catalogues: breed lists, copy in every language, experiments.

use std::collections::{BTreeMap, BTreeSet};

use crate::checks::lint::common::CopyRef;
use crate::definitions::RawDefinitions;
use crate::definitions::error::DefinitionError;

/// One list per species; each breed of its file's species, with that species' id letter; ids
/// unique. Returns every id.
pub(super) fn lint_breeds(
    defs: &RawDefinitions,
    errors: &mut Vec<DefinitionError>,
) -> BTreeSet<String> {
    let mut ids = BTreeMap::<String, String>::new();
    let mut species_files = BTreeMap::new();
    for file in &defs.breeds {
        let species = file.value.species;
        if let Some(other) = species_files.insert(species, file.file.clone()) {
            errors.push(DefinitionError::new(
                &file.file,
                "/species",
                format!("{} breeds are already listed in {other}. Fix: keep each species' breeds in one file.", species.as_str()),
            ));
        }
        for (list, breeds) in file.value.lists() {
            for (i, breed) in breeds.iter().enumerate() {
                let path = format!("{list}/{i}");
                if breed.species != species {
                    errors.push(DefinitionError::new(
                        &file.file,
                        format!("{path}/species"),
                        format!(
                            "a {} in the {} list. Fix: move the breed to its species' list.",
                            breed.species.as_str(),
                            species.as_str()
                        ),
                    ));
                }
                if !breed.id.starts_with(species.id_prefix()) {
                    errors.push(DefinitionError::new(
                        &file.file,
                        format!("{path}/id"),
                        format!(
                            "{} ids start with {}. Fix: give the breed an id with its species' letter.",
                            species.as_str(),
                            species.id_prefix()
                        ),
                    ));
                }
                if breed.min_age_wks as u64 * 7 >= breed.max_age_mths as u64 * 30 {
                    errors.push(DefinitionError::new(
                        &file.file,
                        format!("{path}/max_age_mths"),
                        "the maximum entry age is not above the minimum",
                    ));
                }
                // Customers read and type breeds as owners say them ("Cocker Spaniel"),
                // so a name the Kennel Club writes with brackets needs its spoken form.
                match &breed.spoken {
                    None if breed.active && breed.desc.contains('(') => errors.push(DefinitionError::new(
                        &file.file,
                        format!("{path}/spoken"),
                        format!(
                            "{:?} has brackets and no spoken name. Fix: add \"spoken\", the breed as owners say it (\"Cocker Spaniel\" for \"Spaniel (Cocker)\").",
                            breed.desc
                        ),
                    )),
                    Some(spoken) if spoken.contains('(') || spoken.trim().len() < 2 || spoken == &breed.desc => {
                        errors.push(DefinitionError::new(
                            &file.file,
                            format!("{path}/spoken"),
                            format!(
                                "{spoken:?} is not a spoken name for {:?}: it must differ from desc, have no brackets and at least two characters. Fix: write the breed as owners say it, or remove \"spoken\".",
                                breed.desc
                            ),
                        ));
                    }
                    _ => {}
                }
                if let Some(first) = ids.insert(breed.id.clone(), format!("{}{path}", file.file)) {
                    errors.push(DefinitionError::new(
                        &file.file,
                        format!("{path}/id"),
                        format!("breed id {:?} is already used at {first} Fix: give the breed an id of its own.", breed.id),
                    ));
                }
            }
        }
    }
    ids.into_keys().collect()
}

pub(super) fn lint_copy(
    defs: &RawDefinitions,
    refs: &[CopyRef],
    errors: &mut Vec<DefinitionError>,
) {
    let mut languages = BTreeSet::new();
    for cat in &defs.copy {
        if !languages.insert(cat.value.language.clone()) {
            errors.push(DefinitionError::new(
                &cat.file,
                "/language",
                format!(
                    "language {:?} has two catalogues Fix: merge the two catalogues.",
                    cat.value.language
                ),
            ));
        }
    }
    for r in refs {
        for cat in &defs.copy {
            if !cat.value.messages.contains_key(&r.key) {
                errors.push(DefinitionError::new(
                    &r.file,
                    &r.path,
                    format!(
                        "copy key {:?} is missing from language {} ({}) Fix: add the key to that language's catalogue.",
                        r.key, cat.value.language, cat.file
                    ),
                ));
            }
        }
    }
    // A key one language has and another lacks is a translation gap even if nothing uses it yet.
    for a in &defs.copy {
        for b in &defs.copy {
            for key in a.value.messages.keys() {
                if !b.value.messages.contains_key(key) {
                    errors.push(DefinitionError::new(
                        &b.file,
                        "/messages",
                        format!(
                            "copy key {key:?} from {} is missing from language {} Fix: add the key to that language's catalogue.",
                            a.value.language, b.value.language
                        ),
                    ));
                }
            }
        }
    }
}

/// Experiments: one file; ids used once; pinned and weighted variations exist; some weight.
pub(super) fn lint_experiments(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) {
    for extra in defs.experiments.iter().skip(1) {
        errors.push(DefinitionError::new(
            &extra.file,
            "",
            format!(
                "a second experiments file; {} is the one Fix: merge the two into journeys/experiments.json.",
                defs.experiments[0].file
            ),
        ));
    }
    let Some(file) = defs.experiments.first() else {
        return;
    };
    let mut seen = BTreeSet::new();
    for (i, e) in file.value.experiments.iter().enumerate() {
        let here = format!("/experiments/{i}");
        let mut err = |path: String, problem: String| {
            errors.push(DefinitionError::new(&file.file, path, problem));
        };
        if !seen.insert(e.id.clone()) {
            err(
                format!("{here}/id"),
                format!(
                    "experiment {:?} is defined twice Fix: rename or remove one of them.",
                    e.id
                ),
            );
        }
        for (brand, v) in &e.brands {
            if !e.variations.contains(v) {
                err(
                    format!("{here}/brands/{brand}"),
                    format!(
                        "{v:?} is not a variation of {} Fix: name one of the experiment's variations.",
                        e.id
                    ),
                );
            }
        }
        for v in e.weights.keys() {
            if !e.variations.contains(v) {
                err(
                    format!("{here}/weights/{v}"),
                    format!(
                        "{v:?} is not a variation of {} Fix: name one of the experiment's variations.",
                        e.id
                    ),
                );
            }
        }
        if e.weights.values().all(|w| *w == 0) {
            err(
                format!("{here}/weights"),
                "the weights add up to nothing Fix: give at least one variation a weight above 0."
                    .into(),
            );
        }
    }
}
