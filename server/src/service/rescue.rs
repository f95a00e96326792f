//! The rehoming flow's free cover as pages and calls show it (owner-payment.md §9).

use chrono::NaiveDate;
use serde_json::{Value, json};

use crate::store::PurchaseRow;

/// The free cover's dates: from `start` for the cover's days, the start day included.
pub fn cover_dates(
    cover: &engine::definitions::RescueCover,
    start: NaiveDate,
) -> (NaiveDate, NaiveDate) {
    let end = start + chrono::Days::new(u64::from(cover.days.saturating_sub(1)));
    (start, end)
}

/// What the rehoming confirmation page and /api/getrescueproduct show of the free cover
/// (owner-payment.md §9: 28 days, no third party liability): its dates (from today, the day it
/// is activated, or as bought), limit and the pet's excess, the centre, and once activated the
/// policy number.
pub fn rescue_view(
    defs: &engine::Definitions,
    brand: &str,
    document: &Value,
    today: NaiveDate,
    purchase: Option<&PurchaseRow>,
) -> Value {
    let Some(file) = defs.rehoming() else {
        return Value::Null;
    };
    let cover = &file.cover;
    let start = purchase
        .and_then(|p| NaiveDate::parse_from_str(&p.cover_start, "%Y-%m-%d").ok())
        .unwrap_or(today);
    let (start, end) = cover_dates(cover, start);
    let species = document
        .pointer("/pets/0/pet_type")
        .and_then(Value::as_str)
        .unwrap_or("dog");
    let language = document
        .get("language")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let money = defs.voice(brand, language).money();
    let pounds = |whole: &str| {
        whole
            .parse::<rust_decimal::Decimal>()
            .map(|a| money.amount(a))
            .unwrap_or_default()
    };
    let centre_id = document.pointer("/rehoming/centre").and_then(Value::as_str);
    let centre = defs
        .rehoming_centres(brand)
        .iter()
        .find(|c| Some(c.id.as_str()) == centre_id);
    json!({
        "code": cover.code,
        "days": cover.days,
        "start": start.to_string(),
        "end": end.to_string(),
        "vet_fee_limit": pounds(&cover.vet_fee_limit),
        "excess": cover.excess.get(species).map(|e| pounds(e)),
        "third_party_liability": cover.third_party_liability,
        "centre": centre,
        "rehome_date": document.pointer("/rehoming/rehome_date"),
        "certificate_number": document.pointer("/pets/0/rehoming_certificate_number"),
        "policy_number": purchase.and_then(|p| p.policies.first()).map(|p| p.policy_number.clone()),
    })
}
