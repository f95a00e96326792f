//! A replay as people read it: text for the terminal, and an answer flattened to field and value
//! pairs for the internal page.

use serde_json::Value;

use super::Replay;

/// A replay as text for the terminal (`pawpath replay`): each transition with what was sent, the
/// guards, the field errors as the customer read them, the prices, the page shown and whether
/// running it again agrees with the log. `--json` gives everything, pages included.
pub fn text(replay: &Replay) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Quote {} · brand {} · {} · journey {} · {} · made {}",
        replay.reference,
        replay.brand,
        replay.channel,
        replay.journey,
        replay.lifecycle,
        replay.created_at
    );
    let last = replay.from + replay.steps.len().saturating_sub(1);
    let _ = writeln!(
        out,
        "{} transitions; showing {}–{}; {} of them run again and agree with the log",
        replay.transitions, replay.from, last, replay.reproduced
    );
    if let Some(note) = &replay.note {
        let _ = writeln!(out, "Note: {note}");
    }
    for step in &replay.steps {
        let status = step
            .replay
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or("not_run");
        let _ = writeln!(
            out,
            "\n{:>3}  {}  {}  {} → {}  {}  [{}]  definitions {}",
            step.n,
            step.at,
            step.event,
            step.from,
            step.to,
            step.outcome,
            status,
            step.definition_version
        );
        if let Some(sent) = &step.sent {
            let answers = flatten(sent);
            if !answers.is_empty() {
                let _ = writeln!(out, "     sent:");
                for (field, value) in answers {
                    let _ = writeln!(out, "       {field}: {value}");
                }
            }
        }
        if let Some(views) = step.experiment_views.as_array().filter(|v| !v.is_empty()) {
            let names: Vec<&str> = views.iter().filter_map(Value::as_str).collect();
            let _ = writeln!(out, "     experiments shown: {}", names.join(", "));
        }
        if let Some(guards) = step.guards.as_array().filter(|g| !g.is_empty()) {
            let verdicts: Vec<String> = guards
                .iter()
                .map(|g| {
                    format!(
                        "{} {}",
                        g.get("guard").and_then(Value::as_str).unwrap_or("?"),
                        if g.get("passed").and_then(Value::as_bool) == Some(true) {
                            "held"
                        } else {
                            "failed"
                        }
                    )
                })
                .collect();
            let _ = writeln!(out, "     guards: {}", verdicts.join("; "));
        }
        for message in &step.messages {
            let _ = writeln!(
                out,
                "     field error: {}: {}",
                message.get("field").and_then(Value::as_str).unwrap_or("?"),
                message
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
            );
        }
        if let Some(blocks) = step.blocks.as_array().filter(|b| !b.is_empty()) {
            for block in blocks {
                let _ = writeln!(
                    out,
                    "     blocked: {}",
                    block.get("id").and_then(Value::as_str).unwrap_or("?")
                );
            }
        }
        if let Some(totals) = &step.totals {
            let amount = |name: &str| totals.get(name).and_then(Value::as_str).unwrap_or("?");
            let _ = writeln!(
                out,
                "     prices: £{} a month, £{} a year{}",
                amount("monthly"),
                amount("annual"),
                if step.pricing.is_some() {
                    " (priced again here; --json shows the working)"
                } else {
                    ""
                }
            );
        }
        if let Some(page) = &step.page {
            let size = serde_json::to_vec(page).map_or(0, |b| b.len());
            let _ = writeln!(
                out,
                "     page shown: {} ({} bytes of view data; --json shows it)",
                page.pointer("/step/id")
                    .or_else(|| page.get("step"))
                    .and_then(Value::as_str)
                    .unwrap_or(&step.to),
                size
            );
        }
        if let Some(what) = step.replay.get("what").and_then(Value::as_array) {
            for difference in what.iter().filter_map(Value::as_str) {
                let _ = writeln!(out, "     differs: {difference}");
            }
        }
        if let Some(why) = step.replay.get("why").and_then(Value::as_str) {
            let label = if status == "from_log" {
                "the log's verdict"
            } else {
                "not run again"
            };
            let _ = writeln!(out, "     {label}: {why}");
        }
    }
    out
}

/// Answers as `field: value` lines (`pets[0].pet_name: "Rex"`), in the order sent.
pub fn flatten(value: &Value) -> Vec<(String, String)> {
    fn walk(value: &Value, path: String, out: &mut Vec<(String, String)>) {
        match value {
            Value::Object(map) if !map.is_empty() => {
                for (name, v) in map {
                    let here = if path.is_empty() {
                        name.clone()
                    } else {
                        format!("{path}.{name}")
                    };
                    walk(v, here, out);
                }
            }
            Value::Array(items) if !items.is_empty() => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, format!("{path}[{i}]"), out);
                }
            }
            other => out.push((path, other.to_string())),
        }
    }
    let mut out = Vec::new();
    walk(value, String::new(), &mut out);
    out
}
