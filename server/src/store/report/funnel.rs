//! The funnel counted: which quotes it takes, and per step how many entered, moved on, were
//! blocked and were left, the median time spent and the commonest field errors.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use serde_json::Value;

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
        .map(|s| s.id.to_string())
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
