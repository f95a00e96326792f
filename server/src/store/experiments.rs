//! An experiment read: for each variation, the quotes that saw it, moved on from the
//! step that showed it, and bought; each rate with its 95% interval, and each variation's
//! difference from the first (the control) with its interval.
//!
//! A quote saw a variation when one of its transitions carries that view (the page sends the
//! variation it showed with each call: journey.md §6). It moved on when a transition from a step
//! that showed the variation moved. It bought when its lifecycle is purchased. A quote that
//! somehow saw two variations of one experiment counts under the first it saw.
//!
//! Intervals: Wilson's score interval for a proportion, and Newcombe's hybrid score interval
//! (his method 10, built from the two Wilson intervals) for a difference of proportions. Both
//! keep inside 0 to 1 and behave with small counts, where the textbook normal approximation
//! does not.

use std::collections::BTreeSet;

use serde_json::Value;
use sqlx::Row;

use crate::store::db::Store;
use crate::store::error::StoreError;
use crate::store::report::FunnelFilter;

/// z for a two-sided 95% interval.
const Z: f64 = 1.959_963_984_540_054;

/// An interval, as proportions (0 to 1) or a difference of them (−1 to 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// Wilson's 95% score interval for `x` successes in `n`; `None` when `n` is 0.
pub fn wilson(x: u64, n: u64) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    #[allow(clippy::cast_precision_loss)]
    let (x, n) = (x as f64, n as f64);
    let p = x / n;
    let z2 = Z * Z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    })
}

/// Newcombe's 95% hybrid score interval for `x2/n2 − x1/n1`; `None` when either `n` is 0.
pub fn newcombe(x1: u64, n1: u64, x2: u64, n2: u64) -> Option<Interval> {
    let (w1, w2) = (wilson(x1, n1)?, wilson(x2, n2)?);
    #[allow(clippy::cast_precision_loss)]
    let (p1, p2) = (x1 as f64 / n1 as f64, x2 as f64 / n2 as f64);
    let d = p2 - p1;
    Some(Interval {
        low: d - ((p2 - w2.low).powi(2) + (w1.high - p1).powi(2)).sqrt(),
        high: d + ((w2.high - p2).powi(2) + (p1 - w1.low).powi(2)).sqrt(),
    })
}

/// One variation's counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariationRow {
    pub variation: String,
    pub saw: u64,
    pub moved_on: u64,
    pub bought: u64,
}

impl VariationRow {
    pub fn moved_on_interval(&self) -> Option<Interval> {
        wilson(self.moved_on, self.saw)
    }

    pub fn conversion_interval(&self) -> Option<Interval> {
        wilson(self.bought, self.saw)
    }
}

/// A variation against the control (the experiment's first variation).
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub variation: String,
    pub control: String,
    /// Moving on from the step: the difference in proportions and its interval.
    pub moved_on: Option<(f64, Interval)>,
    /// Buying.
    pub conversion: Option<(f64, Interval)>,
}

fn share(x: u64, n: u64) -> Option<f64> {
    #[allow(clippy::cast_precision_loss)]
    (n > 0).then(|| x as f64 / n as f64)
}

/// Each variation after the first against the first.
pub fn differences(rows: &[VariationRow]) -> Vec<Difference> {
    let Some(control) = rows.first() else {
        return Vec::new();
    };
    rows.iter()
        .skip(1)
        .map(|row| {
            let diff = |x1: u64, x2: u64| {
                let d = share(x2, row.saw)? - share(x1, control.saw)?;
                Some((d, newcombe(x1, control.saw, x2, row.saw)?))
            };
            Difference {
                variation: row.variation.clone(),
                control: control.variation.clone(),
                moved_on: diff(control.moved_on, row.moved_on),
                conversion: diff(control.bought, row.bought),
            }
        })
        .collect()
}

fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

fn rate(x: u64, n: u64, interval: Option<Interval>) -> String {
    match (share(x, n), interval) {
        (Some(p), Some(i)) => format!("{} ({} to {})", percent(p), percent(i.low), percent(i.high)),
        _ => "–".into(),
    }
}

fn points(d: f64) -> String {
    format!("{:+.1}", d * 100.0)
}

fn difference_text(d: Option<(f64, Interval)>) -> String {
    match d {
        Some((d, i)) => format!(
            "{} points (95% CI {} to {}){}",
            points(d),
            points(i.low),
            points(i.high),
            if i.low > 0.0 || i.high < 0.0 {
                ""
            } else {
                ", the interval includes no difference"
            }
        ),
        None => "not measurable yet (a variation has no quotes)".into(),
    }
}

/// The report as text: a line per variation, then each difference from the control.
pub fn table(rows: &[VariationRow]) -> String {
    let mut out = format!(
        "{:<14} {:>7}  {:<30} {:>7}  {}\n",
        "variation", "saw", "moved on (95% CI)", "bought", "conversion (95% CI)"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<14} {:>7}  {:<30} {:>7}  {}\n",
            r.variation,
            r.saw,
            format!(
                "{} {}",
                r.moved_on,
                rate(r.moved_on, r.saw, r.moved_on_interval())
            ),
            r.bought,
            rate(r.bought, r.saw, r.conversion_interval())
        ));
    }
    for d in differences(rows) {
        out.push_str(&format!(
            "\n{} − {}:\n  moved on   {}\n  conversion {}\n",
            d.variation,
            d.control,
            difference_text(d.moved_on),
            difference_text(d.conversion)
        ));
    }
    out
}

/// The counts of one quote as they are read.
#[derive(Default)]
struct Seen {
    variation: Option<String>,
    steps: BTreeSet<String>,
    moved_on: bool,
    bought: bool,
}

impl Store {
    /// The experiment `experiment` (whose variations, control first, are `variations`) over the
    /// quotes `filter` picks, streamed one quote at a time: memory stays one quote's rows.
    pub async fn experiment(
        &self,
        filter: &FunnelFilter,
        experiment: &str,
        variations: &[String],
    ) -> Result<Vec<VariationRow>, StoreError> {
        use futures_util::TryStreamExt as _;
        let (mut conditions, mut binds) = filter.conditions();
        // Only the transitions of pages that showed the experiment, and the moves on from them
        // (a move on carries the page's views too).
        binds.push(format!("%\"{experiment}:%"));
        conditions.push(format!("t.experiment_views like ${}", binds.len()));
        let wanted = conditions.join(" and ");
        // Safe to assemble: fixed column names and placeholders only; every value is bound.
        let sql = format!(
            "select q.id, q.lifecycle, t.from_step, t.outcome, t.experiment_views
             from quotes q join step_transitions t on t.quote_id = q.id
             where {wanted} order by q.id, t.id"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for b in &binds {
            query = query.bind(b);
        }
        let mut rows = query.fetch(&self.pool);
        let mut counts: Vec<VariationRow> = variations
            .iter()
            .map(|v| VariationRow {
                variation: v.clone(),
                saw: 0,
                moved_on: 0,
                bought: 0,
            })
            .collect();
        let mut count = |seen: &Seen| {
            if let Some(row) = seen
                .variation
                .as_ref()
                .and_then(|v| counts.iter_mut().find(|r| &r.variation == v))
            {
                row.saw += 1;
                row.moved_on += u64::from(seen.moved_on);
                row.bought += u64::from(seen.bought);
            }
        };
        let prefix = format!("{experiment}:");
        let mut current: Option<String> = None;
        let mut seen = Seen::default();
        while let Some(r) = rows.try_next().await? {
            let id: String = r.try_get("id")?;
            if current.as_deref() != Some(id.as_str()) {
                if current.is_some() {
                    count(&seen);
                }
                current = Some(id);
                seen = Seen {
                    bought: r.try_get::<String, _>("lifecycle")? == "purchased",
                    ..Seen::default()
                };
            }
            let views: String = r.try_get("experiment_views")?;
            let views: Vec<String> = serde_json::from_str::<Value>(&views)
                .ok()
                .and_then(|v| serde_json::from_value(v).ok())
                .unwrap_or_default();
            let Some(variation) = views.iter().find_map(|v| v.strip_prefix(&prefix)) else {
                continue;
            };
            if seen.variation.is_none() {
                seen.variation = Some(variation.to_owned());
            }
            let step: String = r.try_get("from_step")?;
            seen.steps.insert(step.clone());
            if r.try_get::<String, _>("outcome")? == "moved" && seen.steps.contains(&step) {
                seen.moved_on = true;
            }
        }
        if current.is_some() {
            count(&seen);
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.000_05
    }

    /// Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I:
    /// 81/263 has the score interval 0.2553 to 0.3662; 0/10 has 0 to 0.2775.
    #[test]
    fn wilson_matches_newcombes_published_values() {
        let i = wilson(81, 263).expect("n > 0");
        assert!(close(i.low, 0.2553) && close(i.high, 0.3662), "{i:?}");
        let i = wilson(0, 10).expect("n > 0");
        assert!(close(i.low, 0.0) && close(i.high, 0.2775), "{i:?}");
        assert_eq!(wilson(0, 0), None);
    }

    /// Newcombe (1998), "Interval estimation for the difference between independent
    /// proportions", Table II, method 10: 56/70 − 48/80 is 0.0524 to 0.3339.
    #[test]
    fn newcombe_matches_the_published_difference() {
        let i = newcombe(48, 80, 56, 70).expect("n > 0");
        assert!(close(i.low, 0.0524) && close(i.high, 0.3339), "{i:?}");
    }
}
