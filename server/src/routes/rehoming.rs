//! The rehoming flow's calls (journey.md §1 Extra flows, §2 Routes; owner-payment.md §6, §7
//! "/api/getrehomingcentres, /api/getrescueproduct, /api/confirmationrescue,
//! /api/confirmationRescueEmail"): the partner centres as data, the free cover a rehomed pet
//! gets, activating it once the certificate has been scanned, and its email.
//!
//! Activating is buying at no charge: the same engine event (Purchase, which needs every step
//! before the confirmation complete), the same one-purchase-per-quote transaction, a policy
//! numbered in the brand's format with a zero premium, and the email written to the outbox in
//! that transaction.

use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde_json::{Value, json};

use engine::journey::runtime::{self, Event, Lifecycle, Outcome};

use crate::http::body::JsonObject;
use crate::scanner::{self, ScanOutcome};
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::rescue::{cover_dates, rescue_view};
use crate::service::state::AppState;
use crate::service::transition::{Authorised, authorise};
use crate::store::TransitionMeta;
use crate::store::{NewPayment, NewPurchase, PolicyRow, PurchaseOutcome, QuoteRow, StoreError};

/// Where the rehoming pet step keeps the certificate (encrypted, a write-only answer).
const CERTIFICATE: &str = "/pets/0/rehoming_certificate";

/// The journey flow these calls serve.
const FLOW: &str = "rehoming";

/// Whether a quote runs on the rehoming flow.
fn on_rehoming(state: &AppState, quote: &QuoteRow) -> bool {
    state
        .defs
        .journey(&quote.journey)
        .is_some_and(|j| j.flow.as_deref() == Some(FLOW))
}

/// GET /api/getrehomingcentres (owner-payment.md §3: contactname, address1 to address4,
/// postcode): the centres of the session's brand, or of `?brand=` before there is a session;
/// a brand without the rehoming flow has none to show (404).
pub(super) async fn centres(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let brand = match quote::session_quote(&state, &headers).await {
        Some(q) => q.brand,
        None => quote::asked_brand(&state, uri.query())
            .unwrap_or_else(|| engine::definitions::DEFAULT_BRAND.to_owned()),
    };
    let offers = state
        .defs
        .brand(&brand)
        .is_some_and(|b| b.flows.iter().any(|f| f == FLOW));
    if !offers {
        return Err(AppError::NotFound);
    }
    Ok(Json(json!({ "data": { "centres": state.defs.rehoming_centres(&brand) } })).into_response())
}

/// GET /api/getrescueproduct: the free cover as the session's rehoming quote would have it.
pub(super) async fn rescue_product(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let Some((quote, _)) = quote::existing(&state, &headers).await? else {
        return Err(AppError::NotFound);
    };
    if !on_rehoming(&state, &quote) {
        return Err(AppError::NotFound);
    }
    let purchase = state.store.purchase_of(&quote.id).await?;
    let mut view = rescue_view(
        &state.defs,
        &quote.brand,
        &quote.document,
        quote::uk_today(),
        purchase.as_ref(),
    );
    crate::service::annual::add_link(&state, &quote.brand, &mut view);
    Ok(Json(json!({ "data": { "product": view } })).into_response())
}

/// POST /api/confirmationrescue `{csrf}`: activates the free cover. The certificate is scanned
/// first; a detail code (owner-payment.md §6: 10107 the document, 10108 to 10111 the scanner
/// down) is answered with its warning and nothing is issued. Otherwise the quote is bought at no
/// charge, once: asking again answers the same policy.
pub(super) async fn confirmation_rescue(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let started = Instant::now();
    let Authorised {
        mut quote,
        experiment_views,
        ..
    } = authorise(&state, &headers, &body, &[]).await?;
    if !on_rehoming(&state, &quote) {
        return Err(AppError::BadRequest(
            "the quote is not on the rehoming flow".into(),
        ));
    }
    for _ in 0..5 {
        if quote.lifecycle == Lifecycle::Purchased {
            return activated(&state, &quote).await;
        }
        if let Some(code) = scan(&state, &quote).await? {
            let key = if code == scanner::DOCUMENT_ERROR {
                "rehoming.warning.scan_error"
            } else {
                "rehoming.warning.scan_down"
            };
            tracing::info!(quote = %quote.id, detail_code = code, "rescue cover not activated");
            return Ok(Json(json!({
                "outcome": "warning",
                "detail_code": code,
                "warning": quote::voice(&state, &quote).t(key),
            }))
            .into_response());
        }
        match activate(&state, &quote, &experiment_views, started).await? {
            Ok(()) => {}
            Err(refused) => return Err(refused),
        }
        quote = state
            .store
            .quote_by_ref(&quote.quote_ref)
            .await?
            .ok_or(AppError::NotFound)?;
    }
    Err(AppError::Internal(format!(
        "quote {}: activation kept conflicting",
        quote.id
    )))
}

/// The scanner's detail code for the quote's certificate, none when it is clean.
async fn scan(state: &AppState, quote: &QuoteRow) -> Result<Option<u32>, AppError> {
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

/// Buys the quote at no charge: Ok once bought here or by a twin request.
async fn activate(
    state: &AppState,
    quote: &QuoteRow,
    experiment_views: &[String],
    started: Instant,
) -> Result<Result<(), AppError>, AppError> {
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
        Outcome::RefusedByLifecycle => return Ok(Err(AppError::QuoteClosed)),
        _ => {
            return Ok(Err(AppError::BadRequest(
                "the free cover cannot be activated yet: the pet's and owner's details are not complete".into(),
            )));
        }
    }
    let file = state
        .defs
        .rehoming()
        .ok_or_else(|| AppError::Internal("no rehoming cover is defined".into()))?;
    let document = &result.document;
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
        monthly_premium: "0.00".into(),
        annual_premium: "0.00".into(),
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
    let purchase = NewPurchase {
        id: crate::store::random_id(),
        idempotency_key: format!("rescue-{}", quote.id),
        payment_frequency: "FREE".into(),
        payment_day: 0,
        cover_start: start.to_string(),
        policies: vec![policy],
        payment: NewPayment::Free,
        collections: Vec::new(),
        emails: vec![email],
    };
    let meta = TransitionMeta::of(quote, started, experiment_views);
    match state
        .store
        .purchase(quote, document, &result.record, meta, &purchase)
        .await
    {
        Ok(PurchaseOutcome::Bought) => {
            tracing::info!(quote = %quote.id, "rescue cover activated");
            state.mailer.wake();
            Ok(Ok(()))
        }
        Ok(PurchaseOutcome::AlreadyBought) | Err(StoreError::Conflict) => Ok(Ok(())),
        Err(e) => Err(e.into()),
    }
}

/// The answer for an activated quote: the free cover with its policy number.
async fn activated(state: &AppState, quote: &QuoteRow) -> Result<Response, AppError> {
    let purchase = state.store.purchase_of(&quote.id).await?;
    let mut view = rescue_view(
        &state.defs,
        &quote.brand,
        &quote.document,
        quote::uk_today(),
        purchase.as_ref(),
    );
    crate::service::annual::add_link(state, &quote.brand, &mut view);
    Ok(Json(json!({ "outcome": "activated", "data": { "rescue": view } })).into_response())
}

/// POST /api/confirmationRescueEmail `{csrf}`: the confirmation page asks for the cover's email.
/// Activating wrote it to the outbox, so asking again never sends a second; the answer says
/// where it stands, and the worker is woken to send it now.
pub(super) async fn confirmation_rescue_email(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let Authorised { quote, .. } = authorise(&state, &headers, &body, &[]).await?;
    if !on_rehoming(&state, &quote) || quote.lifecycle != Lifecycle::Purchased {
        return Err(AppError::BadRequest(
            "the free cover has not been activated: there is no email to send".into(),
        ));
    }
    let purchase = state.store.purchase_of(&quote.id).await?.ok_or_else(|| {
        AppError::Internal(format!("quote {}: activated, with no purchase", quote.id))
    })?;
    let status = state
        .store
        .request_email(&purchase.id, crate::mail::RESCUE)
        .await?
        .ok_or_else(|| AppError::Internal(format!("purchase {}: no rescue email", purchase.id)))?;
    if !status.sent {
        state.mailer.wake();
    }
    Ok(Json(json!({ "data": { "confirmation_email": status } })).into_response())
}
