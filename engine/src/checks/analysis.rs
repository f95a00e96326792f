//! The deeper checks `pawpath check` runs over definitions that already pass the lint:
//! every guard can hold for some document; a step's exits never leave a valid document
//! with no way forward (the lint insists on a last exit without a guard; here, no exit follows
//! it), and two conditional exits that can hold at once are ordered on purpose; every question
//! set is asked somewhere. Each problem names the file, the JSON path and a fix.
//!
//! "Some document" is found by building an example from the guard's JSON Schema (its `const`s,
//! `enum`s, required properties, `contains`, lengths and bounds) and confirming it with the
//! schema itself; a guard no example can be built for is reported, with the fix to look for
//! contradictory constraints.

use serde_json::{Map, Value, json};

use crate::checks::compiled::Definitions;
use crate::definitions::error::DefinitionError;
use crate::definitions::schema::compile_draft7;

/// Question sets used outside the journeys' steps: the card form goes straight to the payment
/// provider, which checks it with this set (owner-payment.md §2 Payment page card form).
pub const BUILT_IN_QUESTION_SETS: &[&str] = &["card"];

/// Every problem the deeper checks find.
pub fn analyse(defs: &Definitions) -> Vec<DefinitionError> {
    let mut errors = Vec::new();
    guards_can_hold(defs, &mut errors);
    blocking_answers_can_be_given(defs, &mut errors);
    exits_lead_on(defs, &mut errors);
    questions_are_asked(defs, &mut errors);
    errors
}

fn guard_schema<'d>(defs: &'d Definitions, name: &str) -> Option<(&'d str, &'d Value)> {
    defs.raw.guards.iter().find_map(|f| {
        f.value
            .guards
            .get(name)
            .map(|g| (f.file.as_str(), &g.schema))
    })
}

fn guards_can_hold(defs: &Definitions, errors: &mut Vec<DefinitionError>) {
    for file in &defs.raw.guards {
        for (name, guard) in &file.value.guards {
            if witness(&guard.schema).is_none() {
                errors.push(DefinitionError::new(
                    &file.file,
                    format!("/guards/{name}/schema"),
                    format!(
                        "no document can satisfy guard {name:?}, so every exit, requirement and blocking rule on it is dead. Fix: look for contradictory constraints (two different `const`s, an `enum` no value of which passes, `minItems` above `maxItems`) and loosen one"
                    ),
                ));
            }
        }
    }
}

/// A blocking answer (a choice refused with `not` and its message, journey.md §5) must be one
/// the question offers, or it can never block anyone.
fn blocking_answers_can_be_given(defs: &Definitions, errors: &mut Vec<DefinitionError>) {
    fn walk(schema: &Value, at: &str, found: &mut Vec<(String, Value)>) {
        let Some(object) = schema.as_object() else {
            return;
        };
        if let (Some(options), Some(not)) = (
            object.get("enum").and_then(Value::as_array),
            object.get("not"),
        ) {
            let refused: Vec<&Value> = match (not.get("const"), not.get("enum")) {
                (Some(c), _) => vec![c],
                (None, Some(Value::Array(vs))) => vs.iter().collect(),
                _ => Vec::new(),
            };
            for value in refused {
                if !options.contains(value) {
                    found.push((format!("{at}/not"), value.clone()));
                }
            }
        }
        for (key, sub) in object {
            match sub {
                Value::Object(_) => walk(sub, &format!("{at}/{key}"), found),
                Value::Array(list) => {
                    for (i, item) in list.iter().enumerate() {
                        walk(item, &format!("{at}/{key}/{i}"), found);
                    }
                }
                _ => {}
            }
        }
    }
    for set in &defs.raw.question_sets {
        let mut found = Vec::new();
        walk(&set.value.schema, "/schema", &mut found);
        for (at, value) in found {
            errors.push(DefinitionError::new(
                &set.file,
                at,
                format!(
                    "the blocking answer {value} is not one of the question's options, so it can never be given and never blocks. Fix: refuse one of the `enum` values, or add it to them"
                ),
            ));
        }
    }
}

fn exits_lead_on(defs: &Definitions, errors: &mut Vec<DefinitionError>) {
    for journey in &defs.raw.journeys {
        let file = &journey.file;
        for (i, step) in journey.value.steps.iter().enumerate() {
            if step.terminal || step.exits.is_empty() {
                continue;
            }
            // A step whose every exit has a guard is the lint's to refuse (a last exit without
            // one must exist); an unconditional exit before others is this check's.
            match step.exits.iter().position(|e| e.when.is_none()) {
                Some(k) if k + 1 < step.exits.len() => {
                    errors.push(DefinitionError::new(
                        file,
                        format!("/steps/{i}/exits/{}", k + 1),
                        format!(
                            "step {:?}: the exits after /steps/{i}/exits/{k} are never taken, as that exit has no `when`. Fix: move the unconditional exit last",
                            step.id
                        ),
                    ));
                }
                _ => {}
            }
            if step.exits_ordered {
                continue;
            }
            let conditional: Vec<(usize, &str)> = step
                .exits
                .iter()
                .enumerate()
                .filter_map(|(k, e)| e.when.as_deref().map(|g| (k, g)))
                .collect();
            for (a, (ka, ga)) in conditional.iter().enumerate() {
                for (kb, gb) in conditional.iter().skip(a + 1) {
                    let (Some((_, sa)), Some((_, sb))) =
                        (guard_schema(defs, ga), guard_schema(defs, gb))
                    else {
                        continue;
                    };
                    if let Some(both) = witness(&json!({ "allOf": [sa, sb] })) {
                        errors.push(DefinitionError::new(
                            file,
                            format!("/steps/{i}/exits/{kb}"),
                            format!(
                                "step {:?}: guards {ga:?} (/exits/{ka}) and {gb:?} can hold at once, for example for {both}; the first listed would win. Fix: make the guards exclusive, or set \"exits_ordered\": true on the step to say the order is on purpose",
                                step.id
                            ),
                        ));
                    }
                }
            }
        }
    }
}

fn questions_are_asked(defs: &Definitions, errors: &mut Vec<DefinitionError>) {
    for set in &defs.raw.question_sets {
        let id = set.value.id.as_str();
        let asked = BUILT_IN_QUESTION_SETS.contains(&id)
            || defs.raw.journeys.iter().any(|j| {
                j.value.steps.iter().any(|s| {
                    s.questions.as_deref() == Some(id) || s.edits.iter().any(|e| e.questions == id)
                })
            });
        if !asked {
            errors.push(DefinitionError::new(
                &set.file,
                "/id",
                format!(
                    "question set {id:?} is asked by no step and edited by no modal of any journey, so no customer can reach its questions. Fix: name it in a step's `questions` or `edits`, or delete the file"
                ),
            ));
        }
    }
}

/// A document that satisfies `schema`, when one can be built; `None` otherwise.
pub fn witness(schema: &Value) -> Option<Value> {
    let validator = compile_draft7(schema).ok()?;
    let candidate = example(schema, 0)?;
    validator.is_valid(&candidate).then_some(candidate)
}

/// An example value for a schema: the first choice of every `const` and `enum`, every required
/// property, enough array items, strings and numbers within their bounds; `allOf` merged.
fn example(schema: &Value, depth: usize) -> Option<Value> {
    if depth > 24 {
        return None;
    }
    let object = match schema {
        Value::Bool(true) => return Some(json!({})),
        Value::Bool(false) => return None,
        Value::Object(o) => o,
        _ => return None,
    };
    let mut value = if let Some(c) = object.get("const") {
        c.clone()
    } else if let Some(options) = object.get("enum").and_then(Value::as_array) {
        options.first()?.clone()
    } else {
        match object.get("type").and_then(Value::as_str) {
            Some("object") => Value::Object(Map::new()),
            Some("array") => Value::Array(Vec::new()),
            Some("string") => {
                let min = object.get("minLength").and_then(Value::as_u64).unwrap_or(0);
                Value::String("x".repeat(usize::try_from(min).unwrap_or(0)))
            }
            Some("integer" | "number") => {
                object.get("minimum").cloned().unwrap_or_else(|| json!(0))
            }
            Some("boolean") => Value::Bool(true),
            Some("null") => Value::Null,
            _ if object.contains_key("properties") || object.contains_key("required") => {
                Value::Object(Map::new())
            }
            _ if object.contains_key("items") || object.contains_key("contains") => {
                Value::Array(Vec::new())
            }
            _ => json!({}),
        }
    };
    if let Value::Object(map) = &mut value {
        let props = object.get("properties").and_then(Value::as_object);
        if let Some(required) = object.get("required").and_then(Value::as_array) {
            for name in required.iter().filter_map(Value::as_str) {
                let sub = props
                    .and_then(|p| p.get(name))
                    .unwrap_or(&Value::Bool(true));
                map.insert(name.to_owned(), example(sub, depth + 1)?);
            }
        }
    }
    if let Value::Array(items) = &mut value {
        if let Some(contains) = object.get("contains") {
            items.push(example(contains, depth + 1)?);
        }
        let min = object.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        while (items.len() as u64) < min {
            let sub = match object.get("items") {
                Some(Value::Array(tuple)) => {
                    tuple.get(items.len()).cloned().unwrap_or(Value::Bool(true))
                }
                Some(one) => one.clone(),
                None => Value::Bool(true),
            };
            items.push(example(&sub, depth + 1)?);
        }
    }
    if let Some(all) = object.get("allOf").and_then(Value::as_array) {
        for sub in all {
            let part = example(sub, depth + 1)?;
            merge(&mut value, part);
        }
    }
    Some(value)
}

/// `part` written over `into`: objects field by field, arrays item by item.
fn merge(into: &mut Value, part: Value) {
    match (into, part) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(&k) {
                    Some(existing) => merge(existing, v),
                    None => {
                        a.insert(k, v);
                    }
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, v) in b.into_iter().enumerate() {
                match a.get_mut(i) {
                    Some(existing) => merge(existing, v),
                    None => a.push(v),
                }
            }
        }
        (slot, other) => *slot = other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_witness_is_built_for_the_shapes_guards_use() {
        let guard = json!({"type": "object", "required": ["pets"], "properties": {"pets": {"type": "array", "minItems": 1, "items": {"type": "object", "required": ["product"], "properties": {"product": {"type": "object", "required": ["Code", "RecurringMonthly"]}}}}}});
        assert!(witness(&guard).is_some());
        let contains = json!({"type": "object", "required": ["pets"], "properties": {"pets": {"type": "array", "contains": {"type": "object", "required": ["breed_category"], "properties": {"breed_category": {"enum": ["crossbreed"]}}, "not": {"required": ["confirm_crossbreed"]}}}}});
        assert_eq!(
            witness(&contains),
            Some(json!({"pets": [{"breed_category": "crossbreed"}]}))
        );
        let both = json!({"allOf": [
            {"type": "object", "required": ["payment"], "properties": {"payment": {"type": "object", "required": ["payment_method"], "properties": {"payment_method": {"const": "CC"}}}}},
            {"type": "object", "required": ["owner"], "properties": {"owner": {"type": "object", "required": ["customer_postcode"], "properties": {"customer_postcode": {"type": "string", "minLength": 5}}}}}
        ]});
        assert_eq!(
            witness(&both),
            Some(
                json!({"payment": {"payment_method": "CC"}, "owner": {"customer_postcode": "xxxxx"}})
            )
        );
    }

    #[test]
    fn contradictions_have_no_witness() {
        let card = json!({"type": "object", "required": ["payment"], "properties": {"payment": {"type": "object", "required": ["payment_method"], "properties": {"payment_method": {"const": "CC"}}}}});
        let dd = json!({"type": "object", "required": ["payment"], "properties": {"payment": {"type": "object", "required": ["payment_method"], "properties": {"payment_method": {"const": "DD"}}}}});
        assert_eq!(witness(&json!({"allOf": [card, dd]})), None);
        assert_eq!(
            witness(&json!({"type": "array", "minItems": 2, "maxItems": 1})),
            None
        );
        assert_eq!(witness(&json!(false)), None);
    }
}
