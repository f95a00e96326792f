//! The analysts' funnel (issue 8, `pawpath report funnel` and the internal funnel page): over the
//! recorded step transitions of the quotes started in a period, per step of a journey, how many
//! quotes entered it, moved on from it, were blocked on it and were left on it, the median time
//! spent on it before moving on, and its commonest field errors. Printed as a table, written as
//! CSV and drawn as an SVG chart.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use engine::checks::graph::xml;
use serde_json::Value;
use sqlx::Row;

use engine::journey::runtime::Lifecycle;

use crate::store::db::Store;
use crate::store::error::StoreError;

/// Which quotes a funnel counts: those of one journey started in a period, optionally of one
/// brand and channel. Days are UK days.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FunnelFilter {
    pub journey: String,
    pub brand: Option<String>,
    pub channel: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

impl FunnelFilter {
    /// The quotes (`q`) this filter picks, as SQL conditions on placeholders `$1…` and the
    /// values to bind to them, in order. Fixed column names only: every value is bound.
    pub fn conditions(&self) -> (Vec<String>, Vec<String>) {
        let mut conditions = vec!["q.journey = $1".to_owned()];
        let mut binds = vec![self.journey.clone()];
        let (from, to) = self.bounds();
        for (column, op, value) in [
            ("brand", "=", self.brand.clone()),
            ("channel", "=", self.channel.clone()),
            ("created_at", ">=", from),
            ("created_at", "<", to),
        ] {
            if let Some(v) = value {
                binds.push(v);
                conditions.push(format!("q.{column} {op} ${}", binds.len()));
            }
        }
        (conditions, binds)
    }

    /// The period as stored timestamps (RFC 3339, UTC): from the start of `from`'s UK day, to
    /// the start of the UK day after `to`.
    pub fn bounds(&self) -> (Option<String>, Option<String>) {
        let start_of = |d: NaiveDate| -> Option<String> {
            let local = chrono_tz::Europe::London
                .from_local_datetime(&d.and_hms_opt(0, 0, 0)?)
                .earliest()?;
            Some(
                local
                    .with_timezone(&Utc)
                    .to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            )
        };
        (
            self.from.and_then(start_of),
            self.to.and_then(|d| d.succ_opt()).and_then(start_of),
        )
    }
}

/// A journey's steps in the funnel's order (the diagram's: by distance from the start) and its
/// terminal steps.
pub fn journey_steps(
    defs: &engine::Definitions,
    journey: &engine::definitions::Journey,
) -> (Vec<String>, BTreeSet<String>) {
    let graph = engine::checks::graph::graph(defs, journey);
    let steps = graph.rows.iter().flatten().map(|n| n.id.clone()).collect();
    let terminal = journey
        .steps
        .iter()
        .filter(|s| s.terminal)
        .map(|s| s.id.clone())
        .collect();
    (steps, terminal)
}

/// A quote as the funnel needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunnelQuote {
    pub id: String,
    pub created_at: String,
    pub purchased: bool,
}

/// A recorded transition as the funnel needs it (one quote's in the order they happened).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunnelTransition {
    pub quote_id: String,
    pub created_at: String,
    pub from_step: String,
    pub to_step: String,
    pub outcome: String,
    /// `[{field, key, params}]`, as stored.
    pub field_errors: Value,
}

/// One step's line of the funnel.
#[derive(Debug, Clone, PartialEq)]
pub struct FunnelRow {
    pub step: String,
    pub entered: usize,
    pub moved_on: usize,
    pub blocked: usize,
    pub abandoned: usize,
    /// Median seconds from arriving on the step to moving on from it.
    pub median_seconds: Option<f64>,
    /// The commonest field errors: "field: copy key" and how often, most first (at most 3).
    pub top_errors: Vec<(String, usize)>,
}

fn parse(at: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(at)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// The funnel over `steps` (the journey's steps in order, `start` first), where `terminal`
/// steps end a journey: a quote resting on one is done, not abandoned. `transitions` are grouped
/// by quote, each quote's in the order they happened.
pub fn funnel(
    steps: &[String],
    start: &str,
    terminal: &BTreeSet<String>,
    quotes: &[FunnelQuote],
    transitions: &[FunnelTransition],
) -> Vec<FunnelRow> {
    let mut by_quote: BTreeMap<&str, Vec<&FunnelTransition>> = BTreeMap::new();
    for t in transitions {
        by_quote.entry(t.quote_id.as_str()).or_default().push(t);
    }
    let mut counter = Funnel::new(steps, start, terminal);
    for quote in quotes {
        counter.add(
            quote,
            by_quote
                .get(quote.id.as_str())
                .into_iter()
                .flatten()
                .copied(),
        );
    }
    counter.rows()
}

/// One step's counts so far.
#[derive(Default)]
struct Tally {
    entered: usize,
    moved_on: usize,
    blocked: usize,
    abandoned: usize,
    durations: Vec<f64>,
    errors: HashMap<String, usize>,
}

/// The funnel counted one quote at a time, so a report over millions of transitions holds one
/// quote's transitions and a few numbers per step, never the whole period (Store::funnel streams
/// into it). Steps are numbered as first seen: the journey's own, then any a transition names
/// that the journey no longer has (counted, not shown).
pub struct Funnel<'a> {
    steps: &'a [String],
    start: usize,
    terminal: Vec<bool>,
    terminal_names: &'a BTreeSet<String>,
    slots: HashMap<String, usize>,
    tallies: Vec<Tally>,
}

impl<'a> Funnel<'a> {
    pub fn new(steps: &'a [String], start: &str, terminal: &'a BTreeSet<String>) -> Self {
        let mut funnel = Funnel {
            steps,
            start: 0,
            terminal: Vec::new(),
            terminal_names: terminal,
            slots: HashMap::new(),
            tallies: Vec::new(),
        };
        for step in steps {
            funnel.slot(step);
        }
        funnel.start = funnel.slot(start);
        funnel
    }

    fn slot(&mut self, step: &str) -> usize {
        if let Some(&i) = self.slots.get(step) {
            return i;
        }
        let i = self.tallies.len();
        self.slots.insert(step.to_owned(), i);
        self.tallies.push(Tally::default());
        self.terminal.push(self.terminal_names.contains(step));
        i
    }

    /// Counts one quote and its transitions, in the order they happened.
    pub fn add<'t>(
        &mut self,
        quote: &FunnelQuote,
        transitions: impl IntoIterator<Item = &'t FunnelTransition>,
    ) {
        // What this quote did, as step numbers: each set is a handful long.
        let mut entered: Vec<usize> = vec![self.start];
        let mut moved: Vec<usize> = Vec::new();
        let mut blocked: Vec<usize> = Vec::new();
        let mut arrived: Vec<(usize, &str)> = vec![(self.start, quote.created_at.as_str())];
        let add_to = |set: &mut Vec<usize>, step: usize| {
            if !set.contains(&step) {
                set.push(step);
            }
        };
        let mut last = self.start;
        for t in transitions {
            let from = self.slot(&t.from_step);
            // A page with nothing to submit (the review) is left by opening the next page, which
            // records no transition: the next step's first transition shows the move.
            if from != last && !entered.contains(&from) {
                add_to(&mut moved, last);
                entered.push(from);
            }
            let to = self.slot(&t.to_step);
            match t.outcome.as_str() {
                "invalid" => {
                    let errors = &mut self.tallies[from].errors;
                    for e in t.field_errors.as_array().into_iter().flatten() {
                        let field = e.get("field").and_then(Value::as_str).unwrap_or("?");
                        let key = e.get("key").and_then(Value::as_str).unwrap_or("?");
                        *errors.entry(format!("{field}: {key}")).or_default() += 1;
                    }
                }
                "blocked" => add_to(&mut blocked, from),
                "moved" if to != from => {
                    add_to(&mut moved, from);
                    let since = arrived.iter().rev().find(|(s, _)| *s == from);
                    if let (Some(a), Some(b)) =
                        (since.and_then(|(_, a)| parse(a)), parse(&t.created_at))
                    {
                        let seconds = (b - a).num_milliseconds() as f64 / 1000.0;
                        self.tallies[from].durations.push(seconds.max(0.0));
                    }
                    add_to(&mut entered, to);
                    arrived.push((to, t.created_at.as_str()));
                }
                _ => {}
            }
            last = to;
        }
        for s in entered {
            self.tallies[s].entered += 1;
        }
        for s in moved {
            self.tallies[s].moved_on += 1;
        }
        for s in blocked {
            self.tallies[s].blocked += 1;
        }
        if !quote.purchased && !self.terminal[last] {
            self.tallies[last].abandoned += 1;
        }
    }

    /// One line per step of the journey, in its order.
    pub fn rows(mut self) -> Vec<FunnelRow> {
        self.steps
            .iter()
            .map(|step| {
                let tally = &mut self.tallies[self.slots[step.as_str()]];
                let d = &mut tally.durations;
                let median_seconds = (!d.is_empty()).then(|| {
                    d.sort_unstable_by(f64::total_cmp);
                    let n = d.len();
                    if n % 2 == 1 {
                        d[n / 2]
                    } else {
                        (d[n / 2 - 1] + d[n / 2]) / 2.0
                    }
                });
                let mut top: Vec<(String, usize)> =
                    tally.errors.iter().map(|(k, v)| (k.clone(), *v)).collect();
                top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                top.truncate(3);
                FunnelRow {
                    step: step.clone(),
                    entered: tally.entered,
                    moved_on: tally.moved_on,
                    blocked: tally.blocked,
                    abandoned: tally.abandoned,
                    median_seconds,
                    top_errors: top,
                }
            })
            .collect()
    }
}

/// "45s", "3m 20s", "1h 02m".
pub fn duration_text(seconds: Option<f64>) -> String {
    let Some(s) = seconds else {
        return "–".into();
    };
    let s = s.round() as i64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
    }
}

fn errors_text(row: &FunnelRow) -> String {
    row.top_errors
        .iter()
        .map(|(e, n)| format!("{e} ({n})"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A plain-text table.
pub fn table(rows: &[FunnelRow]) -> String {
    let header = [
        "Step",
        "Entered",
        "Moved on",
        "Blocked",
        "Abandoned",
        "Median time",
        "Commonest field errors",
    ];
    let lines: Vec<[String; 7]> = rows
        .iter()
        .map(|r| {
            [
                r.step.clone(),
                r.entered.to_string(),
                r.moved_on.to_string(),
                r.blocked.to_string(),
                r.abandoned.to_string(),
                duration_text(r.median_seconds),
                errors_text(r),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for l in &lines {
        for (w, cell) in widths.iter_mut().zip(l) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let row = |cells: Vec<&str>, out: &mut String| {
        let text: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                if (1..=4).contains(&i) {
                    format!("{c:>w$}")
                } else {
                    format!("{c:<w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", text.join("  ").trim_end());
    };
    row(header.to_vec(), &mut out);
    row(
        widths
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str)
            .collect(),
        &mut out,
    );
    for l in &lines {
        row(l.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

/// CSV (RFC 4180): a header, then one line per step; the median in whole seconds.
pub fn csv(rows: &[FunnelRow]) -> String {
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_owned()
        }
    };
    let mut out = String::from(
        "step,entered,moved_on,blocked,abandoned,median_seconds,commonest_field_errors\r\n",
    );
    for r in rows {
        let _ = write!(
            out,
            "{},{},{},{},{},{},{}\r\n",
            quote(&r.step),
            r.entered,
            r.moved_on,
            r.blocked,
            r.abandoned,
            r.median_seconds
                .map_or(String::new(), |s| format!("{s:.0}")),
            quote(&errors_text(r))
        );
    }
    out
}

/// A funnel chart: one bar per step as wide as the quotes that entered it, the part that moved
/// on darker, with the counts written beside it. Self-contained, no script.
pub fn svg(title: &str, rows: &[FunnelRow]) -> String {
    const LEFT: f64 = 190.0;
    const BAR: f64 = 460.0;
    const ROW: f64 = 44.0;
    let most = rows.iter().map(|r| r.entered).max().unwrap_or(0).max(1) as f64;
    let height = 70.0 + ROW * rows.len() as f64 + 40.0;
    let width = LEFT + BAR + 260.0;
    // The title's id from the title itself, so that several charts can share a page.
    let id: String = std::iter::once("funnel-".to_owned())
        .chain(title.chars().map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase().to_string()
            } else {
                "-".to_owned()
            }
        }))
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" aria-labelledby=\"{id}\" font-family=\"system-ui, sans-serif\" font-size=\"13\">"
    );
    let _ = writeln!(
        out,
        "<title id=\"{id}\">{}</title><rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
        xml(title)
    );
    let _ = writeln!(
        out,
        "<text x=\"20\" y=\"30\" font-size=\"16\" font-weight=\"700\" fill=\"#1b1f24\">{}</text>",
        xml(title)
    );
    for (i, r) in rows.iter().enumerate() {
        let y = 56.0 + ROW * i as f64;
        let w_in = BAR * r.entered as f64 / most;
        let w_on = BAR * r.moved_on as f64 / most;
        let x_in = LEFT + (BAR - w_in) / 2.0;
        let x_on = LEFT + (BAR - w_on) / 2.0;
        let _ = writeln!(
            out,
            "<text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#1b1f24\">{}</text>",
            LEFT - 12.0,
            y + 19.0,
            xml(&r.step)
        );
        let _ = writeln!(
            out,
            "<rect x=\"{x_in:.1}\" y=\"{y:.1}\" width=\"{w_in:.1}\" height=\"28\" rx=\"3\" fill=\"#cfe2f3\"/><rect x=\"{x_on:.1}\" y=\"{:.1}\" width=\"{w_on:.1}\" height=\"20\" rx=\"3\" fill=\"#0b5c8a\"/>",
            y + 4.0
        );
        let _ = writeln!(
            out,
            "<text x=\"{:.0}\" y=\"{:.1}\" fill=\"#1b1f24\">{} entered, {} moved on, {} left{}</text>",
            LEFT + BAR + 12.0,
            y + 19.0,
            r.entered,
            r.moved_on,
            r.abandoned,
            if r.blocked > 0 {
                format!(", {} blocked", r.blocked)
            } else {
                String::new()
            }
        );
    }
    let ly = 56.0 + ROW * rows.len() as f64 + 10.0;
    let _ = writeln!(
        out,
        "<rect x=\"{LEFT}\" y=\"{ly:.0}\" width=\"14\" height=\"14\" fill=\"#cfe2f3\"/><text x=\"{:.0}\" y=\"{:.0}\" fill=\"#1b1f24\">entered</text><rect x=\"{:.0}\" y=\"{ly:.0}\" width=\"14\" height=\"14\" fill=\"#0b5c8a\"/><text x=\"{:.0}\" y=\"{:.0}\" fill=\"#1b1f24\">moved on</text>",
        LEFT + 20.0,
        ly + 12.0,
        LEFT + 100.0,
        LEFT + 120.0,
        ly + 12.0
    );
    out.push_str("</svg>\n");
    out
}

impl Store {
    /// Counts into `funnel` (crate::store::report) the quotes of one journey started in the period
    /// (optionally of one brand and channel) with their transitions, streamed one quote at a
    /// time in one ordered query: memory stays a quote's transitions however long the period.
    /// Field errors are read only from the transitions that have them.
    pub async fn funnel(
        &self,
        filter: &crate::store::report::FunnelFilter,
        funnel: &mut crate::store::report::Funnel<'_>,
    ) -> Result<(), StoreError> {
        use futures_util::TryStreamExt as _;
        let (conditions, binds) = filter.conditions();
        let wanted = conditions.join(" and ");
        // Safe to assemble: fixed column names and placeholders only; every value is bound.
        let sql = format!(
            "select q.id, q.created_at as started_at, q.lifecycle, t.created_at, t.from_step,
                    t.to_step, t.outcome,
                    case when t.outcome = 'invalid' then t.field_errors end as field_errors
             from quotes q left join step_transitions t on t.quote_id = q.id
             where {wanted} order by q.id, t.id"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for b in &binds {
            query = query.bind(b);
        }
        let mut rows = query.fetch(&self.pool);
        let mut quote: Option<crate::store::report::FunnelQuote> = None;
        let mut transitions: Vec<crate::store::report::FunnelTransition> = Vec::new();
        while let Some(r) = rows.try_next().await? {
            let id: String = r.try_get("id")?;
            if quote.as_ref().is_none_or(|q| q.id != id) {
                if let Some(done) = quote.take() {
                    funnel.add(&done, &transitions);
                }
                transitions.clear();
                quote = Some(crate::store::report::FunnelQuote {
                    created_at: r.try_get("started_at")?,
                    purchased: r.try_get::<String, _>("lifecycle")?
                        == Lifecycle::Purchased.as_str(),
                    id,
                });
            }
            // A quote with no transitions comes as one row of nulls after its own columns.
            let Some(from_step) = r.try_get::<Option<String>, _>("from_step")? else {
                continue;
            };
            let errors: Option<String> = r.try_get("field_errors")?;
            transitions.push(crate::store::report::FunnelTransition {
                quote_id: String::new(),
                created_at: r.try_get("created_at")?,
                from_step,
                to_step: r.try_get("to_step")?,
                outcome: r.try_get("outcome")?,
                field_errors: errors
                    .and_then(|e| serde_json::from_str::<Value>(&e).ok())
                    .unwrap_or(Value::Null),
            });
        }
        if let Some(done) = quote {
            funnel.add(&done, &transitions);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn t(
        quote: &str,
        at: &str,
        from: &str,
        to: &str,
        outcome: &str,
        errors: Value,
    ) -> FunnelTransition {
        FunnelTransition {
            quote_id: quote.into(),
            created_at: at.into(),
            from_step: from.into(),
            to_step: to.into(),
            outcome: outcome.into(),
            field_errors: errors,
        }
    }

    fn q(id: &str, at: &str, purchased: bool) -> FunnelQuote {
        FunnelQuote {
            id: id.into(),
            created_at: at.into(),
            purchased,
        }
    }

    #[test]
    fn counts_entered_moved_blocked_abandoned_times_and_errors() {
        let steps: Vec<String> = ["pets", "owner", "done"].map(String::from).to_vec();
        let terminal = BTreeSet::from(["done".to_owned()]);
        let quotes = [
            q("a", "2026-11-01T10:00:00.000000Z", true),
            q("b", "2026-11-01T10:00:00.000000Z", false),
            q("c", "2026-11-01T10:00:00.000000Z", false),
        ];
        let err = json!([{ "field": "pets[0].pet_name", "key": "error.required", "params": {} }]);
        let transitions = [
            t(
                "a",
                "2026-11-01T10:01:00.000000Z",
                "pets",
                "owner",
                "moved",
                json!([]),
            ),
            t(
                "a",
                "2026-11-01T10:03:00.000000Z",
                "owner",
                "done",
                "moved",
                json!([]),
            ),
            t(
                "b",
                "2026-11-01T10:00:30.000000Z",
                "pets",
                "pets",
                "invalid",
                err.clone(),
            ),
            t(
                "b",
                "2026-11-01T10:02:00.000000Z",
                "pets",
                "owner",
                "moved",
                json!([]),
            ),
            t(
                "b",
                "2026-11-01T10:04:00.000000Z",
                "owner",
                "owner",
                "blocked",
                json!([]),
            ),
            t(
                "c",
                "2026-11-01T10:00:40.000000Z",
                "pets",
                "pets",
                "invalid",
                err,
            ),
        ];
        let rows = funnel(&steps, "pets", &terminal, &quotes, &transitions);
        assert_eq!(
            (rows[0].entered, rows[0].moved_on, rows[0].abandoned),
            (3, 2, 1)
        );
        assert_eq!(rows[0].median_seconds, Some(90.0), "60 s and 120 s");
        assert_eq!(
            rows[0].top_errors,
            vec![("pets[0].pet_name: error.required".to_owned(), 2)]
        );
        assert_eq!(
            (
                rows[1].entered,
                rows[1].moved_on,
                rows[1].blocked,
                rows[1].abandoned
            ),
            (2, 1, 1, 1)
        );
        assert_eq!(rows[1].median_seconds, Some(120.0));
        assert_eq!(
            (rows[2].entered, rows[2].abandoned),
            (1, 0),
            "done is not abandoned"
        );
        assert!(table(&rows).contains("pets[0].pet_name: error.required (2)"));
        assert!(csv(&rows).starts_with("step,entered,moved_on,blocked,abandoned,median_seconds,commonest_field_errors\r\npets,3,2,0,1,90,"));
        let chart = svg("direct", &rows);
        assert!(chart.contains("3 entered, 2 moved on, 1 left") && chart.ends_with("</svg>\n"));
    }

    #[test]
    fn a_page_left_without_a_transition_counts_as_moved_on() {
        let steps: Vec<String> = ["a", "view", "b", "end"].map(String::from).to_vec();
        let terminal = BTreeSet::from(["end".to_owned()]);
        let quotes = [q("d", "2026-11-01T10:00:00.000000Z", true)];
        let transitions = [
            t(
                "d",
                "2026-11-01T10:01:00.000000Z",
                "a",
                "view",
                "moved",
                json!([]),
            ),
            t(
                "d",
                "2026-11-01T10:05:00.000000Z",
                "b",
                "end",
                "moved",
                json!([]),
            ),
        ];
        let rows = funnel(&steps, "a", &terminal, &quotes, &transitions);
        let counts: Vec<(usize, usize)> = rows.iter().map(|r| (r.entered, r.moved_on)).collect();
        assert_eq!(counts, vec![(1, 1), (1, 1), (1, 1), (1, 0)]);
        assert_eq!(
            rows[1].median_seconds, None,
            "no time without the moment it was left"
        );
    }

    #[test]
    fn periods_are_uk_days() {
        let f = FunnelFilter {
            journey: "direct".into(),
            from: NaiveDate::from_ymd_opt(2026, 7, 1),
            to: NaiveDate::from_ymd_opt(2026, 7, 31),
            ..FunnelFilter::default()
        };
        assert_eq!(
            f.bounds(),
            (
                Some("2026-06-30T23:00:00.000000Z".into()),
                Some("2026-07-31T23:00:00.000000Z".into())
            )
        );
        assert_eq!(duration_text(Some(200.0)), "3m 20s");
        assert_eq!(duration_text(None), "–");
    }
}
