//! A generated path's calls walked again, on the same definitions or others: where it ends.

use serde_json::Value;

use engine::Definitions;
use engine::definitions::Journey;
use engine::journey::runtime::{self, Event, Lifecycle, Outcome, TransitionRecord};
use engine::rules::context::RuleContext;

use super::{PURCHASE, PathCall};

/// How a call ends a path: `bought`, `on <step>`, `blocked: <rules>`, `invalid on <step>` or
/// `refused on <step>`. `after` is the step the quote then stands on.
pub fn ends(record: &TransitionRecord, lifecycle: Lifecycle, after: &str) -> String {
    match record.outcome {
        Outcome::Moved if lifecycle == Lifecycle::Purchased => "bought".to_owned(),
        Outcome::Moved => format!("on {after}"),
        Outcome::Blocked => format!(
            "blocked: {}",
            record
                .blocks
                .iter()
                .map(|b| b.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Outcome::Invalid => format!("invalid on {}", record.from),
        Outcome::RefusedByGuard | Outcome::RefusedByLifecycle => {
            format!("refused on {}", record.from)
        }
    }
}

/// The event a path's call sends: a purchase, a modal's edit (its body names the `form`), or the
/// answers of the step of `journey` the call saves. None when the journey has no such step.
pub fn event_of(journey: &Journey, call: &PathCall) -> Option<Event> {
    if call.call == PURCHASE {
        return Some(Event::Purchase);
    }
    if let Some(form) = call.body.get("form").and_then(Value::as_str) {
        let mut answers = call.body.clone();
        if let Some(map) = answers.as_object_mut() {
            map.remove("form");
        }
        return Some(Event::Edit {
            questions: form.to_owned(),
            answers,
        });
    }
    let step = journey
        .steps
        .iter()
        .find(|s| s.questions.is_some() && s.call() == call.call)?;
    Some(Event::Submit {
        step: step.id.clone(),
        answers: call.body.clone(),
    })
}

/// Where `calls` end when sent, in order, from a new quote on `defs`: as [`ends`] says, at the
/// first call not moved on, or after the last; `no step saves <call>` where the journey no longer
/// has the step a call saves.
pub fn walk(
    defs: &Definitions,
    journey: &Journey,
    calls: &[PathCall],
    rules: &RuleContext,
) -> String {
    let mut document = runtime::empty_document();
    let mut lifecycle = Lifecycle::Active;
    let mut end = format!("on {}", journey.start);
    for call in calls {
        let Some(event) = event_of(journey, call) else {
            return format!("no step saves {}", call.call);
        };
        let Ok(result) = runtime::transition_from(
            defs,
            &journey.id,
            document.clone(),
            lifecycle,
            &event,
            rules.clone(),
        ) else {
            return format!("not accepted: {}", call.call);
        };
        let after = runtime::position_of(defs, journey, &result.document, rules)
            .ok()
            .and_then(|p| p.path.last().map(ToString::to_string))
            .unwrap_or_else(|| result.record.to.to_string());
        end = ends(&result.record, result.lifecycle, &after);
        if result.record.outcome != Outcome::Moved {
            return end;
        }
        let kept = result
            .effects
            .iter()
            .any(|e| matches!(e, runtime::Effect::SaveQuote | runtime::Effect::ClearQuote));
        if kept {
            document = result.document;
            lifecycle = result.lifecycle;
        }
    }
    end
}
