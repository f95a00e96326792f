//! Answers into the document: a step's answers merged over what is stored, locked answers kept,
//! write-only answers taken out (and masked) before anything is stored.

use serde_json::{Map, Value};

use crate::checks::compiled::Definitions;
use crate::definitions::Journey;
use crate::definitions::schema::{
    DEFAULT_INVALID_KEY, FieldError, declared_properties, is_write_only,
};
use crate::journey::record::{EngineError, Secret};

/// The pointers of the answers locked in this document (each lock whose guard holds).
pub fn locked_fields(
    defs: &Definitions,
    journey: &Journey,
    document: &Value,
) -> Result<Vec<String>, EngineError> {
    let mut out = Vec::new();
    for lock in &journey.locks {
        if defs.guard(&lock.when, document)? {
            out.extend(lock.fields.iter().cloned());
        }
    }
    Ok(out)
}

/// Puts back, in a changed document, the answers a lock on the stored document keeps. An answer
/// not given yet can still be given: a lock keeps what is there.
pub(super) fn keep_locked(
    defs: &Definitions,
    journey: &Journey,
    stored: &Value,
    candidate: &mut Value,
) -> Result<(), EngineError> {
    for pointer in locked_fields(defs, journey, stored)? {
        let kept = stored.pointer(&pointer).cloned();
        let Some((parent, key)) = pointer.rsplit_once('/') else {
            continue;
        };
        if let (Some(v), Some(Value::Object(map))) = (kept, candidate.pointer_mut(parent)) {
            map.insert(key.to_owned(), v);
        }
    }
    Ok(())
}

/// A new quote's document.
pub fn empty_document() -> Value {
    serde_json::json!({ "pets": [], "owner": {} })
}

/// `****5678`: what a stored document keeps of a write-only answer.
pub fn mask(value: &str) -> String {
    let chars: Vec<char> = value.chars().collect();
    let tail: String = chars[chars.len().saturating_sub(4)..].iter().collect();
    format!("****{tail}")
}

/// The key under which [`mask_write_only`] counts the undeclared keys it left out of an object.
/// No question set declares it, so a schema that refuses undeclared keys refuses it too: the
/// logged answers are refused or accepted as the answers sent were, and a replay agrees.
pub const UNDECLARED_KEYS: &str = "(undeclared keys)";

/// The answers as sent, as the transition log keeps them: every write-only
/// answer the schema declares masked (whatever its type), and only what the schema declares,
/// at every depth: an undeclared key (which the document never keeps either) is left out, and
/// their number kept under [`UNDECLARED_KEYS`]. So the replay shows what the customer sent
/// without the log ever holding a bank account number, and a client cannot grow the log with
/// keys nobody asked for.
pub fn mask_write_only(schema: &Value, answers: &Value) -> Value {
    match answers {
        Value::Object(given) => {
            let props = declared_properties(schema);
            if props.is_empty() {
                // A free-form object (no properties declared): kept whole, as merged.
                return answers.clone();
            }
            let mut out = Map::new();
            let mut undeclared: u64 = 0;
            for (name, value) in given {
                let declared = props.iter().find(|(n, _)| n == name).map(|(_, s)| *s);
                let kept = match declared {
                    Some(sub) if is_write_only(sub) => Value::String(match value {
                        Value::String(text) => mask(text),
                        other => mask(&other.to_string()),
                    }),
                    Some(sub) => mask_write_only(sub, value),
                    None => {
                        undeclared += 1;
                        continue;
                    }
                };
                out.insert(name.clone(), kept);
            }
            if undeclared > 0 {
                out.insert(UNDECLARED_KEYS.to_owned(), Value::from(undeclared));
            }
            Value::Object(out)
        }
        Value::Array(items) => match schema.get("items").filter(|i| i.is_object()) {
            Some(item_schema) => Value::Array(
                items
                    .iter()
                    .map(|v| mask_write_only(item_schema, v))
                    .collect(),
            ),
            None => answers.clone(),
        },
        _ => answers.clone(),
    }
}

/// Takes every write-only answer the schema declares out of the document, leaving beside it
/// `<name>_masked`, and returns them for the server to keep encrypted.
pub fn take_write_only(schema: &Value, document: &mut Value) -> Vec<Secret> {
    let mut out = Vec::new();
    take_at(schema, document, String::new(), &mut out);
    out
}

pub(super) fn take_at(schema: &Value, node: &mut Value, pointer: String, out: &mut Vec<Secret>) {
    match node {
        Value::Object(map) => {
            for (name, sub) in declared_properties(schema) {
                let here = || format!("{pointer}/{name}");
                if is_write_only(sub) {
                    let masked = format!("{name}_masked");
                    if let Some(Value::String(value)) = map.remove(name) {
                        map.insert(masked, Value::String(mask(&value)));
                        out.push(Secret {
                            pointer: here(),
                            value: Some(value),
                        });
                    } else if map.remove(&masked).is_some() {
                        // The step asked it and it was not given: the answer is withdrawn.
                        out.push(Secret {
                            pointer: here(),
                            value: None,
                        });
                    }
                } else if let Some(child) = map.get_mut(name) {
                    take_at(sub, child, here(), out);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|i| i.is_object()) {
                for (i, item) in items.iter_mut().enumerate() {
                    take_at(item_schema, item, format!("{pointer}/{i}"), out);
                }
            }
        }
        _ => {}
    }
}

/// A property the step shows but never takes from a submission (`"readOnly": true`).
pub(super) fn is_read_only(schema: &Value) -> bool {
    schema.get("readOnly").and_then(Value::as_bool) == Some(true)
}

/// Keeps only what the step's schema declares (recursing into objects and arrays of objects), so
/// a submission cannot set fields another step or the server owns. An object whose schema says
/// `additionalProperties: false` keeps the undeclared keys it was sent, so the schema refuses
/// them (a field error naming the object) rather than their being dropped in silence.
pub fn project(schema: &Value, answers: &Value) -> Value {
    let props = declared_properties(schema);
    match answers {
        Value::Object(given) if !props.is_empty() => {
            let mut out = Map::new();
            for (name, sub) in &props {
                if let Some(v) = given.get(*name) {
                    out.insert((*name).to_owned(), project(sub, v));
                }
            }
            if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
                for (name, v) in given {
                    if !out.contains_key(name) {
                        out.insert(name.clone(), v.clone());
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(given) => match schema.get("items") {
            Some(items) if items.is_object() => {
                Value::Array(given.iter().map(|v| project(items, v)).collect())
            }
            _ => answers.clone(),
        },
        _ => answers.clone(),
    }
}

/// The first key sent in an object whose schema says `additionalProperties: false` and does not
/// declare it, as a field error on that object (`owner.marketing_preferences`) naming the key in
/// its `key` parameter: the schema refuses it, on the server as in the browser, rather than the
/// projection dropping it in silence.
pub fn undeclared_key_error(schema: &Value, answers: &Value) -> Option<FieldError> {
    fn walk(schema: &Value, answers: &Value, at: &str) -> Option<FieldError> {
        match answers {
            Value::Object(given) => {
                let props = declared_properties(schema);
                if schema.get("additionalProperties") == Some(&Value::Bool(false))
                    && let Some(name) = given.keys().find(|k| !props.iter().any(|(n, _)| n == k))
                {
                    let mut error = FieldError::new(at, DEFAULT_INVALID_KEY);
                    error
                        .params
                        .insert("key".into(), name.chars().take(64).collect());
                    return Some(error);
                }
                props.iter().find_map(|(name, sub)| {
                    let field = if at.is_empty() {
                        (*name).to_owned()
                    } else {
                        format!("{at}.{name}")
                    };
                    given.get(*name).and_then(|v| walk(sub, v, &field))
                })
            }
            Value::Array(items) => schema
                .get("items")
                .filter(|i| i.is_object())
                .and_then(|item| {
                    items
                        .iter()
                        .enumerate()
                        .find_map(|(i, v)| walk(item, v, &format!("{at}[{i}]")))
                }),
            _ => None,
        }
    }
    walk(schema, answers, "")
}

/// Writes a step's (projected) answers into the document. Each declared property is replaced or,
/// when not given, removed; objects the schema describes are merged property by property, so a
/// question set that asks one owner field leaves the others; arrays of objects keep, by
/// position, the fields other steps set. `readOnly` properties are never written.
pub fn merge(schema: &Value, document: &Value, answers: &Value) -> Value {
    merge_value(schema, Some(document), answers)
}

pub(super) fn merge_value(schema: &Value, existing: Option<&Value>, given: &Value) -> Value {
    match given {
        Value::Object(given_map) => {
            let props = declared_properties(schema);
            if props.is_empty() {
                return given.clone();
            }
            let mut base = existing
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            for (name, sub) in props {
                if is_read_only(sub) {
                    continue;
                }
                match given_map.get(name) {
                    Some(v) => {
                        let merged = merge_value(sub, base.get(name), v);
                        base.insert(name.to_owned(), merged);
                    }
                    None => {
                        base.remove(name);
                    }
                }
            }
            Value::Object(base)
        }
        Value::Array(items) => match schema.get("items") {
            Some(item_schema) if item_schema.is_object() => {
                let existing = existing.and_then(Value::as_array);
                Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| {
                            merge_value(item_schema, existing.and_then(|e| e.get(i)), item)
                        })
                        .collect(),
                )
            }
            _ => given.clone(),
        },
        _ => given.clone(),
    }
}
