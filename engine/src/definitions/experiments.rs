//! Experiments (journey.md §4 Cover selection: the alternate guide "an experiment variation";
//! §6 and §7: experiment views added to payloads): which variation of each experiment a quote
//! is shown. A brand may be pinned to a variation; any other quote gets one by a stable split by
//! weight, so the same quote always sees the same page.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    pub experiments: Vec<Experiment>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    pub id: String,
    pub description: String,
    pub variations: Vec<String>,
    pub brands: BTreeMap<String, String>,
    pub weights: BTreeMap<String, u32>,
}

impl Experiment {
    /// The variation a quote is shown: its brand's, or a stable split of quotes by weight.
    pub fn variation_for(&self, quote_id: &str, brand: &str) -> &str {
        if let Some(v) = self.brands.get(brand) {
            return v;
        }
        let total: u64 = self.weights.values().map(|w| u64::from(*w)).sum();
        let Some(first) = self.variations.first() else {
            return "";
        };
        if total == 0 {
            return first;
        }
        let digest = Sha256::digest(format!("{}:{quote_id}", self.id).as_bytes());
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&digest[..8]);
        let mut point = u64::from_be_bytes(bytes) % total;
        // In the order the variations are listed, so the split does not depend on map order.
        for v in &self.variations {
            let w = u64::from(self.weights.get(v).copied().unwrap_or(0));
            if point < w {
                return v;
            }
            point -= w;
        }
        first
    }
}

impl ExperimentFile {
    /// Every experiment's variation for a quote.
    pub fn assign(&self, quote_id: &str, brand: &str) -> BTreeMap<String, String> {
        self.experiments
            .iter()
            .map(|e| (e.id.clone(), e.variation_for(quote_id, brand).to_owned()))
            .collect()
    }

    /// Whether `id:variation` names a variation of an experiment (an experiment view).
    pub fn knows_view(&self, view: &str) -> bool {
        view.split_once(':').is_some_and(|(id, variation)| {
            self.experiments
                .iter()
                .any(|e| e.id == id && e.variations.iter().any(|v| v == variation))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn experiment() -> Experiment {
        Experiment {
            id: "cover_type_guide".into(),
            description: String::new(),
            variations: vec!["tiles".into(), "guide".into()],
            brands: BTreeMap::from([("sbp".into(), "guide".into())]),
            weights: BTreeMap::from([("tiles".into(), 50), ("guide".into(), 50)]),
        }
    }

    #[test]
    fn a_pinned_brand_always_gets_its_variation() {
        let e = experiment();
        for i in 0..50 {
            assert_eq!(e.variation_for(&format!("q{i}"), "sbp"), "guide");
        }
    }

    #[test]
    fn other_quotes_are_split_stably_by_weight() {
        let e = experiment();
        let first: Vec<&str> = (0..400)
            .map(|i| e.variation_for(&format!("q{i}"), "pos"))
            .collect();
        let again: Vec<&str> = (0..400)
            .map(|i| e.variation_for(&format!("q{i}"), "pos"))
            .collect();
        assert_eq!(first, again, "the same quote always sees the same page");
        let guides = first.iter().filter(|v| **v == "guide").count();
        assert!(
            (140..260).contains(&guides),
            "about half of 400, got {guides}"
        );
        let mut all_tiles = experiment();
        all_tiles.weights = BTreeMap::from([("tiles".into(), 1), ("guide".into(), 0)]);
        assert!((0..100).all(|i| all_tiles.variation_for(&format!("q{i}"), "pos") == "tiles"));
    }

    #[test]
    fn views_name_known_variations() {
        let file = ExperimentFile {
            schema: String::new(),
            description: String::new(),
            experiments: vec![experiment()],
        };
        assert!(file.knows_view("cover_type_guide:guide"));
        assert!(!file.knows_view("cover_type_guide:carousel"));
        assert!(!file.knows_view("other:guide"));
        assert!(!file.knows_view("guide"));
    }
}
