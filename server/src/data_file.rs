//! The data files pawpath ships for its built-in integrations (`server/data/`): each is checked
//! against its own JSON Schema before it is read, and any problem names the file and the JSON
//! path.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// Parses `text` (the contents of `file`), checks it against `schema`, and reads it as `T`.
pub fn load<T: DeserializeOwned>(file: &str, text: &str, schema: &str) -> Result<T, String> {
    let raw: Value =
        serde_json::from_str(text).map_err(|e| format!("{file}: not valid JSON: {e}"))?;
    let schema: Value =
        serde_json::from_str(schema).map_err(|e| format!("{file}: its schema is not JSON: {e}"))?;
    let validator = jsonschema::validator_for(&schema)
        .map_err(|e| format!("{file}: its schema does not compile: {e}"))?;
    if let Some(e) = validator.iter_errors(&raw).next() {
        let path = e.instance_path().as_str().to_owned();
        return Err(format!(
            "{file} at {}: {e}",
            if path.is_empty() { "/" } else { &path }
        ));
    }
    serde_json::from_value(raw).map_err(|e| format!("{file}: {e}"))
}
