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
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::checks::compiled::Definitions;
use crate::definitions::money::decimal_of;
use crate::definitions::postcode::Postcode;
use crate::definitions::rates::{BenefitValue, CoverGroup, ProductKey, RateFile};
use crate::definitions::{RatingBadge, Species};
use crate::rules::context::{RuleContext, months_between};
use crate::rules::domain::{breed_of, cover_start, promo_offer};
use crate::rules::rating::{ExcessChoice, PetFacts, Price, QuoteFacts, claim_example, pennies};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// One priced product's working, for the transition record and the internal pricing endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriceNote {
    /// The pet's 1-based id.
    pub pet: usize,
    pub code: String,
    pub monthly: Decimal,
    /// `[name, chosen by, value]`, starting from the base annual premium.
    pub factors: Vec<(String, String, Decimal)>,
    pub discounts_monthly: crate::rules::rating::DiscountAmounts,
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
                .map(|f| (f.name.to_owned(), f.by.to_string(), f.value))
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

/// One product's premiums as the quote stores them, one string of ten words:
/// `"code monthly annual annual-IPT monthly-before-discounts multi-pet offer-code loyalty
/// set-excess co-insurance-percent"` (the three discounts monthly), each amount written exactly
/// as its decimal (`"LT04000 21.66 259.92 27.85 24.07 2.41 0 0 99 0"`). One string, not a list
/// of ten, because every request that loads a quote reads it: it is one allocation to read, copy
/// and free rather than ten. Everything else a product shows is derived from the definitions
/// when a page is drawn. A list of the ten (how quotes were stored before) is read as well.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Premiums(
    pub String,
    pub Decimal,
    pub Decimal,
    pub Decimal,
    pub Decimal,
    pub Decimal,
    pub Decimal,
    pub Decimal,
    pub Decimal,
    pub Decimal,
);

impl Serialize for Premiums {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use std::fmt::Write;
        let mut out = String::with_capacity(64);
        out.push_str(&self.0);
        for d in self.amounts() {
            // Writing to a String cannot fail.
            let _ = write!(out, " {d}");
        }
        serializer.serialize_str(&out)
    }
}

impl<'de> Deserialize<'de> for Premiums {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(PremiumsVisitor)
    }
}

struct PremiumsVisitor;

impl<'de> serde::de::Visitor<'de> for PremiumsVisitor {
    type Value = Premiums;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a product code and nine amounts, in one string or in a list")
    }

    fn visit_str<E: serde::de::Error>(self, words: &str) -> Result<Premiums, E> {
        let mut parts = words.split(' ');
        let code = parts.next().unwrap_or_default();
        let mut amounts = [Decimal::ZERO; 9];
        for (i, slot) in amounts.iter_mut().enumerate() {
            let word = parts
                .next()
                .ok_or_else(|| E::custom(format!("premiums {code}: amount {} missing", i + 1)))?;
            *slot = word
                .parse()
                .map_err(|_| E::custom(format!("premiums {code}: {word:?} is not an amount")))?;
        }
        if parts.next().is_some() {
            return Err(E::custom(format!("premiums {code}: more than ten words")));
        }
        Ok(Premiums::from_parts(code.to_owned(), amounts))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Premiums, A::Error> {
        use serde::de::Error;
        let code: String = seq
            .next_element()?
            .ok_or_else(|| A::Error::custom("premiums: no product code"))?;
        let mut amounts = [Decimal::ZERO; 9];
        for (i, slot) in amounts.iter_mut().enumerate() {
            *slot = seq.next_element()?.ok_or_else(|| {
                A::Error::custom(format!("premiums {code}: amount {} missing", i + 1))
            })?;
        }
        if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::custom(format!(
                "premiums {code}: more than ten items"
            )));
        }
        Ok(Premiums::from_parts(code, amounts))
    }
}

impl Premiums {
    fn from_parts(code: String, amounts: [Decimal; 9]) -> Self {
        let [a, b, c, d, e, f, g, h, i] = amounts;
        Premiums(code, a, b, c, d, e, f, g, h, i)
    }

    fn amounts(&self) -> [Decimal; 9] {
        [
            self.1, self.2, self.3, self.4, self.5, self.6, self.7, self.8, self.9,
        ]
    }

    fn of(price: &Price) -> Self {
        let d = &price.discounts_monthly;
        Premiums(
            price.code.clone(),
            price.monthly,
            price.annual,
            price.annual_ipt,
            price.monthly_before_discounts,
            d.multipet,
            d.offer_code,
            d.loyalty,
            price.set_excess,
            price.coinsurance_percent,
        )
    }

    pub fn code(&self) -> &str {
        &self.0
    }

    pub fn monthly(&self) -> Decimal {
        self.1
    }

    pub fn annual(&self) -> Decimal {
        self.2
    }

    pub fn discounts(&self) -> crate::rules::rating::DiscountAmounts {
        crate::rules::rating::DiscountAmounts {
            multipet: self.5,
            offer_code: self.6,
            loyalty: self.7,
        }
    }
}

/// The prices quoted (issue 22), stored in the quote document as `quoted`: per pet (in the pets'
/// order) every product's premiums, with the definitions version and a digest of the rating
/// inputs they were worked from. A quoted price holds until the rating inputs change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quoted {
    /// SHA-256 (hex) of the rating inputs; empty for prices carried over from before digests.
    pub inputs: String,
    pub version: String,
    pub pets: Vec<Vec<Premiums>>,
}

impl Quoted {
    /// The prices a document holds, if any.
    pub fn of(document: &Value) -> Option<Quoted> {
        Quoted::deserialize(document.get("quoted")?).ok()
    }

    /// The premiums of the product `code` for the pet at 0-based `index`.
    pub fn premiums(&self, index: usize, code: &str) -> Option<&Premiums> {
        self.pets.get(index)?.iter().find(|p| p.code() == code)
    }
}

/// What a transition records of a pricing (issue 22: what an analyst needs to explain the
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

/// The rating inputs of one pet, as the digest reads them.
#[derive(Serialize)]
struct PetDigest<'a> {
    species: &'a str,
    breed: &'a str,
    dob: NaiveDate,
    neutered: bool,
    cost: Decimal,
    excess: Option<Decimal>,
    coins: Option<Decimal>,
    promo: Option<Decimal>,
}

#[derive(Serialize)]
struct InputsDigest<'a> {
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
struct Inputs<'d> {
    facts: Option<QuoteFacts>,
    pets: Vec<Option<(PetInput<'d>, Option<Decimal>)>>,
    digest: String,
}

fn inputs<'d>(
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
    fn prices(
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
fn stored_monthly(document: &Value, index: usize, code: &str) -> Option<Value> {
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

fn chosen_code(document: &Value, index: usize) -> Option<&str> {
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
        pets[index].push(Premiums(
            code.to_owned(),
            dec(p, "/RecurringMonthly"),
            dec(p, "/AnnualPremium"),
            dec(p, "/AnnualIpt"),
            dec(p, "/PremiumBeforeDiscount/Monthly"),
            dec(p, "/Discounts/Monthly/Multipet"),
            dec(p, "/Discounts/Monthly/OfferCode"),
            dec(p, "/Discounts/Monthly/Loyalty"),
            dec(p, "/Excess"),
            dec(p, "/coins"),
        ));
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

/// A benefit row of a product (journey.md §3 PolicyTerms).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Term {
    pub desc: String,
    pub tt: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub val: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub val_key: Option<String>,
    pub biline: bool,
    pub show: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct Discounts {
    pub Multipet: Decimal,
    pub OfferCode: Decimal,
    pub Loyalty: Decimal,
}

impl Discounts {
    fn of(d: &crate::rules::rating::DiscountAmounts, times: Decimal) -> Self {
        Discounts {
            Multipet: d.multipet * times,
            OfferCode: d.offer_code * times,
            Loyalty: d.loyalty * times,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct MonthlyAnnual {
    pub Monthly: Decimal,
    pub Annual: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct FlexyOptions {
    pub current_set_excess: String,
    pub current_variable_excess: String,
    /// The same for every product of a species (Drawings).
    pub options_set_excess: Arc<str>,
    pub options_variable_excess: Arc<str>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CoinsOption {
    pub coins: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CoinsList {
    pub list: Vec<CoinsOption>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[allow(non_snake_case)]
pub struct ClaimExample {
    pub Bill: Decimal,
    pub Customer: Decimal,
    pub Insurer: Decimal,
    pub Warnings: Vec<&'static str>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct MonthlyMultipet {
    pub Multipet: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct DiscountViews {
    pub Annual: Discounts,
    pub Monthly: Discounts,
}

/// A priced product as pages and the comparison sites' calls show it (journey.md §3 Product):
/// its premiums as quoted, everything else derived from the definitions when drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct Product {
    pub Code: String,
    pub Gid: &'static str,
    pub GidOrderShow: u32,
    pub Type: &'static str,
    pub Limit: String,
    pub LimitVal: u32,
    pub LimitDesc: Arc<str>,
    pub Excess: String,
    pub coins: Decimal,
    pub RecurringMonthly: Decimal,
    pub AnnualPremium: Decimal,
    pub PremiumLessDiscount: Decimal,
    pub PremiumBeforeDiscount: MonthlyAnnual,
    pub AnnualIpt: Decimal,
    pub petid: usize,
    pub species: &'static str,
    pub Rated: bool,
    /// Shared by every product with the same benefits (same species, limit and third party
    /// liability), and each row by every list that has it.
    pub PolicyTerms: TermList,
    pub FlexyProductsOptions: FlexyOptions,
    pub excess_options: Arc<CoinsList>,
    pub ClaimExample: ClaimExample,
    pub Monthly: MonthlyMultipet,
    pub Discounts: DiscountViews,
}

fn joined(values: impl Iterator<Item = String>) -> String {
    values.collect::<Vec<_>>().join(",")
}

/// A product code read back: the group and the limit (LT04000).
fn product_key(code: &str) -> Option<ProductKey> {
    let group = match code.get(..2)? {
        "LT" => CoverGroup::LT,
        "MB" => CoverGroup::MB,
        "TL" => CoverGroup::TL,
        _ => return None,
    };
    Some(ProductKey {
        group,
        limit: code.get(2..)?.parse().ok()?,
    })
}

/// Every product priced for every pet, as the pages show them (journey.md §3 Quote view data),
/// drawn from the stored prices and the definitions; none before the quote is priced.
pub fn products(defs: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<Product> {
    products_of(
        defs,
        document,
        ctx,
        Quoted::of(document).as_ref(),
        Drawn::Every,
    )
}

/// Which of the priced products a page draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawn {
    /// Every product priced for every pet (the pages that choose cover).
    Every,
    /// Each pet's chosen product, if priced (the pages that show what was chosen).
    Chosen,
}

/// [`products`] from prices already read from the document: every product, or only the chosen.
pub fn products_of(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
    quoted: Option<&Quoted>,
    drawn: Drawn,
) -> Vec<Product> {
    let (Some(quoted), Some(rates)) = (quoted, defs.rates_for(ctx.rate_scheme.as_deref())) else {
        return Vec::new();
    };
    let language = document
        .get("language")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let money = defs.voice(&ctx.brand, language).money();
    let badge = defs
        .brand(&ctx.brand)
        .map_or(RatingBadge::Defaqto5Star, |b| b.rating_badge);
    let start = cover_start(document, ctx);
    let pets = document.get("pets").and_then(Value::as_array);
    let mut out = Vec::new();
    let mut drawn_here = PageDrawings::default();
    for (i, pet) in pets.into_iter().flatten().enumerate() {
        let Some(input) = pet_input(defs, rates, pet) else {
            continue;
        };
        let chosen = priced_choice(pet);
        for premiums in quoted.pets.get(i).into_iter().flatten() {
            if drawn == Drawn::Chosen && chosen != Some(premiums.code()) {
                continue;
            }
            let Some(key) = product_key(premiums.code()) else {
                continue;
            };
            let limit = drawn_here.limit(rates, &input.facts, key.limit, money);
            let options = drawn_here.options(rates, input.facts.species, key);
            out.push(product(
                &input.facts,
                start,
                key,
                i + 1,
                premiums,
                badge,
                limit,
                options,
            ));
        }
    }
    out
}

/// What a rate table draws the same way for every quote (issue 22: derived once per definitions
/// version, not per request): the benefit rows of each species, third party liability exclusion
/// and vet fee limit in each currency and language, with the limit as written; and each species'
/// excess and co-insurance options. Made the first time a page asks, then shared; bounded by the
/// rate table (its species, limits and the brands' currencies and languages). Kept in the rate
/// table's [`Derived`](crate::definitions::rates::Derived) room.
#[derive(Default)]
struct Drawings {
    limits: Mutex<LimitCache>,
    options: Mutex<HashMap<(Species, bool), Arc<OptionLists>>>,
}

type LimitKey = (Species, bool, u32, crate::definitions::money::Money);

#[derive(Default)]
struct LimitCache {
    limits: HashMap<LimitKey, Arc<LimitDrawing>>,
    /// Each benefit row once, shared by every list that has it (the view sends each row once).
    rows: HashMap<(usize, Option<String>), Arc<Term>>,
}

/// A vet fee limit as a species' products show it: the limit written and its benefit rows.
struct LimitDrawing {
    desc: Arc<str>,
    terms: TermList,
}

/// A species' excess and co-insurance options, as every product of it lists them.
struct OptionLists {
    set_excess: Arc<str>,
    variable_excess: Arc<str>,
    coins: Arc<CoinsList>,
}

/// A product's benefit rows, shared by the products with the same benefits.
pub type TermList = Arc<[Arc<Term>]>;

/// What one page has drawn so far: the rate table's drawings it has taken, so each is looked up
/// in the shared [`Drawings`] once per page.
#[derive(Default)]
struct PageDrawings {
    limits: HashMap<LimitKey, Arc<LimitDrawing>>,
    options: HashMap<(Species, bool), Arc<OptionLists>>,
}

impl PageDrawings {
    fn limit(
        &mut self,
        rates: &RateFile,
        pet: &PetFacts<'_>,
        limit: u32,
        money: crate::definitions::money::Money,
    ) -> Arc<LimitDrawing> {
        let key = (pet.species, pet.breed.exclude_tpl, limit, money);
        self.limits
            .entry(key)
            .or_insert_with(|| {
                let draw = |rows: &mut HashMap<_, _>| {
                    Arc::new(LimitDrawing {
                        desc: money.amount(Decimal::from(limit)).into(),
                        terms: policy_terms(rates, rows, key),
                    })
                };
                let Some(shared) = rates.derived.get_or_default::<Drawings>() else {
                    return draw(&mut HashMap::new());
                };
                let mut cache = locked(&shared.limits);
                if let Some(d) = cache.limits.get(&key) {
                    return d.clone();
                }
                let drawing = draw(&mut cache.rows);
                cache.limits.insert(key, drawing.clone());
                drawing
            })
            .clone()
    }

    fn options(&mut self, rates: &RateFile, species: Species, key: ProductKey) -> Arc<OptionLists> {
        let offered = rates.coinsurance_offered(key);
        self.options
            .entry((species, offered))
            .or_insert_with(|| {
                let Some(shared) = rates.derived.get_or_default::<Drawings>() else {
                    return Arc::new(option_lists(rates, species, offered));
                };
                locked(&shared.options)
                    .entry((species, offered))
                    .or_insert_with(|| Arc::new(option_lists(rates, species, offered)))
                    .clone()
            })
            .clone()
    }
}

/// journey.md §9 PolicyTerms: the rate table's benefits for the species, at the limit, in
/// the brand's currency; each row taken from `rows` if another list has made it.
fn policy_terms(
    rates: &RateFile,
    rows: &mut HashMap<(usize, Option<String>), Arc<Term>>,
    (species, exclude_tpl, limit, money): LimitKey,
) -> TermList {
    let mut list = Vec::new();
    for (index, b) in rates.benefits.iter().enumerate() {
        if !b.species.contains(&species) || (b.unless_exclude_tpl && exclude_tpl) {
            continue;
        }
        let val = match &b.value {
            BenefitValue::VetFeeLimit(_) => Some(money.amount(Decimal::from(limit))),
            BenefitValue::Amount(a) => Some(money.amount(*a)),
            BenefitValue::ByLimit(by) => match by.get(&limit.to_string()) {
                Some(a) => Some(money.amount(*a)),
                None => continue,
            },
            BenefitValue::Text(_) => None,
        };
        let row = rows
            .entry((index, val.clone()))
            .or_insert_with(|| {
                Arc::new(Term {
                    desc: b.desc.clone(),
                    tt: b.tooltip.clone(),
                    val_key: match &b.value {
                        BenefitValue::Text(copy) => Some(copy.clone()),
                        _ => None,
                    },
                    val,
                    biline: b.headline,
                    show: true,
                })
            })
            .clone();
        list.push(row);
    }
    list.into()
}

/// A species' excess options and the co-insurance options (or none, where not `offered`),
/// smallest first, as FlexyProductsOptions and excess_options list them.
fn option_lists(rates: &RateFile, species: Species, offered: bool) -> OptionLists {
    let coins: Vec<Decimal> = if offered {
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
    let mut excess: Vec<Decimal> = rates
        .excess
        .get(&species)
        .map(|e| e.options.keys().filter_map(|k| k.parse().ok()).collect())
        .unwrap_or_default();
    excess.sort();
    OptionLists {
        set_excess: joined(excess.iter().map(|e| e.normalize().to_string())).into(),
        variable_excess: joined(coins.iter().map(|p| fraction(*p).to_string())).into(),
        coins: Arc::new(CoinsList {
            list: coins
                .iter()
                .map(|p| CoinsOption {
                    coins: p.normalize(),
                })
                .collect(),
        }),
    }
}

/// A drawings cache, locked (one a panicking holder left behind is still whole: each entry is
/// inserted complete).
fn locked<T>(cache: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A percentage as a fraction: 20 → 0.2.
fn fraction(percent: Decimal) -> Decimal {
    (percent / Decimal::from(100)).normalize()
}

/// The product as the view data carries it (journey.md §3 Product).
#[allow(clippy::too_many_arguments)]
fn product(
    pet: &PetFacts<'_>,
    cover_start: NaiveDate,
    key: ProductKey,
    pet_id: usize,
    p: &Premiums,
    badge: RatingBadge,
    limit: Arc<LimitDrawing>,
    options: Arc<OptionLists>,
) -> Product {
    let species = pet.species;
    let twelve = Decimal::from(12);
    let (set_excess, coinsurance_percent) = (p.8, p.9);
    let (customer, insurer) = claim_example(set_excess, coinsurance_percent);
    let years = months_between(pet.date_of_birth, cover_start).div_euclid(12);
    let coins_limit = if years >= i64::from(older_pet_age(species)) {
        Decimal::from(25)
    } else {
        Decimal::from(20)
    };
    let mut warnings = Vec::new();
    if set_excess > Decimal::from(200) {
        warnings.push("cover.claim_example.warning_excess");
    }
    if coinsurance_percent > coins_limit {
        warnings.push("cover.claim_example.warning_coins");
    }
    if key.group == CoverGroup::LT && key.limit >= 8000 {
        warnings.push("cover.claim_example.lt_notice");
    }
    let d = p.discounts();
    Product {
        Code: p.code().to_owned(),
        Gid: key.group.as_str(),
        GidOrderShow: key.group.order(),
        Type: key.group.type_name(),
        Limit: key.limit.to_string(),
        LimitVal: key.limit,
        LimitDesc: limit.desc.clone(),
        Excess: set_excess.normalize().to_string(),
        coins: coinsurance_percent.normalize(),
        RecurringMonthly: p.monthly(),
        AnnualPremium: p.annual(),
        PremiumLessDiscount: p.annual(),
        PremiumBeforeDiscount: MonthlyAnnual {
            Monthly: p.4,
            Annual: p.4 * twelve,
        },
        AnnualIpt: p.3,
        petid: pet_id,
        species: species.as_str(),
        Rated: rated(badge, species, key),
        PolicyTerms: limit.terms.clone(),
        FlexyProductsOptions: FlexyOptions {
            current_set_excess: set_excess.normalize().to_string(),
            current_variable_excess: fraction(coinsurance_percent).to_string(),
            options_set_excess: options.set_excess.clone(),
            options_variable_excess: options.variable_excess.clone(),
        },
        excess_options: options.coins.clone(),
        ClaimExample: ClaimExample {
            Bill: Decimal::from(crate::rules::rating::CLAIM_EXAMPLE_BILL),
            Customer: customer,
            Insurer: insurer,
            Warnings: warnings,
        },
        Monthly: MonthlyMultipet {
            Multipet: d.multipet,
        },
        Discounts: DiscountViews {
            Annual: Discounts::of(&d, twelve),
            Monthly: Discounts::of(&d, Decimal::ONE),
        },
    }
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
    summary_of(document, Quoted::of(document).as_ref())
}

/// [`summary`] from prices already read from the document.
pub fn summary_of(document: &Value, quoted: Option<&Quoted>) -> Summary {
    let pets = document
        .get("pets")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let chosen: Vec<&Premiums> = pets
        .iter()
        .enumerate()
        .filter_map(|(i, p)| quoted?.premiums(i, priced_choice(p)?))
        .collect();
    let monthly: Decimal = chosen.iter().map(|p| p.monthly()).sum();
    let mut discounts_monthly = Vec::new();
    for (pick, key) in [
        (
            (|d: &crate::rules::rating::DiscountAmounts| d.multipet)
                as fn(&crate::rules::rating::DiscountAmounts) -> Decimal,
            "review.discount.multipet",
        ),
        (|d| d.offer_code, "review.discount.offer_code"),
        (|d| d.loyalty, "review.discount.loyalty"),
    ] {
        let total: Decimal = chosen.iter().map(|p| pick(&p.discounts())).sum();
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
    fn premiums_are_stored_as_one_string_and_read_back_exactly() {
        let d = |s: &str| s.parse::<Decimal>().expect("decimal");
        let p = Premiums(
            "LT04000".into(),
            d("21.60"),
            d("259.20"),
            d("27.85"),
            d("24.07"),
            d("2.41"),
            d("0"),
            d("0"),
            d("99"),
            d("10"),
        );
        let stored = serde_json::to_value(&p).expect("json");
        assert_eq!(
            stored,
            json!("LT04000 21.60 259.20 27.85 24.07 2.41 0 0 99 10")
        );
        let back: Premiums = serde_json::from_value(stored).expect("read");
        assert_eq!(back, p);
        // Each amount keeps how it was written (21.60, not 21.6).
        assert_eq!(back.monthly().to_string(), "21.60");
        // Quotes stored before: a list of the ten.
        let listed: Premiums = serde_json::from_value(json!([
            "LT04000", "21.60", "259.20", "27.85", "24.07", "2.41", "0", "0", "99", "10"
        ]))
        .expect("read a list");
        assert_eq!(listed, p);
        // A damaged entry is refused with what is wrong, not read as zero.
        for bad in [
            json!("LT04000 21.60"),
            json!("LT04000 21.60 259.20 27.85 24.07 2.41 0 0 99 ten"),
            json!("LT04000 21.60 259.20 27.85 24.07 2.41 0 0 99 10 11"),
            json!(["LT04000", "21.60"]),
        ] {
            let err = serde_json::from_value::<Premiums>(bad.clone()).expect_err("refused");
            assert!(err.to_string().contains("LT04000"), "{bad}: {err}");
        }
    }

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
