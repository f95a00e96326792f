//! A card payer's first payment (issue 6, issue 60; owner-payment.md §2 /creditcard-confirmation):
//! taken through the payment provider when the quote is bought, exactly once, however many
//! requests arrive and whoever brings the outcome (the customer's browser, or the provider's
//! webhook when the customer has gone).
//!
//! Each attempt is written (`card_attempts`) before the provider is asked, with the purchase's
//! key and the session the purchase moves the quote to. When the card's issuer asks the
//! customer to authenticate (3-D Secure), the attempt waits with the provider's payment; the
//! customer is sent to the challenge and comes back to the page, whose purchase request (or the
//! webhook, whichever comes first) reads the payment as the provider now has it and buys, or
//! says the card was declined. A failed or abandoned attempt ends, and the next "Pay now" begins
//! another, with a new key at the provider.

use rust_decimal::Decimal;
use serde_json::Value;

use crate::payments::{Charge, ChargeRequest, Charged, PaymentState, ProviderError};
use crate::service::error::{AppError, FieldMessage};
use crate::service::quote;
use crate::service::state::AppState;
use crate::store::{CardPaymentRow, QuoteRow};

pub const CARD_TOKEN: &str = "/payment/card_token";

/// Who is paying, and from where.
pub struct Payer<'a> {
    /// The purchase request's key.
    pub key: &'a str,
    /// The session the purchase moves the quote to.
    pub session_hash: &'a str,
    /// The provider's payment the customer's browser has come back from (a 3-D Secure
    /// challenge's return), if it has.
    pub returned: Option<&'a str>,
    /// Where the browser comes back to after a challenge (the page bought from).
    pub return_url: String,
}

/// What taking the payment came to.
pub enum CardOutcome {
    Paid(CardPaymentRow),
    /// The customer's bank asks them to authenticate: the browser goes here.
    Authenticate(String),
    /// The customer's to put right (a field error), or a refusal.
    Refused(AppError),
}

/// Takes a card payer's first payment, or finds the one an earlier request began.
pub async fn charge_card(
    state: &AppState,
    quote: &QuoteRow,
    text: &(dyn Fn(&str) -> String + Sync),
    amount: Decimal,
    recurring: bool,
    payer: &Payer<'_>,
) -> Result<CardOutcome, AppError> {
    let refuse = |key: &str| {
        CardOutcome::Refused(AppError::Validation(vec![FieldMessage {
            field: "payment.card_token".into(),
            message: quote::voice(state, quote).t(key),
        }]))
    };
    let declined = || {
        tracing::info!(quote = %quote.id, "card declined");
        crate::metrics::card_declined();
        refuse("card_confirmation.declined")
    };
    let paid = |charge: Charge| {
        CardOutcome::Paid(CardPaymentRow {
            provider: state.payments.name().to_owned(),
            charge_reference: charge.id,
            amount: charge.amount,
            currency: charge.currency,
            card_name: text("card_name"),
            issuer: text("card_issuer"),
            last4: text("card_last4"),
            expiry: text("card_expiry"),
            customer_reference: charge.kept.as_ref().map(|k| k.customer.clone()),
            payment_method_reference: charge.kept.map(|k| k.payment_method),
        })
    };
    let latest = state.store.latest_card_attempt(&quote.id).await?;
    // Begun earlier (waiting on the customer's bank, or taken by a request whose purchase did
    // not complete): as the provider now has it. A payment taken is never taken again.
    if let Some(open) = latest.as_ref().filter(|a| a.outcome != "failed")
        && let Some(payment) = &open.payment_id
    {
        let now = state.payments.payment(payment).await.map_err(unavailable)?;
        match now {
            PaymentState::Paid(charge) => {
                state.store.end_card_attempt(open, "paid").await?;
                return Ok(paid(charge));
            }
            PaymentState::Authenticating { .. } if !open.is_open() => {}
            PaymentState::Authenticating { url } if payer.returned.is_none() => {
                // A second click, or the page opened again before the challenge was done.
                if let Some(url) = url {
                    return Ok(CardOutcome::Authenticate(url));
                }
            }
            PaymentState::Authenticating { .. } => {
                // Back from the challenge without finishing it: given up, unless it was taken
                // meanwhile.
                if let PaymentState::Paid(charge) =
                    state.payments.cancel(payment).await.map_err(unavailable)?
                {
                    state.store.end_card_attempt(open, "paid").await?;
                    return Ok(paid(charge));
                }
                state.store.end_card_attempt(open, "failed").await?;
                return Ok(declined());
            }
            PaymentState::Failed => {
                state.store.end_card_attempt(open, "failed").await?;
                if payer.returned.is_some() {
                    return Ok(declined());
                }
            }
        }
    } else if let Some(ended) = latest.as_ref().filter(|a| !a.is_open())
        && payer.returned.is_some()
        && ended.payment_id.as_deref() == payer.returned
    {
        // Back from a challenge whose failure the provider's webhook brought first.
        return Ok(declined());
    }
    // Still open without the provider's answer (it was lost: asked again with the same key, so
    // answered with the same payment), or a new attempt.
    // The attempts' numbers only grow (one ended above keeps its number): the next follows the
    // latest read.
    let after = latest.as_ref().map_or(0, |a| a.attempt);
    let attempt = match latest.filter(|a| a.is_open() && a.payment_id.is_none()) {
        Some(open) => open,
        None => {
            state
                .store
                .begin_card_attempt(&quote.id, after, payer.key, payer.session_hash)
                .await?
        }
    };
    let Some(sealed) = state.store.secret(&quote.id, CARD_TOKEN).await? else {
        state.store.end_card_attempt(&attempt, "failed").await?;
        return Ok(refuse("payment.card.token.invalid"));
    };
    let token = state
        .config
        .encryption_key
        .decrypt(&quote.id, CARD_TOKEN, &sealed)
        .map_err(|e| AppError::Internal(format!("quote {}: card token {e}", quote.id)))?;
    // The brand's currency (owner-payment.md §9 Currency).
    let currency = state
        .defs
        .brand(&quote.brand)
        .map_or("GBP", |b| b.currency.code());
    let key = attempt.provider_key();
    let request = ChargeRequest {
        token: &token,
        amount,
        currency,
        idempotency_key: &key,
        return_url: &payer.return_url,
        quote_id: &quote.id,
        recurring,
        email: quote
            .document
            .pointer("/owner/email_address")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default(),
    };
    match state.payments.charge(request).await {
        Ok(Charged::Paid(charge)) => {
            state
                .store
                .card_attempt_payment(&attempt, &charge.id)
                .await?;
            state.store.end_card_attempt(&attempt, "paid").await?;
            Ok(paid(charge))
        }
        Ok(Charged::Authenticate { payment, url }) => {
            state.store.card_attempt_payment(&attempt, &payment).await?;
            tracing::info!(quote = %quote.id, "card payment waits on 3-D Secure");
            Ok(CardOutcome::Authenticate(url))
        }
        Err(ProviderError::Declined) => {
            state.store.end_card_attempt(&attempt, "failed").await?;
            Ok(declined())
        }
        Err(ProviderError::UnknownToken) => {
            state.store.end_card_attempt(&attempt, "failed").await?;
            Ok(refuse("payment.card.token.invalid"))
        }
        Err(ProviderError::KeyReused) => Err(AppError::Internal(format!(
            "quote {}: the provider holds a different payment for this quote's attempt {}",
            quote.id, attempt.attempt
        ))),
        // Left open: the next request asks again with the same key.
        Err(ProviderError::Unavailable(m)) => Err(AppError::Unavailable(m)),
    }
}

pub(crate) fn unavailable(e: ProviderError) -> AppError {
    match e {
        ProviderError::Unavailable(m) => AppError::Unavailable(m),
        other => AppError::Unavailable(other.to_string()),
    }
}

/// The payment-return query the browser comes back with (`?payment_intent=pi_…`): the
/// provider's payment id, if well formed.
pub fn returned_payment(body: &serde_json::Map<String, Value>) -> Result<Option<String>, AppError> {
    match body.get("payment_return") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s))
            if (1..=255).contains(&s.len())
                && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
        {
            Ok(Some(s.clone()))
        }
        Some(_) => Err(AppError::BadRequest(
            "payment_return must be the provider's payment id (letters, digits and underscores, at most 255)".into(),
        )),
    }
}
