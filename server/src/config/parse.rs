//! The shapes of setting that need more than a parse: a bounded whole number, the aggregators'
//! keys.

use super::error::{ConfigError, err};

/// A whole number in `range`, or `default` when unset; anything else names the variable.
pub(super) fn number_in(
    get: &impl Fn(&str) -> Option<String>,
    variable: &'static str,
    range: std::ops::RangeInclusive<u64>,
    default: u64,
) -> Result<u64, ConfigError> {
    match get(variable) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| {
                err(
                    variable,
                    format!(
                        "{v:?} is not a whole number from {} to {}",
                        range.start(),
                        range.end()
                    ),
                )
            }),
    }
}

/// The aggregator codes journey.md §1 names.
pub const AGGREGATOR_CODES: [&str; 6] = ["ctm", "gcp", "msm", "cnf", "qze", "mon"];

/// `ctm=key,msm=key`: each code once, each key at least 32 characters, no key shared.
pub(super) fn parse_aggregator_keys(value: &str) -> Result<Vec<(String, String)>, String> {
    let mut keys: Vec<(String, String)> = Vec::new();
    for (i, pair) in value.split(',').map(str::trim).enumerate() {
        if pair.is_empty() {
            continue;
        }
        let Some((code, key)) = pair.split_once('=') else {
            return Err(format!(
                "entry {} is not code=key (for example ctm=<a key of 32 or more characters>)",
                i + 1
            ));
        };
        let code = code.trim().to_ascii_lowercase();
        let key = key.trim();
        if !AGGREGATOR_CODES.contains(&code.as_str()) {
            return Err(format!(
                "{code:?} is not an aggregator code (one of {})",
                AGGREGATOR_CODES.join(", ")
            ));
        }
        if key.len() < 32 {
            return Err(format!("the key for {code} must be at least 32 characters"));
        }
        if keys.iter().any(|(c, _)| *c == code) {
            return Err(format!("{code} is given more than once"));
        }
        if keys.iter().any(|(_, k)| k == key) {
            return Err(format!("the key for {code} is also another code's key"));
        }
        keys.push((code, key.to_owned()));
    }
    Ok(keys)
}
