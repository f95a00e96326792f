//! What a change does to real quotes: each sampled quote run again on the definitions before and
//! after (the same events, on the same days), then compared: where the customer lands, what
//! blocks them, each event's outcome, and every price quoted (each pet, each product).
//!
//! Both sides are run, rather than the log taken as the "before": a sampled quote may have been
//! made on an older version, or priced on a day that aged its pet differently; running both on the
//! same days measures the change between the two sets alone.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::Value;

use engine::journey::quoting::Quoted;

use crate::store::impact::SampledQuote;
use crate::tools::impact::rerun::Ran;

/// The most examples shown of each kind of difference.
pub const EXAMPLES: usize = 10;

/// The most groups listed under one dimension (the largest first).
pub const MAX_GROUPS: usize = 40;

/// The dimensions prices are broken down by.
pub const DIMENSIONS: [&str; 5] = ["species", "age band", "cover type", "brand", "region"];

/// A quote shown as an example, with where to see it run.
#[derive(Debug, Clone, Serialize)]
pub struct Example {
    pub reference: String,
    /// The staff replay of the quote as it was.
    pub replay: String,
    pub what: String,
}

/// How many quotes differ one way, with a few of them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Count {
    pub quotes: usize,
    pub examples: Vec<Example>,
}

impl Count {
    fn add(&mut self, quote: &SampledQuote, what: String) {
        self.quotes += 1;
        if self.examples.len() < EXAMPLES {
            self.examples.push(Example {
                reference: quote.quote_ref.clone(),
                replay: format!("/internal/replay?reference={}", quote.quote_ref),
                what,
            });
        }
    }
}

/// A distribution of price changes, in per cent of the price before.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Spread {
    /// Prices compared (a pet's product priced on both sides).
    pub prices: usize,
    /// Of them, those that changed.
    pub changed: usize,
    pub p10: Decimal,
    pub median: Decimal,
    pub p90: Decimal,
    pub min: Decimal,
    pub max: Decimal,
}

impl Spread {
    fn of(changes: &mut [Decimal]) -> Spread {
        changes.sort_unstable();
        let at = |p: usize| -> Decimal {
            if changes.is_empty() {
                return Decimal::ZERO;
            }
            // Nearest rank.
            let rank = (p * changes.len()).div_ceil(100).max(1);
            changes[rank - 1]
        };
        Spread {
            prices: changes.len(),
            changed: changes.iter().filter(|c| !c.is_zero()).count(),
            p10: at(10),
            median: at(50),
            p90: at(90),
            min: changes.first().copied().unwrap_or_default(),
            max: changes.last().copied().unwrap_or_default(),
        }
    }
}

/// One group of a dimension (dogs, `6 to 8 years`, LT, a brand, a postcode area).
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    pub value: String,
    #[serde(flatten)]
    pub spread: Spread,
}

/// One price's change.
#[derive(Debug, Clone, Serialize)]
pub struct Rise {
    pub reference: String,
    pub replay: String,
    /// The pet's 1-based position in the quote.
    pub pet: usize,
    pub product: String,
    pub before: Decimal,
    pub after: Decimal,
    /// In per cent of the price before.
    pub change: Decimal,
}

/// What the change does to the sampled quotes.
#[derive(Debug, Clone, Default, Serialize)]
pub struct QuotesImpact {
    /// Quotes sampled, and of them run again on both sides.
    pub sampled: usize,
    pub run: usize,
    /// Why the others were not, with how many each.
    pub not_run: BTreeMap<String, usize>,
    /// Quotes that would land on a different step (or end bought on one side only).
    pub different_step: Count,
    /// Quotes a blocking answer would now stop, and those it would no longer stop.
    pub newly_blocked: Count,
    pub no_longer_blocked: Count,
    /// Quotes at least one of whose events would be answered differently (now refused, say).
    pub different_outcomes: Count,
    /// Quotes priced on both sides, and of them those with any price changed.
    pub priced: usize,
    pub priced_differently: Count,
    /// Prices quoted on one side only: a product no longer offered to a pet, or newly offered.
    pub no_longer_offered: usize,
    pub newly_offered: usize,
    /// Every price compared.
    pub prices: Spread,
    /// The same by each of [`DIMENSIONS`], the largest groups first.
    pub by: BTreeMap<String, Vec<Group>>,
    /// The largest rises, largest first.
    pub largest_rises: Vec<Rise>,
}

/// One price compared, with its groups in [`DIMENSIONS`] order.
struct Priced {
    change: Decimal,
    groups: [u32; 5],
}

/// The comparisons of the quotes run so far, folded as they come (a group at a time).
#[derive(Default)]
pub struct Tally {
    out: QuotesImpact,
    priced: Vec<Priced>,
    /// The names of each dimension's groups, indexed by `Priced::groups`.
    names: [Vec<String>; 5],
    index: [BTreeMap<String, u32>; 5],
}

/// A pet's age in whole years on `on`, from its date of birth.
fn age_band(pet: &Value, on: chrono::NaiveDate) -> String {
    let born = pet
        .get("pet_date_of_birth")
        .and_then(Value::as_str)
        .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok());
    let Some(years) = born.and_then(|b| on.years_since(b)) else {
        return "unknown".into();
    };
    match years {
        0..=2 => "under 3 years",
        3..=5 => "3 to 5 years",
        6..=8 => "6 to 8 years",
        _ => "9 years and over",
    }
    .into()
}

impl Tally {
    fn group(&mut self, dimension: usize, value: String) -> u32 {
        if let Some(i) = self.index[dimension].get(&value) {
            return *i;
        }
        let i = u32::try_from(self.names[dimension].len()).unwrap_or(u32::MAX);
        self.names[dimension].push(value.clone());
        self.index[dimension].insert(value, i);
        i
    }

    /// A quote sampled.
    pub fn sampled(&mut self) {
        self.out.sampled += 1;
    }

    /// A quote that could not be run again on one side, and why.
    pub fn not_run(&mut self, why: String) {
        *self.out.not_run.entry(why).or_default() += 1;
    }

    /// A quote run on both sides, compared.
    pub fn compare(&mut self, quote: &SampledQuote, before: &Ran, after: &Ran) {
        self.out.run += 1;
        let landed = |r: &Ran| match r.lifecycle {
            engine::journey::runtime::Lifecycle::Active => r.step.clone(),
            other => format!("{} ({})", r.step, other.as_str()),
        };
        if landed(before) != landed(after) {
            let what = format!("{} → {}", landed(before), landed(after));
            self.out.different_step.add(quote, what);
        }
        let blocks = |r: &Ran| r.blocks.iter().cloned().collect::<Vec<_>>().join(", ");
        match (before.blocks.is_empty(), after.blocks.is_empty()) {
            (true, false) => self.out.newly_blocked.add(quote, blocks(after)),
            (false, true) => self.out.no_longer_blocked.add(quote, blocks(before)),
            _ => {}
        }
        if before.outcomes != after.outcomes {
            let at = before
                .outcomes
                .iter()
                .zip(&after.outcomes)
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            let what = format!(
                "event {}: {} → {}",
                at + 1,
                before.outcomes.get(at).copied().unwrap_or("none"),
                after.outcomes.get(at).copied().unwrap_or("none")
            );
            self.out.different_outcomes.add(quote, what);
        }
        self.prices(quote, before, after);
    }

    fn prices(&mut self, quote: &SampledQuote, before: &Ran, after: &Ran) {
        let (Some(was), Some(now)) = (Quoted::of(&before.document), Quoted::of(&after.document))
        else {
            return;
        };
        self.out.priced += 1;
        let pets = before
            .document
            .get("pets")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let region = before
            .document
            .pointer("/owner/customer_postcode")
            .and_then(Value::as_str)
            .and_then(engine::definitions::postcode::Postcode::parse)
            .map_or_else(|| "unknown".to_owned(), |p| p.area().to_owned());
        let mut changed: Option<String> = None;
        for (i, products) in was.pets.iter().enumerate() {
            let pet = pets.get(i).unwrap_or(&Value::Null);
            let species = pet
                .get("pet_type")
                .and_then(Value::as_str)
                .unwrap_or("unknown")
                .to_owned();
            let band = age_band(pet, before.on);
            for premiums in products {
                let code = premiums.code();
                let Some(new) = now.premiums(i, code) else {
                    self.out.no_longer_offered += 1;
                    continue;
                };
                let (old, new) = (premiums.monthly(), new.monthly());
                if old.is_zero() {
                    continue;
                }
                let change = ((new - old) / old * Decimal::ONE_HUNDRED).round_dp(2);
                if !change.is_zero() && changed.is_none() {
                    changed = Some(format!("pet {} {code}: £{old} → £{new} a month", i + 1));
                }
                let groups = [
                    self.group(0, species.clone()),
                    self.group(1, band.clone()),
                    self.group(2, code.get(..2).unwrap_or(code).to_owned()),
                    self.group(3, quote.brand.clone()),
                    self.group(4, region.clone()),
                ];
                self.priced.push(Priced { change, groups });
                self.rise(quote, i + 1, code, old, new, change);
            }
        }
        for (i, products) in now.pets.iter().enumerate() {
            self.out.newly_offered += products
                .iter()
                .filter(|p| was.premiums(i, p.code()).is_none())
                .count();
        }
        if let Some(what) = changed {
            self.out.priced_differently.add(quote, what);
        }
    }

    fn rise(
        &mut self,
        quote: &SampledQuote,
        pet: usize,
        product: &str,
        before: Decimal,
        after: Decimal,
        change: Decimal,
    ) {
        let rises = &mut self.out.largest_rises;
        if change <= Decimal::ZERO
            || (rises.len() >= EXAMPLES && rises.last().is_some_and(|r| r.change >= change))
        {
            return;
        }
        rises.push(Rise {
            reference: quote.quote_ref.clone(),
            replay: format!("/internal/replay?reference={}", quote.quote_ref),
            pet,
            product: product.to_owned(),
            before,
            after,
            change,
        });
        rises.sort_by_key(|r| std::cmp::Reverse(r.change));
        rises.truncate(EXAMPLES);
    }

    /// The report of every quote compared.
    pub fn finish(mut self) -> QuotesImpact {
        let mut all: Vec<Decimal> = self.priced.iter().map(|p| p.change).collect();
        self.out.prices = Spread::of(&mut all);
        for (d, dimension) in DIMENSIONS.iter().enumerate() {
            let mut groups: Vec<Vec<Decimal>> = vec![Vec::new(); self.names[d].len()];
            for p in &self.priced {
                if let Some(g) = groups.get_mut(p.groups[d] as usize) {
                    g.push(p.change);
                }
            }
            let mut listed: Vec<Group> = groups
                .iter_mut()
                .zip(&self.names[d])
                .map(|(changes, value)| Group {
                    value: value.clone(),
                    spread: Spread::of(changes),
                })
                .collect();
            listed.sort_by(|a, b| {
                b.spread
                    .prices
                    .cmp(&a.spread.prices)
                    .then_with(|| a.value.cmp(&b.value))
            });
            listed.truncate(MAX_GROUPS);
            self.out.by.insert((*dimension).to_owned(), listed);
        }
        self.out
    }
}
