//! Direct Debit collections (owner-payment.md §4 Direct Debit date, §9): the dates and amounts
//! a policy's premiums are collected on. Collections fall on working days (weekends and England
//! and Wales bank holidays skipped, the collection moving to the next working day); a first
//! collection within 14 days of the mandate's set-up is skipped and taken with the next (two
//! monthly payments together; for a yearly payer the one payment, a month later). Pure.

use std::collections::BTreeSet;

use chrono::{Datelike, Duration, NaiveDate, Weekday};
use rust_decimal::Decimal;
use serde::Serialize;

/// Days from set-up within which a first collection cannot be made (owner-payment.md §4).
pub const MIN_NOTICE_DAYS: i64 = 14;

/// How often the premium is collected (owner-payment.md §3 Payment: MP monthly, AP annual).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Frequency {
    Monthly,
    Annual,
}

/// England and Wales bank holidays: the rules that fix them each year, with the one-off changes
/// a government makes (an extra day, a holiday moved) given as data.
#[derive(Debug, Clone, Default)]
pub struct BankHolidays {
    /// Extra one-off holidays (a jubilee, a state funeral, a coronation).
    pub extra: BTreeSet<NaiveDate>,
    /// Rule-given holidays that did not happen (moved to one of `extra`).
    pub cancelled: BTreeSet<NaiveDate>,
}

/// Easter Sunday (the anonymous Gregorian algorithm).
pub fn easter_sunday(year: i32) -> NaiveDate {
    let a = year % 19;
    let b = year / 100;
    let c = year % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    ymd(year, month.unsigned_abs(), day.unsigned_abs())
}

fn ymd(year: i32, month: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, day).unwrap_or(NaiveDate::MIN)
}

fn is_weekend(d: NaiveDate) -> bool {
    matches!(d.weekday(), Weekday::Sat | Weekday::Sun)
}

/// The first `weekday` of a month.
fn first_weekday(year: i32, month: u32, weekday: Weekday) -> NaiveDate {
    let mut d = ymd(year, month, 1);
    while d.weekday() != weekday {
        d += Duration::days(1);
    }
    d
}

/// The last `weekday` of a month.
fn last_weekday(year: i32, month: u32, weekday: Weekday) -> NaiveDate {
    let next = if month == 12 {
        ymd(year + 1, 1, 1)
    } else {
        ymd(year, month + 1, 1)
    };
    let mut d = next - Duration::days(1);
    while d.weekday() != weekday {
        d -= Duration::days(1);
    }
    d
}

impl BankHolidays {
    /// The year's holidays by rule: New Year's Day, Good Friday, Easter Monday, the early May,
    /// spring and summer bank holidays, Christmas Day and Boxing Day, with substitute days when
    /// one falls at a weekend.
    pub fn by_rule(year: i32) -> Vec<NaiveDate> {
        let mut out = Vec::new();
        let mut new_year = ymd(year, 1, 1);
        while is_weekend(new_year) {
            new_year += Duration::days(1);
        }
        out.push(new_year);
        let easter = easter_sunday(year);
        out.push(easter - Duration::days(2));
        out.push(easter + Duration::days(1));
        out.push(first_weekday(year, 5, Weekday::Mon));
        out.push(last_weekday(year, 5, Weekday::Mon));
        out.push(last_weekday(year, 8, Weekday::Mon));
        // Christmas and Boxing Day, each on the next working day not already taken.
        let mut taken: Vec<NaiveDate> = Vec::new();
        for day in [25, 26] {
            let mut d = ymd(year, 12, day);
            while is_weekend(d) || taken.contains(&d) {
                d += Duration::days(1);
            }
            taken.push(d);
        }
        out.extend(taken);
        out
    }

    pub fn is_holiday(&self, d: NaiveDate) -> bool {
        if self.extra.contains(&d) {
            return true;
        }
        !self.cancelled.contains(&d) && Self::by_rule(d.year()).contains(&d)
    }

    pub fn is_working_day(&self, d: NaiveDate) -> bool {
        !is_weekend(d) && !self.is_holiday(d)
    }

    /// The day itself if it is a working day, else the next one.
    pub fn on_or_after(&self, mut d: NaiveDate) -> NaiveDate {
        while !self.is_working_day(d) {
            d += Duration::days(1);
        }
        d
    }
}

/// One collection: when, and how much.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Collection {
    pub date: NaiveDate,
    pub amount: Decimal,
    /// How many of the policy's payments this collection takes (2 after a skipped first one).
    pub payments: u32,
}

/// The day `day` (1 to 28) of the month `months` after the month of `from`.
fn day_of_month_after(from: NaiveDate, months: u32, day: u32) -> NaiveDate {
    let index = from.year() * 12
        + i32::try_from(from.month0()).unwrap_or(0)
        + i32::try_from(months).unwrap_or(0);
    ymd(
        index.div_euclid(12),
        index.rem_euclid(12).unsigned_abs() + 1,
        day,
    )
}

/// The collection schedule for a policy year: `premium` is the monthly amount for a monthly
/// payer (twelve payments) or the annual amount for a yearly payer (one). The first due date is
/// the chosen day on or after cover start; one due within 14 days of set-up is skipped and taken
/// with the next. Each collection moves to the next working day when due on a weekend or bank
/// holiday.
pub fn schedule(
    setup: NaiveDate,
    cover_start: NaiveDate,
    day: u32,
    frequency: Frequency,
    premium: Decimal,
    holidays: &BankHolidays,
) -> Vec<Collection> {
    let day = day.clamp(1, 28);
    let mut first = day_of_month_after(cover_start, 0, day);
    if first < cover_start {
        first = day_of_month_after(cover_start, 1, day);
    }
    let skip = (first - setup).num_days() < MIN_NOTICE_DAYS;
    let payments_due: u32 = match frequency {
        Frequency::Monthly => 12,
        Frequency::Annual => 1,
    };
    let mut out = Vec::new();
    let mut month = if skip { 1 } else { 0 };
    let mut remaining = payments_due;
    while remaining > 0 {
        let due = day_of_month_after(first, month, day);
        // After a skipped first collection, a monthly payer's first collection takes two
        // payments; a yearly payer's one payment is simply a month later.
        let payments = if skip && out.is_empty() && frequency == Frequency::Monthly {
            2
        } else {
            1
        };
        out.push(Collection {
            date: holidays.on_or_after(due),
            amount: premium * Decimal::from(payments),
            payments,
        });
        remaining -= payments.min(remaining);
        month += 1;
    }
    out
}

/// A card payer's payments (owner-payment.md §1 "card where offered"): the first taken from the
/// card when the quote is bought, today; a monthly payer's other eleven on the same day of each
/// following month (the 28th at most, so every month has it). Cards need no advance notice and
/// are charged on any day, so there is no skipped first payment and no bank-holiday shift.
pub fn card_schedule(today: NaiveDate, frequency: Frequency, premium: Decimal) -> Vec<Collection> {
    let payments: u32 = match frequency {
        Frequency::Monthly => 12,
        Frequency::Annual => 1,
    };
    let day = today.day().min(28);
    (0..payments)
        .map(|month| Collection {
            date: if month == 0 {
                today
            } else {
                day_of_month_after(today, month, day)
            },
            amount: premium,
            payments: 1,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Card payers: the first payment today, then monthly on the same day (the 28th at most).
    #[test]
    fn a_card_payers_schedule_starts_today() {
        let monthly = card_schedule(d("2026-01-31"), Frequency::Monthly, Decimal::new(1234, 2));
        assert_eq!(monthly.len(), 12);
        assert_eq!(monthly[0].date, d("2026-01-31"));
        assert_eq!(monthly[1].date, d("2026-02-28"));
        assert_eq!(monthly[2].date, d("2026-03-28"));
        assert_eq!(monthly[11].date, d("2026-12-28"));
        assert!(
            monthly
                .iter()
                .all(|c| c.amount == Decimal::new(1234, 2) && c.payments == 1)
        );
        let yearly = card_schedule(d("2026-11-23"), Frequency::Annual, Decimal::new(14000, 2));
        assert_eq!(yearly.len(), 1);
        assert_eq!(yearly[0].date, d("2026-11-23"));
    }

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
    }

    #[test]
    fn easter_is_right() {
        assert_eq!(easter_sunday(2024), d("2024-03-31"));
        assert_eq!(easter_sunday(2025), d("2025-04-20"));
        assert_eq!(easter_sunday(2026), d("2026-04-05"));
        assert_eq!(easter_sunday(2027), d("2027-03-28"));
    }

    #[test]
    fn the_rules_give_the_published_holidays() {
        // gov.uk England and Wales: 2026 and 2027.
        let h2026: Vec<String> = BankHolidays::by_rule(2026)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            h2026,
            [
                "2026-01-01",
                "2026-04-03",
                "2026-04-06",
                "2026-05-04",
                "2026-05-25",
                "2026-08-31",
                "2026-12-25",
                "2026-12-28"
            ]
        );
        let h2027: Vec<String> = BankHolidays::by_rule(2027)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            h2027,
            [
                "2027-01-01",
                "2027-03-26",
                "2027-03-29",
                "2027-05-03",
                "2027-05-31",
                "2027-08-30",
                "2027-12-27",
                "2027-12-28"
            ]
        );
        // 2022: Christmas on a Sunday, Boxing Day Monday, Christmas substitute Tuesday.
        let h2022 = BankHolidays::by_rule(2022);
        assert!(h2022.contains(&d("2022-12-26")) && h2022.contains(&d("2022-12-27")));
        // 2028: New Year's Day a Saturday: Monday 3 January.
        assert_eq!(BankHolidays::by_rule(2028)[0], d("2028-01-03"));
    }

    #[test]
    fn one_off_changes_are_data() {
        let mut h = BankHolidays::default();
        h.extra.insert(d("2022-06-03"));
        h.extra.insert(d("2022-06-02"));
        h.cancelled.insert(d("2022-05-30"));
        assert!(h.is_holiday(d("2022-06-03")));
        assert!(!h.is_holiday(d("2022-05-30")));
        assert!(BankHolidays::default().is_holiday(d("2022-05-30")));
    }
}
