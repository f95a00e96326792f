//! The policy events a customer's actions owe the insurer (issue 60), made where the service
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
        quote_reference: &quote.quote_ref,
        brand: &quote.brand,
        channel: &quote.channel,
        journey: &quote.journey,
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
