//! What changed between two definition sets, each change named by its file and JSON pointer, and
//! grouped by what the file is to the loader (a journey, the guards, a question set, a language's
//! copy, the rate table…): the loader's own sorting, so a new file of a known kind is grouped
//! without this module naming it.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use engine::Definitions;

/// The most changes listed one by one; past it they are counted by area only.
pub const MAX_LISTED: usize = 400;

/// The longest value shown beside a change, in characters.
const SHOWN_CHARS: usize = 120;

/// One change.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// `steps and exits`, `blocking answers`, `guards`, `questions and rules`, `copy (en-GB)`,
    /// `rates`, … (see [`area`]).
    pub area: String,
    pub file: String,
    /// The JSON pointer in the file (empty for a whole file added or removed).
    pub pointer: String,
    /// `added`, `removed` or `changed`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// Every change between two definition sets.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DefinitionsDiff {
    /// How many changes, in all.
    pub changes: usize,
    /// How many in each area.
    pub by_area: BTreeMap<String, usize>,
    /// The changes, at most [`MAX_LISTED`], in file order.
    pub listed: Vec<Change>,
}

/// What a file is to the loader, by the collection it was loaded into.
fn kinds(defs: &Definitions) -> BTreeMap<&str, (String, &Value)> {
    let raw = &defs.raw;
    let mut out = BTreeMap::new();
    macro_rules! sort {
        ($field:ident, $name:expr) => {
            for s in &raw.$field {
                out.insert(s.file.as_str(), ($name(s).to_string(), &s.raw));
            }
        };
    }
    sort!(journeys, |_| "journey");
    sort!(guards, |_| "guards");
    sort!(question_sets, |_| "questions and rules");
    sort!(copy, |s: &engine::definitions::load::Sourced<
        engine::definitions::journeys::CopyCatalogue,
    >| format!("copy ({})", s.value.language));
    sort!(breeds, |_| "breeds");
    sort!(promotions, |_| "promotions");
    sort!(rehoming, |_| "rehoming centres");
    sort!(rates, |_| "rates");
    sort!(documents, |_| "documents");
    sort!(experiments, |_| "experiments");
    sort!(brands, |_| "brands");
    sort!(pages, |_| "pages");
    sort!(views, |_| "views");
    out
}

/// A journey file's changes are `blocking answers` under a step's `blocking`, `guards` under a
/// step's `requires` or an exit's `when`, and `steps and exits` otherwise; other files' changes
/// are their file's kind.
fn area(kind: &str, pointer: &str) -> String {
    if kind != "journey" {
        return kind.to_owned();
    }
    let parts: Vec<&str> = pointer.split('/').collect();
    if parts.contains(&"blocking") {
        "blocking answers".into()
    } else if parts.contains(&"requires") || parts.contains(&"when") {
        "guards".into()
    } else {
        "steps and exits".into()
    }
}

/// The changes from `before` to `after`.
pub fn diff(before: &Definitions, after: &Definitions) -> DefinitionsDiff {
    let (was, now) = (kinds(before), kinds(after));
    let texts = |defs: &Definitions| -> BTreeMap<String, String> {
        defs.raw.files.iter().cloned().collect()
    };
    let (was_text, now_text) = (texts(before), texts(after));
    let mut files: Vec<&String> = was_text.keys().chain(now_text.keys()).collect();
    files.sort();
    files.dedup();
    let mut out = DefinitionsDiff::default();
    for file in files {
        let kind = was
            .get(file.as_str())
            .or_else(|| now.get(file.as_str()))
            .map_or_else(|| "other files".to_owned(), |(k, _)| k.clone());
        match (was_text.get(file), now_text.get(file)) {
            (Some(a), Some(b)) if a == b => {}
            (Some(_), Some(_)) => match (was.get(file.as_str()), now.get(file.as_str())) {
                (Some((_, a)), Some((_, b))) => {
                    walk(&kind, file, a, b, String::new(), &mut out);
                }
                _ => push(&mut out, &kind, file, String::new(), "changed", None, None),
            },
            (Some(_), None) => push(&mut out, &kind, file, String::new(), "removed", None, None),
            (None, Some(_)) => push(&mut out, &kind, file, String::new(), "added", None, None),
            (None, None) => {}
        }
    }
    out
}

fn push(
    out: &mut DefinitionsDiff,
    kind: &str,
    file: &str,
    pointer: String,
    change: &'static str,
    before: Option<&Value>,
    after: Option<&Value>,
) {
    let area = area(kind, &pointer);
    out.changes += 1;
    *out.by_area.entry(area.clone()).or_default() += 1;
    if out.listed.len() < MAX_LISTED {
        out.listed.push(Change {
            area,
            file: file.to_owned(),
            pointer,
            kind: change,
            before: before.map(shown),
            after: after.map(shown),
        });
    }
}

/// A value as a change shows it: a string as itself, anything else as JSON, cut short.
fn shown(value: &Value) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > SHOWN_CHARS {
        let cut: String = text.chars().take(SHOWN_CHARS).collect();
        format!("{cut}…")
    } else {
        text
    }
}

/// A key or index in a JSON pointer (RFC 6901).
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The changes under `pointer`. Objects are compared key by key; lists whose every item is an
/// object with an `id` (steps, exits with ids, blocking answers) by id, so a step added in the
/// middle is one addition, not a change to every step after it; other lists item by item.
fn walk(kind: &str, file: &str, a: &Value, b: &Value, pointer: String, out: &mut DefinitionsDiff) {
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, va) in x {
                let at = format!("{pointer}/{}", token(key));
                match y.get(key) {
                    Some(vb) => walk(kind, file, va, vb, at, out),
                    None => push(out, kind, file, at, "removed", Some(va), None),
                }
            }
            for (key, vb) in y {
                if !x.contains_key(key) {
                    let at = format!("{pointer}/{}", token(key));
                    push(out, kind, file, at, "added", None, Some(vb));
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            let id = |v: &Value| v.get("id").and_then(Value::as_str).map(str::to_owned);
            let by_id = x.iter().chain(y).all(|v| id(v).is_some());
            if by_id && !x.is_empty() && !y.is_empty() {
                for (i, va) in x.iter().enumerate() {
                    match y.iter().position(|vb| id(vb) == id(va)) {
                        Some(j) => walk(kind, file, va, &y[j], format!("{pointer}/{j}"), out),
                        None => {
                            push(
                                out,
                                kind,
                                file,
                                format!("{pointer}/{i}"),
                                "removed",
                                Some(va),
                                None,
                            );
                        }
                    }
                }
                for (j, vb) in y.iter().enumerate() {
                    if !x.iter().any(|va| id(va) == id(vb)) {
                        push(
                            out,
                            kind,
                            file,
                            format!("{pointer}/{j}"),
                            "added",
                            None,
                            Some(vb),
                        );
                    }
                }
            } else {
                for i in 0..x.len().max(y.len()) {
                    let at = format!("{pointer}/{i}");
                    match (x.get(i), y.get(i)) {
                        (Some(va), Some(vb)) => walk(kind, file, va, vb, at, out),
                        (Some(va), None) => push(out, kind, file, at, "removed", Some(va), None),
                        (None, Some(vb)) => push(out, kind, file, at, "added", None, Some(vb)),
                        (None, None) => {}
                    }
                }
            }
        }
        _ => push(out, kind, file, pointer, "changed", Some(a), Some(b)),
    }
}
