//! Brands and the pages around the journey: settings, paths, contrast, copy overrides.

use std::collections::{BTreeMap, BTreeSet};

use crate::checks::lint::common::CopyRef;
use crate::definitions::error::DefinitionError;
use crate::definitions::{RawDefinitions, Sourced};

/// Brands: each code once, in the file named after it (journeys/brands/<id>.json).
pub(super) fn lint_brands(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) {
    let mut seen = BTreeSet::new();
    let languages: Catalogues<'_> = defs
        .copy
        .iter()
        .map(|c| (c.value.language.as_str(), &c.value.messages))
        .collect();
    for brand in &defs.brands {
        if !seen.insert(brand.value.id.clone()) {
            errors.push(DefinitionError::new(
                &brand.file,
                "/id",
                format!(
                    "brand {:?} is defined twice Fix: rename or remove one of the brand files.",
                    brand.value.id
                ),
            ));
        }
        lint_brand_identity(defs, brand, errors);
        lint_brand_colours(brand, errors);
        lint_brand_languages(&languages, brand, errors);
        lint_brand_settings(brand, errors);
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

/// Each language's copy catalogue by its code.
type Catalogues<'a> = BTreeMap<&'a str, &'a BTreeMap<String, String>>;

/// The brand's file, its logo, and the tag manager's script from an origin the policy allows.
fn lint_brand_identity(
    defs: &RawDefinitions,
    brand: &Sourced<crate::definitions::Brand>,
    errors: &mut Vec<DefinitionError>,
) {
    let file = brand.file.as_str();
    let b = &brand.value;
    let mut problem = |path: &str, message: String| {
        errors.push(DefinitionError::new(file, path, message));
    };
    // The tag manager's script comes from one of the origins the policy allows it.
    if let Some(tm) = &b.tracking.tag_manager {
        let origin = tm
            .script
            .splitn(4, '/')
            .take(3)
            .collect::<Vec<_>>()
            .join("/");
        if !tm.origins.contains(&origin) {
            problem(
                "/tracking/tag_manager/script",
                format!(
                    "the script's origin {origin} is not among tracking.tag_manager.origins, so the content security policy would refuse it Fix: add {origin} to origins."
                ),
            );
        }
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
}

/// WCAG 2.2 AA: text on the brand colours, and the brand colours as link text on white.
fn lint_brand_colours(
    brand: &Sourced<crate::definitions::Brand>,
    errors: &mut Vec<DefinitionError>,
) {
    let file = brand.file.as_str();
    let b = &brand.value;
    let mut problem = |path: &str, message: String| {
        errors.push(DefinitionError::new(file, path, message));
    };
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
}

/// The brand's languages: each has a catalogue, the chooser's names and the folded step's label,
/// and copy overrides only change keys the catalogue has.
fn lint_brand_languages(
    languages: &Catalogues<'_>,
    brand: &Sourced<crate::definitions::Brand>,
    errors: &mut Vec<DefinitionError>,
) {
    let file = brand.file.as_str();
    let b = &brand.value;
    let mut problem = |path: &str, message: String| {
        errors.push(DefinitionError::new(file, path, message));
    };
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
            for (other, catalogue) in languages {
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
}

/// Opening hours, the idle session's clocks and the policy number's prefixes.
fn lint_brand_settings(
    brand: &Sourced<crate::definitions::Brand>,
    errors: &mut Vec<DefinitionError>,
) {
    let file = brand.file.as_str();
    let b = &brand.value;
    let mut problem = |path: &str, message: String| {
        errors.push(DefinitionError::new(file, path, message));
    };
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
}

/// The static pages: one file, each page once, the privacy, terms and support pages there (every
/// brand has them), and every copy key in every language.
pub(super) fn lint_pages(
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
    let sold_by_comparison = defs.brands.iter().any(|b| {
        b.value
            .channels
            .contains(&crate::definitions::Channel::Aggregator)
    });
    if sold_by_comparison && !seen.contains(&PageId::PromotionTerms) {
        errors.push(DefinitionError::new(
            &file.file,
            "/pages",
            "no \"promotion_terms\" page: a brand sold through comparison sites links to it Fix: add the page to journeys/pages.json.".to_owned(),
        ));
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
pub(super) fn lint_brand_paths(
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
pub(super) fn contrast(a: &str, b: &str) -> Option<f64> {
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
