//! The policy events a customer's actions owe the insurer, made where the service
//! knows what they carry: the purchase's event (with the account number sealed for the
//! receiver), the portal registration, the preferences changed after buying.

use serde_json::Value;

use crate::events::bought::{Bought, policy_bought};
use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::store::{NewEvent, NewPurchase, QuoteRow};

/// `policy.bought` for `purchase` of `quote`, whose bought document is `document`; a Direct
/// Debit payer's `account_number` (decrypted from rest) is sealed for the receiver.
pub fn bought(
    state: &AppState,
    quote: &QuoteRow,
    document: &Value,
    purchase: &NewPurchase,
    account_number: Option<&str>,
) -> Result<NewEvent, AppError> {
    let voice = crate::service::quote::voice(state, quote);
    policy_bought(&Bought {
        purchase,
        quote,
        document,
        currency: voice.money().currency().code(),
        account_number,
        key: state.events.account_key(),
    })
    .map_err(|e| AppError::Internal(format!("policy.bought: {e}")))
}

/// Stores the portal password's hash with the `portal.registered` event; false when the
/// purchase already has one.
pub async fn register_portal(
    state: &AppState,
    purchase_id: &str,
    quote: &QuoteRow,
    email: &str,
    hash: &str,
) -> Result<bool, AppError> {
    let event = crate::events::portal_registered(purchase_id, &quote.quote_ref, email);
    let done = state
        .store
        .register_portal(purchase_id, email, hash, &event)
        .await?;
    if done {
        state.events.wake();
    }
    Ok(done)
}

/// The marketing and policy communication preferences a quote's document holds, as
/// `preferences.changed` carries them: each marketing channel opted in or not (an answer not
/// given is not an opt-in), and documents by post or online.
pub fn preferences_of(document: &Value) -> (Value, bool) {
    let given = document.pointer("/owner/marketing_preferences");
    let opted = |channel: &str| {
        given
            .and_then(|m| m.get(channel))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    let marketing = serde_json::json!({
        "optin_email": opted("optin_email"),
        "optin_post": opted("optin_post"),
        "optin_sms": opted("optin_sms"),
        "optin_phone": opted("optin_phone"),
    });
    let by_post = document
        .pointer("/owner/documents_by_post")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    (marketing, by_post)
}

/// `preferences.changed` for a bought quote whose preferences were `before` and are now as
/// `document` holds them; none when they did not change (an edit of something else, or the same
/// choice saved again).
pub fn preferences_changed(
    before: &(Value, bool),
    document: &Value,
    purchase_id: &str,
    quote: &QuoteRow,
) -> Option<NewEvent> {
    let now = preferences_of(document);
    (now != *before)
        .then(|| crate::events::preferences_changed(purchase_id, &quote.quote_ref, &now.0, now.1))
}
