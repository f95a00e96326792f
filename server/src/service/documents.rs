//! The product documents (owner-payment.md §3 Documents and the Documents section): each version
//! of a policy wording or IPID named in journeys/products/documents.json, rendered as a page from
//! the rate table's benefits and the version's terms, so a document always says what the prices
//! were worked out from.

use std::collections::BTreeSet;
use std::sync::Arc;

use minijinja::context;
use rust_decimal::Decimal;

use engine::definitions::Species;
use engine::definitions::documents::DocumentKind;
use engine::definitions::rates::{BenefitValue, CoverGroup};

const TEMPLATE: &str = include_str!("../../templates/document.html");

fn uk(date: chrono::NaiveDate) -> String {
    date.format("%d/%m/%Y").to_string()
}

/// One version of a document in `brand`'s voice in `language`; `None` for a name no document
/// has. Every sentence is a copy key: a key missing from the language is an error naming it.
pub fn render(
    defs: &Arc<engine::Definitions>,
    name: &str,
    brand: &str,
    language: &str,
) -> Result<Option<String>, String> {
    let (Some(docs), Some(rates)) = (defs.documents(), defs.rates()) else {
        return Ok(None);
    };
    let Some(version) = docs.version(name) else {
        return Ok(None);
    };
    let d = version.document;
    let voice = defs.voice(brand, language);
    let text = |key: &str| voice.t(key);
    let species_name = |s: Species| text(&format!("document.species.{}", s.as_str()));
    let species_names: Vec<String> = d.species.iter().map(|s| species_name(*s)).collect();
    let species_text = species_names.join(&text("document.species.join"));
    let group_names: Vec<String> = d
        .groups
        .iter()
        .map(|g| text(&format!("cover.type.{}", g.as_str().to_lowercase())))
        .collect();
    let with = |key: &str, params: &[(&str, &str)]| {
        voice.text(
            key,
            &params
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        )
    };
    let subject = match d.kind {
        DocumentKind::Ipid => with(
            "document.subject.ipid",
            &[
                ("groups", &group_names.join(", ")),
                ("species", &species_text.to_lowercase()),
            ],
        ),
        DocumentKind::PolicyWording => with(
            "document.subject.wording",
            &[("species", &species_text.to_lowercase())],
        ),
    };
    let groups: Vec<minijinja::Value> = d
        .groups
        .iter()
        .zip(&group_names)
        .map(|(g, name)| {
            let key = g.as_str().to_lowercase();
            context! { code => g.as_str(), name => name, blurb => text(&format!("cover.type.{key}.blurb")) }
        })
        .collect();
    let tables = benefit_tables(d, rates, &voice);
    let older = older_pets(defs, d, &voice);
    let until = (version.name == d.pre_date_document_name).then(|| uk(d.file_change_date));
    let cover_blurb = d
        .groups
        .first()
        .map(|g: &CoverGroup| text(&format!("cover.type.{}.blurb", g.as_str().to_lowercase())))
        .unwrap_or_default();
    let env = environment(defs, brand, &voice);
    env.render_str(
        TEMPLATE,
        context! {
            language => voice.language(),
            brand => text("app.brand"),
            kind => d.kind.as_str(),
            title => text(&d.title),
            subject => &subject,
            species => species_text.to_lowercase(),
            effective_from => uk(version.terms.effective_from),
            until => until,
            cover_blurb => cover_blurb,
            groups => groups,
            tables => tables,
            has_tpl => d.species.contains(&Species::Dog),
            older => older,
            share => &version.terms.older_pet_share_percent,
            overseas => d.species.iter().any(|s| *s != Species::Rabbit),
        },
    )
    .map(Some)
    .map_err(|e| {
        format!(
            "server/templates/document.html, document {name} in {spoken_language}: {e}",
            spoken_language = voice.language()
        )
    })
}

/// Renders every version of every document in every language a brand speaks, so a template
/// error or a missing copy key stops start-up rather than a customer's page.
pub fn check_all(defs: &Arc<engine::Definitions>) -> Result<(), String> {
    let Some(docs) = defs.documents() else {
        return Ok(());
    };
    let mut voices: Vec<(String, String)> = Vec::new();
    for b in &defs.raw.brands {
        for l in &b.value.languages {
            if !voices.iter().any(|(_, spoken)| spoken == l) {
                voices.push((b.value.id.clone(), l.clone()));
            }
        }
    }
    for name in docs.names() {
        for (brand, language) in &voices {
            render(defs, name, brand, language)?;
        }
    }
    Ok(())
}

/// Each species' table of benefits: a column per vet fee limit its products offer.
fn benefit_tables(
    d: &engine::definitions::documents::Document,
    rates: &engine::definitions::rates::RateFile,
    voice: &engine::Voice<'_>,
) -> Vec<minijinja::Value> {
    let text = |key: &str| voice.t(key);
    let species_name = |s: Species| text(&format!("document.species.{}", s.as_str()));
    let money = voice.money();
    d.species
        .iter()
        .map(|species| {
            let limits: BTreeSet<u32> = rates
                .products_for(*species)
                .into_iter()
                .filter(|p| d.groups.contains(&p.group))
                .map(|p| p.limit)
                .collect();
            let rows: Vec<minijinja::Value> = rates
                .benefits
                .iter()
                .filter(|b| b.species.contains(species))
                .map(|b| {
                    let values: Vec<String> = limits
                        .iter()
                        .map(|limit| match &b.value {
                            BenefitValue::VetFeeLimit(_) => money.amount(Decimal::from(*limit)),
                            BenefitValue::Amount(a) => money.amount(*a),
                            BenefitValue::ByLimit(by) => by
                                .get(&limit.to_string())
                                .map_or_else(|| text("benefit.not_included"), |a| money.amount(*a)),
                            BenefitValue::Text(key) => text(key),
                        })
                        .collect();
                    context! { name => text(&b.desc), tip => text(&b.tooltip), values => values }
                })
                .collect();
            let limits: Vec<String> = limits
                .iter()
                .map(|l| money.amount(Decimal::from(*l)))
                .collect();
            context! { species => species_name(*species), limits => limits, rows => rows }
        })
        .collect()
}

/// journey.md §9 Excess at renewal: each species from its usual birthday, and the breeds
/// accepted only to an earlier one (dogs: "some breeds 5") from theirs, with examples.
fn older_pets(
    defs: &engine::Definitions,
    d: &engine::definitions::documents::Document,
    voice: &engine::Voice<'_>,
) -> Vec<minijinja::Value> {
    let text = |key: &str| voice.t(key);
    let species_name = |s: Species| text(&format!("document.species.{}", s.as_str()));
    d.species
        .iter()
        .flat_map(|s| {
            let usual = engine::journey::quoting::older_pet_age(*s, None);
            let mut earlier: std::collections::BTreeMap<u32, Vec<&str>> = Default::default();
            if let Some(file) = defs.breed_file(*s) {
                for b in [
                    &file.breeds,
                    &file.breed_data,
                    &file.crossbreed_data,
                    &file.mongrel_data,
                ]
                .into_iter()
                .flatten()
                .flatten()
                .filter(|b| b.active && !b.exclude)
                {
                    let age = engine::journey::quoting::older_pet_age(*s, Some(b));
                    if age != usual {
                        earlier.entry(age).or_default().push(&b.desc);
                    }
                }
            }
            let species = species_name(*s);
            std::iter::once(
                context! { species => species.clone(), age => usual, examples => None::<String> },
            )
            .chain(earlier.into_iter().map(move |(age, mut names)| {
                names.sort_unstable();
                let examples = names.iter().take(3).copied().collect::<Vec<_>>().join(", ");
                context! { species => species.clone(), age => age, examples => Some(examples) }
            }))
            .collect::<Vec<_>>()
        })
        .collect()
}

/// The template's environment: HTML escaped, nothing undefined, and `t` for a copy key in the
/// brand's voice (a key missing from the language is an error naming it).
fn environment(
    defs: &Arc<engine::Definitions>,
    brand: &str,
    voice: &engine::Voice<'_>,
) -> minijinja::Environment<'static> {
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    let copy = Arc::clone(defs);
    let (brand_id, spoken) = (brand.to_owned(), voice.language().to_owned());
    env.add_function(
        "t",
        move |key: &str, kwargs: minijinja::value::Kwargs| -> Result<String, minijinja::Error> {
            if copy.catalogue(&spoken).is_none_or(|c| !c.contains_key(key)) {
                return Err(minijinja::Error::new(
                    minijinja::ErrorKind::UndefinedError,
                    format!("copy key {key:?} is missing in {spoken}"),
                ));
            }
            let mut params = std::collections::BTreeMap::new();
            for name in kwargs.args() {
                let value: minijinja::Value = kwargs.get(name)?;
                params.insert(name.to_owned(), value.to_string());
            }
            Ok(copy.voice(&brand_id, &spoken).text(key, &params))
        },
    );
    env
}
