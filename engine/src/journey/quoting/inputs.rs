//! What a quote is priced from: each pet's facts and the quote's, digested so a price is made
//! again only when they change.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::Species;
use crate::definitions::money::decimal_of;
use crate::definitions::postcode::Postcode;
use crate::definitions::rates::{ProductKey, RateFile};
use crate::rules::context::RuleContext;
use crate::rules::domain::{breed_of, cover_start, promo_offer};
use crate::rules::rating::{ExcessChoice, Liability, PetFacts, Price, QuoteFacts};

/// What rating needs from one pet of the document, if the pet is complete enough to price.
pub(super) struct PetInput<'d> {
    pub(super) facts: PetFacts<'d>,
    pub(super) choice: ExcessChoice,
}

pub(super) fn str_of<'a>(v: &'a Value, field: &str) -> Option<&'a str> {
    v.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

pub(super) fn pet_input<'d>(
    defs: &'d Definitions,
    rates: &RateFile,
    pet: &Value,
) -> Option<PetInput<'d>> {
    let species = str_of(pet, "pet_type").and_then(Species::parse)?;
    let breed = breed_of(defs, pet)?;
    let date_of_birth =
        NaiveDate::parse_from_str(str_of(pet, "pet_date_of_birth")?, "%Y-%m-%d").ok()?;
    let neutered = match str_of(pet, "pet_neutered")? {
        "yes" => true,
        "no" => false,
        _ => return None,
    };
    let cost = pet.get("pet_cost").and_then(decimal_of)?;
    let excess = rates.excess.get(&species)?;
    // A choice the rate table does not offer (the species changed since) falls back to the
    // default; the cover rule refuses such a choice when it is made.
    let set_excess = pet
        .get("set_excess")
        .and_then(decimal_of)
        .filter(|e| excess.options.contains_key(&e.normalize().to_string()));
    let coinsurance_percent = pet
        .get("set_coins")
        .and_then(decimal_of)
        .map(|f| (f * Decimal::from(100)).normalize())
        .filter(|p| rates.coinsurance.options.contains_key(&p.to_string()));
    let liability = liability_of(species, breed, pet);
    Some(PetInput {
        facts: PetFacts {
            species,
            breed,
            date_of_birth,
            neutered,
            cost,
            liability,
        },
        choice: ExcessChoice {
            set_excess,
            coinsurance_percent,
        },
    })
}

/// What a pet's breed and answers leave of third party liability (journey.md §4).
pub(super) fn liability_of(
    species: Species,
    breed: &crate::definitions::Breed,
    pet: &Value,
) -> Liability {
    let yes = |field: &str| str_of(pet, field) == Some("yes");
    Liability::of(
        species,
        breed,
        yes("dog_behaviour"),
        yes("licensed_premises"),
    )
}

/// The quote-wide facts: cover start, postcode area, number of pets, loyalty. `None` while the
/// owner's postcode is not given.
pub(super) fn quote_facts(document: &Value, ctx: &RuleContext) -> Option<QuoteFacts> {
    let postcode = document
        .pointer("/owner/customer_postcode")
        .and_then(Value::as_str)
        .and_then(Postcode::parse)?;
    let pets = document
        .get("pets")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let loyal = document
        .pointer("/owner/existing_policy_number")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty());
    Some(QuoteFacts {
        cover_start: cover_start(document, ctx),
        postcode_area: Some(postcode.area().to_owned()),
        pets,
        promo_percent: None,
        loyal,
    })
}

/// The percentage off a valid promo code gives a pet of this species.
pub(super) fn promo_percent(
    defs: &Definitions,
    document: &Value,
    species: Species,
    ctx: &RuleContext,
) -> Option<Decimal> {
    let typed = document
        .pointer("/owner/promotional_code")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())?;
    let offer = promo_offer(
        defs,
        typed,
        &ctx.brand,
        &crate::rules::domain::species_on_quote(document),
        ctx.today,
    )?;
    if !offer.species.contains(&species) {
        return None;
    }
    offer
        .discount_percent
        .parse::<Decimal>()
        .ok()
        .filter(|p| !p.is_zero())
}

/// The rating inputs of one pet, as the digest reads them.
#[derive(Serialize)]
pub(super) struct PetDigest<'a> {
    species: &'a str,
    breed: &'a str,
    dob: NaiveDate,
    neutered: bool,
    cost: Decimal,
    liability: Liability,
    excess: Option<Decimal>,
    coins: Option<Decimal>,
    promo: Option<Decimal>,
}

#[derive(Serialize)]
pub(super) struct InputsDigest<'a> {
    version: &'a str,
    scheme: Option<&'a str>,
    brand: &'a str,
    cover_start: Option<NaiveDate>,
    area: Option<&'a str>,
    pets: usize,
    loyal: bool,
    each: Vec<Option<PetDigest<'a>>>,
}

/// Every pet's rating input (none for a pet not complete enough to price), the quote's, and their
/// digest.
pub(super) struct Inputs<'d> {
    pub(super) facts: Option<QuoteFacts>,
    pub(super) pets: Vec<Option<(PetInput<'d>, Option<Decimal>)>>,
    pub(super) digest: String,
}

pub(super) fn inputs<'d>(
    defs: &'d Definitions,
    rates: &RateFile,
    document: &Value,
    ctx: &RuleContext,
) -> Inputs<'d> {
    let facts = quote_facts(document, ctx);
    let pets: Vec<Option<(PetInput<'d>, Option<Decimal>)>> = document
        .get("pets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|pet| {
            let input = pet_input(defs, rates, pet)?;
            let promo = promo_percent(defs, document, input.facts.species, ctx);
            Some((input, promo))
        })
        .collect();
    let digest = InputsDigest {
        version: defs.version(),
        scheme: ctx.rate_scheme.as_deref(),
        brand: &ctx.brand,
        cover_start: facts.as_ref().map(|f| f.cover_start),
        area: facts.as_ref().and_then(|f| f.postcode_area.as_deref()),
        pets: pets.len(),
        loyal: facts.as_ref().is_some_and(|f| f.loyal),
        each: pets
            .iter()
            .map(|p| {
                p.as_ref().map(|(input, promo)| PetDigest {
                    species: input.facts.species.as_str(),
                    breed: &input.facts.breed.id,
                    dob: input.facts.date_of_birth,
                    neutered: input.facts.neutered,
                    cost: input.facts.cost.normalize(),
                    liability: input.facts.liability,
                    excess: input.choice.set_excess.map(|e| e.normalize()),
                    coins: input.choice.coinsurance_percent.map(|c| c.normalize()),
                    promo: promo.map(|p| p.normalize()),
                })
            })
            .collect(),
    };
    let digest = {
        use sha2::{Digest, Sha256};
        let bytes = Sha256::digest(serde_json::to_vec(&digest).unwrap_or_default());
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    Inputs {
        facts,
        pets,
        digest,
    }
}

impl Inputs<'_> {
    /// Every product's price for every pet that can be priced, with the pet's 0-based index
    /// (none until the owner's postcode is known). The prices `working` picks (by pet index and
    /// product code) carry their factors; the rest only the amounts.
    pub(super) fn prices(
        &self,
        rates: &RateFile,
        working: impl Fn(usize, ProductKey) -> bool,
    ) -> Vec<(usize, Price)> {
        let mut all = Vec::new();
        let Some(facts) = &self.facts else {
            return all;
        };
        for (i, pet) in self.pets.iter().enumerate() {
            let Some((input, promo)) = pet else {
                continue;
            };
            let mut quote = facts.clone();
            quote.promo_percent = *promo;
            // What every product of the pet shares, worked out once.
            let Ok(rated) = rates.rate_pet(&input.facts, &quote, input.choice.set_excess) else {
                continue;
            };
            for key in rates.products_for(input.facts.species) {
                let coins = if rates.coinsurance_offered(key) {
                    input.choice.coinsurance_percent
                } else {
                    None
                };
                if let Ok(price) = rates.price_rated(&rated, &quote, key, coins, working(i, key)) {
                    all.push((i, price));
                }
            }
        }
        all
    }
}
