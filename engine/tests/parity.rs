//! The parity check between renderer and server: generated answer sets for every
//! question set of every journey (a set that extends another resolved, as the server serves it),
//! with the server's verdict on each (the field errors and their British English messages),
//! written to tests/parity/cases.json beside each set's schema as served. The renderer's test
//! (renderer/src/features/form/parity.test.ts) validates the same answers against the same
//! schemas with the browser's validator and must reach the same verdict on every case; this
//! test holds the file to what the server says now.
//!
//! Each mutation starts from a valid answer document: the flows' named answer sets for the sets
//! they fill, and for every other set the examples its schema gives (`examples`, which
//! `pawpath check` holds valid). A set with neither fails this test. After a deliberate change to a question set run
//! `UPDATE_SNAPSHOTS=1 cargo test -p pawpath-engine --test parity` and review the diff.

use std::path::{Path, PathBuf};

use engine::Definitions;
use engine::definitions::FsLoader;
use serde_json::{Value, json};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The answers every mutation starts from: the flows' named answer sets, placed where each
/// question set takes them.
fn seeds(sets: &Value) -> Vec<(&'static str, Value)> {
    let s = |name: &str| sets[name].clone();
    let with = |name: &str, extra: Value| {
        let mut v = s(name);
        for (k, x) in extra.as_object().into_iter().flatten() {
            v[k] = x.clone();
        }
        v
    };
    vec![
        ("pet_details", json!({ "pets": [s("dog")] })),
        ("pet_details", json!({ "pets": [s("cat")] })),
        ("pet_details", json!({ "pets": [s("rabbit")] })),
        (
            "pet_details",
            json!({ "pets": [with("dog", json!({ "dog_breed_type": "mongrel", "mongrel_size": "D608", "pet_breed": "D608" }))] }),
        ),
        ("your_details", json!({ "owner": s("owner") })),
        ("assumptions", json!({ "pets": [s("dog_assumptions")] })),
        ("payment", json!({ "payment": s("direct_debit") })),
        (
            "crossbreed",
            json!({ "pets": [{ "confirm_crossbreed": true }] }),
        ),
        (
            "cover",
            json!({ "pets": [{ "product": { "Code": "LT04000" } }] }),
        ),
    ]
}

/// The answers' leaves: (the path of keys and indexes, the value).
fn leaves(value: &Value, at: &mut Vec<Value>, out: &mut Vec<(Vec<Value>, Value)>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                at.push(json!(k));
                leaves(v, at, out);
                at.pop();
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                at.push(json!(i));
                leaves(v, at, out);
                at.pop();
            }
        }
        other => out.push((at.clone(), other.clone())),
    }
}

fn set_at(doc: &mut Value, path: &[Value], value: Option<Value>) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut here = doc;
    for p in parents {
        here = match p {
            Value::String(k) => &mut here[k.as_str()],
            Value::Number(n) => &mut here[n.as_u64().unwrap_or(0) as usize],
            _ => return,
        };
    }
    match (last, value) {
        (Value::String(k), Some(v)) => here[k.as_str()] = v,
        (Value::String(k), None) => {
            if let Some(o) = here.as_object_mut() {
                o.remove(k);
            }
        }
        (Value::Number(n), Some(v)) => here[n.as_u64().unwrap_or(0) as usize] = v,
        _ => {}
    }
}

/// The enum values a field's schema offers anywhere (conditional branches included).
fn enums_for(schema: &Value, name: &str, out: &mut Vec<Value>) {
    match schema {
        Value::Object(map) => {
            if let Some(props) = map.get("properties").and_then(Value::as_object)
                && let Some(field) = props.get(name)
                && let Some(values) = field.get("enum").and_then(Value::as_array)
            {
                for v in values {
                    if !out.contains(v) {
                        out.push(v.clone());
                    }
                }
            }
            map.values().for_each(|v| enums_for(v, name, out));
        }
        Value::Array(items) => items.iter().for_each(|v| enums_for(v, name, out)),
        _ => {}
    }
}

/// The flows' seeds, then each set's own examples, for every question set there is.
fn all_seeds(defs: &Definitions, sets: &Value) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = seeds(sets)
        .into_iter()
        .map(|(set, seed)| (set.to_owned(), seed))
        .collect();
    for qs in &defs.raw.question_sets {
        let id = &qs.value.id;
        if out.iter().any(|(set, _)| **set == **id) {
            continue;
        }
        let examples = qs.value.schema.get("examples").and_then(Value::as_array);
        let examples = examples.map(Vec::as_slice).unwrap_or_default();
        assert!(
            !examples.is_empty(),
            "{}: question set {id} has no valid answers to start the parity cases from: give its schema `examples` (one valid answer document is enough)",
            qs.file
        );
        out.extend(examples.iter().map(|e| (id.to_string(), e.clone())));
    }
    out
}

fn cases(defs: &Definitions, sets: &Value) -> Vec<Value> {
    let voice = defs.voice("pos", "en-GB");
    let mut out = Vec::new();
    for (set, seed) in all_seeds(defs, sets) {
        let set = set.as_str();
        let schema = defs
            .question_schema(set)
            .unwrap_or_else(|| panic!("no question set {set}"));
        let mut variants: Vec<(String, Value)> = vec![("as given".into(), seed.clone())];
        let mut found = Vec::new();
        leaves(&seed, &mut Vec::new(), &mut found);
        for (path, value) in found {
            let name = path
                .iter()
                .map(|p| p.as_str().map_or_else(|| p.to_string(), str::to_owned))
                .collect::<Vec<_>>()
                .join(".");
            let mut push = |what: String, v: Option<Value>| {
                let mut doc = seed.clone();
                set_at(&mut doc, &path, v);
                variants.push((format!("{name}: {what}"), doc));
            };
            push("absent".into(), None);
            push("empty".into(), Some(json!("")));
            push("a number".into(), Some(json!(12345)));
            push("too long".into(), Some(json!("x".repeat(120))));
            push("odd characters".into(), Some(json!("R@x <b>")));
            if value.is_string() {
                push("a boolean".into(), Some(json!(true)));
            }
            let field = path.last().and_then(Value::as_str).unwrap_or("");
            let mut options = Vec::new();
            enums_for(&schema.schema, field, &mut options);
            for o in options {
                if o != value {
                    push(format!("{o}"), Some(o));
                }
            }
        }
        for (what, answers) in variants {
            let mut errors: Vec<Value> = schema
                .field_errors(&answers)
                .iter()
                .map(|e| json!({ "field": e.field, "message": voice.message(e) }))
                .collect();
            errors.sort_by_key(|e| e["field"].as_str().unwrap_or("").to_owned());
            out.push(
                json!({ "questions": set, "case": what, "answers": answers, "errors": errors }),
            );
        }
    }
    out
}

#[test]
fn the_servers_verdicts_are_the_ones_the_browser_is_held_to() {
    let defs = Definitions::load(&FsLoader::new(repo())).expect("the repository's definitions");
    let sets: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("tests/flows/_answers.json")).expect("answer sets"),
    )
    .expect("json");
    let all = cases(&defs, &sets);
    assert!(all.len() >= 300, "{} cases", all.len());
    let refused = all
        .iter()
        .filter(|c| c["errors"].as_array().is_some_and(|e| !e.is_empty()))
        .count();
    assert!(
        refused * 3 >= all.len(),
        "mostly answers that fail: {refused} of {}",
        all.len()
    );
    // Every set's answers start valid: a seed the server refuses would test nothing it means to.
    for c in all.iter().filter(|c| c["case"] == "as given") {
        assert_eq!(
            c["errors"],
            json!([]),
            "{}: the seed is refused",
            c["questions"]
        );
    }
    let schemas: serde_json::Map<String, Value> = defs
        .raw
        .question_sets
        .iter()
        .map(|qs| (qs.value.id.to_string(), qs.value.schema.clone()))
        .collect();
    let file = json!({
        "description": "Generated by engine/tests/parity.rs: every question set's schema as the server serves it, and answer sets with the server's field errors (en-GB). The renderer's parity test must give the same for each.",
        "schemas": schemas,
        "cases": all,
    });
    let text = serde_json::to_string_pretty(&file).expect("json") + "\n";
    let path = repo().join("tests/parity/cases.json");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
        std::fs::write(&path, &text).expect("write");
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == text,
        "tests/parity/cases.json is not what the server says now: run UPDATE_SNAPSHOTS=1 cargo test -p pawpath-engine --test parity, review the diff, and run the renderer's tests"
    );
}
