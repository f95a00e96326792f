//! The transition: a request's quote authorised (its session, CSRF token and fields), the engine
//! run on its event, the result and its record stored in one transaction, and the new view data
//! (or the field errors) as the answer.

use std::time::Instant;

use serde_json::{Map, Value};

use engine::journey::runtime::{self, Effect, Event, Lifecycle, Outcome};

use crate::service::caller::Caller;
use crate::service::error::{AppError, Closed, FieldMessage};
use crate::service::fields::only_fields;
use crate::service::policy_events;
use crate::service::quote;
use crate::service::reply::Reply;
use crate::service::state::AppState;
use crate::service::view::{self, ViewInput};
use crate::session::SessionToken;
use crate::store::{QuoteRow, TransitionMeta};

/// One of the spec's named calls (`view::ANSWER_CALLS`): checks the session and CSRF token,
/// runs the engine on the answers of the step (or, with `form`, the modal) the quote's journey
/// sends through `call`, stores the result and the transition record, and answers with the new
/// view data.
pub async fn submit(
    state: &AppState,
    caller: &Caller,
    mut body: Map<String, Value>,
    call: &str,
) -> Result<Reply, AppError> {
    let started = Instant::now();
    let answer_fields = view::answer_fields(call).unwrap_or_default();
    let taken = view::sets_taken_by(&state.defs, call);
    // `form` names the modal's question set where the definitions save modals through this call.
    let mut fields = answer_fields.to_vec();
    if !taken.modals.is_empty() {
        fields.push("form");
    }
    let auth = authorise(state, caller, &body, &fields).await?;
    let answers = take_answers(&mut body, answer_fields.iter().copied());
    let journey = quote::journey(state, &auth.quote)?;
    if let Some(form) = body.get("form") {
        let form = form
            .as_str()
            .ok_or_else(|| AppError::BadRequest("form must be a string".into()))?;
        if !taken.modals.iter().any(|m| m == form) {
            return Err(AppError::BadRequest(format!(
                "form {form:?} is not saved by {call} (it saves: {})",
                taken.modals.join(", ")
            )));
        }
        // The quote's journey has the modal, and saves it through this call.
        if !journey.steps.iter().any(|s| {
            s.edits
                .iter()
                .any(|e| *e.questions == *form && s.edit_takes_call(e, call))
        }) {
            return Err(AppError::NotFound);
        }
        let event = Event::Edit {
            questions: form.to_owned(),
            answers,
        };
        return run(state, auth, event, started).await;
    }
    if taken.forms.is_empty() {
        return Err(AppError::BadRequest(format!(
            "{call} saves a form named in the payload's form field"
        )));
    }
    // The step of the quote's journey whose answers this call takes.
    let step = journey
        .steps
        .iter()
        .find(|s| s.questions.is_some() && s.takes_call(call))
        .ok_or(AppError::NotFound)?;
    let event = Event::Submit {
        step: step.id.clone(),
        answers,
    };
    run(state, auth, event, started).await
}

/// The generic call, `POST /api/steps/{step}`: the answers of a step the spec names no call for,
/// in its question set's own fields; with `form`, one of its page's modals that has no call of its
/// own. The same session, CSRF token, pace, bounds, guards, blocking answers and transition record
/// as every named call.
pub async fn submit_step(
    state: &AppState,
    caller: &Caller,
    mut body: Map<String, Value>,
    step_id: &str,
) -> Result<Reply, AppError> {
    let started = Instant::now();
    let call = format!("{}{step_id}", engine::definitions::STEP_CALL_PREFIX);
    let call = call.as_str();
    // The fields any journey's step of this id takes through this call (an unknown step takes
    // none, and is not found once the session checks out).
    let mut fields: Vec<String> = Vec::new();
    let mut modals: Vec<String> = Vec::new();
    for journey in state.defs.journeys() {
        for step in journey.steps.iter().filter(|s| *s.id == *step_id) {
            if let Some(questions) = step.questions.as_deref()
                && step.takes_call(call)
            {
                fields.extend(view::set_fields(&state.defs, questions));
            }
            for edit in step.edits.iter().filter(|e| step.edit_takes_call(e, call)) {
                fields.extend(view::set_fields(&state.defs, &edit.questions));
                modals.push(edit.questions.to_string());
            }
        }
    }
    if fields.is_empty()
        && modals.is_empty()
        && let Some(step) = state
            .defs
            .journeys()
            .flat_map(|j| j.steps.iter())
            .find(|s| *s.id == *step_id && s.named_call.is_some())
    {
        return Err(AppError::BadRequest(format!(
            "step {step_id:?} takes its answers through {}",
            step.call()
        )));
    }
    if !modals.is_empty() {
        fields.push("form".to_owned());
    }
    fields.sort();
    fields.dedup();
    let field_names: Vec<&str> = fields.iter().map(String::as_str).collect();
    let auth = authorise(state, caller, &body, &field_names).await?;
    let journey = quote::journey(state, &auth.quote)?;
    let step = journey
        .steps
        .iter()
        .find(|s| *s.id == *step_id)
        .ok_or(AppError::NotFound)?;
    let form = match body.get("form") {
        None => None,
        Some(Value::String(form)) => Some(form.clone()),
        Some(_) => return Err(AppError::BadRequest("form must be a string".into())),
    };
    let event = match form {
        Some(form) => {
            let Some(edit) = step
                .edits
                .iter()
                .find(|e| *e.questions == *form && step.edit_takes_call(e, call))
            else {
                return Err(AppError::BadRequest(format!(
                    "form {form:?} is not saved by {call} (it saves: {})",
                    modals.join(", ")
                )));
            };
            let wanted = view::set_fields(&state.defs, &edit.questions);
            Event::Edit {
                questions: edit.questions.to_string(),
                answers: take_answers(&mut body, wanted.iter().map(String::as_str)),
            }
        }
        None => {
            let Some(questions) = step.questions.as_deref().filter(|_| step.takes_call(call))
            else {
                return Err(AppError::BadRequest(format!(
                    "step {step_id:?} takes its answers through {}",
                    step.call()
                )));
            };
            let wanted = view::set_fields(&state.defs, questions);
            Event::Submit {
                step: step.id.clone(),
                answers: take_answers(&mut body, wanted.iter().map(String::as_str)),
            }
        }
    };
    run(state, auth, event, started).await
}

/// The answers in the body's `fields`, taken out of it.
fn take_answers<'f>(body: &mut Map<String, Value>, fields: impl Iterator<Item = &'f str>) -> Value {
    let mut answers = Map::new();
    for field in fields {
        if let Some(v) = body.remove(field) {
            answers.insert(field.to_owned(), v);
        }
    }
    Value::Object(answers)
}

/// A request whose session, CSRF token and fields checked out: its quote, its session, and the
/// experiment views the call helper sent (journey.md §6, §7), kept with the transition record.
pub struct Authorised {
    pub quote: QuoteRow,
    pub token: SessionToken,
    pub experiment_views: Vec<String>,
}

/// The request's quote, once its session, CSRF token and fields check out.
pub async fn authorise(
    state: &AppState,
    caller: &Caller,
    body: &Map<String, Value>,
    fields: &[&str],
) -> Result<Authorised, AppError> {
    let Some((quote, token)) = quote::existing(state, caller).await? else {
        return Err(AppError::Csrf);
    };
    authorise_found(state, quote, token, body, fields).await
}

/// [`authorise`] for a session's quote the caller has already found (read once: a second read
/// could find it reset as idle in between).
pub async fn authorise_found(
    state: &AppState,
    quote: crate::store::QuoteRow,
    token: crate::session::SessionToken,
    body: &Map<String, Value>,
    fields: &[&str],
) -> Result<Authorised, AppError> {
    match body.get("csrf").and_then(Value::as_str) {
        Some(given) if token.csrf_matches(&state.config.secret_key, given) => {}
        _ => return Err(AppError::Csrf),
    }
    only_fields(body, fields)?;
    // No faster than a person: the quote's own allowance (a token bucket kept with the quote,
    // taken from by one atomic statement), so a new session or another server gives no more.
    let per_minute = state.pace.per_minute();
    if !state.pace.take(&state.store, &quote.id).await? {
        crate::metrics::rate_limited("session_saves");
        return Err(AppError::SlowDown {
            message: quote::voice(state, &quote).t("error.too_fast"),
            retry_after: (60.0 / per_minute).ceil() as u64,
        });
    }
    let experiment_views = experiment_views(state, body)?;
    Ok(Authorised {
        quote,
        token,
        experiment_views,
    })
}

/// The most experiment views one call may carry.
const MAX_EXPERIMENT_VIEWS: usize = 20;

/// `experiment_views`: the variations the page showed, each `"{experiment}:{variation}"` of a
/// defined experiment; absent means none.
fn experiment_views(state: &AppState, body: &Map<String, Value>) -> Result<Vec<String>, AppError> {
    let items = match body.get("experiment_views") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) if items.len() <= MAX_EXPERIMENT_VIEWS => items,
        Some(_) => {
            return Err(AppError::BadRequest(format!(
                "experiment_views must be a list of at most {MAX_EXPERIMENT_VIEWS} \"experiment:variation\" names"
            )));
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| match v.as_str() {
            Some(view) if state.defs.experiments().is_some_and(|e| e.knows_view(view)) => {
                Ok(view.to_owned())
            }
            _ => Err(AppError::BadRequest(format!(
                "experiment_views[{i}] is not a variation of a defined experiment"
            ))),
        })
        .collect()
}

/// Runs an event through the engine, stores the result and its transition record in one
/// transaction, and answers with the new view data (or the field errors).
pub async fn run(
    state: &AppState,
    auth: Authorised,
    event: Event,
    started: Instant,
) -> Result<Reply, AppError> {
    let Authorised {
        mut quote,
        token,
        experiment_views,
    } = auth;
    let journey = quote::journey(state, &quote)?;
    let rules = quote::rule_context(state, &quote);
    // A bought quote's edit (a modal of its confirmation page) owes the insurer an event where it
    // changes the customer's preferences: what they were is read before the engine takes them.
    let bought = quote.lifecycle == Lifecycle::Purchased;
    let preferences = bought.then(|| policy_events::preferences_of(&quote.document));
    // The engine takes the stored document (not a copy); the quote gets back what it answers.
    let result = runtime::transition_from(
        &state.defs,
        &journey.id,
        std::mem::take(&mut quote.document),
        quote.lifecycle,
        &event,
        rules.clone(),
    )?;

    let update = result
        .effects
        .iter()
        .any(|e| matches!(e, Effect::SaveQuote | Effect::ClearQuote));
    let meta = TransitionMeta::of(&quote, started, &experiment_views);
    let duration_us = meta.duration_us;
    // Write-only answers (a bank account number) are kept only encrypted, beside the quote.
    let secrets = result
        .secrets
        .iter()
        .map(|s| match &s.value {
            Some(value) => state
                .config
                .encryption_key
                .encrypt(&quote.id, &s.pointer, value)
                .map(|c| (s.pointer.clone(), Some(c)))
                .map_err(AppError::Internal),
            // A withdrawn answer: what was kept of it goes.
            None => Ok((s.pointer.clone(), None)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let purchase = match bought && update {
        true => state.store.purchase_of(&quote.id).await?,
        false => None,
    };
    let events: Vec<_> = match (&preferences, &purchase) {
        (Some(before), Some(purchase)) => {
            policy_events::preferences_changed(before, &result.document, &purchase.id, &quote)
                .into_iter()
                .collect()
        }
        _ => Vec::new(),
    };
    state
        .store
        .record_with_events(
            &quote,
            update.then_some((&result.document, result.lifecycle)),
            &result.record,
            meta,
            &secrets,
            &events,
        )
        .await?;
    if !events.is_empty() {
        state.events.wake();
    }
    tracing::info!(
        quote = %quote.id,
        journey = %result.record.journey,
        event = %result.record.event,
        from = %result.record.from,
        to = %result.record.to,
        outcome = result.record.outcome.as_str(),
        field_errors = result.record.field_errors.len(),
        duration_us,
        "transition"
    );

    // The quote as it now stands (as it was, where the event changed nothing).
    quote.document = result.document;
    quote.lifecycle = result.lifecycle;
    match result.record.outcome {
        Outcome::Invalid => {
            let errors = result
                .record
                .field_errors
                .iter()
                .map(|e| FieldMessage {
                    field: e.field.clone(),
                    message: quote::voice(state, &quote).message(e),
                })
                .collect();
            return Err(AppError::Validation(errors));
        }
        Outcome::RefusedByLifecycle => return Err(AppError::QuoteClosed),
        // A step or form the quote cannot open: refused, naming it and its failed guards, with
        // nothing stored. Answers stored on a step whose way on a guard keeps closed
        // are a success: the page shows where the customer stands.
        Outcome::RefusedByGuard if !update => {
            return Err(AppError::StepClosed(match &event {
                Event::Edit { questions, .. } => Closed::Form {
                    form: questions.clone(),
                },
                _ => Closed::Step {
                    step: result.record.from.to_string(),
                    guards: result.record.failed_guards(),
                },
            }));
        }
        Outcome::Moved | Outcome::Blocked | Outcome::RefusedByGuard => {}
    }

    let saved = quote;
    if bought {
        // Still bought: the confirmation as it now stands.
        return quote::confirmation(state, &saved, &token).await;
    }
    let viewing = journey.step(&result.record.to).ok_or_else(|| {
        AppError::Internal(format!("transition to unknown step {}", result.record.to))
    })?;
    let csrf = token.csrf(&state.config.secret_key);
    let voice = quote::voice(state, &saved);
    let input = ViewInput {
        defs: &state.defs,
        journey,
        quote: &saved,
        viewing,
        position: &result.position,
        csrf: &csrf,
        voice: &voice,
        rules: &rules,
        holidays: &state.holidays,
        banks: &state.banks,
        card_provider: state.payments.browser(),
        timeouts: quote::timeouts(state, &saved),
        purchase: None,
        account_number: view::account_number_for(state, viewing, &saved).await?,
        after_edit: matches!(event, Event::Edit { .. }),
    };
    let data = view::view_data(&input)?;
    view::Answer {
        data,
        outcome: Some(result.record.outcome),
    }
    .reply()
}
