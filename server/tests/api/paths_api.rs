//! Every path through a journey, generated, run against the API: each generated path
//! of the direct, aggregator and rehoming journeys on every brand that offers them, as a new
//! visitor, call by call. The test fails on any step a path cannot reach, any 5xx, and any page
//! whose view data does not validate against `tests/view-data.schema.json`. The annual rehoming
//! journey is linked only (its quotes are made from a bought policy's link), so it has no new
//! quote to walk from; its API tests start from a link (rehoming_api.rs).

use crate::common;

use std::collections::BTreeMap;

use common::*;
use pawpath::tools::paths::{Generated, PURCHASE, generate_for};
use serde_json::{Value, json};

fn generated(journey: &str) -> Vec<Generated> {
    let defs = engine::Definitions::load(&engine::definitions::FsLoader::new(repo_root()))
        .expect("definitions");
    generate_for(
        &defs,
        journey,
        None,
        &repo_root().join("tests/flows"),
        &repo_root().join("server/data/vocalink"),
    )
    .expect("paths")
}

fn view_data_schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(repo_root().join("tests/view-data.schema.json"))
        .expect("tests/view-data.schema.json");
    jsonschema::validator_for(&serde_json::from_str(&text).expect("JSON")).expect("compiles")
}

fn invalid(schema: &jsonschema::Validator, data: &Value) -> Option<String> {
    let errors: Vec<String> = schema
        .iter_errors(data)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    (!errors.is_empty()).then(|| errors.join("; "))
}

/// Runs one path as a new visitor (a browser of its own); the problems found, each naming the
/// call.
async fn run(
    app: &TestApp,
    schema: &jsonschema::Validator,
    path: &pawpath::tools::paths::GeneratedPath,
) -> Vec<String> {
    let mut problems = Vec::new();
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let first = client
        .get(format!("{}{}?brand={}", app.base, path.start, path.brand))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    if first.status() != 200 {
        return vec![format!(
            "{}: {} answered {}",
            path.id,
            path.start,
            first.status()
        )];
    }
    let data = first.json::<Value>().await.expect("json")["data"].clone();
    if let Some(e) = invalid(schema, &data) {
        problems.push(format!("{}: {} view data: {e}", path.id, path.start));
    }
    let csrf = data["csrf"].as_str().unwrap_or_default().to_owned();
    for (i, call) in path.calls.iter().enumerate() {
        let here = format!("{} call {} {}", path.id, i + 1, call.call);
        let mut body = call.body.clone();
        body["csrf"] = json!(csrf);
        let r = client
            .post(format!("{}{}", app.base, call.call))
            .json(&body)
            .send()
            .await
            .expect("post");
        let status = r.status().as_u16();
        let answer: Value = r.json().await.unwrap_or(Value::Null);
        if status >= 500 {
            problems.push(format!("{here}: {status} {answer}"));
            break;
        }
        let wanted: &[u16] = match call.outcome.as_str() {
            "moved" | "blocked" => &[200],
            "invalid" => &[422],
            // A step the quote cannot open: refused with nothing stored (409), or answers stored
            // on a step whose way on a guard keeps closed (200).
            "refused_by_guard" => &[409, 200],
            _ => &[409],
        };
        if !wanted.contains(&status) {
            problems.push(format!(
                "{here}: {status}, the engine said {} on {}: {answer}",
                call.outcome, call.step
            ));
            break;
        }
        if status == 200 {
            let data = &answer["data"];
            if let Some(e) = invalid(schema, data) {
                problems.push(format!("{here}: view data: {e}"));
            }
            let on = data["step"]["id"].as_str().unwrap_or_default();
            if matches!(call.outcome.as_str(), "moved" | "blocked") && on != call.step {
                problems.push(format!("{here}: on {on}, the path expects {}", call.step));
                break;
            }
            if call.outcome == "blocked"
                && data["step"]["blocks"].as_array().is_none_or(Vec::is_empty)
            {
                problems.push(format!("{here}: blocked, but the page shows no block"));
            }
        }
        if call.call == PURCHASE && status == 200 && answer["data"]["purchase"].is_null() {
            problems.push(format!("{here}: bought, but no purchase on the page"));
        }
    }
    problems
}

#[tokio::test]
async fn every_generated_path_runs_against_the_api() {
    let app = spawn_app().await;
    let schema = view_data_schema();
    let mut problems = Vec::new();
    let mut counted: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for journey in ["direct", "aggregator", "rehoming"] {
        for generated in generated(journey) {
            assert!(
                !generated.paths.is_empty(),
                "{journey} on {}: no paths",
                generated.brand
            );
            let c = &generated.coverage;
            // The generator reaches every step but those its answers cannot (a card needs the
            // provider's token; a rehoming certificate, a file): what it misses is named.
            assert!(
                c.steps.0 * 2 >= c.steps.1,
                "{journey} on {}: steps {:?}: {:?}",
                generated.brand,
                c.steps,
                c.missed
            );
            let entry = counted.entry(journey.to_owned()).or_default();
            entry.0 += generated.paths.len();
            entry.1 += generated.paths.iter().map(|p| p.calls.len()).sum::<usize>();
            // Each path is its own browser (a cookie store of its own): eight at a time.
            for paths in generated.paths.chunks(8) {
                let found = futures_util::future::join_all(
                    paths.iter().map(|path| run(&app, &schema, path)),
                )
                .await;
                problems.extend(found.into_iter().flatten());
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    println!("ran {counted:?} (journey: paths, calls)");
    // Each journey's paths include a purchase where it can be bought.
    for journey in ["direct", "aggregator"] {
        for generated in generated(journey) {
            assert!(
                generated.paths.iter().any(|p| p.ends == "bought"),
                "{journey} on {}: no path buys",
                generated.brand
            );
        }
    }
}

#[test]
fn the_generator_covers_the_direct_journey_and_names_what_it_misses() {
    let pos = generated("direct")
        .into_iter()
        .find(|g| g.brand == "pos")
        .expect("pos sells the direct journey");
    let c = &pos.coverage;
    // Every step but the card confirmation (pos takes no cards), both ways of the guards a
    // new quote can meet, and the refusals of the flows' answers and their variants.
    assert_eq!(c.steps, (8, 8 + 1), "{:?}", c.missed);
    assert!(c.exits.0 >= 9, "{:?}", c.missed);
    assert!(c.guards_both_ways.0 >= 4, "{:?}", c.missed);
    assert!(c.refusals >= 15, "{c:?}");
    assert!(c.missed.iter().any(|m| m == "step:card_confirmation"));
    let ends: Vec<&str> = pos.paths.iter().map(|p| p.ends.as_str()).collect();
    assert!(ends.contains(&"bought"), "{ends:?}");
    assert!(
        ends.iter().any(|e| e.starts_with("invalid on assumptions")),
        "{ends:?}"
    );
    assert!(ends.iter().any(|e| e.starts_with("refused on")), "{ends:?}");
    // A brand that takes no rabbits refuses one on the pet page; a brand that does prices it.
    let refuses_rabbits = |brand: &str| {
        generated("direct")
            .into_iter()
            .find(|g| g.brand == brand)
            .expect("brand")
            .paths
            .iter()
            .flat_map(|p| &p.calls)
            .any(|c| {
                c.call == "/api/petdetails"
                    && c.body["pets"][0]["pet_type"] == "rabbit"
                    && c.outcome == "invalid"
            })
    };
    assert!(refuses_rabbits("sbp"), "sbp offers no rabbits (flow 04)");
    // The linked-only journey is refused, naming why.
    let defs = engine::Definitions::load(&engine::definitions::FsLoader::new(repo_root()))
        .expect("definitions");
    let refused = generate_for(
        &defs,
        "annual_rehoming",
        None,
        &repo_root().join("tests/flows"),
        &repo_root().join("server/data/vocalink"),
    )
    .expect_err("linked only");
    assert!(refused.contains("linked only"), "{refused}");
    let refused = generate_for(
        &defs,
        "rehoming",
        Some("pos"),
        &repo_root().join("tests/flows"),
        &repo_root().join("server/data/vocalink"),
    )
    .expect_err("pos has no rehoming flow");
    assert!(
        refused.contains("pos does not offer the rehoming journey"),
        "{refused}"
    );
}
