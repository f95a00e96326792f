//! Direct Debit collection schedules (owner-payment.md §4 Direct Debit date, §9):
//! working days only, England and Wales bank holidays skipped, a first collection within 14 days
//! of set-up skipped and taken with the next, around month ends and holidays.

use chrono::{Datelike, NaiveDate};
use engine::rules::collections::{BankHolidays, Collection, Frequency, schedule};
use rust_decimal::Decimal;

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
}

fn dates(c: &[Collection]) -> Vec<String> {
    c.iter().map(|x| x.date.to_string()).collect()
}

fn money(s: &str) -> Decimal {
    s.parse().expect("money")
}

#[test]
fn far_enough_ahead_the_first_collection_is_on_the_chosen_day() {
    let h = BankHolidays::default();
    let c = schedule(
        d("2026-11-22"),
        d("2026-12-01"),
        15,
        Frequency::Monthly,
        money("28.48"),
        &h,
    );
    assert_eq!(c.len(), 12);
    assert_eq!(c[0].date, d("2026-12-15"));
    assert_eq!(c[0].amount, money("28.48"));
    // 15 May 2027 is a Saturday: Monday 17th.
    assert_eq!(c[5].date, d("2027-05-17"));
    assert_eq!(c.iter().map(|x| x.payments).sum::<u32>(), 12);
}

#[test]
fn a_first_collection_within_14_days_is_taken_with_the_next() {
    // owner-payment.md §4: "a collection date within the next 14 days means the first collection
    // is skipped and two payments are taken the following month (one payment for yearly)".
    let h = BankHolidays::default();
    let c = schedule(
        d("2026-11-22"),
        d("2026-11-22"),
        28,
        Frequency::Monthly,
        money("28.48"),
        &h,
    );
    // Due Saturday 28 November, 6 days away: skipped. 28 December is the Boxing Day substitute
    // holiday: Tuesday 29th, with two payments.
    assert_eq!(c[0].date, d("2026-12-29"));
    assert_eq!(c[0].payments, 2);
    assert_eq!(c[0].amount, money("56.96"));
    assert_eq!(c.len(), 11, "twelve payments in eleven collections");
    assert_eq!(c.iter().map(|x| x.payments).sum::<u32>(), 12);
    // Exactly 14 days ahead is not within 14 days.
    let c = schedule(
        d("2026-11-22"),
        d("2026-12-01"),
        6,
        Frequency::Monthly,
        money("10"),
        &h,
    );
    assert_eq!(
        (c[0].date, c[0].payments),
        (d("2026-12-07"), 1),
        "6 December is a Sunday"
    );
    let c = schedule(
        d("2026-11-23"),
        d("2026-12-01"),
        6,
        Frequency::Monthly,
        money("10"),
        &h,
    );
    assert_eq!(c[0].payments, 2, "13 days ahead: skipped");
}

#[test]
fn a_yearly_payer_pays_once() {
    let h = BankHolidays::default();
    let c = schedule(
        d("2026-11-22"),
        d("2026-11-25"),
        1,
        Frequency::Annual,
        money("341.76"),
        &h,
    );
    // Due 1 December (9 days): skipped; the one payment on 1 January is New Year's Day, so
    // Monday 4 January 2027.
    assert_eq!(dates(&c), ["2027-01-04"]);
    assert_eq!(c[0].amount, money("341.76"));
    assert_eq!(c[0].payments, 1);
}

#[test]
fn easter_and_month_ends_move_collections_to_the_next_working_day() {
    let h = BankHolidays::default();
    let c = schedule(
        d("2026-12-01"),
        d("2027-01-01"),
        26,
        Frequency::Monthly,
        money("10"),
        &h,
    );
    // 26 March 2027 is Good Friday and 29th Easter Monday: Tuesday 30th.
    let march = c.iter().find(|x| x.date.month() == 3).expect("March");
    assert_eq!(march.date, d("2027-03-30"));
    let c = schedule(
        d("2026-12-01"),
        d("2027-01-01"),
        28,
        Frequency::Monthly,
        money("10"),
        &h,
    );
    // 28 February 2027 is a Sunday: Monday 1 March, and March's own collection still follows.
    assert_eq!(c[1].date, d("2027-03-01"));
    assert_eq!(
        c[2].date,
        d("2027-03-30"),
        "28 March 2027 is a Sunday, 29th Easter Monday: Tuesday"
    );
}

#[test]
fn every_collection_is_a_working_day_within_five_days_of_its_due_date() {
    // owner-payment.md §9 Business constants: "the first payment within 5 days of the chosen date".
    let h = BankHolidays::default();
    let mut setup = d("2026-01-01");
    while setup < d("2028-12-31") {
        for day in [1, 15, 25, 28] {
            let c = schedule(
                setup,
                setup + chrono::Duration::days(3),
                day,
                Frequency::Monthly,
                money("1"),
                &h,
            );
            for x in &c {
                assert!(
                    h.is_working_day(x.date),
                    "{} from {setup} day {day}",
                    x.date
                );
                let due = NaiveDate::from_ymd_opt(x.date.year(), x.date.month(), day)
                    .filter(|due| *due <= x.date)
                    .unwrap_or_else(|| {
                        let prev = x.date - chrono::Duration::days(6);
                        NaiveDate::from_ymd_opt(prev.year(), prev.month(), day).expect("due")
                    });
                assert!(
                    (x.date - due).num_days() <= 5,
                    "{} is more than 5 days after {due}",
                    x.date
                );
            }
            assert_eq!(c.iter().map(|x| x.payments).sum::<u32>(), 12);
        }
        setup += chrono::Duration::days(11);
    }
}
