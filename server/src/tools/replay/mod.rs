//! Any quote replayed as the customer saw it: `pawpath replay <reference>` and the staff
//! page `/internal/replay`.
//!
//! The quote's events are run again through the engine, from the document the quote started
//! with, each on the definitions version it was recorded with (kept in `definitions_versions`)
//! and on the UK date it happened. For each transition the replay gives what the customer sent
//! (write-only answers masked), the guards and their verdicts, the field errors in the customer's
//! words, the prices quoted with their working, and the page the customer was then shown: the
//! view data drawn from that moment's answers with that version's definitions.
//!
//! Every event run again is checked against its log row (outcome, step, guards, field errors,
//! blocks and the pricing working): a replay that agrees with the log is one the log vouches for;
//! where they differ the replay says so, and where it cannot run an event again (no input kept,
//! a definitions version not kept) it says why and shows the log alone from there.
//!
//! Write-only answers are kept only encrypted, and only the latest: an event that sent one is run
//! again with the kept value where the masks agree (the bank details the quote was bought with).

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Value, json};

use engine::Definitions;
use engine::definitions::MemoryLoader;
use engine::journey::runtime::{self, Effect, Event, Lifecycle, TransitionRecord};
use engine::rules::context::RuleContext;

use crate::service::error::AppError;
use crate::service::staff;
use crate::service::state::AppState;
use crate::service::view::{self, ViewInput};
use crate::store::QuoteRow;
use crate::store::replay::LoggedTransition;

pub mod print;

/// The most transitions one replay shows (pages drawn); `from` pages on.
pub const MAX_SHOWN: usize = 20;

/// The most view data one replay's drawn pages hold, in bytes of JSON (an answer stays
/// bounded however large each page is); past it a step's page is not drawn, and says where to
/// ask from.
pub const MAX_PAGES_BYTES: usize = 1024 * 1024;

/// The most events one replay runs again: a quote's log up to the last transition shown. Beyond
/// this the log is shown without running it again.
pub const MAX_RUN: usize = 2_000;

/// A quote's replay.
#[derive(Debug, Serialize)]
pub struct Replay {
    pub reference: String,
    pub brand: engine::definitions::BrandId,
    pub channel: String,
    pub journey: engine::definitions::JourneyId,
    pub lifecycle: String,
    pub created_at: String,
    /// How many transitions the quote's log holds.
    pub transitions: usize,
    /// The 1-based number of the first transition shown.
    pub from: usize,
    /// How many of the transitions shown were run again and agree with the log.
    pub reproduced: usize,
    /// Why some transitions could not be run again, when some could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub steps: Vec<Replayed>,
}

/// One transition, replayed.
#[derive(Debug, Serialize)]
pub struct Replayed {
    /// Its 1-based number in the quote's log.
    pub n: usize,
    /// When, in UK time (`27/11/2026 14:03:12`).
    pub at: String,
    pub definition_version: String,
    pub event: String,
    pub from: String,
    pub to: String,
    pub outcome: String,
    /// What the event carried: the answers as sent, write-only answers masked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<Value>,
    pub experiment_views: Value,
    pub guards: Value,
    pub field_errors: Value,
    /// The field errors as the customer read them.
    pub messages: Vec<Value>,
    pub blocks: Value,
    /// The working of the prices, where the event priced the quote again (as logged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pricing: Option<Value>,
    /// The quote's totals after the event, once a product is chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub totals: Option<Value>,
    /// `reproduced`, `differs` (with what), `from_log` (a refused write-only answer, never kept:
    /// the log's verdict stands, with why) or `not_run` (with why).
    pub replay: Value,
    /// The view data of the page the customer was shown after the event, as drawn then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<Value>,
}

/// What the replay is asked for.
#[derive(Debug, Clone)]
pub struct Ask {
    pub reference: String,
    /// The 1-based number of the first transition to show.
    pub from: usize,
    /// How many to show, at most [`MAX_SHOWN`].
    pub count: usize,
    /// Whether to draw each page's view data (the CLI's `--pages`; the staff page always does).
    pub pages: bool,
}

/// The definitions versions one replay runs on: the served one, and each kept one it loads.
struct Versions<'a> {
    state: &'a AppState,
    loaded: HashMap<String, Result<Arc<Definitions>, String>>,
}

impl Versions<'_> {
    async fn get(&mut self, version: &str) -> Result<Arc<Definitions>, String> {
        if version == self.state.defs.version() {
            return Ok(Arc::clone(&self.state.defs));
        }
        if let Some(found) = self.loaded.get(version) {
            return found.clone();
        }
        let loaded = match staff::store(self.state).definitions_files(version).await {
            Ok(Some(files)) => {
                // Loading and checking a definition set is work for the CPU.
                tokio::task::spawn_blocking(move || {
                    Definitions::load(&MemoryLoader { files })
                        .map(Arc::new)
                        .map_err(|e| {
                            format!("definitions version kept, but this build cannot load it: {e}")
                        })
                })
                .await
                .unwrap_or_else(|e| Err(format!("loading the definitions stopped: {e}")))
            }
            Ok(None) => Err(format!(
                "definitions version {version} was not kept (it ran before versions were kept)"
            )),
            Err(e) => Err(format!("definitions version {version}: {e}")),
        };
        self.loaded.insert(version.to_owned(), loaded.clone());
        loaded
    }
}

/// A quote's transitions replayed (see the module's note). `NotFound` for a reference no quote
/// has (or a purged one's).
pub async fn replay(state: &AppState, ask: &Ask) -> Result<Replay, AppError> {
    let quote = staff::store(state)
        .quote_by_ref(&ask.reference)
        .await?
        .ok_or(AppError::NotFound)?;
    let from = ask.from.max(1);
    let count = ask.count.clamp(1, MAX_SHOWN);
    let total =
        usize::try_from(staff::store(state).transition_count(&quote.id).await?).unwrap_or(0);
    let last = (from + count - 1).min(total);
    let run_to = last.min(MAX_RUN);
    let log = staff::store(state)
        .logged_transitions(&quote.id, i64::try_from(last).unwrap_or(i64::MAX))
        .await?;
    let opening = staff::store(state).opening(&quote.id).await?;
    let secrets = kept_secrets(state, &quote).await?;
    let mut versions = Versions {
        state,
        loaded: HashMap::new(),
    };
    // Why events are no longer run again, once they are not.
    let mut stopped = match opening {
        None => Some("the quote was made before its opening document was kept".to_owned()),
        Some(_) => None,
    };
    let mut document = opening;
    let mut lifecycle = Lifecycle::Active;
    let mut steps = Vec::new();
    let mut reproduced = 0;
    let mut drawn_bytes = 0usize;
    for (i, logged) in log.iter().enumerate() {
        let n = i + 1;
        let shown = n >= from;
        let mut replayed = logged_step(n, logged);
        if n > run_to && stopped.is_none() {
            stopped = Some(format!("only the first {MAX_RUN} events are run again"));
        }
        let run = match (document.take(), &stopped) {
            (Some(doc), None) => Some(
                run_again(
                    state,
                    &mut versions,
                    &quote,
                    logged,
                    doc,
                    lifecycle,
                    &secrets,
                    shown && ask.pages,
                )
                .await,
            ),
            _ => None,
        };
        match run {
            Some(Ok(again)) => {
                document = Some(again.document);
                lifecycle = again.lifecycle;
                if let Some(why) = again.trusted {
                    replayed.replay = json!({ "status": "from_log", "why": why });
                } else if again.differs.is_empty() {
                    reproduced += usize::from(shown);
                    replayed.replay = json!({ "status": "reproduced" });
                } else {
                    replayed.replay = json!({ "status": "differs", "what": again.differs });
                }
                replayed.messages = again.messages;
                replayed.totals = again.totals;
                replayed.page = again.page.map(|page| {
                    let size = serde_json::to_vec(&page).map_or(usize::MAX, |b| b.len());
                    if drawn_bytes.saturating_add(size) > MAX_PAGES_BYTES {
                        json!({ "not_drawn": format!(
                            "this answer's pages are at their bound of {MAX_PAGES_BYTES} bytes: ask from {n}"
                        ) })
                    } else {
                        drawn_bytes += size;
                        page
                    }
                });
            }
            Some(Err(why)) => {
                replayed.replay = json!({ "status": "not_run", "why": why });
                stopped = Some(format!("transition {n} could not be run again: {why}"));
            }
            None => {
                replayed.replay = json!({
                    "status": "not_run",
                    "why": stopped.as_deref().unwrap_or("not run"),
                });
            }
        }
        if shown {
            steps.push(replayed);
        }
    }
    let note = stopped.map(|why| format!("{why}; from there the log is shown as it was kept"));
    Ok(Replay {
        reference: quote.quote_ref.clone(),
        brand: quote.brand.clone(),
        channel: quote.channel.as_str().to_owned(),
        journey: quote.journey.clone(),
        lifecycle: quote.lifecycle.as_str().to_owned(),
        created_at: uk_time(&quote.created_at),
        transitions: total,
        from,
        reproduced,
        note,
        steps,
    })
}

/// A transition as the log has it, before it is run again.
fn logged_step(n: usize, logged: &LoggedTransition) -> Replayed {
    Replayed {
        n,
        at: uk_time(&logged.created_at),
        definition_version: logged.definition_version.clone(),
        event: logged.event.clone(),
        from: logged.from.clone(),
        to: logged.to.clone(),
        outcome: logged.outcome.clone(),
        sent: logged.input.clone(),
        experiment_views: logged.experiment_views.clone(),
        guards: logged.guards.clone(),
        field_errors: logged.field_errors.clone(),
        messages: Vec::new(),
        blocks: logged.blocks.clone(),
        pricing: logged.pricing.clone(),
        totals: None,
        replay: Value::Null,
        page: None,
    }
}

/// A logged time (RFC 3339, UTC) in UK time, as staff read it.
fn uk_time(at: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(at).map_or_else(
        |_| at.to_owned(),
        |t| {
            t.with_timezone(&chrono_tz::Europe::London)
                .format("%d/%m/%Y %H:%M:%S")
                .to_string()
        },
    )
}

/// The UK date of a logged time: the day the rules ran on.
pub(crate) fn uk_date(at: &str) -> Option<chrono::NaiveDate> {
    chrono::DateTime::parse_from_rfc3339(at)
        .ok()
        .map(|t| t.with_timezone(&chrono_tz::Europe::London).date_naive())
}

/// The quote's kept write-only answers, decrypted: (pointer, value). Only ever used to run an
/// event again; never shown.
async fn kept_secrets(
    state: &AppState,
    quote: &QuoteRow,
) -> Result<Vec<(String, String)>, AppError> {
    let mut out = Vec::new();
    for field in staff::store(state).secret_fields(&quote.id).await? {
        if let Some(sealed) = staff::store(state).secret(&quote.id, &field).await? {
            let plain = state
                .config
                .encryption_key
                .decrypt(&quote.id, &field, &sealed)
                .map_err(|e| AppError::Internal(format!("quote {}: {field}: {e}", quote.id)))?;
            out.push((field, plain));
        }
    }
    Ok(out)
}

/// An event run again: the document and lifecycle after it, how it differs from its log row,
/// and what the customer was shown.
struct Again {
    document: Value,
    lifecycle: Lifecycle,
    /// Why the log's verdict was taken rather than checked, where it was.
    trusted: Option<String>,
    differs: Vec<String>,
    messages: Vec<Value>,
    totals: Option<Value>,
    page: Option<Value>,
}

#[expect(clippy::too_many_arguments, reason = "the moment's every part")]
async fn run_again(
    state: &AppState,
    versions: &mut Versions<'_>,
    quote: &QuoteRow,
    logged: &LoggedTransition,
    document: Value,
    lifecycle: Lifecycle,
    secrets: &[(String, String)],
    draw: bool,
) -> Result<Again, String> {
    let defs = versions.get(&logged.definition_version).await?;
    let journey = defs.journey(&quote.journey).ok_or_else(|| {
        format!(
            "journey {} is not in definitions version {}",
            quote.journey, logged.definition_version
        )
    })?;
    let rules = RuleContext {
        today: uk_date(&logged.created_at)
            .ok_or_else(|| format!("the log's time {:?} cannot be read", logged.created_at))?,
        brand: quote.brand.to_string(),
        bank: Some(staff::bank(state).clone()),
        rate_scheme: journey.rate_scheme.clone(),
    };
    if logged.input.as_ref().is_some_and(runtime::input_omitted) {
        return Err("what this event sent was too large to keep".into());
    }
    let mut trusted = None;
    let (document, lifecycle, record, position) = if logged.event == "test:patch" {
        let Some(Value::Object(patch)) = &logged.input else {
            return Err("the test patch sent here was not kept".into());
        };
        let (after, pricing) = crate::service::test_mode::patched(&defs, &document, patch, &rules)
            .map_err(|e| format!("the test patch cannot be applied again: {e}"))?;
        let before =
            runtime::position_of(&defs, journey, &document, &rules).map_err(|e| e.to_string())?;
        let position =
            runtime::position_of(&defs, journey, &after, &rules).map_err(|e| e.to_string())?;
        let record = TransitionRecord {
            journey: journey.id.clone(),
            definition_version: defs.version().to_owned(),
            event: logged.event.clone(),
            from: before.furthest,
            to: position.furthest.clone(),
            from_lifecycle: lifecycle,
            to_lifecycle: lifecycle,
            outcome: runtime::Outcome::Moved,
            guards: Vec::new(),
            field_errors: Vec::new(),
            blocks: Vec::new(),
            pricing,
            input: None,
        };
        (after, lifecycle, record, position)
    } else {
        let input = logged.input.clone().map(|i| with_secrets(i, secrets));
        let event = Event::from_log(&logged.event, input.as_ref()).ok_or_else(|| {
            format!(
                "the log keeps no input for {} (recorded before inputs were kept)",
                logged.event
            )
        })?;
        if let Some(pointer) = unkept_secret(&defs, journey, &event) {
            if logged.outcome != "invalid" {
                return Err(format!(
                    "the write-only answer {pointer} sent here is no longer kept (a later answer replaced it)"
                ));
            }
            // A refused write-only answer is never kept, so its check cannot be made again: the
            // log's verdict stands, and the quote did not change.
            let position = runtime::position_of(&defs, journey, &document, &rules)
                .map_err(|e| e.to_string())?;
            let record = TransitionRecord {
                journey: journey.id.clone(),
                definition_version: defs.version().to_owned(),
                event: logged.event.clone(),
                from: logged.from.clone().into(),
                to: logged.to.clone().into(),
                from_lifecycle: lifecycle,
                to_lifecycle: lifecycle,
                outcome: runtime::Outcome::Invalid,
                guards: Vec::new(),
                field_errors: logged_field_errors(&logged.field_errors),
                blocks: Vec::new(),
                pricing: None,
                input: None,
            };
            trusted = Some(format!(
                "the write-only answer {pointer} sent here was refused and never kept, so it cannot be checked again; the log's verdict stands and the quote did not change"
            ));
            (document, lifecycle, record, position)
        } else {
            let result = runtime::transition_from(
                &defs,
                &journey.id,
                document.clone(),
                lifecycle,
                &event,
                rules.clone(),
            )
            .map_err(|e| format!("the engine refused the event: {e}"))?;
            let kept = result
                .effects
                .iter()
                .any(|e| matches!(e, Effect::SaveQuote | Effect::ClearQuote));
            let (after, lifecycle) = if kept {
                (result.document, result.lifecycle)
            } else {
                (document, lifecycle)
            };
            (after, lifecycle, result.record, result.position)
        }
    };
    let differs = if trusted.is_some() {
        Vec::new()
    } else {
        differences(logged, &record)
    };
    let voice = defs.voice(
        &quote.brand,
        &crate::service::quote::language_in(&defs, &quote.brand, &document),
    );
    let messages = record
        .field_errors
        .iter()
        .map(|e| json!({ "field": e.field, "message": voice.message(e) }))
        .collect();
    let summary = engine::journey::quoting::summary(&document);
    let totals = (!summary.monthly.is_zero()).then(|| json!(summary));
    let moment = QuoteRow {
        id: quote.id.clone(),
        quote_ref: quote.quote_ref.clone(),
        brand: quote.brand.clone(),
        channel: quote.channel,
        journey: quote.journey.clone(),
        definition_version: logged.definition_version.clone(),
        lifecycle,
        document,
        row_version: quote.row_version,
        created_at: quote.created_at.clone(),
        updated_at: logged.created_at.clone(),
        history: quote.history,
    };
    let page = if draw {
        let drawn = draw_page(state, &defs, &moment, &record, position, &rules, &voice).await;
        Some(drawn.unwrap_or_else(|e| json!({ "not_drawn": e })))
    } else {
        None
    };
    Ok(Again {
        document: moment.document,
        lifecycle,
        trusted,
        differs,
        messages,
        totals,
        page,
    })
}

/// The first write-only answer an event carries only masked (one the quote does not keep), by
/// its pointer.
pub(crate) fn unkept_secret(
    defs: &Definitions,
    journey: &engine::definitions::Journey,
    event: &Event,
) -> Option<String> {
    let (questions, answers) = match event {
        Event::Submit { step, answers } => (journey.step(step)?.questions.as_deref()?, answers),
        Event::Edit { questions, answers } => (questions.as_str(), answers),
        _ => return None,
    };
    let schema = defs.question_schema(questions)?;
    let mut copy = runtime::project(&schema.schema, answers);
    runtime::take_write_only(&schema.schema, &mut copy)
        .into_iter()
        .find(|s| s.value.as_deref().is_some_and(|v| v.starts_with("****")))
        .map(|s| s.pointer)
}

/// Field errors as the log keeps them, read back.
fn logged_field_errors(logged: &Value) -> Vec<engine::definitions::schema::FieldError> {
    logged
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            let text = |name: &str| e.get(name).and_then(Value::as_str).unwrap_or_default();
            let mut error =
                engine::definitions::schema::FieldError::new(text("field"), text("key"));
            if let Some(params) = e.get("params").and_then(Value::as_object) {
                for (name, value) in params {
                    error.params.insert(
                        name.clone(),
                        value
                            .as_str()
                            .map_or_else(|| value.to_string(), str::to_owned),
                    );
                }
            }
            error
        })
        .collect()
}

/// The input with each masked write-only answer replaced by the kept one whose mask it is.
pub(crate) fn with_secrets(mut input: Value, secrets: &[(String, String)]) -> Value {
    for (pointer, plain) in secrets {
        if let Some(slot) = input.pointer_mut(pointer)
            && slot.as_str() == Some(runtime::mask(plain).as_str())
        {
            *slot = Value::String(plain.clone());
        }
    }
    input
}

/// Where the event run again disagrees with its log row, each named.
fn differences(logged: &LoggedTransition, again: &TransitionRecord) -> Vec<String> {
    fn as_json<T: Serialize>(value: &T) -> Value {
        serde_json::to_value(value).unwrap_or(Value::Null)
    }
    let compared = [
        (
            "outcome",
            Value::from(logged.outcome.as_str()),
            as_json(&again.outcome),
        ),
        ("to", Value::from(logged.to.as_str()), as_json(&again.to)),
        ("guards", logged.guards.clone(), as_json(&again.guards)),
        (
            "field_errors",
            logged.field_errors.clone(),
            as_json(&again.field_errors),
        ),
        ("blocks", logged.blocks.clone(), as_json(&again.blocks)),
        (
            "pricing",
            logged.pricing.clone().unwrap_or(Value::Null),
            as_json(&again.pricing),
        ),
    ];
    compared
        .into_iter()
        .filter(|(_, was, now)| was != now)
        .map(|(what, was, now)| format!("{what}: logged {was}, replayed {now}"))
        .collect()
}

/// The view data of the page shown after the event: the step it moved to (the confirmation once
/// bought), drawn from the moment's answers with the moment's definitions. Its CSRF token is
/// empty: a replayed page is to read, not to send from. The bank details panel shows the masked
/// account number, never the full one.
async fn draw_page(
    state: &AppState,
    defs: &Definitions,
    quote: &QuoteRow,
    record: &TransitionRecord,
    position: engine::journey::position::Position,
    rules: &RuleContext,
    voice: &engine::Voice<'_>,
) -> Result<Value, String> {
    let journey = defs
        .journey(&quote.journey)
        .ok_or_else(|| format!("no journey {}", quote.journey))?;
    let bought = quote.lifecycle == Lifecycle::Purchased;
    let (viewing, position, purchase) = if bought {
        let (terminal, position) =
            crate::service::quote::purchased_position(journey).map_err(|e| e.to_string())?;
        let purchase = staff::store(state)
            .purchase_of(&quote.id)
            .await
            .map_err(|e| e.to_string())?;
        (terminal, position, purchase)
    } else {
        let viewing = journey
            .step(&record.to)
            .ok_or_else(|| format!("no step {} in journey {}", record.to, journey.id))?;
        (viewing, position, None)
    };
    let account_number = (viewing.view == engine::definitions::View::PaymentConfirmation)
        .then(|| {
            quote
                .document
                .pointer("/payment/account_number_masked")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .flatten();
    let timeouts = crate::service::quote::timeouts_in(state, defs, &quote.brand);
    let input = ViewInput {
        defs,
        journey,
        quote,
        viewing,
        position: &position,
        csrf: "",
        voice,
        rules,
        holidays: staff::holidays(state),
        banks: staff::banks(state),
        card_provider: staff::payments(state).browser(),
        timeouts,
        account_number,
        purchase,
        after_edit: record.event.starts_with("edit:"),
    };
    let data = view::view_data(&input).map_err(|e| e.to_string())?;
    serde_json::to_value(&data).map_err(|e| e.to_string())
}

/// The replay's parameters from a query string or the command line: `from` and `count` as
/// whole numbers; anything else is an error naming it.
pub fn window(from: Option<&str>, count: Option<&str>) -> Result<(usize, usize), String> {
    let number = |name: &str, value: Option<&str>, default: usize, max: usize| match value {
        None => Ok(default),
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| format!("{name} must be a whole number from 1 to {max}")),
    };
    Ok((
        number("from", from, 1, 1_000_000)?,
        number("count", count, MAX_SHOWN, MAX_SHOWN)?,
    ))
}

/// Keeps the served definitions version's files, so a quote made on it replays after
/// the definitions change. Logged, never fatal: a server that cannot keep them still serves.
pub async fn keep_definitions(state: &AppState) {
    let defs = &state.defs;
    match staff::store(state)
        .keep_definitions(defs.version(), &defs.raw.files)
        .await
    {
        Ok(true) => tracing::info!(version = defs.version(), "definitions version kept"),
        Ok(false) => {}
        Err(e) => tracing::error!(
            version = defs.version(),
            "definitions version not kept: {e}"
        ),
    }
}
