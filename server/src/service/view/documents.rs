//! The policy documents each pet's product gets (journey.md §9).

use serde_json::Value;

use engine::Definitions;
use engine::rules::context::RuleContext;

/// Each pet's documents (owner-payment.md §3 Documents): the policy wording by species and the
/// IPID by species and product code, in the version for the cover start date; for the chosen
/// product (`items`) and for each cover type (`by_group`, the benefits table's links); and the
/// older pet's share of each claim that wording sets (journey.md §9 Excess at renewal).
pub(super) fn documents_view<'a>(
    defs: &'a Definitions,
    voice: &engine::Voice<'_>,
    document: &'a Value,
    rules: &RuleContext,
) -> Vec<PetDocuments<'a>> {
    let Some(docs) = defs.documents() else {
        return Vec::new();
    };
    let start = engine::rules::domain::cover_start(document, rules);
    let given = |species, code: &str| -> Vec<GivenDocument<'a>> {
        docs.for_product(species, code, start)
            .into_iter()
            .map(|g| GivenDocument {
                kind: g.kind,
                title: voice.t(g.title),
                name: g.name,
                url: format!("/quote/documents/{}", g.name),
            })
            .collect()
    };
    let pets = document.get("pets").and_then(Value::as_array);
    pets.into_iter()
        .flatten()
        .filter_map(|pet| {
            let species = pet
                .get("pet_type")
                .and_then(Value::as_str)
                .and_then(engine::definitions::Species::parse)?;
            // The chosen product's documents; and each cover type's, for the benefits table.
            let chosen = engine::journey::quoting::priced_choice(pet);
            let items = chosen.map(|code| given(species, code)).unwrap_or_default();
            let by_group: Vec<(&'static str, Vec<GivenDocument<'a>>)> = ["LT", "MB", "TL"]
                .into_iter()
                .map(|g| (g, given(species, g)))
                .filter(|(_, v)| !v.is_empty())
                .collect();
            // The older pet's share of each claim, as the policy wording given says it.
            let share = items
                .iter()
                .chain(
                    by_group
                        .iter()
                        .filter(|(g, _)| *g == "LT")
                        .flat_map(|(_, v)| v.iter()),
                )
                .find_map(|d| docs.version(d.name))
                .map(|v| v.terms.older_pet_share_percent.as_str());
            Some(PetDocuments {
                petid: pet.get("id"),
                items,
                by_group: ByGroup(by_group),
                older_pet_share_percent: share,
                older_pet_age: engine::journey::quoting::pet_older_age(defs, species, pet),
            })
        })
        .collect()
}

/// One pet's documents as the pages show them: the chosen product's, and each cover type's.
#[derive(serde::Serialize)]
pub struct PetDocuments<'a> {
    petid: Option<&'a Value>,
    items: Vec<GivenDocument<'a>>,
    by_group: ByGroup<'a>,
    older_pet_share_percent: Option<&'a str>,
    older_pet_age: u32,
}

/// A document given with a product: its kind, title in the quote's language, name and address.
#[derive(serde::Serialize)]
pub struct GivenDocument<'a> {
    kind: engine::definitions::documents::DocumentKind,
    title: String,
    name: &'a str,
    url: String,
}

/// The documents of each cover type that has some, as an object keyed by cover type.
pub struct ByGroup<'a>(Vec<(&'static str, Vec<GivenDocument<'a>>)>);

impl serde::Serialize for ByGroup<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(g, v)| (g, v)))
    }
}
