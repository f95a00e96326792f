//! Activating the free rehoming cover (owner-payment.md §6): the certificate scanned, the quote
//! bought at no charge in one transaction with its email, and the activated cover's answer.

use std::time::Instant;

use chrono::NaiveDate;
use serde_json::{Value, json};

use engine::journey::runtime::{self, Event, Lifecycle, Outcome};

use crate::scanner::{self, ScanOutcome};
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::reply::Reply;
use crate::service::rescue::{cover_dates, rescue_view};
use crate::service::state::AppState;
use crate::store::TransitionMeta;
use crate::store::{NewPayment, NewPurchase, PolicyRow, PurchaseOutcome, QuoteRow, StoreError};

/// Where the rehoming pet step keeps the certificate (encrypted, a write-only answer).
pub const CERTIFICATE: &str = "/pets/0/rehoming_certificate";

/// The journey flow these calls serve.
pub const FLOW: &str = "rehoming";

/// Whether a quote runs on the rehoming flow.
pub fn on_rehoming(state: &AppState, quote: &QuoteRow) -> bool {
    state
        .defs
        .journey(&quote.journey)
        .is_some_and(|j| j.flow.as_deref() == Some(FLOW))
}

/// The scanner's detail code for the quote's certificate, none when it is clean.
pub async fn scan(state: &AppState, quote: &QuoteRow) -> Result<Option<u32>, AppError> {
    let Some(stored) = state.store.secret(&quote.id, CERTIFICATE).await? else {
        return Err(AppError::BadRequest(
            "the quote has no rehoming certificate: upload it on the your-pet page".into(),
        ));
    };
    let data_url = state
        .config
        .encryption_key
        .decrypt(&quote.id, CERTIFICATE, &stored)
        .map_err(|e| AppError::Internal(format!("quote {}: certificate: {e}", quote.id)))?;
    let number = quote
        .document
        .pointer("/pets/0/rehoming_certificate_number")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let outcome = scanner::scan(&data_url, number, state.config.test_mode);
    if let ScanOutcome::Rejected(why) = outcome {
        tracing::info!(quote = %quote.id, why, "certificate rejected by the scan");
    }
    Ok(outcome.detail_code())
}

/// Buys the quote at no charge, moving it to the session `session_hash`: true
/// once bought here, false when a twin request bought it (or changed it) first; a refusal
/// (closed, incomplete, referred by screening) is the error the customer is answered with.
pub async fn activate(
    state: &AppState,
    quote: &QuoteRow,
    session_hash: &str,
    experiment_views: &[String],
    started: Instant,
) -> Result<bool, AppError> {
    let journey = quote::journey(state, quote)?;
    let rules = quote::rule_context(state, quote);
    let result = runtime::transition(
        &state.defs,
        &journey.id,
        &quote.document,
        quote.lifecycle,
        &Event::Purchase,
        rules.clone(),
    )?;
    match result.record.outcome {
        Outcome::Moved => {}
        Outcome::RefusedByLifecycle => return Err(AppError::QuoteClosed),
        _ => {
            return Err(AppError::BadRequest(
                "the free cover cannot be activated yet: the pet's and owner's details are not complete".into(),
            ));
        }
    }
    let file = state
        .defs
        .rehoming()
        .ok_or_else(|| AppError::Internal("no rehoming cover is defined".into()))?;
    let document = &result.document;
    // The owner taking the free cover is screened as a buyer is, before any policy is issued.
    if let Some(refused) = crate::service::screening::refer_if_listed(
        state,
        quote,
        document,
        &result.record,
        started,
        experiment_views,
    )
    .await?
    {
        return Err(refused);
    }
    let text = |pointer: &str| {
        document
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let (start, end) = cover_dates(&file.cover, rules.today);
    let policy = PolicyRow {
        policy_number: state.policies.new_number(&quote.brand),
        pet_original_id: document
            .pointer("/pets/0/original_id")
            .and_then(Value::as_i64)
            .unwrap_or(1),
        pet_name: text("/pets/0/pet_name"),
        product_code: file.cover.code.clone(),
        monthly_premium: rust_decimal::Decimal::new(0, 2),
        annual_premium: rust_decimal::Decimal::new(0, 2),
        start_date: start.to_string(),
    };
    let view = rescue_view(&state.defs, &quote.brand, document, rules.today, None);
    let uk = |d: NaiveDate| d.format("%d/%m/%Y").to_string();
    let message = crate::mail::RescueEmail {
        brand_code: quote.brand.clone(),
        language: quote::language(state, quote),
        first_name: text("/owner/customer_first_name"),
        pet_name: policy.pet_name.clone(),
        policy_number: policy.policy_number.clone(),
        cover_start: uk(start),
        cover_end: uk(end),
        days: file.cover.days,
        vet_fee_limit: view["vet_fee_limit"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        excess: view["excess"].as_str().unwrap_or_default().to_owned(),
        centre: view["centre"]["contactname"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        annual_link: crate::service::annual::policy_link(
            state,
            &quote.brand,
            &policy.policy_number,
            end,
        ),
    };
    let rendered = state
        .mail_templates
        .rescue(&message)
        .map_err(|e| AppError::Internal(format!("rescue email: {e}")))?;
    let email = crate::mail::Mailer::outbox_entry(
        crate::mail::RESCUE,
        &text("/owner/email_address"),
        rendered,
    );
    let mut purchase = NewPurchase {
        id: crate::store::random_id(),
        idempotency_key: format!("rescue-{}", quote.id),
        payment_frequency: "FREE".into(),
        payment_day: 0,
        cover_start: start.to_string(),
        policies: vec![policy],
        payment: NewPayment::Free,
        collections: Vec::new(),
        emails: vec![email],
        events: Vec::new(),
        session_hash: session_hash.to_owned(),
    };
    let event = crate::service::policy_events::bought(state, quote, document, &purchase, None)?;
    purchase.events.push(event);
    let meta = TransitionMeta::of(quote, started, experiment_views);
    match state
        .store
        .purchase(quote, document, &result.record, meta, &purchase)
        .await
    {
        Ok(PurchaseOutcome::Bought) => {
            tracing::info!(quote = %quote.id, "rescue cover activated");
            state.mailer.wake();
            state.events.wake();
            Ok(true)
        }
        Ok(PurchaseOutcome::AlreadyBought) | Err(StoreError::Conflict) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// The answer for an activated quote: the free cover with its policy number.
pub async fn activated(state: &AppState, quote: &QuoteRow) -> Result<Reply, AppError> {
    let purchase = state.store.purchase_of(&quote.id).await?;
    let mut view = rescue_view(
        &state.defs,
        &quote.brand,
        &quote.document,
        quote::uk_today(),
        purchase.as_ref(),
    );
    crate::service::annual::add_link(state, &quote.brand, &mut view);
    Reply::json(&json!({ "outcome": "activated", "data": { "rescue": view } }))
}

/// The warning's copy key for a certificate the scanner did not pass: one it could not read, or
/// a scanner that did not answer.
pub fn scan_warning(detail_code: u32) -> &'static str {
    if detail_code == crate::scanner::DOCUMENT_ERROR {
        "rehoming.warning.scan_error"
    } else {
        "rehoming.warning.scan_down"
    }
}

/// Activates the free cover (POST /api/confirmationrescue): the certificate scanned first, a
/// detail code (owner-payment.md §6) answered with its warning and nothing issued; otherwise the
/// quote bought at no charge, once, into a new session (the answer sets its cookie, and the
/// session that activated finds nothing from then on, as after a purchase). Asking again answers
/// the same policy; a twin request that activated it first is a conflict.
pub async fn activate_cover(
    state: &AppState,
    mut quote: QuoteRow,
    experiment_views: &[String],
    started: Instant,
) -> Result<Reply, AppError> {
    let fresh = crate::session::SessionToken::generate();
    for _ in 0..5 {
        if quote.lifecycle == Lifecycle::Purchased {
            return activated(state, &quote).await;
        }
        if let Some(code) = scan(state, &quote).await? {
            tracing::info!(quote = %quote.id, detail_code = code, "rescue cover not activated");
            return Reply::json(&json!({
                "outcome": "warning",
                "detail_code": code,
                "warning": quote::voice(state, &quote).t(scan_warning(code)),
            }));
        }
        let bought_here = activate(state, &quote, &fresh.hash(), experiment_views, started).await?;
        quote = quote::by_reference(state, &quote.quote_ref)
            .await?
            .ok_or(AppError::NotFound)?;
        if bought_here {
            return Ok(activated(state, &quote).await?.joining(state, &fresh));
        }
        if quote.lifecycle == Lifecycle::Purchased {
            // A twin request activated it and holds its new session: this one is told so.
            return Err(AppError::Conflict);
        }
    }
    Err(AppError::Internal(format!(
        "quote {}: activation kept conflicting",
        quote.id
    )))
}
