//! Quoting (issue 5; journey.md §3 Product, §4 Cover selection; owner-payment.md §3 Product
//! discounts, §4 Prices): every product priced for every pet, written into the quote document as
//! the server-owned `products` (all pets, each with its `petid`) and each pet's chosen `product`
//! (the priced product its chosen `Code` names). Run after every change the customer makes, so a
//! stored price is always the price of the stored answers; the quoted price then holds until the
//! answers change, even if the rate table does.
//!
//! Prices need the owner's postcode (its area is a rating factor): until it is given the quote
//! has no products, which is also why the choose-policy step waits for it.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::compiled::Definitions;
use crate::definitions::{RatingBadge, Species};
use crate::domain::{breed_of, cover_start, promo_offer};
use crate::postcode::Postcode;
use crate::rating::{
    BenefitValue, CoverGroup, ExcessChoice, PetFacts, Price, ProductKey, QuoteFacts, RateFile,
    claim_example, pennies,
};
use crate::rules::{RuleContext, months_between};

/// One priced product's working, for the transition record and the internal pricing endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PriceNote {
    /// The pet's 1-based id.
    pub pet: usize,
    pub code: String,
    pub monthly: Decimal,
    /// `[name, chosen by, value]`, starting from the base annual premium.
    pub factors: Vec<(String, String, Decimal)>,
    pub discounts_monthly: crate::rating::DiscountAmounts,
}

impl PriceNote {
    fn of(pet: usize, price: &Price) -> Self {
        PriceNote {
            pet,
            code: price.code.clone(),
            monthly: price.monthly,
            factors: price
                .factors
                .iter()
                .map(|f| (f.name.clone(), f.by.clone(), f.value))
                .collect(),
            discounts_monthly: price.discounts_monthly.clone(),
        }
    }
}

/// What rating needs from one pet of the document, if the pet is complete enough to price.
struct PetInput<'d> {
    facts: PetFacts<'d>,
    choice: ExcessChoice,
}

fn str_of<'a>(v: &'a Value, field: &str) -> Option<&'a str> {
    v.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// A decimal written as a JSON string or number.
pub fn decimal_of(v: &Value) -> Option<Decimal> {
    match v {
        Value::String(s) => crate::Money::parse(s),
        Value::Number(n) => n.to_string().parse().ok(),
        _ => None,
    }
}

fn pet_input<'d>(defs: &'d Definitions, rates: &RateFile, pet: &Value) -> Option<PetInput<'d>> {
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
    Some(PetInput {
        facts: PetFacts {
            species,
            breed,
            date_of_birth,
            neutered,
            cost,
        },
        choice: ExcessChoice {
            set_excess,
            coinsurance_percent,
        },
    })
}

/// The quote-wide facts: cover start, postcode area, number of pets, loyalty. `None` while the
/// owner's postcode is not given.
fn quote_facts(document: &Value, ctx: &RuleContext) -> Option<QuoteFacts> {
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
fn promo_percent(
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
        &crate::domain::species_on_quote(document),
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

/// Prices every product for every pet (none until the owner's postcode is known) and writes them
/// into the document: `products`, and each pet's `product` refreshed from its chosen `Code` (or
/// left as the bare code, unpriced, when that product is not offered). Returns each price's working.
pub fn requote(defs: &Definitions, document: &mut Value, ctx: &RuleContext) -> Vec<PriceNote> {
    let Some(rates) = defs.rates_for(ctx.rate_scheme.as_deref()) else {
        return Vec::new();
    };
    let facts = quote_facts(document, ctx);
    // Limits and benefits are written in the brand's currency, in the quote's language.
    let language = document
        .get("language")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let money = defs.voice(&ctx.brand, language).money();
    let pets: Vec<Value> = document
        .get("pets")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut all = Vec::new();
    let mut notes = Vec::new();
    let mut chosen: Vec<Option<Value>> = Vec::new();
    for (i, pet) in pets.iter().enumerate() {
        let id = i + 1;
        let wanted = pet.pointer("/product/Code").and_then(Value::as_str);
        let mut pick = None;
        if let (Some(facts), Some(input)) = (&facts, pet_input(defs, rates, pet)) {
            let mut quote = facts.clone();
            quote.promo_percent = promo_percent(defs, document, input.facts.species, ctx);
            let badge = defs
                .brand(&ctx.brand)
                .map_or(RatingBadge::Defaqto5Star, |b| b.rating_badge);
            for key in rates.products_for(input.facts.species) {
                let offered = rates.coinsurance_offered(key);
                let choice = ExcessChoice {
                    set_excess: input.choice.set_excess,
                    coinsurance_percent: if offered {
                        input.choice.coinsurance_percent
                    } else {
                        None
                    },
                };
                let Ok(price) = rates.price(&input.facts, &quote, key, &choice) else {
                    continue;
                };
                let product =
                    product_json(rates, &input.facts, &quote, key, id, &price, badge, money);
                if wanted == Some(price.code.as_str()) {
                    pick = Some(product.clone());
                }
                notes.push(PriceNote::of(id, &price));
                all.push(product);
            }
        }
        chosen.push(pick);
    }
    if let Some(map) = document.as_object_mut() {
        if all.is_empty() {
            map.remove("products");
        } else {
            map.insert("products".into(), Value::Array(all));
        }
    }
    if let Some(pets) = document.get_mut("pets").and_then(Value::as_array_mut) {
        for (pet, pick) in pets.iter_mut().zip(chosen) {
            let Some(map) = pet.as_object_mut() else {
                continue;
            };
            match pick {
                Some(product) => {
                    map.insert("product".into(), product);
                }
                // A code the pet is not offered keeps only the code, unpriced: rule
                // cover_offered names it, and guard product_chosen wants a priced product.
                None => match map.get("product").and_then(|p| p.get("Code")).cloned() {
                    Some(code) => {
                        map.insert("product".into(), json!({ "Code": code }));
                    }
                    None => {
                        map.remove("product");
                    }
                },
            }
        }
    }
    notes
}

/// The birthday from which a pet counts as older: it pays a share of each claim, and the claim
/// example's co-insurance warning starts at 25 rather than 20 (journey.md §9 Excess at renewal:
/// dogs after the 8th birthday, cats after the 10th, rabbits after the 5th).
pub fn older_pet_age(species: Species) -> u32 {
    match species {
        Species::Dog => 8,
        Species::Cat => 10,
        Species::Rabbit => 5,
    }
}

/// journey.md §9 5-star rating badge, in the brand's variant (journeys/brands: rating_badge):
/// Lifetime except the 2,500 limit and Max Benefit except 3,000; or, in the Lifetime variant,
/// Lifetime and Max Benefit from the 7,000 limit (the review page's rule); or none. Never rabbits.
fn rated(badge: RatingBadge, species: Species, key: ProductKey) -> bool {
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

fn joined(values: impl Iterator<Item = String>) -> String {
    values.collect::<Vec<_>>().join(",")
}

fn discounts_json(d: &crate::rating::DiscountAmounts, times: Decimal) -> Value {
    json!({
        "Multipet": d.multipet * times,
        "OfferCode": d.offer_code * times,
        "Loyalty": d.loyalty * times,
    })
}

/// The product as the view data carries it (journey.md §3 Product).
#[allow(clippy::too_many_arguments)]
fn product_json(
    rates: &RateFile,
    pet: &PetFacts<'_>,
    quote: &QuoteFacts,
    key: ProductKey,
    pet_id: usize,
    price: &Price,
    badge: RatingBadge,
    money: crate::Money,
) -> Value {
    let species = pet.species;
    let twelve = Decimal::from(12);
    let mut terms = Vec::new();
    for b in rates
        .benefits
        .iter()
        .filter(|b| b.species.contains(&species))
    {
        if b.unless_exclude_tpl && pet.breed.exclude_tpl {
            continue;
        }
        let mut row = Map::new();
        row.insert("desc".into(), Value::from(b.desc.clone()));
        row.insert("tt".into(), Value::from(b.tooltip.clone()));
        match &b.value {
            BenefitValue::VetFeeLimit(_) => {
                row.insert(
                    "val".into(),
                    Value::from(money.amount(Decimal::from(key.limit))),
                );
            }
            BenefitValue::Amount(a) => {
                row.insert("val".into(), Value::from(money.amount(*a)));
            }
            BenefitValue::ByLimit(by) => match by.get(&key.limit.to_string()) {
                Some(a) => {
                    row.insert("val".into(), Value::from(money.amount(*a)));
                }
                None => continue,
            },
            BenefitValue::Text(copy) => {
                row.insert("val_key".into(), Value::from(copy.clone()));
            }
        }
        row.insert("biline".into(), Value::from(b.headline));
        row.insert("show".into(), Value::from(true));
        terms.push(Value::Object(row));
    }

    let excess = rates.excess.get(&species);
    let offered = rates.coinsurance_offered(key);
    let coins_options: Vec<Decimal> = if offered {
        let mut v: Vec<Decimal> = rates
            .coinsurance
            .options
            .keys()
            .filter_map(|k| k.parse().ok())
            .collect();
        v.sort();
        v
    } else {
        vec![Decimal::ZERO]
    };
    let mut excess_options: Vec<Decimal> = excess
        .map(|e| {
            e.options
                .keys()
                .filter_map(|k| k.parse().ok())
                .collect::<Vec<Decimal>>()
        })
        .unwrap_or_default();
    excess_options.sort();
    let fraction = |p: Decimal| (p / Decimal::from(100)).normalize();

    let (customer, insurer) = claim_example(price.set_excess, price.coinsurance_percent);
    let years = months_between(pet.date_of_birth, quote.cover_start).div_euclid(12);
    let coins_limit = if years >= i64::from(older_pet_age(species)) {
        Decimal::from(25)
    } else {
        Decimal::from(20)
    };
    let mut warnings = Vec::new();
    if price.set_excess > Decimal::from(200) {
        warnings.push("cover.claim_example.warning_excess");
    }
    if price.coinsurance_percent > coins_limit {
        warnings.push("cover.claim_example.warning_coins");
    }
    if key.group == CoverGroup::LT && key.limit >= 8000 {
        warnings.push("cover.claim_example.lt_notice");
    }
    let d = &price.discounts_monthly;
    json!({
        "Code": price.code,
        "Gid": key.group.as_str(),
        "GidOrderShow": key.group.order(),
        "Type": key.group.type_name(),
        "Limit": key.limit.to_string(),
        "LimitVal": key.limit,
        "LimitDesc": money.amount(Decimal::from(key.limit)),
        "Excess": price.set_excess.normalize().to_string(),
        "coins": price.coinsurance_percent.normalize(),
        "RecurringMonthly": price.monthly,
        "AnnualPremium": price.annual,
        "PremiumLessDiscount": price.annual,
        "PremiumBeforeDiscount": {
            "Monthly": price.monthly_before_discounts,
            "Annual": price.monthly_before_discounts * twelve,
        },
        "AnnualIpt": price.annual_ipt,
        "petid": pet_id,
        "species": species.as_str(),
        "Rated": rated(badge, species, key),
        "PolicyTerms": terms,
        "FlexyProductsOptions": {
            "current_set_excess": price.set_excess.normalize().to_string(),
            "current_variable_excess": fraction(price.coinsurance_percent).to_string(),
            "options_set_excess": joined(excess_options.iter().map(|e| e.normalize().to_string())),
            "options_variable_excess": joined(coins_options.iter().map(|p| fraction(*p).to_string())),
        },
        "excess_options": {
            "list": coins_options.iter().map(|p| json!({ "coins": p.normalize() })).collect::<Vec<_>>(),
        },
        "ClaimExample": {
            "Bill": Decimal::from(crate::rating::CLAIM_EXAMPLE_BILL),
            "Customer": customer,
            "Insurer": insurer,
            "Warnings": warnings,
        },
        "Monthly": {
            "Multipet": d.multipet,
        },
        "Discounts": {
            "Annual": discounts_json(d, twelve),
            "Monthly": discounts_json(d, Decimal::ONE),
        },
    })
}

/// How long a quote's prices hold from the day it was made (the "Quote valid until" of journey.md
/// §2 Cover select and owner-payment.md §2 Review quote header).
pub const QUOTE_VALID_DAYS: i64 = 30;

/// The quote's totals and discount lists as the review page shows them (owner-payment.md §4
/// Prices): the monthly view is the base; the annual view is 12 × monthly; discounts with the
/// same description summed; the total the sum of the chosen products' premiums. With more than
/// one pet and not every pet covered, the multi-pet discount is still to come.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub monthly: Decimal,
    pub annual: Decimal,
    /// Each discount's copy key with its amount, per month and per year, in a fixed order.
    pub discounts_monthly: Vec<(String, Decimal)>,
    pub discounts_annual: Vec<(String, Decimal)>,
    pub multipet_pending: bool,
    pub every_pet_chosen: bool,
}

pub fn summary(document: &Value) -> Summary {
    let pets = document
        .get("pets")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let chosen: Vec<&Value> = pets
        .iter()
        .filter_map(|p| p.get("product"))
        .filter(|p| p.get("RecurringMonthly").is_some())
        .collect();
    let amount = |p: &Value, pointer: &str| {
        p.pointer(pointer)
            .and_then(decimal_of)
            .unwrap_or(Decimal::ZERO)
    };
    let monthly: Decimal = chosen.iter().map(|p| amount(p, "/RecurringMonthly")).sum();
    let mut discounts_monthly = Vec::new();
    for (field, key) in [
        ("Multipet", "review.discount.multipet"),
        ("OfferCode", "review.discount.offer_code"),
        ("Loyalty", "review.discount.loyalty"),
    ] {
        let total: Decimal = chosen
            .iter()
            .map(|p| amount(p, &format!("/Discounts/Monthly/{field}")))
            .sum();
        if !total.is_zero() {
            discounts_monthly.push((key.to_owned(), pennies(total)));
        }
    }
    let twelve = Decimal::from(12);
    let every_pet_chosen = !pets.is_empty() && chosen.len() == pets.len();
    Summary {
        monthly: pennies(monthly),
        annual: pennies(monthly) * twelve,
        discounts_annual: discounts_monthly
            .iter()
            .map(|(k, v)| (k.clone(), *v * twelve))
            .collect(),
        discounts_monthly,
        multipet_pending: pets.len() > 1 && !every_pet_chosen,
        every_pet_chosen,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_badge_follows_journey_md_section_9() {
        let k = |group, limit| ProductKey { group, limit };
        let five = RatingBadge::Defaqto5Star;
        assert!(rated(five, Species::Dog, k(CoverGroup::LT, 4000)));
        assert!(!rated(five, Species::Dog, k(CoverGroup::LT, 2500)));
        assert!(!rated(five, Species::Cat, k(CoverGroup::MB, 3000)));
        assert!(rated(five, Species::Cat, k(CoverGroup::MB, 4000)));
        assert!(!rated(five, Species::Rabbit, k(CoverGroup::LT, 4000)));
        assert!(!rated(five, Species::Dog, k(CoverGroup::TL, 4000)));
        // The brands' variants (journey.md §9: "LT at 7000"; one brand shows no badge).
        let lifetime = RatingBadge::Defaqto5StarLifetime;
        assert!(!rated(lifetime, Species::Dog, k(CoverGroup::LT, 4000)));
        assert!(rated(lifetime, Species::Dog, k(CoverGroup::LT, 7000)));
        assert!(rated(lifetime, Species::Cat, k(CoverGroup::MB, 7000)));
        assert!(!rated(lifetime, Species::Rabbit, k(CoverGroup::LT, 7000)));
        assert!(!rated(
            RatingBadge::None,
            Species::Dog,
            k(CoverGroup::LT, 4000)
        ));
    }
}
