//! A bought quote's confirmation email, asked for again from its confirmation page. It was written
//! to the outbox with the purchase, so asking never sends a second: the answer says where it
//! stands, and the delivery worker is woken to send it now.

use crate::mail;
use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::store::{EmailStatus, QuoteRow};

/// Which confirmation a quote has: a purchase's, or the free rehoming cover's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    Purchase,
    Rescue,
}

/// Where the quote's confirmation email stands, once asked for; the worker is woken when it is
/// not sent yet.
pub async fn confirmation_email(
    state: &AppState,
    quote: &QuoteRow,
    which: Confirmation,
) -> Result<EmailStatus, AppError> {
    let purchase = state.store.purchase_of(&quote.id).await?.ok_or_else(|| {
        AppError::Internal(match which {
            Confirmation::Purchase => format!("quote {}: bought, with no purchase", quote.id),
            Confirmation::Rescue => format!("quote {}: activated, with no purchase", quote.id),
        })
    })?;
    let kind = match which {
        Confirmation::Purchase => mail::CONFIRMATION,
        Confirmation::Rescue => mail::RESCUE,
    };
    let status = state
        .store
        .request_email(&purchase.id, kind)
        .await?
        .ok_or_else(|| match which {
            // Free rehoming cover has its own email (/api/confirmationRescueEmail).
            Confirmation::Purchase => AppError::BadRequest(
                "this purchase has no confirmation email to send; free rehoming cover's email is asked for with /api/confirmationRescueEmail".into(),
            ),
            Confirmation::Rescue => {
                AppError::Internal(format!("purchase {}: no rescue email", purchase.id))
            }
        })?;
    if !status.sent {
        state.mailer.wake();
    }
    Ok(status)
}
