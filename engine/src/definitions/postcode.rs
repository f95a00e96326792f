//! The owner's postcode (owner-payment.md §5 Owner: a UK postcode, spaces ignored): one rule for
//! checking and formatting, upper case with one space before the last three characters, GIR 0AA
//! included. The renderer formats with the same rule (`renderer/src/features/form/postcode.ts`);
//! both are tested against `tests/fixtures/postcodes.json`.

use std::fmt;

/// The 121 postcode areas of the United Kingdom (Great Britain and Northern Ireland).
pub const UK_POSTCODE_AREAS: [&str; 121] = [
    "AB", "AL", "B", "BA", "BB", "BD", "BH", "BL", "BN", "BR", "BS", "BT", "CA", "CB", "CF", "CH",
    "CM", "CO", "CR", "CT", "CV", "CW", "DA", "DD", "DE", "DG", "DH", "DL", "DN", "DT", "DY", "E",
    "EC", "EH", "EN", "EX", "FK", "FY", "G", "GL", "GU", "HA", "HD", "HG", "HP", "HR", "HS", "HU",
    "HX", "IG", "IP", "IV", "KA", "KT", "KW", "KY", "L", "LA", "LD", "LE", "LL", "LN", "LS", "LU",
    "M", "ME", "MK", "ML", "N", "NE", "NG", "NN", "NP", "NR", "NW", "OL", "OX", "PA", "PE", "PH",
    "PL", "PO", "PR", "RG", "RH", "RM", "S", "SA", "SE", "SG", "SK", "SL", "SM", "SN", "SO", "SP",
    "SR", "SS", "ST", "SW", "SY", "TA", "TD", "TF", "TN", "TQ", "TR", "TS", "TW", "UB", "W", "WA",
    "WC", "WD", "WF", "WN", "WR", "WS", "WV", "YO", "ZE",
];

/// A valid UK postcode, formatted.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Postcode(String);

/// The outward code's shape: area letters (no Q, V or X first; no I, J or Z second), a district
/// digit, and an optional digit or letter.
fn outward_ok(outward: &str) -> bool {
    let b = outward.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_uppercase()).count();
    if !(1..=2).contains(&letters) || b.len() < letters + 1 || b.len() > letters + 2 {
        return false;
    }
    if b"QVX".contains(&b[0]) || (letters == 2 && b"IJZ".contains(&b[1])) {
        return false;
    }
    let rest = &b[letters..];
    rest[0].is_ascii_digit() && rest.get(1).is_none_or(|c| c.is_ascii_alphanumeric())
}

/// The inward code: a digit and two letters (never C, I, K, M, O or V).
fn inward_ok(inward: &str) -> bool {
    let b = inward.as_bytes();
    b.len() == 3
        && b[0].is_ascii_digit()
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_uppercase() && !b"CIKMOV".contains(c))
}

impl Postcode {
    /// Reads what a customer typed: spaces ignored, any case.
    pub fn parse(typed: &str) -> Option<Self> {
        let compact: String = typed
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if !compact.is_ascii() || compact.len() < 5 || compact.len() > 7 {
            return None;
        }
        let (outward, inward) = compact.split_at(compact.len() - 3);
        if compact == "GIR0AA" || (outward_ok(outward) && inward_ok(inward)) {
            Some(Self(format!("{outward} {inward}")))
        } else {
            None
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Without the space, as address searches send it.
    pub fn compact(&self) -> String {
        self.0.replace(' ', "")
    }

    /// The area: the outward code's letters (`BS` of `BS11 8NN`).
    pub fn area(&self) -> &str {
        let end = self
            .0
            .find(|c: char| !c.is_ascii_uppercase())
            .unwrap_or(self.0.len());
        &self.0[..end]
    }
}

impl fmt::Display for Postcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Postcode;

    #[test]
    fn the_shared_table_holds() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/postcodes.json");
        let table: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("table")).expect("json");
        for pair in table["valid"].as_array().expect("valid") {
            let (typed, formatted) = (
                pair[0].as_str().expect("typed"),
                pair[1].as_str().expect("formatted"),
            );
            assert_eq!(
                Postcode::parse(typed).map(|p| p.to_string()).as_deref(),
                Some(formatted),
                "{typed:?}"
            );
        }
        for typed in table["invalid"].as_array().expect("invalid") {
            let typed = typed.as_str().expect("typed");
            assert_eq!(Postcode::parse(typed), None, "{typed:?}");
        }
        assert_eq!(Postcode::parse("bs11 8nn").expect("valid").area(), "BS");
        assert_eq!(
            Postcode::parse("bs11 8nn").expect("valid").compact(),
            "BS118NN"
        );
    }
}
