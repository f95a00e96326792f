//! The runtime: (definitions, quote document, event) → (new document, transition record,
//! effects), with a statig machine over the quote's lifecycle. The JSON steps decide what happens
//! while the quote is in a step; the machine decides which events a lifecycle state accepts.
//!
//! Nothing here does I/O: the server stores the document, writes the record and runs the effects.

use serde_json::Value;
use statig::prelude::*;

use crate::checks::compiled::Definitions;
use crate::definitions::schema::FieldError;
use crate::definitions::{Journey, Step, StepId};
use crate::journey::position::{self, Position};
use crate::rules::context::RuleContext;

use crate::journey::answers::keep_locked;

mod edits;
pub use crate::journey::answers::{
    UNDECLARED_KEYS, empty_document, locked_fields, mask, mask_write_only, merge, project,
    take_write_only,
};
pub use crate::journey::record::{
    Block, Effect, EngineError, Event, GuardResult, Lifecycle, MAX_INPUT_BYTES, MAX_PETS, Outcome,
    Secret, TransitionRecord, TransitionResult, bounded_input, input_omitted,
};

/// What the machine's states work on.
struct Ctx<'a> {
    defs: &'a Definitions,
    journey: &'a Journey,
    rules: RuleContext,
    document: Value,
    record: TransitionRecord,
    effects: Vec<Effect>,
    error: Option<EngineError>,
    secrets: Vec<Secret>,
    /// Where the quote stood before the event: derived once, read by the event's action.
    before: Position,
    /// Where it stands after, where the action already derived it (an edit).
    after: Option<Position>,
}

/// Where the machine resumes: the stored lifecycle and the derived position.
#[derive(Debug, Clone)]
struct Snapshot {
    lifecycle: Lifecycle,
    furthest: StepId,
    blocked: bool,
}

enum MachineEvent<'e> {
    Resume(&'e Snapshot),
    Customer(&'e Event),
}

#[derive(Default)]
struct QuoteMachine;

#[state_machine(initial = "State::resuming()", state(derive(Debug, Clone)))]
impl QuoteMachine {
    /// Before the first event: restore the lifecycle the server stored.
    #[state]
    fn resuming(event: &MachineEvent<'_>) -> statig::Outcome<State> {
        match event {
            MachineEvent::Resume(s) => match s.lifecycle {
                Lifecycle::Active if s.blocked => Transition(State::blocked(s.furthest.clone())),
                Lifecycle::Active => Transition(State::in_step(s.furthest.clone())),
                Lifecycle::Purchased => Transition(State::purchased()),
                Lifecycle::Expired => Transition(State::expired()),
                Lifecycle::Reset => Transition(State::reset()),
            },
            MachineEvent::Customer(_) => Handled,
        }
    }

    #[state(superstate = "open")]
    fn in_step(step: &mut StepId, event: &MachineEvent<'_>) -> statig::Outcome<State> {
        let _ = step;
        let _ = event;
        Super
    }

    #[state(superstate = "open")]
    fn blocked(step: &mut StepId, event: &MachineEvent<'_>) -> statig::Outcome<State> {
        let _ = step;
        let _ = event;
        Super
    }

    /// A quote that can still be answered: the JSON steps decide what a submission does.
    #[superstate]
    fn open(context: &mut Ctx<'_>, event: &MachineEvent<'_>) -> statig::Outcome<State> {
        match event {
            MachineEvent::Customer(Event::Submit { step, answers }) => {
                match context.submit(step, answers) {
                    Ok(StepOutcome::Stay(s)) => Transition(State::in_step(s)),
                    Ok(StepOutcome::Blocked(s)) => Transition(State::blocked(s)),
                    Ok(StepOutcome::Unchanged) => Handled,
                    Err(e) => {
                        context.error = Some(e);
                        Handled
                    }
                }
            }
            MachineEvent::Customer(Event::Edit { questions, answers }) => {
                match context.edit(questions, answers) {
                    Ok(()) => Transition(State::in_step(context.record.to.clone())),
                    Err(e) => {
                        context.error = Some(e);
                        Handled
                    }
                }
            }
            MachineEvent::Customer(Event::AddPet) => {
                context.add_pet();
                match context.error {
                    Some(_) => Handled,
                    None => Transition(State::in_step(context.record.to.clone())),
                }
            }
            MachineEvent::Customer(Event::RemovePet { id }) => {
                context.remove_pet(*id);
                match context.error {
                    Some(_) => Handled,
                    None => Transition(State::in_step(context.record.to.clone())),
                }
            }
            MachineEvent::Customer(Event::Purchase) => match context.purchase() {
                Ok(true) => Transition(State::purchased()),
                Ok(false) => Handled,
                Err(e) => {
                    context.error = Some(e);
                    Handled
                }
            },
            MachineEvent::Customer(Event::SetLanguage { language }) => {
                context.set_language(language, true);
                Handled
            }
            MachineEvent::Customer(Event::Expire) => {
                context.record.outcome = Outcome::Moved;
                context.record.to_lifecycle = Lifecycle::Expired;
                context.effects.push(Effect::SaveQuote);
                Transition(State::expired())
            }
            MachineEvent::Customer(Event::Reset) => {
                if saved_for_retrieval(&context.document) {
                    context.part();
                    Handled
                } else {
                    context.reset();
                    Transition(State::reset())
                }
            }
            MachineEvent::Resume(_) => Handled,
        }
    }

    /// Bought: answers can no longer change, but for the modals the confirmation page offers
    /// (owner-payment.md §1: "After purchase they ... can set marketing and communication
    /// preferences"); starting again gives a new quote.
    #[state]
    fn purchased(context: &mut Ctx<'_>, event: &MachineEvent<'_>) -> statig::Outcome<State> {
        match event {
            MachineEvent::Customer(Event::Edit { questions, answers }) => {
                if let Err(e) = context.edit_bought(questions, answers) {
                    context.error = Some(e);
                }
                Handled
            }
            _ => closed(context, event),
        }
    }

    #[state]
    fn expired(context: &mut Ctx<'_>, event: &MachineEvent<'_>) -> statig::Outcome<State> {
        closed(context, event)
    }

    #[state]
    fn reset(context: &mut Ctx<'_>, event: &MachineEvent<'_>) -> statig::Outcome<State> {
        closed(context, event)
    }
}

fn closed(context: &mut Ctx<'_>, event: &MachineEvent<'_>) -> statig::Outcome<State> {
    match event {
        MachineEvent::Customer(Event::Reset) => {
            context.reset();
            Transition(State::reset())
        }
        MachineEvent::Customer(Event::SetLanguage { language }) => {
            context.set_language(language, false);
            Handled
        }
        MachineEvent::Customer(_) => {
            context.record.outcome = Outcome::RefusedByLifecycle;
            Handled
        }
        MachineEvent::Resume(_) => Handled,
    }
}

enum StepOutcome {
    Stay(StepId),
    Blocked(StepId),
    Unchanged,
}

impl Ctx<'_> {
    /// The server's fields over a changed document: the pets' derived fields, the quote's, then
    /// the prices, worked out again only when their rating inputs changed (crate::journey::quoting).
    /// Returns what the transition records of a new pricing.
    fn derive(&self, candidate: &mut Value) -> Option<crate::journey::quoting::Pricing> {
        crate::rules::domain::derive_pet_fields(self.defs, candidate);
        crate::rules::domain::derive_quote_fields(self.defs, candidate, &self.rules);
        crate::journey::quoting::requote(self.defs, candidate, &self.rules)
    }

    /// Adds a blank pet at the end (journey.md §4 Add another pet): the journey's position moves
    /// back to the page that asks for it. Refused with a field error when the quote already has
    /// [`MAX_PETS`] pets, or a pet not yet described (one blank slot at a time).
    fn add_pet(&mut self) {
        let pets = self.document.get("pets").and_then(Value::as_array);
        let count = pets.map_or(0, Vec::len);
        let blank = pets.is_some_and(|p| {
            p.iter().any(|pet| {
                pet.get("pet_type")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
            })
        });
        if count >= MAX_PETS || blank {
            self.record.outcome = Outcome::Invalid;
            self.record.field_errors = vec![FieldError::new(
                "pets",
                if blank {
                    "pet.add.blank_waiting"
                } else {
                    "pet.add.too_many"
                },
            )];
            return;
        }
        let mut document = self.document.clone();
        match document.get_mut("pets").and_then(Value::as_array_mut) {
            Some(list) => list.push(Value::Object(serde_json::Map::new())),
            None => {
                if let Some(map) = document.as_object_mut() {
                    map.insert(
                        "pets".into(),
                        Value::Array(vec![Value::Object(serde_json::Map::new())]),
                    );
                }
            }
        }
        self.settle(document);
    }

    /// Keeps a document whose pets changed (added or removed): the server's fields and prices
    /// worked out again, and the quote moved to where its answers now stop.
    fn settle(&mut self, mut document: Value) {
        let pricing = self.derive(&mut document);
        self.document = document;
        self.record.pricing = pricing;
        match locate(self.defs, self.journey, &self.document, &self.rules) {
            Ok((position, _)) => {
                self.record.to = position.furthest;
                self.record.outcome = Outcome::Moved;
                self.effects.push(Effect::SaveQuote);
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Removes the pet at 1-based position `id` when more than one pet exists; otherwise the
    /// event is invalid and nothing changes.
    fn remove_pet(&mut self, id: usize) {
        let count = self
            .document
            .get("pets")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if count < 2 || id == 0 || id > count {
            self.record.outcome = Outcome::Invalid;
            self.record.field_errors = vec![FieldError::new("id", "pet.remove.not_allowed")];
            return;
        }
        let mut document = self.document.clone();
        if let Some(pets) = document.get_mut("pets").and_then(Value::as_array_mut) {
            pets.remove(id - 1);
        }
        self.settle(document);
    }

    /// Keeps the language the customer chose, one the quote's brand speaks; an open quote is
    /// priced again so that its amounts are written for that language. The customer stays
    /// where they are.
    fn set_language(&mut self, language: &str, open: bool) {
        let spoken = self
            .defs
            .brand(&self.rules.brand)
            .is_some_and(|b| b.speaks(language));
        if !spoken {
            self.record.outcome = Outcome::Invalid;
            self.record.field_errors = vec![FieldError::new("language", "language.not_offered")];
            return;
        }
        if let Some(map) = self.document.as_object_mut() {
            map.insert("language".into(), Value::from(language));
        }
        if open {
            let mut document = self.document.clone();
            self.record.pricing = self.derive(&mut document);
            self.document = document;
        }
        self.record.outcome = Outcome::Moved;
        self.effects.push(Effect::SaveQuote);
    }

    /// Buying: only once every step before the one that leads to the journey's end is complete,
    /// that is, once the customer can open that step (the bank details panel). Then the quote
    /// moves to the terminal step and is purchased; otherwise the way is closed by a guard.
    fn purchase(&mut self) -> Result<bool, EngineError> {
        let before = &self.before;
        // The step buying moves on from: one that exits to the terminal step, the open one where
        // there are several (Direct Debit's payment confirmation or the card confirmation).
        let before_terminal: Vec<&Step> = self
            .journey
            .steps
            .iter()
            .filter(|step| {
                step.exits
                    .iter()
                    .any(|exit| self.journey.step(&exit.to).is_some_and(|to| to.terminal))
            })
            .collect();
        let last = before_terminal
            .iter()
            .find(|step| before.can_open(&step.id))
            .or_else(|| before_terminal.first())
            .copied();
        let terminal = self.journey.steps.iter().find(|s| s.terminal);
        let (Some(last), Some(terminal)) = (last, terminal) else {
            self.record.outcome = Outcome::RefusedByGuard;
            return Ok(false);
        };
        // A step with answers of its own (the rehoming flow's your details) must also be
        // complete; one without (the bank details panel) completes by buying.
        let answered = last.questions.is_none() && last.complete_when.is_none()
            || before.completed.contains(&last.id);
        if !before.can_open(&last.id) || !answered {
            // As for a submission, the log names the step the event asked for.
            self.record.from = last.id.clone();
            self.record.to = last.id.clone();
            self.record.outcome = Outcome::RefusedByGuard;
            for g in &last.requires {
                self.guard(g)?;
            }
            return Ok(false);
        }
        self.record.from = last.id.clone();
        self.record.to = terminal.id.clone();
        self.record.outcome = Outcome::Moved;
        self.record.to_lifecycle = Lifecycle::Purchased;
        self.effects.push(Effect::SaveQuote);
        Ok(true)
    }

    /// Starting again from a quote saved for retrieval (journey.md §2 Inactivity timeout): the
    /// answers are kept and the quote stays open, to be found again by its reference and email;
    /// the server parts it from the session, which is what protects it on a shared device.
    fn part(&mut self) {
        self.record.outcome = Outcome::Moved;
    }

    fn reset(&mut self) {
        self.document = empty_document();
        self.record.outcome = Outcome::Moved;
        self.record.to = self.journey.start.clone();
        self.record.to_lifecycle = Lifecycle::Reset;
        self.effects.push(Effect::ClearQuote);
    }

    /// Evaluates a guard over the quote's document as it now stands, and records it.
    fn guard(&mut self, name: &str) -> Result<bool, EngineError> {
        let passed = self.defs.guard(name, &self.document)?;
        self.record.guards.push(GuardResult {
            guard: name.to_owned(),
            passed,
        });
        Ok(passed)
    }

    fn submit(&mut self, step_id: &str, answers: &Value) -> Result<StepOutcome, EngineError> {
        let journey = self.journey;
        let step = journey
            .step(step_id)
            .ok_or_else(|| EngineError::UnknownStep(step_id.to_owned()))?;
        self.record.from = step.id.clone();
        self.record.to = step.id.clone();

        if !self.before.can_open(&step.id) {
            for g in &step.requires {
                self.guard(g)?;
            }
            self.record.outcome = Outcome::RefusedByGuard;
            return Ok(StepOutcome::Unchanged);
        }

        let schema = step
            .questions
            .as_deref()
            .and_then(|q| self.defs.question_schema(q));
        let Some(schema) = schema else {
            // A step without questions takes no answers.
            self.record.outcome = Outcome::Invalid;
            return Ok(StepOutcome::Unchanged);
        };
        // The questions hold over the document as it would be: the answers written in, the
        // server's derived fields recomputed. So a question's `if` can read what the server
        // knows (a pet's breed category), and nothing half-written is ever stored. A list
        // longer than the questions allow is refused before anything is built from it.
        let answers = project(&schema.schema, answers);
        if let Some(error) = schema
            .size_error(&answers)
            .or_else(|| crate::journey::answers::undeclared_key_error(&schema.schema, &answers))
        {
            self.record.outcome = Outcome::Invalid;
            self.record.field_errors = vec![error];
            return Ok(StepOutcome::Unchanged);
        }
        let mut candidate = merge(&schema.schema, &self.document, &answers);
        keep_locked(self.defs, self.journey, &self.document, &mut candidate)?;
        crate::rules::domain::forget_stale_confirmations(&self.document, &mut candidate);
        let pricing = self.derive(&mut candidate);
        let mut errors = position::step_errors(self.defs, step, &candidate, &self.rules);
        if !errors.is_empty() {
            errors.truncate(crate::definitions::schema::MAX_FIELD_ERRORS);
            self.record.outcome = Outcome::Invalid;
            self.record.field_errors = errors;
            return Ok(StepOutcome::Unchanged);
        }
        self.document = candidate;
        self.secrets = take_write_only(&schema.schema, &mut self.document);
        self.record.pricing = pricing;
        self.effects.push(Effect::SaveQuote);

        let mut blocks = Vec::new();
        for rule in &step.blocking {
            if self.guard(&rule.when)? {
                blocks.push(Block {
                    id: rule.id.clone(),
                    message: rule.message.clone().unwrap_or_default(),
                    field: rule.field.clone(),
                });
            }
        }
        if !blocks.is_empty() {
            self.record.outcome = Outcome::Blocked;
            self.record.blocks = blocks;
            return Ok(StepOutcome::Blocked(step.id.clone()));
        }

        let mut target = None;
        for exit in &step.exits {
            let open = match &exit.when {
                Some(g) => self.guard(g)?,
                None => true,
            };
            if open {
                target = journey.step(&exit.to);
                break;
            }
        }
        let Some(target) = target else {
            self.record.outcome = Outcome::RefusedByGuard;
            return Ok(StepOutcome::Stay(step.id.clone()));
        };
        let mut met = true;
        for g in &target.requires {
            met &= self.guard(g)?;
        }
        if !met {
            self.record.outcome = Outcome::RefusedByGuard;
            return Ok(StepOutcome::Stay(step.id.clone()));
        }
        self.record.outcome = Outcome::Moved;
        self.record.to = target.id.clone();
        Ok(StepOutcome::Stay(target.id.clone()))
    }
}

/// Derives where the quote stands (without whether its furthest step is blocked, which only a
/// transition needs).
pub fn position_of(
    defs: &Definitions,
    journey: &Journey,
    document: &Value,
    rules: &RuleContext,
) -> Result<Position, EngineError> {
    Ok(position::derive(defs, journey, document, rules)?)
}

/// Derives where the quote stands and whether its current step is blocked.
pub fn locate(
    defs: &Definitions,
    journey: &Journey,
    document: &Value,
    rules: &RuleContext,
) -> Result<(Position, bool), EngineError> {
    let pos = position_of(defs, journey, document, rules)?;
    let blocked = match journey.step(&pos.furthest) {
        Some(step) => !position::active_blocks(defs, step, document)?.is_empty(),
        None => false,
    };
    Ok((pos, blocked))
}

/// What the log keeps of what an event carried: answers with their write-only answers
/// masked by the schema of the step or modal they are for, bounded in size.
fn event_input(defs: &Definitions, journey: &Journey, event: &Event) -> Option<Value> {
    let masked = |questions: Option<&str>, answers: &Value| match questions
        .and_then(|q| defs.question_schema(q))
    {
        Some(schema) => mask_write_only(&schema.schema, answers),
        None => answers.clone(),
    };
    let value = match event {
        Event::Submit { step, answers } => masked(
            journey.step(step).and_then(|s| s.questions.as_deref()),
            answers,
        ),
        Event::Edit { questions, answers } => masked(Some(questions), answers),
        Event::RemovePet { id } => serde_json::json!({ "id": id }),
        Event::SetLanguage { language } => serde_json::json!({ "language": language }),
        Event::Purchase | Event::Expire | Event::Reset | Event::AddPet => return None,
    };
    Some(bounded_input(value))
}

/// Whether the customer can come back to an open quote by its reference and their email address
/// (retrieve-quote, owner-payment.md §2): the owner's email is stored. Starting again from such a
/// quote keeps it (journey.md §2 Inactivity timeout): only its session ends.
pub fn saved_for_retrieval(document: &Value) -> bool {
    document
        .pointer("/owner/email_address")
        .and_then(Value::as_str)
        .is_some_and(|e| !e.trim().is_empty())
}

/// Whether starting again (the `Reset` event) keeps the quote open to be retrieved rather than
/// clearing it: an open quote saved for retrieval. The server tells the browser so beforehand.
pub fn kept_on_reset(lifecycle: Lifecycle, document: &Value) -> bool {
    lifecycle == Lifecycle::Active && saved_for_retrieval(document)
}

/// The pure transition function.
pub fn transition(
    defs: &Definitions,
    journey_id: &str,
    document: &Value,
    lifecycle: Lifecycle,
    event: &Event,
    rules: RuleContext,
) -> Result<TransitionResult, EngineError> {
    transition_from(defs, journey_id, document.clone(), lifecycle, event, rules)
}

/// [`transition`] of a document the caller gives up (it is not copied): the result holds it,
/// changed or not.
pub fn transition_from(
    defs: &Definitions,
    journey_id: &str,
    document: Value,
    lifecycle: Lifecycle,
    event: &Event,
    rules: RuleContext,
) -> Result<TransitionResult, EngineError> {
    let journey = defs
        .journey(journey_id)
        .ok_or_else(|| EngineError::UnknownJourney(journey_id.to_owned()))?;
    let (before, blocked) = locate(defs, journey, &document, &rules)?;
    let snapshot = Snapshot {
        lifecycle,
        furthest: before.furthest.clone(),
        blocked,
    };

    let mut ctx = Ctx {
        defs,
        journey,
        rules,
        document,
        record: TransitionRecord {
            journey: journey.id.clone(),
            definition_version: defs.version().to_owned(),
            event: event.name(),
            from: before.furthest.clone(),
            to: before.furthest.clone(),
            from_lifecycle: lifecycle,
            to_lifecycle: lifecycle,
            outcome: Outcome::Invalid,
            guards: Vec::new(),
            field_errors: Vec::new(),
            blocks: Vec::new(),
            pricing: None,
            input: event_input(defs, journey, event),
        },
        effects: Vec::new(),
        error: None,
        secrets: Vec::new(),
        before,
        after: None,
    };

    let mut machine = QuoteMachine
        .uninitialized_state_machine()
        .init_with_context(&mut ctx);
    machine.handle_with_context(&MachineEvent::Resume(&snapshot), &mut ctx);
    machine.handle_with_context(&MachineEvent::Customer(event), &mut ctx);
    if let Some(e) = ctx.error {
        return Err(e);
    }
    let after = match ctx.after.take() {
        Some(after) => after,
        None => position_of(defs, journey, &ctx.document, &ctx.rules)?,
    };
    Ok(TransitionResult {
        document: ctx.document,
        lifecycle: ctx.record.to_lifecycle,
        record: ctx.record,
        effects: ctx.effects,
        position: after,
        secrets: ctx.secrets,
    })
}
