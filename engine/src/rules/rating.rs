//! Rating (journey.md §3 Product, §9; owner-payment.md §4 Prices): every product for a
//! pet priced from the rate table (`journeys/products/rates.json`), pure and exact. Money is
//! rust_decimal throughout and is rounded once, to pennies, at the monthly price; the annual
//! price is 12 times the monthly (owner-payment.md §4). Every price carries the factors that made
//! it, so a product team can see why a price is what it is.

use chrono::NaiveDate;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

use crate::definitions::catalogues::{Breed, Species};
use crate::definitions::rates::{CoverGroup, ProductKey, RateFile};
use crate::rules::context::months_between;

/// What the rating needs to know about a pet.
#[derive(Debug, Clone)]
pub struct PetFacts<'b> {
    pub species: Species,
    pub breed: &'b Breed,
    pub date_of_birth: NaiveDate,
    pub neutered: bool,
    pub cost: Decimal,
    /// What the pet's answers leave of third party liability (dogs only).
    pub liability: Liability,
}

/// Third party liability as a dog's breed and answers leave it (journey.md §4 Pet details and
/// Assumptions warnings, §8 Third party liability notice, §9: 2 million, dogs only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Liability {
    /// The full cover (and what a cat or rabbit has: no such cover to lose).
    #[default]
    Covered,
    /// Covered, except for incidents at work or on licensed premises (`licensed_premises` yes).
    NotAtWork,
    /// None: the breed is excluded from it (`exclude_tpl`) or the dog's behaviour answer is yes.
    /// The rate table's `exclude_tpl_factor` adjusts the premium.
    Excluded(LiabilityExclusion),
}

/// Why a dog has no third party liability cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LiabilityExclusion {
    Breed,
    Behaviour,
}

impl Liability {
    /// journey.md §4: a breed with exclude_tpl, or `dog_behaviour` yes, removes the cover and
    /// adjusts the premium; `licensed_premises` yes removes it at work and on licensed premises.
    /// Only dogs have the cover.
    pub fn of(species: Species, breed: &Breed, behaviour: bool, licensed_premises: bool) -> Self {
        if species != Species::Dog {
            Liability::Covered
        } else if breed.exclude_tpl {
            Liability::Excluded(LiabilityExclusion::Breed)
        } else if behaviour {
            Liability::Excluded(LiabilityExclusion::Behaviour)
        } else if licensed_premises {
            Liability::NotAtWork
        } else {
            Liability::Covered
        }
    }

    /// How the benefits table shows it: in full, with the work exclusion, or not at all.
    pub fn drawn(self) -> LiabilityRow {
        match self {
            Liability::Covered => LiabilityRow::Full,
            Liability::NotAtWork => LiabilityRow::NotAtWork,
            Liability::Excluded(_) => LiabilityRow::None,
        }
    }
}

/// The third party liability row of a benefits table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LiabilityRow {
    Full,
    NotAtWork,
    None,
}

/// What the rating needs to know about the quote.
#[derive(Debug, Clone)]
pub struct QuoteFacts {
    pub cover_start: NaiveDate,
    /// The owner's postcode area (`BS` of `BS11 8NN`); none yet means the reference band.
    pub postcode_area: Option<String>,
    /// How many pets the quote insures (the multi-pet discount applies above one).
    pub pets: usize,
    /// A valid promo code's percentage off.
    pub promo_percent: Option<Decimal>,
    /// The owner has an existing policy (loyalty).
    pub loyal: bool,
}

/// The customer's choice of excess for a pet; none means the defaults.
#[derive(Debug, Clone, Default)]
pub struct ExcessChoice {
    pub set_excess: Option<Decimal>,
    /// Percentage, for example 10 for 10 %.
    pub coinsurance_percent: Option<Decimal>,
}

/// One step of a price's working.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Factor {
    /// What the factor is (`age`, `area`): a fixed name.
    pub name: &'static str,
    /// What the factor was chosen by (`Gundog`, `band C (BS)`, `3 years`): shared by the
    /// products of a pet, not copied.
    pub by: std::sync::Arc<str>,
    pub value: Decimal,
}

/// One pet's factors that every product shares (see [`RateFile::rate_pet`]).
#[derive(Debug, Clone)]
pub struct RatedPet {
    species: Species,
    /// Age, breed, area, neutered, pet cost and set excess, in the order they apply.
    factors: Vec<Factor>,
    /// No third party liability, applied after co-insurance.
    tpl: Option<Factor>,
    set_excess: Decimal,
}

/// The discounts on a price, per month (owner-payment.md §3 Product discounts).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DiscountAmounts {
    pub multipet: Decimal,
    pub offer_code: Decimal,
    pub loyalty: Decimal,
}

/// A priced product.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Price {
    pub code: String,
    pub group: CoverGroup,
    pub limit: u32,
    pub set_excess: Decimal,
    pub coinsurance_percent: Decimal,
    /// The monthly price the customer pays, IPT included, to the penny.
    pub monthly: Decimal,
    /// 12 × monthly.
    pub annual: Decimal,
    /// The monthly price before discounts, IPT included.
    pub monthly_before_discounts: Decimal,
    /// Discounts per month, IPT included.
    pub discounts_monthly: DiscountAmounts,
    /// The IPT in the annual price.
    pub annual_ipt: Decimal,
    /// Every factor applied, in order, starting from the base premium.
    pub factors: Vec<Factor>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    #[error("the rate table has no {0}")]
    Missing(String),
    #[error("set excess {0} is not offered for this species")]
    Excess(Decimal),
    #[error("co-insurance of {0}% is not offered for {1}")]
    Coinsurance(Decimal, String),
}

fn hundred() -> Decimal {
    Decimal::from(100)
}

fn twelve() -> Decimal {
    Decimal::from(12)
}

/// Rounds to pennies, halves away from zero, as a price is shown.
pub fn pennies(amount: Decimal) -> Decimal {
    amount.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
}

/// The key of a decimal in a table written as text (`99`, `10`): no trailing zeros.
fn key_of(d: Decimal) -> String {
    d.normalize().to_string()
}

impl RateFile {
    /// Whether co-insurance is offered on a product (journey.md §9; not for Lifetime
    /// 10k, Max Benefit or Time Limited).
    pub fn coinsurance_offered(&self, product: ProductKey) -> bool {
        let group = product.group.as_str();
        // A code is the group and the limit in five digits (ProductKey::code), read here
        // without writing the code out.
        let is_code = |n: &str| {
            n.strip_prefix(group).is_some_and(|limit| {
                limit.len() == 5
                    && limit.bytes().all(|b| b.is_ascii_digit())
                    && limit.parse::<u32>() == Ok(product.limit)
            })
        };
        !self
            .coinsurance
            .not_for
            .iter()
            .any(|n| n == group || is_code(n))
    }

    /// Prices one product for one pet.
    pub fn price(
        &self,
        pet: &PetFacts<'_>,
        quote: &QuoteFacts,
        product: ProductKey,
        choice: &ExcessChoice,
    ) -> Result<Price, RatingError> {
        let rated = self.rate_pet(pet, quote, choice.set_excess)?;
        self.price_rated(&rated, quote, product, choice.coinsurance_percent, true)
    }

    /// The breed's factors: a dog's kind, group and size; a cat's pedigree or not; a rabbit's one.
    fn push_breed_factors(
        &self,
        pet: &PetFacts<'_>,
        factors: &mut Vec<Factor>,
    ) -> Result<(), RatingError> {
        let species = pet.species;
        let missing = |what: String| RatingError::Missing(what);
        let bf = &self.breed_factors;
        match species {
            Species::Dog => {
                let kind = if pet.breed.breed_type == "mongrel" {
                    "mongrel".to_owned()
                } else {
                    pet.breed.category.clone()
                };
                let value = *bf
                    .dog_kind
                    .get(&kind)
                    .ok_or_else(|| missing(format!("dog_kind factor for {kind}")))?;
                factors.push(Factor {
                    name: "breed kind",
                    by: kind.into(),
                    value,
                });
                if let Some(group) = &pet.breed.group
                    && let Some(value) = bf.dog_group.get(group)
                {
                    factors.push(Factor {
                        name: "breed group",
                        by: group.as_str().into(),
                        value: *value,
                    });
                }
                if let Some(size) = &pet.breed.size {
                    let value = *bf
                        .dog_size
                        .get(size)
                        .ok_or_else(|| missing(format!("dog_size factor for {size}")))?;
                    factors.push(Factor {
                        name: "size",
                        by: size.as_str().into(),
                        value,
                    });
                }
            }
            Species::Cat => {
                let kind = if pet.breed.breed_type == "pedigree" {
                    "pedigree"
                } else {
                    "other"
                };
                let value = *bf
                    .cat
                    .get(kind)
                    .ok_or_else(|| missing(format!("cat factor for {kind}")))?;
                factors.push(Factor {
                    name: "breed",
                    by: kind.into(),
                    value,
                });
            }
            Species::Rabbit => {
                let value = *bf
                    .rabbit
                    .get("all")
                    .ok_or_else(|| missing("rabbit factor".into()))?;
                factors.push(Factor {
                    name: "breed",
                    by: "rabbit".into(),
                    value,
                });
            }
        }
        Ok(())
    }

    /// The area's factor: the reference band (the one whose factor is 1) until the postcode is
    /// known.
    fn area_factor(&self, quote: &QuoteFacts) -> Result<Factor, RatingError> {
        let missing = |what: String| RatingError::Missing(what);
        let (band_name, area_label) = match &quote.postcode_area {
            Some(area) => (
                self.area_bands
                    .areas
                    .get(area)
                    .cloned()
                    .ok_or_else(|| missing(format!("band for postcode area {area}")))?,
                area.clone(),
            ),
            None => (
                self.area_bands
                    .factors
                    .iter()
                    .find(|(_, f)| **f == Decimal::ONE)
                    .map(|(b, _)| b.clone())
                    .ok_or_else(|| missing("area band with factor 1".into()))?,
                "postcode not given yet".into(),
            ),
        };
        let value = *self
            .area_bands
            .factors
            .get(&band_name)
            .ok_or_else(|| missing(format!("factor for area band {band_name}")))?;
        Ok(Factor {
            name: "area",
            by: format!("band {band_name} ({area_label})").into(),
            value,
        })
    }

    /// What one pet's prices share whatever the product (worked out once per pet, not
    /// once per product): its age, breed, area, neutering, cost and set excess factors, in the
    /// order they apply, and the no-third-party-liability factor that applies last.
    pub fn rate_pet(
        &self,
        pet: &PetFacts<'_>,
        quote: &QuoteFacts,
        set_excess: Option<Decimal>,
    ) -> Result<RatedPet, RatingError> {
        let species = pet.species;
        let missing = |what: String| RatingError::Missing(what);
        let mut factors = Vec::with_capacity(8);
        // Age at cover start, in whole years.
        let years = u32::try_from(months_between(pet.date_of_birth, quote.cover_start).max(0) / 12)
            .unwrap_or(0);
        let band = self
            .age_bands
            .get(&species)
            .and_then(|bands| bands.iter().find(|b| years < b.below_years))
            .ok_or_else(|| {
                missing(format!(
                    "age band for a {years}-year-old {}",
                    species.as_str()
                ))
            })?;
        factors.push(Factor {
            name: "age",
            by: format!("{years} years").into(),
            value: band.factor,
        });

        self.push_breed_factors(pet, &mut factors)?;
        factors.push(self.area_factor(quote)?);

        factors.push(Factor {
            name: "neutered",
            by: if pet.neutered { "yes" } else { "no" }.into(),
            value: if pet.neutered {
                self.neutered.yes
            } else {
                self.neutered.no
            },
        });

        let cost_band = self
            .pet_cost_bands
            .iter()
            .find(|b| pet.cost <= b.up_to)
            .or_else(|| self.pet_cost_bands.last())
            .ok_or_else(|| missing("pet cost band".into()))?;
        factors.push(Factor {
            name: "pet cost",
            by: format!("up to £{}", cost_band.up_to).into(),
            value: cost_band.factor,
        });

        let excess = self
            .excess
            .get(&species)
            .ok_or_else(|| missing(format!("excess for {}", species.as_str())))?;
        let set_excess = set_excess.unwrap_or(excess.default);
        let value = *excess
            .options
            .get(&key_of(set_excess))
            .ok_or(RatingError::Excess(set_excess))?;
        factors.push(Factor {
            name: "set excess",
            by: format!("£{}", key_of(set_excess)).into(),
            value,
        });

        let tpl = match pet.liability {
            Liability::Excluded(why) if species == Species::Dog => Some(Factor {
                name: "no third party liability",
                by: match why {
                    LiabilityExclusion::Breed => pet.breed.desc.as_str().into(),
                    LiabilityExclusion::Behaviour => "behaviour answer".into(),
                },
                value: self.exclude_tpl_factor,
            }),
            _ => None,
        };
        Ok(RatedPet {
            species,
            factors,
            tpl,
            set_excess,
        })
    }

    /// Prices one product for a pet rated by [`RateFile::rate_pet`], with the co-insurance
    /// chosen (none: the product's default). With `working`, the price carries every factor
    /// applied (for the products whose working is recorded); without, the factors are left out
    /// and the price is the same.
    pub fn price_rated(
        &self,
        rated: &RatedPet,
        quote: &QuoteFacts,
        product: ProductKey,
        coinsurance_percent: Option<Decimal>,
        working: bool,
    ) -> Result<Price, RatingError> {
        let species = rated.species;
        let set_excess = rated.set_excess;
        let missing = |what: String| RatingError::Missing(what);
        let limit_key = product.limit.to_string();
        let base = *self
            .base_annual
            .get(&species)
            .and_then(|g| g.get(&product.group))
            .and_then(|l| l.get(&limit_key))
            .ok_or_else(|| {
                missing(format!(
                    "base premium for {} {}",
                    species.as_str(),
                    product.code()
                ))
            })?;
        let offered = self.coinsurance_offered(product);
        let coins = match coinsurance_percent {
            Some(p) if !offered && !p.is_zero() => {
                return Err(RatingError::Coinsurance(p, product.code()));
            }
            Some(p) => p,
            None if offered => self.coinsurance.default,
            None => Decimal::ZERO,
        };
        let value = *self
            .coinsurance
            .options
            .get(&key_of(coins))
            .ok_or_else(|| RatingError::Coinsurance(coins, product.code()))?;
        // The base premium times each factor, in the order they apply.
        let net_annual = rated
            .factors
            .iter()
            .map(|f| f.value)
            .chain([value])
            .chain(rated.tpl.iter().map(|f| f.value))
            .fold(base, |acc, v| acc * v);
        let factors = if working {
            let mut factors = Vec::with_capacity(rated.factors.len() + 3);
            factors.push(Factor {
                name: "base annual premium",
                by: format!("{} {}", species.as_str(), product.code()).into(),
                value: base,
            });
            factors.extend(rated.factors.iter().cloned());
            factors.push(Factor {
                name: "co-insurance",
                by: format!("{}%", key_of(coins)).into(),
                value,
            });
            factors.extend(rated.tpl.iter().cloned());
            factors
        } else {
            Vec::new()
        };
        let ipt_rate = self.ipt_percent / hundred();
        let with_ipt = |annual_net: Decimal| annual_net * (Decimal::ONE + ipt_rate);
        let monthly_before = pennies(with_ipt(net_annual) / twelve());

        // Discounts, each per month and IPT included (owner-payment.md §3 Product discounts).
        let mut discounts = DiscountAmounts::default();
        if let Some(p) = quote.promo_percent {
            discounts.offer_code = pennies(monthly_before * p / hundred());
        }
        if quote.loyal {
            discounts.loyalty =
                pennies(monthly_before * self.discounts.loyalty_percent / hundred());
        }
        if quote.pets > 1 {
            discounts.multipet = self.discounts.multipet_monthly_per_pet;
        }
        let monthly =
            (monthly_before - discounts.offer_code - discounts.loyalty - discounts.multipet)
                .max(Decimal::ZERO);
        let annual = monthly * twelve();
        let annual_ipt = pennies(annual - annual / (Decimal::ONE + ipt_rate));
        Ok(Price {
            code: product.code(),
            group: product.group,
            limit: product.limit,
            set_excess,
            coinsurance_percent: coins,
            monthly,
            annual,
            monthly_before_discounts: monthly_before,
            discounts_monthly: discounts,
            annual_ipt,
            factors,
        })
    }
}

/// The vet bill the claim example works through: 1,000 in the brand's currency.
pub const CLAIM_EXAMPLE_BILL: u32 = 1000;

/// owner-payment.md §9 and journey.md §9 claim example: on a £1,000 claim the customer pays the
/// set excess plus the co-insurance percentage of the rest.
pub fn claim_example(set_excess: Decimal, coinsurance_percent: Decimal) -> (Decimal, Decimal) {
    let claim = Decimal::from(CLAIM_EXAMPLE_BILL);
    let customer = pennies(set_excess + coinsurance_percent / hundred() * (claim - set_excess));
    (customer, claim - customer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_claim_example_is_the_spec_s() {
        // £99 and 10% pays £189.10.
        let (customer, insurer) = claim_example(Decimal::from(99), Decimal::from(10));
        assert_eq!(customer.to_string(), "189.10");
        assert_eq!(insurer.to_string(), "810.90");
    }

    #[test]
    fn codes_pad_the_limit_to_five_digits() {
        let key = ProductKey {
            group: CoverGroup::LT,
            limit: 1000,
        };
        assert_eq!(key.code(), "LT01000");
        assert_eq!(
            ProductKey {
                group: CoverGroup::MB,
                limit: 10000
            }
            .code(),
            "MB10000"
        );
    }
}
