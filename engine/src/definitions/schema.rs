//! Schemas: guards and question schemas compiled once (draft-07, formats asserted), and the
//! mapping from a schema failure to the field it names and the copy key of its message.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

/// A message for one field, as a copy key with its parameters; the server renders it in the
/// customer's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// `pets[0].pet_name`
    pub field: String,
    /// Copy key, for example `pet.name.pattern`.
    pub key: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, String>,
}

impl FieldError {
    pub fn new(field: impl Into<String>, key: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            key: key.into(),
            params: BTreeMap::new(),
        }
    }

    pub fn with_param(mut self, name: &str, value: impl Into<String>) -> Self {
        self.params.insert(name.to_owned(), value.into());
        self
    }
}

/// The most field errors one answer gets back (and the transition log keeps): one per field,
/// and no more than this in all.
pub const MAX_FIELD_ERRORS: usize = 50;

/// The copy key used when a keyword has no `x-errors` entry.
pub const DEFAULT_REQUIRED_KEY: &str = "error.required";
pub const DEFAULT_INVALID_KEY: &str = "error.invalid";

/// Compiles a draft-07 schema the way both sides read it: formats are asserted.
pub fn compile_draft7(schema: &Value) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// A question set's schema compiled for validation.
pub struct CompiledSchema {
    pub schema: Value,
    validator: jsonschema::Validator,
}

impl std::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledSchema")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

impl CompiledSchema {
    pub fn new(schema: Value) -> Result<Self, String> {
        let validator = compile_draft7(&schema)?;
        Ok(Self { schema, validator })
    }

    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// Validates and returns at most one error per field: the first failing keyword in the
    /// schema's own order, so that the browser (which applies the same ordering to Ajv's
    /// errors) shows the same message.
    pub fn field_errors(&self, instance: &Value) -> Vec<FieldError> {
        // Sizes before contents: a list longer than the schema allows is that one
        // error, and its items are not looked at.
        if let Some(error) = self.size_error(instance) {
            return vec![error];
        }
        let mut errors = self.all_field_errors(instance);
        errors.truncate(MAX_FIELD_ERRORS);
        errors
    }

    /// The first list (in document order) with more items than the schema's `maxItems`
    /// allows, as the field error `maxItems` gives: checked before anything is built from the
    /// answers.
    pub fn size_error(&self, instance: &Value) -> Option<FieldError> {
        self.oversized(&self.schema, Steps::Root, instance, Steps::Root)
    }

    /// The walk keeps where it is as a chain of borrowed steps: a pointer is written out only
    /// for the error it reports, so a document within bounds costs no allocation.
    fn oversized(
        &self,
        schema: &Value,
        schema_at: Steps<'_>,
        instance: &Value,
        instance_at: Steps<'_>,
    ) -> Option<FieldError> {
        let Value::Object(node) = schema else {
            return None;
        };
        match instance {
            Value::Array(items) => {
                // The node itself and the members of its allOf, where a bound may be written.
                let members = match node.get("allOf") {
                    Some(Value::Array(all)) => all.as_slice(),
                    _ => &[],
                };
                let bounds = std::iter::once((node, None)).chain(
                    members
                        .iter()
                        .enumerate()
                        .filter_map(|(i, m)| m.as_object().map(|m| (m, Some(i)))),
                );
                for (n, member) in bounds {
                    if let Some(max) = n.get("maxItems").and_then(Value::as_u64)
                        && items.len() as u64 > max
                    {
                        let pointer = match member {
                            None => schema_at.pointer(),
                            Some(i) => {
                                let all = Steps::Key(&schema_at, "allOf");
                                Steps::Index(&all, i).pointer()
                            }
                        };
                        return Some(FieldError::new(
                            field_name(&instance_at.pointer()),
                            message_key(&self.schema, &pointer, "maxItems"),
                        ));
                    }
                }
                let item_schema = node.get("items")?;
                let at = Steps::Key(&schema_at, "items");
                items.iter().enumerate().find_map(|(i, item)| {
                    self.oversized(item_schema, at, item, Steps::Index(&instance_at, i))
                })
            }
            Value::Object(map) => {
                let Some(Value::Object(properties)) = node.get("properties") else {
                    return None;
                };
                let props = Steps::Key(&schema_at, "properties");
                map.iter().find_map(|(key, value)| {
                    let sub = properties.get(key)?;
                    self.oversized(
                        sub,
                        Steps::Key(&props, key),
                        value,
                        Steps::Key(&instance_at, key),
                    )
                })
            }
            _ => None,
        }
    }

    /// Every field's first error, in the order the fields first fail.
    fn all_field_errors(&self, instance: &Value) -> Vec<FieldError> {
        let mut best: BTreeMap<String, (Vec<usize>, FieldError)> = BTreeMap::new();
        let mut order_of_fields: Vec<String> = Vec::new();
        for error in self.validator.iter_errors(instance) {
            let keyword_location = error.schema_path().as_str().to_owned();
            // A failed if/then may also be reported over the whole object; the keyword that failed
            // inside `then` is reported on its own field (the browser skips the same wrapper).
            if last_segment(&keyword_location) == "if" {
                continue;
            }
            let instance_path = error.instance_path().as_str().to_owned();
            let (field_pointer, subschema_pointer, keyword) = match error.kind() {
                jsonschema::error::ValidationErrorKind::Required { property } => {
                    let prop = property.as_str().unwrap_or_default().to_owned();
                    let parent = parent_pointer(&keyword_location);
                    (
                        format!("{instance_path}/{}", escape_pointer(&prop)),
                        format!("{parent}/properties/{}", escape_pointer(&prop)),
                        "required".to_owned(),
                    )
                }
                _ => (
                    instance_path,
                    parent_pointer(&keyword_location),
                    last_segment(&keyword_location),
                ),
            };
            let key = message_key(&self.schema, &subschema_pointer, &keyword);
            let field = field_name(&field_pointer);
            let rank = schema_order(&self.schema, &keyword_location);
            let candidate = FieldError::new(field.clone(), key);
            match best.get(&field) {
                Some((existing, _)) if compare_rank(existing, &rank) != Ordering::Greater => {}
                _ => {
                    if !best.contains_key(&field) {
                        order_of_fields.push(field.clone());
                    }
                    best.insert(field, (rank, candidate));
                }
            }
        }
        order_of_fields
            .into_iter()
            .filter_map(|f| best.remove(&f).map(|(_, e)| e))
            .collect()
    }
}

fn compare_rank(a: &[usize], b: &[usize]) -> Ordering {
    a.cmp(b)
}

/// The copy key for a failing keyword: the subschema's `x-errors[keyword]`, else the default.
pub fn message_key(schema: &Value, subschema_pointer: &str, keyword: &str) -> String {
    schema
        .pointer(subschema_pointer)
        .and_then(|s| s.get("x-errors"))
        .and_then(|m| m.get(keyword))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| {
            if keyword == "required" {
                DEFAULT_REQUIRED_KEY
            } else {
                DEFAULT_INVALID_KEY
            }
            .to_owned()
        })
}

/// The position of a keyword in the schema, as the index of each step within its parent (key
/// order of objects as written, index within arrays). Used to pick the first error per field.
pub fn schema_order(schema: &Value, pointer: &str) -> Vec<usize> {
    let mut node = schema;
    let mut out = Vec::new();
    for segment in pointer.split('/').skip(1) {
        let segment = unescape_pointer(segment);
        match node {
            Value::Object(map) => {
                let index = map.keys().position(|k| *k == segment).unwrap_or(usize::MAX);
                out.push(index);
                match map.get(&segment) {
                    Some(next) => node = next,
                    None => break,
                }
            }
            Value::Array(items) => {
                let index: usize = segment.parse().unwrap_or(usize::MAX);
                out.push(index);
                match items.get(index) {
                    Some(next) => node = next,
                    None => break,
                }
            }
            _ => break,
        }
    }
    out
}

fn parent_pointer(pointer: &str) -> String {
    match pointer.rfind('/') {
        Some(i) => pointer[..i].to_owned(),
        None => String::new(),
    }
}

fn last_segment(pointer: &str) -> String {
    unescape_pointer(pointer.rsplit('/').next().unwrap_or_default())
}

/// Where a walk over a document (or a schema) is: the steps from the root, borrowed.
#[derive(Clone, Copy)]
enum Steps<'a> {
    Root,
    Key(&'a Steps<'a>, &'a str),
    Index(&'a Steps<'a>, usize),
}

impl Steps<'_> {
    /// The JSON pointer of the place (`/pets/0/pet_name`).
    fn pointer(&self) -> String {
        match self {
            Steps::Root => String::new(),
            Steps::Key(parent, key) => format!("{}/{}", parent.pointer(), escape_pointer(key)),
            Steps::Index(parent, i) => format!("{}/{i}", parent.pointer()),
        }
    }
}

fn escape_pointer(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

fn unescape_pointer(s: &str) -> String {
    s.replace("~1", "/").replace("~0", "~")
}

/// `/pets/0/pet_name` → `pets[0].pet_name`, the field names the API and the error summary use.
pub fn field_name(pointer: &str) -> String {
    let mut out = String::new();
    for segment in pointer.split('/').skip(1) {
        let segment = unescape_pointer(segment);
        if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
            out.push('[');
            out.push_str(&segment);
            out.push(']');
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&segment);
        }
    }
    out
}

/// The properties an object schema declares, including those its `allOf`, `anyOf`, `oneOf`,
/// `then` and `else` declare (a question asked only for dogs is still the step's question), each
/// with the first subschema that declares it. Names are borrowed from the schema: the engine
/// walks a step's schema this way for every submission, so nothing here allocates a name or
/// hashes a key.
pub fn declared_properties(schema: &Value) -> Vec<(&str, &Value)> {
    let mut out: Vec<(&str, &Value)> = Vec::new();
    collect_properties(schema, &mut out);
    out
}

fn collect_properties<'s>(schema: &'s Value, out: &mut Vec<(&'s str, &'s Value)>) {
    let Some(map) = schema.as_object() else {
        return;
    };
    // One pass over the keys, then each part in a fixed order (properties, allOf, anyOf, oneOf,
    // then, else), whatever order the file wrote them in: the first to declare a name wins.
    let mut parts: [Option<&'s Value>; 6] = [None; 6];
    for (key, value) in map {
        let slot = match key.as_str() {
            "properties" => 0,
            "allOf" => 1,
            "anyOf" => 2,
            "oneOf" => 3,
            "then" => 4,
            "else" => 5,
            _ => continue,
        };
        parts[slot] = Some(value);
    }
    if let Some(props) = parts[0].and_then(Value::as_object) {
        for (name, sub) in props {
            if !out.iter().any(|(n, _)| *n == name.as_str()) {
                out.push((name.as_str(), sub));
            }
        }
    }
    for branches in &parts[1..4] {
        for sub in branches.and_then(Value::as_array).into_iter().flatten() {
            collect_properties(sub, out);
        }
    }
    for sub in parts[4..].iter().flatten() {
        collect_properties(sub, out);
    }
}

/// A property the server checks but never stores (`"writeOnly": true`): a bank account number.
pub fn is_write_only(schema: &Value) -> bool {
    schema.get("writeOnly").and_then(Value::as_bool) == Some(true)
}

/// The schema as answers are stored: every `writeOnly` property left out of `properties` and
/// `required`, wherever it is declared, including a `required` in an `if`/`then`/`else` or
/// `allOf` branch of the object that declares it (the payment question set requires the account
/// number only when paying by Direct Debit).
pub fn without_write_only(schema: &Value) -> Value {
    strip_write_only(schema, &[])
}

/// `outer`: the write-only names of the object this subschema is a branch of.
fn strip_write_only(schema: &Value, outer: &[String]) -> Value {
    match schema {
        Value::Object(map) => {
            let mut write_only: Vec<String> = outer.to_vec();
            write_only.extend(
                declared_properties(schema)
                    .into_iter()
                    .filter(|(_, s)| is_write_only(s))
                    .map(|(n, _)| n.to_owned()),
            );
            let mut out = Map::new();
            for (k, v) in map {
                let v = match k.as_str() {
                    "properties" => Value::Object(
                        v.as_object()
                            .into_iter()
                            .flatten()
                            .filter(|(n, _)| !write_only.contains(n))
                            .map(|(n, s)| (n.clone(), strip_write_only(s, &[])))
                            .collect(),
                    ),
                    "required" => Value::Array(
                        v.as_array()
                            .into_iter()
                            .flatten()
                            .filter(|n| {
                                n.as_str()
                                    .is_none_or(|n| !write_only.iter().any(|w| w == n))
                            })
                            .cloned()
                            .collect(),
                    ),
                    // Branches of the same object share its write-only names.
                    "if" | "then" | "else" | "not" => strip_write_only(v, &write_only),
                    "allOf" | "anyOf" | "oneOf" => Value::Array(
                        v.as_array()
                            .into_iter()
                            .flatten()
                            .map(|b| strip_write_only(b, &write_only))
                            .collect(),
                    ),
                    _ => strip_write_only(v, &[]),
                };
                out.insert(k.clone(), v);
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|i| strip_write_only(i, &[])).collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_names_follow_the_api() {
        assert_eq!(field_name("/pets/0/pet_name"), "pets[0].pet_name");
        assert_eq!(
            field_name("/owner/customer_postcode"),
            "owner.customer_postcode"
        );
        assert_eq!(field_name(""), "");
    }

    #[test]
    fn first_error_in_schema_order_wins() {
        let schema = json!({
            "type": "object",
            "properties": {
                "cost": { "type": "string", "allOf": [
                    { "pattern": "^[0-9]+$", "x-errors": { "pattern": "first" } },
                    { "maxLength": 2, "x-errors": { "maxLength": "second" } }
                ]}
            }
        });
        let c = CompiledSchema::new(schema).expect("compiles");
        let errors = c.field_errors(&json!({ "cost": "abcd" }));
        assert_eq!(errors, vec![FieldError::new("cost", "first")]);
        let errors = c.field_errors(&json!({ "cost": "1234" }));
        assert_eq!(errors, vec![FieldError::new("cost", "second")]);
    }

    #[test]
    fn required_uses_the_property_message() {
        let schema = json!({
            "type": "object", "required": ["a", "b"],
            "properties": { "a": { "type": "string", "x-errors": { "required": "a.needed" } }, "b": { "type": "string" } }
        });
        let c = CompiledSchema::new(schema).expect("compiles");
        let errors = c.field_errors(&json!({}));
        assert_eq!(
            errors,
            vec![
                FieldError::new("a", "a.needed"),
                FieldError::new("b", DEFAULT_REQUIRED_KEY)
            ]
        );
    }

    #[test]
    fn a_failed_then_gives_only_the_field_that_failed() {
        let schema = json!({
            "type": "object",
            "properties": { "kind": { "type": "string" } },
            "allOf": [{
                "if": { "required": ["kind"], "properties": { "kind": { "const": "dog" } } },
                "then": { "required": ["size"], "properties": { "size": { "enum": ["s", "l"] } } }
            }]
        });
        let c = CompiledSchema::new(schema).expect("compiles");
        assert_eq!(
            c.field_errors(&json!({ "kind": "dog" })),
            vec![FieldError::new("size", DEFAULT_REQUIRED_KEY)]
        );
        assert_eq!(
            c.field_errors(&json!({ "kind": "dog", "size": "m" })),
            vec![FieldError::new("size", DEFAULT_INVALID_KEY)]
        );
        assert_eq!(c.field_errors(&json!({ "kind": "cat" })), vec![]);
    }
}
