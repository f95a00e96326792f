//! Existing policies (owner-payment.md §5 Existing policy number, §7 Existing policy check): a
//! policy number is checked with the brand and the owner's postcode. The built-in set is a data
//! file of fictional policies with each brand's number format, checked against its schema at
//! start.

use std::collections::{BTreeMap, BTreeSet};

use engine::postcode::Postcode;
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct BrandFormat {
    prefixes: Vec<String>,
    #[serde(default)]
    length: Option<usize>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Seeded {
    policy_number: String,
    brand: String,
    postcode: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    #[serde(rename = "$schema")]
    _schema: String,
    #[serde(rename = "description")]
    _description: String,
    brands: BTreeMap<String, BrandFormat>,
    policies: Vec<Seeded>,
}

const FILE: &str = "server/data/existing-policies.json";
const DATA: &str = include_str!("../data/existing-policies.json");
const SCHEMA: &str = include_str!("../data/existing-policies.schema.json");

#[derive(Debug, Clone)]
pub struct ExistingPolicies {
    formats: BTreeMap<String, BrandFormat>,
    /// (number, brand, formatted postcode)
    policies: BTreeSet<(String, String, String)>,
}

impl ExistingPolicies {
    /// A new policy number in the brand's format: its first prefix, then random digits to the
    /// brand's length (12 characters unless the brand says otherwise). A brand with no format of
    /// its own uses the first brand's (the default brand). Uniqueness is the database's to
    /// enforce: a clash is retried.
    pub fn new_number(&self, brand: &str) -> String {
        use rand::Rng;
        let format = self.formats.get(brand).or_else(|| self.formats.get("pos"));
        let prefix = format
            .and_then(|f| f.prefixes.first())
            .map_or("PETPS", String::as_str);
        let length = format.and_then(|f| f.length).unwrap_or(12);
        let mut rng = rand::rng();
        let digits: String = (prefix.len()..length)
            .map(|_| char::from(b'0' + rng.random_range(0..10u8)))
            .collect();
        format!("{prefix}{digits}")
    }

    pub fn load() -> Result<Self, String> {
        Self::from_text(DATA)
    }

    pub fn from_text(text: &str) -> Result<Self, String> {
        let file: PolicyFile = crate::data_file::load(FILE, text, SCHEMA)?;
        let mut out = Self {
            formats: file.brands,
            policies: BTreeSet::new(),
        };
        for (i, p) in file.policies.into_iter().enumerate() {
            if !out.format_ok(&p.brand, &p.policy_number) {
                return Err(format!(
                    "{FILE} at /policies/{i}/policy_number: not in the format of brand {:?}",
                    p.brand
                ));
            }
            let postcode = Postcode::parse(&p.postcode)
                .ok_or_else(|| format!("{FILE} at /policies/{i}/postcode: not a UK postcode"))?;
            out.policies
                .insert((p.policy_number, p.brand, postcode.to_string()));
        }
        Ok(out)
    }

    /// The number has the brand's format (its prefixes and, where set, its length). A brand
    /// without a format takes any number of 6 to 20 letters and digits.
    pub fn format_ok(&self, brand: &str, number: &str) -> bool {
        let shape = (6..=20).contains(&number.len())
            && number
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
        shape
            && match self.formats.get(brand) {
                None => true,
                Some(f) => {
                    f.prefixes.iter().any(|p| number.starts_with(p.as_str()))
                        && f.length.is_none_or(|l| number.len() == l)
                }
            }
    }

    /// Whether the policy exists for this brand at this postcode (the number compared as
    /// `normalise` writes it).
    pub fn matches(&self, typed: &str, brand: &str, postcode: &Postcode) -> bool {
        let number = normalise(typed);
        self.format_ok(brand, &number)
            && self
                .policies
                .contains(&(number, brand.to_owned(), postcode.to_string()))
    }
}

/// A policy number as it is stored and compared: capitals, no spaces.
pub fn normalise(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked_by_brand_format_and_postcode() {
        let p = ExistingPolicies::load().expect("loads");
        let pc = |s: &str| Postcode::parse(s).expect("postcode");
        assert!(p.matches("petps0012345", "pos", &pc("bs118nn")));
        assert!(
            !p.matches("PETPS0012345", "pos", &pc("SW1A 1AA")),
            "another postcode"
        );
        assert!(
            !p.matches("PETPS0012345", "sbp", &pc("BS11 8NN")),
            "another brand"
        );
        assert!(p.format_ok("epw", "PETEV123456789"));
        assert!(!p.format_ok("epw", "PETEV12345678"), "13 characters");
        assert!(
            !p.format_ok("pos", "PETSB1234567"),
            "another brand's prefix"
        );
    }
}
