//! The spec's calls (journey.md §7, owner-payment.md §7) under /api.

use std::time::Instant;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use engine::journey::runtime::{self, Event, Outcome};

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;
use crate::service::transition::{Authorised, authorise, run, submit};
use crate::store::TransitionMeta;

#[derive(Debug, Deserialize)]
pub(super) struct SaveQuery {
    /// `norequote=1` (journey.md §7, owner-payment.md §7): the browser's hint that nothing needs
    /// pricing (the first page with no products; an owner with no postcode). The engine prices a
    /// quote only once the postcode is known and always from the stored answers, so a stored price
    /// can never lag the answers; the flag is accepted and checked, and changes nothing.
    norequote: Option<String>,
}

/// POST /api/petdetails: `{csrf, pets}`.
pub(super) async fn pet_details(
    State(state): State<AppState>,
    Query(query): Query<SaveQuery>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    check_norequote(&query)?;
    submit(&state, &headers, body, "/api/petdetails", &["pets"]).await
}

/// POST /api/rehomingeligibility: `{csrf, rehoming}`, the rehoming flow's eligibility page.
pub(super) async fn rehoming_eligibility(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    submit(
        &state,
        &headers,
        body,
        "/api/rehomingeligibility",
        &["rehoming"],
    )
    .await
}

/// POST /api/postpetdetails: `{csrf, pets}`, the rehoming flow's your-pet page, with the
/// rehoming certificate (a larger body than any other call takes).
pub(super) async fn post_pet_details(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    submit(&state, &headers, body, "/api/postpetdetails", &["pets"]).await
}

/// POST /api/saveDeclaration: `{csrf, pets}`, the assumptions page's "Go to payment" (journey.md
/// §2 Assumptions): every pet's answers with its tick "Yes, they're correct".
pub(super) async fn save_declaration(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    submit(&state, &headers, body, "/api/saveDeclaration", &["pets"]).await
}

/// POST /api/ownerdetail: `{csrf, form, owner}`, the owner update. It saves the cover start
/// date (`form: "start_date"`, journey.md §4 Policy start date); the owner's own details arrive
/// with the your-details step.
pub(super) async fn owner_detail(
    State(state): State<AppState>,
    Query(query): Query<SaveQuery>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    check_norequote(&query)?;
    submit(&state, &headers, body, "/api/ownerdetail", &["owner"]).await
}

/// POST /api/noquotechaseemail: `{csrf, noquotechaseemail}` (owner-payment.md §7), the review's
/// quote reminder opt-out: true asks for no reminder emails about this quote. Stored through the
/// `quote_reminder` question set; answers the new view data.
pub(super) async fn no_quote_chase_email(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let started = Instant::now();
    let auth = authorise(&state, &headers, &body, &["noquotechaseemail"]).await?;
    let opt_out = match body.get("noquotechaseemail") {
        Some(Value::Bool(b)) => *b,
        _ => {
            return Err(AppError::BadRequest(
                "noquotechaseemail must be true or false".into(),
            ));
        }
    };
    let event = Event::Edit {
        questions: "quote_reminder".into(),
        answers: json!({ "owner": { "no_quote_chase_email": opt_out } }),
    };
    run(&state, auth, event, started).await
}

/// POST /api/language: `{csrf, language}`, the language chooser (journey.md §1: shown only when
/// the brand has more than one language). The quote keeps the language, is priced again so its
/// amounts are written for it, and the answer is the view data in that language. A language the
/// brand does not speak is a field error on `language`.
pub(super) async fn set_language(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let started = Instant::now();
    let auth = authorise(&state, &headers, &body, &["language"]).await?;
    let Some(Value::String(language)) = body
        .get("language")
        .filter(|l| l.as_str().is_some_and(|l| !l.is_empty() && l.len() <= 35))
    else {
        return Err(AppError::BadRequest(
            "language must be a language tag of at most 35 characters, such as \"en-GB\"".into(),
        ));
    };
    let event = Event::SetLanguage {
        language: language.clone(),
    };
    run(&state, auth, event, started).await
}

fn check_norequote(query: &SaveQuery) -> Result<(), AppError> {
    match query.norequote.as_deref() {
        None | Some("1") | Some("0") => Ok(()),
        Some(flag) => Err(AppError::BadRequest(format!(
            "norequote must be 1 or 0, not {flag:?}"
        ))),
    }
}

/// POST /api/petownerdetails: `{csrf, owner, pets}`, the combined call crossbreed and mongrel
/// pets are confirmed through (journey.md §4 Pet details). The owner's questions arrive with the
/// your-details step; until then only the pets' confirmation is taken from it.
pub(super) async fn pet_owner_details(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    submit(
        &state,
        &headers,
        body,
        "/api/petownerdetails",
        &["owner", "pets"],
    )
    .await
}

/// POST /api/deletePet: `{id, csrf}`, the pet's 1-based id (journey.md §4 Remove pet, §7).
/// Only while more than one pet exists; otherwise 422 and nothing changes.
pub(super) async fn delete_pet(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let started = Instant::now();
    let auth = authorise(&state, &headers, &body, &["id"]).await?;
    let id = match body.get("id") {
        // One format (issue 25): the number, as the page sends it and the document states.
        Some(Value::Number(n)) => n.as_u64(),
        _ => None,
    }
    .filter(|n| *n >= 1)
    .and_then(|n| usize::try_from(n).ok())
    .ok_or_else(|| AppError::BadRequest("id must be the pet's number, 1 or more".into()))?;
    run(&state, auth, Event::RemovePet { id }, started).await
}

/// POST /api/test/patch (test mode only, `PAWPATH_TEST_MODE=1`): `{csrf, owner?, pets?,
/// experiments?}` writes the given fields into the quote as they are, for what scripted flows
/// need (journey.md §2: "a test mode loads test data"). Each `owner` field replaces the stored
/// one; each object in `pets` is written, field by field, over the pet at its position;
/// `experiments` sets the variation of named experiments (each must exist).
/// The change is recorded like any other event (`test:patch`), so the log shows it.
pub(super) async fn test_patch(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let started = Instant::now();
    let Authorised {
        quote,
        experiment_views,
        ..
    } = authorise(
        &state,
        &headers,
        &body,
        &["owner", "pets", "experiments", "quote_age_days"],
    )
    .await?;
    // `quote_age_days`: the quote is made that many days ago, so a scripted flow can retrieve a
    // quote past its validity (journey.md §8 Quote expired).
    let age_days = match body.get("quote_age_days") {
        None => None,
        Some(v) => Some(
            v.as_i64()
                .filter(|d| (0..=3650).contains(d))
                .ok_or_else(|| {
                    AppError::BadRequest(
                        "quote_age_days must be a whole number of days from 0 to 3650".into(),
                    )
                })?,
        ),
    };
    let mut document = quote.document.clone();
    if let Some(experiments) = body.get("experiments") {
        let Value::Object(chosen) = experiments else {
            return Err(AppError::BadRequest("experiments must be an object".into()));
        };
        for (id, variation) in chosen {
            let known = variation.as_str().is_some_and(|v| {
                state
                    .defs
                    .experiments()
                    .is_some_and(|e| e.knows_view(&format!("{id}:{v}")))
            });
            if !known {
                return Err(AppError::BadRequest(format!(
                    "experiments.{id}: not a variation of a defined experiment"
                )));
            }
            document["experiments"][id] = variation.clone();
        }
    }
    if let Some(owner) = body.get("owner") {
        let Value::Object(fields) = owner else {
            return Err(AppError::BadRequest("owner must be an object".into()));
        };
        let stored = document
            .as_object_mut()
            .ok_or_else(|| AppError::Internal("quote document is not an object".into()))?
            .entry("owner")
            .or_insert_with(|| json!({}));
        for (k, v) in fields {
            stored[k] = v.clone();
        }
    }
    if let Some(pets) = body.get("pets") {
        let Value::Array(items) = pets else {
            return Err(AppError::BadRequest("pets must be an array".into()));
        };
        let count = document["pets"].as_array().map_or(0, Vec::len);
        for (i, item) in items.iter().enumerate() {
            let Value::Object(fields) = item else {
                return Err(AppError::BadRequest(format!("pets[{i}] must be an object")));
            };
            if i >= count {
                return Err(AppError::BadRequest(format!(
                    "pets[{i}]: the quote has {count} pet(s)"
                )));
            }
            for (k, v) in fields {
                document["pets"][i][k] = v.clone();
            }
        }
    }
    let journey = quote::journey(&state, &quote)?;
    let rules = quote::rule_context(&state, &quote);
    // Patched answers are priced like any others.
    engine::rules::domain::derive_pet_fields(&state.defs, &mut document);
    let pricing = engine::journey::quoting::requote(&state.defs, &mut document, &rules);
    let before = runtime::position_of(&state.defs, journey, &quote.document, &rules)?;
    let after = runtime::position_of(&state.defs, journey, &document, &rules)?;
    let record = runtime::TransitionRecord {
        journey: journey.id.clone(),
        definition_version: state.defs.version().to_owned(),
        event: "test:patch".into(),
        from: before.furthest,
        to: after.furthest,
        from_lifecycle: quote.lifecycle,
        to_lifecycle: quote.lifecycle,
        outcome: Outcome::Moved,
        guards: Vec::new(),
        field_errors: Vec::new(),
        blocks: Vec::new(),
        pricing,
    };
    let meta = TransitionMeta::of(&quote, started, &experiment_views);
    state
        .store
        .record(
            &quote,
            Some((&document, quote.lifecycle)),
            &record,
            meta,
            &[],
        )
        .await?;
    if let Some(days) = age_days {
        let made = chrono::Utc::now() - chrono::Duration::days(days);
        state.store.set_created_at(&quote.id, made).await?;
    }
    tracing::warn!(quote = %quote.id, "test mode: quote patched");
    Ok(Json(json!({ "data": { "furthest": record.to }, "outcome": "moved" })).into_response())
}
