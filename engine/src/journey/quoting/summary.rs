//! The quote's summary (journey.md §3 Summary): its totals, discounts and how long it is valid.

use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::Value;

use crate::journey::quoting::premiums::{Premiums, Quoted};
use crate::journey::quoting::pricing::priced_choice;
use crate::rules::rating::pennies;

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
    // A total in pounds and pence, "0.00" when nothing is chosen yet, as the pages write money.
    let pennies = |amount: Decimal| {
        let mut rounded = pennies(amount);
        rounded.rescale(2);
        rounded
    };
    let every_pet_chosen = !pets.is_empty() && chosen.len() == pets.len();
    Summary {
        monthly: pennies(monthly),
        annual: pennies(pennies(monthly) * twelve),
        discounts_annual: discounts_monthly
            .iter()
            .map(|(k, v)| (k.clone(), pennies(*v * twelve)))
            .collect(),
        discounts_monthly,
        multipet_pending: pets.len() > 1 && !every_pet_chosen,
        every_pet_chosen,
    }
}
