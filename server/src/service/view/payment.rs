//! The payment page's view (owner-payment.md §2): the ways to pay, Direct Debit collection dates,
//! the bank details panel and the account number as the customer gave it.

use serde_json::{Map, Value, json};

use engine::definitions::Step;

use crate::service::view::calls::form_url;
use crate::service::view::forms::question_view;
use crate::service::view::input::ViewInput;
use crate::store::QuoteRow;

/// The decrypted account number when the page is the bank details panel (owner-payment.md §2
/// Bank details panel), and only then.
pub async fn account_number_for(
    state: &crate::service::state::AppState,
    viewing: &Step,
    quote: &QuoteRow,
) -> Result<Option<String>, crate::service::error::AppError> {
    if viewing.view != engine::definitions::View::PaymentConfirmation {
        return Ok(None);
    }
    const FIELD: &str = "/payment/account_number";
    let Some(sealed) = state.store.secret(&quote.id, FIELD).await? else {
        return Ok(None);
    };
    state
        .config
        .encryption_key
        .decrypt(&quote.id, FIELD, &sealed)
        .map(Some)
        .map_err(|e| {
            crate::service::error::AppError::Internal(format!(
                "quote {}: account number {e}",
                quote.id
            ))
        })
}

/// How the quote's brand takes payment (journeys/brands: owner-payment.md §1 "Direct Debit, or
/// card where offered"), on the payment page: the methods, and for card the card form (the card
/// question set, which the provider checks too) and where the browser sends it.
pub(super) fn payment_options_view(input: &ViewInput<'_>) -> Value {
    use engine::definitions::PaymentMethod;
    if input.viewing.view != engine::definitions::View::Payment {
        return Value::Null;
    }
    let brand = input.defs.brand(&input.quote.brand);
    let methods: Vec<&str> = brand
        .map(|b| b.payment_methods.iter().map(|m| m.code()).collect())
        .unwrap_or_else(|| vec![PaymentMethod::DirectDebit.code()]);
    let card = match (
        brand.is_some_and(|b| b.takes(PaymentMethod::Card)),
        input.defs.question_set("card"),
    ) {
        (true, Some(qs)) => json!({
            "questions": question_view(
                qs,
                // Nothing of the card is held; its billing address starts as the owner's.
                &input.quote.document,
                None,
                form_url(input.defs, &input.quote.brand, input.voice.language(), &qs.id),
            ),
            "provider": input.card_provider,
        }),
        _ => Value::Null,
    };
    json!({ "methods": methods, "card": card })
}

/// The payment page's payment-date notice (owner-payment.md §2, §4 Direct Debit date): for each
/// frequency and each collection day, the first collection (date, amount, how many payments it
/// takes) and the regular amount, for a mandate set up today.
pub(super) fn collections_view(
    input: &ViewInput<'_>,
    summary: &engine::journey::quoting::Summary,
) -> Value {
    use engine::rules::collections::{Frequency, schedule};
    if input.viewing.view != engine::definitions::View::Payment {
        return Value::Null;
    }
    if !summary.every_pet_chosen {
        return Value::Null;
    }
    let start = engine::rules::domain::cover_start(&input.quote.document, input.rules);
    let mut out = Map::new();
    for (key, frequency, amount) in [
        ("MP", Frequency::Monthly, summary.monthly),
        ("AP", Frequency::Annual, summary.annual),
    ] {
        let mut days = Map::new();
        for day in 1..=28u32 {
            let plan = schedule(
                input.rules.today,
                start,
                day,
                frequency,
                amount,
                input.holidays,
            );
            if let Some(first) = plan.first() {
                days.insert(
                    day.to_string(),
                    json!({ "date": first.date, "amount": first.amount, "payments": first.payments, "regular": amount }),
                );
            }
        }
        out.insert(key.to_owned(), Value::Object(days));
    }
    Value::Object(out)
}

/// The bank details panel (owner-payment.md §2): the account name, the full account number,
/// the sort code as 2-2-2 with hyphens, the cover start date, and the bank's name and branch
/// address when the sort code's bank is known, on that page only. With them, what pressing its
/// button commits to: the first collection of the mandate set up today, at the
/// frequency and on the day chosen, worked out as the payment page's notice was.
pub(super) fn bank_details_view(
    input: &ViewInput<'_>,
    summary: &engine::journey::quoting::Summary,
) -> Value {
    let Some(number) = &input.account_number else {
        return Value::Null;
    };
    let payment = input
        .quote
        .document
        .get("payment")
        .cloned()
        .unwrap_or(json!({}));
    let branch = payment
        .get("sort_code")
        .and_then(Value::as_str)
        .and_then(|s| input.banks.branch(s));
    json!({
        "account_name": payment.get("account_name"),
        "bank_name": branch.as_ref().map(|b| b.name.clone()),
        "bank_address": branch.map(|b| b.address),
        "account_number": number,
        "sort_code": payment.get("sort_code"),
        "cover_start": engine::rules::domain::cover_start(&input.quote.document, input.rules),
        "payment_frequency": payment.get("payment_frequency"),
        "payment_day": payment.get("payment_day"),
        "first_collection": first_collection(input, summary, &payment),
    })
}

/// The first Direct Debit collection for the stored frequency and day, for a mandate set up
/// today; `null` until every pet has its cover and a day is chosen.
pub(super) fn first_collection(
    input: &ViewInput<'_>,
    summary: &engine::journey::quoting::Summary,
    payment: &Value,
) -> Value {
    use engine::rules::collections::{Frequency, schedule};
    if !summary.every_pet_chosen {
        return Value::Null;
    }
    let (frequency, regular) = match payment.get("payment_frequency").and_then(Value::as_str) {
        Some("AP") => (Frequency::Annual, summary.annual),
        _ => (Frequency::Monthly, summary.monthly),
    };
    let Some(day) = payment
        .get("payment_day")
        .and_then(Value::as_u64)
        .and_then(|d| u32::try_from(d).ok())
        .filter(|d| (1..=28).contains(d))
    else {
        return Value::Null;
    };
    let start = engine::rules::domain::cover_start(&input.quote.document, input.rules);
    let plan = schedule(
        input.rules.today,
        start,
        day,
        frequency,
        regular,
        input.holidays,
    );
    plan.first().map_or(Value::Null, |first| {
        json!({ "date": first.date, "amount": first.amount, "payments": first.payments, "regular": regular })
    })
}
