//! A generated set as people read it, for the terminal (`pawpath paths`).

use serde_json::Value;

use super::Generated;

/// A generated set as text (`pawpath paths`): each path's calls and where it ends, then the
/// coverage.
pub fn text(generated: &Generated) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for path in &generated.paths {
        let _ = writeln!(
            out,
            "{}  ends {}  (start {})",
            path.id, path.ends, path.start
        );
        for call in &path.calls {
            let _ = writeln!(
                out,
                "    {} {} → {} ({}){}",
                call.call,
                compact(&call.body),
                call.step,
                call.outcome,
                if call.blocks.is_empty() {
                    String::new()
                } else {
                    format!(" blocks {}", call.blocks.join(", "))
                }
            );
        }
    }
    let c = &generated.coverage;
    let _ = writeln!(
        out,
        "\n{} paths for {} on {} ({} quote states explored): steps {}/{}, exits {}/{}, guards both ways {}/{}, blocking rules {}/{}, refusals met {}",
        generated.paths.len(),
        generated.journey,
        generated.brand,
        generated.explored,
        c.steps.0,
        c.steps.1,
        c.exits.0,
        c.exits.1,
        c.guards_both_ways.0,
        c.guards_both_ways.1,
        c.blocking_rules.0,
        c.blocking_rules.1,
        c.refusals
    );
    for missed in &c.missed {
        let _ = writeln!(out, "  not reached: {missed}");
    }
    out
}

/// An answer set on one line, cut short past 100 characters.
fn compact(body: &Value) -> String {
    let text = body.to_string();
    if text.chars().count() > 100 {
        format!("{}…", text.chars().take(100).collect::<String>())
    } else {
        text
    }
}
