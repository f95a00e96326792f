//! The rate table's types, as a product team writes it (`journeys/products/rates.json`, its
//! JSON Schema `journeys/schemas/rates.schema.json`). Pricing from it is `rules::rating`.

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::definitions::catalogues::Species;

/// The rate table, as a product team writes it (its JSON Schema is
/// `journeys/schemas/rates.schema.json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    pub ipt_percent: Decimal,
    /// species → cover group → vet fee limits offered.
    pub products: BTreeMap<Species, BTreeMap<CoverGroup, Vec<String>>>,
    /// species → cover group → limit → annual premium before IPT.
    pub base_annual: BTreeMap<Species, BTreeMap<CoverGroup, BTreeMap<String, Decimal>>>,
    pub age_bands: BTreeMap<Species, Vec<AgeBand>>,
    pub breed_factors: BreedFactors,
    pub area_bands: AreaBands,
    pub neutered: Neutered,
    pub pet_cost_bands: Vec<CostBand>,
    pub excess: BTreeMap<Species, ExcessOptions>,
    pub coinsurance: Coinsurance,
    pub exclude_tpl_factor: Decimal,
    pub discounts: Discounts,
    /// The rows of every product's benefits table (journey.md §3 PolicyTerms, §9).
    pub benefits: Vec<Benefit>,
    /// Pricing schemes a journey names (its `rate_scheme`): the same rates with their own excess
    /// and co-insurance (the annual rehoming cover's £125 and 25%).
    #[serde(default)]
    pub schemes: BTreeMap<String, RateScheme>,
    /// What the journey draws from this table the same way for every quote, made once per
    /// definitions version (not read from the file).
    #[serde(skip)]
    pub derived: Derived,
}

/// A journey's own excess and co-insurance over the rate table.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateScheme {
    pub description: String,
    pub excess: BTreeMap<Species, ExcessOptions>,
    pub coinsurance: Coinsurance,
}

impl RateFile {
    /// The rate table as scheme `name` prices: its excess and co-insurance in place of the
    /// table's own. None for an unknown scheme.
    pub fn with_scheme(&self, name: &str) -> Option<RateFile> {
        let scheme = self.schemes.get(name)?;
        let mut rates = self.clone();
        rates.excess = scheme.excess.clone();
        rates.coinsurance = scheme.coinsurance.clone();
        rates.schemes = BTreeMap::new();
        Some(rates)
    }
}

/// One row of a benefits table, for the species it names.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Benefit {
    /// Copy key of the row's name.
    pub desc: String,
    /// Copy key of its tooltip.
    pub tooltip: String,
    pub species: Vec<Species>,
    pub value: BenefitValue,
    /// Shown on the cover tiles as well as in the table.
    pub headline: bool,
    /// Left out where third party liability is excluded: a breed with `exclude_tpl`, or a dog
    /// whose behaviour answer is yes (journey.md §4).
    #[serde(default)]
    pub unless_exclude_tpl: bool,
    /// Copy key of the tooltip for a dog whose cover excludes incidents at work or on licensed
    /// premises (`licensed_premises` yes, journey.md §4); the row keeps `tooltip` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tooltip_not_at_work: Option<String>,
}

/// What a benefit row is worth: the product's vet fee limit, a fixed amount, an amount by vet fee
/// limit, or a copy key ("Included").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum BenefitValue {
    VetFeeLimit(bool),
    Amount(Decimal),
    ByLimit(BTreeMap<String, Decimal>),
    Text(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CoverGroup {
    /// Lifetime.
    LT,
    /// Max Benefit.
    MB,
    /// Time Limited.
    TL,
}

impl CoverGroup {
    pub fn as_str(self) -> &'static str {
        match self {
            CoverGroup::LT => "LT",
            CoverGroup::MB => "MB",
            CoverGroup::TL => "TL",
        }
    }

    /// The name customers see (journey.md §3 Product Type).
    pub fn type_name(self) -> &'static str {
        match self {
            CoverGroup::LT => "Lifetime",
            CoverGroup::MB => "Max Benefit",
            CoverGroup::TL => "Time Limited",
        }
    }

    /// The order the groups are shown in (GidOrderShow).
    pub fn order(self) -> u32 {
        match self {
            CoverGroup::LT => 1,
            CoverGroup::MB => 2,
            CoverGroup::TL => 3,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgeBand {
    /// The band holds pets younger than this many whole years at cover start.
    pub below_years: u32,
    pub factor: Decimal,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreedFactors {
    pub dog_group: BTreeMap<String, Decimal>,
    pub dog_kind: BTreeMap<String, Decimal>,
    pub dog_size: BTreeMap<String, Decimal>,
    pub cat: BTreeMap<String, Decimal>,
    pub rabbit: BTreeMap<String, Decimal>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaBands {
    pub factors: BTreeMap<String, Decimal>,
    pub areas: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Neutered {
    pub yes: Decimal,
    pub no: Decimal,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostBand {
    pub up_to: Decimal,
    pub factor: Decimal,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExcessOptions {
    pub default: Decimal,
    /// Set excess (pounds, as written) → factor.
    pub options: BTreeMap<String, Decimal>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Coinsurance {
    pub default: Decimal,
    /// Percentage (as written) → factor.
    pub options: BTreeMap<String, Decimal>,
    /// Cover groups (`MB`) or product codes (`LT10000`) offered without co-insurance.
    pub not_for: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Discounts {
    pub multipet_monthly_per_pet: Decimal,
    pub loyalty_percent: Decimal,
}

/// One product on offer: a cover group at a vet fee limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ProductKey {
    pub group: CoverGroup,
    pub limit: u32,
}

impl ProductKey {
    /// journey.md §3: the group and the limit zero-padded to five digits (LT01000).
    pub fn code(self) -> String {
        format!("{}{:05}", self.group.as_str(), self.limit)
    }
}

impl RateFile {
    /// The products offered for a species, in display order.
    pub fn products_for(&self, species: Species) -> Vec<ProductKey> {
        let mut out: Vec<ProductKey> = self
            .products
            .get(&species)
            .into_iter()
            .flat_map(|groups| {
                groups.iter().flat_map(|(group, limits)| {
                    limits.iter().filter_map(|l| {
                        l.parse::<u32>().ok().map(|limit| ProductKey {
                            group: *group,
                            limit,
                        })
                    })
                })
            })
            .collect();
        out.sort();
        out
    }
}

/// Room for what a higher layer derives from a rate table once per definitions version (the
/// journey's drawings of benefit rows and options): made on first use, then shared. A copy (a
/// pricing scheme's table) starts empty, so it derives its own. The definitions do not know what
/// is kept here; the layer that keeps it does.
#[derive(Default)]
pub struct Derived(OnceLock<Box<dyn Any + Send + Sync>>);

impl Derived {
    /// The `T` kept here, made with `T::default()` the first time; None if a different type was
    /// kept first (one layer keeps one type here).
    pub fn get_or_default<T: Any + Send + Sync + Default>(&self) -> Option<&T> {
        self.0
            .get_or_init(|| Box::new(T::default()))
            .downcast_ref::<T>()
    }
}

impl Clone for Derived {
    fn clone(&self) -> Self {
        Derived::default()
    }
}

impl std::fmt::Debug for Derived {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Derived")
    }
}
