//! A pet's premiums as stored with the quote: one compact record per product, and the quote's
//! prices for every pet.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::definitions::rates::{CoverGroup, ProductKey};
use crate::rules::rating::Price;

/// One priced product's working, for the transition record and the internal pricing endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriceNote {
    /// The pet's 1-based id.
    pub pet: usize,
    pub code: String,
    pub monthly: Decimal,
    /// `[name, chosen by, value]`, starting from the base annual premium.
    pub factors: Vec<(String, String, Decimal)>,
    pub discounts_monthly: crate::rules::rating::DiscountAmounts,
}

impl PriceNote {
    pub(super) fn of(pet: usize, price: &Price) -> Self {
        PriceNote {
            pet,
            code: price.code.clone(),
            monthly: price.monthly,
            factors: price
                .factors
                .iter()
                .map(|f| (f.name.to_owned(), f.by.to_string(), f.value))
                .collect(),
            discounts_monthly: price.discounts_monthly.clone(),
        }
    }
}

/// One product's premiums as the quote stores them, its fields in one string of ten words:
/// `"code monthly annual annual-IPT monthly-before-discounts multi-pet offer-code loyalty
/// set-excess co-insurance-percent"` (the three discounts monthly), each amount written exactly
/// as its decimal (`"LT04000 21.66 259.92 27.85 24.07 2.41 0 0 99 0"`). One string, not a list
/// of ten, because every request that loads a quote reads it: it is one allocation to read, copy
/// and free rather than ten. Everything else a product shows is derived from the definitions
/// when a page is drawn. A list of the ten (how quotes were stored before) is read as well.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Premiums {
    pub code: String,
    pub monthly: Decimal,
    pub annual: Decimal,
    /// The Insurance Premium Tax in the annual premium.
    pub annual_ipt: Decimal,
    pub monthly_before_discounts: Decimal,
    /// The three discounts, monthly.
    pub multi_pet: Decimal,
    pub offer_code: Decimal,
    pub loyalty: Decimal,
    /// The excess the product was priced with.
    pub set_excess: Decimal,
    /// The claim contribution, a percentage.
    pub coinsurance_percent: Decimal,
}

impl Serialize for Premiums {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use std::fmt::Write;
        let mut out = String::with_capacity(64);
        out.push_str(&self.code);
        for d in self.amounts() {
            // Writing to a String cannot fail.
            let _ = write!(out, " {d}");
        }
        serializer.serialize_str(&out)
    }
}

impl<'de> Deserialize<'de> for Premiums {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(PremiumsVisitor)
    }
}

pub(super) struct PremiumsVisitor;

impl<'de> serde::de::Visitor<'de> for PremiumsVisitor {
    type Value = Premiums;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a product code and nine amounts, in one string or in a list")
    }

    fn visit_str<E: serde::de::Error>(self, words: &str) -> Result<Premiums, E> {
        let mut parts = words.split(' ');
        let code = parts.next().unwrap_or_default();
        let mut amounts = [Decimal::ZERO; 9];
        for (i, slot) in amounts.iter_mut().enumerate() {
            let word = parts
                .next()
                .ok_or_else(|| E::custom(format!("premiums {code}: amount {} missing", i + 1)))?;
            *slot = word
                .parse()
                .map_err(|_| E::custom(format!("premiums {code}: {word:?} is not an amount")))?;
        }
        if parts.next().is_some() {
            return Err(E::custom(format!("premiums {code}: more than ten words")));
        }
        Ok(Premiums::from_parts(code.to_owned(), amounts))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Premiums, A::Error> {
        use serde::de::Error;
        let code: String = seq
            .next_element()?
            .ok_or_else(|| A::Error::custom("premiums: no product code"))?;
        let mut amounts = [Decimal::ZERO; 9];
        for (i, slot) in amounts.iter_mut().enumerate() {
            *slot = seq.next_element()?.ok_or_else(|| {
                A::Error::custom(format!("premiums {code}: amount {} missing", i + 1))
            })?;
        }
        if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::custom(format!(
                "premiums {code}: more than ten items"
            )));
        }
        Ok(Premiums::from_parts(code, amounts))
    }
}

impl Premiums {
    fn from_parts(code: String, amounts: [Decimal; 9]) -> Self {
        let [
            monthly,
            annual,
            annual_ipt,
            monthly_before_discounts,
            multi_pet,
            offer_code,
            loyalty,
            set_excess,
            coinsurance_percent,
        ] = amounts;
        Premiums {
            code,
            monthly,
            annual,
            annual_ipt,
            monthly_before_discounts,
            multi_pet,
            offer_code,
            loyalty,
            set_excess,
            coinsurance_percent,
        }
    }

    fn amounts(&self) -> [Decimal; 9] {
        [
            self.monthly,
            self.annual,
            self.annual_ipt,
            self.monthly_before_discounts,
            self.multi_pet,
            self.offer_code,
            self.loyalty,
            self.set_excess,
            self.coinsurance_percent,
        ]
    }

    pub(super) fn of(price: &Price) -> Self {
        let d = &price.discounts_monthly;
        Premiums {
            code: price.code.clone(),
            monthly: price.monthly,
            annual: price.annual,
            annual_ipt: price.annual_ipt,
            monthly_before_discounts: price.monthly_before_discounts,
            multi_pet: d.multipet,
            offer_code: d.offer_code,
            loyalty: d.loyalty,
            set_excess: price.set_excess,
            coinsurance_percent: price.coinsurance_percent,
        }
    }

    pub fn code(&self) -> &str {
        &self.code
    }

    pub fn monthly(&self) -> Decimal {
        self.monthly
    }

    pub fn annual(&self) -> Decimal {
        self.annual
    }

    pub fn discounts(&self) -> crate::rules::rating::DiscountAmounts {
        crate::rules::rating::DiscountAmounts {
            multipet: self.multi_pet,
            offer_code: self.offer_code,
            loyalty: self.loyalty,
        }
    }
}

/// The prices quoted, stored in the quote document as `quoted`: per pet (in the pets'
/// order) every product's premiums, with the definitions version and a digest of the rating
/// inputs they were worked from. A quoted price holds until the rating inputs change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quoted {
    /// SHA-256 (hex) of the rating inputs; empty for prices carried over from before digests.
    pub inputs: String,
    pub version: String,
    pub pets: Vec<Vec<Premiums>>,
}

impl Quoted {
    /// The prices a document holds, if any.
    pub fn of(document: &Value) -> Option<Quoted> {
        Quoted::deserialize(document.get("quoted")?).ok()
    }

    /// The premiums of the product `code` for the pet at 0-based `index`.
    pub fn premiums(&self, index: usize, code: &str) -> Option<&Premiums> {
        self.pets.get(index)?.iter().find(|p| p.code() == code)
    }
}

/// A product code read back: the group and the limit (LT04000).
pub(super) fn product_key(code: &str) -> Option<ProductKey> {
    let group = match code.get(..2)? {
        "LT" => CoverGroup::LT,
        "MB" => CoverGroup::MB,
        "TL" => CoverGroup::TL,
        _ => return None,
    };
    Some(ProductKey {
        group,
        limit: code.get(2..)?.parse().ok()?,
    })
}
