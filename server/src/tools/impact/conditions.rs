//! The checks a team puts in CI: `--fail-if "price_rise_p90 > 5%"`. A condition is
//! `<measure> <comparison> <number>`, with `%` after the number for a measure in per cent and
//! none for a count; the command exits 1 when any condition holds.
//!
//! The measures:
//! - in per cent: `price_rise_p10`, `price_rise_median`, `price_rise_p90`, `price_rise_max` (the
//!   largest rise), `price_rise_min` (the largest fall, negative) over every price compared;
//!   `priced_differently` (the share of quotes priced on both sides with any price changed);
//! - counts of sampled quotes: `different_step`, `newly_blocked`, `no_longer_blocked`,
//!   `different_outcomes`, `no_longer_offered` (prices of a pet's product no longer offered);
//! - counts of generated paths: `paths_changed`, `paths_now_blocked`, `paths_gone`;
//! - `definitions_changes`: the changes in the definitions.

use rust_decimal::Decimal;

use super::Report;

/// The measures in per cent, and those that are counts.
const PERCENT: [&str; 6] = [
    "price_rise_p10",
    "price_rise_median",
    "price_rise_p90",
    "price_rise_max",
    "price_rise_min",
    "priced_differently",
];
const COUNTS: [&str; 9] = [
    "different_step",
    "newly_blocked",
    "no_longer_blocked",
    "different_outcomes",
    "no_longer_offered",
    "paths_changed",
    "paths_now_blocked",
    "paths_gone",
    "definitions_changes",
];

/// A condition read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    pub text: String,
    measure: String,
    comparison: &'static str,
    value: Decimal,
}

/// A condition from its text; an error names what is wrong and what is allowed.
pub fn parse(text: &str) -> Result<Condition, String> {
    let text = text.trim();
    let comparison = [">=", "<=", "==", "!=", ">", "<"]
        .into_iter()
        .find(|c| text.contains(c))
        .ok_or_else(|| {
            format!(
                "{text:?}: no comparison (one of > >= < <= == !=), as in \"price_rise_p90 > 5%\""
            )
        })?;
    let (measure, number) = text.split_once(comparison).unwrap_or_default();
    let measure = measure.trim();
    let number = number.trim();
    let percent = PERCENT.contains(&measure);
    if !percent && !COUNTS.contains(&measure) {
        return Err(format!(
            "{text:?}: no measure {measure:?} (in per cent: {}; counts: {})",
            PERCENT.join(", "),
            COUNTS.join(", ")
        ));
    }
    let digits = match (percent, number.strip_suffix('%')) {
        (true, Some(d)) => d.trim(),
        (true, None) => {
            return Err(format!(
                "{text:?}: {measure} is in per cent: write the number with %"
            ));
        }
        (false, Some(_)) => {
            return Err(format!(
                "{text:?}: {measure} is a count: write the number without %"
            ));
        }
        (false, None) => number,
    };
    let value = digits
        .parse::<Decimal>()
        .map_err(|_| format!("{text:?}: {number:?} is not a number"))?;
    Ok(Condition {
        text: text.to_owned(),
        measure: measure.to_owned(),
        comparison,
        value,
    })
}

/// A measure of the report.
fn measure(report: &Report, name: &str) -> Decimal {
    let q = &report.quotes;
    let j = &report.journeys;
    let count = |n: usize| Decimal::from(n);
    match name {
        "price_rise_p10" => q.prices.p10,
        "price_rise_median" => q.prices.median,
        "price_rise_p90" => q.prices.p90,
        "price_rise_max" => q.prices.max,
        "price_rise_min" => q.prices.min,
        "priced_differently" if q.priced > 0 => {
            (count(q.priced_differently.quotes) * Decimal::ONE_HUNDRED / count(q.priced))
                .round_dp(2)
        }
        "different_step" => count(q.different_step.quotes),
        "newly_blocked" => count(q.newly_blocked.quotes),
        "no_longer_blocked" => count(q.no_longer_blocked.quotes),
        "different_outcomes" => count(q.different_outcomes.quotes),
        "no_longer_offered" => count(q.no_longer_offered),
        "paths_changed" => count(j.changed.count),
        "paths_now_blocked" => count(j.now_blocked),
        "paths_gone" => count(j.gone.count),
        "definitions_changes" => count(report.definitions.changes),
        _ => Decimal::ZERO,
    }
}

/// The conditions that hold on the report, each with the measure's value.
pub fn holding(report: &Report, conditions: &[Condition]) -> Vec<String> {
    conditions
        .iter()
        .filter_map(|c| {
            let value = measure(report, &c.measure);
            let holds = match c.comparison {
                ">" => value > c.value,
                ">=" => value >= c.value,
                "<" => value < c.value,
                "<=" => value <= c.value,
                "==" => value == c.value,
                _ => value != c.value,
            };
            let unit = if PERCENT.contains(&c.measure.as_str()) {
                "%"
            } else {
                ""
            };
            holds.then(|| format!("{} (it is {value}{unit})", c.text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_as_documented_and_errors_name_the_problem() {
        let c = parse("price_rise_p90 > 5%").expect("reads");
        assert_eq!(
            (c.measure.as_str(), c.comparison, c.value),
            ("price_rise_p90", ">", Decimal::from(5))
        );
        let c = parse(" newly_blocked>=1 ").expect("reads");
        assert_eq!((c.measure.as_str(), c.comparison), ("newly_blocked", ">="));
        let e = parse("price_rise_p90 > 5").expect_err("refused");
        assert!(e.contains("in per cent"), "{e}");
        let e = parse("newly_blocked > 5%").expect_err("refused");
        assert!(e.contains("a count"), "{e}");
        let e = parse("price_p90 > 5%").expect_err("refused");
        assert!(e.contains("no measure \"price_p90\""), "{e}");
        let e = parse("price_rise_p90 5%").expect_err("refused");
        assert!(e.contains("no comparison"), "{e}");
        let e = parse("price_rise_p90 > five%").expect_err("refused");
        assert!(e.contains("not a number"), "{e}");
    }
}
