//! The service's one error type: what went wrong, in terms a caller can act on. The HTTP layer
//! (`http::error`) gives each its status and a clean JSON body; internal detail goes to the log.

use serde::Serialize;

use crate::store::StoreError;

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct FieldMessage {
    pub field: String,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("validation failed")]
    Validation(Vec<FieldMessage>),
    #[error("missing or wrong csrf token")]
    Csrf,
    #[error("bad request: {0}")]
    BadRequest(String),
    #[error("body too large")]
    PayloadTooLarge,
    #[error("unsupported media type")]
    UnsupportedMediaType,
    #[error("not found")]
    NotFound,
    #[error("the quote changed in another window")]
    Conflict,
    #[error("the quote can no longer be changed")]
    QuoteClosed,
    /// The call does not apply to the quote as it stands (a confirmation email asked for before
    /// the purchase): 409 with the reason, and nothing changed. Not 400, which says the body is
    /// malformed (the calls take what their document describes).
    #[error("not applicable: {0}")]
    NotApplicable(String),
    /// The quote's history is at its ceiling: 409, and nothing changed.
    #[error("the quote's history is full")]
    HistoryFull,
    #[error("internal: {0}")]
    Internal(String),
    /// Too many attempts at a code check from this caller (the message is localised).
    #[error("rate limited")]
    RateLimited(String),
    /// Too many calls from one session too fast: 429 with `Retry-After` in seconds.
    #[error("too fast: retry after {retry_after} s")]
    SlowDown { message: String, retry_after: u64 },
    /// The caller may not do this (any more): the message says why, in the customer's words.
    #[error("forbidden: {0}")]
    Forbidden(String),
    /// A third party (the address lookup) did not answer usefully.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// Answers for a step (or a form) the quote cannot open yet: nothing was stored.
    #[error("step closed: {0:?}")]
    StepClosed(Closed),
}

/// What a closed step's refusal names: the step or form asked for, and the guards that keep it
/// closed (those the engine checked and found false; none where no step that edits the form is
/// open at all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Closed {
    Step { step: String, guards: Vec<String> },
    Form { form: String },
    Purchase { step: String, guards: Vec<String> },
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict => AppError::Conflict,
            StoreError::HistoryFull => AppError::HistoryFull,
            other => AppError::Internal(other.to_string()),
        }
    }
}

impl From<engine::journey::runtime::EngineError> for AppError {
    fn from(e: engine::journey::runtime::EngineError) -> Self {
        match e {
            // A call made to a quote whose journey has no such form (a cover edit on a rehoming
            // quote): the caller's mistake, not the server's.
            engine::journey::runtime::EngineError::UnknownEdit(questions) => AppError::BadRequest(
                format!("this quote's journey has no form {questions:?} to edit"),
            ),
            other => AppError::Internal(other.to_string()),
        }
    }
}
