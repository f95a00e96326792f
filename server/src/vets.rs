//! The vet directory (journey.md §4 Pre-existing conditions and vet search; owner-payment.md §5
//! Vet). Behind a trait so a real directory can replace the built-in one, which is a data file
//! of fictional practices shipped with pawpath and checked against its schema at start.

use serde::{Deserialize, Serialize};

/// One practice as the vet list returns it (owner-payment.md §3 Vet list items).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vet {
    pub vet_id: String,
    pub companyname: String,
    pub accountname: String,
    pub address_1: String,
    pub address_2: String,
    pub address_3: String,
    pub postcode: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VetFile {
    #[serde(rename = "$schema")]
    _schema: String,
    #[serde(rename = "description")]
    _description: String,
    vets: Vec<Vet>,
}

/// Finds practices near a postcode.
pub trait VetDirectory: Send + Sync {
    /// Practices in the postcode's district, else in its area; at most `limit`.
    fn near(&self, postcode: &VetPostcode, limit: usize) -> Vec<Vet>;
}

const FILE: &str = "server/data/vets.json";
const DATA: &str = include_str!("../data/vets.json");
const SCHEMA: &str = include_str!("../data/vets.schema.json");

/// The built-in directory.
#[derive(Debug, Clone)]
pub struct BuiltInVets {
    vets: Vec<Vet>,
}

impl BuiltInVets {
    /// Loads the shipped file; a problem names the file, the JSON path and what is wrong.
    pub fn load() -> Result<Self, String> {
        Self::from_text(DATA)
    }

    pub fn from_text(text: &str) -> Result<Self, String> {
        let file: VetFile = crate::data_file::load(FILE, text, SCHEMA)?;
        let mut seen = std::collections::BTreeSet::new();
        for (i, vet) in file.vets.iter().enumerate() {
            if !seen.insert(vet.vet_id.as_str()) {
                return Err(format!(
                    "{FILE} at /vets/{i}/vet_id: {:?} is used twice",
                    vet.vet_id
                ));
            }
        }
        Ok(Self { vets: file.vets })
    }

    pub fn len(&self) -> usize {
        self.vets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vets.is_empty()
    }
}

impl VetDirectory for BuiltInVets {
    fn near(&self, postcode: &VetPostcode, limit: usize) -> Vec<Vet> {
        let district: Vec<Vet> = self
            .vets
            .iter()
            .filter(|v| v.postcode.split(' ').next() == Some(postcode.outward()))
            .take(limit)
            .cloned()
            .collect();
        if !district.is_empty() {
            return district;
        }
        self.vets
            .iter()
            .filter(|v| area_of(&v.postcode) == area_of(postcode.outward()))
            .take(limit)
            .cloned()
            .collect()
    }
}

fn area_of(postcode: &str) -> &str {
    let end = postcode
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(postcode.len());
    &postcode[..end]
}

/// A postcode typed into the vet search, checked by owner-payment.md §5 Vet postcode search:
/// letters and digits only (spaces ignored), at least one of each, upper-cased; one ending in a
/// letter gets a space before its last digit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VetPostcode(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VetPostcodeError {
    /// "Postcode required for address search"
    Required,
    /// "Invalid postcode"
    Invalid,
}

impl VetPostcode {
    pub fn parse(input: &str) -> Result<Self, VetPostcodeError> {
        let compact: String = input
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_uppercase();
        if compact.is_empty() {
            return Err(VetPostcodeError::Required);
        }
        let alphanumeric = compact.chars().all(|c| c.is_ascii_alphanumeric());
        let has_letter = compact.chars().any(|c| c.is_ascii_alphabetic());
        let has_digit = compact.chars().any(|c| c.is_ascii_digit());
        if !(alphanumeric && has_letter && has_digit) || compact.len() > 8 {
            return Err(VetPostcodeError::Invalid);
        }
        let formatted = if compact.ends_with(|c: char| c.is_ascii_alphabetic()) {
            let last_digit = compact.rfind(|c: char| c.is_ascii_digit()).unwrap_or(0);
            if last_digit == 0 {
                compact
            } else {
                format!("{} {}", &compact[..last_digit], &compact[last_digit..])
            }
        } else {
            compact
        };
        Ok(Self(formatted))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part before the space (the whole of an outward-only search).
    pub fn outward(&self) -> &str {
        self.0.split(' ').next().unwrap_or(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_directory_loads_and_covers_every_area() {
        let vets = BuiltInVets::load().expect("loads");
        assert!(vets.len() >= 300, "a few hundred practices");
        let areas: std::collections::BTreeSet<&str> =
            vets.vets.iter().map(|v| area_of(&v.postcode)).collect();
        assert_eq!(areas.len(), 121, "every UK postcode area");
    }

    #[test]
    fn a_broken_file_names_the_path() {
        let text = DATA.replacen("\"vet_id\": \"V0002\"", "\"vet_id\": \"vet two\"", 1);
        let e = BuiltInVets::from_text(&text).expect_err("broken");
        assert!(
            e.starts_with("server/data/vets.json at /vets/1/vet_id:"),
            "{e}"
        );
    }

    /// owner-payment.md §5 Vet: required, letters and digits, reformatting.
    #[test]
    fn postcodes_follow_the_vet_search_rules() {
        assert_eq!(VetPostcode::parse("  "), Err(VetPostcodeError::Required));
        assert_eq!(VetPostcode::parse("ABC"), Err(VetPostcodeError::Invalid));
        assert_eq!(VetPostcode::parse("123"), Err(VetPostcodeError::Invalid));
        assert_eq!(
            VetPostcode::parse("SW1A-1AA"),
            Err(VetPostcodeError::Invalid)
        );
        assert_eq!(
            VetPostcode::parse("sw1a1aa").map(|p| p.0),
            Ok("SW1A 1AA".into())
        );
        assert_eq!(
            VetPostcode::parse("b33 8th").map(|p| p.0),
            Ok("B33 8TH".into())
        );
        assert_eq!(VetPostcode::parse("AB10").map(|p| p.0), Ok("AB10".into()));
        assert_eq!(VetPostcode::parse("AB10").expect("ok").outward(), "AB10");
    }
}
