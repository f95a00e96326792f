//! Fixture-driven tests: `tests/fixtures/base.json` is a small valid definition set; every file
//! under `lint/` breaks it in one way and names the error it must produce; every file under
//! `transitions/` runs one event against it and names the outcome.

use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use engine::Definitions;
use engine::definitions::MemoryLoader;
use engine::journey::runtime::{self, Event, Lifecycle};
use engine::rules::context::RuleContext;
use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn base_files() -> serde_json::Map<String, Value> {
    read(&fixtures().join("base.json"))["files"]
        .as_object()
        .cloned()
        .expect("base files")
}

/// The base's files that are not JSON (a brand's SVG logo), as text.
fn base_raw() -> Vec<(String, String)> {
    read(&fixtures().join("base.json"))["raw"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().expect("raw text").to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// The base's files with `raw` text files added, a fixture's raw file replacing the base's.
fn loader(files: &serde_json::Map<String, Value>, raw: &[(String, String)]) -> MemoryLoader {
    let mut out: Vec<(String, String)> = files
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::to_string_pretty(v).expect("json")))
        .collect();
    out.extend(
        base_raw()
            .into_iter()
            .filter(|(name, _)| !raw.iter().any(|(n, _)| n == name)),
    );
    out.extend(raw.iter().cloned());
    MemoryLoader { files: out }
}

fn base_definitions() -> Definitions {
    Definitions::load(&loader(&base_files(), &[]))
        .unwrap_or_else(|e| panic!("the base fixture must load: {e}"))
}

fn set_pointer(doc: &mut Value, pointer: &str, value: Value) {
    let (parent, last) = pointer.rsplit_once('/').expect("pointer");
    let target = doc
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no parent at {parent}"));
    match target {
        Value::Object(map) => {
            map.insert(last.replace("~1", "/").replace("~0", "~"), value);
        }
        Value::Array(items) => {
            let i: usize = last.parse().expect("index");
            items[i] = value;
        }
        _ => panic!("cannot set {pointer}"),
    }
}

fn sorted_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = glob::glob(&format!("{}/{dir}/*.json", fixtures().display()))
        .expect("glob")
        .filter_map(Result::ok)
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {dir}");
    files
}

/// The base's files with a fixture's `patch`es applied and its `add`ed files, and its raw files.
fn patched(
    path: &Path,
    fixture: &Value,
) -> (serde_json::Map<String, Value>, Vec<(String, String)>) {
    let mut files = base_files();
    for patch in fixture["patch"].as_array().into_iter().flatten() {
        let file = patch["file"].as_str().expect("file");
        let doc = files
            .get_mut(file)
            .unwrap_or_else(|| panic!("{}: no base file {file}", path.display()));
        set_pointer(
            doc,
            patch["pointer"].as_str().expect("pointer"),
            patch["value"].clone(),
        );
    }
    if let Some(add) = fixture["add"].as_object() {
        for (k, v) in add {
            files.insert(k.clone(), v.clone());
        }
    }
    let raw: Vec<(String, String)> = fixture["raw"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().expect("raw text").to_owned()))
                .collect()
        })
        .unwrap_or_default();
    (files, raw)
}

/// `pawpath check`: every file under `check/` passes the lint but fails one of the
/// deeper checks (engine/src/checks/analysis.rs) with its error; one with no `expect` passes them.
#[test]
fn every_check_fixture_fails_its_check() {
    let mut failures = Vec::new();
    assert!(
        engine::checks::analysis::analyse(&base_definitions()).is_empty(),
        "the base passes the deeper checks"
    );
    for path in sorted_files("check") {
        let fixture = read(&path);
        let (files, raw) = patched(&path, &fixture);
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        let defs = match Definitions::load(&loader(&files, &raw)) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{name}: must pass the lint, got {e}"));
                continue;
            }
        };
        let errors = engine::checks::analysis::analyse(&defs);
        let expected = fixture["expect"].as_array().expect("expect");
        if expected.is_empty() && !errors.is_empty() {
            failures.push(format!("{name}: expected no problem, got {errors:?}"));
        }
        for e in expected {
            let (file, at, contains) = (
                e["file"].as_str().expect("file"),
                e["path"].as_str().expect("path"),
                e["contains"].as_str().expect("contains"),
            );
            if !errors.iter().any(|x| {
                x.file == file
                    && x.path == at
                    && x.problem.contains(contains)
                    && x.problem.contains("Fix:")
            }) {
                failures.push(format!(
                    "{name}: expected {file} at {at}: …{contains}… with a fix; got {errors:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn base_fixture_loads_clean() {
    let defs = base_definitions();
    assert!(defs.journey("j").is_some());
}

#[test]
fn every_broken_fixture_fails_with_its_error() {
    let mut failures = Vec::new();
    for path in sorted_files("lint") {
        let fixture = read(&path);
        let (files, raw) = patched(&path, &fixture);
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        let errors = match Definitions::load(&loader(&files, &raw)) {
            Ok(_) => {
                failures.push(format!(
                    "{name}: loaded without error, expected {}",
                    fixture["expect"]
                ));
                continue;
            }
            Err(e) => e.0,
        };
        for expected in fixture["expect"].as_array().expect("expect") {
            let file = expected["file"].as_str().expect("file");
            let path_ = expected["path"].as_str().expect("path");
            let contains = expected["contains"].as_str().expect("contains");
            // Every problem names its file, its JSON path and a fix.
            if !errors.iter().any(|e| {
                e.file == file
                    && e.path == path_
                    && e.problem.contains(contains)
                    && e.problem.contains("Fix:")
            }) {
                failures.push(format!(
                    "{name}: expected {file} at {path_}: …{contains}…; got:\n{}",
                    errors
                        .iter()
                        .map(|e| format!("    {e}"))
                        .collect::<Vec<_>>()
                        .join("\n")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_transition_fixture_has_its_outcome() {
    let defs = base_definitions();
    let today = NaiveDate::from_ymd_opt(2026, 11, 22).expect("date");
    let mut failures = Vec::new();
    for path in sorted_files("transitions") {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        let f = read(&path);
        let lifecycle = f["lifecycle"]
            .as_str()
            .map(|s| Lifecycle::parse(s).expect("lifecycle"))
            .unwrap_or(Lifecycle::Active);
        let event = if let Some(step) = f["event"]["submit"].as_str() {
            Event::Submit {
                step: step.into(),
                answers: f["event"]["answers"].clone(),
            }
        } else if let Some(questions) = f["event"]["edit"].as_str() {
            Event::Edit {
                questions: questions.to_owned(),
                answers: f["event"]["answers"].clone(),
            }
        } else if let Some(id) = f["event"]["remove_pet"].as_u64() {
            Event::RemovePet {
                id: usize::try_from(id).expect("id"),
            }
        } else if f["event"]["reset"].as_bool() == Some(true) {
            Event::Reset
        } else {
            panic!("{name}: unknown event");
        };
        let result = runtime::transition(
            &defs,
            "j",
            &f["document"],
            lifecycle,
            &event,
            RuleContext {
                today,
                brand: "pos".into(),
                bank: None,
                rate_scheme: None,
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let exp = &f["expect"];
        let mut check = |what: &str, ok: bool, got: String| {
            if !ok {
                failures.push(format!(
                    "{name} ({}): {what} was {got}, expected {}",
                    f["case"], exp[what]
                ));
            }
        };
        let r = &result.record;
        check(
            "outcome",
            exp["outcome"].as_str() == Some(r.outcome.as_str()),
            r.outcome.as_str().into(),
        );
        if let Some(to) = exp["to"].as_str() {
            check("to", to == r.to, r.to.to_string());
        }
        if let Some(from) = exp["from"].as_str() {
            check("from", from == r.from, r.from.to_string());
        }
        if let Some(saved) = exp["saved"].as_bool() {
            let did = result.effects.contains(&runtime::Effect::SaveQuote);
            check("saved", saved == did, did.to_string());
            if !saved {
                check(
                    "document",
                    result.document == f["document"],
                    result.document.to_string(),
                );
            }
        }
        if let Some(errors) = exp["field_errors"].as_array() {
            let got: Vec<Value> = r
                .field_errors
                .iter()
                .map(|e| json!([e.field, e.key]))
                .collect();
            check("field_errors", errors == &got, format!("{got:?}"));
        }
        if let Some(guards) = exp["guards"].as_array() {
            let got: Vec<Value> = r
                .guards
                .iter()
                .map(|g| json!([g.guard, g.passed]))
                .collect();
            check("guards", guards == &got, format!("{got:?}"));
        }
        if let Some(blocks) = exp["blocks"].as_array() {
            let got: Vec<Value> = r.blocks.iter().map(|b| json!(b.id)).collect();
            check("blocks", blocks == &got, format!("{got:?}"));
        }
        if let Some(furthest) = exp["furthest"].as_str() {
            check(
                "furthest",
                furthest == result.position.furthest,
                result.position.furthest.to_string(),
            );
        }
        if let Some(l) = exp["lifecycle"].as_str() {
            check(
                "lifecycle",
                l == result.lifecycle.as_str(),
                result.lifecycle.as_str().into(),
            );
        }
        if let Some(effects) = exp["effects"].as_array() {
            let got: Vec<Value> = result
                .effects
                .iter()
                .map(|e| serde_json::to_value(e).expect("json")["effect"].clone())
                .collect();
            check("effects", effects == &got, format!("{got:?}"));
        }
        if exp.get("document").is_some() {
            check(
                "document",
                exp["document"] == result.document,
                result.document.to_string(),
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_repository_definitions_load_and_lint_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let defs = Definitions::load(&engine::definitions::FsLoader::new(root))
        .unwrap_or_else(|e| panic!("{e}"));
    let direct = defs.journey("direct").expect("direct journey");
    assert_eq!(direct.start, "pet_details");
    assert_eq!(
        direct.step_bar.iter().map(|b| b.number).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
}

/// The repository's definitions carry their views manifest: without one the views lint has
/// nothing to check against (a set kept from before the manifest is replayed without it).
#[test]
fn the_repositorys_definitions_declare_their_views() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let defs = Definitions::load(&engine::definitions::FsLoader::new(root))
        .expect("the repository's definitions");
    assert_eq!(defs.raw.views.len(), 1, "journeys/views.json");
    assert!(defs.raw.views[0].value.views.contains_key("form"));
}
