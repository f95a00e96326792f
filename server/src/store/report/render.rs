//! The funnel as people read it: a table for the terminal, CSV for a spreadsheet, an SVG chart.

use std::fmt::Write as _;

use engine::checks::graph::xml;

use super::funnel::FunnelRow;

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
