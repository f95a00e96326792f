//! One sampled quote run again from its opening document on a definition set: each logged event
//! on the UK date it happened, as the replay runs it (write-only answers from the kept ones), but
//! every event on the one definition set asked for. Nothing is written.

use std::collections::BTreeSet;

use serde_json::Value;

use engine::Definitions;
use engine::journey::runtime::{self, Effect, Event, Lifecycle, Outcome};
use engine::rules::context::RuleContext;

use crate::store::impact::SampledQuote;
use crate::store::replay::LoggedTransition;
use crate::tools::replay::{uk_date, unkept_secret, with_secrets};

/// A quote as it ends when its events are run again on one definition set.
#[derive(Debug, Clone)]
pub struct Ran {
    pub document: Value,
    pub lifecycle: Lifecycle,
    /// The furthest step its answers reach (where the customer would land).
    pub step: String,
    /// The blocking answers hit on the way, by id.
    pub blocks: BTreeSet<String>,
    /// Each event's outcome, in order.
    pub outcomes: Vec<&'static str>,
    /// The UK date of the last event: the day the prices are aged on.
    pub on: chrono::NaiveDate,
}

/// What is needed besides the definitions to run an event: the bank tables the payment rules
/// check with.
pub struct Tools {
    pub bank: std::sync::Arc<engine::rules::modulus::ModulusTables>,
}

/// The quote's events run again on `defs` (see the module's note); an error says why it cannot
/// be (an event whose input was not kept, a test patch, a journey the set does not have).
pub fn run(
    defs: &Definitions,
    tools: &Tools,
    quote: &SampledQuote,
    opening: &Value,
    log: &[LoggedTransition],
    secrets: &[(String, String)],
) -> Result<Ran, String> {
    let journey = defs
        .journey(&quote.journey)
        .ok_or_else(|| format!("the journey {} is not in these definitions", quote.journey))?;
    let mut rules = RuleContext {
        today: uk_date(&quote.created_at)
            .ok_or_else(|| format!("the quote's time {:?} cannot be read", quote.created_at))?,
        brand: quote.brand.clone(),
        bank: Some(tools.bank.clone()),
        rate_scheme: journey.rate_scheme.clone(),
    };
    if !opening.is_object() {
        return Err("its opening document is not kept".into());
    }
    let mut document = opening.clone();
    let mut lifecycle = Lifecycle::Active;
    let mut blocks = BTreeSet::new();
    let mut outcomes = Vec::with_capacity(log.len());
    for logged in log {
        rules.today = uk_date(&logged.created_at)
            .ok_or_else(|| format!("a logged time {:?} cannot be read", logged.created_at))?;
        if logged.input.as_ref().is_some_and(runtime::input_omitted) {
            return Err("an event sent more than the log keeps".into());
        }
        let Some(event) = Event::from_log(
            &logged.event,
            logged
                .input
                .clone()
                .map(|i| with_secrets(i, secrets))
                .as_ref(),
        ) else {
            return Err(format!(
                "the log keeps no input to run {} again",
                logged.event
            ));
        };
        if unkept_secret(defs, journey, &event).is_some() {
            if logged.outcome == "invalid" {
                // A refused write-only answer is never kept: the quote did not change.
                outcomes.push("invalid");
                continue;
            }
            return Err("a write-only answer it sent is no longer kept".into());
        }
        match runtime::transition(
            defs,
            &journey.id,
            &document,
            lifecycle,
            &event,
            rules.clone(),
        ) {
            Ok(result) => {
                outcomes.push(result.record.outcome.as_str());
                if result.record.outcome == Outcome::Blocked {
                    blocks.extend(result.record.blocks.iter().map(|b| b.id.clone()));
                }
                let kept = result
                    .effects
                    .iter()
                    .any(|e| matches!(e, Effect::SaveQuote | Effect::ClearQuote));
                if kept {
                    document = result.document;
                    lifecycle = result.lifecycle;
                }
            }
            // A step these definitions do not have, say: the customer could not have sent it.
            Err(_) => outcomes.push("not_accepted"),
        }
    }
    let step = runtime::position_of(defs, journey, &document, &rules)
        .map(|p| p.furthest.to_string())
        .unwrap_or_default();
    Ok(Ran {
        document,
        lifecycle,
        step,
        blocks,
        outcomes,
        on: rules.today,
    })
}
