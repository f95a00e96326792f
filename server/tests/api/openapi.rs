//! The API's description (API users): an OpenAPI 3.1 document written from the list the
//! router adds its calls from (server/src/routes/calls.rs), served at /api/openapi.json and held
//! to a snapshot. After a deliberate change run `UPDATE_SNAPSHOTS=1 cargo test -p pawpath-server
//! --test openapi` and review the diff. Every documented body is checked against what the call
//! really takes.

use crate::common;

use std::collections::BTreeSet;

use common::*;
use serde_json::{Value, json};

const SNAPSHOT: &str = "tests/snapshots/openapi.json";

fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                out.push(r.clone());
            }
            map.values().for_each(|v| refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn the_openapi_document_describes_every_call_and_matches_its_snapshot() {
    let app = spawn_app().await;
    let r = app
        .client
        .get(format!("{}/api/openapi.json", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    let doc: Value = r.json().await.expect("json");
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.len() >= 35, "{} calls", paths.len());
    for wanted in [
        "/api/petdetails",
        "/api/language",
        "/api/purchase",
        "/api/aggregators/quotes",
        "/internal/funnel",
    ] {
        assert!(paths.contains_key(wanted), "{wanted} is described");
    }
    // The developers' guide's API section names every call the document describes.
    let readme =
        std::fs::read_to_string(repo_root().join("server/README.md")).expect("server/README.md");
    let calls = readme
        .split("## The calls so far")
        .nth(1)
        .expect("the guide's API section");
    for path in paths.keys() {
        let written = path.replace("{reference}", "<reference>");
        assert!(
            calls.contains(&format!("{written}`"))
                || calls.contains(&format!("{written} "))
                || calls.contains(&format!("{written}?")),
            "server/README.md's \"The calls so far\" does not describe {path}"
        );
    }
    // Every reference resolves.
    let mut all = Vec::new();
    refs(&doc, &mut all);
    for r in &all {
        let pointer = r.strip_prefix('#').expect("a local reference");
        assert!(doc.pointer(pointer).is_some(), "{r} resolves");
    }
    assert!(
        all.contains(&"#/components/schemas/questions.pet_details".to_owned()),
        "the pet details call takes the pet details question set"
    );

    // The snapshot.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    let text = serde_json::to_string_pretty(&doc).expect("json") + "\n";
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(&path, &text).expect("write snapshot");
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == text,
        "/api/openapi.json differs from {SNAPSHOT}: after a deliberate change run UPDATE_SNAPSHOTS=1 cargo test -p pawpath-server --test api openapi and review the diff"
    );

    // What each call's body is documented to take is what the call takes: a body with an
    // unknown field is refused naming the fields it takes.
    let csrf = app.csrf().await;
    let mut checked = 0;
    for (path, item) in paths {
        let Some(post) = item.get("post") else {
            continue;
        };
        if path.contains('{') || path.starts_with("/internal") || path == "/api/aggregators/quotes"
        {
            continue;
        }
        let schema = &post["requestBody"]["content"]["application/json"]["schema"];
        let (own, answers) = match schema.get("allOf").and_then(Value::as_array) {
            Some(parts) => (parts[0].clone(), parts[1].clone()),
            None => (schema.clone(), Value::Null),
        };
        let mut documented: BTreeSet<String> = own["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let mut sets = Vec::new();
        refs(&answers, &mut sets);
        for r in sets {
            let set = doc.pointer(r.trim_start_matches('#')).expect("set");
            documented.extend(
                set["properties"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, _)| k.clone()),
            );
        }
        let r = app
            .client
            .post(format!("{}{path}", app.base))
            .json(&json!({ "csrf": csrf, "zz_unknown": 1 }))
            .send()
            .await
            .expect("post");
        let body = r.text().await.unwrap_or_default();
        let Some(takes) = body.split("this call takes").nth(1) else {
            continue;
        };
        let takes: BTreeSet<String> = takes
            .trim_end_matches(['"', '}'])
            .split(',')
            .map(|f| f.trim().trim_end_matches('"').to_owned())
            .filter(|f| !f.is_empty())
            .collect();
        let undocumented: Vec<&String> = takes.difference(&documented).collect();
        assert!(
            undocumented.is_empty(),
            "{path} takes {undocumented:?}, which its description lacks"
        );
        let own_fields: BTreeSet<String> = own["properties"]
            .as_object()
            .map(|p| {
                p.keys()
                    // The page helper's fields, which every page call takes (journey.md §7).
                    .filter(|k| {
                        !["csrf", "form", "locale", "experiment_views"].contains(&k.as_str())
                    })
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let refused: Vec<&String> = own_fields.difference(&takes).collect();
        assert!(
            refused.is_empty(),
            "{path} is described with {refused:?}, which it refuses"
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} calls checked");
}

/// The smallest value `schema` describes (within `doc`, whose `$ref`s it follows): its example,
/// else its first allowed value, else the least its type and bounds take; an object with its
/// required properties only, an array with the fewest items.
fn minimal(doc: &Value, schema: &Value, depth: usize) -> Value {
    assert!(depth < 20, "a schema too deep to make a body of");
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let target = doc.pointer(r.trim_start_matches('#')).expect("resolves");
        return minimal(doc, target, depth + 1);
    }
    if let Some(example) = schema.get("examples").and_then(|e| e.get(0)) {
        return example.clone();
    }
    if let Some(first) = schema.get("enum").and_then(|e| e.get(0)) {
        return first.clone();
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        let mut out = serde_json::Map::new();
        for part in parts {
            if let Value::Object(map) = minimal(doc, part, depth + 1) {
                out.extend(map);
            }
        }
        return Value::Object(out);
    }
    if let Some(first) = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(|e| e.get(0))
    {
        return minimal(doc, first, depth + 1);
    }
    let kind = match schema.get("type") {
        Some(Value::Array(kinds)) => kinds.first().and_then(Value::as_str).unwrap_or("object"),
        Some(Value::String(kind)) => kind.as_str(),
        _ => "object",
    };
    match kind {
        "string" => {
            let len = schema
                .get("minLength")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1);
            json!("a".repeat(usize::try_from(len).expect("length")))
        }
        "boolean" => json!(true),
        "integer" | "number" => schema.get("minimum").cloned().unwrap_or(json!(1)),
        "array" => {
            let n = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let item = schema.get("items").cloned().unwrap_or(json!({}));
            Value::Array((0..n).map(|_| minimal(doc, &item, depth + 1)).collect())
        }
        "null" => Value::Null,
        _ => {
            let mut out = serde_json::Map::new();
            let properties = schema.get("properties");
            for name in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                let property = properties
                    .and_then(|p| p.get(name))
                    .cloned()
                    .unwrap_or(json!({}));
                out.insert(name.to_owned(), minimal(doc, &property, depth + 1));
            }
            Value::Object(out)
        }
    }
}

/// The body `schema` describes with every documented property of the call's own that has an
/// example given it, over the minimal body.
fn with_examples(doc: &Value, schema: &Value) -> Value {
    let mut body = minimal(doc, schema, 0);
    let own = schema.get("allOf").and_then(|p| p.get(0)).unwrap_or(schema);
    for (name, property) in own["properties"].as_object().into_iter().flatten() {
        if let Some(example) = property.get("examples").and_then(|e| e.get(0)) {
            body[name] = example.clone();
        }
    }
    body
}

/// Every page call, made for a priced quote with one dog, takes the minimal
/// body its own document describes and the body with its documented examples: neither is
/// refused as malformed (400 or 415) nor fails on the server (5xx). (The quote may still not be at the step the call saves, or the
/// answers may fail their own rules: 409 and 422 are answers about the quote, not the body.)
#[tokio::test]
async fn every_call_takes_the_minimal_body_and_the_examples_its_document_describes() {
    let app = spawn_app_with(&[("PAWPATH_SESSION_BURST", "10000".to_owned())]).await;
    let doc: Value = app
        .client
        .get(format!("{}/api/openapi.json", app.base))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let Some(post) = item.get("post") else {
            continue;
        };
        if post["security"] != json!([{ "session": [] }]) || path.contains('{') {
            continue;
        }
        let schema = &post["requestBody"]["content"]["application/json"]["schema"];
        for (kind, mut body) in [
            ("minimal", minimal(&doc, schema, 0)),
            ("examples", with_examples(&doc, schema)),
        ] {
            // A visitor of its own for each body: a reset or a purchase ends a session's quote.
            let visitor = reqwest::Client::builder()
                .cookie_store(true)
                .build()
                .expect("client");
            let page: Value = visitor
                .get(format!("{}/quote", app.base))
                .header("Accept", "application/json")
                .send()
                .await
                .expect("get")
                .json()
                .await
                .expect("json");
            body["csrf"] = page["data"]["csrf"].clone();
            // A priced quote with one dog: what the calls about a pet or a product refer to.
            for (call, answers) in [
                ("/api/petdetails", json!({ "pets": [valid_pet()] })),
                ("/api/ownerdetail", json!({ "owner": valid_owner() })),
            ] {
                let mut save = answers;
                save["csrf"] = body["csrf"].clone();
                let r = visitor
                    .post(format!("{}{call}", app.base))
                    .json(&save)
                    .send()
                    .await
                    .expect("post");
                assert_eq!(r.status(), 200, "{call}");
            }
            let r = visitor
                .post(format!("{}{path}", app.base))
                .json(&body)
                .send()
                .await
                .expect("post");
            let status = r.status().as_u16();
            let answer = r.text().await.unwrap_or_default();
            if matches!(status, 400 | 415) || status >= 500 {
                wrong.push(format!("{path} ({kind} body {body}): {status} {answer}"));
            }
            checked += 1;
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked >= 40, "only {checked} bodies sent");
}
