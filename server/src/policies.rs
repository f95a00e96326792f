//! Existing policies (owner-payment.md §5 Existing policy number, §7 Existing policy check): a
//! policy number is checked with the brand and the owner's postcode. The built-in set is a data
//! file of fictional policies with each brand's number format, checked against its schema at
//! start.

use std::collections::{BTreeMap, BTreeSet};

use engine::definitions::postcode::Postcode;
use serde::Deserialize;

/// A brand's policy number format, from its file (journeys/brands: policy_number).
#[derive(Debug, Clone)]
struct BrandFormat {
    prefixes: Vec<String>,
    length: usize,
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
    /// brand's length. A brand the definitions do not know uses the default brand's.
    /// Uniqueness is the database's to enforce: a clash is retried.
    pub fn new_number(&self, brand: &str) -> String {
        use rand::Rng;
        let format = self
            .formats
            .get(brand)
            .or_else(|| self.formats.get(engine::definitions::DEFAULT_BRAND));
        let prefix = format
            .and_then(|f| f.prefixes.first())
            .map_or("PET", String::as_str);
        let length = format.map_or(12, |f| f.length);
        let mut rng = rand::rng();
        let digits: String = (prefix.len()..length)
            .map(|_| char::from(b'0' + rng.random_range(0..10u8)))
            .collect();
        format!("{prefix}{digits}")
    }

    /// The seeded policies, each checked against its brand's format in the definitions.
    pub fn load(defs: &engine::Definitions) -> Result<Self, String> {
        Self::from_text(DATA, defs)
    }

    pub fn from_text(text: &str, defs: &engine::Definitions) -> Result<Self, String> {
        let file: PolicyFile = crate::data_file::load(FILE, text, SCHEMA)?;
        let formats = defs
            .raw
            .brands
            .iter()
            .map(|b| {
                let f = &b.value.policy_number;
                (
                    b.value.id.clone(),
                    BrandFormat {
                        prefixes: f.prefixes.clone(),
                        length: f.length,
                    },
                )
            })
            .collect();
        let mut out = Self {
            formats,
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

    /// The number has the brand's format (one of its prefixes, its length). A brand the
    /// definitions do not know has no policies.
    pub fn format_ok(&self, brand: &str, number: &str) -> bool {
        let shape = (6..=20).contains(&number.len())
            && number
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
        shape
            && self.formats.get(brand).is_some_and(|f| {
                f.prefixes.iter().any(|p| number.starts_with(p.as_str()))
                    && number.len() == f.length
            })
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
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let defs = engine::Definitions::load(&engine::definitions::FsLoader::new(root))
            .expect("repository definitions");
        let p = ExistingPolicies::load(&defs).expect("loads");
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
