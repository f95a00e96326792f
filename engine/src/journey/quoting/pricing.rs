//! Pricing a quote (journey.md §9; owner-payment.md §4 Prices): every product for every pet,
//! made again when what it is priced from changes, and the choices kept where they still stand.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::checks::compiled::Definitions;
use crate::definitions::money::decimal_of;
use crate::definitions::rates::{CoverGroup, ProductKey};
use crate::definitions::{Breed, RatingBadge, Species};
use crate::journey::quoting::inputs::inputs;
use crate::journey::quoting::premiums::{Premiums, PriceNote, Quoted, product_key};
use crate::rules::context::RuleContext;

/// What a transition records of a pricing (what an analyst needs to explain the
/// price): the working of each chosen product, and a reference to the rest (the digest of the
/// rating inputs and the definitions version, from which the internal pricing call works every
/// price again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pricing {
    pub inputs: String,
    pub version: String,
    /// How many products were priced, across the pets.
    pub products: usize,
    pub chosen: Vec<PriceNote>,
}

/// The digest of what `document` is priced from (its pets' facts and choices, the quote's), or
/// `None` where the journey prices nothing: two documents with the same digest have the same
/// prices.
pub fn rating_digest(defs: &Definitions, document: &Value, ctx: &RuleContext) -> Option<String> {
    let rates = defs.rates_for(ctx.rate_scheme.as_deref())?;
    Some(inputs(defs, rates, document, ctx).digest)
}

/// Prices every product for every pet (none until the owner's postcode is known), when the
/// rating inputs changed since the stored prices were worked out, and keeps each pet's chosen
/// `product` as its code and monthly price (or the bare code, unpriced, when the pet is not
/// offered that product). Returns what the transition records of a new pricing.
///
/// When the inputs did not change, the stored prices are left as they are (not read into
/// structs and written back): only the chosen products' monthly prices are looked up.
pub fn requote(defs: &Definitions, document: &mut Value, ctx: &RuleContext) -> Option<Pricing> {
    let rates = defs.rates_for(ctx.rate_scheme.as_deref())?;
    let inputs = inputs(defs, rates, document, ctx);
    let stored = document.get("quoted");
    let unchanged = stored
        .and_then(|q| q.get("inputs"))
        .and_then(Value::as_str)
        .is_some_and(|d| d == inputs.digest);
    let mut pricing = None;
    if !unchanged {
        let had_prices = stored.is_some();
        // The factors only of the products whose working the transition records: those chosen.
        let all = inputs.prices(rates, |i, key| {
            chosen_code(document, i).and_then(product_key) == Some(key)
        });
        let count = document
            .get("pets")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let mut pets: Vec<Vec<Premiums>> = (0..count).map(|_| Vec::new()).collect();
        for (i, price) in &all {
            pets[*i].push(Premiums::of(price));
        }
        let chosen = all
            .iter()
            .filter(|(i, price)| chosen_code(document, *i).is_some_and(|code| code == price.code))
            .map(|(i, price)| PriceNote::of(i + 1, price))
            .collect();
        if !all.is_empty() || had_prices {
            pricing = Some(Pricing {
                inputs: inputs.digest.clone(),
                version: defs.version().to_owned(),
                products: all.len(),
                chosen,
            });
        }
        if let Some(map) = document.as_object_mut() {
            map.remove("products");
            if all.is_empty() {
                map.remove("quoted");
            } else {
                let quoted = Quoted {
                    inputs: inputs.digest,
                    version: defs.version().to_owned(),
                    pets,
                };
                map.insert(
                    "quoted".into(),
                    serde_json::to_value(&quoted).unwrap_or(Value::Null),
                );
            }
        }
    }
    let chosen: Vec<Option<Value>> = document
        .get("pets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, pet)| {
            let code = pet.pointer("/product/Code")?.as_str()?;
            // A code the pet is not offered keeps only the code, unpriced: rule cover_offered
            // names it, and guard product_chosen wants a priced product.
            Some(match stored_monthly(document, i, code) {
                Some(m) => json!({ "Code": code, "RecurringMonthly": m }),
                None => json!({ "Code": code }),
            })
        })
        .collect();
    if let Some(pets) = document.get_mut("pets").and_then(Value::as_array_mut) {
        for (pet, product) in pets.iter_mut().zip(chosen) {
            let Some(map) = pet.as_object_mut() else {
                continue;
            };
            match product {
                Some(p) => map.insert("product".into(), p),
                None => map.remove("product"),
            };
        }
    }
    pricing
}

/// The monthly premium the document's stored prices hold for the pet at 0-based `index` and the
/// product `code`, as written there (see [`Premiums`]).
pub(super) fn stored_monthly(document: &Value, index: usize, code: &str) -> Option<Value> {
    document
        .get("quoted")?
        .get("pets")?
        .get(index)?
        .as_array()?
        .iter()
        .find_map(|p| match p {
            Value::String(words) => {
                let mut parts = words.split(' ');
                (parts.next() == Some(code)).then(|| parts.next().map(Value::from))?
            }
            Value::Array(list) => (list.first().and_then(Value::as_str) == Some(code))
                .then(|| list.get(1).cloned())?,
            _ => None,
        })
}

/// The code of the pet's chosen product when it is priced (stored with its monthly price); a
/// code the pet is not offered, stored bare, is none.
pub fn priced_choice(pet: &Value) -> Option<&str> {
    pet.pointer("/product/RecurringMonthly")?;
    pet.pointer("/product/Code")?.as_str()
}

pub(super) fn chosen_code(document: &Value, index: usize) -> Option<&str> {
    document
        .get("pets")?
        .get(index)?
        .pointer("/product/Code")?
        .as_str()
}

/// Every price's working for the quote's current answers (the internal pricing call): the
/// stored prices' inputs worked through the rate table again.
pub fn working(defs: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<PriceNote> {
    let Some(rates) = defs.rates_for(ctx.rate_scheme.as_deref()) else {
        return Vec::new();
    };
    inputs(defs, rates, document, ctx)
        .prices(rates, |_, _| true)
        .iter()
        .map(|(i, price)| PriceNote::of(i + 1, price))
        .collect()
}

/// A quote stored before prices were kept compact (its document holds the whole `products`
/// table): its prices carried over as they were quoted, so they still hold; the empty digest
/// makes the next change price them again.
pub fn upgrade_stored(document: &mut Value) {
    let Some(Value::Array(products)) = document.as_object_mut().and_then(|m| m.remove("products"))
    else {
        return;
    };
    let count = document
        .get("pets")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut pets: Vec<Vec<Premiums>> = vec![Vec::new(); count];
    let dec =
        |p: &Value, pointer: &str| p.pointer(pointer).and_then(decimal_of).unwrap_or_default();
    for p in &products {
        let Some(index) = p
            .get("petid")
            .and_then(Value::as_u64)
            .and_then(|id| usize::try_from(id).ok())
            .and_then(|id| id.checked_sub(1))
            .filter(|i| *i < count)
        else {
            continue;
        };
        let Some(code) = p.get("Code").and_then(Value::as_str) else {
            continue;
        };
        pets[index].push(Premiums {
            code: code.to_owned(),
            monthly: dec(p, "/RecurringMonthly"),
            annual: dec(p, "/AnnualPremium"),
            annual_ipt: dec(p, "/AnnualIpt"),
            monthly_before_discounts: dec(p, "/PremiumBeforeDiscount/Monthly"),
            multi_pet: dec(p, "/Discounts/Monthly/Multipet"),
            offer_code: dec(p, "/Discounts/Monthly/OfferCode"),
            loyalty: dec(p, "/Discounts/Monthly/Loyalty"),
            set_excess: dec(p, "/Excess"),
            coinsurance_percent: dec(p, "/coins"),
        });
    }
    let quoted = Quoted {
        inputs: String::new(),
        version: String::new(),
        pets,
    };
    if let Some(map) = document.as_object_mut() {
        map.insert(
            "quoted".into(),
            serde_json::to_value(&quoted).unwrap_or(Value::Null),
        );
    }
    if let Some(pets) = document.get_mut("pets").and_then(Value::as_array_mut) {
        for pet in pets.iter_mut() {
            if let Some(product) = pet.get_mut("product").and_then(Value::as_object_mut) {
                product.retain(|k, _| k == "Code" || k == "RecurringMonthly");
            }
        }
    }
}

/// The birthday from which a pet counts as older: it pays a share of each claim, and the claim
/// example's co-insurance warning starts at 25 rather than 20 (journey.md §9 Excess at renewal:
/// dogs after the 8th birthday, some breeds the 5th, cats after the 10th, rabbits after the 5th).
/// The breed's own maximum entry age (journey.md §5 Age rule: "most dogs up to the 8th birthday,
/// some breeds 5, cats 10, rabbits 5") is that birthday; without a breed, the species' usual one.
pub fn older_pet_age(species: Species, breed: Option<&Breed>) -> u32 {
    match breed {
        Some(b) if b.species == species && b.max_age_mths >= 12 => b.max_age_mths / 12,
        _ => match species {
            Species::Dog => 8,
            Species::Cat => 10,
            Species::Rabbit => 5,
        },
    }
}

/// journey.md §9 5-star rating badge on the confirmation page: as on review, except that the
/// Lifetime variant's threshold there is the 8,000 limit ("review 7000 and confirmation 8000 for
/// LT and MB").
pub(super) fn rated_on_confirmation(badge: RatingBadge, species: Species, key: ProductKey) -> bool {
    match badge {
        RatingBadge::Defaqto5StarLifetime => {
            species != Species::Rabbit
                && matches!(key.group, CoverGroup::LT | CoverGroup::MB)
                && key.limit >= 8000
        }
        _ => rated(badge, species, key),
    }
}

/// journey.md §9 5-star rating badge, in the brand's variant (journeys/brands: rating_badge):
/// Lifetime except the 2,500 limit and Max Benefit except 3,000; or, in the Lifetime variant,
/// Lifetime and Max Benefit from the 7,000 limit (the review page's rule); or none. Never rabbits.
pub(super) fn rated(badge: RatingBadge, species: Species, key: ProductKey) -> bool {
    species != Species::Rabbit
        && match (badge, key.group) {
            (RatingBadge::None, _) | (_, CoverGroup::TL) => false,
            (RatingBadge::Defaqto5Star, CoverGroup::LT) => key.limit != 2500,
            (RatingBadge::Defaqto5Star, CoverGroup::MB) => key.limit != 3000,
            (RatingBadge::Defaqto5StarLifetime, CoverGroup::LT | CoverGroup::MB) => {
                key.limit >= 7000
            }
        }
}
