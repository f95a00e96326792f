//! What is sold: the rate table, the documents each product gets, promotions, rehoming cover.

use std::collections::BTreeMap;

use crate::checks::lint::common::CopyRef;
use crate::checks::lint::journeys::lint_journey_extras;
use crate::definitions::RawDefinitions;
use crate::definitions::error::DefinitionError;

/// The rate table: one of it; a base premium for every product offered; every UK postcode area
/// in a band that has a factor; age bands in order; each default excess and co-insurance among
/// the options.
pub(super) fn lint_rates(
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
            if let Some(key) = &benefit.tooltip_not_at_work {
                keys.push(("tooltip_not_at_work", key));
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

/// Product documents: one file; every species and cover group the rate table offers has exactly
/// one document of each kind; each version name is used once; titles exist in every language.
pub(super) fn lint_documents(
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

pub(super) fn lint_promotions(
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

/// Promo codes: each once (matched without regard to case), dates the right way round, and their
/// description and summary in every language.
/// The extra flows (journey.md §1): a brand offering one has a journey for it, and for the
/// rehoming flow the free cover and at least one centre; centres name only known brands, with ids
/// used once; at most one rehoming file.
pub(super) fn lint_rehoming(defs: &RawDefinitions, errors: &mut Vec<DefinitionError>) {
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
