//! The lint run at every load: references that lead nowhere, steps nobody can reach, steps with
//! no way out, blocking rules without a message, copy keys missing from a language.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::Value;

use crate::definitions::error::DefinitionError;
use crate::definitions::schema;
use crate::definitions::schema::{DEFAULT_INVALID_KEY, DEFAULT_REQUIRED_KEY};
use crate::definitions::{Journey, RawDefinitions, Sourced};

/// Keys of the uiSchema whose values are copy keys.
const UI_COPY_KEYS: [&str; 4] = ["ui:title", "ui:description", "ui:help", "ui:placeholder"];

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
    lint_copy(defs, &copy_refs, &mut errors);
    errors
}

/// The rate table: one of it; a base premium for every product offered; every UK postcode area
/// in a band that has a factor; age bands in order; each default excess and co-insurance among
/// the options.
fn lint_rates(
    defs: &RawDefinitions,
    errors: &mut Vec<DefinitionError>,
    copy_refs: &mut Vec<CopyRef>,
) {
    if defs.rates.len() > 1 {
        for extra in &defs.rates[1..] {
            errors.push(DefinitionError::new(
                &extra.file,
                "",
                format!("a second rate table; {} is the one Fix: merge the two into journeys/products/rates.json.", defs.rates[0].file),
            ));
        }
    }
    for file in &defs.rates {
        let r = &file.value;
        let mut err = |path: String, problem: String| {
            errors.push(DefinitionError::new(&file.file, path, problem));
        };
        for (species, groups) in &r.products {
            for (group, limits) in groups {
                for (i, limit) in limits.iter().enumerate() {
                    let has = r
                        .base_annual
                        .get(species)
                        .and_then(|g| g.get(group))
                        .is_some_and(|l| l.contains_key(limit));
                    if !has {
                        err(
                            format!("/products/{}/{}/{i}", species.as_str(), group.as_str()),
                            format!(
                                "no base premium at /base_annual/{}/{}/{limit} Fix: add the base premium for that limit, or remove the product.",
                                species.as_str(),
                                group.as_str()
                            ),
                        );
                    }
                }
            }
        }
        for area in crate::definitions::postcode::UK_POSTCODE_AREAS {
            match r.area_bands.areas.get(area) {
                None => err(
                    "/area_bands/areas".into(),
                    format!(
                        "postcode area {area} is in no band Fix: add the area to a band in /area_bands/areas."
                    ),
                ),
                Some(band) if !r.area_bands.factors.contains_key(band) => err(
                    format!("/area_bands/areas/{area}"),
                    format!(
                        "band {band:?} has no factor in /area_bands/factors Fix: add a factor for the band."
                    ),
                ),
                Some(_) => {}
            }
        }
        for area in r.area_bands.areas.keys() {
            if !crate::definitions::postcode::UK_POSTCODE_AREAS.contains(&area.as_str()) {
                err(
                    format!("/area_bands/areas/{area}"),
                    "not a UK postcode area Fix: use a UK postcode area (one or two letters, such as SW or B).".into(),
                );
            }
        }
        for (species, bands) in &r.age_bands {
            if bands
                .windows(2)
                .any(|w| w[0].below_years >= w[1].below_years)
            {
                err(
                    format!("/age_bands/{}", species.as_str()),
                    "the bands must go up in age".into(),
                );
            }
        }
        for (species, excess) in &r.excess {
            if !excess
                .options
                .contains_key(&excess.default.normalize().to_string())
            {
                err(
                    format!("/excess/{}/default", species.as_str()),
                    "the default is not one of the options Fix: make the default one of the listed options.".into(),
                );
            }
        }
        // Every benefit row's copy exists, and a row valued by limit has a value at every limit
        // its species are offered.
        for (i, benefit) in r.benefits.iter().enumerate() {
            let here = format!("/benefits/{i}");
            let mut keys = vec![("desc", &benefit.desc), ("tooltip", &benefit.tooltip)];
            if let crate::definitions::rates::BenefitValue::Text(key) = &benefit.value {
                keys.push(("value/text", key));
            }
            for (field, key) in keys {
                copy_refs.push(CopyRef {
                    file: file.file.clone(),
                    path: format!("{here}/{field}"),
                    key: key.clone(),
                });
            }
            if let crate::definitions::rates::BenefitValue::ByLimit(by) = &benefit.value {
                for species in &benefit.species {
                    for product in r.products_for(*species) {
                        if !by.contains_key(&product.limit.to_string()) {
                            err(
                                format!("{here}/value/by_limit"),
                                format!(
                                    "no value for the {} limit {} ({} {}) Fix: add the limit's value to by_limit.",
                                    species.as_str(),
                                    product.limit,
                                    species.as_str(),
                                    product.code()
                                ),
                            );
                        }
                    }
                }
            }
        }
        if !r
            .coinsurance
            .options
            .contains_key(&r.coinsurance.default.normalize().to_string())
        {
            err(
                "/coinsurance/default".into(),
                "the default is not one of the options Fix: make the default one of the listed options.".into(),
            );
        }
    }
}

/// Experiments: one file; ids used once; pinned and weighted variations exist; some weight.
fn lint_experiments(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) {
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

/// A journey's pricing scheme is one of the rate table's; its status pages are pages of
/// pages.json at paths no step has; a journey made only from policy links has the page for a
/// link that cannot be used.
fn lint_journey_extras(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) {
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

/// Brands: each code once, in the file named after it (journeys/brands/<id>.json).
fn lint_brands(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) {
    let mut seen = BTreeSet::new();
    let languages: BTreeMap<&str, &BTreeMap<String, String>> = defs
        .copy
        .iter()
        .map(|c| (c.value.language.as_str(), &c.value.messages))
        .collect();
    for brand in &defs.brands {
        let file = brand.file.as_str();
        let b = &brand.value;
        let mut problem = |path: &str, message: String| {
            errors.push(DefinitionError::new(file, path, message));
        };
        if !seen.insert(b.id.clone()) {
            problem(
                "/id",
                format!(
                    "brand {:?} is defined twice Fix: rename or remove one of the brand files.",
                    b.id
                ),
            );
        }
        let stem = file
            .rsplit('/')
            .next()
            .unwrap_or(file)
            .trim_end_matches(".json");
        if stem != b.id {
            problem(
                "/id",
                format!(
                    "brand {:?} is in {file}. Fix: name the file {}.json.",
                    b.id, b.id
                ),
            );
        }
        if !defs.logos.contains_key(&b.logo) {
            problem(
                "/logo",
                format!(
                    "no logo {:?} in {}/. Fix: add the SVG, or name one that is there.",
                    b.logo,
                    crate::definitions::LOGO_FOLDER
                ),
            );
        }
        // WCAG 2.2 AA: text on the brand colours, and the brand colours as link text on white.
        let t = &b.theme;
        for (path, fg, bg) in [
            ("/theme/on_primary", &t.on_primary, &t.primary),
            ("/theme/on_primary", &t.on_primary, &t.primary_dark),
            ("/theme/primary", &t.primary, &"#ffffff".to_owned()),
            (
                "/theme/primary_dark",
                &t.primary_dark,
                &"#ffffff".to_owned(),
            ),
        ] {
            if let Some(ratio) = contrast(fg, bg)
                && ratio < 4.5
            {
                problem(
                    path,
                    format!(
                        "{fg} on {bg} has contrast {ratio:.2}:1; WCAG 2.2 AA needs 4.5:1 for text Fix: darken or lighten one of the two colours."
                    ),
                );
            }
        }
        for (i, language) in b.languages.iter().enumerate() {
            if !languages.contains_key(language.as_str()) {
                problem(
                    &format!("/languages/{i}"),
                    format!(
                        "no copy catalogue questions/copy/{language}.json for language {language:?} Fix: add the catalogue, or remove the language from the brand."
                    ),
                );
            }
        }
        // The language chooser names each language in itself (journey.md §1).
        if b.languages.len() > 1 {
            for (i, language) in b.languages.iter().enumerate() {
                let key = format!(
                    "language.name.{}",
                    language.to_lowercase().replace('-', "_")
                );
                for (other, catalogue) in &languages {
                    if !catalogue.contains_key(&key) {
                        problem(
                            &format!("/languages/{i}"),
                            format!(
                                "the language chooser's name for {language:?}, {key:?}, is missing from questions/copy/{other}.json. Fix: add the key, the language's name in itself."
                            ),
                        );
                    }
                }
            }
        }
        if b.review_step_number.is_some() {
            for language in &b.languages {
                if languages
                    .get(language.as_str())
                    .is_some_and(|c| !c.contains_key("stepbar.quote_review_pay"))
                {
                    problem(
                        "/review_step_number",
                        format!(
                            "the folded step's label \"stepbar.quote_review_pay\" is missing from questions/copy/{language}.json. Fix: add the key to the catalogue."
                        ),
                    );
                }
            }
        }
        for (language, overrides) in &b.copy {
            if !b.speaks(language) {
                problem(
                    &format!("/copy/{language}"),
                    format!(
                        "copy for {language:?}, which is not one of the brand's languages {:?} Fix: add the language to the brand's languages, or remove its copy.",
                        b.languages
                    ),
                );
                continue;
            }
            let Some(base) = languages.get(language.as_str()) else {
                continue;
            };
            for key in overrides.keys() {
                if !base.contains_key(key) {
                    problem(
                        &format!("/copy/{language}/{key}"),
                        format!(
                            "copy key {key:?} is not in questions/copy/{language}.json: overrides change a key's words, they add no keys. Fix: add the key to the catalogue first, or correct its name."
                        ),
                    );
                }
                // A question asked with the pet's name has a second wording: a brand that changes
                // one changes both, or the question reads one way before the name and another after.
                let named = format!("{key}_named");
                if base.contains_key(&named) && !overrides.contains_key(&named) {
                    problem(
                        &format!("/copy/{language}/{key}"),
                        format!(
                            "overrides {key:?} but not {named:?}, its wording once the pet's name is known. Fix: override {named:?} too."
                        ),
                    );
                }
            }
        }
        for (path, hours) in [
            ("/sales_hours/weekdays", &b.sales_hours.weekdays),
            ("/sales_hours/saturday", &b.sales_hours.saturday),
        ] {
            if hours.open >= hours.close {
                problem(
                    path,
                    format!(
                        "opens at {} but closes at {}: the close must be later Fix: swap or correct the times.",
                        hours.open, hours.close
                    ),
                );
            }
        }
        if let Some(session) = &b.session
            && session.warning_ms >= session.reset_ms
        {
            problem(
                "/session/warning_ms",
                format!(
                    "the warning ({} ms) must come before the reset ({} ms) Fix: make warning_ms smaller than reset_ms.",
                    session.warning_ms, session.reset_ms
                ),
            );
        }
        for (i, prefix) in b.policy_number.prefixes.iter().enumerate() {
            if prefix.len() >= b.policy_number.length {
                problem(
                    &format!("/policy_number/prefixes/{i}"),
                    format!(
                        "prefix {prefix:?} leaves no digits in a {}-character policy number Fix: shorten the prefix or lengthen the policy number.",
                        b.policy_number.length
                    ),
                );
            }
        }
        lint_brand_paths(defs, brand, errors);
    }
    if !defs.brands.is_empty() {
        let mut prefixes: BTreeMap<&str, &str> = BTreeMap::new();
        for brand in &defs.brands {
            for (i, prefix) in brand.value.policy_number.prefixes.iter().enumerate() {
                if let Some(other) = prefixes.insert(prefix, &brand.value.id) {
                    errors.push(DefinitionError::new(
                        &brand.file,
                        format!("/policy_number/prefixes/{i}"),
                        format!("prefix {prefix:?} is brand {other:?}'s too: a policy number must tell its brand. Fix: give each brand prefixes of its own."),
                    ));
                }
            }
        }
    }
}

/// The static pages: one file, each page once, the privacy, terms and support pages there (every
/// brand has them), and every copy key in every language.
fn lint_pages(
    defs: &RawDefinitions,
    errors: &mut Vec<DefinitionError>,
    copy_refs: &mut Vec<CopyRef>,
) {
    use crate::definitions::PageId;
    for extra in defs.pages.iter().skip(1) {
        errors.push(DefinitionError::new(
            &extra.file,
            "",
            format!(
                "a second pages file; {} is the one Fix: merge the two into journeys/pages.json.",
                defs.pages[0].file
            ),
        ));
    }
    let Some(file) = defs.pages.first() else {
        if !defs.brands.is_empty() {
            errors.push(DefinitionError::new(
                "journeys/pages.json",
                "",
                "missing: every brand has a privacy, terms and support page",
            ));
        }
        return;
    };
    let mut seen = BTreeSet::new();
    for (i, page) in file.value.pages.iter().enumerate() {
        if !seen.insert(page.id) {
            errors.push(DefinitionError::new(
                &file.file,
                format!("/pages/{i}/id"),
                format!(
                    "page {:?} is defined twice Fix: remove one of them.",
                    page.id.as_str()
                ),
            ));
        }
        let mut key = |path: String, key: &str| {
            copy_refs.push(CopyRef {
                file: file.file.clone(),
                path,
                key: key.to_owned(),
            });
        };
        key(format!("/pages/{i}/title"), &page.title);
        key(format!("/pages/{i}/description"), &page.description);
        for (j, section) in page.sections.iter().enumerate() {
            key(format!("/pages/{i}/sections/{j}/heading"), &section.heading);
            for (k, p) in section.paragraphs.iter().enumerate() {
                key(format!("/pages/{i}/sections/{j}/paragraphs/{k}"), p);
            }
        }
        for (j, faq) in page.faqs.iter().enumerate() {
            key(format!("/pages/{i}/faqs/{j}/question"), &faq.question);
            key(format!("/pages/{i}/faqs/{j}/answer"), &faq.answer);
        }
    }
    for needed in [PageId::Privacy, PageId::Terms, PageId::Support] {
        if !seen.contains(&needed) {
            errors.push(DefinitionError::new(
                &file.file,
                "/pages",
                format!(
                    "no {:?} page: every brand has one Fix: add the page to journeys/pages.json.",
                    needed.as_str()
                ),
            ));
        }
    }
    for brand in &defs.brands {
        if brand.value.pages.library && !seen.contains(&PageId::Library) {
            errors.push(DefinitionError::new(
                &brand.file,
                "/pages/library",
                format!(
                    "the brand has a library page but {} defines none Fix: add a library page to journeys/pages.json, or set the brand's pages.library to false.",
                    file.file
                ),
            ));
        }
    }
}

/// A brand's own paths (its static pages, its steps at other paths) must name steps that exist
/// and never collide with each other or with another step's path.
fn lint_brand_paths(
    defs: &RawDefinitions,
    brand: &Sourced<crate::definitions::Brand>,
    errors: &mut Vec<DefinitionError>,
) {
    let b = &brand.value;
    for journey in defs
        .journeys
        .iter()
        .map(|j| &j.value)
        .filter(|j| b.sells_through(j.channel))
    {
        let mut taken: BTreeMap<&str, String> = BTreeMap::new();
        for step in &journey.steps {
            let path = b.step_path(step);
            if let Some(other) = taken.insert(path, format!("step {:?}", step.id)) {
                errors.push(DefinitionError::new(
                    &brand.file,
                    format!("/step_paths/{}", step.id),
                    format!(
                        "{path} is already {other}'s path on journey {:?}. Fix: give the step a path of its own.",
                        journey.id
                    ),
                ));
            }
        }
        for (path, page) in [
            ("/pages/privacy", &b.pages.privacy),
            ("/pages/terms", &b.pages.terms),
            ("/pages/support", &b.pages.support),
        ] {
            if let Some(other) = taken.insert(page, path.to_owned()) {
                errors.push(DefinitionError::new(
                    &brand.file,
                    path,
                    format!("{page} is already {other} on journey {:?}. Fix: give the page a path no step uses.", journey.id),
                ));
            }
        }
    }
    for id in b.step_paths.keys() {
        if !defs.journeys.iter().any(|j| j.value.step(id).is_some()) {
            errors.push(DefinitionError::new(
                &brand.file,
                format!("/step_paths/{id}"),
                format!("no journey has a step {id:?} Fix: name a step of one of the journeys."),
            ));
        }
    }
}

/// The WCAG contrast ratio of two #rrggbb colours.
fn contrast(a: &str, b: &str) -> Option<f64> {
    fn luminance(colour: &str) -> Option<f64> {
        let hex = colour.strip_prefix('#')?;
        let channel = |i: usize| -> Option<f64> {
            let v = f64::from(u8::from_str_radix(hex.get(i..i + 2)?, 16).ok()?) / 255.0;
            Some(if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            })
        };
        Some(0.2126 * channel(0)? + 0.7152 * channel(2)? + 0.0722 * channel(4)?)
    }
    let (la, lb) = (luminance(a)?, luminance(b)?);
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    Some((hi + 0.05) / (lo + 0.05))
}

/// Product documents: one file; every species and cover group the rate table offers has exactly
/// one document of each kind; each version name is used once; titles exist in every language.
fn lint_documents(
    defs: &RawDefinitions,
    errors: &mut Vec<DefinitionError>,
    copy_refs: &mut Vec<CopyRef>,
) {
    use crate::definitions::documents::DocumentKind;
    for extra in defs.documents.iter().skip(1) {
        errors.push(DefinitionError::new(
            &extra.file,
            "",
            format!(
                "a second documents file; {} is the one Fix: merge the two into journeys/products/documents.json.",
                defs.documents[0].file
            ),
        ));
    }
    let Some(file) = defs.documents.first() else {
        return;
    };
    let mut names: BTreeMap<&str, String> = BTreeMap::new();
    for (i, d) in file.value.documents.iter().enumerate() {
        let here = format!("/documents/{i}");
        copy_refs.push(CopyRef {
            file: file.file.clone(),
            path: format!("{here}/title"),
            key: d.title.clone(),
        });
        for (field, name) in [
            (
                "on_or_post_date_document_name",
                &d.on_or_post_date_document_name,
            ),
            ("pre_date_document_name", &d.pre_date_document_name),
        ] {
            if let Some(first) = names.insert(name, format!("{here}/{field}")) {
                errors.push(DefinitionError::new(
                    &file.file,
                    format!("{here}/{field}"),
                    format!("document name {name:?} is already used at {first}. Fix: give each document version a name of its own."),
                ));
            }
        }
        if d.terms.pre.effective_from >= d.file_change_date {
            errors.push(DefinitionError::new(
                &file.file,
                format!("{here}/terms/pre/effective_from"),
                "the earlier version must take effect before file_change_date".to_owned(),
            ));
        }
    }
    for rates in &defs.rates {
        for (species, groups) in &rates.value.products {
            for group in groups.keys() {
                for kind in [DocumentKind::PolicyWording, DocumentKind::Ipid] {
                    let count = file
                        .value
                        .documents
                        .iter()
                        .filter(|d| {
                            d.kind == kind
                                && d.species.contains(species)
                                && d.groups.contains(group)
                        })
                        .count();
                    if count != 1 {
                        errors.push(DefinitionError::new(
                            &file.file,
                            "/documents",
                            format!(
                                "{} {} has {count} {} documents; it needs exactly one. Fix: give each species and cover type exactly one document of each kind.",
                                species.as_str(),
                                group.as_str(),
                                kind.as_str()
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// Promo codes: each once (matched without regard to case), dates the right way round, and their
/// description and summary in every language.
/// The extra flows (journey.md §1): a brand offering one has a journey for it, and for the
/// rehoming flow the free cover and at least one centre; centres name only known brands, with ids
/// used once; at most one rehoming file.
fn lint_rehoming(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) {
    lint_journey_extras(defs, errors);
    for (i, file) in defs.rehoming.iter().enumerate().skip(1) {
        errors.push(DefinitionError::new(
            &file.file,
            "",
            format!(
                "a second rehoming file (the first is {}); the cover and centres live in one Fix: merge the two.",
                defs.rehoming[i - 1].file
            ),
        ));
    }
    let rehoming = defs.rehoming.first();
    for brand in &defs.brands {
        for (i, flow) in brand.value.flows.iter().enumerate() {
            let here = format!("/flows/{i}");
            if !defs
                .journeys
                .iter()
                .any(|j| j.value.flow.as_deref() == Some(flow.as_str()))
            {
                errors.push(DefinitionError::new(
                    &brand.file,
                    &here,
                    format!("no journey has the flow {flow:?} Fix: add a journey with that `flow`, or remove it from the brand's flows."),
                ));
            }
            if flow == "rehoming"
                && !rehoming.is_some_and(|r| r.value.centres.contains_key(&brand.value.id))
            {
                errors.push(DefinitionError::new(
                    &brand.file,
                    &here,
                    format!(
                        "brand {:?} offers the rehoming flow but journeys/rehoming-centres.json lists no centres for it. Fix: add the brand's centres, or remove the flow from the brand.",
                        brand.value.id
                    ),
                ));
            }
        }
    }
    if let Some(file) = rehoming {
        let mut seen = BTreeMap::new();
        for (brand, centres) in &file.value.centres {
            if !defs.brands.iter().any(|b| &b.value.id == brand) {
                errors.push(DefinitionError::new(
                    &file.file,
                    format!("/centres/{brand}"),
                    format!("unknown brand {brand:?} Fix: name a brand under journeys/brands/."),
                ));
            }
            for (i, centre) in centres.iter().enumerate() {
                let here = format!("/centres/{brand}/{i}/id");
                if let Some(first) = seen.insert(centre.id.clone(), here.clone()) {
                    errors.push(DefinitionError::new(
                        &file.file,
                        here,
                        format!("centre id {:?} is already used at {first}. Fix: give the centre an id of its own.", centre.id),
                    ));
                }
            }
        }
    }
}

fn lint_promotions(
    defs: &RawDefinitions,
    errors: &mut Vec<DefinitionError>,
    copy_refs: &mut Vec<CopyRef>,
) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for file in &defs.promotions {
        for (i, promo) in file.value.codes.iter().enumerate() {
            let here = format!("/codes/{i}");
            if let Some(first) = seen.insert(
                promo.code.to_uppercase(),
                format!("{} at {here}", file.file),
            ) {
                errors.push(DefinitionError::new(
                    &file.file,
                    format!("{here}/code"),
                    format!("code {:?} is already used by {first}. Fix: give the code a name of its own.", promo.code),
                ));
            }
            if promo.valid_from > promo.valid_to {
                errors.push(DefinitionError::new(
                    &file.file,
                    format!("{here}/valid_to"),
                    format!(
                        "the code ends ({}) before it starts ({}) Fix: correct the dates.",
                        promo.valid_to, promo.valid_from
                    ),
                ));
            }
            for (field, key) in [
                ("description", &promo.description),
                ("summary", &promo.summary),
            ] {
                copy_refs.push(CopyRef {
                    file: file.file.clone(),
                    path: format!("{here}/{field}"),
                    key: key.clone(),
                });
            }
        }
    }
}

struct CopyRef {
    file: String,
    path: String,
    key: String,
}

fn guard_names(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) -> BTreeSet<String> {
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

fn question_ids(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for qs in &defs.question_sets {
        if !ids.insert(qs.value.id.clone()) {
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

fn lint_journey(
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
    let guard_problem = |name: &str| {
        format!(
            "unknown guard {name:?} (guards are defined in journeys/guards.json) Fix: name a guard from journeys/guards.json, or add it there."
        )
    };

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
    for (i, step) in j.steps.iter().enumerate() {
        copy_refs.push(CopyRef {
            file: file.clone(),
            path: format!("/steps/{i}/title"),
            key: step.title.clone(),
        });
        if let Some(q) = &step.questions {
            if !questions.contains(q) {
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
            if !crate::definitions::vocabulary::DOMAIN_RULES.contains(&rule.as_str()) {
                err(
                    format!("/steps/{i}/rules/{k}"),
                    format!(
                        "unknown rule {rule:?} (known rules: {}) Fix: name one of the known rules.",
                        crate::definitions::vocabulary::DOMAIN_RULES.join(", ")
                    ),
                );
            }
        }
        for (k, edit) in step.edits.iter().enumerate() {
            if !questions.contains(&edit.questions) {
                err(
                    format!("/steps/{i}/edits/{k}/questions"),
                    format!(
                        "unknown question set {:?} Fix: name a question set from questions/, or add it there.",
                        edit.questions
                    ),
                );
            }
            for (r, rule) in edit.rules.iter().enumerate() {
                if !crate::definitions::vocabulary::DOMAIN_RULES.contains(&rule.as_str()) {
                    err(
                        format!("/steps/{i}/edits/{k}/rules/{r}"),
                        format!(
                            "unknown rule {rule:?} (known rules: {}) Fix: name one of the known rules.",
                            crate::definitions::vocabulary::DOMAIN_RULES.join(", ")
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
                    file: file.clone(),
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
            if !step_index.contains_key(exit.to.as_str()) {
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
        if !in_bar.contains_key(step.id.as_str()) {
            err(
                format!("/steps/{i}"),
                format!(
                    "step {:?} is in no step bar item Fix: add the step to an item of the journey's step_bar.",
                    step.id
                ),
            );
        }
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

fn lint_question_set(
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

fn walk(value: &Value, path: &str, f: &mut dyn FnMut(&str, &Value)) {
    f(path, value);
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                walk(
                    v,
                    &format!("{path}/{}", k.replace('~', "~0").replace('/', "~1")),
                    f,
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(v, &format!("{path}/{i}"), f);
            }
        }
        _ => {}
    }
}

fn is_breed_id(s: &str) -> bool {
    s.len() == 4 && s.starts_with(['D', 'C', 'R']) && s[1..].bytes().all(|b| b.is_ascii_digit())
}

/// One list per species; each breed of its file's species, with that species' id letter; ids
/// unique. Returns every id.
fn lint_breeds(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) -> BTreeSet<String> {
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
                // Issue 24: customers read and type breeds as owners say them ("Cocker Spaniel"),
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

fn lint_copy(defs: &RawDefinitions, refs: &[CopyRef], errors: &mut Vec<DefinitionError>) {
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
