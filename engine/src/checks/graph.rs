//! A journey drawn as a diagram (`pawpath graph`): its steps with their paths, the
//! guards a step requires, its rules, blocking rules and the answers its questions refuse, and
//! its exits with the guard each is taken on. Written as Mermaid text (for documentation) and as
//! a self-contained SVG (no script, no outside reference).

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;

use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::{Journey, Step};

/// One step as the diagram shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub id: String,
    pub path: String,
    pub terminal: bool,
    /// Lines under the step's name: what it requires, its rules, what blocks it.
    pub notes: Vec<String>,
}

/// One exit: from a step to another, on a guard or otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub label: String,
}

/// A journey's diagram: its nodes in rows (each step in the row of its shortest distance from
/// the start; steps no exit reaches last) and its edges.
#[derive(Debug, Clone)]
pub struct Graph {
    pub journey: String,
    pub rows: Vec<Vec<Node>>,
    pub edges: Vec<Edge>,
}

/// The answers a question set refuses, with the message key each shows: `pets[].idd = "no"`.
pub fn refused_answers(schema: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    refusals(schema, "", &mut out);
    out
}

fn refusals(schema: &Value, at: &str, out: &mut Vec<(String, String, String)>) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let (Some(not), Some(key)) = (
        object.get("not"),
        schema.pointer("/x-errors/not").and_then(Value::as_str),
    ) {
        let refused = not.get("const").map(|v| v.to_string()).or_else(|| {
            not.get("enum").and_then(Value::as_array).map(|vs| {
                vs.iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join(" or ")
            })
        });
        // A refused choice; a `not` on a pattern (a negative amount) is validation, not an
        // answer that blocks.
        if let Some(refused) = refused {
            let entry = (at.to_owned(), refused, key.to_owned());
            if !out.contains(&entry) {
                out.push(entry);
            }
        }
    }
    if let Some(props) = object.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            let next = if at.is_empty() {
                name.clone()
            } else {
                format!("{at}.{name}")
            };
            refusals(sub, &next, out);
        }
    }
    if let Some(items) = object.get("items") {
        refusals(items, &format!("{at}[]"), out);
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(list) = object.get(keyword).and_then(Value::as_array) {
            for sub in list {
                refusals(sub, at, out);
            }
        }
    }
    for keyword in ["then", "else"] {
        if let Some(sub) = object.get(keyword) {
            refusals(sub, at, out);
        }
    }
}

fn node(defs: &Definitions, journey: &Journey, step: &Step) -> Node {
    let mut notes = Vec::new();
    if let Some(q) = &step.questions {
        notes.push(format!("asks: {q}"));
    }
    if !step.requires.is_empty() {
        notes.push(format!("requires: {}", step.requires.join(", ")));
    }
    if let Some(done) = &step.complete_when {
        notes.push(format!("complete when: {done}"));
    }
    if !step.rules.is_empty() {
        notes.push(format!("rules: {}", step.rules.join(", ")));
    }
    for b in &step.blocking {
        notes.push(format!("blocks ({}) when {}", b.id, b.when));
    }
    if let Some(schema) = step
        .questions
        .as_deref()
        .and_then(|q| defs.question_schema(q))
    {
        for (field, value, _) in refused_answers(&schema.schema) {
            notes.push(format!("refuses {field} = {value}"));
        }
    }
    Node {
        id: step.id.to_string(),
        path: format!("{}{}", journey.base_path, step.path),
        terminal: step.terminal,
        notes,
    }
}

/// The diagram of `journey`.
pub fn graph(defs: &Definitions, journey: &Journey) -> Graph {
    // Rows: breadth first from the start.
    let mut rank: BTreeMap<&str, usize> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    let mut queue = VecDeque::from([(journey.start.as_str(), 0usize)]);
    while let Some((id, r)) = queue.pop_front() {
        if rank.contains_key(id) {
            continue;
        }
        rank.insert(id, r);
        order.push(id);
        if let Some(step) = journey.step(id) {
            for exit in &step.exits {
                queue.push_back((exit.to.as_str(), r + 1));
            }
        }
    }
    let unreached = rank.values().max().map_or(0, |m| m + 1);
    for step in &journey.steps {
        if !rank.contains_key(step.id.as_str()) {
            rank.insert(&step.id, unreached);
            order.push(&step.id);
        }
    }
    let rows_count = rank.values().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<Node>> = vec![Vec::new(); rows_count];
    for id in order {
        if let Some(step) = journey.step(id) {
            rows[rank[id]].push(node(defs, journey, step));
        }
    }
    let edges = journey
        .steps
        .iter()
        .flat_map(|step| {
            step.exits.iter().map(move |exit| Edge {
                from: step.id.to_string(),
                to: exit.to.to_string(),
                label: exit
                    .when
                    .as_ref()
                    .map_or_else(|| "otherwise".to_owned(), |g| format!("when {g}")),
            })
        })
        .collect();
    Graph {
        journey: journey.id.clone(),
        rows,
        edges,
    }
}

fn mermaid_text(s: &str) -> String {
    s.replace('"', "#quot;")
        .replace('<', "#lt;")
        .replace('>', "#gt;")
}

impl Graph {
    /// Mermaid flowchart text.
    pub fn mermaid(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "---\ntitle: {} journey\n---", self.journey);
        out.push_str("flowchart TD\n");
        for node in self.rows.iter().flatten() {
            let mut label = format!("<b>{}</b><br/>{}", node.id, mermaid_text(&node.path));
            for note in &node.notes {
                let _ = write!(label, "<br/><small>{}</small>", mermaid_text(note));
            }
            let (open, close) = if node.terminal {
                ("([", "])")
            } else {
                ("[", "]")
            };
            let _ = writeln!(out, "    {}{open}\"{label}\"{close}", node.id);
        }
        for edge in &self.edges {
            let _ = writeln!(
                out,
                "    {} -- \"{}\" --> {}",
                edge.from,
                mermaid_text(&edge.label),
                edge.to
            );
        }
        out
    }

    /// A self-contained SVG: one row per distance from the start, exits as arrows labelled with
    /// their guards (arrows back up the journey run down the right-hand side).
    pub fn svg(&self) -> String {
        const WIDTH: f64 = 300.0;
        const GAP_X: f64 = 100.0;
        const GAP_Y: f64 = 80.0;
        const LINE: f64 = 15.0;
        const MARGIN: f64 = 30.0;
        let lines_of =
            |n: &Node| -> Vec<String> { n.notes.iter().flat_map(|t| wrap(t, 44)).collect() };
        let height_of = |n: &Node| 44.0 + LINE * lines_of(n).len() as f64;
        let widest = self.rows.iter().map(Vec::len).max().unwrap_or(1).max(1) as f64;
        let canvas_w = MARGIN * 2.0 + widest * WIDTH + (widest - 1.0) * GAP_X + 220.0;
        // Each node's box: x, y, height.
        let mut boxes: BTreeMap<&str, (f64, f64, f64)> = BTreeMap::new();
        let mut y = MARGIN + 30.0;
        for row in &self.rows {
            let n = row.len() as f64;
            let row_w = n * WIDTH + (n - 1.0).max(0.0) * GAP_X;
            let mut x = MARGIN + (widest * WIDTH + (widest - 1.0) * GAP_X - row_w) / 2.0;
            let tallest = row.iter().map(height_of).fold(0.0, f64::max);
            for node in row {
                boxes.insert(&node.id, (x, y, height_of(node)));
                x += WIDTH + GAP_X;
            }
            y += tallest + GAP_Y;
        }
        let canvas_h = y - GAP_Y + MARGIN;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{canvas_w:.0}\" height=\"{canvas_h:.0}\" viewBox=\"0 0 {canvas_w:.0} {canvas_h:.0}\" role=\"img\" aria-labelledby=\"title\" font-family=\"system-ui, sans-serif\" font-size=\"12\">"
        );
        let _ = writeln!(
            out,
            "<title id=\"title\">The {} journey: its steps, exits and guards</title>",
            xml(&self.journey)
        );
        out.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1b1f24\"/></marker></defs>\n");
        let _ = writeln!(
            out,
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/><text x=\"{MARGIN}\" y=\"{}\" font-size=\"16\" font-weight=\"700\" fill=\"#1b1f24\">{} journey</text>",
            MARGIN + 4.0,
            xml(&self.journey)
        );
        // Edges first, under the boxes.
        let mut back = 0.0;
        for edge in &self.edges {
            let (Some(&(fx, fy, fh)), Some(&(tx, ty, th))) =
                (boxes.get(edge.from.as_str()), boxes.get(edge.to.as_str()))
            else {
                continue;
            };
            let (path, lx, ly) = if (ty - fy).abs() < f64::EPSILON && (tx - fx).abs() > f64::EPSILON
            {
                // Across a row: side to facing side.
                let (x1, x2) = if tx > fx {
                    (fx + WIDTH, tx)
                } else {
                    (fx, tx + WIDTH)
                };
                let y1 = fy + fh.min(th) / 2.0;
                (
                    format!("M{x1:.1},{y1:.1} L{x2:.1},{y1:.1}"),
                    (x1 + x2) / 2.0,
                    y1 - 14.0,
                )
            } else if ty > fy {
                let (x1, y1) = (fx + WIDTH / 2.0, fy + fh);
                let (x2, y2) = (tx + WIDTH / 2.0, ty);
                let mid = (y1 + y2) / 2.0;
                (
                    format!("M{x1:.1},{y1:.1} C{x1:.1},{mid:.1} {x2:.1},{mid:.1} {x2:.1},{y2:.1}"),
                    (x1 + x2) / 2.0,
                    mid,
                )
            } else {
                // Back up (or across) the journey: round the right-hand side.
                back += 14.0;
                let side = MARGIN + widest * WIDTH + (widest - 1.0) * GAP_X + 40.0 + back;
                let (x1, y1) = (fx + WIDTH, fy + fh / 2.0);
                let (x2, y2) = (tx + WIDTH, ty + th / 2.0);
                (
                    format!(
                        "M{x1:.1},{y1:.1} L{side:.1},{y1:.1} L{side:.1},{y2:.1} L{x2:.1},{y2:.1}"
                    ),
                    side,
                    (y1 + y2) / 2.0,
                )
            };
            let _ = writeln!(
                out,
                "<path d=\"{path}\" fill=\"none\" stroke=\"#1b1f24\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>"
            );
            let label = xml(&edge.label);
            let w = 6.5 * edge.label.chars().count() as f64 + 10.0;
            let _ = writeln!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"18\" rx=\"4\" fill=\"#fff7e0\" stroke=\"#b38600\"/><text x=\"{lx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#1b1f24\">{label}</text>",
                lx - w / 2.0,
                ly - 9.0,
                ly + 4.0
            );
        }
        for node in self.rows.iter().flatten() {
            let (x, y, h) = boxes[node.id.as_str()];
            let (fill, stroke) = if node.terminal {
                ("#e6f4ea", "#1e7e34")
            } else {
                ("#eef4fb", "#0b5c8a")
            };
            let _ = writeln!(
                out,
                "<g><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{WIDTH}\" height=\"{h:.1}\" rx=\"8\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"2\"/>"
            );
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"14\" font-weight=\"700\" fill=\"#1b1f24\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" fill=\"#3d4650\">{}</text>",
                x + 10.0,
                y + 19.0,
                xml(&node.id),
                x + 10.0,
                y + 35.0,
                xml(&node.path)
            );
            for (i, line) in lines_of(node).iter().enumerate() {
                let _ = writeln!(
                    out,
                    "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#1b1f24\">{}</text>",
                    x + if line.starts_with("    ") { 22.0 } else { 10.0 },
                    y + 51.0 + LINE * i as f64,
                    xml(line.trim_start())
                );
            }
            out.push_str("</g>\n");
        }
        out.push_str("</svg>\n");
        out
    }
}

/// Breaks a note into lines of at most about `max` characters, after ", " or a space; the
/// lines after the first are indented.
fn wrap(s: &str, max: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
            line.push_str("    ");
        }
        if !line.is_empty() && !line.ends_with("    ") {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.trim().is_empty() {
        lines.push(line);
    }
    lines
}

/// Text for an XML (SVG) attribute or element.
pub fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refused_answers_are_found_under_arrays_and_conditions() {
        let schema = json!({
            "type": "object",
            "properties": {
                "pets": { "type": "array", "items": { "type": "object", "properties": {
                    "idd": { "enum": ["yes", "no"], "not": { "const": "no" }, "x-errors": { "not": "assumptions.idd.refused" } },
                    "age": { "type": "integer" }
                }, "allOf": [{ "if": {}, "then": { "properties": {
                    "bully": { "not": { "enum": ["yes", "unsure"] }, "x-errors": { "not": "pet.xl" } }
                } } }] } }
            }
        });
        assert_eq!(
            refused_answers(&schema),
            vec![
                (
                    "pets[].idd".to_owned(),
                    "\"no\"".to_owned(),
                    "assumptions.idd.refused".to_owned()
                ),
                (
                    "pets[].bully".to_owned(),
                    "\"yes\" or \"unsure\"".to_owned(),
                    "pet.xl".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn text_is_escaped_for_each_format() {
        assert_eq!(xml("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(mermaid_text("say \"x\" <y>"), "say #quot;x#quot; #lt;y#gt;");
        assert_eq!(
            wrap(
                "rules: pet_species_offered, pet_breed_eligibility, pet_age_window",
                30
            ),
            vec![
                "rules: pet_species_offered,",
                "    pet_breed_eligibility,",
                "    pet_age_window"
            ]
        );
    }
}
