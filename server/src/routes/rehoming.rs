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
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::body::JsonObject;
use crate::service::activation::{FLOW, on_rehoming};
use crate::service::emails::Confirmation;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::rescue::rescue_view;
use crate::service::state::AppState;
use crate::service::transition::{Authorised, authorise};

/// GET /api/getrehomingcentres (owner-payment.md §3: contactname, address1 to address4,
/// postcode): the centres of the session's brand, or of `?brand=` before there is a session;
/// a brand without the rehoming flow has none to show (404).
pub(super) async fn centres(
    State(state): State<AppState>,
    uri: Uri,
    caller: crate::service::Caller,
) -> Result<Response, AppError> {
    let brand = match quote::session_quote(&state, &caller).await {
        Some(q) => q.brand,
        None => quote::asked_brand(&state, uri.query())
            .map_or_else(|| quote::DEFAULT_BRAND.into(), Into::into),
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
    caller: crate::service::Caller,
) -> Result<Response, AppError> {
    let Some((quote, _)) = quote::existing(&state, &caller).await? else {
        return Err(AppError::NotFound);
    };
    if !on_rehoming(&state, &quote) {
        return Err(AppError::NotFound);
    }
    let purchase = crate::service::purchase::purchase_of(&state, &quote.id).await?;
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
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let started = Instant::now();
    let Authorised {
        quote,
        experiment_views,
        ..
    } = authorise(&state, &caller, &body, &[]).await?;
    if !on_rehoming(&state, &quote) {
        return Err(AppError::NotApplicable(
            "the quote is not on the rehoming flow".into(),
        ));
    }
    Ok(
        crate::service::activation::activate_cover(&state, quote, &experiment_views, started)
            .await?
            .into_response(),
    )
}

/// POST /api/confirmationRescueEmail `{csrf}`: the confirmation page asks for the cover's email.
/// Activating wrote it to the outbox, so asking again never sends a second; the answer says
/// where it stands, and the worker is woken to send it now.
pub(super) async fn confirmation_rescue_email(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let Authorised { quote, .. } = authorise(&state, &caller, &body, &[]).await?;
    if !on_rehoming(&state, &quote) || !quote.is_bought() {
        return Err(AppError::NotApplicable(
            "the free cover has not been activated: there is no email to send".into(),
        ));
    }
    let status =
        crate::service::emails::confirmation_email(&state, &quote, Confirmation::Rescue).await?;
    Ok(Json(json!({ "data": { "confirmation_email": status } })).into_response())
}
