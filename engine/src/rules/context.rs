//! What every domain rule may know besides the document, and the month arithmetic they share.

use chrono::{Datelike, NaiveDate};

/// What a domain rule may know besides the document.
#[derive(Debug, Clone)]
pub struct RuleContext {
    /// Today in UK local time.
    pub today: NaiveDate,
    /// The brand the quote is sold under (promo codes are per brand).
    pub brand: String,
    /// Vocalink's modulus tables, for the bank details rule; none where no bank details are
    /// checked.
    pub bank: Option<std::sync::Arc<crate::rules::modulus::ModulusTables>>,
    /// The rate table's scheme the quote's journey prices by (journey `rate_scheme`), if any.
    pub rate_scheme: Option<String>,
}

/// Whole months from `from` to `to` (a birthday month counts once the day is reached).
pub fn months_between(from: NaiveDate, to: NaiveDate) -> i64 {
    let mut months =
        i64::from(to.year() - from.year()) * 12 + i64::from(to.month()) - i64::from(from.month());
    if to.day() < from.day() {
        months -= 1;
    }
    months
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_between_counts_birthdays() {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date");
        assert_eq!(months_between(d("2018-05-10"), d("2026-05-09")), 95);
        assert_eq!(months_between(d("2018-05-10"), d("2026-05-10")), 96);
    }
}
