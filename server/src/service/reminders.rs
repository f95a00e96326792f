//! Quotes by email: the reminder the review page promises ("We'll email you a reminder
//! before your quote expires", journey.md §2 Review), and the quote sent when the customer asks
//! (owner-payment.md §7 `/api/sendquoteemail`). Both go through the outbox, so they are delivered
//! and retried as the confirmation is, and both lead back with a link to retrieve-quote, which
//! still asks for the email address: the link alone opens nothing.
//!
//! The reminder is a service message about the customer's own quote, sent under the soft opt-in
//! (PECR regulation 22(3)): only to a quote that reached the review page, where the promise and
//! the opt-out are shown; never once the customer opted out (`no_quote_chase_email`); once per
//! quote, decided by whichever server claims it first; at most one a day to one address, however
//! many quotes name it; and with no offer in it. It goes
//! [`Config::quote_reminder_days`](crate::config::Config) days before the quote expires.

use std::time::Duration;

use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use crate::mail::{QUOTE, QUOTE_REMINDER, QuoteEmail, QuotePetLine};
use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;
use crate::store::{QuoteRow, ReminderOutcome};

/// The most quotes one pass of the reminder job takes; the rest wait for the next pass.
const BATCH: i64 = 100;

/// The most times one quote can be emailed on request.
pub const QUOTE_EMAILS_PER_QUOTE: i64 = 3;

/// What a quote's email says, and to whom; `None` while the quote has no email address or a pet
/// without a priced choice (it has not reached the review page).
pub fn quote_message(
    state: &AppState,
    quote: &QuoteRow,
    reminder: bool,
) -> Option<(String, QuoteEmail)> {
    let document = &quote.document;
    let text = |pointer: &str| {
        document
            .pointer(pointer)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let recipient = text("/owner/email_address")?.to_owned();
    let quoted = engine::journey::quoting::Quoted::of(document)?;
    let voice = quote::voice(state, quote);
    let money = voice.money();
    let pets = document.get("pets").and_then(Value::as_array)?;
    let mut lines = Vec::with_capacity(pets.len());
    let mut total = Decimal::ZERO;
    for (i, pet) in pets.iter().enumerate() {
        let code = engine::journey::quoting::priced_choice(pet)?;
        let premiums = quoted.premiums(i, code)?;
        let group = code.get(..2).unwrap_or_default();
        let limit = code
            .get(2..)
            .and_then(|l| l.parse::<u32>().ok())
            .map(|l| money.amount(Decimal::from(l)))
            .unwrap_or_default();
        total += premiums.monthly();
        lines.push(QuotePetLine {
            name: pet
                .get("pet_name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            cover: voice.text(
                "review.pet.cover",
                &[
                    (
                        "type".to_owned(),
                        voice.t(&format!("cover.type.{}", group.to_lowercase())),
                    ),
                    ("limit".to_owned(), limit),
                ]
                .into(),
            ),
            premium: money.price(premiums.monthly()),
            liability: liability_key(state, pet),
        });
    }
    if lines.is_empty() {
        return None;
    }
    let valid_until = crate::service::view::valid_until(&quote.created_at)
        .and_then(|d| chrono::NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())
        .map(|d| d.format("%d/%m/%Y").to_string())?;
    let base = state.config.public_url.trim_end_matches('/');
    let path = if quote.channel == engine::definitions::Channel::Aggregator {
        "/aggregators/quote/retrieve-quote"
    } else {
        "/quote/retrieve-quote"
    };
    let message = QuoteEmail {
        brand_code: quote.brand.clone(),
        language: voice.language().to_owned(),
        first_name: text("/owner/customer_first_name")
            .unwrap_or_default()
            .to_owned(),
        quote_reference: quote.quote_ref.clone(),
        valid_until,
        reminder,
        pets: lines,
        total: money.price(total),
        retrieve_url: format!(
            "{base}{path}?brand={}&reference={}",
            quote.brand, quote.quote_ref
        ),
    };
    Some((recipient, message))
}

/// The copy key suffix of what a pet's breed and answers take off third party liability.
pub fn liability_key(state: &AppState, pet: &Value) -> Option<&'static str> {
    use engine::rules::rating::{Liability, LiabilityExclusion};
    match engine::journey::quoting::liability(&state.defs, pet)? {
        Liability::Covered => None,
        Liability::NotAtWork => Some("not_at_work"),
        Liability::Excluded(LiabilityExclusion::Breed) => Some("breed"),
        Liability::Excluded(LiabilityExclusion::Behaviour) => Some("behaviour"),
    }
}

/// One pass of the reminder job: each active quote now within its reminder window (made between
/// 30 days ago and 30 − `days` days ago) gets its reminder decided, once. Returns how many were
/// written to the outbox.
pub async fn send_due_reminders(state: &AppState) -> Result<usize, AppError> {
    let days = i64::from(state.config.quote_reminder_days);
    if days == 0 {
        return Ok(0);
    }
    let now = chrono::Utc::now();
    let valid = chrono::Duration::days(engine::journey::quoting::QUOTE_VALID_DAYS);
    let stamp = |t: chrono::DateTime<chrono::Utc>| crate::store::timestamp(t);
    let from = stamp(now - valid);
    let to = stamp(now - valid + chrono::Duration::days(days));
    let due = state
        .store
        .reminders_due(&from, &to, BATCH)
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let mut sent = 0;
    for quote in due {
        let opted_out = quote
            .document
            .pointer("/owner/no_quote_chase_email")
            .and_then(Value::as_bool)
            == Some(true);
        let message = if opted_out {
            None
        } else {
            quote_message(state, &quote, true)
        };
        let day_ago = stamp(now - chrono::Duration::days(1));
        let reminded = match &message {
            Some((recipient, _)) => {
                state
                    .store
                    .reminders_to(recipient, &day_ago)
                    .await
                    .map_err(|e| AppError::Internal(e.to_string()))?
                    > 0
            }
            None => false,
        };
        let (outcome, email) = match (&message, opted_out) {
            (_, true) => (ReminderOutcome::OptedOut, None),
            (None, false) => (ReminderOutcome::NotOffered, None),
            (Some(_), false) if reminded => (ReminderOutcome::RecipientReminded, None),
            (Some((recipient, message)), false) => {
                let rendered = state
                    .mail_templates
                    .quote(message)
                    .map_err(AppError::Internal)?;
                (
                    ReminderOutcome::Sent,
                    Some(crate::mail::Mailer::outbox_entry(
                        QUOTE_REMINDER,
                        recipient,
                        rendered,
                    )),
                )
            }
        };
        let decided = state
            .store
            .decide_reminder(&quote.id, outcome, email.as_ref())
            .await
            .map_err(|e| AppError::Internal(e.to_string()))?;
        if decided && email.is_some() {
            sent += 1;
        }
        tracing::info!(quote = %quote.quote_ref, outcome = outcome.as_str(), decided, "quote reminder");
    }
    if sent > 0 {
        state.mailer.wake();
    }
    Ok(sent)
}

/// Runs the reminder job every `PAWPATH_REMINDER_INTERVAL_MS` until the server stops. A pass
/// that fails is logged and tried again at the next. Any number of servers may run it: each
/// quote's reminder is decided once, in the database (`quote_reminders`).
pub fn spawn(state: AppState) -> Option<tokio::task::JoinHandle<()>> {
    if state.config.quote_reminder_days == 0 {
        tracing::info!("quote reminders are off (PAWPATH_QUOTE_REMINDER_DAYS=0)");
        return None;
    }
    let every = Duration::from_millis(state.config.reminder_interval_ms);
    let stopped = state.running.stopped();
    Some(tokio::spawn(async move {
        tokio::pin!(stopped);
        loop {
            if let Err(e) = send_due_reminders(&state).await {
                tracing::warn!(error = %e, "quote reminders: a pass failed");
            }
            tokio::select! {
                () = &mut stopped => return,
                () = tokio::time::sleep(every) => {}
            }
        }
    }))
}

/// POST /api/sendquoteemail: `{csrf}` (owner-payment.md §7): the session's quote emailed to its
/// owner, with a link back to it. At most [`QUOTE_EMAILS_PER_QUOTE`] times per quote, and
/// within the callers' and the recipient's rate limits (`service::limits`). Answers
/// `{data: {sent, email}}`; a quote with no email address or no chosen cover yet is a 422 naming
/// what is missing.
pub async fn send_quote(
    state: &AppState,
    caller: &Caller,
    body: &Map<String, Value>,
) -> Result<Value, AppError> {
    let auth = crate::service::transition::authorise(state, caller, body, &[]).await?;
    let voice = quote::voice(state, &auth.quote);
    let Some((recipient, message)) = quote_message(state, &auth.quote, false) else {
        let field = if auth
            .quote
            .document
            .pointer("/owner/email_address")
            .and_then(Value::as_str)
            .is_none_or(|e| e.trim().is_empty())
        {
            "owner.email_address"
        } else {
            "pets"
        };
        return Err(AppError::Validation(vec![
            crate::service::error::FieldMessage {
                field: field.into(),
                message: voice.t(if field == "pets" {
                    "cover.no_product"
                } else {
                    "error.required"
                }),
            },
        ]));
    };
    // A quote's address is whatever its visitor typed: the caller and the recipient are
    // counted, so nobody can use quotes to mail someone over and over.
    crate::service::limits::limit_quote_email(state, caller, &recipient).await?;
    let rendered = state
        .mail_templates
        .quote(&message)
        .map_err(AppError::Internal)?;
    let email = crate::mail::Mailer::outbox_entry(QUOTE, &recipient, rendered);
    let added = state
        .store
        .add_quote_email(&auth.quote.id, &email, QUOTE_EMAILS_PER_QUOTE)
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?;
    if !added {
        crate::metrics::rate_limited("quote_email_per_quote");
        return Err(AppError::RateLimited(voice.t("review.email_quote.limit")));
    }
    state.mailer.wake();
    Ok(json!({ "data": { "sent": true, "email": recipient } }))
}
