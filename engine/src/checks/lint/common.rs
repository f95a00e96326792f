//! What the lint's checks share: the copy keys definitions name, found as they are walked.

use serde_json::Value;

/// Keys of the uiSchema whose values are copy keys.
pub(super) const UI_COPY_KEYS: [&str; 4] =
    ["ui:title", "ui:description", "ui:help", "ui:placeholder"];

pub(super) struct CopyRef {
    pub(super) file: String,
    pub(super) path: String,
    pub(super) key: String,
}

pub(super) fn walk(value: &Value, path: &str, f: &mut dyn FnMut(&str, &Value)) {
    f(path, value);
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                walk(
                    v,
                    &format!("{path}/{}", k.replace('~', "~0").replace('/', "~1")),
                    f,
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(v, &format!("{path}/{i}"), f);
            }
        }
        _ => {}
    }
}

pub(super) fn is_breed_id(s: &str) -> bool {
    s.len() == 4 && s.starts_with(['D', 'C', 'R']) && s[1..].bytes().all(|b| b.is_ascii_digit())
}
