//! What a question set's schema may say: the keywords both validators interpret (the server's
//! jsonschema crate, and the browser's interpreter in renderer/src/features/form/json-schema.ts),
//! the annotations neither asserts, and the string formats both check. A keyword outside these
//! would be a rule the server enforces and the browser silently skips (or the other way round),
//! so `pawpath check` refuses it. Also: the examples a schema gives must be answers it accepts
//! (the parity cases start from them).

use serde_json::Value;

use crate::definitions::error::DefinitionError;
use crate::definitions::schema::CompiledSchema;

/// Keywords that assert something, interpreted alike on both sides (draft-07). `then` and `else`
/// are read with `if`.
pub const VALIDATION_KEYWORDS: [&str; 26] = [
    "type",
    "enum",
    "const",
    "not",
    "allOf",
    "anyOf",
    "oneOf",
    "if",
    "then",
    "else",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// Keywords that only describe (and `x-…` extensions such as `x-errors`, the messages).
pub const ANNOTATIONS: [&str; 9] = [
    "$id",
    "$schema",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "readOnly",
    "writeOnly",
];

/// The string formats both sides assert.
pub const FORMATS: [&str; 1] = ["date"];

/// Every keyword and format of a question set's schema both validators know, and its examples
/// valid.
pub(super) fn lint_schema_keywords(file: &str, schema: &Value, errors: &mut Vec<DefinitionError>) {
    walk_schema(schema, "/schema", &mut |path, problem| {
        errors.push(DefinitionError::new(file, path, problem));
    });
    let Some(examples) = schema.get("examples") else {
        return;
    };
    let Some(examples) = examples.as_array() else {
        errors.push(DefinitionError::new(
            file,
            "/schema/examples",
            "must be a list of answer documents Fix: write `\"examples\": [{…}]`.",
        ));
        return;
    };
    let Ok(compiled) = CompiledSchema::new(schema.clone()) else {
        return; // the schema itself is refused, with its own message
    };
    for (i, example) in examples.iter().enumerate() {
        if let Some(first) = compiled.field_errors(example).first() {
            errors.push(DefinitionError::new(
                file,
                format!("/schema/examples/{i}"),
                format!(
                    "the schema refuses its own example: {} ({}) Fix: correct the example (or the rule) so that it is an answer the set accepts.",
                    if first.field.is_empty() { "(the whole answer)" } else { &first.field },
                    first.key
                ),
            ));
        }
    }
}

fn walk_schema(schema: &Value, path: &str, report: &mut dyn FnMut(String, String)) {
    let Value::Object(node) = schema else {
        return;
    };
    for (keyword, value) in node {
        let at = format!("{path}/{}", keyword.replace('~', "~0").replace('/', "~1"));
        if keyword.starts_with("x-") || ANNOTATIONS.contains(&keyword.as_str()) {
            continue;
        }
        if !VALIDATION_KEYWORDS.contains(&keyword.as_str()) {
            report(
                at,
                format!(
                    "{keyword:?} is not a keyword both validators interpret, so the browser and the server would disagree Fix: write the rule with {} (or an annotation: {}, x-…).",
                    VALIDATION_KEYWORDS.join(", "),
                    ANNOTATIONS.join(", ")
                ),
            );
            continue;
        }
        match (keyword.as_str(), value) {
            ("format", Value::String(format)) if !FORMATS.contains(&format.as_str()) => report(
                at,
                format!(
                    "format {format:?} is not one both validators check Fix: use {} or a pattern.",
                    FORMATS.join(", ")
                ),
            ),
            (
                "not" | "if" | "then" | "else" | "additionalProperties" | "items",
                sub @ Value::Object(_),
            ) => {
                walk_schema(sub, &at, report);
            }
            ("allOf" | "anyOf" | "oneOf" | "items", Value::Array(subs)) => {
                for (i, sub) in subs.iter().enumerate() {
                    walk_schema(sub, &format!("{at}/{i}"), report);
                }
            }
            ("properties", Value::Object(props)) => {
                for (name, sub) in props {
                    let name = name.replace('~', "~0").replace('/', "~1");
                    walk_schema(sub, &format!("{at}/{name}"), report);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::json;

    use super::*;

    fn problems(schema: Value) -> Vec<String> {
        let mut errors = Vec::new();
        lint_schema_keywords("questions/x.json", &schema, &mut errors);
        errors.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_keyword_only_one_side_knows_is_refused_where_it_is_written() {
        let found = problems(json!({
            "type": "object",
            "properties": { "pets": { "type": "array", "items": { "properties": {
                "name": { "type": "string", "contains": { "const": "x" } },
                "born": { "type": "string", "format": "email" }
            } } } }
        }));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].contains("/schema/properties/pets/items/properties/name/contains"),
            "{}",
            found[0]
        );
        assert!(found[0].contains("\"contains\" is not a keyword both validators interpret"));
        assert!(found[1].contains("/properties/born/format"), "{}", found[1]);
        assert!(found[1].contains("format \"email\""));
    }

    #[test]
    fn annotations_extensions_and_the_keywords_both_know_pass() {
        assert_eq!(
            problems(json!({
                "$id": "pawpath:questions/x", "type": "object", "title": "t", "x-errors": { "required": "k" },
                "required": ["a"], "examples": [{ "a": "2024-02-29" }],
                "properties": { "a": { "type": "string", "allOf": [{ "format": "date" }], "writeOnly": true } },
                "if": { "required": ["a"] }, "then": { "not": { "const": 1 } }
            })),
            Vec::<String>::new()
        );
    }

    #[test]
    fn an_example_the_schema_refuses_is_named() {
        let found = problems(json!({
            "type": "object", "required": ["a"], "examples": [{ "a": "ok" }, { "b": 1 }],
            "properties": { "a": { "type": "string" } }
        }));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("/schema/examples/1"), "{}", found[0]);
        assert!(
            found[0].contains("refuses its own example: a (error.required)"),
            "{}",
            found[0]
        );
    }

    /// The browser's interpreter handles exactly these keywords and formats: read from its source.
    #[test]
    fn the_browsers_validator_interprets_the_same_keywords_and_formats() {
        let source = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../renderer/src/features/form/json-schema.ts"),
        )
        .expect("renderer/src/features/form/json-schema.ts");
        let body = &source[source.find("private keyword(").expect("the keyword switch")..];
        let cases: BTreeSet<&str> = body
            .split("case '")
            .skip(1)
            .filter_map(|rest| rest.split('\'').next())
            .collect();
        let ours: BTreeSet<&str> = VALIDATION_KEYWORDS
            .iter()
            .copied()
            .filter(|k| !matches!(*k, "then" | "else"))
            .collect();
        assert_eq!(
            cases, ours,
            "json-schema.ts's keywords and VALIDATION_KEYWORDS differ"
        );
        let formats = &source[source.find("const FORMATS").expect("FORMATS")..];
        let formats = &formats[..formats.find("};").expect("end of FORMATS")];
        let names: BTreeSet<&str> = formats
            .lines()
            .skip(1)
            .filter_map(|l| l.trim().split(':').next())
            .filter(|n| !n.is_empty())
            .collect();
        assert_eq!(
            names,
            FORMATS.into_iter().collect(),
            "json-schema.ts's FORMATS differ"
        );
    }
}
