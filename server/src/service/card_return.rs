//! A card payment's outcome when it arrives after the purchase request that began it: by the
//! provider's webhook (for a customer who never came back from their bank's 3-D Secure
//! challenge, or whose request's answer was lost), or by the browser's return from the
//! challenge. Either buys the quote once, as the customer's own request would have
//! (`service::purchase`), with the key and session the attempt was begun with
//! (`service::card_payment`), or gives the money back (`service::card_settle`).

use crate::payments::{PaymentState, ProviderEvent, WebhookRefused};
use crate::service::card_payment::unavailable;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;
use crate::store::QuoteRow;

/// What became of a provider's webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookAnswer {
    /// Handled, or nothing was to be done.
    Handled,
    /// To be sent again later: the purchase could not be made just now.
    Later,
    /// This provider sends no webhooks.
    NotTaken,
    /// Its signature or body does not hold: what is wrong.
    Refused(String),
}

/// The payment provider's webhook: a payment's outcome, for the customer who never
/// came back from their bank's challenge. A payment taken buys the quote (once: the same
/// purchase as the customer's own request would make, into the session their browser would
/// have been moved to); a payment failed ends its attempt. Anything else is acknowledged.
///
pub async fn provider_webhook(
    state: &AppState,
    header: &(dyn Fn(&str) -> Option<String> + Sync),
    body: &[u8],
) -> WebhookAnswer {
    let event = match state.payments.webhook(header, body) {
        Ok(event) => event,
        Err(WebhookRefused::NotTaken) => return WebhookAnswer::NotTaken,
        Err(refused) => return WebhookAnswer::Refused(refused.to_string()),
    };
    let ProviderEvent::Payment {
        quote_id,
        attempt,
        payment,
        paid,
    } = event
    else {
        return WebhookAnswer::Handled;
    };
    match settle(state, &quote_id, attempt, &payment, paid).await {
        Ok(()) => WebhookAnswer::Handled,
        Err(e) => {
            tracing::warn!(quote = %quote_id, error = %e, "card payment webhook not handled; the provider sends it again");
            WebhookAnswer::Later
        }
    }
}

/// A payment's outcome by webhook: its attempt found by the payment's id, or, when the answer
/// that would have named it was lost, by the quote and attempt pawpath put in it.
async fn settle(
    state: &AppState,
    quote_id: &str,
    attempt: Option<i64>,
    payment: &str,
    paid: bool,
) -> Result<(), AppError> {
    let found = match state.store.card_attempt_of(quote_id, payment).await? {
        Some(a) => Some(a),
        None => match attempt {
            Some(n) => state
                .store
                .card_attempt_numbered(quote_id, n)
                .await?
                .filter(|a| a.payment_id.is_none()),
            None => None,
        },
    };
    let Some(attempt) = found else {
        // Not one of ours.
        return Ok(());
    };
    // As the provider has it now (webhooks arrive late and out of order): what the event says
    // is only a prompt to look.
    let now = if paid {
        state.payments.payment(payment).await.map_err(unavailable)?
    } else {
        PaymentState::Failed
    };
    crate::service::card_settle::settle_found(state, &attempt, payment, now).await
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
        && attempt.is_unsettled()
        && let PaymentState::Paid(_) = state.payments.payment(payment).await.map_err(unavailable)?
    {
        crate::service::card_settle::buy_for(state, &quote, &attempt).await?;
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
