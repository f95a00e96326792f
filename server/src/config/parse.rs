//! The shapes of setting that need more than a parse: a bounded whole number or number of
//! milliseconds, the aggregators' keys.

use super::error::{ConfigError, err};

/// A whole number in `range`, or `default` when unset; anything else names the variable.
pub(super) fn number_in(
    get: &impl Fn(&str) -> Option<String>,
    variable: &'static str,
    range: std::ops::RangeInclusive<u64>,
    default: u64,
) -> Result<u64, ConfigError> {
    let said = format!("a whole number from {} to {}", range.start(), range.end());
    bounded(get, variable, range, default, &said)
}

/// A number of milliseconds in `range`, or `default` when unset; the message writes the bounds
/// with thousands separators (86,400,000).
pub(super) fn millis_in(
    get: &impl Fn(&str) -> Option<String>,
    variable: &'static str,
    range: std::ops::RangeInclusive<u64>,
    default: u64,
) -> Result<u64, ConfigError> {
    let said = format!(
        "a number of milliseconds from {} to {}",
        thousands(*range.start()),
        thousands(*range.end())
    );
    bounded(get, variable, range, default, &said)
}

/// A whole number in `range`, or `default` when unset; anything else is "{value} is not {said}".
fn bounded(
    get: &impl Fn(&str) -> Option<String>,
    variable: &'static str,
    range: std::ops::RangeInclusive<u64>,
    default: u64,
    said: &str,
) -> Result<u64, ConfigError> {
    match get(variable) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| err(variable, format!("{v:?} is not {said}"))),
    }
}

/// 86400000 as 86,400,000.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
