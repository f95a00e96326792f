//! Cover and payment chosen (journey.md §4 Cover selection; owner-payment.md §4): a product for
//! every pet, one offered, the assumptions ticked, the bank details and payment method.

use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::Species;
use crate::definitions::schema::FieldError;
use crate::rules::context::RuleContext;
use crate::rules::domain::facts::{pets, str_of};

/// journey.md §2 Assumptions and §5: on the assumptions page every pet's tick "Yes, they're
/// correct" must be given ("Please confirm the assumptions are correct"). The edit modal saves
/// the same questions without it, so the question set cannot require it; the step does.
pub(super) fn assumptions_ticked(
    _defs: &Definitions,
    document: &Value,
    _ctx: &RuleContext,
) -> Vec<FieldError> {
    pets(document)
        .filter(|(_, pet)| pet.get("assumptions_correct").and_then(Value::as_bool) != Some(true))
        .map(|(i, _)| {
            FieldError::new(
                format!("pets[{i}].assumptions_correct"),
                "assumptions.confirm.required",
            )
        })
        .collect()
}

/// journey.md §4 Cover selection: "Asking to proceed with no product chosen shows: Please choose
/// a product type before progressing to choose a cover level." Every pet needs one.
pub(super) fn cover_chosen(
    _defs: &Definitions,
    document: &Value,
    _ctx: &RuleContext,
) -> Vec<FieldError> {
    pets(document)
        .filter(|(_, pet)| {
            pet.pointer("/product/Code")
                .and_then(Value::as_str)
                .is_none()
        })
        .map(|(i, _)| FieldError::new(format!("pets[{i}].product.Code"), "cover.no_product"))
        .collect()
}

/// journey.md §4 Cover selection, §9: a pet's chosen product, set excess and claim contribution
/// are among those the rate table offers its species (a rabbit only Lifetime, up to £4,000;
/// co-insurance not on the products that go without it). Runs after the quote is priced, so a
/// chosen code the pet is not offered is the bare code left unpriced.
pub(super) fn cover_offered(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let Some(rates) = defs.rates_for(ctx.rate_scheme.as_deref()) else {
        return Vec::new();
    };
    let mut errors = Vec::new();
    for (i, pet) in pets(document) {
        let species = str_of(pet, "pet_type").and_then(Species::parse);
        if let Some(product) = pet.get("product")
            && product.get("RecurringMonthly").is_none()
        {
            errors.push(FieldError::new(
                format!("pets[{i}].product.Code"),
                "cover.product.not_offered",
            ));
        }
        // The claim contribution, as a fraction: one of the rate table's (or its scheme's)
        // percentages; none at all is always allowed (products without co-insurance ignore it).
        if let Some(fraction) = pet
            .get("set_coins")
            .and_then(crate::definitions::money::decimal_of)
        {
            let percent = (fraction * rust_decimal::Decimal::from(100)).normalize();
            if !percent.is_zero() && !rates.coinsurance.options.contains_key(&percent.to_string()) {
                errors.push(FieldError::new(
                    format!("pets[{i}].set_coins"),
                    "cover.excess.not_offered",
                ));
            }
        }
        if let Some(excess) = pet
            .get("set_excess")
            .and_then(crate::definitions::money::decimal_of)
        {
            let offered = species
                .and_then(|s| rates.excess.get(&s))
                .is_some_and(|o| o.options.contains_key(&excess.normalize().to_string()));
            if !offered {
                errors.push(FieldError::new(
                    format!("pets[{i}].set_excess"),
                    "cover.excess.not_offered",
                ));
            }
        }
    }
    errors
}

/// owner-payment.md §4 Bank validation, §8: the sort code and account number pass Vocalink's
/// modulus checks ("You've entered an invalid bank account number and/or sort code. Please check
/// and try again."). Details the tables cannot check are accepted, as Vocalink says. Runs on the
/// answers as submitted: the account number is write-only, never in a stored document.
pub(super) fn bank_details_valid(
    _defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let (Some(sort_code), Some(account)) = (
        document
            .pointer("/payment/sort_code")
            .and_then(Value::as_str),
        document
            .pointer("/payment/account_number")
            .and_then(Value::as_str),
    ) else {
        return Vec::new();
    };
    let Some(tables) = &ctx.bank else {
        return Vec::new();
    };
    match tables.check(sort_code, account) {
        Ok(outcome) if outcome.accepted() => Vec::new(),
        _ => vec![FieldError::new(
            "payment.account_number",
            "payment.bank.invalid",
        )],
    }
}

/// owner-payment.md §1 "Direct Debit, or card where offered", §3 payment_method: the method
/// chosen is one the quote's brand takes (journeys/brands). A brand the definitions do not know
/// takes Direct Debit only.
pub(super) fn payment_method_offered(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let Some(chosen) = document
        .pointer("/payment/payment_method")
        .and_then(Value::as_str)
    else {
        return Vec::new();
    };
    let offered = match defs.brand(&ctx.brand) {
        Some(brand) => brand.payment_methods.iter().any(|m| m.code() == chosen),
        None => chosen == crate::definitions::PaymentMethod::DirectDebit.code(),
    };
    if offered {
        Vec::new()
    } else {
        vec![FieldError::new(
            "payment.payment_method",
            "payment.method.not_offered",
        )]
    }
}
