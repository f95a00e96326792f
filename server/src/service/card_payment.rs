//! A card payer's first payment (owner-payment.md §2 /creditcard-confirmation): taken through the
//! payment provider when the quote is bought, exactly once, however many requests arrive and
//! whoever brings the outcome (the customer's browser, the provider's webhook, or the
//! reconciliation that asks the provider when neither came: `service::card_settle`).
//!
//! Each attempt is written (`card_attempts`) before the provider is asked, with the purchase's
//! key, the session the purchase moves the quote to, and what the provider is asked (the card's
//! token as the quote keeps it, the amount, the currency): an answer lost on the way is asked for
//! again with the same key and exactly the same parameters, so the provider answers with the
//! payment it made, and a new card or a new amount is a new attempt with a new key, once the one
//! before is settled. Each payment carries its quote and attempt, so its webhook finds it even
//! when no answer ever named it. When the card's issuer asks the customer to authenticate (3-D
//! Secure), the attempt waits with the provider's payment; the customer is sent to the
//! challenge and comes back to the page, whose purchase request (or the webhook, whichever comes
//! first) reads the payment as the provider now has it and buys, or says the card was declined.
//! An attempt is settled (`paid`) in the statement that records the purchase, never before: a
//! payment taken that bought nothing stays unsettled until it is refunded.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::payments::{ChargeRequest, Charged, PaymentState, ProviderError};
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
    /// The customer's own purchase request: only it begins a new attempt. The provider's
    /// webhook, the bank's return and the reconciliation complete one begun, never another.
    pub present: bool,
}

/// What taking the payment came to.
pub enum CardOutcome {
    Paid(CardPaymentRow),
    /// The customer's bank asks them to authenticate: the browser goes here.
    Authenticate(String),
    /// The customer's to put right (a field error), or a refusal.
    Refused(AppError),
}

/// What an attempt asks the provider, kept with it: a lost answer is asked for again with
/// exactly these.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Asked {
    /// The card's token, sealed as the quote keeps it.
    token: String,
    amount: String,
    currency: String,
    recurring: bool,
    email: String,
    /// What a receipt shows of the card.
    card_name: String,
    issuer: String,
    last4: String,
    expiry: String,
}

impl Asked {
    fn amount(&self) -> Decimal {
        self.amount.parse().unwrap_or_default()
    }

    /// Whether a payment the provider took (`amount` in `currency`) is the one due: the same
    /// amount in the same currency.
    fn is_due(&self, amount: Decimal, currency: &str) -> bool {
        amount == self.amount() && currency.eq_ignore_ascii_case(&self.currency)
    }

    /// The same payment: the same card for the same amount, kept or not alike.
    fn same_payment(&self, other: &Asked, state: &AppState, quote_id: &str) -> bool {
        let open = |a: &Asked| {
            state
                .config
                .encryption_key
                .decrypt(quote_id, CARD_TOKEN, &a.token)
                .ok()
        };
        self.amount() == other.amount()
            && self.currency == other.currency
            && self.recurring == other.recurring
            && self.email == other.email
            && (self.token == other.token || open(self).is_some_and(|t| open(other) == Some(t)))
    }

    fn row(&self, state: &AppState, charge: crate::payments::Charge) -> CardPaymentRow {
        CardPaymentRow {
            provider: state.payments.name().to_owned(),
            charge_reference: charge.id,
            amount: charge.amount,
            currency: charge.currency,
            card_name: self.card_name.clone(),
            issuer: self.issuer.clone(),
            last4: self.last4.clone(),
            expiry: self.expiry.clone(),
            customer_reference: charge.kept.as_ref().map(|k| k.customer.clone()),
            payment_method_reference: charge.kept.map(|k| k.payment_method),
        }
    }
}

/// The attempt's own request, if it kept one.
pub(crate) fn asked_of(attempt: &CardAttempt) -> Option<Asked> {
    attempt
        .request
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
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
    let voice = quote::voice(state, quote);
    let refuse = |key: &str| {
        CardOutcome::Refused(AppError::Validation(vec![FieldMessage {
            field: "payment.card_token".into(),
            message: voice.t(key),
        }]))
    };
    let declined = || {
        tracing::info!(quote = %quote.id, "card declined");
        crate::metrics::card_declined();
        refuse("card_confirmation.declined")
    };
    let Some(sealed) = state.store.secret(&quote.id, CARD_TOKEN).await? else {
        return Ok(refuse("payment.card.token.invalid"));
    };
    // The brand's currency (owner-payment.md §9 Currency).
    let currency = state
        .defs
        .brand(&quote.brand)
        .map_or("GBP", |b| b.currency.code());
    let due = Asked {
        token: sealed,
        amount: amount.to_string(),
        currency: currency.to_owned(),
        recurring,
        email: quote
            .document
            .pointer("/owner/email_address")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        card_name: text("card_name"),
        issuer: text("card_issuer"),
        last4: text("card_last4"),
        expiry: text("card_expiry"),
    };
    let latest = state.store.latest_card_attempt(&quote.id).await?;
    match &latest {
        Some(open) if open.is_unsettled() => {
            if let Some(outcome) = settle_latest(state, quote, open, &due, payer).await? {
                return Ok(match outcome {
                    Latest::Paid(row) => CardOutcome::Paid(*row),
                    Latest::Authenticate(url) => CardOutcome::Authenticate(url),
                    Latest::Declined => declined(),
                });
            }
        }
        Some(ended)
            if payer.returned.is_some() && ended.payment_id.as_deref() == payer.returned =>
        {
            // Back from a challenge whose failure the provider's webhook brought first.
            return Ok(declined());
        }
        _ => {}
    }
    if !payer.present {
        // Nothing begun for this outcome to complete.
        return Ok(declined());
    }
    // A new attempt. The attempts' numbers only grow: the next follows the latest read (two
    // requests of one click both find the one the first began).
    let after = latest.as_ref().map_or(0, |a| a.attempt);
    let request =
        serde_json::to_string(&due).map_err(|e| AppError::Internal(format!("attempt: {e}")))?;
    let attempt = state
        .store
        .begin_card_attempt(&quote.id, after, payer.key, payer.session_hash, &request)
        .await?;
    let asked = asked_of(&attempt).unwrap_or(due);
    match ask(state, quote, &attempt, &asked, &payer.return_url).await {
        Ok(Charged {
            payment,
            state: now,
        }) => {
            state.store.card_attempt_payment(&attempt, &payment).await?;
            Ok(
                match taken(state, quote, &attempt, &payment, now, &asked, true).await? {
                    Latest::Paid(row) => CardOutcome::Paid(*row),
                    Latest::Authenticate(url) => CardOutcome::Authenticate(url),
                    Latest::Declined => declined(),
                },
            )
        }
        Err(ProviderError::Declined) => {
            state.store.end_card_attempt(&attempt, "failed").await?;
            Ok(declined())
        }
        Err(ProviderError::UnknownToken) => {
            state.store.end_card_attempt(&attempt, "failed").await?;
            Ok(refuse("payment.card.token.invalid"))
        }
        Err(e @ (ProviderError::KeySpent(_) | ProviderError::KeyReused)) => {
            // Its key is spent: what it made is found by reconciliation; the next "Pay now"
            // begins another.
            state.store.end_card_attempt(&attempt, "lost").await?;
            tracing::warn!(quote = %quote.id, attempt = attempt.attempt, error = %e, "card attempt lost");
            Err(AppError::Unavailable(e.to_string()))
        }
        // Left open: the next request asks again with the same key and parameters.
        Err(ProviderError::Unavailable(m)) => Err(AppError::Unavailable(m)),
    }
}

/// What the latest attempt came to, when it decides the request's answer.
enum Latest {
    Paid(Box<CardPaymentRow>),
    Authenticate(String),
    Declined,
}

/// The latest attempt, not yet settled, as the provider now has it: its payment (asked for by
/// id, or, when its answer was lost, by asking again exactly as before), then what that means
/// for this request. `None`: it is over (failed, lost or refunded) and a new attempt may begin.
async fn settle_latest(
    state: &AppState,
    quote: &QuoteRow,
    open: &CardAttempt,
    due: &Asked,
    payer: &Payer<'_>,
) -> Result<Option<Latest>, AppError> {
    let asked = asked_of(open).unwrap_or_else(|| due.clone());
    let same = asked.same_payment(due, state, &quote.id);
    let (payment, now) = match &open.payment_id {
        Some(payment) => (
            payment.clone(),
            state.payments.payment(payment).await.map_err(unavailable)?,
        ),
        // Lost, its key spent: reconciliation finds what it made.
        None if !open.is_open() => return Ok(None),
        None => match ask(state, quote, open, &asked, &payer.return_url).await {
            Ok(Charged {
                payment,
                state: now,
            }) => {
                state.store.card_attempt_payment(open, &payment).await?;
                (payment, now)
            }
            Err(ProviderError::Declined | ProviderError::UnknownToken) => {
                state.store.end_card_attempt(open, "failed").await?;
                return Ok((same || !payer.present).then_some(Latest::Declined));
            }
            Err(e @ (ProviderError::KeySpent(_) | ProviderError::KeyReused)) => {
                state.store.end_card_attempt(open, "lost").await?;
                tracing::warn!(quote = %quote.id, attempt = open.attempt, error = %e, "card attempt lost");
                return Ok(None);
            }
            Err(ProviderError::Unavailable(m)) => return Err(AppError::Unavailable(m)),
        },
    };
    match now {
        PaymentState::Authenticating { url: Some(url) }
            if payer.returned.is_none() && same && payer.present =>
        {
            // A second click, or the page opened again before the challenge was done.
            Ok(Some(Latest::Authenticate(url)))
        }
        PaymentState::Authenticating { .. } => {
            // Back from the challenge without finishing it, another card or amount chosen
            // meanwhile, or an action pawpath cannot send the customer to: given up, unless it
            // was taken meanwhile.
            let now = state.payments.cancel(&payment).await.map_err(unavailable)?;
            let outcome = taken(state, quote, open, &payment, now, &asked, false).await?;
            Ok(match outcome {
                Latest::Paid(row) if due.is_due(row.amount, &row.currency) => {
                    Some(Latest::Paid(row))
                }
                Latest::Paid(_) => None,
                other if payer.returned.is_some() || same || !payer.present => Some(other),
                _ => None,
            })
        }
        PaymentState::Paid(charge) if !due.is_due(charge.amount, &charge.currency) => {
            // Taken for another amount (the cover was changed since): given back.
            refund(state, open, &payment).await?;
            Ok(None)
        }
        PaymentState::Paid(charge) => Ok(Some(Latest::Paid(Box::new(asked.row(state, charge))))),
        PaymentState::Processing => Err(processing()),
        PaymentState::Failed => {
            state.store.end_card_attempt(open, "failed").await?;
            Ok((payer.returned.is_some() || !payer.present).then_some(Latest::Declined))
        }
    }
}

/// A payment the provider has answered for (`fresh`: just made), as this request answers it.
async fn taken(
    state: &AppState,
    quote: &QuoteRow,
    attempt: &CardAttempt,
    payment: &str,
    now: PaymentState,
    asked: &Asked,
    fresh: bool,
) -> Result<Latest, AppError> {
    match now {
        PaymentState::Paid(charge) => Ok(Latest::Paid(Box::new(asked.row(state, charge)))),
        PaymentState::Authenticating { url: Some(url) } if fresh => {
            tracing::info!(quote = %quote.id, "card payment waits on 3-D Secure");
            Ok(Latest::Authenticate(url))
        }
        PaymentState::Authenticating { .. } => {
            // An action pawpath cannot send the customer to (or one given up): cancelled, unless
            // taken meanwhile.
            match state.payments.cancel(payment).await.map_err(unavailable)? {
                PaymentState::Paid(charge) => Ok(Latest::Paid(Box::new(asked.row(state, charge)))),
                PaymentState::Processing => Err(processing()),
                _ => {
                    state.store.end_card_attempt(attempt, "failed").await?;
                    Ok(Latest::Declined)
                }
            }
        }
        PaymentState::Processing => Err(processing()),
        PaymentState::Failed => {
            state.store.end_card_attempt(attempt, "failed").await?;
            Ok(Latest::Declined)
        }
    }
}

fn processing() -> AppError {
    AppError::Unavailable(
        "the card payment is still being processed; its outcome completes the purchase".into(),
    )
}

/// Asks the provider for an attempt's payment: the customer it is made under first (made once
/// for the attempt and recorded), then the payment, with the attempt's key and its own request.
async fn ask(
    state: &AppState,
    quote: &QuoteRow,
    attempt: &CardAttempt,
    asked: &Asked,
    return_url: &str,
) -> Result<Charged, ProviderError> {
    let token = state
        .config
        .encryption_key
        .decrypt(&quote.id, CARD_TOKEN, &asked.token)
        .map_err(|_| ProviderError::UnknownToken)?;
    let key = attempt.provider_key();
    let mut request = ChargeRequest {
        token: &token,
        amount: asked.amount(),
        currency: &asked.currency,
        idempotency_key: &key,
        return_url,
        quote_id: &quote.id,
        attempt: attempt.attempt,
        recurring: asked.recurring,
        email: &asked.email,
        customer: attempt.customer_reference.as_deref(),
    };
    let made;
    if request.customer.is_none()
        && let Some(customer) = state.payments.prepare(request).await?
    {
        state
            .store
            .card_attempt_customer(attempt, &customer)
            .await
            .map_err(|e| ProviderError::Unavailable(e.to_string()))?;
        made = customer;
        request.customer = Some(&made);
    }
    state.payments.charge(request).await
}

/// Gives back a payment that bought nothing, and settles its attempt as `refunded`.
pub(crate) async fn refund(
    state: &AppState,
    attempt: &CardAttempt,
    payment: &str,
) -> Result<(), AppError> {
    let key = format!("refund-{payment}");
    state
        .payments
        .refund(payment, &key)
        .await
        .map_err(unavailable)?;
    state.store.end_card_attempt(attempt, "refunded").await?;
    crate::metrics::card_refunded();
    tracing::warn!(quote = %attempt.quote_id, attempt = attempt.attempt, payment, "a card payment that bought nothing was refunded");
    Ok(())
}

/// Whether the session's quote's brand takes cards (owner-payment.md §1 "Direct Debit, or card
/// where offered"): the engine's rule payment_method_offered, run before any card is looked for,
/// its refusal a field error in the customer's words.
pub async fn cards_offered(
    state: &AppState,
    caller: &crate::service::caller::Caller,
) -> Result<(), AppError> {
    use engine::rules::domain::{DomainRuleName, rule};
    let Some(quote) = quote::session_quote(state, caller).await else {
        return Ok(());
    };
    let ctx = quote::rule_context(state, &quote);
    let chosen = serde_json::json!({ "payment": { "payment_method": "CC" } });
    let refused = rule(DomainRuleName::PaymentMethodOffered)(&state.defs, &chosen, &ctx);
    if refused.is_empty() {
        return Ok(());
    }
    let voice = quote::voice(state, &quote);
    Err(AppError::Validation(
        refused
            .iter()
            .map(|e| FieldMessage {
                field: e.field.clone(),
                message: voice.message(e),
            })
            .collect(),
    ))
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
