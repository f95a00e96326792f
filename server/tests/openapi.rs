//! The API's description (issue 8, API users): an OpenAPI 3.1 document written from the list the
//! router adds its calls from (server/src/routes/calls.rs), served at /api/openapi.json and held
//! to a snapshot. After a deliberate change run `UPDATE_SNAPSHOTS=1 cargo test -p pawpath-server
//! --test openapi` and review the diff. Every documented body is checked against what the call
//! really takes.

mod common;

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
    // Issue 25: the README's API section names every call the document describes.
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README");
    let calls = readme
        .split("## The calls so far")
        .nth(1)
        .expect("the README's API section");
    for path in paths.keys() {
        let written = path.replace("{reference}", "<reference>");
        assert!(
            calls.contains(&format!("{written}`"))
                || calls.contains(&format!("{written} "))
                || calls.contains(&format!("{written}?")),
            "README's \"The calls so far\" does not describe {path}"
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
        "/api/openapi.json differs from {SNAPSHOT}: after a deliberate change run UPDATE_SNAPSHOTS=1 cargo test -p pawpath-server --test openapi and review the diff"
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
