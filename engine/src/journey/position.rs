//! Where a quote stands, derived from its answers on every request (DESIGN.md principle 3):
//! walk the journey from its start over the answers; the first step that is not complete, or
//! whose way forward is closed by a guard, is the furthest the customer can be.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

use crate::checks::compiled::{Definitions, UnknownGuard};
use crate::definitions::schema::FieldError;
use crate::definitions::{Journey, Step, StepId};
use crate::rules::context::RuleContext;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Position {
    /// The furthest step the answers allow: the one a returning customer lands on.
    pub furthest: StepId,
    /// The steps walked from the start, ending with `furthest`: every step the customer may open.
    pub path: Vec<StepId>,
    /// Steps on the path whose answers are complete.
    pub completed: BTreeSet<StepId>,
}

impl Position {
    pub fn can_open(&self, step: &str) -> bool {
        self.path.iter().any(|s| s == step)
    }
}

/// The field errors a step's own answers have in this document: its questions, then its rules.
pub fn step_errors(
    defs: &Definitions,
    step: &Step,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    answer_errors(defs, step.questions.as_deref(), &step.rules, document, ctx)
}

/// The field errors of a question set and named rules over a document: the schema first; the
/// rules only once the schema passes (they read answers the schema has checked).
pub fn answer_errors(
    defs: &Definitions,
    questions: Option<&str>,
    rules: &[String],
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    checked_errors(defs, questions, rules, document, ctx, false)
}

/// As [`answer_errors`], over the answers as submitted (`stored` false: every question) or as
/// stored (`stored` true: `writeOnly` answers, which are never stored, left out).
fn checked_errors(
    defs: &Definitions,
    questions: Option<&str>,
    rules: &[String],
    document: &Value,
    ctx: &RuleContext,
    stored: bool,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if let Some(q) = questions {
        let schema = if stored {
            defs.stored_question_schema(q)
        } else {
            defs.question_schema(q)
        };
        if let Some(schema) = schema {
            errors.extend(schema.field_errors(document));
        }
    }
    if errors.is_empty() {
        for name in rules {
            if let Some(rule) = crate::rules::domain::domain_rule(name) {
                errors.extend(rule(defs, document, ctx));
            }
        }
    }
    errors
}

/// Whether a step's answers are complete: its questions and rules pass, its `complete_when`
/// guard passes, and no blocking rule holds. A step with neither questions nor `complete_when`
/// is never complete (its page has nothing yet that could complete it).
pub fn is_complete(
    defs: &Definitions,
    step: &Step,
    document: &Value,
    ctx: &RuleContext,
) -> Result<bool, UnknownGuard> {
    if step.questions.is_none() && step.complete_when.is_none() {
        return Ok(false);
    }
    // Only whether the answers pass: the validator's yes or no, not its errors.
    let schema = step
        .questions
        .as_deref()
        .and_then(|q| defs.stored_question_schema(q));
    if schema.is_some_and(|s| !s.is_valid(document)) {
        return Ok(false);
    }
    let rules_pass = step.rules.iter().all(|name| {
        crate::rules::domain::domain_rule(name)
            .is_none_or(|rule| rule(defs, document, ctx).is_empty())
    });
    if !rules_pass {
        return Ok(false);
    }
    if let Some(g) = &step.complete_when
        && !defs.guard(g, document)?
    {
        return Ok(false);
    }
    Ok(active_blocks(defs, step, document)?.is_empty())
}

/// The ids of the step's blocking rules that hold for this document.
pub fn active_blocks<'s>(
    defs: &Definitions,
    step: &'s Step,
    document: &Value,
) -> Result<Vec<&'s crate::definitions::BlockingRule>, UnknownGuard> {
    let mut out = Vec::new();
    for rule in &step.blocking {
        if defs.guard(&rule.when, document)? {
            out.push(rule);
        }
    }
    Ok(out)
}

/// The exit a complete step takes: the first whose guard passes or that has none.
pub fn next_step<'j>(
    defs: &Definitions,
    journey: &'j Journey,
    step: &Step,
    document: &Value,
) -> Result<Option<&'j Step>, UnknownGuard> {
    for exit in &step.exits {
        let open = match &exit.when {
            Some(g) => defs.guard(g, document)?,
            None => true,
        };
        if open {
            return Ok(journey.step(&exit.to));
        }
    }
    Ok(None)
}

/// Whether every guard a step requires passes.
pub fn requirements_met(
    defs: &Definitions,
    step: &Step,
    document: &Value,
) -> Result<bool, UnknownGuard> {
    for g in &step.requires {
        if !defs.guard(g, document)? {
            return Ok(false);
        }
    }
    Ok(true)
}

pub fn derive(
    defs: &Definitions,
    journey: &Journey,
    document: &Value,
    ctx: &RuleContext,
) -> Result<Position, UnknownGuard> {
    let mut path = Vec::new();
    let mut completed = BTreeSet::new();
    let mut current = journey.step(&journey.start);
    while let Some(step) = current {
        if path.contains(&step.id) {
            break; // a loop in the answers' route: stop where it closes
        }
        path.push(step.id.clone());
        if step.terminal || !is_complete(defs, step, document, ctx)? {
            break;
        }
        let Some(next) = next_step(defs, journey, step, document)? else {
            break;
        };
        if !requirements_met(defs, next, document)? {
            break;
        }
        completed.insert(step.id.clone());
        current = Some(next);
    }
    let furthest = path
        .last()
        .cloned()
        .unwrap_or_else(|| journey.start.clone());
    Ok(Position {
        furthest,
        path,
        completed,
    })
}
