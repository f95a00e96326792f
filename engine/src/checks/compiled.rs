//! A definition set that has been loaded, linted and compiled: what the runtime runs on.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::checks::lint;
use crate::definitions::error::{DefinitionError, DefinitionErrors};
use crate::definitions::schema;
use crate::definitions::schema::{CompiledSchema, FieldError};
use crate::definitions::{
    self, Breed, BreedFile, Journey, Loader, QuestionSet, RawDefinitions, Species,
};

/// Loaded, linted and compiled definitions. Cheap to share behind an `Arc`.
pub struct Definitions {
    pub raw: RawDefinitions,
    guards: BTreeMap<String, jsonschema::Validator>,
    questions: BTreeMap<String, CompiledSchema>,
    /// Each question set as its answers are stored: `writeOnly` answers left out.
    stored_questions: BTreeMap<String, CompiledSchema>,
    copy: BTreeMap<String, BTreeMap<String, String>>,
    /// Each brand's catalogue in each of its languages: the language's, with the brand's
    /// overrides and its name and policy prefixes filled in.
    brand_copy: BTreeMap<(String, String), BTreeMap<String, String>>,
    breeds: BTreeMap<String, Breed>,
    /// The rate table as each of its schemes prices, made once at load.
    scheme_rates: BTreeMap<String, crate::definitions::rates::RateFile>,
}

impl std::fmt::Debug for Definitions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Definitions")
            .field("version", &self.raw.version)
            .finish_non_exhaustive()
    }
}

/// A guard could not be evaluated: a defect, reported loudly rather than read as "false".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("guard {0:?} is not defined")]
pub struct UnknownGuard(pub String);

impl Definitions {
    /// Loads, lints and compiles. Any problem stops here with every error listed.
    pub fn load(loader: &dyn Loader) -> Result<Self, DefinitionErrors> {
        let raw = definitions::load(loader)?;
        let problems = lint::lint(&raw);
        if !problems.is_empty() {
            return Err(DefinitionErrors(problems));
        }
        Self::compile(raw)
    }

    fn compile(raw: RawDefinitions) -> Result<Self, DefinitionErrors> {
        let mut errors = Vec::new();
        let mut guards = BTreeMap::new();
        for file in &raw.guards {
            for (name, def) in &file.value.guards {
                match schema::compile_draft7(&def.schema) {
                    Ok(v) => {
                        guards.insert(name.clone(), v);
                    }
                    Err(e) => errors.push(DefinitionError::new(
                        &file.file,
                        format!("/guards/{name}/schema"),
                        e,
                    )),
                }
            }
        }
        let mut questions = BTreeMap::new();
        let mut stored_questions = BTreeMap::new();
        for qs in &raw.question_sets {
            match CompiledSchema::new(qs.value.schema.clone()) {
                Ok(c) => {
                    questions.insert(qs.value.id.to_string(), c);
                }
                Err(e) => errors.push(DefinitionError::new(&qs.file, "/schema", e)),
            }
            if let Ok(c) = CompiledSchema::new(crate::definitions::schema::without_write_only(
                &qs.value.schema,
            )) {
                stored_questions.insert(qs.value.id.to_string(), c);
            }
        }
        let copy: BTreeMap<String, BTreeMap<String, String>> = raw
            .copy
            .iter()
            .map(|c| (c.value.language.clone(), c.value.messages.clone()))
            .collect();
        let brand_copy = raw
            .brands
            .iter()
            .flat_map(|b| {
                let b = &b.value;
                b.languages.iter().filter_map(|language| {
                    let mut catalogue = copy.get(language)?.clone();
                    if let Some(overrides) = b.copy.get(language) {
                        catalogue.extend(overrides.iter().map(|(k, v)| (k.clone(), v.clone())));
                    }
                    let prefixes = join_or(&b.policy_number.prefixes);
                    // Where the firm is registered, in the catalogue's words.
                    let registered_in = catalogue
                        .get(&format!("firm.registered_in.{}", b.firm.registered_in))
                        .cloned()
                        .unwrap_or_else(|| b.firm.registered_in.clone());
                    for text in catalogue.values_mut() {
                        if text.contains('{') {
                            *text = text
                                .replace("{brand_name}", &b.display_name)
                                .replace("{policy_prefixes}", &prefixes)
                                .replace("{firm_name}", &b.firm.name)
                                .replace("{firm_number}", &b.firm.company_number)
                                .replace("{firm_registered_in}", &registered_in)
                                .replace("{firm_office}", &b.firm.registered_office)
                                .replace("{firm_fca_reference}", &b.firm.fca_reference)
                                .replace("{underwriter}", &b.firm.underwriter);
                            if let Some(tm) = &b.tracking.tag_manager {
                                *text = text.replace("{tag_manager_name}", &tm.name).replace(
                                    "{consent_days}",
                                    &tm.ask_again_after_days.to_string(),
                                );
                            }
                        }
                    }
                    Some(((b.id.clone(), language.clone()), catalogue))
                })
            })
            .collect();
        let breeds = raw
            .breeds
            .iter()
            .flat_map(|f| {
                f.value
                    .lists()
                    .into_iter()
                    .flat_map(|(_, list)| list.iter().cloned())
            })
            .map(|b| (b.id.clone(), b))
            .collect();
        let scheme_rates = raw
            .rates
            .first()
            .map(|r| {
                r.value
                    .schemes
                    .keys()
                    .filter_map(|name| Some((name.clone(), r.value.with_scheme(name)?)))
                    .collect()
            })
            .unwrap_or_default();
        if errors.is_empty() {
            Ok(Self {
                raw,
                scheme_rates,
                guards,
                questions,
                stored_questions,
                copy,
                brand_copy,
                breeds,
            })
        } else {
            Err(DefinitionErrors(errors))
        }
    }

    pub fn version(&self) -> &str {
        &self.raw.version
    }

    pub fn journey(&self, id: &str) -> Option<&Journey> {
        self.raw
            .journeys
            .iter()
            .map(|j| &j.value)
            .find(|j| j.id == id)
    }

    /// A static page (journeys/pages.json).
    pub fn page(&self, id: definitions::PageId) -> Option<&definitions::StaticPage> {
        self.raw
            .pages
            .first()
            .and_then(|f| f.value.pages.iter().find(|p| p.id == id))
    }

    /// A brand's logo (journeys/brands/logos/), checked when loaded.
    pub fn logo(&self, file: &str) -> Option<&str> {
        self.raw.logos.get(file).map(String::as_str)
    }

    /// A brand by its code (journeys/brands/<id>.json).
    pub fn brand(&self, id: &str) -> Option<&definitions::Brand> {
        self.raw
            .brands
            .iter()
            .map(|b| &b.value)
            .find(|b| b.id == id)
    }

    /// The experiments (journeys/experiments.json).
    pub fn experiments(&self) -> Option<&crate::definitions::experiments::ExperimentFile> {
        self.raw.experiments.first().map(|e| &e.value)
    }

    /// The product documents (journeys/products/documents.json).
    pub fn documents(&self) -> Option<&crate::definitions::documents::DocumentFile> {
        self.raw.documents.first().map(|d| &d.value)
    }

    /// The rate table (the lint makes sure there is exactly one).
    pub fn rates(&self) -> Option<&crate::definitions::rates::RateFile> {
        self.raw.rates.first().map(|r| &r.value)
    }

    /// The rate table a quote is priced from: scheme `scheme`'s where its journey names one
    /// (the lint makes sure it exists), else the table's own.
    pub fn rates_for(&self, scheme: Option<&str>) -> Option<&crate::definitions::rates::RateFile> {
        match scheme {
            Some(name) => self.scheme_rates.get(name),
            None => self.rates(),
        }
    }

    /// The free rehoming cover and centres (journeys/rehoming-centres.json), where defined.
    pub fn rehoming(&self) -> Option<&definitions::RehomingFile> {
        self.raw.rehoming.first().map(|r| &r.value)
    }

    /// The rehoming centres a brand works with, in the chooser's order.
    pub fn rehoming_centres(&self, brand: &str) -> &[definitions::RehomingCentre] {
        self.rehoming()
            .and_then(|r| r.centres.get(brand))
            .map_or(&[], Vec::as_slice)
    }

    /// The promo code a customer typed, matched without regard to case or surrounding spaces.
    pub fn promo_code(&self, typed: &str) -> Option<&definitions::PromoCode> {
        let wanted = typed.trim().to_uppercase();
        self.raw
            .promotions
            .iter()
            .flat_map(|f| f.value.codes.iter())
            .find(|p| p.code == wanted)
    }

    /// The most bonus Nectar points one purchase earns (journeys/promotions.json; owner-payment.md
    /// §9: 20,000); no promotions file, none.
    pub fn nectar_bonus_cap(&self) -> u32 {
        self.raw
            .promotions
            .first()
            .map_or(0, |f| f.value.nectar_bonus_cap)
    }

    pub fn journeys(&self) -> impl Iterator<Item = &Journey> {
        self.raw.journeys.iter().map(|j| &j.value)
    }

    pub fn question_set(&self, id: &str) -> Option<&QuestionSet> {
        self.raw
            .question_sets
            .iter()
            .map(|q| &q.value)
            .find(|q| q.id == id)
    }

    pub fn question_schema(&self, id: &str) -> Option<&CompiledSchema> {
        self.questions.get(id)
    }

    /// The question set as its answers are stored (its `writeOnly` answers are never stored):
    /// what a stored document is checked against to tell whether a step is complete.
    pub fn stored_question_schema(&self, id: &str) -> Option<&CompiledSchema> {
        self.stored_questions.get(id)
    }

    /// Whether the document passes the named guard.
    pub fn guard(&self, name: &str, document: &Value) -> Result<bool, UnknownGuard> {
        self.guards
            .get(name)
            .map(|v| v.is_valid(document))
            .ok_or_else(|| UnknownGuard(name.to_owned()))
    }

    /// A breed by id.
    pub fn breed(&self, id: &str) -> Option<&Breed> {
        self.breeds.get(id)
    }

    /// The breed list file of a species (dogs in three lists, cats and rabbits in one).
    pub fn breed_file(&self, species: Species) -> Option<&BreedFile> {
        self.raw
            .breeds
            .iter()
            .map(|f| &f.value)
            .find(|f| f.species == species)
    }

    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.copy.keys().map(String::as_str)
    }

    /// The whole catalogue of one language, without any brand's words: for checks over the
    /// catalogues. What a customer reads comes from [`Definitions::voice`].
    pub fn catalogue(&self, language: &str) -> Option<&BTreeMap<String, String>> {
        self.copy.get(language)
    }

    /// How a brand speaks in a language: its catalogue (the language's with the brand's
    /// overrides and name). An unknown brand, or a language the brand does not speak, speaks
    /// as the brand's default language, then as the first brand, so a customer never reads a
    /// bare key.
    pub fn voice(&self, brand: &str, language: &str) -> Voice<'_> {
        let brand = self
            .brand(brand)
            .or_else(|| self.raw.brands.first().map(|b| &b.value));
        let found = brand.and_then(|b| {
            let language = if b.speaks(language) {
                language
            } else {
                b.language()
            };
            self.brand_copy
                .get(&(b.id.clone(), language.to_owned()))
                .map(|c| (language, c))
        });
        let currency = brand.map_or(crate::definitions::Currency::Gbp, |b| b.currency);
        match found {
            Some((language, catalogue)) => Voice {
                language: language.to_owned(),
                catalogue: Some(catalogue),
                money: crate::definitions::money::Money::new(currency, language),
            },
            None => Voice {
                language: language.to_owned(),
                catalogue: self.copy.get(language),
                money: crate::definitions::money::Money::new(currency, language),
            },
        }
    }
}

/// "A", "A or B", "A, B or C".
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// One brand's words in one language (see [`Definitions::voice`]).
#[derive(Debug, Clone)]
pub struct Voice<'a> {
    language: String,
    catalogue: Option<&'a BTreeMap<String, String>>,
    money: crate::definitions::money::Money,
}

impl Voice<'_> {
    /// The language spoken.
    pub fn language(&self) -> &str {
        &self.language
    }

    /// How amounts are written: the brand's currency in this language.
    pub fn money(&self) -> crate::definitions::money::Money {
        self.money
    }

    /// The whole catalogue, as the renderer gets it.
    pub fn catalogue(&self) -> BTreeMap<String, String> {
        self.catalogue.cloned().unwrap_or_default()
    }

    /// The catalogue, borrowed (none for a brand without one).
    pub fn catalogue_ref(&self) -> Option<&BTreeMap<String, String>> {
        self.catalogue
    }

    /// The text of a copy key with `{name}` parameters filled in; the key itself if the
    /// catalogue lacks it (the lint makes that impossible for keys the definitions use).
    pub fn text(&self, key: &str, params: &BTreeMap<String, String>) -> String {
        let template = self
            .catalogue
            .and_then(|c| c.get(key))
            .map_or(key, String::as_str);
        let mut out = template.to_owned();
        for (name, value) in params {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }

    /// The text of a copy key that takes no parameters.
    pub fn t(&self, key: &str) -> String {
        self.text(key, &BTreeMap::new())
    }

    /// A field error's message.
    pub fn message(&self, error: &FieldError) -> String {
        self.text(&error.key, &error.params)
    }
}
