//! Test mode (`PAWPATH_TEST_MODE=1`; journey.md §2: "a test mode loads test data"): fields written
//! into a quote as they are, recorded like any other event, for what scripted flows need.

use std::time::Instant;

use serde_json::{Map, Value, json};

use engine::journey::runtime::{self, Outcome};

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::reply::Reply;
use crate::service::state::AppState;
use crate::service::transition::{Authorised, authorise};
use crate::store::TransitionMeta;

/// POST /api/test/patch (test mode only, `PAWPATH_TEST_MODE=1`): `{csrf, owner?, pets?,
/// experiments?}` writes the given fields into the quote as they are, for what scripted flows
/// need (journey.md §2: "a test mode loads test data"). Each `owner` field replaces the stored
/// one; each object in `pets` is written, field by field, over the pet at its position;
/// `experiments` sets the variation of named experiments (each must exist).
/// The change is recorded like any other event (`test:patch`), so the log shows it.
pub async fn test_patch(
    state: &AppState,
    caller: &Caller,
    body: Map<String, Value>,
) -> Result<Reply, AppError> {
    let started = Instant::now();
    let Authorised {
        quote,
        experiment_views,
        ..
    } = authorise(
        state,
        caller,
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
    let journey = quote::journey(state, &quote)?;
    let rules = quote::rule_context(state, &quote);
    let (document, pricing) = patched(&state.defs, &quote.document, &body, &rules)?;
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
        input: Some(runtime::bounded_input(patch_input(&body))),
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
    Reply::json(&json!({ "data": { "furthest": record.to }, "outcome": "moved" }))
}

/// What a `test:patch` changes, as the log keeps it: the patch's fields, not its CSRF
/// token or the quote's age.
fn patch_input(body: &Map<String, Value>) -> Value {
    let kept: Map<String, Value> = body
        .iter()
        .filter(|(name, _)| matches!(name.as_str(), "owner" | "pets" | "experiments"))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    Value::Object(kept)
}

/// A test patch (`{owner?, pets?, experiments?}`) written over a document, its pets' fields
/// derived and the quote priced again: what [`test_patch`] stores, and what the replay does
/// again with the patch the log kept. Pure.
pub fn patched(
    defs: &engine::Definitions,
    document: &Value,
    body: &Map<String, Value>,
    rules: &engine::rules::context::RuleContext,
) -> Result<(Value, Option<engine::journey::quoting::Pricing>), AppError> {
    let mut document = document.clone();
    if let Some(experiments) = body.get("experiments") {
        let Value::Object(chosen) = experiments else {
            return Err(AppError::BadRequest("experiments must be an object".into()));
        };
        for (id, variation) in chosen {
            let known = variation.as_str().is_some_and(|v| {
                defs.experiments()
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
    // Patched answers are priced like any others.
    engine::rules::domain::derive_pet_fields(defs, &mut document);
    let pricing = engine::journey::quoting::requote(defs, &mut document, rules);
    Ok((document, pricing))
}
