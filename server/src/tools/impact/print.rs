//! The impact report as text, for the command line.

use std::fmt::Write as _;

use super::Report;
use super::quotes::{Count, Spread};

fn spread(s: &Spread) -> String {
    format!(
        "{:>6} prices, {:>6} changed   p10 {:>+7}%  median {:>+7}%  p90 {:>+7}%  max {:>+7}%",
        s.prices, s.changed, s.p10, s.median, s.p90, s.max
    )
}

fn count(out: &mut String, name: &str, c: &Count) {
    let _ = writeln!(out, "  {name}: {}", c.quotes);
    for e in &c.examples {
        let _ = writeln!(out, "    {}  {}  ({})", e.reference, e.what, e.replay);
    }
}

/// The report as a person reads it.
pub fn text(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Impact of {} → {}", r.from.source, r.to.source);
    let _ = writeln!(out, "  versions {} → {}", r.from.version, r.to.version);

    let d = &r.definitions;
    let _ = writeln!(
        out,
        "\nWhat changed in the definitions: {} changes",
        d.changes
    );
    for (area, n) in &d.by_area {
        let _ = writeln!(out, "  {area}: {n}");
    }
    for c in &d.listed {
        let _ = write!(out, "  {:<7} {}#{}", c.kind, c.file, c.pointer);
        match (&c.before, &c.after) {
            (Some(b), Some(a)) => {
                let _ = write!(out, "  {b} → {a}");
            }
            (None, Some(a)) => {
                let _ = write!(out, "  {a}");
            }
            (Some(b), None) => {
                let _ = write!(out, "  was {b}");
            }
            (None, None) => {}
        }
        out.push('\n');
    }
    if d.listed.len() < d.changes {
        let _ = writeln!(out, "  … and {} more", d.changes - d.listed.len());
    }

    let j = &r.journeys;
    let _ = writeln!(out, "\nWhat it does to journeys (generated paths)");
    if let Some(why) = &j.not_generated {
        let _ = writeln!(out, "  not generated: {why}");
    } else {
        for (journey, n) in &j.paths_before {
            let after = j.paths_after.get(journey).copied().unwrap_or(0);
            let _ = writeln!(out, "  {journey}: {n} paths before, {after} after");
        }
        let _ = writeln!(
            out,
            "  new {}, gone {}, ending differently {} (now blocked {}, no longer blocked {})",
            j.new.count, j.gone.count, j.changed.count, j.now_blocked, j.no_longer_blocked
        );
        for c in &j.changed.listed {
            let _ = writeln!(out, "    {}: {} → {}", c.id, c.before, c.after);
        }
        for (name, list) in [("new", &j.new), ("gone", &j.gone)] {
            for p in &list.listed {
                let _ = writeln!(out, "    {name} {}: ends {}", p.id, p.ends);
            }
        }
    }

    let q = &r.quotes;
    let _ = writeln!(
        out,
        "\nWhat it does to real quotes (made since {}): {} sampled, {} run again on both",
        r.since, q.sampled, q.run
    );
    for (why, n) in &q.not_run {
        let _ = writeln!(out, "  not run ({n}): {why}");
    }
    count(
        &mut out,
        "would land on a different step",
        &q.different_step,
    );
    count(&mut out, "newly blocked", &q.newly_blocked);
    count(&mut out, "no longer blocked", &q.no_longer_blocked);
    count(
        &mut out,
        "an event answered differently",
        &q.different_outcomes,
    );
    let _ = writeln!(out, "  priced on both: {}", q.priced);
    count(&mut out, "priced differently", &q.priced_differently);
    let _ = writeln!(
        out,
        "  products no longer offered {}, newly offered {}",
        q.no_longer_offered, q.newly_offered
    );
    let _ = writeln!(out, "\n  Price changes, monthly premium (% of before)");
    let _ = writeln!(out, "  {:<24}{}", "all", spread(&q.prices));
    for (dimension, groups) in &q.by {
        let _ = writeln!(out, "  by {dimension}");
        for g in groups {
            let _ = writeln!(out, "    {:<22}{}", g.value, spread(&g.spread));
        }
    }
    if !q.largest_rises.is_empty() {
        let _ = writeln!(out, "\n  Largest rises");
        for x in &q.largest_rises {
            let _ = writeln!(
                out,
                "    {:>+7}%  {} pet {} {}: £{} → £{} a month  ({})",
                x.change, x.reference, x.pet, x.product, x.before, x.after, x.replay
            );
        }
    }
    let t = &r.took_ms;
    let _ = writeln!(
        out,
        "\nTook {} ms: definitions {} ms, paths {} ms, quotes {} ms",
        t.definitions + t.journeys + t.quotes,
        t.definitions,
        t.journeys,
        t.quotes
    );
    out
}
