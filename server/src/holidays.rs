//! England and Wales bank holidays for Direct Debit collections: the yearly rules are the
//! engine's; the one-off changes are `server/data/bank-holidays.json`, checked at start.

use chrono::NaiveDate;
use engine::rules::collections::BankHolidays;
use serde::Deserialize;

const FILE: &str = "server/data/bank-holidays.json";
const DATA: &str = include_str!("../data/bank-holidays.json");
const SCHEMA: &str = include_str!("../data/bank-holidays.schema.json");

#[derive(Deserialize)]
struct HolidayFile {
    extra: Vec<NaiveDate>,
    cancelled: Vec<NaiveDate>,
}

pub fn load() -> Result<BankHolidays, String> {
    parse(DATA)
}

fn parse(text: &str) -> Result<BankHolidays, String> {
    let file: HolidayFile = crate::data_file::load(FILE, text, SCHEMA)?;
    Ok(BankHolidays {
        extra: file.extra.into_iter().collect(),
        cancelled: file.cancelled.into_iter().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_loads_and_a_bad_date_is_named() {
        let h = load().expect("shipped file");
        assert!(
            h.is_holiday(NaiveDate::from_ymd_opt(2023, 5, 8).expect("date")),
            "the coronation"
        );
        let bad = DATA.replace("2022-09-19", "2022-13-19");
        let e = parse(&bad).expect_err("refused");
        assert!(e.contains("server/data/bank-holidays.json"), "{e}");
    }
}
