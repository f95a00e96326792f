//! How amounts are written for a customer, per currency and language (owner-payment.md §9
//! Currency: £ (GBP), EUR in the French variant; prices to 2 decimals unless whole). One
//! formatter serves the pages' data, the emails and the documents; the renderer's
//! `shared/money.ts` writes the same strings, and both pass `engine/tests/fixtures/money.json`.

use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::Value;

use crate::definitions::brands::Currency;

/// Writes amounts in one currency for readers of one language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Money {
    currency: Currency,
    french: bool,
}

impl Money {
    /// The formatter for `currency` read in `language` (a BCP 47 tag: "fr-FR" and any other
    /// "fr" tag write French numbers; every other language writes British ones).
    pub fn new(currency: Currency, language: &str) -> Self {
        let french = language == "fr" || language.starts_with("fr-");
        Money { currency, french }
    }

    /// Pounds sterling in British English: what a quote without a brand is priced in.
    pub fn sterling() -> Self {
        Money::new(Currency::Gbp, "en-GB")
    }

    /// The currency written.
    pub fn currency(&self) -> Currency {
        self.currency
    }

    /// The currency's symbol: "£" or "€".
    pub fn symbol(&self) -> &'static str {
        match self.currency {
            Currency::Gbp => "£",
            Currency::Eur => "€",
        }
    }

    /// To the penny (or cent): "£1,234.50", "£4,000.00", "1 234,50 €".
    pub fn price(&self, amount: Decimal) -> String {
        self.write(amount, false)
    }

    /// Whole amounts without decimals, others to the penny: "£4,000", "£28.48", "4 000 €".
    pub fn amount(&self, amount: Decimal) -> String {
        self.write(amount, true)
    }

    /// A whole count in the language's grouping, no symbol: "20,000", "20 000" (Nectar points).
    pub fn count(&self, n: u64) -> String {
        let group = if self.french { '\u{202f}' } else { ',' };
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(group);
            }
            out.push(c);
        }
        out
    }

    fn write(&self, amount: Decimal, drop_whole: bool) -> String {
        let amount = amount.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
        let negative = amount.is_sign_negative() && !amount.is_zero();
        let abs = amount.abs();
        let whole = abs.trunc();
        let cents = ((abs - whole) * Decimal::from(100)).trunc();
        let (group, decimal) = if self.french {
            ('\u{202f}', ',')
        } else {
            (',', '.')
        };
        let digits = whole.to_string();
        let mut number = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                number.push(group);
            }
            number.push(c);
        }
        if !(drop_whole && cents.is_zero()) {
            number.push(decimal);
            number.push_str(&format!("{cents:0>2}"));
        }
        let sign = if negative { "-" } else { "" };
        if self.french {
            format!("{sign}{number}\u{a0}{}", self.symbol())
        } else {
            format!("{sign}{}{number}", self.symbol())
        }
    }

    /// The amount a customer typed, with or without this currency's symbol (journey.md §5
    /// pet_cost "may carry a currency prefix"): "£1,000" and "1000" read as 1000. `None` for
    /// anything that is not a number.
    pub fn parse(text: &str) -> Option<Decimal> {
        let t = text.trim();
        let t = t
            .strip_prefix('£')
            .or_else(|| t.strip_prefix('€'))
            .or_else(|| t.strip_suffix('€'))
            .unwrap_or(t)
            .trim();
        t.parse().ok()
    }
}

/// A decimal written as a JSON string or number.
pub fn decimal_of(v: &Value) -> Option<Decimal> {
    match v {
        Value::String(s) => Money::parse(s),
        Value::Number(n) => n.to_string().parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Case {
        currency: Currency,
        language: String,
        value: String,
        price: String,
        amount: String,
    }

    #[derive(Deserialize)]
    struct Cases {
        cases: Vec<Case>,
    }

    /// owner-payment.md §9 Currency: the shared cases, which the renderer's tests read too.
    #[test]
    fn writes_every_shared_case() {
        let text = include_str!("../../tests/fixtures/money.json");
        let cases: Cases = serde_json::from_str(text).expect("money.json");
        assert!(cases.cases.len() >= 10);
        for c in cases.cases {
            let money = Money::new(c.currency, &c.language);
            let value: Decimal = c.value.parse().expect("value");
            assert_eq!(money.price(value), c.price, "price of {}", c.value);
            assert_eq!(money.amount(value), c.amount, "amount of {}", c.value);
        }
    }

    #[test]
    fn rounds_to_the_penny() {
        let m = Money::sterling();
        assert_eq!(m.price(Decimal::new(28485, 3)), "£28.49");
        assert_eq!(m.amount(Decimal::new(99999, 3)), "£100");
    }

    #[test]
    fn reads_a_typed_amount_with_or_without_its_symbol() {
        assert_eq!(Money::parse("£1000"), Some(Decimal::from(1000)));
        assert_eq!(Money::parse(" 250.5 "), Some(Decimal::new(2505, 1)));
        assert_eq!(Money::parse("€75"), Some(Decimal::from(75)));
        assert_eq!(Money::parse("75 €"), Some(Decimal::from(75)));
        assert_eq!(Money::parse("£"), None);
        assert_eq!(Money::parse("ten"), None);
    }
}
