//! The spec's calls (journey.md §7, owner-payment.md §7) under /api.

use std::time::Instant;

use crate::service::caller::Caller;
use crate::service::reply::Reply;
use axum::extract::{Path, Query, State};
use serde::Deserialize;
use serde_json::Value;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::service::transition::{authorise, submit, submit_step};

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
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    check_norequote(&query)?;
    submit(&state, &caller, body, "/api/petdetails").await
}

/// POST /api/steps/{step}: `{csrf, form?, ...answers}`, a step whose journey file names no call
/// (or one of its page's modals, with `form`), in its question set's own fields.
pub(super) async fn step_answers(
    State(state): State<AppState>,
    Path(step): Path<String>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    // No step id is longer; any other is checked against the journey's (and is no step).
    if step.len() > 64 {
        return Err(AppError::NotFound);
    }
    submit_step(&state, &caller, body, &step).await
}

/// POST /api/render-errors: `{csrf, step, message, trail}`, a page the browser could not draw
/// and showed the brand's phone number for instead: logged and counted; nothing is stored.
pub(super) async fn render_error(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<axum::http::StatusCode, AppError> {
    crate::service::render_errors::report(&state, &caller, &body).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// POST /api/rehomingeligibility: `{csrf, rehoming}`, the rehoming flow's eligibility page.
pub(super) async fn rehoming_eligibility(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    submit(&state, &caller, body, "/api/rehomingeligibility").await
}

/// POST /api/postpetdetails: `{csrf, pets}`, the rehoming flow's your-pet page, with the
/// rehoming certificate (a larger body than any other call takes).
pub(super) async fn post_pet_details(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    submit(&state, &caller, body, "/api/postpetdetails").await
}

/// POST /api/saveDeclaration: `{csrf, pets}`, the assumptions page's "Go to payment" (journey.md
/// §2 Assumptions): every pet's answers with its tick "Yes, they're correct".
pub(super) async fn save_declaration(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    submit(&state, &caller, body, "/api/saveDeclaration").await
}

/// POST /api/ownerdetail: `{csrf, form, owner}`, the owner update. It saves the cover start
/// date (`form: "start_date"`, journey.md §4 Policy start date); the owner's own details arrive
/// with the your-details step.
pub(super) async fn owner_detail(
    State(state): State<AppState>,
    Query(query): Query<SaveQuery>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    check_norequote(&query)?;
    submit(&state, &caller, body, "/api/ownerdetail").await
}

/// POST /api/noquotechaseemail: `{csrf, noquotechaseemail}` (owner-payment.md §7), the review's
/// quote reminder opt-out: true asks for no reminder emails about this quote. Stored through the
/// `quote_reminder` question set; answers the new view data.
pub(super) async fn no_quote_chase_email(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    let started = Instant::now();
    let auth = authorise(&state, &caller, &body, &["noquotechaseemail"]).await?;
    let opt_out = match body.get("noquotechaseemail") {
        Some(Value::Bool(b)) => *b,
        _ => {
            return Err(AppError::BadRequest(
                "noquotechaseemail must be true or false".into(),
            ));
        }
    };
    crate::service::edits::reminder_opt_out(&state, auth, opt_out, started).await
}

/// POST /api/language: `{csrf, language}`, the language chooser (journey.md §1: shown only when
/// the brand has more than one language). The quote keeps the language, is priced again so its
/// amounts are written for it, and the answer is the view data in that language. A language the
/// brand does not speak is a field error on `language`.
pub(super) async fn set_language(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    let started = Instant::now();
    let auth = authorise(&state, &caller, &body, &["language"]).await?;
    let Some(Value::String(language)) = body
        .get("language")
        .filter(|l| l.as_str().is_some_and(|l| !l.is_empty() && l.len() <= 35))
    else {
        return Err(AppError::BadRequest(
            "language must be a language tag of at most 35 characters, such as \"en-GB\"".into(),
        ));
    };
    crate::service::edits::set_language(&state, auth, language.clone(), started).await
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
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    submit(&state, &caller, body, "/api/petownerdetails").await
}

/// POST /api/addpetid: `{csrf}` (journey.md §4 Add another pet, §7 "/api/addpetid: new pet slot;
/// response replaces view data"): a blank pet at the end of the quote, and the view data of the
/// page that asks about it. The spec's call is a GET; a call that changes the quote carries its
/// CSRF token in its body here, as every other does, so it is a POST. At most 10 pets, and one
/// blank slot at a time (422 otherwise).
pub(super) async fn add_pet_id(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    let started = Instant::now();
    let auth = authorise(&state, &caller, &body, &[]).await?;
    crate::service::edits::add_pet(&state, auth, started).await
}

/// POST /api/deletePet: `{id, csrf}`, the pet's 1-based id (journey.md §4 Remove pet, §7).
/// Only while more than one pet exists; otherwise 422 and nothing changes.
pub(super) async fn delete_pet(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    let started = Instant::now();
    let auth = authorise(&state, &caller, &body, &["id"]).await?;
    let id = match body.get("id") {
        // One format: the number, as the page sends it and the document states.
        Some(Value::Number(n)) => n.as_u64(),
        _ => None,
    }
    .filter(|n| *n >= 1)
    .and_then(|n| usize::try_from(n).ok())
    .ok_or_else(|| AppError::BadRequest("id must be the pet's number, 1 or more".into()))?;
    crate::service::edits::remove_pet(&state, auth, id, started).await
}

/// POST /api/test/patch (test mode only, `PAWPATH_TEST_MODE=1`): `{csrf, owner?, pets?,
/// experiments?}` writes the given fields into the quote as they are, for what scripted flows
/// need (journey.md §2: "a test mode loads test data"). Each `owner` field replaces the stored
/// one; each object in `pets` is written, field by field, over the pet at its position;
/// `experiments` sets the variation of named experiments (each must exist).
/// The change is recorded like any other event (`test:patch`), so the log shows it.
pub(super) async fn test_patch(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Reply, AppError> {
    crate::service::test_mode::test_patch(&state, &caller, body).await
}
