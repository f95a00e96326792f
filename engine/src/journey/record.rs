//! What a transition is and what it leaves: the quote's lifecycle, the events, the outcome, the
//! record kept in the transition log, the effects the server carries out, and the engine's errors.

use serde::Serialize;
use serde_json::Value;

use crate::checks::compiled::UnknownGuard;
use crate::definitions::StepId;
use crate::definitions::schema::FieldError;
use crate::journey::position::Position;

/// The lifecycle the server stores beside the document. "Blocked" and the current step are not
/// stored: they are derived from the answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lifecycle {
    Active,
    Purchased,
    Expired,
    Reset,
}

impl Lifecycle {
    pub fn as_str(self) -> &'static str {
        match self {
            Lifecycle::Active => "active",
            Lifecycle::Purchased => "purchased",
            Lifecycle::Expired => "expired",
            Lifecycle::Reset => "reset",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "active" => Some(Lifecycle::Active),
            "purchased" => Some(Lifecycle::Purchased),
            "expired" => Some(Lifecycle::Expired),
            "reset" => Some(Lifecycle::Reset),
            _ => None,
        }
    }
}

/// The most pets one quote insures (the pet questions' `maxItems`).
pub const MAX_PETS: usize = 10;

/// What the customer (or the server on their behalf) asks of the quote.
#[derive(Debug, Clone)]
pub enum Event {
    /// Answers for a step, from its form.
    Submit { step: StepId, answers: Value },
    /// Answers from a modal that edits part of the quote in place (a step's `edits`): stored
    /// when valid, without submitting any step.
    Edit { questions: String, answers: Value },
    /// The quote was bought.
    Purchase,
    /// The quote passed its validity.
    Expire,
    /// The customer starts again; the answers are cleared.
    Reset,
    /// A pet leaves the quote (journey.md §4 Remove pet): `id` is its 1-based position. Only
    /// while more than one pet exists.
    RemovePet { id: usize },
    /// A fresh pet slot at the end of the quote (journey.md §4 Add another pet: "on /review a
    /// fresh pet slot is fetched, then the user is redirected"): the customer fills it in on the
    /// pet details page. Only while the quote has fewer than [`MAX_PETS`] pets and none of them
    /// is still blank.
    AddPet,
    /// The customer chose a language with the language chooser (journey.md §1: only where the
    /// brand has more than one). Not an answer: it changes no step, and a bought quote's pages
    /// may change language too.
    SetLanguage { language: String },
}

/// The most of an event's input the transition log keeps, in bytes of JSON. A step's answers for
/// [`MAX_PETS`] pets are a few kilobytes; a larger body is not answers anyone could give, and is
/// recorded by its size alone.
pub const MAX_INPUT_BYTES: usize = 16 * 1024;

/// An event's input as the log keeps it: itself, or its size when over [`MAX_INPUT_BYTES`].
pub fn bounded_input(value: Value) -> Value {
    let size = serde_json::to_vec(&value).map_or(usize::MAX, |bytes| bytes.len());
    if size > MAX_INPUT_BYTES {
        serde_json::json!({ "omitted_bytes": size })
    } else {
        value
    }
}

/// Whether a logged input is only the size of what was sent (over [`MAX_INPUT_BYTES`]).
pub fn input_omitted(input: &Value) -> bool {
    input.get("omitted_bytes").is_some() && input.as_object().is_some_and(|m| m.len() == 1)
}

impl Event {
    /// The event a log row names, with the input it kept ([`TransitionRecord::input`]); None for
    /// a name no engine event has (`test:patch`), or an event whose input is not kept.
    pub fn from_log(name: &str, input: Option<&Value>) -> Option<Event> {
        if let Some(step) = name.strip_prefix("submit:") {
            return Some(Event::Submit {
                step: step.into(),
                answers: input?.clone(),
            });
        }
        if let Some(questions) = name.strip_prefix("edit:") {
            return Some(Event::Edit {
                questions: questions.to_owned(),
                answers: input?.clone(),
            });
        }
        match name {
            "purchase" => Some(Event::Purchase),
            "expire" => Some(Event::Expire),
            "reset" => Some(Event::Reset),
            "add_pet" => Some(Event::AddPet),
            "remove_pet" => Some(Event::RemovePet {
                id: usize::try_from(input?.get("id")?.as_u64()?).ok()?,
            }),
            "set_language" => Some(Event::SetLanguage {
                language: input?.get("language")?.as_str()?.to_owned(),
            }),
            _ => None,
        }
    }

    /// The event as the transition log names it: the kind, and for a submission or an edit the
    /// step or question set (both from the definitions, checked before an event is made).
    pub fn name(&self) -> String {
        match self {
            Event::Submit { step, .. } => format!("submit:{step}"),
            Event::Edit { questions, .. } => format!("edit:{questions}"),
            Event::Purchase => "purchase".into(),
            Event::Expire => "expire".into(),
            Event::Reset => "reset".into(),
            // Names from a closed set: what the caller typed (a position, a
            // language) is not written to the log; a valid one shows in the quote itself.
            Event::RemovePet { .. } => "remove_pet".into(),
            Event::AddPet => "add_pet".into(),
            Event::SetLanguage { .. } => "set_language".into(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The event was applied and the quote moved to `to`.
    Moved,
    /// The answers failed validation; nothing changed.
    Invalid,
    /// The answers were stored but a blocking answer stops the customer.
    Blocked,
    /// The answers were stored, or the step asked for, but a guard keeps the way closed.
    RefusedByGuard,
    /// The quote's lifecycle does not accept this event (bought, expired or reset).
    RefusedByLifecycle,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Moved => "moved",
            Outcome::Invalid => "invalid",
            Outcome::Blocked => "blocked",
            Outcome::RefusedByGuard => "refused_by_guard",
            Outcome::RefusedByLifecycle => "refused_by_lifecycle",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GuardResult {
    pub guard: String,
    pub passed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Block {
    pub id: String,
    /// Copy key.
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// One row of the transition log (DESIGN.md principle 4), less what only the server knows
/// (quote id, brand, duration).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TransitionRecord {
    pub journey: String,
    pub definition_version: String,
    pub event: String,
    pub from: StepId,
    pub to: StepId,
    pub from_lifecycle: Lifecycle,
    pub to_lifecycle: Lifecycle,
    pub outcome: Outcome,
    pub guards: Vec<GuardResult>,
    pub field_errors: Vec<FieldError>,
    pub blocks: Vec<Block>,
    /// When the event priced the quote again (its rating inputs changed): the working of each
    /// chosen product and a reference to the rest (a product team can see why a price
    /// is what it is; not a copy of the table). None otherwise.
    pub pricing: Option<crate::journey::quoting::Pricing>,
    /// What the event carried, as the log keeps it (a quote replayed): a step's or a
    /// modal's answers as sent, every write-only answer masked; a pet's position; a language.
    /// None for an event that carries nothing. At most [`MAX_INPUT_BYTES`]: anything larger is
    /// kept only as its size (`{"omitted_bytes": n}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
}

impl TransitionRecord {
    /// The guards the event checked and found false (what keeps a refused step closed).
    pub fn failed_guards(&self) -> Vec<String> {
        self.guards
            .iter()
            .filter(|g| !g.passed)
            .map(|g| g.guard.clone())
            .collect()
    }
}

/// Work the server does after a transition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum Effect {
    /// Store the new document (and the lifecycle).
    SaveQuote,
    /// Forget the answers: the quote starts again.
    ClearQuote,
}

#[derive(Debug, Clone)]
pub struct TransitionResult {
    pub document: Value,
    pub lifecycle: Lifecycle,
    pub record: TransitionRecord,
    pub effects: Vec<Effect>,
    /// Where the quote stands after the event.
    pub position: Position,
    /// Write-only answers the event gave, taken out of the document: the server keeps them
    /// encrypted and never logs them.
    pub secrets: Vec<Secret>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("journey {0:?} is not defined")]
    UnknownJourney(String),
    #[error("step {0:?} is not a step of this journey")]
    UnknownStep(String),
    #[error("no step of this journey edits the question set {0:?}")]
    UnknownEdit(String),
    #[error(transparent)]
    Guard(#[from] UnknownGuard),
}

/// A write-only answer taken out of the document: where it was, and what it was; `None` when an
/// answer given before was withdrawn (a Direct Debit payer who now pays by card), so that what
/// was kept of it is forgotten too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    pub pointer: String,
    pub value: Option<String>,
}
