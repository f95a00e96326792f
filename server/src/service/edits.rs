//! The small changes a page asks for by a call of its own rather than a step's submit: each is
//! one engine event run as `transition::run` runs every event (validated, recorded with its
//! transition, answered with the new view data). Routes name the call; what it changes, and
//! through which question set, is said here.

use std::time::Instant;

use engine::journey::runtime::Event;
use serde_json::json;

use crate::service::error::AppError;
use crate::service::reply::Reply;
use crate::service::state::AppState;
use crate::service::transition::{Authorised, run};

/// The review's quote reminder opt-out (owner-payment.md §7 /api/noquotechaseemail): true asks
/// for no reminder emails about this quote; stored through the `quote_reminder` question set.
pub async fn reminder_opt_out(
    state: &AppState,
    auth: Authorised,
    opt_out: bool,
    started: Instant,
) -> Result<Reply, AppError> {
    let event = Event::Edit {
        questions: "quote_reminder".into(),
        answers: json!({ "owner": { "no_quote_chase_email": opt_out } }),
    };
    run(state, auth, event, started).await
}

/// An existing policy number the brand knows (owner-payment.md §7 CheckExistingPolicy), kept on
/// the quote through the `existing_policy` question set.
pub async fn existing_policy(
    state: &AppState,
    auth: Authorised,
    number: &str,
    started: Instant,
) -> Result<Reply, AppError> {
    let event = Event::Edit {
        questions: "existing_policy".into(),
        answers: json!({ "owner": { "existing_policy_number": number } }),
    };
    run(state, auth, event, started).await
}

/// The quote's language (journey.md §1 language chooser): kept, and the quote priced again so
/// its amounts are written for it; one the brand does not speak is a field error.
pub async fn set_language(
    state: &AppState,
    auth: Authorised,
    language: String,
    started: Instant,
) -> Result<Reply, AppError> {
    run(state, auth, Event::SetLanguage { language }, started).await
}

/// A blank pet at the end of the quote (journey.md §4 Add another pet).
pub async fn add_pet(
    state: &AppState,
    auth: Authorised,
    started: Instant,
) -> Result<Reply, AppError> {
    run(state, auth, Event::AddPet, started).await
}

/// The pet with this 1-based id removed (journey.md §4 Remove pet), while more than one exists.
pub async fn remove_pet(
    state: &AppState,
    auth: Authorised,
    id: usize,
    started: Instant,
) -> Result<Reply, AppError> {
    run(state, auth, Event::RemovePet { id }, started).await
}
