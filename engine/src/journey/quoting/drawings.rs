//! What a rate table draws the same way for every quote: benefit rows and option lists, made once
//! per definitions version and shared.

use rust_decimal::Decimal;
use serde::Serialize;

use crate::definitions::Species;
use crate::definitions::rates::{BenefitValue, ProductKey, RateFile};
use crate::rules::rating::{LiabilityRow, PetFacts};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A benefit row of a product (journey.md §3 PolicyTerms).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Term {
    pub desc: String,
    pub tt: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub val: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub val_key: Option<String>,
    pub biline: bool,
    pub show: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CoinsOption {
    pub coins: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CoinsList {
    pub list: Vec<CoinsOption>,
}

/// What a rate table draws the same way for every quote (derived once per definitions
/// version, not per request): the benefit rows of each species, third party liability exclusion
/// and vet fee limit in each currency and language, with the limit as written; and each species'
/// excess and co-insurance options. Made the first time a page asks, then shared; bounded by the
/// rate table (its species, limits and the brands' currencies and languages). Kept in the rate
/// table's [`Derived`](crate::definitions::rates::Derived) room.
#[derive(Default)]
pub(super) struct Drawings {
    limits: Mutex<LimitCache>,
    options: Mutex<HashMap<(Species, bool), Arc<OptionLists>>>,
}

pub(super) type LimitKey = (Species, LiabilityRow, u32, crate::definitions::money::Money);

#[derive(Default)]
pub(super) struct LimitCache {
    limits: HashMap<LimitKey, Arc<LimitDrawing>>,
    /// Each benefit row once, shared by every list that has it (the view sends each row once).
    rows: HashMap<(usize, Option<String>, String), Arc<Term>>,
}

/// A vet fee limit as a species' products show it: the limit written and its benefit rows.
pub(super) struct LimitDrawing {
    pub(super) desc: Arc<str>,
    pub(super) terms: TermList,
}

/// A species' excess and co-insurance options, as every product of it lists them.
pub(super) struct OptionLists {
    pub(super) set_excess: Arc<str>,
    pub(super) variable_excess: Arc<str>,
    pub(super) coins: Arc<CoinsList>,
}

/// A product's benefit rows, shared by the products with the same benefits.
pub type TermList = Arc<[Arc<Term>]>;

/// What one page has drawn so far: the rate table's drawings it has taken, so each is looked up
/// in the shared [`Drawings`] once per page, and the amounts' texts it has written.
#[derive(Default)]
pub(super) struct PageDrawings {
    limits: HashMap<LimitKey, Arc<LimitDrawing>>,
    options: HashMap<(Species, bool), Arc<OptionLists>>,
    /// An amount's text, written once a page for all the products that show it (a page's
    /// products have a few excesses and co-insurance fractions between them).
    texts: Vec<(Decimal, Arc<str>)>,
}

impl PageDrawings {
    /// The text of a normalised amount (equal values are written alike).
    pub(super) fn text(&mut self, amount: Decimal) -> Arc<str> {
        if let Some((_, text)) = self.texts.iter().find(|(a, _)| *a == amount) {
            return text.clone();
        }
        let text: Arc<str> = amount.to_string().into();
        self.texts.push((amount, text.clone()));
        text
    }

    pub(super) fn limit(
        &mut self,
        rates: &RateFile,
        pet: &PetFacts<'_>,
        limit: u32,
        money: crate::definitions::money::Money,
    ) -> Arc<LimitDrawing> {
        let key = (pet.species, pet.liability.drawn(), limit, money);
        self.limits
            .entry(key)
            .or_insert_with(|| {
                let draw = |rows: &mut HashMap<_, _>| {
                    Arc::new(LimitDrawing {
                        desc: money.amount(Decimal::from(limit)).into(),
                        terms: policy_terms(rates, rows, key),
                    })
                };
                let Some(shared) = rates.derived.get_or_default::<Drawings>() else {
                    return draw(&mut HashMap::new());
                };
                let mut cache = locked(&shared.limits);
                if let Some(d) = cache.limits.get(&key) {
                    return d.clone();
                }
                let drawing = draw(&mut cache.rows);
                cache.limits.insert(key, drawing.clone());
                drawing
            })
            .clone()
    }

    pub(super) fn options(
        &mut self,
        rates: &RateFile,
        species: Species,
        key: ProductKey,
    ) -> Arc<OptionLists> {
        let offered = rates.coinsurance_offered(key);
        self.options
            .entry((species, offered))
            .or_insert_with(|| {
                let Some(shared) = rates.derived.get_or_default::<Drawings>() else {
                    return Arc::new(option_lists(rates, species, offered));
                };
                locked(&shared.options)
                    .entry((species, offered))
                    .or_insert_with(|| Arc::new(option_lists(rates, species, offered)))
                    .clone()
            })
            .clone()
    }
}

/// journey.md §9 PolicyTerms: the rate table's benefits for the species, at the limit, in
/// the brand's currency; each row taken from `rows` if another list has made it.
pub(super) fn policy_terms(
    rates: &RateFile,
    rows: &mut HashMap<(usize, Option<String>, String), Arc<Term>>,
    (species, liability, limit, money): LimitKey,
) -> TermList {
    let mut list = Vec::new();
    for (index, b) in rates.benefits.iter().enumerate() {
        if !b.species.contains(&species)
            || (b.unless_exclude_tpl && liability == LiabilityRow::None)
        {
            continue;
        }
        // journey.md §4: licensed premises yes keeps the cover but not at work.
        let tooltip = match (&b.tooltip_not_at_work, liability) {
            (Some(key), LiabilityRow::NotAtWork) => key,
            _ => &b.tooltip,
        };
        let val = match &b.value {
            BenefitValue::VetFeeLimit(_) => Some(money.amount(Decimal::from(limit))),
            BenefitValue::Amount(a) => Some(money.amount(*a)),
            BenefitValue::ByLimit(by) => match by.get(&limit.to_string()) {
                Some(a) => Some(money.amount(*a)),
                None => continue,
            },
            BenefitValue::Text(_) => None,
        };
        let row = rows
            .entry((index, val.clone(), tooltip.clone()))
            .or_insert_with(|| {
                Arc::new(Term {
                    desc: b.desc.clone(),
                    tt: tooltip.clone(),
                    val_key: match &b.value {
                        BenefitValue::Text(copy) => Some(copy.clone()),
                        _ => None,
                    },
                    val,
                    biline: b.headline,
                    show: true,
                })
            })
            .clone();
        list.push(row);
    }
    list.into()
}

/// A species' excess options and the co-insurance options (or none, where not `offered`),
/// smallest first, as FlexyProductsOptions and excess_options list them.
pub(super) fn option_lists(rates: &RateFile, species: Species, offered: bool) -> OptionLists {
    let coins: Vec<Decimal> = if offered {
        let mut v: Vec<Decimal> = rates
            .coinsurance
            .options
            .keys()
            .filter_map(|k| k.parse().ok())
            .collect();
        v.sort();
        v
    } else {
        vec![Decimal::ZERO]
    };
    let mut excess: Vec<Decimal> = rates
        .excess
        .get(&species)
        .map(|e| e.options.keys().filter_map(|k| k.parse().ok()).collect())
        .unwrap_or_default();
    excess.sort();
    OptionLists {
        set_excess: joined(excess.iter().map(|e| e.normalize().to_string())).into(),
        variable_excess: joined(coins.iter().map(|p| fraction(*p).to_string())).into(),
        coins: Arc::new(CoinsList {
            list: coins
                .iter()
                .map(|p| CoinsOption {
                    coins: p.normalize(),
                })
                .collect(),
        }),
    }
}

/// A drawings cache, locked (one a panicking holder left behind is still whole: each entry is
/// inserted complete).
pub(super) fn locked<T>(cache: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(super) fn joined(values: impl Iterator<Item = String>) -> String {
    values.collect::<Vec<_>>().join(",")
}

/// A percentage as a fraction: 20 → 0.2.
pub(super) fn fraction(percent: Decimal) -> Decimal {
    (percent / Decimal::from(100)).normalize()
}
