//! `policy.bought`: what the insurer's policy administration and Bacs bureau need of a purchase
//!: the policies, the customer, the pets, the cover and excess, the prices with IPT,
//! the payment method and schedule, and the Direct Debit mandate with its account number sealed
//! for the receiver (`crate::crypto::sealing`). The customer's and pets' answers are sent as the
//! question sets store them (answers marked `writeOnly` are never stored, so never sent): a
//! question a product team adds reaches the insurer without a change here.

use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use engine::journey::quoting::{Premiums, Quoted};

use super::{AccountKey, EventType};
use crate::crypto::sealing as account;
use crate::store::{NewEvent, NewPayment, NewPurchase, QuoteRow};

/// What a purchase's event is made from.
#[derive(Debug)]
pub struct Bought<'a> {
    pub purchase: &'a NewPurchase,
    /// The quote bought: its reference, brand, channel and journey.
    pub quote: &'a QuoteRow,
    /// The bought quote's document (its answers and prices).
    pub document: &'a Value,
    /// ISO 4217: what every amount is in.
    pub currency: &'static str,
    /// A Direct Debit payer's account number, decrypted from rest to be sealed for the receiver.
    pub account_number: Option<&'a str>,
    /// The receiver's key; without one (no receiver configured) the number is not sent.
    pub key: Option<&'a AccountKey>,
}

/// The pet's keys that are the quote's working, not the customer's answers.
const WORKING: &[&str] = &["original_id", "product"];

/// The event of a purchase, in the purchase's stream.
pub fn policy_bought(b: &Bought<'_>) -> Result<NewEvent, String> {
    let p = b.purchase;
    let quoted = Quoted::of(b.document);
    let pets: &[Value] = b
        .document
        .get("pets")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let policies: Vec<Value> = p
        .policies
        .iter()
        .map(|policy| {
            let at = pets.iter().position(|pet| {
                pet.get("original_id").and_then(Value::as_i64) == Some(policy.pet_original_id)
            });
            let answers = at.and_then(|i| pets[i].as_object()).map_or_else(Map::new, |m| {
                m.iter()
                    .filter(|(k, _)| !WORKING.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            });
            let premiums = at.and_then(|i| {
                quoted
                    .as_ref()
                    .and_then(|q| q.premiums(i, &policy.product_code))
            });
            let code = policy.product_code.as_str();
            json!({
                "policy_number": policy.policy_number,
                "start_date": policy.start_date,
                "pet": { "id": policy.pet_original_id, "answers": answers },
                "cover": {
                    "product_code": code,
                    "cover_type": code.get(..2).unwrap_or_default(),
                    "vet_fee_limit": code.get(2..).and_then(|l| l.parse::<u32>().ok()),
                    "excess": premiums.map(|q| money(q.set_excess)),
                    "claim_contribution_percent": premiums.map(|q| q.coinsurance_percent.normalize().to_string()),
                },
                "premium": premium(policy.monthly_premium, policy.annual_premium, premiums),
            })
        })
        .collect();
    let owner = b
        .document
        .get("owner")
        .cloned()
        .unwrap_or_else(|| json!({}));
    let data = json!({
        "purchase_id": p.id,
        "quote_reference": b.quote.quote_ref,
        "brand": b.quote.brand,
        "channel": b.quote.channel,
        "journey": b.quote.journey,
        "currency": b.currency,
        "cover_start": p.cover_start,
        "customer": owner,
        "policies": policies,
        "payment": payment(b)?,
    });
    Ok(super::event(EventType::PolicyBought, &p.id, data))
}

/// An amount as its decimal text to the penny, two places always (never a float).
fn money(amount: Decimal) -> String {
    format!("{:.2}", amount.round_dp(2))
}

fn premium(monthly: Decimal, annual: Decimal, quoted: Option<&Premiums>) -> Value {
    json!({
        "monthly": money(monthly),
        "annual": money(annual),
        "annual_ipt": quoted.map(|q| money(q.annual_ipt)),
        "monthly_before_discounts": quoted.map(|q| money(q.monthly_before_discounts)),
        "discounts_monthly": quoted.map(|q| json!({
            "multi_pet": money(q.multi_pet),
            "offer_code": money(q.offer_code),
            "loyalty": money(q.loyalty),
        })),
    })
}

fn payment(b: &Bought<'_>) -> Result<Value, String> {
    let p = b.purchase;
    let frequency = match p.payment_frequency.as_str() {
        "AP" => "annual",
        "MP" => "monthly",
        _ => "none",
    };
    let schedule: Vec<Value> = p
        .collections
        .iter()
        .map(|(date, amount, payments)| json!({ "date": date, "amount": amount, "payments": payments }))
        .collect();
    Ok(match &p.payment {
        NewPayment::DirectDebit {
            mandate_reference,
            account_name,
            sort_code,
            account_number_masked,
            ..
        } => {
            let sealed = match (b.account_number, b.key) {
                (Some(number), Some(key)) => json!({
                    "algorithm": account::ALGORITHM,
                    "key_id": key.id(),
                    "label": mandate_reference,
                    "ciphertext": key.seal(number, mandate_reference)?,
                }),
                _ => Value::Null,
            };
            json!({
                "method": "direct_debit",
                "frequency": frequency,
                "collection_day": p.payment_day,
                "schedule": schedule,
                "mandate": {
                    "reference": mandate_reference,
                    "account_name": account_name,
                    "sort_code": sort_code,
                    "account_number_masked": account_number_masked,
                    "account_number": sealed,
                },
            })
        }
        NewPayment::Card(card) => json!({
            "method": "card",
            "frequency": frequency,
            "collection_day": p.payment_day,
            "schedule": schedule,
            "card": {
                "provider": card.provider,
                "charge_reference": card.charge_reference,
                "amount": money(card.amount),
                "currency": card.currency,
                "issuer": card.issuer,
                "last4": card.last4,
                "expiry": card.expiry,
                "kept_for_collections": match (&card.customer_reference, &card.payment_method_reference) {
                    (Some(customer), Some(method)) => json!({ "customer": customer, "payment_method": method }),
                    _ => Value::Null,
                },
            },
        }),
        NewPayment::Free => json!({
            "method": "none",
            "frequency": frequency,
            "schedule": schedule,
        }),
    })
}
