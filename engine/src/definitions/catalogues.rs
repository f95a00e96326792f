//! The catalogues' types: species, breeds, rehoming centres and promotion codes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Species {
    Dog,
    Cat,
    Rabbit,
}

impl Species {
    pub fn as_str(self) -> &'static str {
        match self {
            Species::Dog => "dog",
            Species::Cat => "cat",
            Species::Rabbit => "rabbit",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "dog" => Some(Species::Dog),
            "cat" => Some(Species::Cat),
            "rabbit" => Some(Species::Rabbit),
            _ => None,
        }
    }

    /// The letter every breed id of the species starts with.
    pub fn id_prefix(self) -> char {
        match self {
            Species::Dog => 'D',
            Species::Cat => 'C',
            Species::Rabbit => 'R',
        }
    }
}

/// One breed with the insurer's fields (journey.md §3 Breed data).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Breed {
    pub id: String,
    /// The Kennel Club's (or the register's) name: what is recorded and sent on.
    pub desc: String,
    /// The breed as owners say it where `desc` is not ("Cocker Spaniel" for "Spaniel (Cocker)"):
    /// what the search shows and the pages say; `desc` is still found by the search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spoken: Option<String>,
    pub active: bool,
    pub species: Species,
    pub category: String,
    pub exclude: bool,
    pub exclude_tpl: bool,
    pub at_risk: bool,
    pub high_risk: bool,
    pub breed_type: String,
    pub select: bool,
    pub min_age_wks: u32,
    pub max_age_mths: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
}

/// The breed list of one species: dogs in three lists, cats and rabbits in one.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreedFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub species: Species,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breeds: Option<Vec<Breed>>,
    #[serde(default, rename = "breedData", skip_serializing_if = "Option::is_none")]
    pub breed_data: Option<Vec<Breed>>,
    #[serde(
        default,
        rename = "crossbreedData",
        skip_serializing_if = "Option::is_none"
    )]
    pub crossbreed_data: Option<Vec<Breed>>,
    #[serde(
        default,
        rename = "mongrelData",
        skip_serializing_if = "Option::is_none"
    )]
    pub mongrel_data: Option<Vec<Breed>>,
}

impl BreedFile {
    /// Every breed of the file with the JSON pointer of its list.
    pub fn lists(&self) -> Vec<(&'static str, &[Breed])> {
        let mut out = Vec::new();
        for (name, list) in [
            ("/breeds", &self.breeds),
            ("/breedData", &self.breed_data),
            ("/crossbreedData", &self.crossbreed_data),
            ("/mongrelData", &self.mongrel_data),
        ] {
            if let Some(list) = list {
                out.push((name, list.as_slice()));
            }
        }
        out
    }
}

/// The free rehoming cover and the rehoming centres (journeys/rehoming-centres.json).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RehomingFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    pub cover: RescueCover,
    /// Brand code → its centres.
    pub centres: BTreeMap<String, Vec<RehomingCentre>>,
}

/// The free cover a rehomed pet gets (owner-payment.md §9: 28 days, no third party liability).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RescueCover {
    pub code: String,
    pub days: u32,
    pub vet_fee_limit: String,
    /// Species → excess per condition, whole pounds.
    pub excess: BTreeMap<String, String>,
    pub third_party_liability: bool,
    pub activation_days: u32,
}

/// A rehoming centre (owner-payment.md §3: contactname, address1 to address4, postcode).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RehomingCentre {
    pub id: String,
    pub contactname: String,
    pub address1: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address2: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address3: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address4: Option<String>,
    pub postcode: String,
}

/// The promo codes on offer (journeys/promotions.json).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    /// The most bonus Nectar points one purchase earns (owner-payment.md §9: 20,000).
    pub nectar_bonus_cap: u32,
    pub codes: Vec<PromoCode>,
}

/// One promo code (owner-payment.md §4 Promo code): `description` and `summary` are copy keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromoCode {
    pub code: String,
    pub description: String,
    pub summary: String,
    pub brands: Vec<String>,
    pub species: Vec<Species>,
    pub discount_percent: String,
    pub valid_from: chrono::NaiveDate,
    pub valid_to: chrono::NaiveDate,
    pub nectar: bool,
    /// What a Nectar promotion earns (required when `nectar`, absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nectar_points: Option<NectarPoints>,
}

/// A Nectar promotion's bonus, totalled over the policies bought (engine/src/rules/domain/codes.rs
/// nectar_bonus).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NectarPoints {
    /// Points for each policy bought.
    #[serde(default)]
    pub per_policy: u32,
    /// Points for each whole pound of the first year's premiums.
    #[serde(default)]
    pub per_pound: u32,
}
