//! When cover starts (journey.md §4 Start date): the window a start date may be chosen in, and
//! the date a quote's cover starts on.

use chrono::NaiveDate;
use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::schema::FieldError;
use crate::rules::context::RuleContext;

use crate::rules::domain::facts::{max_age_months, pets, str_of};

/// journey.md §4 Policy start date: the dates cover may start on, and which of today, tomorrow
/// and other the start-date question offers.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StartDateWindow {
    /// The latest pet date of birth plus 56 days, but not before today.
    pub earliest: NaiveDate,
    /// 30 days ahead, or earlier if a pet would reach its breed's maximum age first.
    pub latest: NaiveDate,
    /// `today` when the earliest is not after today; `tomorrow` when the earliest is not after
    /// tomorrow and the latest is on or after it; `other` when the latest is after tomorrow.
    pub options: Vec<&'static str>,
    /// The stored start date, lifted to the earliest if it is before it (today if none).
    pub chosen: NaiveDate,
    /// Which option the chosen date is.
    pub chosen_option: &'static str,
    /// Today and tomorrow in UK time, the dates the first two options stand for.
    pub today: NaiveDate,
    pub tomorrow: NaiveDate,
}

/// Days after the latest date of birth before cover can start (8 weeks).
pub(super) const START_AFTER_BIRTH_DAYS: i64 = 56;

/// How far ahead cover can start.
pub(super) const START_WINDOW_DAYS: i64 = 30;

pub fn start_date_window(
    defs: &Definitions,
    document: &Value,
    today: NaiveDate,
    brand: &str,
) -> StartDateWindow {
    let births: Vec<(NaiveDate, u32)> = pets(document)
        .filter_map(|(_, pet)| {
            let dob =
                NaiveDate::parse_from_str(str_of(pet, "pet_date_of_birth")?, "%Y-%m-%d").ok()?;
            Some((dob, max_age_months(defs, pet, brand)))
        })
        .collect();
    let earliest = births
        .iter()
        .map(|(dob, _)| *dob + chrono::Duration::days(START_AFTER_BIRTH_DAYS))
        .max()
        .map_or(today, |d| d.max(today));
    // The day before a pet reaches its maximum age is the last day it can start.
    let by_age = births
        .iter()
        .filter_map(|(dob, max)| dob.checked_add_months(chrono::Months::new(*max)))
        .map(|d| d - chrono::Duration::days(1))
        .min();
    let ahead = today + chrono::Duration::days(START_WINDOW_DAYS);
    let latest = by_age.map_or(ahead, |d| d.min(ahead));
    let tomorrow = today + chrono::Duration::days(1);
    let mut options = Vec::new();
    if earliest <= today {
        options.push("today");
    }
    if earliest <= tomorrow && latest >= tomorrow {
        options.push("tomorrow");
    }
    if latest > tomorrow {
        options.push("other");
    }
    let stored = document
        .pointer("/owner/pet_policy_start_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        .unwrap_or(today);
    let chosen = stored.max(earliest);
    let chosen_option = if chosen == today {
        "today"
    } else if chosen == tomorrow {
        "tomorrow"
    } else {
        "other"
    };
    StartDateWindow {
        earliest,
        latest,
        options,
        chosen,
        chosen_option,
        today,
        tomorrow,
    }
}

/// The date cover starts: the owner's chosen date, else today.
pub fn cover_start(document: &Value, ctx: &RuleContext) -> NaiveDate {
    document
        .pointer("/owner/pet_policy_start_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        .unwrap_or(ctx.today)
}

/// journey.md §4 Policy start date: the stored date is within the window (it is lifted to the
/// earliest before this runs, so only a date after the latest fails).
pub(super) fn start_date_in_window(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let Some(stored) = document
        .pointer("/owner/pet_policy_start_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
    else {
        return Vec::new();
    };
    let window = start_date_window(defs, document, ctx.today, &ctx.brand);
    // Why the date is refused, and the window it must be in (not just "Please enter a
    // valid date"): 30 days ahead at most, or before a pet reaches its maximum age.
    let key = if stored < window.earliest {
        "start_date.too_early"
    } else if stored > window.latest
        && window.latest < ctx.today + chrono::Duration::days(START_WINDOW_DAYS)
    {
        "start_date.too_late_age"
    } else if stored > window.latest {
        "start_date.too_late"
    } else {
        return Vec::new();
    };
    let uk = |d: NaiveDate| d.format("%d/%m/%Y").to_string();
    vec![
        FieldError::new("owner.pet_policy_start_date", key)
            .with_param("earliest", uk(window.earliest))
            .with_param("latest", uk(window.latest))
            .with_param("days", START_WINDOW_DAYS.to_string()),
    ]
}
