//! Promotion and Nectar codes (owner-payment.md §4 Promo code, Nectar card).

use chrono::NaiveDate;
use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::Species;
use crate::definitions::schema::FieldError;
use crate::rules::context::RuleContext;
use crate::rules::domain::facts::species_on_quote;

/// owner-payment.md §4 Promo code: the promotion a typed code names, if it runs on this brand,
/// today (UK time), for one of these species.
pub fn promo_offer<'d>(
    defs: &'d Definitions,
    typed: &str,
    brand: &str,
    species: &[Species],
    today: NaiveDate,
) -> Option<&'d crate::definitions::PromoCode> {
    defs.promo_code(typed).filter(|p| {
        p.brands.iter().any(|b| b == brand)
            && p.valid_from <= today
            && today <= p.valid_to
            && p.species.iter().any(|s| species.contains(s))
    })
}

/// The bonus Nectar points a purchase earns (owner-payment.md §4 Nectar card, §9 "Nectar bonus
/// cap: 20,000 points").
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NectarBonus {
    /// What the customer is given: the promotion's points, at most the cap.
    pub points: u32,
    /// Whether the cap cut the promotion's points down.
    pub capped: bool,
    pub cap: u32,
    /// The last four digits of the Nectar card they go to.
    pub card_last4: String,
}

/// owner-payment.md §9: the bonus a bought quote's Nectar promotion earns, totalled here and
/// nowhere else: the promotion's points for each policy and for each whole pound of the first
/// year's premiums, capped at the promotions file's `nectar_bonus_cap`. None when the quote has
/// no Nectar promotion or no card to credit.
pub fn nectar_bonus(
    defs: &Definitions,
    document: &Value,
    annual_premiums: &[rust_decimal::Decimal],
) -> Option<NectarBonus> {
    let owner = document.get("owner")?;
    let promo = defs.promo_code(owner.get("promotional_code")?.as_str()?)?;
    let points = promo.nectar_points.filter(|_| promo.nectar)?;
    let card = owner
        .get("nectarCardNumber")
        .and_then(Value::as_str)
        .filter(|n| nectar_number_valid(n))?;
    let pounds: rust_decimal::Decimal = annual_premiums.iter().copied().sum();
    let whole_pounds = rust_decimal::prelude::ToPrimitive::to_u64(&pounds.trunc()).unwrap_or(0);
    let policies = u64::try_from(annual_premiums.len()).unwrap_or(u64::MAX);
    let earned = u64::from(points.per_policy)
        .saturating_mul(policies)
        .saturating_add(u64::from(points.per_pound).saturating_mul(whole_pounds));
    let cap = defs.nectar_bonus_cap();
    Some(NectarBonus {
        points: u32::try_from(earned.min(u64::from(cap))).unwrap_or(cap),
        capped: earned > u64::from(cap),
        cap,
        card_last4: card[card.len() - 4..].to_owned(),
    })
}

/// The prefix every Nectar card number starts with; customers type the 11 digits after it
/// (owner-payment.md §5 Promo and loyalty).
pub const NECTAR_PREFIX: &str = "98263000";

/// A Nectar card's last 11 digits: digits only, and the whole card number (prefix included)
/// passes the Luhn check its check digit is made for.
pub fn nectar_number_valid(last_digits: &str) -> bool {
    if last_digits.len() != 11 || !last_digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    luhn_valid(&format!("{NECTAR_PREFIX}{last_digits}"))
}

/// The Luhn (mod 10) check that card numbers pass: a Nectar card's (owner-payment.md §5 Promo
/// and loyalty) and a payment card's (§5 Payment, checked by the payment provider).
pub fn luhn_valid(digits: &str) -> bool {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 1 {
                let twice = d * 2;
                if twice > 9 { twice - 9 } else { twice }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// owner-payment.md §4 Promo code, §5 Promo and loyalty: a promo code kept on the owner runs on
/// this brand, today, for a pet on the quote ("Sorry, this code is not valid"); a Nectar
/// promotion needs a valid Nectar card number.
pub(super) fn promo_code_valid(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let nectar = document
        .pointer("/owner/nectarCardNumber")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    if let Some(n) = nectar
        && !nectar_number_valid(n)
    {
        errors.push(FieldError::new("owner.nectarCardNumber", "nectar.invalid"));
    }
    let Some(code) = document
        .pointer("/owner/promotional_code")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    else {
        return errors;
    };
    match promo_offer(
        defs,
        code,
        &ctx.brand,
        &species_on_quote(document),
        ctx.today,
    ) {
        None => errors.insert(
            0,
            FieldError::new("owner.promotional_code", "promo.invalid"),
        ),
        Some(p) if p.nectar && nectar.is_none() => {
            errors.push(FieldError::new("owner.nectarCardNumber", "nectar.invalid"));
        }
        Some(_) => {}
    }
    errors
}
