//! A step's modals (its `edits`): saved without submitting the step, on an open quote by the page
//! that offers them, and on a bought one only where its confirmation page offers them.

use serde_json::Value;

use super::{Ctx, EngineError, Outcome, keep_locked, merge, project, take_write_only};
use crate::journey::position;
use crate::journey::record::Effect;

impl Ctx<'_> {
    /// Applies a modal's answers: the question set must be one a step the customer can open
    /// edits; the answers are merged, the server's fields derived again, and the result must pass
    /// the question set and the edit's rules, or nothing changes.
    pub(super) fn edit(&mut self, questions: &str, answers: &Value) -> Result<(), EngineError> {
        let before = &self.before;
        let offered = self.journey.steps.iter().find_map(|step| {
            step.edits
                .iter()
                .find(|e| e.questions == questions)
                .map(|e| (step, e))
        });
        let Some((_, edit)) = offered else {
            return Err(EngineError::UnknownEdit(questions.to_owned()));
        };
        let open_step = self.journey.steps.iter().find(|step| {
            before.can_open(&step.id) && step.edits.iter().any(|e| e.questions == questions)
        });
        let Some(open_step) = open_step else {
            self.record.outcome = Outcome::RefusedByGuard;
            for step in self
                .journey
                .steps
                .iter()
                .filter(|s| s.edits.iter().any(|e| e.questions == questions))
            {
                for g in &step.requires {
                    self.guard(g)?;
                }
            }
            return Ok(());
        };
        let Some(schema) = self.defs.question_schema(questions) else {
            return Err(EngineError::UnknownEdit(questions.to_owned()));
        };
        let Some(mut candidate) = self.candidate(schema, answers)? else {
            return Ok(());
        };
        crate::rules::domain::forget_stale_confirmations(&self.document, &mut candidate);
        let pricing = self.derive(&mut candidate);
        if !self.passes(questions, &edit.rules, &candidate) {
            return Ok(());
        }
        self.document = candidate;
        self.secrets = take_write_only(&schema.schema, &mut self.document);
        self.record.pricing = pricing;
        self.effects.push(Effect::SaveQuote);
        let open_step = open_step.id.clone();
        let after = position::derive(self.defs, self.journey, &self.document, &self.rules)?;
        self.record.from = open_step;
        self.record.to = after.furthest.clone();
        self.after = Some(after);
        self.record.outcome = Outcome::Moved;
        Ok(())
    }

    /// An edit of a bought quote: only of a modal its journey's terminal step (the confirmation)
    /// offers, and only answers that leave what the policies were priced from as bought; anything
    /// else is refused by the lifecycle. The answers are checked by the set's schema and the
    /// modal's rules, and nothing is worked out again: the bought prices and facts stand.
    pub(super) fn edit_bought(
        &mut self,
        questions: &str,
        answers: &Value,
    ) -> Result<(), EngineError> {
        self.record.outcome = Outcome::RefusedByLifecycle;
        let Some((terminal, edit)) = self.journey.steps.iter().find_map(|step| {
            step.edits
                .iter()
                .find(|e| step.terminal && e.questions == questions)
                .map(|e| (step, e))
        }) else {
            return Ok(());
        };
        let Some(schema) = self.defs.question_schema(questions) else {
            return Err(EngineError::UnknownEdit(questions.to_owned()));
        };
        let Some(candidate) = self.candidate(schema, answers)? else {
            return Ok(());
        };
        let priced_from = |document: &Value| {
            crate::journey::quoting::rating_digest(self.defs, document, &self.rules)
        };
        if priced_from(&candidate) != priced_from(&self.document) {
            return Ok(());
        }
        if !self.passes(questions, &edit.rules, &candidate) {
            return Ok(());
        }
        self.record.from = terminal.id.clone();
        self.record.to = terminal.id.clone();
        self.record.outcome = Outcome::Moved;
        if candidate != self.document {
            self.document = candidate;
            self.secrets = take_write_only(&schema.schema, &mut self.document);
            self.effects.push(Effect::SaveQuote);
        }
        Ok(())
    }

    /// The document with a modal's answers merged in (only what its set asks; what a lock keeps
    /// put back), or none, the record made invalid, when the answers are too large.
    fn candidate(
        &mut self,
        schema: &crate::definitions::schema::CompiledSchema,
        answers: &Value,
    ) -> Result<Option<Value>, EngineError> {
        let answers = project(&schema.schema, answers);
        if let Some(error) = schema
            .size_error(&answers)
            .or_else(|| crate::journey::answers::undeclared_key_error(&schema.schema, &answers))
        {
            self.record.outcome = Outcome::Invalid;
            self.record.field_errors = vec![error];
            return Ok(None);
        }
        let mut candidate = merge(&schema.schema, &self.document, &answers);
        keep_locked(self.defs, self.journey, &self.document, &mut candidate)?;
        Ok(Some(candidate))
    }

    /// Whether `candidate` passes the set's schema and the modal's rules; if not, the record is
    /// invalid with the field errors.
    fn passes(&mut self, questions: &str, rules: &[String], candidate: &Value) -> bool {
        let mut errors =
            position::answer_errors(self.defs, Some(questions), rules, candidate, &self.rules);
        if errors.is_empty() {
            return true;
        }
        errors.truncate(crate::definitions::schema::MAX_FIELD_ERRORS);
        self.record.outcome = Outcome::Invalid;
        self.record.field_errors = errors;
        false
    }
}
