//! Card payments settled by what the provider says when the customer's own request could not:
//! the provider's webhook, and a reconciliation that asks the provider about every attempt left
//! unsettled for longer than any request takes (`PAWPATH_CARD_RECONCILE_AFTER_MS`). Whatever
//! happened to the answers on the way, a customer ends with one policy, or with no policy and
//! their money given back: a payment taken buys the quote when it is the quote's latest
//! attempt, for the amount due, and the quote is not bought yet; any other payment taken is
//! refunded. An attempt still unsettled is counted for `/metrics`
//! (`pawpath_card_attempts_unsettled`, and the oldest's age), so one that stays so is seen.

use std::time::{Duration, Instant};

use engine::journey::runtime::Lifecycle;

use crate::payments::{AttemptLookup, PaymentState};
use crate::service::card_payment::{refund, unavailable};
use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::store::{CardAttempt, QuoteRow};

/// The most attempts one pass of the reconciliation looks at.
const PASS_LIMIT: i64 = 50;

/// How long a payment may wait on the customer's bank before the reconciliation gives it up
/// (cancels it, or settles it if it was taken meanwhile): a 3-D Secure challenge is over long
/// before.
const CHALLENGE_GIVEN_UP: Duration = Duration::from_secs(60 * 60);

/// One of an attempt's payments, as the provider now has it, settled: a failure ends the attempt;
/// a payment taken buys the quote or is refunded; one still waiting is left to wait.
pub(crate) async fn settle_found(
    state: &AppState,
    attempt: &CardAttempt,
    payment: &str,
    now: PaymentState,
) -> Result<(), AppError> {
    if attempt.payment_id.is_none() {
        state.store.card_attempt_payment(attempt, payment).await?;
    }
    match now {
        PaymentState::Failed => {
            state.store.end_card_attempt(attempt, "failed").await?;
            Ok(())
        }
        PaymentState::Processing | PaymentState::Authenticating { .. } => Ok(()),
        PaymentState::Paid(_) if matches!(attempt.outcome.as_str(), "paid" | "refunded") => Ok(()),
        PaymentState::Paid(_) => {
            let quote = state.store.quote_by_id(&attempt.quote_id).await?;
            let Some(quote) = quote else {
                return refund(state, attempt, payment).await;
            };
            if quote.lifecycle == Lifecycle::Purchased {
                return bought_with(state, &quote, attempt, payment).await;
            }
            let latest = state.store.latest_card_attempt(&quote.id).await?;
            if latest.is_some_and(|l| l.attempt == attempt.attempt) {
                buy_for(state, &quote, attempt).await?;
                if let Some(now) = state.store.quote_by_id(&quote.id).await?
                    && now.lifecycle == Lifecycle::Purchased
                {
                    return bought_with(state, &now, attempt, payment).await;
                }
            }
            // Not the latest attempt (the customer paid again meanwhile), or it could not buy
            // the quote (another amount is due now, or the quote closed).
            match state
                .store
                .card_attempt_numbered(&quote.id, attempt.attempt)
                .await?
            {
                Some(a) if a.is_unsettled() || a.outcome == "failed" => {
                    refund(state, attempt, payment).await
                }
                _ => Ok(()),
            }
        }
    }
}

/// A payment taken for a quote now bought: settled if it is what bought it, else given back.
async fn bought_with(
    state: &AppState,
    quote: &QuoteRow,
    attempt: &CardAttempt,
    payment: &str,
) -> Result<(), AppError> {
    if state.store.card_charge_of(&quote.id).await?.as_deref() == Some(payment) {
        state.store.end_card_attempt(attempt, "paid").await?;
        Ok(())
    } else {
        refund(state, attempt, payment).await
    }
}

/// Buys the quote with the attempt's key and session, as the customer's own request would have.
pub(crate) async fn buy_for(
    state: &AppState,
    quote: &QuoteRow,
    attempt: &CardAttempt,
) -> Result<(), AppError> {
    use crate::service::purchase::{Attempted, Buyer, attempt as buy};
    match buy(
        state,
        quote,
        &attempt.idempotency_key,
        &attempt.session_hash,
        &[],
        Buyer::Provider,
        Instant::now(),
    )
    .await?
    {
        Attempted::Bought | Attempted::Raced => {
            tracing::info!(quote = %quote.id, "bought by the card provider's outcome");
            Ok(())
        }
        Attempted::Authenticate(_) => Err(AppError::Unavailable(
            "the provider says the payment is taken but it still waits on the customer".into(),
        )),
        Attempted::Refused(e) => {
            tracing::warn!(quote = %quote.id, error = %e, "a card payment was taken for a quote that could not be bought");
            Ok(())
        }
    }
}

/// One attempt left unsettled, asked about: its payment by id, or when no answer named one, the
/// payments the provider made for it (none: nothing was taken, and it ends).
async fn reconcile_one(state: &AppState, attempt: &CardAttempt) -> Result<(), AppError> {
    let found = match &attempt.payment_id {
        Some(payment) => vec![(
            payment.clone(),
            state.payments.payment(payment).await.map_err(unavailable)?,
        )],
        None => {
            let key = attempt.provider_key();
            state
                .payments
                .attempt_payments(AttemptLookup {
                    quote_id: &attempt.quote_id,
                    attempt: attempt.attempt,
                    idempotency_key: &key,
                    customer: attempt.customer_reference.as_deref(),
                })
                .await
                .map_err(unavailable)?
        }
    };
    if found.is_empty() {
        tracing::info!(quote = %attempt.quote_id, attempt = attempt.attempt, "card attempt reconciled: nothing was taken");
        state.store.end_card_attempt(attempt, "failed").await?;
        return Ok(());
    }
    let age = chrono::DateTime::parse_from_rfc3339(&attempt.created_at)
        .ok()
        .and_then(|at| {
            (chrono::Utc::now() - at.with_timezone(&chrono::Utc))
                .to_std()
                .ok()
        })
        .unwrap_or_default();
    for (payment, now) in found {
        let now = match now {
            PaymentState::Authenticating { .. } if age > CHALLENGE_GIVEN_UP => {
                state.payments.cancel(&payment).await.map_err(unavailable)?
            }
            other => other,
        };
        // As it stands now (an earlier payment of the list may have settled it).
        let current = state
            .store
            .card_attempt_numbered(&attempt.quote_id, attempt.attempt)
            .await?
            .unwrap_or_else(|| attempt.clone());
        settle_found(state, &current, &payment, now).await?;
    }
    Ok(())
}

/// One pass: every attempt unsettled for longer than the reconciliation's delay (the oldest
/// first, at most [`PASS_LIMIT`]), asked about. Answers how many were looked at.
pub async fn reconcile(state: &AppState) -> Result<usize, AppError> {
    let after = chrono::Duration::from_std(state.config.card_reconcile.after)
        .unwrap_or_else(|_| chrono::Duration::minutes(5));
    let before = crate::store::timestamp(chrono::Utc::now() - after);
    let attempts = state
        .store
        .card_attempts_unsettled(&before, PASS_LIMIT)
        .await?;
    for attempt in &attempts {
        if let Err(e) = reconcile_one(state, attempt).await {
            crate::metrics::card_reconcile_failed();
            tracing::warn!(quote = %attempt.quote_id, attempt = attempt.attempt, error = %e, "card attempt not reconciled; tried again at the next pass");
        }
    }
    Ok(attempts.len())
}

/// Runs the reconciliation every `PAWPATH_CARD_RECONCILE_MS` until the server stops. Any number
/// of servers may run it: a purchase is made once (its key), a refund given once (its key at
/// the provider), an attempt settled once (its outcome changes only from unsettled).
pub fn spawn(state: AppState) -> tokio::task::JoinHandle<()> {
    let every = state.config.card_reconcile.every;
    let stopped = state.running.stopped();
    tokio::spawn(async move {
        tokio::pin!(stopped);
        loop {
            tokio::select! {
                () = &mut stopped => return,
                () = tokio::time::sleep(every) => {}
            }
            if let Err(e) = reconcile(&state).await {
                crate::metrics::card_reconcile_failed();
                tracing::warn!(error = %e, "card reconciliation: a pass failed");
            }
        }
    })
}
