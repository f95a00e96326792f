//! The products a page shows (journey.md §3 Product): each priced product with its terms, options,
//! claim example and discounts.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::RatingBadge;
use crate::definitions::rates::{CoverGroup, ProductKey};
use crate::journey::quoting::drawings::{
    CoinsList, LimitDrawing, OptionLists, PageDrawings, TermList, fraction,
};
use crate::journey::quoting::inputs::pet_input;
use crate::journey::quoting::premiums::{Premiums, Quoted, product_key};
use crate::journey::quoting::pricing::{
    older_pet_age, priced_choice, rated, rated_on_confirmation,
};
use crate::rules::context::{RuleContext, months_between};
use crate::rules::domain::cover_start;
use crate::rules::rating::{PetFacts, claim_example};
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct Discounts {
    pub Multipet: Decimal,
    pub OfferCode: Decimal,
    pub Loyalty: Decimal,
}

impl Discounts {
    pub(super) fn of(d: &crate::rules::rating::DiscountAmounts, times: Decimal) -> Self {
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
    pub current_set_excess: Arc<str>,
    pub current_variable_excess: Arc<str>,
    /// The same for every product of a species (Drawings).
    pub options_set_excess: Arc<str>,
    pub options_variable_excess: Arc<str>,
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
    pub Excess: Arc<str>,
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
    /// Each pet's chosen product as bought (the confirmation page): its rating badge by the
    /// confirmation's rule (journey.md §9).
    Bought,
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
            if drawn != Drawn::Every && chosen != Some(premiums.code()) {
                continue;
            }
            let Some(key) = product_key(premiums.code()) else {
                continue;
            };
            let limit = drawn_here.limit(rates, &input.facts, key.limit, money);
            let options = drawn_here.options(rates, input.facts.species, key);
            let mut drawn_product = product(
                &input.facts,
                start,
                key,
                i + 1,
                premiums,
                badge,
                limit,
                options,
                &mut drawn_here,
            );
            if drawn == Drawn::Bought {
                drawn_product.Rated = rated_on_confirmation(badge, input.facts.species, key);
            }
            out.push(drawn_product);
        }
    }
    out
}

/// The product as the view data carries it (journey.md §3 Product).
#[allow(clippy::too_many_arguments)]
pub(super) fn product(
    pet: &PetFacts<'_>,
    cover_start: NaiveDate,
    key: ProductKey,
    pet_id: usize,
    p: &Premiums,
    badge: RatingBadge,
    limit: Arc<LimitDrawing>,
    options: Arc<OptionLists>,
    drawn: &mut PageDrawings,
) -> Product {
    let species = pet.species;
    let twelve = Decimal::from(12);
    let (set_excess, coinsurance_percent) = (p.set_excess, p.coinsurance_percent);
    let (customer, insurer) = claim_example(set_excess, coinsurance_percent);
    let years = months_between(pet.date_of_birth, cover_start).div_euclid(12);
    let coins_limit = if years >= i64::from(older_pet_age(species, Some(pet.breed))) {
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
    let excess = drawn.text(set_excess.normalize());
    Product {
        Code: p.code().to_owned(),
        Gid: key.group.as_str(),
        GidOrderShow: key.group.order(),
        Type: key.group.type_name(),
        Limit: key.limit.to_string(),
        LimitVal: key.limit,
        LimitDesc: limit.desc.clone(),
        Excess: excess.clone(),
        coins: coinsurance_percent.normalize(),
        RecurringMonthly: p.monthly(),
        AnnualPremium: p.annual(),
        PremiumLessDiscount: p.annual(),
        PremiumBeforeDiscount: MonthlyAnnual {
            Monthly: p.monthly_before_discounts,
            Annual: p.monthly_before_discounts * twelve,
        },
        AnnualIpt: p.annual_ipt,
        petid: pet_id,
        species: species.as_str(),
        Rated: rated(badge, species, key),
        PolicyTerms: limit.terms.clone(),
        FlexyProductsOptions: FlexyOptions {
            current_set_excess: excess,
            current_variable_excess: drawn.text(fraction(coinsurance_percent)),
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
