//! The OpenAPI document (`/api/openapi.json`), written from the list of calls the router serves
//! (`calls.rs`), with the question sets' schemas as components: no call can be served
//! undocumented.

use serde_json::{Map, Value, json};

use super::call::{Access, GENERIC_CALL, GET};
use super::calls::calls;

/// A call's own field as the document states it: a JSON type ("string"), or a JSON Schema with
/// the rules the call holds it to (lengths, bounds, a pattern, the values it takes) and an
/// example it accepts; `server/tests/api/openapi_bounds.rs` sends each rule's boundary values.
pub fn field_schema(kind: &str, description: &str) -> Value {
    let mut schema = if kind.starts_with('{') {
        serde_json::from_str(kind)
            .unwrap_or_else(|e| json!({ "description": format!("unreadable field schema: {e}") }))
    } else {
        json!({ "type": kind })
    };
    if !description.is_empty() {
        schema["description"] = json!(description);
    }
    schema
}

/// The OpenAPI 3.1 document: every call of `calls`, with the question sets' schemas as
/// components (the ones the calls are validated with).
pub fn openapi(state: &crate::service::state::AppState) -> Value {
    let (defs, test_mode) = (&state.defs, state.config.test_mode);
    let mut components = Map::new();
    let mut used_sets = std::collections::BTreeSet::new();
    let mut paths = Map::new();
    for (call, _) in calls(test_mode) {
        // The question sets the definitions send through the call (a step's or a modal's): the
        // body is one of their schemas. The generic call takes the sets of every step and modal
        // that names no call of its own.
        let taken = if call.path == GENERIC_CALL {
            let mut taken = crate::service::view::sets_taken_by_generic_call(defs);
            taken.modals.sort();
            taken
        } else {
            crate::service::view::sets_taken_by(defs, call.path)
        };
        let sets: Vec<String> = if call.own_body {
            Vec::new()
        } else {
            taken
                .forms
                .iter()
                .chain(&taken.modals)
                .filter(|set| defs.question_schema(set).is_some())
                .cloned()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect()
        };
        for set in &sets {
            used_sets.insert((*set).to_owned());
        }
        let mut own = Map::new();
        let mut required: Vec<&str> = Vec::new();
        if call.access == Access::Session && call.methods.contains(&"post") {
            own.insert(
                "csrf".into(),
                json!({ "type": "string", "description": "the page's CSRF token" }),
            );
            required.push("csrf");
            own.insert(
                "locale".into(),
                json!({ "type": "string", "description": "added by the page's call helper (journey.md §7); not read: the quote's language is the language chooser's" }),
            );
            own.insert(
                "experiment_views".into(),
                json!({ "type": "array", "maxItems": 20, "items": { "type": "string" }, "description": "the experiment variations the page showed, each \"{experiment}:{variation}\" of a defined experiment" }),
            );
        }
        for (name, kind, description) in call.fields {
            own.insert((*name).into(), field_schema(kind, description));
        }
        required.extend(call.required.iter().copied());
        // A call that saves modals takes `form`, one of their question sets.
        let mut forms = taken.modals.clone();
        forms.sort();
        let submits =
            crate::service::view::answer_fields(call.path).is_some() || call.path == GENERIC_CALL;
        if !forms.is_empty() && submits {
            own.insert(
                "form".into(),
                json!({ "enum": forms, "examples": [forms[0]], "description": "the modal's question set; absent for the step's own form" }),
            );
        }
        let own_schema = json!({ "type": "object", "properties": own, "required": required });
        let body = if sets.is_empty() {
            own_schema
        } else {
            let answers: Vec<Value> = sets
                .iter()
                .map(|s| json!({ "$ref": format!("#/components/schemas/questions.{s}") }))
                .collect();
            json!({ "allOf": [own_schema, if answers.len() == 1 { answers[0].clone() } else { json!({ "oneOf": answers }) }] })
        };
        let security = match call.access {
            Access::Session => json!([{ "session": [] }]),
            Access::Aggregator => json!([{ "aggregatorKey": [] }]),
            Access::Admin => json!([{ "adminToken": [] }, { "adminBasic": [] }]),
            Access::Public | Access::TestMode => json!([]),
        };
        let mut item = Map::new();
        for method in call.methods {
            let mut op = json!({
                "summary": call.summary,
                "operationId": format!("{method}{}", call.path.replace(['/', '{', '}', '-'], "_")),
                "security": security,
                "responses": {
                    "200": { "description": call.answers },
                    "400": { "description": "a malformed body, naming the field and the problem" },
                },
            });
            if call.access == Access::TestMode {
                op["description"] = json!("Only on a test host (PAWPATH_TEST_MODE=1).");
            }
            // A call that is only a GET takes its fields in the query.
            if call.methods == GET && !call.fields.is_empty() {
                op["parameters"] = call
                    .fields
                    .iter()
                    .map(|(name, ty, description)| json!({ "name": name, "in": "query", "required": true, "description": description, "schema": field_schema(ty, "") }))
                    .collect();
            }
            if call.path.contains("{reference}") {
                op["parameters"] = json!([{ "name": "reference", "in": "path", "required": true, "schema": { "type": "string" } }]);
            }
            if call.path == GENERIC_CALL {
                op["parameters"] = json!([{ "name": "step", "in": "path", "required": true, "description": "the step's id in the quote's journey file", "schema": { "type": "string", "pattern": "^[a-z][a-z0-9_]*$", "maxLength": 64 } }]);
            }
            if *method == "post" {
                op["requestBody"] = json!({ "required": true, "content": { "application/json": { "schema": body } } });
                if call.access == Access::Session {
                    op["responses"]["403"] =
                        json!({ "description": "no session, or a missing or wrong CSRF token" });
                    op["responses"]["409"] = json!({ "description": "nothing stored: the quote changed in another window (conflict), can no longer be changed (quote_closed), the step or form asked for is not open yet (step_closed, naming the step or form and the guards that failed), the call does not apply to the quote as it stands (not_applicable, saying why), or the quote's history is at its ceiling (history_full)" });
                    op["responses"]["429"] = json!({ "description": "nothing stored: this session is calling faster than a person could (rate_limited); Retry-After says how many seconds to wait" });
                }
                if !sets.is_empty() {
                    op["responses"]["422"] = json!({ "description": "nothing stored: {error: validation, errors: [{field, message}]}, one message per field in the quote's language" });
                }
            }
            item.insert((*method).into(), op);
        }
        paths.insert(call.path.into(), Value::Object(item));
    }
    for set in used_sets {
        if let Some(schema) = defs.question_schema(&set) {
            let mut s = schema.schema.clone();
            if let Some(o) = s.as_object_mut() {
                o.remove("$id");
                o.remove("$schema");
            }
            components.insert(format!("questions.{set}"), s);
        }
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "pawpath",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The pet insurance quote-and-buy journey's calls. The page's calls carry the session cookie and, in every POST body, the page's CSRF token and the shared helper's `locale`; answers are validated with the question sets' JSON Schemas below, the same ones the browser uses, and refused with field errors in the quote's language.",
        },
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "servers": [{ "url": "/" }],
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "session": { "type": "apiKey", "in": "cookie", "name": "pawpath_session", "description": "HttpOnly, SameSite session cookie set by the first page" },
                "aggregatorKey": { "type": "http", "scheme": "bearer", "description": "a comparison site's API key (PAWPATH_AGGREGATOR_KEYS)" },
                "adminToken": { "type": "http", "scheme": "bearer", "description": "PAWPATH_ADMIN_TOKEN" },
                "adminBasic": { "type": "http", "scheme": "basic", "description": "any user name, PAWPATH_ADMIN_TOKEN as password" },
            },
        },
    })
}
