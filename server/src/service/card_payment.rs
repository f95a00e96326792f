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

use std::time::Instant;

use axum::http::HeaderMap;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::payments::{
    Charge, ChargeRequest, Charged, PaymentState, ProviderError, ProviderEvent, WebhookRefused,
};
use crate::service::error::{AppError, FieldMessage};
use crate::service::quote;
use crate::service::state::AppState;
use crate::store::{CardAttempt, CardPaymentRow, QuoteRow};

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
    let attempt = match latest.filter(|a| a.is_open() && a.payment_id.is_none()) {
        Some(open) => open,
        None => {
            let after = state
                .store
                .latest_card_attempt(&quote.id)
                .await?
                .map_or(0, |a| a.attempt);
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

fn unavailable(e: ProviderError) -> AppError {
    match e {
        ProviderError::Unavailable(m) => AppError::Unavailable(m),
        other => AppError::Unavailable(other.to_string()),
    }
}

/// The payment provider's webhook (issue 60): a payment's outcome, for the customer who never
/// came back from their bank's challenge. A payment taken buys the quote (once: the same
/// purchase as the customer's own request would make, into the session their browser would
/// have been moved to); a payment failed ends its attempt. Anything else is acknowledged.
///
/// Answers `Ok(true)` when handled (or nothing was to be done), `Ok(false)` when it should be
/// sent again later (the purchase could not be made just now).
pub async fn provider_webhook(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<bool, WebhookRefused> {
    let event = state.payments.webhook(headers, body)?;
    let ProviderEvent::Payment {
        quote_id,
        payment,
        paid,
    } = event
    else {
        return Ok(true);
    };
    let outcome = settle(state, &quote_id, &payment, paid).await;
    match outcome {
        Ok(()) => Ok(true),
        Err(e) => {
            tracing::warn!(quote = %quote_id, error = %e, "card payment webhook not handled; the provider sends it again");
            Ok(false)
        }
    }
}

async fn settle(
    state: &AppState,
    quote_id: &str,
    payment: &str,
    paid: bool,
) -> Result<(), AppError> {
    let Some(attempt) = state.store.card_attempt_of(quote_id, payment).await? else {
        // Not one of ours, or answered at once to the request that began it.
        return Ok(());
    };
    if attempt.outcome == "failed" {
        return Ok(());
    }
    if !paid {
        state.store.end_card_attempt(&attempt, "failed").await?;
        tracing::info!(quote = %quote_id, "card payment failed (webhook)");
        return Ok(());
    }
    let Some(quote) = state.store.quote_by_id(quote_id).await? else {
        return Ok(());
    };
    if quote.lifecycle == engine::journey::runtime::Lifecycle::Purchased {
        return Ok(());
    }
    buy_for(state, &quote, &attempt).await
}

/// Buys the quote with the attempt's key and session, as the customer's return would have.
async fn buy_for(
    state: &AppState,
    quote: &QuoteRow,
    attempt: &CardAttempt,
) -> Result<(), AppError> {
    use crate::service::purchase::{Attempted, attempt as buy};
    match buy(
        state,
        quote,
        &attempt.idempotency_key,
        &attempt.session_hash,
        &[],
        None,
        Instant::now(),
    )
    .await?
    {
        Attempted::Bought | Attempted::Raced => {
            tracing::info!(quote = %quote.id, "bought by the card provider's webhook");
            Ok(())
        }
        Attempted::Authenticate(_) => Err(AppError::Unavailable(
            "the provider says the payment is taken but it still waits on the customer".into(),
        )),
        Attempted::Refused(e) => {
            // The payment was taken but the quote cannot be bought (closed meanwhile): the
            // operator refunds it; the log says which.
            tracing::error!(quote = %quote.id, error = %e, "a card payment was taken for a quote that could not be bought");
            Ok(())
        }
    }
}

/// GET /payments/return?payment_intent=…: where the customer's bank sends the browser back after
/// a 3-D Secure challenge. A payment taken buys the quote (if its webhook has not already), and
/// the browser that began the purchase (its session cookie, with the purchase's key, makes the
/// session the purchase moved the quote to) is moved to the bought quote's session and sent to
/// the confirmation. Anything else (the challenge failed or was given up, or the payment is not
/// one this browser began) goes back to the page bought from, whose purchase request says what
/// became of it. Answers where to send the browser, and the session it holds from then on.
pub async fn returned_from_bank(
    state: &AppState,
    caller: &crate::service::caller::Caller,
    payment: &str,
) -> Result<(String, Option<crate::session::SessionToken>), AppError> {
    use engine::journey::runtime::Lifecycle;
    let back = |quote: Option<&QuoteRow>| -> Result<String, AppError> {
        let Some(quote) = quote else {
            return Ok("/quote".to_owned());
        };
        let path = page_of(state, quote)?;
        Ok(format!("{path}?payment_intent={payment}"))
    };
    let attempt = match state.store.card_attempt_by_payment(payment).await? {
        Some(a) if payment.len() <= 255 => a,
        _ => return Ok((back(None)?, None)),
    };
    // Only the browser that began the purchase: its cookie and the purchase's key make the
    // session the purchase moves the quote to.
    let next = caller
        .session
        .as_ref()
        .map(|cookie| cookie.after_purchase(&state.config.secret_key, &attempt.idempotency_key))
        .filter(|next| next.hash() == attempt.session_hash);
    let Some(next) = next else {
        return Ok((back(None)?, None));
    };
    let Some(quote) = state.store.quote_by_id(&attempt.quote_id).await? else {
        return Ok((back(None)?, None));
    };
    if quote.lifecycle != Lifecycle::Purchased
        && attempt.outcome != "failed"
        && let PaymentState::Paid(_) = state.payments.payment(payment).await.map_err(unavailable)?
    {
        buy_for(state, &quote, &attempt).await?;
    }
    let now = state.store.quote_by_id(&attempt.quote_id).await?;
    match now {
        Some(bought) if bought.lifecycle == Lifecycle::Purchased => {
            Ok((page_of(state, &bought)?, Some(next)))
        }
        other => Ok((back(other.as_ref())?, None)),
    }
}

/// The page a quote is at: the one bought from, or its confirmation once bought.
fn page_of(state: &AppState, quote: &QuoteRow) -> Result<String, AppError> {
    use engine::journey::runtime::{self, Lifecycle};
    let journey = quote::journey(state, quote)?;
    let step = if quote.lifecycle == Lifecycle::Purchased {
        quote::purchased_position(journey)?.0
    } else {
        let rules = quote::rule_context(state, quote);
        let position = runtime::position_of(&state.defs, journey, &quote.document, &rules)?;
        journey.step(&position.furthest).ok_or_else(|| {
            AppError::Internal(format!(
                "position names an unknown step {}",
                position.furthest
            ))
        })?
    };
    Ok(crate::service::view::step_url(
        journey,
        step,
        state.defs.brand(&quote.brand),
    ))
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
