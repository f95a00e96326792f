//! QA's scripted flows: every file in tests/flows/ run against the API. Each flow starts
//! a quote on its brand and channel, then opens pages and sends answers, checking what follows:
//! the step, blocking messages, field errors, prices. The same files run through the browser in
//! tests/e2e/flows.spec.ts.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};

pub(crate) fn flows_dir() -> PathBuf {
    repo_root().join("tests/flows")
}

pub(crate) fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read"))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `{"$use": name, "set": {...}}` anywhere in the answers: the named set with `set` over it;
/// "{today}", "{today-1}", "{today+45}": a UK date relative to today. The generator's own
/// expansion (`pawpath paths` tries the same answers).
fn expand(value: &Value, sets: &Value) -> Value {
    pawpath::tools::paths::expand_answers(value, sets, uk_today()).unwrap_or_else(|e| panic!("{e}"))
}

/// An expected message with "{uk:today+30}" in it: that UK date as the pages write it,
/// DD/MM/YYYY (a message that names a date relative to today).
fn expand_message(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{uk:today") {
        out.push_str(&rest[..start]);
        let tail = &rest[start + "{uk:today".len()..];
        let end = tail.find('}').expect("a closing brace");
        let days: i64 = if tail[..end].is_empty() {
            0
        } else {
            tail[..end]
                .trim_start_matches('+')
                .parse()
                .expect("a number of days")
        };
        out.push_str(
            &(uk_today() + chrono::Duration::days(days))
                .format("%d/%m/%Y")
                .to_string(),
        );
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
}

pub(crate) fn flow_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(flows_dir())
        .expect("tests/flows")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".json") && !name.starts_with('_') && name != "flow.schema.json"
        })
        .collect();
    files.sort();
    files
}

/// Runs one flow as a new visitor: a server beside `shared` (its database and definitions) with a
/// browser of its own and few database connections (3: every flow's server stays up until the
/// test ends, and PostgreSQL's 100 connections are shared by the tests running at once). The
/// problems found, each naming the step.
pub(crate) async fn run(shared: &TestApp, path: &Path, sets: &Value) -> Vec<String> {
    let flow = read(path);
    let app = shared
        .another_server(&[("PAWPATH_DATABASE_CONNECTIONS", "3".to_owned())])
        .await;
    let base = match (
        flow.get("flow").and_then(Value::as_str),
        flow["channel"].as_str(),
    ) {
        (Some("rehoming"), _) => "/rehoming",
        (_, Some("aggregator")) => "/aggregators/quote",
        _ => "/quote",
    };
    let brand = flow["brand"].as_str().expect("brand");
    let first = app.view(&format!("{base}?brand={brand}")).await;
    // The page the customer is on: what the last answer drew.
    let mut shown = first.clone();
    let mut problems = Vec::new();
    if first["brand"] != brand {
        problems.push(format!(
            "the quote is on brand {}, not {brand}",
            first["brand"]
        ));
    }
    if let Some(language) = flow.get("language").and_then(Value::as_str) {
        let csrf = app.csrf().await;
        let (status, body) = app
            .post_json(
                "/api/language",
                &json!({ "csrf": csrf, "language": language }),
            )
            .await;
        if status != 200 {
            problems.push(format!("choosing {language}: {status} {body}"));
        }
    }
    for (i, step) in flow["steps"].as_array().expect("steps").iter().enumerate() {
        let here = format!("step {i}");
        let expect = step.get("expect").cloned().unwrap_or(json!({}));
        let (status, data, errors) = if let Some(page) = step.get("open").and_then(Value::as_str) {
            let r = app
                .client
                .get(format!("{}{page}", app.base))
                .header("Accept", "application/json")
                .send()
                .await
                .expect("get");
            let status = r.status().as_u16();
            let body: Value = r.json().await.unwrap_or(Value::Null);
            (status, body["data"].clone(), Value::Null)
        } else {
            let call = step["call"].as_str().expect("call");
            let mut body = expand(&step["answers"], sets);
            body["csrf"] = json!(app.csrf().await);
            // As the cover page does (renderer: features/cover), a call sent from it carries the
            // view of the cover type experiment the customer was shown (journey.md §6).
            if shown["step"]["id"] == "choose_policy"
                && let Some(variation) = shown["experiments"]["cover_type_guide"].as_str()
            {
                body["experiment_views"] = json!([format!("cover_type_guide:{variation}")]);
            }
            let (status, answer) = app.post_json(call, &body).await;
            (status, answer["data"].clone(), answer["errors"].clone())
        };
        let wanted_status = expect.get("status").and_then(Value::as_u64).unwrap_or(200);
        if u64::from(status) != wanted_status {
            problems.push(format!(
                "{here}: status {status}, expected {wanted_status}; errors {errors}"
            ));
            continue;
        }
        if status == 200 && data["step"].is_object() {
            shown = data.clone();
        }
        if let Some(wanted) = expect.get("step").and_then(Value::as_str)
            && data["step"]["id"] != wanted
        {
            problems.push(format!(
                "{here}: on step {}, expected {wanted}",
                data["step"]["id"]
            ));
        }
        for e in expect
            .get("errors")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let found = errors.as_array().into_iter().flatten().any(|x| {
                x["field"] == e["field"]
                    && x["message"].as_str() == e["message"].as_str().map(expand_message).as_deref()
            });
            if !found {
                problems.push(format!("{here}: no field error {e}; got {errors}"));
            }
        }
        for b in expect
            .get("blocks")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let found = data["step"]["blocks"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|x| &x["message"] == b);
            if !found {
                problems.push(format!(
                    "{here}: no block {b}; got {}",
                    data["step"]["blocks"]
                ));
            }
        }
        let product = |code: &str| {
            data["products"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|p| p["Code"] == code && p["petid"] == 1)
                .cloned()
        };
        for (code, range) in expect
            .get("prices")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let (low, high): (Decimal, Decimal) = (
                range[0].as_str().and_then(|s| s.parse().ok()).expect("low"),
                range[1]
                    .as_str()
                    .and_then(|s| s.parse().ok())
                    .expect("high"),
            );
            match product(code).and_then(|p| {
                p["RecurringMonthly"]
                    .as_str()
                    .and_then(|s| s.parse::<Decimal>().ok())
            }) {
                Some(price) if price >= low && price <= high => {}
                Some(price) => problems.push(format!(
                    "{here}: {code} costs {price} a month, expected {low} to {high}"
                )),
                None => problems.push(format!("{here}: {code} is not offered")),
            }
        }
        for code in expect
            .get("not_offered")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if product(code.as_str().unwrap_or("")).is_some() {
                problems.push(format!("{here}: {code} is offered"));
            }
        }
    }
    problems
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .expect("name")
        .to_string_lossy()
        .to_string()
}

#[tokio::test]
async fn every_scripted_flow_runs_against_the_api() {
    let sets = read(&flows_dir().join("_answers.json"));
    let schema = read(&flows_dir().join("flow.schema.json"));
    let validator = jsonschema::validator_for(&schema).expect("the flow schema compiles");
    let files = flow_files();
    assert!(
        files.len() >= 20,
        "{} flows; at least twenty are kept",
        files.len()
    );
    let mut failures = Vec::new();
    // Every flow's quotes in one database: the funnel below is drawn from them.
    let shared = spawn_app().await;
    let mut valid = Vec::new();
    for path in &files {
        let flow = read(path);
        let invalid: Vec<String> = validator
            .iter_errors(&flow)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        if invalid.is_empty() {
            valid.push(path);
        } else {
            failures.push(format!("{}: {}", name_of(path), invalid.join("; ")));
        }
    }
    // Each flow is its own visitor: eight at a time.
    for paths in valid.chunks(8) {
        let found =
            futures_util::future::join_all(paths.iter().map(|path| run(&shared, path, &sets)))
                .await;
        for (path, problems) in paths.iter().zip(found) {
            failures.extend(
                problems
                    .into_iter()
                    .map(|p| format!("{}: {p}", name_of(path))),
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // The direct journey's funnel over the flows' own quotes, as `pawpath report funnel` draws
    // it: journeys/README.md shows tests/flows/direct-funnel.svg, held to the command's output here.
    let out_dir = tempfile::tempdir().expect("tempdir");
    let svg = out_dir.path().join("funnel.svg");
    let done = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args(["report", "funnel", "--journey", "direct", "--svg"])
        .arg(&svg)
        .env("PAWPATH_DEFINITIONS", &shared.definitions_root)
        .env("PAWPATH_DATA_DIR", &shared.data_dir)
        .env("DATABASE_URL", &shared.database_url)
        .output()
        .expect("run pawpath report");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let drawn = std::fs::read_to_string(&svg).expect("svg");
    let kept = flows_dir().join("direct-funnel.svg");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(&kept, &drawn).expect("write");
    }
    assert!(
        std::fs::read_to_string(&kept).unwrap_or_default() == drawn,
        "tests/flows/direct-funnel.svg is not the funnel of the flows: run UPDATE_SNAPSHOTS=1 cargo test -p pawpath-server --test api flows"
    );

    every_flow_replays(&shared).await;

    // The experiment report over the flows' quotes (journeys/README.md "Experiments, read"): the flows
    // that reach the cover page send its view, as the page does.
    let done = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args([
            "report",
            "experiment",
            "cover_type_guide",
            "--journey",
            "direct",
        ])
        .env("PAWPATH_DEFINITIONS", &shared.definitions_root)
        .env("PAWPATH_DATA_DIR", &shared.data_dir)
        .env("DATABASE_URL", &shared.database_url)
        .output()
        .expect("run pawpath report experiment");
    let report = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let saw: u64 = report
        .lines()
        .filter(|l| l.starts_with("tiles ") || l.starts_with("guide "))
        .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum();
    assert!(
        saw >= 3,
        "the flows that reach the cover page are counted:\n{report}"
    );
    if std::env::var("SHOW_README").is_ok() {
        println!("$ pawpath report experiment cover_type_guide --journey direct\n{report}");
    }
}

/// Any quote replayed: every quote the flows made, on every brand, channel and
/// journey, replayed; each event run again on its definitions version and day must agree with
/// its log row (outcome, step, guards, field errors, blocks, pricing), and each page shown must
/// be drawn.
async fn every_flow_replays(shared: &TestApp) {
    use pawpath::tools::replay::print::text;
    use pawpath::tools::replay::{Ask, MAX_SHOWN, replay};
    let state = pawpath::App::state(config_for(
        &shared.data_dir,
        &shared.database_url,
        &shared.definitions_root,
    ))
    .await
    .expect("state");
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&shared.database_url)
        .await
        .expect("connect");
    let quotes: Vec<(String, String)> = sqlx::query_as(
        "select q.quote_ref, q.lifecycle from quotes q
         where exists (select 1 from step_transitions t where t.quote_id = q.id)
         order by q.created_at",
    )
    .fetch_all(&pool)
    .await
    .expect("quotes");
    pool.close().await;
    assert!(
        quotes.len() >= 20,
        "{} quotes with transitions",
        quotes.len()
    );
    let mut problems = Vec::new();
    let (mut events, mut bought, mut from_log) = (0, 0, 0);
    for (reference, lifecycle) in &quotes {
        let ask = Ask {
            reference: reference.clone(),
            from: 1,
            count: MAX_SHOWN,
            pages: true,
        };
        let replayed = replay(&state, &ask).await.expect("replay");
        if let Some(note) = &replayed.note {
            problems.push(format!("{reference}: {note}"));
        }
        assert!(
            replayed.transitions <= MAX_SHOWN,
            "{reference}: {} transitions",
            replayed.transitions
        );
        for step in &replayed.steps {
            events += 1;
            // A refused write-only answer (a bank account number that fails its check) is never
            // kept, so its check cannot be made again: the log's verdict stands, and is all.
            let refused_secret = step.replay["status"] == "from_log" && step.outcome == "invalid";
            if step.replay["status"] == "from_log" {
                from_log += 1;
            }
            if step.replay["status"] != "reproduced" && !refused_secret {
                problems.push(format!(
                    "{reference} #{} {}: {}",
                    step.n, step.event, step.replay
                ));
            }
            match &step.page {
                Some(page) if page.get("not_drawn").is_none() => {}
                other => problems.push(format!(
                    "{reference} #{} {}: page {other:?}",
                    step.n, step.event
                )),
            }
        }
        if lifecycle == "purchased" {
            bought += 1;
            let last = replayed.steps.last().expect("a bought quote's transitions");
            assert_eq!(last.event, "purchase", "{reference}");
            assert!(
                last.page
                    .as_ref()
                    .is_some_and(|p| p["step"]["terminal"] == true
                        || p["purchase"].is_object()
                        || p["step"]["id"].as_str().is_some()),
                "{reference}: the confirmation page"
            );
        }
        // README.md's "Any quote replayed" shows this for the flows' bought quote.
        if std::env::var("SHOW_README").is_ok() && lifecycle == "purchased" {
            println!("$ pawpath replay {reference}\n{}", text(&replayed));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(bought >= 1, "{bought} bought quotes among the flows'");
    println!(
        "replayed {} quotes ({bought} bought), {events} events: {} run again and agreeing with the log, {from_log} refused write-only answers taken from the log",
        quotes.len(),
        events - from_log
    );
}
