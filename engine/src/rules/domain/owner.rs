//! The owner's and the payment's answers as people type them (owner-payment.md §5), and the
//! owner's age.

use chrono::NaiveDate;
use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::schema::FieldError;
use crate::rules::context::{RuleContext, months_between};

/// owner-payment.md §5 Payment and the sort code in any form the bank check takes
/// ("089999", "08 99 99") is stored as the spec writes it ("08-99-99"), and the account number
/// without spaces; anything else is left as typed, for the schema to name.
pub(super) fn normalise_payment(payment: &mut serde_json::Map<String, Value>) {
    if let Some(Value::String(s)) = payment.get_mut("sort_code")
        && let Some(dashed) = crate::rules::modulus::sort_code_dashed(s)
    {
        *s = dashed;
    }
    if let Some(Value::String(s)) = payment.get_mut("account_number")
        && let Some(digits) = crate::rules::modulus::account_digits(s)
    {
        *s = digits;
    }
}

/// journey.md §3 Pet: "pet_cost (may carry a currency prefix)", and thousands
/// separators as people write them: the brand's own symbol, before or after the amount
/// ("£250", "250 €"), and the grouping ("1,200" in pounds; "1 200" with any kind of space) are
/// dropped, and a decimal comma in euros ("99,50") becomes a point, as the page does before
/// sending. Anything else (another currency's symbol, a comma that groups nothing) is left as
/// typed, for the schema to name: None. The table both sides test is tests/fixtures/amounts.json.
pub fn plain_amount(typed: &str, currency: crate::definitions::Currency) -> Option<String> {
    let symbol = match currency {
        crate::definitions::Currency::Gbp => '£',
        crate::definitions::Currency::Eur => '€',
    };
    let space = |c: char| c.is_whitespace() || c == '\u{a0}' || c == '\u{202f}';
    let trimmed = typed.trim_matches(space);
    let number = trimmed
        .strip_prefix(symbol)
        .or_else(|| trimmed.strip_suffix(symbol))
        .unwrap_or(trimmed)
        .trim_matches(space);
    let (whole, fraction) = match (currency, number.rsplit_once(',')) {
        // A comma before one or two last digits is the decimal point in euros.
        (crate::definitions::Currency::Eur, Some((w, f)))
            if (1..=2).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit()) =>
        {
            (w, Some(f))
        }
        _ => match number.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (number, None),
        },
    };
    let groups: Vec<&str> = whole
        .split(|c: char| space(c) || (c == ',' && currency == crate::definitions::Currency::Gbp))
        .collect();
    let grouped_well = groups
        .iter()
        .all(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()))
        && groups
            .first()
            .is_some_and(|g| g.len() <= 3 || groups.len() == 1)
        && groups.iter().skip(1).all(|g| g.len() == 3);
    if !grouped_well {
        return None;
    }
    let plain = match fraction {
        Some(f) => format!("{}.{f}", groups.concat()),
        None => groups.concat(),
    };
    (plain != typed).then_some(plain)
}

/// owner-payment.md §5 Owner: names and the phone number trimmed, the email trimmed and
/// lower-cased, a valid postcode formatted (upper case, one space before the last three
/// characters). An invalid postcode is left as typed, for the schema to name.
pub(super) fn normalise_owner(owner: &mut serde_json::Map<String, Value>) {
    for field in [
        "customer_first_name",
        "customer_last_name",
        "customer_contact_number",
        "houseNumberName",
        "customer_address_line_1",
        "customer_address_line_2",
        "customer_town",
        "customer_county",
        "introducer_code",
    ] {
        if let Some(Value::String(s)) = owner.get_mut(field) {
            *s = s.trim().to_owned();
        }
    }
    if let Some(Value::String(s)) = owner.get_mut("promotional_code") {
        *s = s.trim().to_uppercase();
    }
    if let Some(Value::String(s)) = owner.get_mut("email_address") {
        *s = s.trim().to_lowercase();
    }
    if let Some(Value::String(s)) = owner.get_mut("customer_contact_number")
        && let Some(digits) = phone_digits(s)
    {
        *s = digits;
    }
    if let Some(Value::String(s)) = owner.get_mut("customer_postcode")
        && let Some(postcode) = crate::definitions::postcode::Postcode::parse(s)
    {
        *s = postcode.to_string();
    }
}

/// A phone number as people write it, as the digits the spec's rules are about (owner-payment.md
/// §5 Owner: digits only, 9 to 12, starting 0): spaces, hyphens, dots and brackets
/// dropped, and the UK's +44 or 0044 (with or without a "(0)" after it) written as the leading 0.
/// `None` (left as typed, for the schema to name) when anything else is in it.
pub fn phone_digits(typed: &str) -> Option<String> {
    let compact: String = typed
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '-' | '.' | '(' | ')'))
        .collect();
    let international = compact
        .strip_prefix("+44")
        .or_else(|| compact.strip_prefix("0044"));
    let national = match international {
        // "+44 (0)7700 900123": the bracketed 0 is the national prefix, written once.
        Some(rest) => format!("0{}", rest.strip_prefix('0').unwrap_or(rest)),
        None => compact,
    };
    (!national.is_empty() && national.bytes().all(|b| b.is_ascii_digit())).then_some(national)
}

/// owner-payment.md §5 Owner: the policy holder is at least 18 today ("You must be 18 years old
/// or over to buy a policy") and at most 120 ("The maximum age for a policy holder is 120
/// years").
pub(super) fn owner_age(
    _defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let Some(dob) = document
        .pointer("/owner/customer_date_of_birth")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
    else {
        return Vec::new();
    };
    let field = "owner.customer_date_of_birth";
    let years = months_between(dob, ctx.today).div_euclid(12);
    if dob > ctx.today || years < 18 {
        vec![FieldError::new(field, "owner.dob.too_young")]
    } else if years > 120 {
        vec![FieldError::new(field, "owner.dob.too_old")]
    } else {
        Vec::new()
    }
}
